/* test_ccp_threads.c: the fast matrix-free products of dvi/ccp.c and the four CCP solvers
 * give the same bytes for any number of OpenMP threads (the promise of doc/dvi.md and
 * dvi/ccp_fast.h: each body sums its own contacts in block order, reductions are formed per
 * fixed chunk of contacts and combined in chunk order).
 *
 * The scene is large enough for every parallel path to run (more than 8 chunks of 512
 * contacts and more than 4096 bodies): 6000 bodies (every fifth a box) on a jittered lattice
 * with spacing below two radii (so neighbours overlap), random velocities, on a floor, with
 * a spherical and a distance joint. Expected: memcmp equality (tolerance 0) of M^-1 P nu,
 * N nu, and of each solver's iterate and residual history after 12 iterations with 1, 2 and
 * 3 threads; also with compliance on and with the exact-friction inner update. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "ccp_solver.h"
#include "clab_collide.h"
#include "tap.h"

#define NX 20
#define NY 20
#define NZ 15
#define ITER 12 /* solver iterations compared */

static double unif(gsl_rng *r, double a, double b) { return a + (b - a) * gsl_rng_uniform(r); }

static clab_world *scene(gsl_rng *r)
{
    clab_error err;
    clab_world *w = clab_world_create(NULL);
    clab_material m = clab_default_material();
    snprintf(m.name, sizeof m.name, "grain");
    m.mu = 0.4;
    clab_world_add_material(w, &m, &err);
    clab_body_def g = clab_default_body_def();
    g.shape = clab_plane();
    g.fixed = 1;
    clab_world_add_body(w, &g, &err);
    const double R = 0.01, a = 1.96 * R;
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                clab_body_def d = clab_default_body_def();
                int n = (k * NY + j) * NX + i;
                d.shape = n % 5 == 4 ? clab_box(0.8 * R, 0.7 * R, 0.6 * R) : clab_sphere(R * unif(r, 0.97, 1.03));
                d.r = clab_v3(a * i + unif(r, -1e-4, 1e-4), a * j + unif(r, -1e-4, 1e-4), 0.99 * R + a * k);
                d.e = clab_q_axis_angle(clab_v3(unif(r, -1, 1), unif(r, -1, 1), 1.0), unif(r, 0, M_PI));
                d.rdot = clab_v3(unif(r, -0.1, 0.1), unif(r, -0.1, 0.1), unif(r, -0.1, 0.1));
                d.omega = clab_v3(unif(r, -1, 1), unif(r, -1, 1), unif(r, -1, 1));
                d.density = 2500.0;
                d.material = 1;
                if (clab_world_add_body(w, &d, &err) < 0) {
                    clab_world_destroy(w);
                    return NULL;
                }
            }
    clab_joint js = {CLAB_JOINT_SPHERICAL, 1, 2, clab_v3(0.01, 0.0, 0.0), clab_v3(-0.01, 0.0, 0.0), 0.0};
    clab_joint jd = {CLAB_JOINT_DISTANCE, 3, 4 + NX, clab_v3(0.0, 0.005, 0.0), clab_v3(0.0, -0.005, 0.0), 0.02};
    clab_world_add_joint(w, &js, &err);
    clab_world_add_joint(w, &jd, &err);
    return w;
}

static void set_threads(int n)
{
#ifdef _OPENMP
    omp_set_num_threads(n);
#else
    (void)n;
#endif
}

int main(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 77);
    clab_error err;
    clab_world *w = scene(r);
    tap_ok(w != NULL, "scene of %d bodies", NX * NY * NZ);
    if (!w) return tap_done();
    clab_collider *cd = clab_collider_create();
    clab_contacts c;
    clab_contacts_init(&c);
    int rc = clab_collide(cd, w, 0.002, &c, &err);
    clab_ccp P;
    clab_ccp_init(&P);
    rc = rc ? rc : clab_ccp_build(&P, w, &c, 1e-3, 1.0, &err);
    tap_ok(rc == 0 && P.ncontacts > 8 * 512 && P.nbodies > 4096,
           "CCP with %zu contacts (> 8 chunks of 512) and %zu bodies (> 4096): every loop runs in parallel",
           P.ncontacts, P.nbodies);
