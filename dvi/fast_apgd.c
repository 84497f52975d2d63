/* fast_apgd.c: accelerated projected gradient descent (APGD) for the QP of Eq. (11) of
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
 * iterate is returned, as in the paper.
 *
 * An iteration is two passes over memory (ccp_fast.h):
 *   1. the body pass u = M^-1 P x_{k+1} from the impulses F of x_{k+1}, which also keeps the
 *      body sums f = P x_{k+1} (6 numbers a body) and forms the test's left side as a sum
 *      over the bodies, (x - y).N(x - y) = sum_b fe_b . M_b^-1 fe_b + (x - y).C(x - y) with
 *      fe = P (x - y) = f_{k+1} - (f_k + beta (f_k - f_{k-1})) (P y by linearity); |x - y|^2
 *      and (x - y).C(x - y) come from the pass that formed x_{k+1}, where both are in
 *      registers. So the test is decided before the contacts are read again, and a failed
 *      test redoes the step and the body pass only;
 *   2. one pass over the contacts forming N x_{k+1} = P^T u from the compact record, the
 *      residual of x_{k+1}, already the next Proj_C(y - t (N y + p)) with its impulses, the
 *      next restart sum (N y + p).(x_{k+2} - x_{k+1}) and the next candidate's sums.
 * y and N y are not kept: each pass forms them from x_k, x_{k-1} and N x_k, N x_{k-1} (the
 * same operations, so the same bits, as when they were stored). Iterates live in four buffers
 * (nu and three scratch) and change roles by pointer, so keeping the best iterate copies
 * nothing. Parallel and deterministic (sums per chunk of contacts or bodies, combined in
 * chunk order). The iterates are those of the three-pass form (N x and the test's sums over
 * the unknowns in a gather pass) to rounding: the test's sum differs by rounding only, and on
 * the benchmark piles the 100-iteration iterates are the same bytes
 * (tests/test_apgd_reference.c compares with a plain transcription). */
#include <math.h>
#include <string.h>

#include "ccp_fast.h"
#include "solver_internal.h"

#define MAX_BACKTRACK 60

/* y = x + beta (x - xp) and N y = Nx + beta (Nx - Nxp), the extrapolated point of the last
 * momentum step, formed where it is used instead of kept in two vectors (the same operations
 * as when it was kept: the same bits) */
static inline void extrapolate(double beta, const double *x, const double *xp, const double *Nx, const double *Nxp,
                               size_t k, double *y, double *Ny)
{
    y[0] = x[k] + beta * (x[k] - xp[k]);
    Ny[0] = Nx[k] + beta * (Nx[k] - Nxp[k]);
}

/* chunks of CLAB_CCP_CHUNK bodies (the body pass's sums) */
static inline size_t body_chunks(size_t nb) { return (nb + CLAB_CCP_CHUNK - 1) / CLAB_CCP_CHUNK; }

/* the sums of a candidate xn against y that the passes forming xn hand to the backtracking
 * test (e = xn - y): ee = |e|^2 and ece = e.diag(compliance) e */
typedef struct cand_sums {
    double ee, ece;
} cand_sums;

/* xn = Proj_C(y - t (Ny + p)) from y of (beta, x, xp), its blocks' impulses F, the sums cs
 * of xn - y, and the restart sum s2 = (Ny + p).(xn - x) (returned) */
static double step(const clab_ccp *P, double t, double beta, const double *x, const double *xp, const double *Nx,
                   const double *Nxp, double *xn, double *F, double *part, cand_sums *cs)
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
        double gdx = 0.0, ee = 0.0, ece = 0.0;
        for (size_t i = lo; i < hi; i++) {
            const size_t k = 3 * i;
            double g[3], y[3];
            CLAB_UNROLL3
            for (int q = 0; q < 3; q++) {
                double Ny;
                extrapolate(beta, x, xp, Nx, Nxp, k + q, &y[q], &Ny);
                g[q] = Ny + P->p[k + q];
                xn[k + q] = y[q] - t * g[q];
            }
            clab_ccp_cone_project(P->cone[4 * i], &xn[k]);
            clab_ccp_force(P, sph, i, &xn[k], &F[k]);
            CLAB_UNROLL3
            for (int q = 0; q < 3; q++) {
                const double e = xn[k + q] - y[q];
                gdx += g[q] * (xn[k + q] - x[k + q]);
                ee += e * e;
                if (comp) ece += P->compliance[k + q] * e * e;
            }
        }
        part[3 * c] = gdx, part[3 * c + 1] = ee, part[3 * c + 2] = ece;
    }
    double s2 = 0.0;
    cs->ee = cs->ece = 0.0;
    for (size_t c = 0; c < nch; c++) s2 += part[3 * c], cs->ee += part[3 * c + 1], cs->ece += part[3 * c + 2];
    for (size_t k = 3 * nk; k < P->n; k++) {
        double y, Ny;
        extrapolate(beta, x, xp, Nx, Nxp, k, &y, &Ny);
        xn[k] = y - t * (Ny + P->p[k]);
        s2 += (Ny + P->p[k]) * (xn[k] - x[k]);
        const double e = xn[k] - y;
        cs->ee += e * e;
        cs->ece += P->compliance[k] * e * e;
    }
    clab_ccp_joint_forces(P, xn, F);
    return s2;
}

