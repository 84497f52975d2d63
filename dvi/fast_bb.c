/* fast_bb.c: Barzilai-Borwein spectral projected gradient (SPG) with the non-monotone line
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
 * Memory M = 10, gamma = 1e-4 (the paper's values). The best iterate is returned.
 *
 * An iteration is three passes over memory (ccp_fast.h): the body pass u = M^-1 P s, the
 * gather pass N s with s.N s, and one update pass forming x_{k+1}, N x_{k+1}, f, the residual
 * and already the next direction s with g.s and s.s. x_{k+1} goes to another buffer than x_k
 * and the best iterate (three buffers change roles by pointer: no copies). Parallel and
 * deterministic. */
#include <math.h>
#include <string.h>

#include "ccp_fast.h"
#include "solver_internal.h"

#define MEMORY 10
#define GAMMA 1e-4
#define REFRESH 50

/* sums per chunk: 0 g.s, 1 s.s, 2 x.(d + p) (= 2 f), 3 residual^2 (max) */
#define NSUM 4

/* from x and Nx (d = Nx + p): the objective and residual of x, and the direction
 * s = Proj_C(x - alpha d) - x with g.s, s.s and its blocks' impulses F: out[0..3] as NSUM */
static void direction(const clab_ccp *P, const double *p0, double alpha, const double *x, const double *Nx, double *s, double *F,
                      double *part, double out[NSUM])
{
    const size_t nk = P->ncontacts, nch = clab_ccp_nchunks(nk);
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nch >= CLAB_CCP_PAR_CHUNKS)
#endif
    for (size_t c = 0; c < nch; c++) {
        size_t lo, hi;
        clab_ccp_chunk(c, nk, &lo, &hi);
        const int sph = P->sph_chunk[c];
        double gs = 0.0, ss = 0.0, xdp = 0.0, e2max = 0.0;
        for (size_t i = lo; i < hi; i++) {
            const size_t k = 3 * i;
            const double *cn = &P->cone[4 * i];
            double g[3], z[3];
            CLAB_UNROLL3
            for (int q = 0; q < 3; q++) g[q] = Nx[k + q] + P->p[k + q];
            if (p0) clab_desaxce_block(P, p0, i, g); /* exact friction, inner: moves p_n and g_n */
            CLAB_UNROLL3
            for (int q = 0; q < 3; q++) {
                xdp += x[k + q] * (g[q] + P->p[k + q]);
                z[q] = x[k + q] - alpha * g[q];
            }
            e2max = clab_ccp_max_nan(e2max, clab_ccp_cone_res2(cn, &x[k], g));
            clab_ccp_cone_project(cn[0], z);
            CLAB_UNROLL3
            for (int q = 0; q < 3; q++) {
                double sq = z[q] - x[k + q];
                s[k + q] = sq;
                gs += g[q] * sq;
                ss += sq * sq;
            }
            clab_ccp_force(P, sph, i, &s[k], &F[k]);
        }
        double *pc = &part[NSUM * c];
        pc[0] = gs, pc[1] = ss, pc[2] = xdp, pc[3] = e2max;
    }
    out[0] = out[1] = out[2] = out[3] = 0.0;
    for (size_t c = 0; c < nch; c++) {
        const double *pc = &part[NSUM * c];
        out[0] += pc[0], out[1] += pc[1], out[2] += pc[2];
        out[3] = clab_ccp_max_nan(out[3], pc[3]);
    }
    for (size_t i = nk; i < P->nblocks; i++) { /* joints: free, r_j = |b_j| */
        const clab_ccp_block *bl = &P->blocks[i];
        double s2 = 0.0;
        for (size_t k = bl->first; k < bl->first + (size_t)bl->size; k++) {
            double g = Nx[k] + P->p[k];
            out[2] += x[k] * (g + P->p[k]);
            s[k] = -alpha * g;
            out[0] += g * s[k];
            out[1] += s[k] * s[k];
            s2 += g * g;
        }
        out[3] = clab_ccp_max_nan(out[3], s2);
    }
    clab_ccp_joint_forces(P, s, F);
}

/* Ns = P^T u + compliance s (u = M^-1 P s); returns s.N s */
static double gather(const clab_ccp *P, const double *u, const double *s, double *Ns, double *part)
{
    const size_t nk = P->ncontacts, nch = clab_ccp_nchunks(nk);
    const int comp = P->has_compliance;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nch >= CLAB_CCP_PAR_CHUNKS)
#endif
    for (size_t c = 0; c < nch; c++) {
        size_t lo, hi;
        clab_ccp_chunk(c, nk, &lo, &hi);
        const int sph = P->sph_chunk[c];
        double sNs = 0.0;
        for (size_t i = lo; i < hi; i++) {
            double o[3];
            if (sph) clab_ccp_sph_prefetch(P, u, i, hi);
            clab_ccp_rows(P, sph, i, u, o);
            CLAB_UNROLL3
            for (int q = 0; q < 3; q++) {
                size_t k = 3 * i + (size_t)q;
                double Nk = o[q] + (comp ? P->compliance[k] * s[k] : 0.0);
                Ns[k] = Nk;
                sNs += s[k] * Nk;
            }
        }
        part[c] = sNs;
    }
    double sNs = 0.0;
    for (size_t c = 0; c < nch; c++) sNs += part[c];
    clab_ccp_gather_joints(P, u, s, Ns);
    for (size_t k = 3 * nk; k < P->n; k++) sNs += s[k] * Ns[k];
    return sNs;
}

