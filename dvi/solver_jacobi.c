/* solver_jacobi.c: projected Jacobi for the CCP of Eq. (10) of seed 000 (the fixed-point
 * iteration of Tasora and Anitescu 2011, with block scaling):
 *
 *     nu_k <- Proj_Ck(nu_k - omega B_k d_k),   d = N nu + p,
 *
 * all blocks updated from the same d. B_k = I / lambda_max(N_kk) for a cone block (a scalar,
 * so a fixed point is a solution of the CCP with the Euclidean projection) and N_kk^-1 for a
 * free block (any metric is exact there). One product with N per iteration. Convergence needs
 * omega below 2 / lambda_max(B N), which grows with the number of contacts per body: the
 * default omega = 0.3 suits granular packings; if the history grows, lower omega. */
#include <math.h>

#include "cone.h"
#include "solver_internal.h"

static int solve(const clab_ccp *P, const clab_ccp_options *o, double *nu, clab_ccp_work *W, clab_ccp_result *res,
                 clab_error *err)
{
    if (clab_ccp_begin(o, W, res, err)) return err ? err->status : CLAB_ENOMEM;
    if (P->n == 0) return clab_ccp_finish("jacobi", o, res, 0.0, err); /* nothing to solve */
    size_t n = P->n;
    double *d = clab_ccp_work_get(W, 0, n);
    double *u = clab_ccp_work_get(W, 1, 6 * P->nbodies);
    double *f = clab_ccp_work_get(W, 2, CLAB_BLOCK_FACTORS * P->nblocks);
    if (!d || !u || !f) return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory in the jacobi solver");
    int rc = clab_ccp_block_factors(P, f, err);
    if (rc) return rc;

    clab_ccp_project(P, nu);
    clab_ccp_d(P, nu, u, d);
    if (o->desaxce_p0) clab_desaxce_all(P, o->desaxce_p0, d); /* exact friction, inner */
    double r = clab_ccp_residual(P, nu, d);
    while (r > o->tol && res->iterations < o->max_iter && isfinite(r)) {
        /* one Jacobi sweep: every block from the same d */
        for (size_t i = 0; i < P->nblocks; i++) {
            const clab_ccp_block *bl = &P->blocks[i];
            const double *fi = &f[CLAB_BLOCK_FACTORS * i];
            double *x = &nu[bl->first];
            const double *g = &d[bl->first];
            if (bl->kind == CLAB_CCP_CONE) {
                double eta = o->omega / fi[0];
                x[0] -= eta * g[0];
                x[1] -= eta * g[1];
                x[2] -= eta * g[2];
                clab_cone_project(bl->mu, x);
            } else {
                int m = bl->size;
                for (int a = 0; a < m; a++) {
                    double s = 0.0;
                    for (int b = 0; b < m; b++) s += fi[1 + a * m + b] * g[b];
                    x[a] -= o->omega * s;
                }
            }
        }
        clab_ccp_d(P, nu, u, d);
        if (o->desaxce_p0) clab_desaxce_all(P, o->desaxce_p0, d); /* exact friction, inner */
        r = clab_ccp_residual(P, nu, d);
        clab_ccp_record(W, res, r);
    }
    return clab_ccp_finish("jacobi", o, res, r, err);
}

const clab_ccp_solver_type clab_ccp_solver_jacobi = {
    "jacobi", "projected Jacobi with block scaling and relaxation omega (default 0.3)", 0.3, solve};
