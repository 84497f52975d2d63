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
 * For the quadratic f the backtracking test is exactly (x - y).N(x - y) <= L |x - y|^2, free
 * of cancellation. The best iterate is returned, as in the paper.
 *
 * One product with N per iteration (plus one pass per backtrack), and one pass over the
 * contacts. N = P^T M^-1 P + diag(c) is applied through the bodies; with u_z = M^-1 P z and
 * f_z = P z (per body: world velocity change, summed force and torque),
 *   - N y of y = x_k + beta (x_k - x_{k-1}) needs no product: N y = N x_k + beta (N x_k -
 *     N x_{k-1}) by linearity, from the N x of the last two iterates (kept per contact);
 *   - the backtracking test's (x - y).N(x - y) = (f_x - f_y).(u_x - u_y) + sum c (x - y)^2
 *     is a sum over the bodies (u_y, f_y by linearity too), known right after the body pass
 *     of x = x_{k+1}, before any pass over the contacts;
 * so an iteration is the body pass u, f of x_{k+1} (ccp_fast.h) with the test's body sum in
 * the same loop, and one fused pass over the contacts that forms N x_{k+1} =
 * P^T u_{k+1} (+ c x_{k+1}) and the residual of x_{k+1}, y and N y, the restart test's sum,
 * and already x_{k+2} = Proj_C(y - t (N y + p)) with its impulses F for the next body
 * pass. The old form (a gather pass with the test's sums, then an update pass) read the
 * contacts twice and kept nine vectors; the iterates are the same to the bit (the test's sum
 * is formed differently, so a test within round-off of its threshold could go the other way).
 * Iterates live in four buffers (nu and three scratch: x_{k+1}, x_k, the next, the best) and
 * change roles by pointer, so keeping the best iterate copies nothing. Parallel and
 * deterministic (ccp_fast.h; the body sums are per fixed chunk of bodies too). */
#include <math.h>
#include <string.h>

#include "ccp_fast.h"
#include "solver_internal.h"

#define MAX_BACKTRACK 60
#define BODY_CHUNK 1024 /* bodies per chunk of the body sums */

/* One contact of the pass (below), inlined twice: with and without compliance. */
static inline __attribute__((always_inline)) void contact(const clab_ccp *P, const double *p0, int res, int comp,
                                                          double beta, double t, size_t i, const double *x,
                                                          const double *xp, const double *Nxp, const double *u,
                                                          double *Nx, double *xn, double *F, double acc[4])
{
    const size_t k = 3 * i;
    const clab_ccp_item *it = &P->items[i];
    const double *cn = &P->cone[4 * i], *xi = &x[k], *pi = &P->p[k], *ci = &P->compliance[k];
    double *Nxi = &Nx[k];
    double y[3], z[3], g[3];
    if (res) { /* N x_k = P^T u_k + c x_k, d = N x_k + p and the residual of x_k */
        double v[3];
        clab_ccp_item_vrel(it, u, v);
        clab_ccp_item_rows(it, v, Nxi);
        if (comp)
            for (int q = 0; q < 3; q++) Nxi[q] += ci[q] * xi[q];
        for (int q = 0; q < 3; q++) g[q] = Nxi[q] + pi[q];
        if (p0) clab_desaxce_block(P, p0, i, g); /* exact friction, inner: moves p_n and g_n */
        acc[3] = clab_ccp_max_nan(acc[3], clab_ccp_cone_res2(cn, xi, g));
    }
    for (int q = 0; q < 3; q++) {
        y[q] = xi[q] + beta * (xi[q] - xp[k + q]);
        g[q] = Nxi[q] + beta * (Nxi[q] - Nxp[k + q]) + pi[q]; /* N y + p */
        z[q] = y[q] - t * g[q];
    }
    clab_ccp_cone_project(cn[0], z);
    for (int q = 0; q < 3; q++) {
        double e = z[q] - y[q];
        xn[k + q] = z[q];
        if (comp) acc[0] += ci[q] * e * e;
        acc[1] += e * e;
        acc[2] += g[q] * (z[q] - xi[q]);
    }
    clab_ccp_item_force(it, z, &F[k]);
}

/* The pass over the blocks. In: x = x_k, xp = x_{k-1}, N x_{k-1} (Nxp), beta, t; when res is
 * set also u = M^-1 P x_k (world, 6 per body), from which N x_k is formed into Nx and the
 * residual of x_k returned (else Nx must hold N x_k already, and 0 is returned; the
 * exact-friction inner update moves p there, before N y + p is formed, as it did after each
 * iteration). Out: xn = Proj_C(y - t (N y + p)) with y = x + beta (x - xp) and
 * N y = N x + beta (N x - N xp), its impulses F, s[0] = sum c (xn - y)^2,
 * s[1] = |xn - y|^2, s[2] = (N y + p).(xn - x). */
static double pass(const clab_ccp *P, const double *p0, int res, double beta, double t, const double *x,
                   const double *xp, const double *Nxp, const double *u, double *Nx, double *xn, double *F,
                   double *part, double s[3])
{
    const size_t nk = P->ncontacts, nch = clab_ccp_nchunks(nk);
    const int comp = P->has_compliance;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nch >= CLAB_CCP_PAR_CHUNKS)
#endif
    for (size_t c = 0; c < nch; c++) {
        size_t lo, hi;
        clab_ccp_chunk(c, nk, &lo, &hi);
        double acc[4] = {0.0, 0.0, 0.0, 0.0}; /* the sums s[0..2], the largest residual^2 */
        /* four copies of the loop, each without the branches of its case */
#define CONTACTS(R, C)                                                                                                 \
    for (size_t i = lo; i < hi; i++) contact(P, p0, R, C, beta, t, i, x, xp, Nxp, u, Nx, xn, F, acc)
        if (res) {
            if (comp) CONTACTS(1, 1);
            else CONTACTS(1, 0);
        } else {
            if (comp) CONTACTS(0, 1);
            else CONTACTS(0, 0);
        }
#undef CONTACTS
        for (int q = 0; q < 4; q++) part[4 * c + (size_t)q] = acc[q];
    }
    double e2 = 0.0;
    s[0] = s[1] = s[2] = 0.0;
    for (size_t c = 0; c < nch; c++) {
        const double *pc = &part[4 * c];
        s[0] += pc[0], s[1] += pc[1], s[2] += pc[2];
        e2 = clab_ccp_max_nan(e2, pc[3]);
    }
    if (res) clab_ccp_gather_joints(P, u, x, Nx);
    for (size_t i = nk; i < P->nblocks; i++) { /* joints: free, r_j = |b_j| */
        const clab_ccp_block *bl = &P->blocks[i];
        double s2 = 0.0;
        for (size_t k = bl->first; k < bl->first + (size_t)bl->size; k++) {
            double g = Nx[k] + P->p[k];
            s2 += g * g;
            double y = x[k] + beta * (x[k] - xp[k]), h = Nx[k] + beta * (Nx[k] - Nxp[k]) + P->p[k];
            xn[k] = y - t * h;
            double e = xn[k] - y;
            s[0] += P->compliance[k] * e * e;
            s[1] += e * e;
            s[2] += h * (xn[k] - x[k]);
        }
        e2 = clab_ccp_max_nan(e2, s2);
    }
    clab_ccp_joint_forces(P, xn, F);
    return res ? sqrt(e2) : 0.0;
}

