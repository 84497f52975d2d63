/* bench_dvi_pile.c: how many iterations each CCP solver needs on a settled pile (a benchmark,
 * not a test; not run by make check).
 *
 * A loose random packing of N spheres (default 1200; radii 0.02 m +- 10 %, GSL mt19937 with a
 * fixed seed) is poured into a box (floor and four walls, mu = 0.5) and settled with the DVI
 * backend itself (solver gs, at most 60 sweeps a step, h = 2 ms) until every sphere is
 * slower than 5 mm/s. On the next step's CCP (Eq. (10) of seed 000) each solver then runs to
 * residual tol (default 1e-6 m/s, the scaled natural map of ccp_solver.h) or max_iter, once
 * from zero (cold) and once from the previous step's impulses matched by contact key (warm);
 * printed: the iterations at which the residual history first drops below 1e-4, 1e-5 and
 * 1e-6 m/s ("-" = never), the final residual and the wall time.
 *
 * The CCP is built twice: with the backend's default recovery_speed = 1 m/s, and with
 * recovery_speed = 0 (d_{i,0} = max(Phi/h, 0)). The settled pile keeps overlaps of ~1e-8 m
 * (each settling step stops at 60 sweeps), and in a jammed packing between walls they are
 * self-stressed: there are impulses nu in C with P nu = 0 (no net effect on any body) and
 * p.nu < 0, along which the QP of Eq. (11) decreases without bound. The first CCP therefore
 * has no exact solution at the level |Phi|/h ~ 1e-6 m/s, and solvers drift along that
 * direction; the second is bounded (p.nu >= 0 whenever P nu = 0).
 *
 *     tests/bench_dvi_pile [N] [tol] [max_iter]
 */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ccp_solver.h"
#include "clab_sim.h"
#include "warmstart.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void add_plane(clab_world *w, clab_vec3 at, clab_vec3 axis, double angle)
{
    clab_body_def g = clab_default_body_def();
    g.shape = clab_plane();
    g.fixed = 1;
    g.r = at;
    g.e = clab_q_axis_angle(axis, angle);
    clab_world_add_body(w, &g, NULL);
}