/* the body pass u = M^-1 P xn from the impulses F of xn (clab_ccp_body_pass_F, the same
 * bits), keeping fn = P xn per body, and, when fx is given, the backtracking test's
 *     (xn - y).P^T M^-1 P (xn - y) = sum_b fe_b . M_b^-1 fe_b   (returned),
 * fe = P (xn - y) = fn - fy with fy = P y = fx + beta (fx - fxp), by linearity from the body
 * sums of x_k and x_{k-1}: 6 numbers a body instead of the 3 vectors of unknowns the test read
 * in the gather (x_{k-1} and N x_{k-1} for y, N y) */
static double body_pass(const clab_ccp *P, const double *F, double beta, const double *fx, const double *fxp,
                        double *fn, double *u, double *part)
{
    const size_t nb = P->nbodies, nbc = body_chunks(nb);
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nb >= CLAB_CCP_PAR_BODIES)
#endif
    for (size_t c = 0; c < nbc; c++) {
        const size_t lo = c * CLAB_CCP_CHUNK, hi = lo + CLAB_CCP_CHUNK < nb ? lo + CLAB_CCP_CHUNK : nb;
        double s = 0.0;
        for (size_t k = lo; k < hi; k++) {
            const double *m = &P->minv[8 * k];
            double f[6];
            clab_ccp_body_sums(P, F, k, f);
            clab_ccp_body_minv(m, f, &u[6 * k]);
            for (int q = 0; q < 6; q++) fn[6 * k + q] = f[q];
            if (!fx) continue;
            double fe[6], ue[6];
            for (int q = 0; q < 6; q++) {
                const size_t j = 6 * k + (size_t)q;
                fe[q] = f[q] - (fx[j] + beta * (fx[j] - fxp[j]));
            }
            clab_ccp_body_minv(m, fe, ue);
            for (int q = 0; q < 6; q++) s += fe[q] * ue[q];
        }
        part[c] = s;
    }
    double s0 = 0.0;
    for (size_t c = 0; c < nbc; c++) s0 += part[c];
    return s0;
}

/* the contacts [lo, hi) of one chunk of update() (below), accumulating acc = (max of the
 * squared residuals, restart sum, |next - y|^2, (next - y).C (next - y)); inlined at each
 * call with constant sph (the chunk's compact records), comp (compliance) and p0 (exact
 * friction, inner update), so the common case runs without their tests */
static CLAB_ALWAYS_INLINE void update_chunk(const clab_ccp *P, const int sph, const int comp, const double *p0,
                                            const double *u, double beta, double t, const double *xn,
                                            const double *x, double *Nxn, const double *Nx, double *next, double *F,
                                            size_t lo, size_t hi, double acc[4])
{
    double e2max = 0.0, gdx = 0.0, ee = 0.0, ece = 0.0;
    for (size_t i = lo; i < hi; i++) {
        const size_t k = 3 * i;
        const double *cn = &P->cone[4 * i];
        double w[3], o[3], g[3], y[3], Ny[3];
        if (sph) { /* w = n x u once for the rows and the impulse */
            clab_ccp_sph_prefetch(P, u, i, hi);
            clab_ccp_sph_w(&P->sph[i], w);
            clab_ccp_sph_rows(&P->sph[i], w, u, o);
        } else {
            clab_ccp_rows(P, 0, i, u, o);
        }
        CLAB_UNROLL3
        for (int q = 0; q < 3; q++) {
            const double Nk = o[q] + (comp ? P->compliance[k + q] * xn[k + q] : 0.0);
            Nxn[k + q] = Nk;
            y[q] = xn[k + q] + beta * (xn[k + q] - x[k + q]);
            Ny[q] = Nk + beta * (Nk - Nx[k + q]);
            g[q] = Nk + P->p[k + q];
        }
        if (p0) clab_desaxce_block(P, p0, i, g); /* exact friction, inner: moves p_n and g_n */
        double gy[3], nx[3];
        CLAB_UNROLL3
        for (int q = 0; q < 3; q++) {
            gy[q] = Ny[q] + P->p[k + q];
            nx[q] = y[q] - t * gy[q];
        }
        e2max = clab_ccp_max_nan(e2max, clab_ccp_cone_res2(cn, &xn[k], g));
        clab_ccp_cone_project(cn[0], nx);
        if (sph) clab_ccp_sph_force(&P->sph[i], w, nx, &F[k]);
        else clab_ccp_force(P, 0, i, nx, &F[k]);
        CLAB_UNROLL3
        for (int q = 0; q < 3; q++) {
            const double e = nx[q] - y[q];
            next[k + q] = nx[q];
            gdx += gy[q] * (nx[q] - xn[k + q]);
            ee += e * e;
            if (comp) ece += P->compliance[k + q] * e * e;
        }
    }
    acc[0] = e2max, acc[1] = gdx, acc[2] = ee, acc[3] = ece;
}