/* The body pass of x_{k+1} (u_n, f_n from the impulses F) fused with the backtracking test's
 * body sum: returns the sum over the bodies of (f_n - f_y).(u_n - u_y), with u_y = u_x +
 * beta (u_x - u_xp) and f_y likewise (y = x + beta (x - xp) by linearity), summed per chunk
 * of BODY_CHUNK bodies and the chunks in order */
static double body_pass(const clab_ccp *P, const double *F, double beta, const double *ux, const double *uxp,
                        const double *fx, const double *fxp, double *un, double *fn, double *part)
{
    const size_t nb = P->nbodies, nch = (nb + BODY_CHUNK - 1) / BODY_CHUNK;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nb >= CLAB_CCP_PAR_BODIES)
#endif
    for (size_t c = 0; c < nch; c++) {
        double sum = 0.0;
        const size_t hi = (c + 1) * BODY_CHUNK < nb ? (c + 1) * BODY_CHUNK : nb;
        for (size_t k = c * BODY_CHUNK; k < hi; k++) {
            double *f = &fn[6 * k], *u = &un[6 * k];
            clab_ccp_body_sum(P, F, k, f);
            clab_ccp_body_minv(P, k, f, u);
            for (int q = 0; q < 6; q++) {
                const size_t j = 6 * k + (size_t)q;
                double uy = ux[j] + beta * (ux[j] - uxp[j]), fy = fx[j] + beta * (fx[j] - fxp[j]);
                sum += (f[q] - fy) * (u[q] - uy);
            }
        }
        part[c] = sum;
    }
    double sum = 0.0;
    for (size_t c = 0; c < nch; c++) sum += part[c];
    return sum;
}

