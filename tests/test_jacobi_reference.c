/* test_jacobi_reference.c: the projected Jacobi of dvi/fast_jacobi.c against a plain
 * transcription of its iteration (header of fast_jacobi.c, Tasora and Anitescu 2011):
 *
 *     d = N x + p,   x_i <- Proj_K_i(x_i - omega / lambda_max(N_ii) d_i)   for every contact i,
 *
 * with every product formed by clab_ccp_apply_N (the 128-byte items) and the projection by
 * clab_cone_project (cone.c). The solver forms the rows of spheres' contacts from their compact
 * records (the same rows to round-off, 2e-16) and, where SSE2 is there, two contacts at a time
 * (the lanes of ccp_fast.h), so after ITER sweeps (tol 0) its iterate must agree with the
 * plain one to 1e-9 of the largest entry (rounding only; measured, printed). A fault in one
 * lane (contact i + 1 stepped with contact i's lambda_max) moves the iterate at the percent
 * level (checked). Cases: piles of spheres (compact records, in pairs), of 700 spheres (more than
 * one chunk), with boxes (items, one contact at a time). */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ccp_fast.h"
#include "ccp_solver.h"
#include "cone.h"
#include "pile.h"
#include "tap.h"

#define ITER 60

/* the plain projected Jacobi: iters sweeps from x (contacts only) */
static void reference_jacobi(const clab_ccp *P, double *x, long iters, double omega)
{
    const size_t n = P->n;
    double *d = malloc((n + 1) * sizeof *d), *u = malloc((6 * P->nbodies + 1) * sizeof *u);
    clab_ccp_project(P, x);
    for (long it = 0; it < iters; it++) {
        clab_ccp_apply_N(P, x, u, d);
        for (size_t k = 0; k < n; k++) d[k] += P->p[k];
        for (size_t i = 0; i < P->ncontacts; i++) {
            const double *cn = &P->cone[4 * i];
            const double eta = omega / cn[2];
            double *xi = &x[3 * i];
            for (int q = 0; q < 3; q++) xi[q] -= eta * d[3 * i + (size_t)q];
            clab_cone_project(cn[0], xi);
        }
    }
    free(d);
    free(u);
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2027);
    clab_error err;
    clab_ccp_work W;
    clab_ccp_work_init(&W);
    static const char *names[] = {"spheres", "700 spheres", "spheres and boxes"};
    for (int inst = 0; inst < 3; inst++) {
        pile_ccp pc;
        pile_ccp_make(&pc, pile_world(r, inst == 1 ? 700 : 40, inst == 2), 1e-3);
        const clab_ccp *P = &pc.P;
        size_t sph = 0;
        for (size_t ch = 0; ch < clab_ccp_nchunks(P->ncontacts); ch++) sph += P->sph_chunk[ch];
        const size_t n = P->n;
        double *nu = calloc(n + 1, sizeof *nu), *ref = calloc(n + 1, sizeof *ref);
        clab_ccp_options o = clab_ccp_default_options(&clab_ccp_solver_jacobi);
        o.tol = 0.0;
        o.max_iter = ITER;
        reference_jacobi(P, ref, ITER, o.omega);
        clab_ccp_result res;
        clab_ccp_solver_jacobi.solve(P, &o, nu, &W, &res, &err);
        double dx = 0.0, xmax = 0.0;
        for (size_t k = 0; k < n; k++) dx = fmax(dx, fabs(nu[k] - ref[k])), xmax = fmax(xmax, fabs(ref[k]));
        tap_diag("%s: %zu contacts (%zu of %zu chunks with compact records), %zu bodies", names[inst], P->ncontacts,
                 sph, clab_ccp_nchunks(P->ncontacts), P->nbodies);
        tap_ok(P->njoint_rows == 0 && res.nhistory == ITER && xmax > 0.0 && dx <= 1e-9 * xmax,
               "%s: iterate after %d sweeps = the plain projected Jacobi's (max difference %.3g of max |nu| %.3g)",
               names[inst], ITER, dx, xmax);
        free(nu), free(ref);
        pile_ccp_free(&pc);
    }
    clab_ccp_work_free(&W);
    gsl_rng_free(r);
    return tap_done();
}