#ifdef CLAB_V2
/* update_chunk for a chunk of spheres' compact records, rigid, relaxed friction (the common
 * case), two contacts a pass (lanes, ccp_fast.h): the same operations in the same order for
 * each, and the chunk's sums added contact by contact in order as there, so the same bits;
 * an odd last contact goes through update_chunk */
static void update_chunk_sph2(const clab_ccp *P, const double *u, double beta, double t, const double *xn,
                              const double *x, double *Nxn, const double *Nx, double *next, double *F, size_t lo,
                              size_t hi, double acc[4])
{
    const clab_v2d vb = {beta, beta}, vt = {t, t}, zero = {0.0, 0.0};
    double e2max = 0.0, gdx = 0.0, ee = 0.0, ece = 0.0;
    size_t i = lo;
    for (; i + 1 < hi; i += 2) {
        const size_t k = 3 * i;
        const double *cn0 = &P->cone[4 * i], *cn1 = cn0 + 4;
        clab_ccp_sph2 f;
        clab_v2d o[3];
        clab_ccp_sph_rows2(P, u, i, hi, &f, o);
        /* N xn, y, N y, the gradients at xn and y, the step from y */
        clab_v2d X[3], Xp[3], NX[3], p[3], Nk[3], y[3], g[3], gy[3], nx[3];
        clab_v2_load3(&xn[k], X);
        clab_v2_load3(&x[k], Xp);
        clab_v2_load3(&Nx[k], NX);
        clab_v2_load3(&P->p[k], p);
        CLAB_UNROLL3
        for (int q = 0; q < 3; q++) {
            Nk[q] = o[q] + zero; /* + 0.0 as update_chunk's rigid term: -0 becomes +0 there too */
            y[q] = X[q] + vb * (X[q] - Xp[q]);
            const clab_v2d Ny = Nk[q] + vb * (Nk[q] - NX[q]);
            g[q] = Nk[q] + p[q];
            gy[q] = Ny + p[q];
            nx[q] = y[q] - vt * gy[q];
        }
        clab_v2_store3(&Nxn[k], Nk);
        clab_ccp_cone_res2_2(cn0, cn1, X, g, &e2max); /* the residual of xn */
        /* the next iterate, its impulses, the sums in contact order */
        clab_ccp_cone_project2(cn0[0], cn1[0], nx);
        clab_ccp_sph_force2(&f, nx, &F[k]);
        clab_v2_store3(&next[k], nx);
        clab_v2d gd[3], ev[3];
        CLAB_UNROLL3
        for (int q = 0; q < 3; q++) {
            gd[q] = gy[q] * (nx[q] - X[q]);
            ev[q] = nx[q] - y[q];
            ev[q] = ev[q] * ev[q];
        }
        CLAB_UNROLL2
        for (int l = 0; l < 2; l++)
            CLAB_UNROLL3
            for (int q = 0; q < 3; q++) gdx += gd[q][l], ee += ev[q][l];
    }
    if (i < hi) { /* the odd one */
        double a[4];
        update_chunk(P, 1, 0, NULL, u, beta, t, xn, x, Nxn, Nx, next, F, i, hi, a);
        e2max = clab_ccp_max_nan(e2max, a[0]), gdx += a[1], ee += a[2];
    }
    acc[0] = e2max, acc[1] = gdx, acc[2] = ee, acc[3] = ece;
}
#endif