#ifndef _OPENMP
    tap_diag("built without OpenMP: the runs below use one thread each");
#endif
    size_t n = P.n, nb = P.nbodies;
    double *nu = malloc(n * sizeof *nu), *out[3], *u[3], *x[3], *hist[3], *scratch = malloc(6 * nb * sizeof *scratch);
    for (size_t k = 0; k < n; k++) nu[k] = unif(r, -1e-4, 1e-3);
    for (int t = 0; t < 3; t++) {
        out[t] = malloc(n * sizeof *out[t]);
        u[t] = malloc(6 * nb * sizeof *u[t]);
        x[t] = malloc(n * sizeof *x[t]);
        hist[t] = malloc(ITER * sizeof *hist[t]);
    }

    /* the products */
    for (int comp = 0; comp < 2; comp++) {
        for (size_t k = 0; k < n; k++) P.compliance[k] = comp ? 1e-3 * (double)(k % 3) : 0.0;
        clab_ccp_update_blocks(&P);
        int same_u = 1, same_N = 1;
        for (int t = 0; t < 3; t++) {
            set_threads(t + 1);
            clab_ccp_minv_P(&P, nu, u[t]);
            same_u &= memcmp(u[t], u[0], 6 * nb * sizeof *u[0]) == 0;
            clab_ccp_apply_N(&P, nu, scratch, out[t]);
            same_N &= memcmp(out[t], out[0], n * sizeof *out[0]) == 0;
        }
        tap_ok(same_u, "M^-1 P nu: the same bytes with 1, 2 and 3 threads%s", comp ? " (compliance on)" : "");
        tap_ok(same_N, "N nu: the same bytes with 1, 2 and 3 threads%s", comp ? " (compliance on)" : "");
    }

    /* the solvers: ITER iterations from the same guess */
    double *p0 = malloc(n * sizeof *p0), *psave = malloc(n * sizeof *psave);
    memcpy(psave, P.p, n * sizeof *psave);
    clab_ccp_work W;
    clab_ccp_work_init(&W);
    const clab_ccp_solver_type *const *solvers = clab_ccp_solvers();
    for (int variant = 0; variant < 3; variant++) /* 0 rigid, 1 compliance, 2 exact friction (inner) */
        for (int s = 0; solvers[s]; s++) {
            for (size_t k = 0; k < n; k++) P.compliance[k] = variant == 1 ? 1e-3 : 0.0;
            clab_ccp_update_blocks(&P);
            int same = 1;
            long its = 0;
            for (int t = 0; t < 3; t++) {
                set_threads(t + 1);
                memcpy(P.p, psave, n * sizeof *psave);
                memcpy(p0, psave, n * sizeof *p0);
                clab_ccp_options o = clab_ccp_default_options(solvers[s]);
                o.tol = 0.0;
                o.max_iter = ITER;
                if (variant == 2) o.desaxce_p0 = p0;
                memcpy(x[t], nu, n * sizeof *nu);
                clab_ccp_result res;
                solvers[s]->solve(&P, &o, x[t], &W, &res, &err);
                memcpy(hist[t], res.history, (size_t)res.iterations * sizeof *hist[t]);
                if (t == 0) its = res.iterations;
                same &= res.iterations == its && memcmp(x[t], x[0], n * sizeof *x[0]) == 0 &&
                        memcmp(hist[t], hist[0], (size_t)its * sizeof *hist[0]) == 0;
            }
            tap_ok(same && its == ITER, "%-6s %s: iterate and residual history the same bytes with 1, 2, 3 threads",
                   solvers[s]->name, variant == 0 ? "rigid" : (variant == 1 ? "compliance" : "exact friction"));
        }
    set_threads(1);

    for (int t = 0; t < 3; t++) free(out[t]), free(u[t]), free(x[t]), free(hist[t]);
    free(nu);
    free(scratch);
    free(p0);
    free(psave);
    clab_ccp_work_free(&W);
    clab_ccp_free(&P);
    clab_contacts_free(&c);
    clab_collider_destroy(cd);
    clab_world_destroy(w);
    gsl_rng_free(r);
    return tap_done();
}
