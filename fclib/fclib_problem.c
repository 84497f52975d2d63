/* fclib_problem.c: the FCLIB problem of a DVI step (clab_fclib.h): the global form from the
 * CCP rows and the bodies, the local form W = H^T M^-1 H, the errors of Coulomb's problem. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clab_fclib.h"
#include "cone.h"

void clab_fc_init(clab_fc_problem *fp) { memset(fp, 0, sizeof *fp); }

static void csc_free(clab_fc_csc *A)
{
    free(A->p);
    free(A->i);
    free(A->x);
    memset(A, 0, sizeof *A);
}

void clab_fc_free(clab_fc_problem *fp)
{
    csc_free(&fp->W);
    csc_free(&fp->M);
    csc_free(&fp->H);
    free(fp->q);
    free(fp->mu);
    free(fp->f);
    free(fp->w);
    free(fp->r);
    free(fp->u);
    free(fp->v);
    clab_fc_init(fp);
}

int clab_fc_csc_alloc(clab_fc_csc *A, int m, int n, size_t nnz)
{
    A->m = m;
    A->n = n;
    A->p = calloc((size_t)n + 1, sizeof *A->p);
    A->i = malloc((nnz ? nnz : 1) * sizeof *A->i);
    A->x = malloc((nnz ? nnz : 1) * sizeof *A->x);
    return A->p && A->i && A->x ? CLAB_OK : CLAB_ENOMEM;
}

/* inverse of a symmetric positive definite 3x3 (cofactors); 0 when singular */
static int inv3(const double A[9], double X[9])
{
    double c0 = A[4] * A[8] - A[5] * A[7], c1 = A[5] * A[6] - A[3] * A[8], c2 = A[3] * A[7] - A[4] * A[6];
    double det = A[0] * c0 + A[1] * c1 + A[2] * c2;
    if (!(det > 0.0) || !isfinite(det)) return 0;
    double id = 1.0 / det;
    X[0] = c0 * id, X[3] = c1 * id, X[6] = c2 * id;
    X[1] = (A[2] * A[7] - A[1] * A[8]) * id, X[4] = (A[0] * A[8] - A[2] * A[6]) * id, X[7] = (A[1] * A[6] - A[0] * A[7]) * id;
    X[2] = (A[1] * A[5] - A[2] * A[4]) * id, X[5] = (A[2] * A[3] - A[0] * A[5]) * id, X[8] = (A[0] * A[4] - A[1] * A[3]) * id;
    return 1;
}

int clab_fc_M_inverse(const clab_fc_csc *M, double *Minv, clab_error *err)
{
    if (M->n != M->m || M->n % 6)
        return clab_error_set(err, CLAB_EINVAL, "fclib: M is %d x %d, not 6 columns per body: not a 3-D rigid-body "
                                                "problem", M->m, M->n);
    for (int g = 0; g < M->n / 6; g++) {
        double B[36] = {0};
        for (int c = 0; c < 6; c++) {
            int col = 6 * g + c;
            for (int e = M->p[col]; e < M->p[col + 1]; e++) {
                int r = M->i[e] - 6 * g;
                if (r < 0 || r >= 6)
                    return clab_error_set(err, CLAB_EINVAL, "fclib: M couples body %d (columns %d..%d) with row %d: "
                                                            "not block diagonal", g, 6 * g, 6 * g + 5, M->i[e]);
                B[6 * r + c] += M->x[e];
            }
        }
        double m = B[0], J[9], *X = &Minv[10 * g];
        int ok = m > 0.0 && B[7] == m && B[14] == m;
        for (int r = 0; r < 6; r++)
            for (int c = 0; c < 6; c++)
                if ((r < 3) != (c < 3) || (r < 3 && r != c)) ok = ok && B[6 * r + c] == 0.0;
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) J[3 * r + c] = B[6 * (r + 3) + c + 3];
        if (!ok || !inv3(J, X + 1))
            return clab_error_set(err, CLAB_EINVAL, "fclib: body %d (columns %d..%d of M): not m I (m > 0) beside a "
                                                    "positive definite inertia block", g, 6 * g, 6 * g + 5);
        X[0] = 1.0 / m;
    }
    return CLAB_OK;
}

