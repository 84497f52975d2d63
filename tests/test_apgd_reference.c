/* test_apgd_reference.c: the fused APGD of dvi/fast_apgd.c against a plain transcription of
 * the algorithm (Mazhar et al. 2015, as in the header of fast_apgd.c) that keeps y and N y
 * in vectors, forms every product with clab_ccp_apply_N (the 128-byte items) and evaluates the
 * backtracking test (x - y).N(x - y) <= L |x - y|^2 from N x and N y over the unknowns.
 *
 * The solver forms the same iterates by other routes: N y by linearity, the test's
 * (x - y).N(x - y) as sum_b fe_b . M_b^-1 fe_b over the bodies (fe = P (x - y) from the body
 * sums of the last three iterates) plus (x - y).C(x - y), N x from the contacts' compact
 * records. These agree with the plain forms up to rounding, so the two runs must take the
 * same backtracking and restart decisions and give the same iterates and residual histories
 * to rounding: after ITER (compliance) or ITER_RIGID iterations (tol 0) the returned iterates agree to 1e-9 of their
 * largest entry and every residual r of the history to 1e-7 (r + 0.1 r_0), r_0 the first one
 * (the floor: a run with compliance converges to 1e-11 m/s, where rounding is all the
 * difference); measured, printed: up to 5e-12 and 2e-9 (spheres with compliance; the boxes,
 * whose products are the same operations, 0 and 3e-16). A flipped decision changes them at
 * the percent level: leaving out the compliance term (x - y).C(x - y) of the test fails the
 * compliance cases with 1e-3 of max |nu| and 1e+10.
 *
 * Cases: piles of spheres (the compact records), with boxes (the items), with joints, with
 * compliance of the order of N's diagonal blocks (the regularized N + diag(C)), and a pile of 700 spheres (more than one chunk of
 * contacts and of bodies). The reference counts its backtracking steps; some must occur, and
 * the solver's count of products (clab_ccp_result.body_passes, what the benchmark divides by)
 * must be one an iteration and one a backtracking step of the reference, + 2 (N x_0 and the
 * Lipschitz estimate). Some restarts must occur in the rigid sphere runs too (the compact
 * records' fast path): a restart sum g(y).(x_{k+1} - x) formed there with x_{k-1} for x fails
 * (checked). */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ccp_fast.h"
#include "ccp_solver.h"
#include "pile.h"
#include "solver_internal.h"
#include "tap.h"

#define ITER 40       /* iterations of a run with compliance (it is at 1e-11 m/s by then) */
#define ITER_RIGID 150 /* of a rigid run, long enough that the spheres' run restarts */

/* x = Proj_C(y - t (Ny + p)) */
static void proj_step(const clab_ccp *P, double t, const double *y, const double *Ny, double *x)
{
    for (size_t k = 0; k < P->n; k++) x[k] = y[k] - t * (Ny[k] + P->p[k]);
    clab_ccp_project(P, x);
}

/* the plain APGD, iters iterations from nu (returns the best iterate in nu, the residuals in
 * hist, the number of backtracking steps; the number of restarts in *restarts) */