/* Nxn = P^T u + compliance xn (u = M^-1 P xn; the contacts from their compact records) and,
 * with y = xn + beta (xn - x), Ny = Nxn + beta (Nxn - Nx): the residual of xn (returned) with
 * d = Nxn + p, the next step from y with t into next, with its impulses F and the sums cs of
 * next - y, and the next restart sum *s2 = (Ny + p).(next - xn) */
static double update(const clab_ccp *P, const double *p0, const double *u, double beta, double t, const double *xn,
                     const double *x, double *Nxn, const double *Nx, double *next, double *F, double *part, double *s2,
                     cand_sums *cs)
{
    const size_t nk = P->ncontacts, nch = clab_ccp_nchunks(nk);
    const int comp = P->has_compliance;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nch >= CLAB_CCP_PAR_CHUNKS)
#endif
    for (size_t c = 0; c < nch; c++) {
        size_t lo, hi;
        clab_ccp_chunk(c, nk, &lo, &hi);
        double *acc = &part[4 * c];
        if (P->sph_chunk[c] && !comp && !p0) /* spheres, rigid, relaxed friction */
#ifdef CLAB_V2
            update_chunk_sph2(P, u, beta, t, xn, x, Nxn, Nx, next, F, lo, hi, acc);
#else
            update_chunk(P, 1, 0, NULL, u, beta, t, xn, x, Nxn, Nx, next, F, lo, hi, acc);
#endif
        else if (P->sph_chunk[c])
            update_chunk(P, 1, comp, p0, u, beta, t, xn, x, Nxn, Nx, next, F, lo, hi, acc);
        else
            update_chunk(P, 0, comp, p0, u, beta, t, xn, x, Nxn, Nx, next, F, lo, hi, acc);
    }
    double e2 = 0.0;
    *s2 = cs->ee = cs->ece = 0.0;
    for (size_t c = 0; c < nch; c++) {
        e2 = clab_ccp_max_nan(e2, part[4 * c]), *s2 += part[4 * c + 1];
        cs->ee += part[4 * c + 2], cs->ece += part[4 * c + 3];
    }
    clab_ccp_gather_joints(P, u, xn, Nxn);
    for (size_t i = nk; i < P->nblocks; i++) { /* joints: r_j = |b_j| */
        const clab_ccp_block *bl = &P->blocks[i];
        double sq = 0.0;
        for (size_t k = bl->first; k < bl->first + (size_t)bl->size; k++) {
            double y, Ny;
            extrapolate(beta, xn, x, Nxn, Nx, k, &y, &Ny);
            next[k] = y - t * (Ny + P->p[k]);
            *s2 += (Ny + P->p[k]) * (next[k] - xn[k]);
            const double e = next[k] - y;
            cs->ee += e * e;
            cs->ece += P->compliance[k] * e * e;
            double g = Nxn[k] + P->p[k];
            sq += g * g;
        }
        e2 = clab_ccp_max_nan(e2, sq);
    }
    clab_ccp_joint_forces(P, next, F);
    return sqrt(e2);
}