/* W = H^T M^-1 H for the block-diagonal M^-1 (Minv, clab_fc_M_inverse), column by column:
 * d = M^-1 H_l on the bodies column l touches, then W_kl = H_k . d for every column k sharing
 * a body with l. Sorted row indices. */
int clab_fc_form_W(const clab_fc_csc *H, const double *Minv, clab_fc_csc *W)
{
    const int n = H->n, nd = H->m, ng = nd / 6;
    int rc = CLAB_ENOMEM;
    /* the columns touching each body group: a CSR copy of the group pattern */
    int *gs = calloc((size_t)ng + 1, sizeof *gs), *gc = malloc(((size_t)H->p[n] + 1) * sizeof *gc);
    double *acc = calloc((size_t)n + 1, sizeof *acc), *dcol = calloc((size_t)nd + 1, sizeof *dcol);
    int *mark = malloc(((size_t)n + 1) * sizeof *mark), *list = malloc(((size_t)n + 1) * sizeof *list);
    int *gmark = malloc(((size_t)ng + 1) * sizeof *gmark);
    size_t cap = (size_t)H->p[n] * 4 + 16, nnz = 0;
    memset(W, 0, sizeof *W);
    if (!gs || !gc || !acc || !dcol || !mark || !list || !gmark) goto out;
    for (int g = 0; g < ng; g++) gmark[g] = -1;
    for (int c = 0; c < n; c++)
        for (int e = H->p[c]; e < H->p[c + 1]; e++) {
            int g = H->i[e] / 6;
            if (gmark[g] != c) gmark[g] = c, gs[g + 1]++;
        }
    for (int g = 0; g < ng; g++) gs[g + 1] += gs[g];
    {
        int *fill = malloc(((size_t)ng + 1) * sizeof *fill);
        if (!fill) goto out;
        memcpy(fill, gs, (size_t)ng * sizeof *fill);
        for (int g = 0; g < ng; g++) gmark[g] = -1;
        for (int c = 0; c < n; c++)
            for (int e = H->p[c]; e < H->p[c + 1]; e++) {
                int g = H->i[e] / 6;
                if (gmark[g] != c) gmark[g] = c, gc[fill[g]++] = c;
            }
        free(fill);
    }
    W->m = W->n = n;
    W->p = calloc((size_t)n + 1, sizeof *W->p);
    W->i = malloc(cap * sizeof *W->i);
    W->x = malloc(cap * sizeof *W->x);
    if (!W->p || !W->i || !W->x) goto out;
    for (int c = 0; c < n; c++) mark[c] = -1;
    for (int g = 0; g < ng; g++) gmark[g] = -1;
    for (int l = 0; l < n; l++) {
        int nl = 0, gl[8], ngl = 0;
        /* the groups of column l and d = M^-1 H_l on them */
        for (int e = H->p[l]; e < H->p[l + 1]; e++) {
            int g = H->i[e] / 6;
            if (gmark[g] != l && ngl < 8) gmark[g] = l, gl[ngl++] = g;
        }
        for (int a = 0; a < ngl; a++) {
            int g = gl[a];
            double h6[6] = {0};
            for (int e = H->p[l]; e < H->p[l + 1]; e++)
                if (H->i[e] / 6 == g) h6[H->i[e] % 6] = H->x[e];
            const double *X = &Minv[10 * g];
            double *d = &dcol[6 * g];
            d[0] = X[0] * h6[0], d[1] = X[0] * h6[1], d[2] = X[0] * h6[2];
            for (int r = 0; r < 3; r++) d[3 + r] = X[1 + 3 * r] * h6[3] + X[2 + 3 * r] * h6[4] + X[3 + 3 * r] * h6[5];
            for (int t = gs[g]; t < gs[g + 1]; t++) {
                int k = gc[t];
                if (mark[k] == l) continue;
                mark[k] = l;
                list[nl++] = k;
            }
        }
        /* sorted rows (insertion sort: a few dozen per column) */
        for (int a = 1; a < nl; a++) {
            int v = list[a], b = a - 1;
            while (b >= 0 && list[b] > v) list[b + 1] = list[b], b--;
            list[b + 1] = v;
        }
        for (int a = 0; a < nl; a++) {
            int k = list[a];
            double s = 0.0;
            for (int e = H->p[k]; e < H->p[k + 1]; e++) s += H->x[e] * dcol[H->i[e]]; /* 0 off column l's bodies */
            acc[k] = s;
        }
        for (int a = 0; a < ngl; a++)
            for (int r = 0; r < 6; r++) dcol[6 * gl[a] + r] = 0.0;
        if (nnz + (size_t)nl > cap) {
            cap = 2 * (nnz + (size_t)nl);
            int *ni = realloc(W->i, cap * sizeof *ni);
            if (!ni) goto out;
            W->i = ni;
            double *nx = realloc(W->x, cap * sizeof *nx);
            if (!nx) goto out;
            W->x = nx;
        }
        for (int a = 0; a < nl; a++) {
            W->i[nnz] = list[a];
            W->x[nnz++] = acc[list[a]];
        }
        W->p[l + 1] = (int)nnz;
    }
    rc = CLAB_OK;
out:
    free(gs);
    free(gc);
    free(acc);
    free(dcol);
    free(mark);
    free(list);
    free(gmark);
    return rc;
}