/* xn = x + lambda s, Nx += lambda Ns */
static void advance(const clab_ccp *P, double lambda, const double *x, const double *s, const double *Ns, double *xn,
                    double *Nx)
{
    const size_t n = P->n, nch = clab_ccp_nchunks(n);
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nch >= 3 * CLAB_CCP_PAR_CHUNKS)
#endif
    for (size_t c = 0; c < nch; c++) {
        size_t lo, hi;
        clab_ccp_chunk(c, n, &lo, &hi);
        for (size_t k = lo; k < hi; k++) {
            xn[k] = x[k] + lambda * s[k];
            Nx[k] += lambda * Ns[k];
        }
    }
}

static int solve(const clab_ccp *P, const clab_ccp_options *o, double *nu, clab_ccp_work *W, clab_ccp_result *res,
                 clab_error *err)
{
    if (clab_ccp_begin(o, W, res, err)) return err ? err->status : CLAB_ENOMEM;
    if (P->n == 0) return clab_ccp_finish("bb", o, res, 0.0, err); /* nothing to solve */
    size_t n = P->n;
    double *X[3] = {nu, clab_ccp_work_get(W, 0, n), clab_ccp_work_get(W, 1, n)};
    double *Nx = clab_ccp_work_get(W, 2, n);
    double *s = clab_ccp_work_get(W, 3, n);
    double *Ns = clab_ccp_work_get(W, 4, n);
    double *u = clab_ccp_work_get(W, 5, 6 * P->nbodies);
    double *part = clab_ccp_work_get(W, 6, NSUM * clab_ccp_nchunks(n) + NSUM);
    double *F = clab_ccp_work_get(W, 7, 3 * P->nblocks);
    if (!X[1] || !X[2] || !Nx || !s || !Ns || !u || !part || !F)
        return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory in the bb solver");

    double *x = X[0], *best = X[0];
    clab_ccp_project(P, x);
    clab_ccp_apply_N_F(P, x, F, u, Nx);
    res->body_passes = 1;
    for (size_t k = 0; k < n; k++) Ns[k] = Nx[k] + P->p[k]; /* d of x_0 (Ns as scratch) */
    if (o->desaxce_p0) clab_desaxce_all(P, o->desaxce_p0, Ns); /* exact friction, inner */
    double r = clab_ccp_residual(P, x, Ns), r_best = r;
    if (r <= o->tol) return clab_ccp_finish("bb", o, res, r, err);

    double L = clab_ccp_lipschitz_guess(P, x, s, Ns, u, F);
    res->body_passes++;
    double alpha = 1.0 / L, alpha_min = 1e-10 / L, alpha_max = 1e10 / L;
    double sum[NSUM];
    direction(P, o->desaxce_p0, alpha, x, Nx, s, F, part, sum);
    double f = 0.5 * sum[2];
    double fhist[MEMORY];
    for (int j = 0; j < MEMORY; j++) fhist[j] = f;
    while (res->iterations < o->max_iter) {
        double gs = sum[0], ss = sum[1];
        clab_ccp_body_pass_F(P, F, u);
        res->body_passes++;
        double sNs = gather(P, u, s, Ns, part);
        /* non-monotone line search on lambda (exact quadratic model of f) */
        double fmax = fhist[0];
        for (int j = 1; j < MEMORY; j++) fmax = fmax > fhist[j] ? fmax : fhist[j];
        double lambda = 1.0, fn = f + gs + 0.5 * sNs;
        for (int ls = 0; ls < 60 && fn > fmax + GAMMA * lambda * gs; ls++) {
            double lt = -0.5 * lambda * lambda * gs / (fn - f - lambda * gs);
            lambda = (lt >= 0.1 * lambda && lt <= 0.5 * lambda) ? lt : 0.5 * lambda;
            fn = f + lambda * gs + 0.5 * lambda * lambda * sNs;
        }
        /* step into a buffer that is neither x_k nor the best iterate; gradient by linearity */
        double *xn = NULL;
        for (int b = 0; b < 3 && !xn; b++)
            if (X[b] != x && X[b] != best) xn = X[b];
        advance(P, lambda, x, s, Ns, xn, Nx);
        x = xn;
        if ((res->iterations + 1) % REFRESH == 0) { /* F: rewritten below */
            clab_ccp_apply_N_F(P, x, F, u, Nx);
            res->body_passes++;
        }
        /* Barzilai-Borwein step for the next iteration: dx = lambda s, N dx = lambda N s */
        alpha = sNs > 0.0 ? ss / sNs : alpha_max;
        alpha = alpha < alpha_min ? alpha_min : (alpha > alpha_max ? alpha_max : alpha);
        /* objective and residual of x_{k+1}, and the next direction */
        direction(P, o->desaxce_p0, alpha, x, Nx, s, F, part, sum);
        f = 0.5 * sum[2];
        for (int j = MEMORY - 1; j > 0; j--) fhist[j] = fhist[j - 1];
        fhist[0] = f;
        r = sqrt(sum[3]);
        clab_ccp_record(W, res, r);
        if (r < r_best) r_best = r, best = x;
        if (r <= o->tol || !isfinite(r)) break;
    }
    double *out = isfinite(r) ? best : x;
    if (out != nu) memcpy(nu, out, n * sizeof *nu);
    return clab_ccp_finish("bb", o, res, isfinite(r) ? r_best : r, err);
}

const clab_ccp_solver_type clab_ccp_solver_bb = {
    "bb", "Barzilai-Borwein spectral projected gradient with non-monotone line search (Birgin et al. 2000)", 0.0,
    solve};