static int solve(const clab_ccp *P, const clab_ccp_options *o, double *nu, clab_ccp_work *W, clab_ccp_result *res,
                 clab_error *err)
{
    if (clab_ccp_begin(o, W, res, err)) return err ? err->status : CLAB_ENOMEM;
    if (P->n == 0) return clab_ccp_finish("apgd", o, res, 0.0, err); /* nothing to solve */
    size_t n = P->n, nb6 = 6 * P->nbodies;
    /* x-type buffers: nu and three scratch; N-type: three; body sums P x: three; u, chunk
     * sums, impulses */
    double *X[4] = {nu, clab_ccp_work_get(W, 0, n), clab_ccp_work_get(W, 1, n), clab_ccp_work_get(W, 2, n)};
    double *NB[3] = {clab_ccp_work_get(W, 3, n), clab_ccp_work_get(W, 4, n), clab_ccp_work_get(W, 5, n)};
    double *fbuf = clab_ccp_work_get(W, 6, 3 * nb6 + 1);
    double *u = clab_ccp_work_get(W, 7, nb6 + 1);
    double *part = clab_ccp_work_get(W, 8, 4 * clab_ccp_nchunks(P->ncontacts) + body_chunks(P->nbodies) + 4);
    double *F = clab_ccp_work_get(W, 9, 3 * P->nblocks);
    if (!X[1] || !X[2] || !X[3] || !NB[0] || !NB[1] || !NB[2] || !fbuf || !u || !part || !F)
        return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory in the apgd solver");
    size_t fb[3] = {0, nb6, 2 * nb6}; /* offsets of the three body-sum buffers in fbuf */
    double *Nx = NB[0], *Nxn = NB[1], *Nxp = NB[0];
    size_t fx = fb[0], fn = fb[1], fxp = fb[0]; /* P x_k, P x_{k+1}, P x_{k-1} */

    double *x = X[0], *best = X[0], *xn = X[1];
    clab_ccp_project(P, x);
    /* N x_0 (the operations of clab_ccp_apply_N_F), keeping P x_0 */
    clab_ccp_forces(P, x, F);
    body_pass(P, F, 0.0, NULL, NULL, &fbuf[fx], u, part);
    res->body_passes = 1;
    clab_ccp_gather(P, u, x, 0, Nx);
    for (size_t k = 0; k < n; k++) Nxn[k] = Nx[k] + P->p[k]; /* d of x_0 (Nxn as scratch) */
    if (o->desaxce_p0) clab_desaxce_all(P, o->desaxce_p0, Nxn); /* exact friction, inner */
    double r = clab_ccp_residual(P, x, Nxn), r_best = r;
    if (r <= o->tol) return clab_ccp_finish("apgd", o, res, r, err);

    double L = clab_ccp_lipschitz_guess(P, x, xn, Nxn, u, F);
    res->body_passes++;
    double theta = 1.0;
    /* y = x + beta (x - xp) with xp = x, beta = 0: y = x_0, N y = N x_0 */
    double *xp = x, beta = 0.0;
    cand_sums cs;
    double s2 = step(P, 1.0 / L, beta, x, xp, Nx, Nxp, xn, F, part, &cs);
    while (res->iterations < o->max_iter) {
        /* u = M^-1 P x_{k+1} with the backtracking test on L,
         * (x_{k+1} - y).N (x_{k+1} - y) <= L |x_{k+1} - y|^2; a failed test redoes the step */
        for (int bt = 0;; bt++) {
            double s0 = body_pass(P, F, beta, &fbuf[fx], &fbuf[fxp], &fbuf[fn], u, part) + cs.ece;
            res->body_passes++;
            if (s0 <= L * cs.ee || bt == MAX_BACKTRACK || !isfinite(s0)) break;
            L *= 2.0;
            s2 = step(P, 1.0 / L, beta, x, xp, Nx, Nxp, xn, F, part, &cs);
        }
        /* Nesterov momentum, with the restart test on g(y).(x_{k+1} - x_k) */
        double theta_n = 0.5 * (-theta * theta + theta * sqrt(theta * theta + 4.0));
        beta = theta * (1.0 - theta) / (theta * theta + theta_n);
        if (s2 > 0.0) beta = 0.0, theta_n = 1.0;
        theta = theta_n;
        L *= 0.9;
        /* the next step goes to a buffer that is neither x_{k+1}, x_k nor the best iterate */
        double *next = NULL;
        for (int b = 0; b < 4 && !next; b++)
            if (X[b] != xn && X[b] != x && X[b] != best) next = X[b];
        r = update(P, o->desaxce_p0, u, beta, 1.0 / L, xn, x, Nxn, Nx, next, F, part, &s2, &cs);
        /* roles: x_k becomes the previous iterate, x_{k+1} the current one */
        double *Nfree = NULL;
        for (int b = 0; b < 3 && !Nfree; b++)
            if (NB[b] != Nx && NB[b] != Nxn) Nfree = NB[b];
        size_t ffree = fb[0];
        for (int b = 0; b < 3; b++)
            if (fb[b] != fx && fb[b] != fn) ffree = fb[b];
        xp = x, x = xn, xn = next;
        Nxp = Nx, Nx = Nxn, Nxn = Nfree;
        fxp = fx, fx = fn, fn = ffree;
        clab_ccp_record(W, res, r);
        if (r < r_best) r_best = r, best = x;
        if (r <= o->tol || !isfinite(r)) break;
    }
    /* the best iterate (a non-finite run returns its last one) */
    double *out = isfinite(r) ? best : x;
    if (out != nu) memcpy(nu, out, n * sizeof *nu);
    return clab_ccp_finish("apgd", o, res, isfinite(r) ? r_best : r, err);
}

const clab_ccp_solver_type clab_ccp_solver_apgd = {
    "apgd", "Nesterov accelerated projected gradient with adaptive step and restart (Mazhar et al. 2015)", 0.0,
    solve};