static long reference_apgd(const clab_ccp *P, double *nu, long iters, double *hist, long *restarts)
{
    const size_t n = P->n;
    double *x = malloc(n * sizeof *x), *xn = malloc(n * sizeof *xn), *y = malloc(n * sizeof *y);
    double *Nx = malloc(n * sizeof *Nx), *Nxn = malloc(n * sizeof *Nxn), *Ny = malloc(n * sizeof *Ny);
    double *d = malloc(n * sizeof *d), *best = malloc(n * sizeof *best), *a = malloc(n * sizeof *a);
    double *u = malloc(6 * P->nbodies * sizeof *u + 1), *F = malloc(3 * P->nblocks * sizeof *F + 1);
    long backtracks = 0;
    memcpy(x, nu, n * sizeof *x);
    clab_ccp_project(P, x);
    clab_ccp_apply_N(P, x, u, Nx);
    for (size_t k = 0; k < n; k++) d[k] = Nx[k] + P->p[k];
    double r_best = clab_ccp_residual(P, x, d);
    memcpy(best, x, n * sizeof *x);
    double L = clab_ccp_lipschitz_guess(P, x, a, d, u, F), theta = 1.0;
    memcpy(y, x, n * sizeof *x);
    memcpy(Ny, Nx, n * sizeof *x);
    proj_step(P, 1.0 / L, y, Ny, xn);
    for (long it = 0; it < iters; it++) {
        for (int bt = 0;; bt++) {
            clab_ccp_apply_N(P, xn, u, Nxn);
            double s0 = 0.0, s1 = 0.0;
            for (size_t k = 0; k < n; k++) {
                double e = xn[k] - y[k];
                s0 += e * (Nxn[k] - Ny[k]);
                s1 += e * e;
            }
            if (s0 <= L * s1 || bt == 60) break;
            backtracks++;
            L *= 2.0;
            proj_step(P, 1.0 / L, y, Ny, xn);
        }
        double s2 = 0.0; /* restart: g(y).(x_{k+1} - x_k) */
        for (size_t k = 0; k < n; k++) s2 += (Ny[k] + P->p[k]) * (xn[k] - x[k]);
        double theta_n = 0.5 * (-theta * theta + theta * sqrt(theta * theta + 4.0));
        double beta = theta * (1.0 - theta) / (theta * theta + theta_n);
        if (s2 > 0.0) beta = 0.0, theta_n = 1.0, ++*restarts;
        theta = theta_n;
        L *= 0.9;
        for (size_t k = 0; k < n; k++) d[k] = Nxn[k] + P->p[k];
        double r = clab_ccp_residual(P, xn, d);
        hist[it] = r;
        if (r < r_best) r_best = r, memcpy(best, xn, n * sizeof *xn);
        for (size_t k = 0; k < n; k++) {
            y[k] = xn[k] + beta * (xn[k] - x[k]);
            Ny[k] = Nxn[k] + beta * (Nxn[k] - Nx[k]);
        }
        memcpy(x, xn, n * sizeof *x);
        memcpy(Nx, Nxn, n * sizeof *x);
        proj_step(P, 1.0 / L, y, Ny, xn);
    }
    memcpy(nu, best, n * sizeof *nu);
    free(x), free(xn), free(y), free(Nx), free(Nxn), free(Ny), free(d), free(best), free(a), free(u), free(F);
    return backtracks;
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2026);
    clab_error err;
    clab_ccp_work W;
    clab_ccp_work_init(&W);
    long backtracks = 0, restarts = 0;
    static const char *names[] = {"spheres", "boxes", "spheres + joints", "boxes + compliance",
                                  "spheres + compliance", "700 spheres"};
    for (int inst = 0; inst < 6; inst++) {
        const int boxes = inst == 1 || inst == 3, joints = inst == 2, comp = inst == 3 || inst == 4;
        clab_world *w = pile_world(r, inst == 5 ? 700 : 40, boxes);
        if (joints) pile_add_joints(w, 1, 29, 2, 30); /* bodies of different layers, not touching */
        pile_ccp pc;
        pile_ccp_make(&pc, w, 1e-3);
        clab_ccp *P = &pc.P;
        if (comp) {
            double lmax = 0.0; /* compliance of the order of N's diagonal blocks: the test's (x - y).C(x - y) counts */
            for (size_t i = 0; i < P->ncontacts; i++) lmax = fmax(lmax, P->cone[4 * i + 2]);
            for (size_t k = 0; k < P->n; k++) P->compliance[k] = lmax * (0.2 + gsl_rng_uniform(r));
            clab_ccp_update_blocks(P);
        }
        size_t sph = 0;
        for (size_t ch = 0; ch < clab_ccp_nchunks(P->ncontacts); ch++) sph += P->sph_chunk[ch];
        const size_t n = P->n;
        const long iters = comp ? ITER : ITER_RIGID;
        double *nu = calloc(n + 1, sizeof *nu), *ref = calloc(n + 1, sizeof *ref), *hist = malloc(iters * sizeof *hist);
        long rs = 0, bt = reference_apgd(P, ref, iters, hist, &rs);
        if (!comp && !boxes) restarts += rs;
        backtracks += bt;
        clab_ccp_options o = clab_ccp_default_options(&clab_ccp_solver_apgd);
        o.tol = 0.0;
        o.max_iter = iters;
        clab_ccp_result res;
        clab_ccp_solver_apgd.solve(P, &o, nu, &W, &res, &err);
        double dx = 0.0, xmax = 0.0, dh = 0.0;
        for (size_t k = 0; k < n; k++) dx = fmax(dx, fabs(nu[k] - ref[k])), xmax = fmax(xmax, fabs(ref[k]));
        for (long it = 0; it < iters && it < (long)res.nhistory; it++)
            dh = fmax(dh, fabs(res.history[it] - hist[it]) / (hist[it] + 0.1 * hist[0]));
        tap_diag("%s: %zu contacts (%zu of %zu chunks with compact records), %zu joint rows, %zu bodies, %ld "
                 "backtracking steps, %ld restarts, residual %.3g -> %.3g m/s", names[inst], P->ncontacts, sph,
                 clab_ccp_nchunks(P->ncontacts), P->njoint_rows, P->nbodies, bt, rs, hist[0], hist[iters - 1]);
        tap_ok((long)res.nhistory == iters && dx <= 1e-9 * xmax, "%s: iterate after %ld iterations = the plain APGD's "
               "(max difference %.3g of max |nu| %.3g)", names[inst], iters, dx, xmax);
        tap_ok((long)res.nhistory == iters && dh <= 1e-7, "%s: residual history = the plain APGD's (max difference "
               "%.3g of r + 0.1 r_0)", names[inst], dh);
        tap_ok(res.body_passes == iters + 2 + bt, "%s: %ld body passes = %ld iterations + the reference's %ld "
               "backtracking steps + 2 of the set-up", names[inst], res.body_passes, iters, bt);
        free(nu), free(ref), free(hist);
        pile_ccp_free(&pc);
    }
    tap_ok(backtracks > 0, "the runs include backtracking steps (%ld)", backtracks);
    tap_ok(restarts > 0, "the rigid sphere runs include restarts (%ld), so their restart sums are compared too", restarts);
    clab_ccp_work_free(&W);
    gsl_rng_free(r);
    return tap_done();
}
