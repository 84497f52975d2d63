/* residual.c: how far nu is from solving the CCP of Eq. (10) of seed 000: the scaled natural
 * map (the stopping test of every solver, scaling documented in ccp_solver.h) and the
 * complementarity diagnostics of Eq. (7)-(8). */
#include <math.h>

#include "ccp_solver.h"
#include "cone.h"

/* r(nu) = max_k |nu_k - Proj_Ck(nu_k - t_k d_k)| / t_k, t_k = size_k / trace(N_kk) */
double clab_ccp_residual(const clab_ccp *P, const double *nu, const double *d)
{
    double r = 0.0;
    for (size_t i = 0; i < P->nblocks; i++) {
        const clab_ccp_block *bl = &P->blocks[i];
        const double *x = &nu[bl->first], *g = &d[bl->first];
        double e2 = 0.0;
        if (bl->kind == CLAB_CCP_FREE || !(bl->t_res > 0.0)) {
            /* free rows: the projection is the identity, r_k = |d_k| = |b_j| */
            for (int k = 0; k < bl->size; k++) e2 += g[k] * g[k];
        } else {
            double t = bl->t_res;
            double y[3] = {x[0] - t * g[0], x[1] - t * g[1], x[2] - t * g[2]};
            clab_cone_project(bl->mu, y);
            for (int k = 0; k < 3; k++) {
                double e = (x[k] - y[k]) / t;
                e2 += e * e;
            }
        }
        double e = sqrt(e2);
        if (!(e <= r)) r = e; /* NaN propagates */
    }
    return r;
}

void clab_ccp_diagnose(const clab_ccp *P, const double *nu, const double *d, clab_ccp_diagnostics *out)
{
    out->gamma_outside_K = out->d_outside_dual = out->complementarity = 0.0;
    for (size_t i = 0; i < P->nblocks; i++) {
        const clab_ccp_block *bl = &P->blocks[i];
        const double *x = &nu[bl->first], *g = &d[bl->first];
        double gk = 0.0, dk = 0.0, c = 0.0;
        if (bl->kind == CLAB_CCP_CONE) {
            gk = clab_cone_dist(bl->mu, x);
            dk = clab_cone_dist_dual(bl->mu, g);
        } else {
            for (int k = 0; k < bl->size; k++) dk += g[k] * g[k];
            dk = sqrt(dk);
        }
        for (int k = 0; k < bl->size; k++) c += x[k] * g[k];
        c = fabs(c);
        if (gk > out->gamma_outside_K) out->gamma_outside_K = gk;
        if (dk > out->d_outside_dual) out->d_outside_dual = dk;
        if (c > out->complementarity) out->complementarity = c;
    }
}
