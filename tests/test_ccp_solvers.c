/* test_ccp_solvers.c: the four CCP solvers of dvi/ (jacobi, gs, apgd, bb) on small random
 * CCPs: piles of 10 spheres and boxes on a floor with random velocities, built as in one DVI
 * step (v* = v + M^-1 f, then Eq. (10) of seed 000), some with joints.
 *
 * What must hold at the returned nu (seed 000, Eq. (7), (8), (10)):
 *   - the residual r (ccp_solver.h, m/s) is <= TOL = 1e-10 m/s, for every solver;
 *   - gamma_i in K_i: exactly, up to round-off (every solver projects): 1e-14 of max |nu|;
 *   - d_i in the dual cone K_i*, b_j = 0: within 10 TOL (r bounds these up to the
 *     block scaling t_k, whose ratio to the true metric is at most a small factor);
 *   - gamma_i . d_i = 0: within 10 TOL max|nu|;
 *   - the new velocities v* + M^-1 P nu agree between solvers. N is only semi-definite,
 *     so nu need not be unique, but M^-1/2 P nu is (the QP of Eq. (11) is strictly convex in
 *     it), hence v(l+1) is; the solvers agree to 1e-8 m/s (measured: about 1e-9 m/s at
 *     residual 1e-10 m/s; the figures are printed).
 * Also: each solver's residual history is recorded, one entry per iteration; a warm start at
 * the solution needs 0 iterations; an iteration limit returns CLAB_EMAXITER with the best
 * iterate and the residual history of that many entries. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ccp_solver.h"
#include "pile.h"
#include "tap.h"

#define TOL 1e-10

/* kick every body to v* (Eq. (5b) without constraint impulses) */
static void kick(clab_world *w, double h)
{
    for (size_t k = 0; k < w->nbodies; k++) {
        clab_vec3 F, tau;
        clab_world_applied(w, k, &F, &tau);
        clab_body_kick(&w->bodies[k], F, tau, h);
    }
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 77);
    clab_error err;
    const clab_ccp_solver_type *const *solvers = clab_ccp_solvers();
    int nsolvers = 0;
    while (solvers[nsolvers]) nsolvers++;
    tap_ok(nsolvers == 4 && clab_ccp_solver_lookup("gs") == &clab_ccp_solver_gs && !clab_ccp_solver_lookup("x"),
           "four solvers, looked up by name");

    clab_ccp_work W;
    clab_ccp_work_init(&W);
    for (int inst = 0; inst < 6; inst++) {
        int with_joints = inst >= 4;
        clab_world *w = pile_world(r, 10, inst % 2 == 1);
        if (with_joints) pile_add_joints(w, 1, 9, 2, 10); /* g = 0 at the start (pile.h) */
        clab_collider *cd = clab_collider_create();
        clab_contacts c;
        clab_contacts_init(&c);
        clab_collide(cd, w, 0.02, &c, &err);
        double h = 1e-3;
        kick(w, h);
        clab_ccp P;
        clab_ccp_init(&P);
        if (clab_ccp_build(&P, w, &c, h, 1.0, &err)) tap_diag("build: %s", err.msg);
        size_t n = P.n, nb = w->nbodies;
        tap_diag("instance %d: %zu bodies, %zu contacts, %zu joint rows%s", inst, nb - 1, P.ncontacts, P.njoint_rows,
                 inst % 2 ? ", with boxes" : "");
        double *vref = malloc(6 * nb * sizeof *vref), *v = malloc(6 * nb * sizeof *v);
        double *nu = malloc(n * sizeof *nu), *d = malloc(n * sizeof *d), *u = malloc(6 * nb * sizeof *u);
        for (int s = 0; s < nsolvers; s++) {
            const clab_ccp_solver_type *S = solvers[s];
            clab_ccp_options o = clab_ccp_default_options(S);
            o.tol = TOL;
            o.max_iter = 200000;
            memset(nu, 0, n * sizeof *nu);
            clab_ccp_result res;
            int rc = S->solve(&P, &o, nu, &W, &res, &err);
            clab_ccp_d(&P, nu, u, d);
            double rr = clab_ccp_residual(&P, nu, d);
            clab_ccp_diagnostics dg;
            clab_ccp_diagnose(&P, nu, d, &dg);
            double numax = 0.0;
            for (size_t k = 0; k < n; k++) numax = fmax(numax, fabs(nu[k]));
            tap_ok(rc == CLAB_OK && res.converged && rr <= TOL && fabs(rr - res.residual) <= 1e-3 * TOL &&
                       res.nhistory == (size_t)res.iterations && res.iterations > 0 &&
                       res.history[res.nhistory - 1] <= TOL,
                   "%d %-6s: residual %.3g <= %g m/s after %ld iterations (history of %zu)", inst, S->name, rr, TOL,
                   res.iterations, res.nhistory);
            tap_ok(dg.gamma_outside_K <= 1e-14 * numax, "%d %-6s: gamma in K (distance %.3g N s)", inst, S->name,
                   dg.gamma_outside_K);
            tap_ok(dg.d_outside_dual <= 10 * TOL, "%d %-6s: d in the dual cone, b = 0 (distance %.3g m/s)", inst,
                   S->name, dg.d_outside_dual);
            tap_ok(dg.complementarity <= 10 * TOL * numax, "%d %-6s: |gamma . d| = %.3g <= %.3g", inst, S->name,
                   dg.complementarity, 10 * TOL * numax);
            /* new velocities v* + M^-1 P nu */
            clab_ccp_minv_P(&P, nu, u);
            for (size_t k = 0; k < nb; k++) {
                const clab_body *b = &w->bodies[k];
                double vs[6] = {b->rdot.x, b->rdot.y, b->rdot.z, b->wbar.x, b->wbar.y, b->wbar.z};
                for (int j = 0; j < 6; j++) v[6 * k + j] = vs[j] + u[6 * k + j];
            }
            if (s == 0) {
                memcpy(vref, v, 6 * nb * sizeof *v);
            } else {
                double dv = 0.0;
                for (size_t k = 0; k < 6 * nb; k++) dv = fmax(dv, fabs(v[k] - vref[k]));
                tap_ok(dv <= 1e-8, "%d %-6s: new velocities agree with %s's (max difference %.3g <= 1e-8)", inst,
                       S->name, solvers[0]->name, dv);
            }
            /* warm start at the solution: nothing to do */
            rc = S->solve(&P, &o, nu, &W, &res, &err);
            if (inst == 0)
                tap_ok(rc == CLAB_OK && res.iterations == 0, "%d %-6s: started at its solution: %ld iterations", inst,
                       S->name, res.iterations);
            /* iteration limit: EMAXITER, counted, best iterate kept */
            if (inst == 0) {
                memset(nu, 0, n * sizeof *nu);
                o.max_iter = 3;
                o.tol = 1e-300;
                rc = S->solve(&P, &o, nu, &W, &res, &err);
                clab_ccp_d(&P, nu, u, d);
                tap_ok(rc == CLAB_EMAXITER && res.iterations == 3 && res.nhistory == 3 && !res.converged &&
                           fabs(clab_ccp_residual(&P, nu, d) - res.residual) <= 1e-12 * res.residual,
                       "%d %-6s: 3 iterations -> CLAB_EMAXITER, residual %.3g of the returned nu", inst, S->name,
                       res.residual);
            }
        }
        free(vref);
        free(v);
        free(nu);
        free(d);
        free(u);
        clab_ccp_free(&P);
        clab_contacts_free(&c);
        clab_collider_destroy(cd);
        clab_world_destroy(w);
    }
    clab_ccp_work_free(&W);
    gsl_rng_free(r);
    return tap_done();
}
