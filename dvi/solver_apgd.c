/* solver_apgd.c: accelerated projected gradient descent (APGD) for the QP of Eq. (11) of
 * seed 000, after Mazhar, Heyn, Tasora, Negrut 2015, "Using Nesterov's method to accelerate
 * multibody dynamics with friction and contact", ACM TOG 34(3), Algorithm APGD:
 *
 *     L_0 = |N (nu_0 - 1)| / |nu_0 - 1|,  t = 1/L,  y = x_0 = Proj_C(nu_0),  theta = 1
 *     repeat
 *         x_{k+1} = Proj_C(y - t (N y + p))
 *         while f(x_{k+1}) > f(y) + g(y).(x_{k+1} - y) + L/2 |x_{k+1} - y|^2:   (backtracking)
 *             L = 2 L,  t = 1/L,  x_{k+1} = Proj_C(y - t (N y + p))
 *         theta_{k+1} = (-theta^2 + theta sqrt(theta^2 + 4)) / 2
 *         beta = theta (1 - theta) / (theta^2 + theta_{k+1})
 *         y = x_{k+1} + beta (x_{k+1} - x_k)
 *         keep x_{k+1} if its residual is the smallest so far; stop when below tol
 *         if g(y_old).(x_{k+1} - x_k) > 0: y = x_{k+1}, theta = 1       (adaptive restart)
 *         L = 0.9 L,  t = 1/L
 *
 * For the quadratic f the backtracking test is exactly (x - y).N(x - y) <= L |x - y|^2, which
 * is what we evaluate (free of cancellation). N y is formed from N x_{k+1} and N x_k by
 * linearity, so an iteration costs one product with N (plus one per backtrack). The best
 * iterate is returned, as in the paper. */
#include <math.h>
#include <string.h>

#include "solver_internal.h"

#define MAX_BACKTRACK 60

static int solve(const clab_ccp *P, const clab_ccp_options *o, double *nu, clab_ccp_work *W, clab_ccp_result *res,
                 clab_error *err)
{
    if (clab_ccp_begin(o, W, res, err)) return err ? err->status : CLAB_ENOMEM;
    if (P->n == 0) return clab_ccp_finish("apgd", o, res, 0.0, err); /* nothing to solve */
    size_t n = P->n;
    double *x = nu;                            /* x_k */
    double *xn = clab_ccp_work_get(W, 0, n);   /* x_{k+1} */
    double *y = clab_ccp_work_get(W, 1, n);
    double *Nx = clab_ccp_work_get(W, 2, n);
    double *Nxn = clab_ccp_work_get(W, 3, n);
    double *Ny = clab_ccp_work_get(W, 4, n);
    double *best = clab_ccp_work_get(W, 5, n);
    double *d = clab_ccp_work_get(W, 6, n);
    double *u = clab_ccp_work_get(W, 7, 6 * P->nbodies);
    if (!xn || !y || !Nx || !Nxn || !Ny || !best || !d || !u)
        return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory in the apgd solver");

    clab_ccp_project(P, x);
    clab_ccp_apply_N(P, x, u, Nx);
    for (size_t k = 0; k < n; k++) d[k] = Nx[k] + P->p[k];
    if (o->desaxce_p0) clab_desaxce_all(P, o->desaxce_p0, d); /* exact friction, inner */
    double r = clab_ccp_residual(P, x, d), r_best = r;
    memcpy(best, x, n * sizeof *x);
    if (r <= o->tol) return clab_ccp_finish("apgd", o, res, r, err);

    double L = clab_ccp_lipschitz_guess(P, x, xn, Nxn, u);
    double theta = 1.0;
    memcpy(y, x, n * sizeof *x);
    memcpy(Ny, Nx, n * sizeof *x);
    while (res->iterations < o->max_iter) {
        /* projected gradient step from y with backtracking on L */
        for (int bt = 0;; bt++) {
            double t = 1.0 / L;
            for (size_t k = 0; k < n; k++) xn[k] = y[k] - t * (Ny[k] + P->p[k]);
            clab_ccp_project(P, xn);
            clab_ccp_apply_N(P, xn, u, Nxn);
            double dNd = 0.0, dd = 0.0;
            for (size_t k = 0; k < n; k++) {
                double e = xn[k] - y[k];
                dNd += e * (Nxn[k] - Ny[k]);
                dd += e * e;
            }
            if (dNd <= L * dd || bt == MAX_BACKTRACK || !isfinite(dNd)) break;
            L *= 2.0;
        }
        /* Nesterov momentum, with the restart test on g(y).(x_{k+1} - x_k) */
        double theta_n = 0.5 * (-theta * theta + theta * sqrt(theta * theta + 4.0));
        double beta = theta * (1.0 - theta) / (theta * theta + theta_n);
        double gdx = 0.0;
        for (size_t k = 0; k < n; k++) gdx += (Ny[k] + P->p[k]) * (xn[k] - x[k]);
        if (gdx > 0.0) beta = 0.0, theta_n = 1.0;
        for (size_t k = 0; k < n; k++) {
            y[k] = xn[k] + beta * (xn[k] - x[k]);
            Ny[k] = Nxn[k] + beta * (Nxn[k] - Nx[k]);
            x[k] = xn[k];
            Nx[k] = Nxn[k];
            d[k] = Nxn[k] + P->p[k];
        }
        theta = theta_n;
        L *= 0.9;
        if (o->desaxce_p0) clab_desaxce_all(P, o->desaxce_p0, d); /* exact friction, inner */
        r = clab_ccp_residual(P, x, d);
        clab_ccp_record(W, res, r);
        if (r < r_best) {
            r_best = r;
            memcpy(best, x, n * sizeof *x);
        }
        if (r <= o->tol || !isfinite(r)) break;
    }
    if (isfinite(r)) memcpy(nu, best, n * sizeof *nu);
    return clab_ccp_finish("apgd", o, res, isfinite(r) ? r_best : r, err);
}

const clab_ccp_solver_type clab_ccp_solver_apgd = {
    "apgd", "Nesterov accelerated projected gradient with adaptive step and restart (Mazhar et al. 2015)", 0.0,
    solve};
