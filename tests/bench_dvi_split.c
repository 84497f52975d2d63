/* bench_dvi_split.c: the split DVI solvers (dvi/split.h) on a settled pile, P = 1..4 parts:
 * the identity with one process and the communication per part (a benchmark, not a test;
 * not run by make check; doc/dvi.md quotes its output).
 *
 * A loose packing of N spheres (default 1000; radii 0.02 m +- 10 %, GSL mt19937, a fixed
 * seed) is poured into a 0.5 x 0.5 m box (floor and walls; with "periodic" x is periodic on
 * [0, 0.5) instead of walled) and settled with the DVI backend (gs, at most 60 sweeps a step,
 * h = 2 ms) until every sphere is slower than 5 mm/s, at most 1.5 s. On the next step's CCP,
 * built with recovery_speed = 0 (so the QP is bounded, see bench_dvi_pile.c), from zero
 * impulses, the parts are bricks of the box (P = 2, 3: slabs along x; 4: 2 x 2 in x, y), each
 * body owned by the brick of its centre. Per P and solver (jacobi, apgd: ITER iterations,
 * tol 0; gs: to 1e-5 m/s, at most 5000 iterations) it prints whether the split
 * run equals the plain one with sums=exact to the bit (jacobi, apgd), gs's iterations and
 * velocity difference, and per part the loopback's counts: owned and ghost bodies, blocks
 * and shared ones, neighbours, the bytes of one exchange, exchanges and all-reduces per
 * iteration.
 *
 *     tests/bench_dvi_split [N] [periodic]
 */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_sim.h"
#include "plain.h"
#include "split.h"

#define ITER 200

static void add_plane(clab_world *w, clab_vec3 at, clab_vec3 axis, double angle)
{
    clab_body_def g = clab_default_body_def();
    g.shape = clab_plane();
    g.fixed = 1;
    g.r = at;
    g.e = clab_q_axis_angle(axis, angle);
    clab_world_add_body(w, &g, NULL);
}

/* the settled pile, or NULL */
static clab_world *pile(int N, int periodic, double L)
{
    const double R = 0.02, h = 2e-3;
    clab_error err;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 4242);
    clab_world *w = clab_world_create(NULL);
    add_plane(w, clab_v3(0, 0, 0), clab_v3(0, 0, 1), 0.0);
    if (!periodic) {
        add_plane(w, clab_v3(0, 0, 0), clab_v3(0, 1, 0), M_PI / 2);
        add_plane(w, clab_v3(L, 0, 0), clab_v3(0, 1, 0), -M_PI / 2);
    } else if (clab_world_set_periodic(w, 0, 0.0, L, &err)) {
        fprintf(stderr, "bench: %s\n", err.msg);
        return NULL;
    }
    add_plane(w, clab_v3(0, 0, 0), clab_v3(1, 0, 0), -M_PI / 2);
    add_plane(w, clab_v3(0, L, 0), clab_v3(1, 0, 0), M_PI / 2);
    const double a = 2.5 * 1.1 * R;
    const int m = (int)floor((L - a) / a) + 1;
    for (int k = 0; k < N; k++) {
        int layer = k / (m * m), i = (k % (m * m)) / m, j = k % m;
        clab_body_def d = clab_default_body_def();
        d.shape = clab_sphere(R * (0.9 + 0.2 * gsl_rng_uniform(rng)));
        d.density = 2500.0;
        d.r = clab_v3(a * (0.5 + i) + 0.2 * R * (gsl_rng_uniform(rng) - 0.5),
                      a * (0.5 + j) + 0.2 * R * (gsl_rng_uniform(rng) - 0.5), a * (0.5 + layer));
        d.rdot = clab_v3(0.1 * (gsl_rng_uniform(rng) - 0.5), 0.1 * (gsl_rng_uniform(rng) - 0.5), 0.0);
        clab_world_add_body(w, &d, NULL);
    }
    gsl_rng_free(rng);
    clab_options o;
    clab_options_init(&o);
    clab_options_set(&o, "solver", "gs", NULL);
    clab_options_set(&o, "tol", "1e-5", NULL);
    clab_options_set(&o, "max_iter", "60", NULL);
    clab_sim *s = clab_sim_create(w, "dvi", h, &o, &err);
    clab_options_free(&o);
    for (long step = 0; s && step < 750; step++) {
        if (clab_sim_step(s, &err)) break;
        double vmax = 0.0;
        for (size_t k = 0; k < w->nbodies; k++) vmax = fmax(vmax, clab_v3_norm(w->bodies[k].rdot));
        if (w->t > 0.5 && vmax < 5e-3) break;
    }
    clab_sim_destroy(s);
    return w;
}

static double **arrays(const clab_split *S, int per_body)
{
    double **x = calloc((size_t)S->nlocal, sizeof *x);
    for (int j = 0; j < S->nlocal; j++)
        x[j] = calloc((per_body ? 6 * S->part[j].P.nbodies : S->part[j].P.n) + 1, sizeof **x);
    return x;
}

static void release(const clab_split *S, double **x)
{
    for (int j = 0; j < S->nlocal; j++) free(x[j]);
    free(x);
}