/* y = A x (+ y when add) */
static void csc_gemv(const clab_fc_csc *A, const double *x, double *y, int add)
{
    if (!add)
        for (int r = 0; r < A->m; r++) y[r] = 0.0;
    for (int c = 0; c < A->n; c++)
        for (int e = A->p[c]; e < A->p[c + 1]; e++) y[A->i[e]] += A->x[e] * x[c];
}

void clab_fc_local_velocity(const clab_fc_problem *fp, const double *r, double *u)
{
    memcpy(u, fp->q, 3 * fp->nc * sizeof *u);
    csc_gemv(&fp->W, r, u, 1);
}

/* |F|_2 of the natural map of Coulomb's problem with De Saxce's modified velocity, rho = 1 */
static double natural_map_norm(const clab_fc_problem *fp, const double *r, const double *u)
{
    double s = 0.0;
    for (size_t i = 0; i < fp->nc; i++) {
        const double *ri = r + 3 * i, *ui = u + 3 * i;
        double y[3] = {ri[0] - (ui[0] + fp->mu[i] * hypot(ui[1], ui[2])), ri[1] - ui[1], ri[2] - ui[2]};
        clab_cone_project(fp->mu[i], y);
        for (int k = 0; k < 3; k++) s += (ri[k] - y[k]) * (ri[k] - y[k]);
    }
    return sqrt(s);
}

static double norm2(const double *x, size_t n)
{
    double s = 0.0;
    for (size_t k = 0; k < n; k++) s += x[k] * x[k];
    return sqrt(s);
}

double clab_fc_error_siconos(const clab_fc_problem *fp, const double *r, const double *u)
{
    double nq = norm2(fp->q, 3 * fp->nc);
    double F = natural_map_norm(fp, r, u);
    return nq > 0.0 ? F / nq : F;
}

/* ---- the export ---- */

/* The global form of the step: v = (rdot, omega) of the moving bodies, omega = A wbar the
 * world angular velocity, M = diag(m I, A Jbar A^T), H = D in the world frame (column k:
 * (-t, -(r_a x t)) on body a, (t, r_b x t) on body b, the items of ccp.h), f = M v*,
 * w. M^-1 for W: the CCP's own world inverse inertia (P->minv). */
