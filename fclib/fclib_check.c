/* fclib_check.c: Coulomb's conditions of a solution checked contact by contact, the bodies'
 * velocities of a solution, and the split of a difference of reactions into internal stresses
 * (the null space of H) and the part that moves the bodies (clab_fclib_check.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clab_fclib_check.h"
#include "cone.h"

static double max_rn(const clab_fc_problem *fp, const double *r)
{
    double m = 0.0;
    for (size_t i = 0; i < fp->nc; i++) m = fmax(m, r[3 * i]);
    return m;
}

int clab_fc_status(const clab_fc_problem *fp, const double *r, const double *u, double rn_min, double slip, size_t i)
{
    (void)fp;
    if (r[3 * i] <= rn_min) return CLAB_FC_OPEN;
    return hypot(u[3 * i + 1], u[3 * i + 2]) > slip ? CLAB_FC_SLIDE : CLAB_FC_STICK;
}

void clab_fc_check_coulomb(const clab_fc_problem *fp, const double *r, const double *u, double slip, clab_fc_check *c)
{
    memset(c, 0, sizeof *c);
    size_t n = 3 * fp->nc;
    double *Wr = malloc((n ? n : 1) * sizeof *Wr);
    if (Wr) {
        clab_fc_local_velocity(fp, r, Wr); /* W r + q */
        for (size_t k = 0; k < n; k++) c->consistency = fmax(c->consistency, fabs(u[k] - Wr[k]));
    } else {
        c->consistency = NAN;
    }
    free(Wr);
    double rn_min = 1e-12 * max_rn(fp, r);
    for (size_t i = 0; i < fp->nc; i++) {
        const double *ri = r + 3 * i, *ui = u + 3 * i;
        double mu = fp->mu[i];
        /* y_i = u_i + [mu |u_T|, 0, 0]: De Saxce's modified velocity */
        double y[3] = {ui[0] + mu * hypot(ui[1], ui[2]), ui[1], ui[2]};
        c->cone = fmax(c->cone, clab_cone_dist(mu, ri));
        c->dual = fmax(c->dual, clab_cone_dist_dual(mu, y));
        double ry = ri[0] * y[0] + ri[1] * y[1] + ri[2] * y[2], nr = sqrt(ri[0] * ri[0] + ri[1] * ri[1] + ri[2] * ri[2]);
        c->compl_abs = fmax(c->compl_abs, fabs(ry));
        if (nr > 0.0) c->compl_vel = fmax(c->compl_vel, fabs(ry) / nr);
        switch (clab_fc_status(fp, r, u, rn_min, slip, i)) {
        case CLAB_FC_OPEN: c->open++; break;
        case CLAB_FC_STICK: c->stick++; break;
        default: c->slide++; break;
        }
    }
}

int clab_fc_body_velocity(const clab_fc_problem *fp, const double *r, const double *u, double *v, double *consistency,
                          clab_error *err)
{
    if (!fp->has_global) return clab_error_set(err, CLAB_EINVAL, "fclib: no global form (M, H, f, w): no body velocities");
    int nd = fp->M.n;
    double *Minv = malloc(((size_t)nd / 6 * 10 + 1) * sizeof *Minv), *g = malloc(((size_t)nd + 1) * sizeof *g);
    if (!Minv || !g) {
        free(Minv), free(g);
        return clab_error_set(err, CLAB_ENOMEM, "fclib: out of memory");
    }
    int rc = clab_fc_M_inverse(&fp->M, Minv, err);
    if (!rc) {
        /* g = H r + f, then v = M^-1 g body by body (1/m, then the 3x3 inverse inertia) */
        memcpy(g, fp->f, (size_t)nd * sizeof *g);
        for (int c = 0; c < fp->H.n; c++)
            for (int e = fp->H.p[c]; e < fp->H.p[c + 1]; e++) g[fp->H.i[e]] += fp->H.x[e] * r[c];
        for (int b = 0; b < nd / 6; b++) {
            const double *X = &Minv[10 * b], *gb = &g[6 * b];
            double *vb = &v[6 * b];
            for (int k = 0; k < 3; k++) vb[k] = X[0] * gb[k];
            for (int k = 0; k < 3; k++) vb[3 + k] = X[1 + 3 * k] * gb[3] + X[2 + 3 * k] * gb[4] + X[3 + 3 * k] * gb[5];
        }
        if (consistency) { /* u = H^T v + w */
            double m = 0.0;
            for (int c = 0; c < fp->H.n; c++) {
                double uc = fp->w[c];
                for (int e = fp->H.p[c]; e < fp->H.p[c + 1]; e++) uc += fp->H.x[e] * v[fp->H.i[e]];
                m = fmax(m, fabs(u[c] - uc));
            }
            *consistency = m;
        }
    }
    free(Minv);
    free(g);
    return rc;
}

/* y = H x (add = 0) */
static void H_mul(const clab_fc_csc *H, const double *x, double *y)
{
    memset(y, 0, (size_t)H->m * sizeof *y);
    for (int c = 0; c < H->n; c++)
        for (int e = H->p[c]; e < H->p[c + 1]; e++) y[H->i[e]] += H->x[e] * x[c];
}

/* x = H^T y */
static void Ht_mul(const clab_fc_csc *H, const double *y, double *x)
{
    for (int c = 0; c < H->n; c++) {
        double s = 0.0;
        for (int e = H->p[c]; e < H->p[c + 1]; e++) s += H->x[e] * y[H->i[e]];
        x[c] = s;
    }
}

static double dot(const double *a, const double *b, size_t n)
{
    double s = 0.0;
    for (size_t k = 0; k < n; k++) s += a[k] * b[k];
    return s;
}

/* CG on A y = b, A = H H^T (symmetric positive semi-definite; b = H dr is in its range, so
 * the iterates from y = 0 stay in the range and converge to the minimum-norm solution) */
long clab_fc_split_nullspace(const clab_fc_problem *fp, const double *dr, long max_iter, double *range, double *null)
{
    const clab_fc_csc *H = &fp->H;
    size_t nd = (size_t)H->m, n = (size_t)H->n;
    double *y = calloc(nd + 1, sizeof *y), *res = malloc((nd + 1) * sizeof *res), *pd = malloc((nd + 1) * sizeof *pd),
           *Ap = malloc((nd + 1) * sizeof *Ap), *t = malloc((n + 1) * sizeof *t);
    long it = -1;
    *range = *null = NAN;
    if (fp->has_global && y && res && pd && Ap && t) {
        H_mul(H, dr, res); /* b - A 0 */
        memcpy(pd, res, nd * sizeof *pd);
        double rr = dot(res, res, nd), rr0 = rr;
        for (it = 0; it < max_iter && rr > 1e-24 * rr0; it++) {
            Ht_mul(H, pd, t);
            H_mul(H, t, Ap);
            double pAp = dot(pd, Ap, nd);
            if (!(pAp > 0.0)) break;
            double a = rr / pAp;
            for (size_t k = 0; k < nd; k++) y[k] += a * pd[k], res[k] -= a * Ap[k];
            double rr1 = dot(res, res, nd);
            for (size_t k = 0; k < nd; k++) pd[k] = res[k] + rr1 / rr * pd[k];
            rr = rr1;
        }
        Ht_mul(H, y, t); /* the part of dr that moves the bodies */
        double s_range = 0.0, s_null = 0.0;
        for (size_t k = 0; k < n; k++) s_range += t[k] * t[k], s_null += (dr[k] - t[k]) * (dr[k] - t[k]);
        *range = sqrt(s_range), *null = sqrt(s_null);
    }
    free(y), free(res), free(pd), free(Ap), free(t);
    return it;
}