/* one solver on P parts against one process: prints the line and the parts' counts */
static void run(const clab_ccp *P, const clab_world *w, double L, int nparts, const char *solver)
{
    int *owner = calloc(P->nbodies, sizeof *owner);
    const int px = nparts == 4 ? 2 : nparts, py = nparts == 4 ? 2 : 1;
    for (size_t k = 0; k < P->nbodies; k++) {
        const int ix = (int)floor(w->bodies[k].r.x / L * px), iy = (int)floor(w->bodies[k].r.y / L * py);
        owner[k] = (ix < 0 ? 0 : ix >= px ? px - 1 : ix) + px * (iy < 0 ? 0 : iy >= py ? py - 1 : iy);
    }
    clab_error err;
    clab_split S;
    clab_split_loopback lb;
    if (clab_split_build(&S, P, owner, nparts, &err) || clab_split_loopback_init(&lb, nparts)) {
        fprintf(stderr, "bench: %s\n", err.msg);
        exit(1);
    }
    clab_ccp_options o = clab_ccp_default_options(clab_ccp_plain_solver(solver));
    const int gs = strcmp(solver, "gs") == 0;
    o.max_iter = gs ? 5000 : ITER, o.tol = gs ? 1e-5 : 0.0;
    /* one process */
    double *nu = calloc(P->n + 1, sizeof *nu), *dv = calloc(6 * P->nbodies + 1, sizeof *dv);
    double *nu_s = calloc(P->n + 1, sizeof *nu), *dv_s = calloc(6 * P->nbodies + 1, sizeof *dv);
    clab_ccp_work W;
    clab_ccp_work_init(&W);
    clab_ccp_result r1, rs;
    clab_ccp_plain_control ctl = {CLAB_SUMS_EXACT, NULL, NULL};
    clab_ccp_plain_solve(solver, &ctl, P, &o, nu, &W, &r1, &err);
    clab_ccp_plain_dv(P, nu, dv);
    /* split */
    double **x = arrays(&S, 0), **u = arrays(&S, 1);
    clab_split_scatter(&S, nu_s, x);
    clab_split_comm comm = clab_split_loopback_comm(&lb);
    clab_split_solve(solver, &S, &comm, &o, NULL, x, &rs, &err);
    clab_split_gather(&S, x, nu_s);
    clab_split_dv(&S, x, u, dv_s);
    double dvmax = 0.0;
    for (size_t k = 0; k < 6 * P->nbodies; k++) dvmax = fmax(dvmax, fabs(dv[k] - dv_s[k]));
    const int same = memcmp(nu, nu_s, P->n * sizeof *nu) == 0 && memcmp(dv, dv_s, 6 * P->nbodies * sizeof *dv) == 0 &&
                     memcmp(r1.history, rs.history, (size_t)r1.nhistory * sizeof *r1.history) == 0;
    printf("P = %d (%d x %d), %-6s: %ld iterations (one process %ld), residual %.3g m/s; %s\n", nparts, px, py, solver,
           rs.iterations, r1.iterations, rs.residual,
           same ? "gamma, velocities and residual history: the same bits as one process (sums=exact)" : "differs");
    if (!same) printf("    max velocity difference %.3g m/s\n", dvmax);
    for (int j = 0; j < nparts; j++) {
        const clab_split_part *p = &S.part[j];
        const clab_split_counts *c = &lb.counts[j];
        size_t shared = 0;
        for (size_t b = 0; b < p->P.nblocks; b++) shared += p->shared[b];
        printf("    part %d: %4zu owned %4zu ghosts %5zu blocks (%4zu shared) %d neighbours | exchange: %d messages "
               "%6zu B | per iteration %.2f exchanges, %.2f all-reduces, %.0f B reduced\n",
               j, p->nowned, p->nghost, p->P.nblocks, shared, p->nsend, p->nsend,
               48 * (size_t)p->send_start[p->nsend], (double)c->exchanges / (double)rs.iterations,
               (double)c->reductions / (double)rs.iterations, (double)c->reduce_bytes / (double)rs.iterations);
    }
    release(&S, x), release(&S, u);
    clab_ccp_work_free(&W);
    free(nu), free(dv), free(nu_s), free(dv_s), free(owner);
    clab_split_loopback_free(&lb);
    clab_split_free(&S);
}

int main(int argc, char **argv)
{
    const int N = argc > 1 ? atoi(argv[1]) : 1000, periodic = argc > 2 && strcmp(argv[2], "periodic") == 0;
    const double L = 0.5, h = 2e-3;
    clab_world *w = pile(N, periodic, L);
    if (!w) return 1;
    clab_error err;
    clab_contacts c;
    clab_contacts_init(&c);
    clab_collider *cd = clab_collider_create();
    clab_collide(cd, w, 0.002, &c, &err);
    for (size_t k = 0; k < w->nbodies; k++) {
        clab_vec3 F, tau;
        clab_world_applied(w, k, &F, &tau);
        clab_body_kick(&w->bodies[k], F, tau, h);
    }
    clab_ccp P;
    clab_ccp_init(&P);
    if (clab_ccp_build(&P, w, &c, h, 0.0, &err)) { /* recovery_speed 0: a bounded QP (bench_dvi_pile.c) */
        fprintf(stderr, "bench: %s\n", err.msg);
        return 1;
    }
    printf("# settled pile of %d spheres in a %g m box%s at t = %.3f s: %zu contacts, %zu unknowns\n", N, L,
           periodic ? " (x periodic)" : "", w->t, P.ncontacts, P.n);
    for (int nparts = 1; nparts <= 4; nparts++) {
        run(&P, w, L, nparts, "jacobi");
        run(&P, w, L, nparts, "apgd");
        run(&P, w, L, nparts, "gs");
    }
    clab_ccp_free(&P);
    clab_contacts_free(&c);
    clab_collider_destroy(cd);
    clab_world_destroy(w);
    return 0;
}