static int global_form(const clab_sim *s, const clab_dvi_problem *dp, clab_fc_problem *fp, int *dof_of,
                       double **Minv, clab_error *err)
{
    const clab_ccp *P = dp->ccp;
    const clab_world *w = s->world;
    size_t nb = P->nbodies, nmov = 0;
    for (size_t k = 0; k < nb; k++) dof_of[k] = w->bodies[k].fixed ? -1 : 6 * (int)nmov++;
    int nd = (int)(6 * nmov), n = (int)P->n;
    if (clab_fc_csc_alloc(&fp->M, nd, nd, 12 * nmov) || clab_fc_csc_alloc(&fp->H, nd, n, 12 * (size_t)n))
        return clab_error_set(err, CLAB_ENOMEM, "fclib: out of memory for M and H (%d unknowns)", nd);
    fp->f = malloc(((size_t)nd + 1) * sizeof *fp->f);
    fp->v = malloc(((size_t)nd + 1) * sizeof *fp->v);
    fp->w = calloc((size_t)n, sizeof *fp->w);
    *Minv = malloc((10 * nmov + 1) * sizeof **Minv);
    double *du = malloc((6 * nb + 1) * sizeof *du);
    if (!fp->f || !fp->v || !fp->w || !du || !*Minv) {
        free(du);
        return clab_error_set(err, CLAB_ENOMEM, "fclib: out of memory for f, v, w");
    }
    /* M^-1 D nu: the step's change of (rdot, wbar), so v* = v(l+1) - M^-1 D nu (to rounding) */
    clab_ccp_minv_P(P, dp->nu, du);
    int e = 0;
    for (size_t k = 0; k < nb; k++) {
        if (dof_of[k] < 0) continue;
        const clab_body *B = &w->bodies[k];
        const double *A = &P->rot[9 * k], *mi = &P->minv[8 * k];
        int j = dof_of[k];
        double wb[3] = {B->wbar.x, B->wbar.y, B->wbar.z}, J[3] = {B->J.x, B->J.y, B->J.z}, Jw[9], om[3], Lw[3];
        /* A Jbar A^T (exactly J I for a sphere: Jbar isotropic), omega = A wbar, and the
         * angular momentum A Jbar (wbar - change) of v* */
        int iso = J[0] == J[1] && J[1] == J[2];
        for (int r = 0; r < 3; r++) {
            om[r] = A[3 * r] * wb[0] + A[3 * r + 1] * wb[1] + A[3 * r + 2] * wb[2];
            Lw[r] = 0.0;
            for (int c = 0; c < 3; c++) {
                Jw[3 * r + c] = iso ? (r == c ? J[0] : 0.0)
                                    : A[3 * r] * J[0] * A[3 * c] + A[3 * r + 1] * J[1] * A[3 * c + 1] +
                                          A[3 * r + 2] * J[2] * A[3 * c + 2];
                Lw[r] += A[3 * r + c] * J[c] * (wb[c] - du[6 * k + 3 + (size_t)c]);
            }
        }
        for (int c = 0; c < 3; c++) { /* the mass columns */
            fp->M.i[e] = j + c;
            fp->M.x[e++] = B->m;
            fp->M.p[j + c + 1] = e;
            fp->v[j + c] = (&B->rdot.x)[c];
            fp->f[j + c] = B->m * ((&B->rdot.x)[c] - du[6 * k + (size_t)c]);
        }
        for (int c = 0; c < 3; c++) { /* the inertia block, full */
            for (int r = 0; r < 3; r++) fp->M.i[e] = j + 3 + r, fp->M.x[e++] = Jw[3 * r + c];
            fp->M.p[j + 3 + c + 1] = e;
            fp->v[j + 3 + c] = om[c];
            fp->f[j + 3 + c] = Lw[c];
        }
        /* M^-1: 1/m and the CCP's world inverse inertia (xx, xy, xz, yy, yz, zz) */
        double *X = &(*Minv)[10 * (size_t)(j / 6)];
        X[0] = mi[0];
        X[1] = mi[1], X[2] = mi[2], X[3] = mi[3];
        X[4] = mi[2], X[5] = mi[4], X[6] = mi[5];
        X[7] = mi[3], X[8] = mi[5], X[9] = mi[6];
    }
    free(du);
    /* H: column 3i+q from the item of contact i, direction t = t_q, arms r_a, r_b (world) */
    e = 0;
    for (int k = 0; k < n; k++) {
        const clab_ccp_item *it = &P->items[k / 3];
        const double *t = &it->t[3 * (k % 3)];
        int body[2] = {it->a, it->b};
        for (int side = 0; side < 2; side++) {
            int j = dof_of[body[side]];
            if (j < 0) continue;
            double sg = side ? 1.0 : -1.0;
            const double *r = &it->r[3 * side];
            double rt[3] = {r[1] * t[2] - r[2] * t[1], r[2] * t[0] - r[0] * t[2], r[0] * t[1] - r[1] * t[0]};
            for (int c = 0; c < 3; c++) fp->H.i[e] = j + c, fp->H.x[e++] = sg * t[c];
            for (int c = 0; c < 3; c++) fp->H.i[e] = j + 3 + c, fp->H.x[e++] = sg * rt[c];
        }
        fp->H.p[k + 1] = e;
    }
    /* w_i = [max(Phi_i/h, -recovery_speed), 0, 0]: the stabilization term of Eq. (5d), the
     * same expression as clab_ccp_build */
    for (size_t i = 0; i < P->ncontacts; i++) {
        double phi_h = s->contacts.c[i].phi / P->h;
        if (phi_h < -dp->recovery_speed) phi_h = -dp->recovery_speed;
        fp->w[3 * i] = phi_h;
    }
    fp->has_global = 1;
    return CLAB_OK;
}