static int solve(const clab_ccp *P, const clab_ccp_options *o, double *nu, clab_ccp_work *W, clab_ccp_result *res,
                 clab_error *err)
{
    if (clab_ccp_begin(o, W, res, err)) return err ? err->status : CLAB_ENOMEM;
    if (P->n == 0) return clab_ccp_finish("apgd", o, res, 0.0, err); /* nothing to solve */
    const size_t n = P->n, nb = P->nbodies;
    /* iterates: nu and three scratch; N x of x_k and x_{k-1}; F; chunk sums; per body u and f
     * of x_k, x_{k-1}, x_{k+1} (6 each) */
    double *X[4] = {nu, clab_ccp_work_get(W, 0, n), clab_ccp_work_get(W, 1, n), clab_ccp_work_get(W, 2, n)};
    double *NX = clab_ccp_work_get(W, 3, 2 * n);
    double *F = clab_ccp_work_get(W, 4, 3 * P->nblocks);
    double *part = clab_ccp_work_get(W, 5, 4 * clab_ccp_nchunks(P->ncontacts) + nb / BODY_CHUNK + 4);
    double *B = clab_ccp_work_get(W, 6, 36 * nb + 1);
    if (!X[1] || !X[2] || !X[3] || !NX || !F || !part || !B)
        return clab_error_set(err, CLAB_ENOMEM, "dvi: out of memory in the apgd solver");
    double *ux = B, *uxp = B + 6 * nb, *un = B + 12 * nb, *fx = B + 18 * nb, *fxp = B + 24 * nb, *fn = B + 30 * nb;

    double *x = X[0], *xp = X[0], *best = X[0], *xn = X[1], *Nx = NX, *Nxp = NX;
    clab_ccp_project(P, x);
    clab_ccp_forces(P, x, F);
    clab_ccp_body_pass_Ff(P, F, ux, fx);
    clab_ccp_gather(P, ux, x, 0, Nx);
    double *d = X[1]; /* d of x_0 (scratch) */
    for (size_t k = 0; k < n; k++) d[k] = Nx[k] + P->p[k];
    if (o->desaxce_p0) clab_desaxce_all(P, o->desaxce_p0, d); /* exact friction, inner */
    double r = clab_ccp_residual(P, x, d), r_best = r;
    if (r <= o->tol) return clab_ccp_finish("apgd", o, res, r, err);

    double L = clab_ccp_lipschitz_guess(P, x, X[1], X[2], un);
    memcpy(uxp, ux, 6 * nb * sizeof *ux); /* x_{-1} = x_0 (beta = 0 at first) */
    memcpy(fxp, fx, 6 * nb * sizeof *fx);
    double theta = 1.0, beta = 0.0, s[3];
    pass(P, NULL, 0, beta, 1.0 / L, x, xp, Nxp, ux, Nx, xn, F, part, s);
    while (res->iterations < o->max_iter) {
        /* u, f of x_{k+1} and the backtracking test on L; a failed test redoes the step */
        for (int bt = 0;; bt++) {
            double dNd = s[0] + body_pass(P, F, beta, ux, uxp, fx, fxp, un, fn, part);
            if (dNd <= L * s[1] || bt == MAX_BACKTRACK || !isfinite(dNd)) break;
            L *= 2.0;
            pass(P, NULL, 0, beta, 1.0 / L, x, xp, Nxp, ux, Nx, xn, F, part, s);
        }
        /* Nesterov momentum, with the restart test on g(y).(x_{k+1} - x_k) */
        double theta_n = 0.5 * (-theta * theta + theta * sqrt(theta * theta + 4.0));
        beta = theta * (1.0 - theta) / (theta * theta + theta_n);
        if (s[2] > 0.0) beta = 0.0, theta_n = 1.0;
        theta = theta_n;
        L *= 0.9;
        /* x_{k+1} becomes x; the next step goes to a buffer that is none of x, xp, best */
        xp = x, x = xn;
        Nxp = Nx, Nx = Nx == NX ? NX + n : NX;
        double *t = uxp;
        uxp = ux, ux = un, un = t;
        t = fxp, fxp = fx, fx = fn, fn = t;
        xn = NULL;
        for (int b = 0; b < 4 && !xn; b++)
            if (X[b] != x && X[b] != xp && X[b] != best) xn = X[b];
        r = pass(P, o->desaxce_p0, 1, beta, 1.0 / L, x, xp, Nxp, ux, Nx, xn, F, part, s);
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
