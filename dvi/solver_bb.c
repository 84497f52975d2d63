/* solver_bb.c: Barzilai-Borwein spectral projected gradient (SPG) with the non-monotone line
 * search of Grippo, Lampariello and Lucidi, for the QP of Eq. (11) of seed 000 (Birgin,
 * Martinez, Raydan 2000, "Nonmonotone spectral projected gradient methods on convex sets",
 * SIAM J. Optim. 10(4), algorithm SPG2):
 *
 *     s_k = Proj_C(x_k - alpha_k g_k) - x_k                            (search direction)
 *     x_{k+1} = x_k + lambda s_k, lambda = 1 halved (safeguarded quadratic interpolation in
 *               [0.1 lambda, 0.5 lambda]) until f(x_{k+1}) <= max_{j<M} f(x_{k-j}) + gamma lambda g_k.s_k
 *     alpha_{k+1} = (dx.dx)/(dx.N dx), dx = x_{k+1} - x_k      (the BB1 step, clamped)
 *
 * f is quadratic, so f(x + lambda s) = f + lambda g.s + lambda^2/2 s.N s, and N x_{k+1} =
 * N x_k + lambda N s_k: one product with N per iteration, whatever the line search does.
 * N x is recomputed from scratch every REFRESH iterations against round-off drift.
 * Memory M = 10, gamma = 1e-4 (the paper's values). The best iterate is returned. */
#include <math.h>
#include <string.h>

#include "solver_internal.h"

#define MEMORY 10
#define GAMMA 1e-4
#define REFRESH 50

static int solve(const clab_ccp *P, const clab_ccp_options *o, double *nu, clab_ccp_work *W, clab_ccp_result *res,
                 clab_error *err)
{
    if (clab_ccp_begin(o, W, res, err)) return err ? err->status : CLAB_ENOMEM;
    if (P->n == 0) return clab_ccp_finish("bb", o, res, 0.0, err); /* nothing to solve */
    size_t n = P->n;
    double *x = nu;
    double *Nx = clab_ccp_work_get(W, 0, n);
    double *s = clab_ccp_work_get(W, 1, n);
    double *Ns = clab_ccp_work_get(W, 2, n);
    double *best = clab_ccp_work_get(W, 3, n);
    double *d = clab_ccp_work_get(W, 4, n);
    double *u = clab_ccp_work_get(W, 5, 6 * P->nbodies);
    if (!Nx || !s || !Ns || !best || !d || !u)
        return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory in the bb solver");

    clab_ccp_project(P, x);
    clab_ccp_apply_N(P, x, u, Nx);
    for (size_t k = 0; k < n; k++) d[k] = Nx[k] + P->p[k]; /* d = g, the gradient */
    if (o->desaxce_p0) clab_desaxce_all(P, o->desaxce_p0, d); /* exact friction, inner */
    double r = clab_ccp_residual(P, x, d), r_best = r;
    memcpy(best, x, n * sizeof *x);
    if (r <= o->tol) return clab_ccp_finish("bb", o, res, r, err);

    double L = clab_ccp_lipschitz_guess(P, x, s, Ns, u);
    double alpha = 1.0 / L, alpha_min = 1e-10 / L, alpha_max = 1e10 / L;
    double f = clab_ccp_objective(P, x, d);
    double fhist[MEMORY];
    for (int j = 0; j < MEMORY; j++) fhist[j] = f;
    while (res->iterations < o->max_iter) {
        /* spectral projected gradient direction */
        double gs = 0.0, ss = 0.0;
        for (size_t k = 0; k < n; k++) s[k] = x[k] - alpha * d[k];
        clab_ccp_project(P, s);
        for (size_t k = 0; k < n; k++) {
            s[k] -= x[k];
            gs += d[k] * s[k];
            ss += s[k] * s[k];
        }
        clab_ccp_apply_N(P, s, u, Ns);
        double sNs = 0.0;
        for (size_t k = 0; k < n; k++) sNs += s[k] * Ns[k];
        /* non-monotone line search on lambda (exact quadratic model of f) */
        double fmax = fhist[0];
        for (int j = 1; j < MEMORY; j++) fmax = fmax > fhist[j] ? fmax : fhist[j];
        double lambda = 1.0, fn = f + gs + 0.5 * sNs;
        for (int ls = 0; ls < 60 && fn > fmax + GAMMA * lambda * gs; ls++) {
            double lt = -0.5 * lambda * lambda * gs / (fn - f - lambda * gs);
            lambda = (lt >= 0.1 * lambda && lt <= 0.5 * lambda) ? lt : 0.5 * lambda;
            fn = f + lambda * gs + 0.5 * lambda * lambda * sNs;
        }
        /* step, gradient update by linearity */
        int refresh = (res->iterations + 1) % REFRESH == 0;
        for (size_t k = 0; k < n; k++) {
            x[k] += lambda * s[k];
            Nx[k] += lambda * Ns[k];
        }
        if (refresh) clab_ccp_apply_N(P, x, u, Nx);
        for (size_t k = 0; k < n; k++) d[k] = Nx[k] + P->p[k];
        if (o->desaxce_p0) clab_desaxce_all(P, o->desaxce_p0, d); /* exact friction, inner */
        f = clab_ccp_objective(P, x, d);
        for (int j = MEMORY - 1; j > 0; j--) fhist[j] = fhist[j - 1];
        fhist[0] = f;
        /* Barzilai-Borwein step for the next iteration: dx = lambda s, N dx = lambda N s */
        alpha = sNs > 0.0 ? ss / sNs : alpha_max;
        alpha = alpha < alpha_min ? alpha_min : (alpha > alpha_max ? alpha_max : alpha);

        r = clab_ccp_residual(P, x, d);
        clab_ccp_record(W, res, r);
        if (r < r_best) {
            r_best = r;
            memcpy(best, x, n * sizeof *x);
        }
        if (r <= o->tol || !isfinite(r)) break;
    }
    if (isfinite(r)) memcpy(nu, best, n * sizeof *nu);
    return clab_ccp_finish("bb", o, res, isfinite(r) ? r_best : r, err);
}

const clab_ccp_solver_type clab_ccp_solver_bb = {
    "bb", "Barzilai-Borwein spectral projected gradient with non-monotone line search (Birgin et al. 2000)", 0.0,
    solve};