int main(int argc, char **argv)
{
    int N = argc > 1 ? atoi(argv[1]) : 1200;
    double tol = argc > 2 ? atof(argv[2]) : 1e-6;
    long max_iter = argc > 3 ? atol(argv[3]) : 20000;
    const double R = 0.02, L = 0.5, h = 2e-3;
    clab_error err;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 4242);

    /* the box: floor z = 0, walls at x, y = 0 and L, normals inward */
    clab_world *w = clab_world_create(NULL);
    add_plane(w, clab_v3(0, 0, 0), clab_v3(0, 0, 1), 0.0);
    add_plane(w, clab_v3(0, 0, 0), clab_v3(0, 1, 0), M_PI / 2);
    add_plane(w, clab_v3(L, 0, 0), clab_v3(0, 1, 0), -M_PI / 2);
    add_plane(w, clab_v3(0, 0, 0), clab_v3(1, 0, 0), -M_PI / 2);
    add_plane(w, clab_v3(0, L, 0), clab_v3(1, 0, 0), M_PI / 2);
    size_t nfixed = w->nbodies;
    /* loose random packing: a jittered lattice of spacing 2.5 R_max, layer above layer */
    double a = 2.5 * 1.1 * R;
    int m = (int)floor((L - a) / a) + 1;
    for (int k = 0; k < N; k++) {
        int layer = k / (m * m), i = (k % (m * m)) / m, j = k % m;
        clab_body_def d = clab_default_body_def();
        d.shape = clab_sphere(R * (0.9 + 0.2 * gsl_rng_uniform(rng)));
        d.density = 2500.0;
        d.r = clab_v3(a * (0.5 + i) + 0.2 * R * (gsl_rng_uniform(rng) - 0.5),
                      a * (0.5 + j) + 0.2 * R * (gsl_rng_uniform(rng) - 0.5), a * (0.5 + layer));
        d.rdot = clab_v3(0.1 * (gsl_rng_uniform(rng) - 0.5), 0.1 * (gsl_rng_uniform(rng) - 0.5), 0.0);
        if (clab_world_add_body(w, &d, &err) < 0) {
            fprintf(stderr, "bench: %s\n", err.msg);
            return 1;
        }
    }
    printf("# pile: %d spheres, R = %g m +- 10%%, box %g x %g m, %d layers of %d x %d, h = %g s\n", N, R, L, L,
           (N + m * m - 1) / (m * m), m, m, h);

    /* settle with the DVI backend itself */
    clab_options o;
    clab_options_init(&o);
    clab_options_set(&o, "solver", "gs", NULL);
    clab_options_set(&o, "tol", "1e-5", NULL);
    clab_options_set(&o, "max_iter", "60", NULL);
    clab_options_set(&o, "envelope", "0.005", NULL);
    clab_sim *s = clab_sim_create(w, "dvi", h, &o, &err);
    if (!s) {
        fprintf(stderr, "bench: %s\n", err.msg);
        return 1;
    }
    double t0 = now(), vmax = 0.0;
    for (long step = 0; step < 5000; step++) {
        if (clab_sim_step(s, &err)) {
            fprintf(stderr, "bench: %s\n", err.msg);
            return 1;
        }
        vmax = 0.0;
        for (size_t k = nfixed; k < w->nbodies; k++) vmax = fmax(vmax, clab_v3_norm(w->bodies[k].rdot));
        if (step % 100 == 0)
            fprintf(stderr, "settling: t = %.3f s, %zu contacts, max speed %.3g m/s\n", w->t, s->contacts.n, vmax);
        if (w->t > 0.5 && vmax < 5e-3) break;
    }
    clab_solver_stats st;
    s->type->stats(s->self, &st);
    double zmax = 0.0;
    for (size_t k = nfixed; k < w->nbodies; k++) zmax = fmax(zmax, w->bodies[k].r.z);
    printf("# settled at t = %.3f s (%.1f s wall): max speed %.3g m/s, pile height %.3f m, %zu contacts; "
           "settling used %ld solves, %ld iteration-limit hits\n",
           w->t, now() - t0, vmax, zmax, s->contacts.n, st.solves, st.maxiter_hits);

    /* the previous step's impulses by key (world vectors, as the backend keeps them) */
    clab_warmstart ws;
    clab_warm_init(&ws);
    clab_warm_reset(&ws, s->contacts.n);
    clab_vec3 *f = malloc((s->contacts.n + 1) * sizeof *f);
    clab_sim_forces(s, f);
    for (size_t i = 0; i < s->contacts.n; i++) {
        const clab_contact *c = &s->contacts.c[i];
        clab_vec3 tu, tw;
        clab_contact_frame(c, &tu, &tw);
        clab_vec3 F = clab_v3_scale(clab_v3_add(clab_v3_add(clab_v3_scale(c->n, f[i].x), clab_v3_scale(tu, f[i].y)),
                                                clab_v3_scale(tw, f[i].z)),
                                    h);
        clab_warm_put(&ws, c->key, F);
    }

    /* the snapshot: the next step's contacts and CCP (after the kick to v*) */
    clab_contacts c;
    clab_contacts_init(&c);
    clab_collider *cd = clab_collider_create();
    clab_collide(cd, w, s->envelope, &c, &err);
    for (size_t k = 0; k < w->nbodies; k++) {
        clab_vec3 F, tau;
        clab_world_applied(w, k, &F, &tau);
        clab_body_kick(&w->bodies[k], F, tau, h);
    }
    double minphi = 0.0;
    for (size_t i = 0; i < c.n; i++) minphi = fmin(minphi, c.c[i].phi);
    clab_ccp P;
    clab_ccp_init(&P);
    clab_ccp_work W;
    clab_ccp_work_init(&W);
    double *warm = NULL, *nu = NULL;
    const double vrec[2] = {1.0, 0.0};
    for (int variant = 0; variant < 2; variant++) {
        if (clab_ccp_build(&P, w, &c, h, vrec[variant], &err)) {
            fprintf(stderr, "bench: %s\n", err.msg);
            return 1;
        }
        size_t matched = 0;
        free(warm);
        free(nu);
        warm = calloc(P.n, sizeof *warm), nu = malloc(P.n * sizeof *nu);
        for (size_t i = 0; i < P.ncontacts; i++) {
            const clab_vec3 *F = clab_warm_get(&ws, c.c[i].key);
            if (!F) continue;
            matched++;
            clab_vec3 tu, tw;
            clab_contact_frame(&c.c[i], &tu, &tw);
            warm[3 * i] = clab_v3_dot(*F, c.c[i].n);
            warm[3 * i + 1] = clab_v3_dot(*F, tu);
            warm[3 * i + 2] = clab_v3_dot(*F, tw);
        }
        printf("# snapshot CCP, recovery_speed = %g m/s: %zu contacts (%zu unknowns), min Phi %.3g m, %zu warm-start "
               "impulses matched by key; tol %g m/s, max_iter %ld\n",
               vrec[variant], P.ncontacts, P.n, minphi, matched, tol, max_iter);
        printf("%-7s %-5s %9s %9s %9s %11s %10s %9s\n", "solver", "start", "it_1e-4", "it_1e-5", "it_1e-6", "residual",
               "iterations", "time_s");
        const clab_ccp_solver_type *const *solvers = clab_ccp_solvers();
        for (int k = 0; solvers[k]; k++)
            for (int start = 0; start < 2; start++) {
                clab_ccp_options so = clab_ccp_default_options(solvers[k]);
                so.tol = tol;
                so.max_iter = max_iter;
                if (start) memcpy(nu, warm, P.n * sizeof *nu);
                else memset(nu, 0, P.n * sizeof *nu);
                clab_ccp_result res;
                double t1 = now();
                solvers[k]->solve(&P, &so, nu, &W, &res, &err);
                double t2 = now() - t1;
                char col[3][24];
                const double level[3] = {1e-4, 1e-5, 1e-6};
                for (int q = 0; q < 3; q++) {
                    snprintf(col[q], sizeof col[q], "-");
                    for (size_t it = 0; it < res.nhistory; it++)
                        if (res.history[it] <= level[q]) {
                            snprintf(col[q], sizeof col[q], "%zu", it + 1);
                            break;
                        }
                }
                printf("%-7s %-5s %9s %9s %9s %11.3g %10ld %9.2f\n", solvers[k]->name, start ? "warm" : "cold", col[0],
                       col[1], col[2], res.residual, res.iterations, t2);
                fflush(stdout);
            }
    }
    clab_ccp_work_free(&W);
    clab_ccp_free(&P);
    free(warm);
    free(nu);
    free(f);
    clab_warm_free(&ws);
    clab_contacts_free(&c);
    clab_collider_destroy(cd);
    clab_sim_destroy(s);
    clab_options_free(&o);
    clab_world_destroy(w);
    gsl_rng_free(rng);
    return 0;
}