int clab_fc_from_sim(const clab_sim *s, clab_fc_problem *fp, clab_error *err)
{
    clab_dvi_problem dp;
    clab_fc_init(fp);
    int rc = clab_dvi_last_problem(s, &dp, err);
    if (rc) return rc;
    const clab_ccp *P = dp.ccp;
    if (P->njoint_rows > 0)
        return clab_error_set(err, CLAB_EINVAL, "fclib: the scene has joints (%zu rows): FCLIB's 3-D friction "
                                                "problems without equality constraints cannot hold them",
                              P->njoint_rows);
    if (P->has_compliance)
        return clab_error_set(err, CLAB_EINVAL, "fclib: a regularized DVI step (compliance, Lacoursiere-Servin) is "
                                                "not one of FCLIB's problems: drop compliance=/stiffness=");
    if (s->contacts.n != P->ncontacts)
        return clab_error_set(err, CLAB_EINVAL, "fclib: the contact list (%zu) is not the last step's (%zu): export "
                                                "right after the step", s->contacts.n, P->ncontacts);
    size_t n = P->n, nc = P->ncontacts;
    fp->nc = nc;
    int *dof_of = malloc((P->nbodies + 1) * sizeof *dof_of);
    fp->q = malloc(n * sizeof *fp->q);
    fp->mu = malloc((nc + 1) * sizeof *fp->mu);
    fp->r = malloc(n * sizeof *fp->r);
    fp->u = malloc(n * sizeof *fp->u);
    if (!dof_of || !fp->q || !fp->mu || !fp->r || !fp->u) {
        free(dof_of);
        clab_fc_free(fp);
        return clab_error_set(err, CLAB_ENOMEM, "fclib: out of memory (%zu contacts)", nc);
    }
    double *Minv = NULL;
    rc = global_form(s, &dp, fp, dof_of, &Minv, err);
    free(dof_of);
    if (!rc && clab_fc_form_W(&fp->H, Minv, &fp->W))
        rc = clab_error_set(err, CLAB_ENOMEM, "fclib: out of memory for W (%zu contacts)", nc);
    free(Minv);
    if (rc) {
        clab_fc_free(fp);
        return rc;
    }
    /* local: q = p of Eq. (10) as the step built it (unshifted), mu; the guess is the step's
     * own solution (the Tasora-Anitescu CCP's, or Coulomb's with friction=exact) */
    memcpy(fp->q, dp.p, n * sizeof *fp->q);
    for (size_t i = 0; i < nc; i++) fp->mu[i] = P->blocks[i].mu;
    memcpy(fp->r, dp.nu, n * sizeof *fp->r);
    clab_fc_local_velocity(fp, fp->r, fp->u);
    fp->has_local = 1;
    fp->has_guess = 1;
    snprintf(fp->title, sizeof fp->title, "contactlab DVI step %ld (t = %.9g s)", s->world->step, s->world->t);
    snprintf(fp->description, sizeof fp->description,
             "%zu contacts, %zu bodies, h = %.9g s; %s friction in the step; w = [max(Phi/h, -%.9g m/s), 0, 0]; "
             "guess = the step's impulses",
             nc, P->nbodies, P->h, dp.exact ? "exact Coulomb (De Saxce fixed point)" : "Tasora-Anitescu relaxed",
             dp.recovery_speed);
    return CLAB_OK;
}
