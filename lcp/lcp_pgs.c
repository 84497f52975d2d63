/* lcp_pgs.c: projected Gauss-Seidel on the Stewart-Trinkle LCP, by contact blocks. The LCP's
 * lambda rows have a zero diagonal (w_lambda = mu c_n - e^T beta does not contain lambda), so
 * the scalar projection z_r <- max(0, z_r - w_r / A_rr) is not defined on them; the sweep
 * instead takes each contact's unknowns (c_n, beta_1..k, lambda) together and solves their
 * local LCP exactly (Lemke, lemke.c) with the other contacts' impulses held, which is the
 * projected block Gauss-Seidel of the LCP (the nonsmooth Gauss-Seidel of Jean and Moreau, and
 * the DVI backend's gs on its cone blocks). Joints take the exact local solve of their rows,
 * x_j <- x_j - N_jj^-1 (N nu + p)_j. The bodies' velocities u = M^-1 P nu are kept up to date
 * block by block. A separating contact (c_n = 0) and a sticking one (the impulse that stops it
 * lies in the polygon) take their closed-form answers; the others Lemke's, O(k^3). Stops when
 * the natural-map residual (clab_lcp_residual) is at most tol [m/s], or after max_iter sweeps
 * (CLAB_EMAXITER). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lcp_internal.h"
#include "plain.h"
#include "solver_internal.h"

/* u += M^-1 P_i dx: the impulse F = sum_q t_q dx_q of block i on b (and -F on a) */
static void add_velocity(const clab_ccp *P, size_t i, int m, const double *dx, double *u)
{
    const clab_ccp_item *it = &P->items[i];
    double F[3] = {0.0, 0.0, 0.0};
    for (int q = 0; q < m; q++)
        for (int c = 0; c < 3; c++) F[c] += it->t[3 * q + c] * dx[q];
    for (int side = 0; side < 2; side++) {
        const size_t k = (size_t)(side ? it->b : it->a);
        const double *M = &P->minv[8 * k], *r = it->r + 3 * side, sg = side ? 1.0 : -1.0;
        const double T[3] = {r[1] * F[2] - r[2] * F[1], r[2] * F[0] - r[0] * F[2], r[0] * F[1] - r[1] * F[0]};
        double *uk = &u[6 * k];
        uk[0] += sg * M[0] * F[0], uk[1] += sg * M[0] * F[1], uk[2] += sg * M[0] * F[2];
        uk[3] += sg * (M[1] * T[0] + M[2] * T[1] + M[3] * T[2]);
        uk[4] += sg * (M[2] * T[0] + M[4] * T[1] + M[5] * T[2]);
        uk[5] += sg * (M[3] * T[0] + M[5] * T[1] + M[6] * T[2]);
    }
}

/* The sticking answer of a contact's local LCP, when it is one: the impulse that stops the
 * contact, N_ii gamma = -r (v+ = 0 at the contact), solves the LCP with lambda = 0 when
 * c_n >= 0 and its friction lies in the polygon (split on two edges, a + b <= mu c_n): then
 * w_n = 0, w_beta = lambda + d_j.v+ = 0, w_lambda = mu c_n - e^T beta >= 0. Writes the scaled
 * zs (clab_lcp_local's unknowns) and returns 1; 0 when it is not (a sliding or singular one). */
static int stick(const clab_lcp_cone *K, const clab_ccp_block *bl, const double r[3], double sc, double *zs)
{
    const double *A = bl->Nii;
    /* gamma = -A^-1 r by cofactors (A symmetric positive definite for a contact of a moving body) */
    const double c00 = A[4] * A[8] - A[5] * A[7], c01 = A[5] * A[6] - A[3] * A[8], c02 = A[3] * A[7] - A[4] * A[6];
    const double det = A[0] * c00 + A[1] * c01 + A[2] * c02;
    if (!(det > 1e-12 * A[0] * A[4] * A[8])) return 0;
    const double c11 = A[0] * A[8] - A[2] * A[6], c12 = A[2] * A[3] - A[0] * A[5], c22 = A[0] * A[4] - A[1] * A[3];
    const double g0 = -(c00 * r[0] + c01 * r[1] + c02 * r[2]) / det; /* A^-1 = cof^T / det, cof symmetric */
    const double g1 = -(c01 * r[0] + c11 * r[1] + c12 * r[2]) / det;
    const double g2 = -(c02 * r[0] + c12 * r[1] + c22 * r[2]) / det;
    if (!(g0 >= 0.0)) return 0;
    const int k = K->k;
    double beta[CLAB_LCP_MAX_DIRECTIONS], sum = 0.0;
    clab_lcp_split(K, g1, g2, beta);
    for (int j = 0; j < k; j++) sum += beta[j];
    if (!(sum <= bl->mu * g0)) return 0;
    zs[0] = g0 / sc;
    for (int j = 0; j < k; j++) zs[1 + j] = beta[j] / sc;
    zs[k + 1] = 0.0;
    return 1;
}

/* contact i's local LCP from the current velocities, solved exactly; A its scaled matrix */
static int contact_block(clab_lcp *s, size_t i, const double *A, double *q, double *zs, clab_error *err)
{
    const clab_ccp *P = &s->ccp;
    const clab_lcp_cone *K = &s->cone;
    const clab_ccp_block *bl = &P->blocks[i];
    const int k = K->k, m = k + 2;
    double *zi = &s->z[(size_t)m * i], *g = &s->nu[3 * i], d[3], r[3];
    clab_ccp_plain_d_block(P, i, s->u, s->nu, d); /* d_i = (N nu + p)_i */
    for (int a = 0; a < 3; a++) r[a] = d[a] - (bl->Nii[3 * a] * g[0] + bl->Nii[3 * a + 1] * g[1] + bl->Nii[3 * a + 2] * g[2]);
    /* q = S (T^T r, 0): the local problem's free velocities (clab_lcp_local) */
    const double sc = clab_lcp_scale(bl);
    q[0] = sc * r[0];
    for (int j = 0; j < k; j++) q[1 + j] = sc * (K->c[j] * r[1] + K->s[j] * r[2]);
    q[k + 1] = 0.0;
    long piv = 0;
    int st = CLAB_LEMKE_SOLVED;
    if (q[0] >= 0.0) {
        /* separating without this contact's impulse: c_n = 0 forces beta = 0 (mu c_n - e^T beta
         * >= 0), and lambda = max(0, -min_j q_j) makes the beta rows nonnegative; lambda
         * enters no impulse, so this is the solution Lemke would give up to lambda */
        double lam = 0.0;
        for (int j = 0; j <= k; j++) zs[j] = 0.0;
        for (int j = 1; j <= k; j++) lam = fmax(lam, -q[j]);
        zs[k + 1] = lam;
    } else if (!stick(K, bl, r, sc, zs)) {
        st = clab_lemke_solve((size_t)m, A, q, zs, s->max_pivots, &s->lemke, &piv);
    }
    s->local_pivots += piv;
    if (st != CLAB_LEMKE_SOLVED)
        return clab_error_set(err, st < 0 ? CLAB_ENOMEM : CLAB_ENUMERIC,
                              "lcp: pgs: the local LCP of contact %zu (bodies %d, %d; %d unknowns) ended in %s "
                              "after %ld pivots",
                              i, P->items[i].a, P->items[i].b, m, clab_lemke_status_name(st), piv);
    for (int a = 0; a <= k; a++) zi[a] = sc * zs[a];
    zi[k + 1] = zs[k + 1] / sc;
    double gn[3], dx[3];
    clab_lcp_gamma(K, zi, gn);
    int moved = 0;
    for (int a = 0; a < 3; a++) {
        dx[a] = gn[a] - g[a];
        moved |= dx[a] != 0.0;
        g[a] = gn[a];
    }
    if (moved) add_velocity(P, i, 3, dx, s->u);
    return CLAB_OK;
}

/* joint block j: x_j <- x_j - N_jj^-1 d_j, f its factors (solver_internal.h) */
static void joint_block(clab_lcp *s, size_t i, const double *f)
{
    const clab_ccp *P = &s->ccp;
    const clab_ccp_block *bl = &P->blocks[i];
    const int m = bl->size;
    double d[3], dx[3];
    clab_ccp_plain_d_block(P, i, s->u, s->nu, d);
    for (int a = 0; a < m; a++) {
        dx[a] = 0.0;
        for (int b = 0; b < m; b++) dx[a] -= f[1 + a * m + b] * d[b];
        s->nu[bl->first + (size_t)a] += dx[a];
    }
    add_velocity(P, i, m, dx, s->u);
}

static int reserve(double **p, size_t *cap, size_t n)
{
    if (n <= *cap && *p) return CLAB_OK;
    double *q = realloc(*p, (n ? n : 1) * sizeof *q);
    if (!q) return CLAB_ENOMEM;
    *p = q;
    *cap = n;
    return CLAB_OK;
}

int clab_lcp_pgs(clab_lcp *s, clab_error *err)
{
    const clab_ccp *P = &s->ccp;
    const int m = s->cone.k + 2;
    const size_t nk = P->ncontacts, nj = P->nblocks - nk, mm = (size_t)m * (size_t)m;
    if (reserve(&s->scratch, &s->cap_scratch, nk * mm + 2 * (size_t)m + CLAB_BLOCK_FACTORS * nj) ||
        reserve(&s->history, &s->cap_history, (size_t)s->max_iter))
        return clab_error_set(err, CLAB_ENOMEM, "lcp: out of memory in the pgs solver (%zu contacts)", nk);
    double *A = s->scratch, *q = A + nk * mm, *zs = q + m, *f = zs + m;
    int rc = clab_ccp_joint_factors(P, f, err);
    if (rc) return rc;
    const double zero[3] = {0.0, 0.0, 0.0};
    for (size_t i = 0; i < nk; i++) /* the local matrices, once a step */
        clab_lcp_local(&s->cone, P->blocks[i].Nii, P->blocks[i].mu, clab_lcp_scale(&P->blocks[i]), zero, &A[i * mm], q);
    clab_ccp_plain_minv_D(P, s->nu, s->u);
    s->nhistory = 0;
    s->local_pivots = 0;
    double r = INFINITY;
    long it = 0;
    while (it < s->max_iter) {
        for (size_t i = 0; i < nk; i++)
            if ((rc = contact_block(s, i, &A[i * mm], q, zs, err))) return rc;
        for (size_t i = nk; i < P->nblocks; i++) joint_block(s, i, &f[CLAB_BLOCK_FACTORS * (i - nk)]);
        it++;
        clab_ccp_plain_Dt(P, s->u, NULL, s->d);
        for (size_t q2 = 0; q2 < P->n; q2++) s->d[q2] += P->p[q2];
        r = clab_lcp_residual(&s->cone, P, s->z, s->d, &s->outside_cone, &s->outside_dual, &s->complementarity);
        s->history[s->nhistory++] = r;
        if (!isfinite(r))
            return clab_error_set(err, CLAB_ENUMERIC, "lcp: pgs: non-finite residual after %ld sweeps", it);
        if (r <= s->tol) break;
    }
    s->iterations = it;
    s->residual = r;
    return r <= s->tol ? CLAB_OK : CLAB_EMAXITER;
}
