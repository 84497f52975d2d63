/* bench_dvi_pile.c: `contactlab bench dvi-pile`: the DVI solvers on a settled dense pile.
 *
 * The pile is the one of `bench pile` (penalty), built the same way so both backends run the
 * same particles: a face-centred cubic lattice of spheres of radius R = 0.01 m (2500 kg/m^3,
 * mu = 0.5), nearest neighbours 2R apart with horizontal jitter of +-1e-4 R (12 neighbours
 * touching within about 1e-6 m: a crystal, about 6 contacts a sphere), nx x nx cells across,
 * periodic in x and y with period nx a, NZ = 20 cells (40 layers) high on a floor z = 0:
 * N = 80 nx^2 = 8,000 and 32,000 spheres (--quick: 2,000 and 3,920). Dense at once, so no
 * long settling run: the backend is warm-started with the lattice's equilibrium impulses
 * (lattice_warm_start), then SETTLE steps of the DVI backend itself (apgd, tol 1e-4 m/s, at
 * most SETTLE_MAXIT iterations a step, h = 2 ms) settle it, and the settled state is kept in
 * the output folder (dvi-pile-<N>-settled.ckpt) for later runs. Every run measures from that
 * checkpoint as read into a new world and sim: a run that settled the pile reads it back, so
 * the first run and the later ones start from the same state by the same path (the settling
 * sim's arrays and heap are gone).
 * Then, on that pile:
 *
 *   1. the next step's CCP (Eq. (10) of seed 000, after the kick to v*), every solver started
 *      from the settling run's last impulses matched by contact key (warm, as the backend
 *      does) and from zero (cold), run to 1e-6 m/s or CONV_ITER iterations: the iterations at
 *      which the residual (the natural map of residual.c, m/s) first falls below 1e-4 and
 *      1e-6 ("-" = not within the limit). Solvers give the same bytes for any thread count,
 *      so this runs once;
 *   2. for each thread count of --threads: solves of SHORT_ITER and TIME_ITER iterations with
 *      tol = 0 (always exactly that many) and a solve to the backend's tolerance
 *      XP_PILE_DVI_TOL, all from the warm start, TIME_REPS rounds each going round the solvers
 *      (so a slow spell of the shared host falls on every solver, not on one), best of the
 *      rounds, wall clock and, for one thread, CPU time (the 1-minute load average is printed
 *      beside). A solve is set-up work (projection of the guess, the first product with N, the
 *      residual of the guess; apgd: the Lipschitz estimate, a second product, and the first
 *      step; jacobi: the joints' block factors) and then its iterations, so the two are
 *      reported apart:
 *        loop   = (T(TIME_ITER) - T(SHORT_ITER)) / (TIME_ITER - SHORT_ITER), the cost of one
 *                 iteration, printed as seconds and as ns per (contact x iteration);
 *        setup  = T(TIME_ITER) - TIME_ITER loop, in ms, paid once per solve (once per step);
 *        whole  = T(TIME_ITER) / TIME_ITER per contact, the figure this benchmark printed up to
 *                 session 4 (set-up spread over TIME_ITER iterations);
 *        products = the products with N (clab_ccp_result.body_passes) in those loop iterations:
 *                 one an iteration, apgd one more per backtracking step (on the 32,000 pile 12
 *                 in the 80), gs none (its refreshes of u only), and the loop's cost per
 *                 (contact x product) (for apgd a backtracking step redoes the step's pass over
 *                 the contacts and the body pass: about 0.7 of an iteration's instructions);
 *        solve  = the solve to XP_PILE_DVI_TOL (what a step of the backend runs), at most
 *                 TIME_ITER iterations (gs does not reach it on these piles): iterations,
 *                 products, time, and time per (contact x iteration) with its set-up;
 *   3. for each thread count and each solver: STEPS full backend steps (collision, CCP build,
 *      solve to tol 1e-4 m/s, the pile experiments' default, update), warm-started from the
 *      settled state: seconds per step.
 *
 * Rows of bench-summary.csv: dvi-pile-<N>-<solver>, one per thread count, with the timed
 * steps of 3 and the other figures in the note. */
#include "config.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "ccp_solver.h"
#include "clab_checkpoint.h"
#include "clab_sim.h"
#include "pile_scene.h"
#include "warmstart.h"

#define SETTLE 10         /* settling steps */
#define SETTLE_H 2e-3     /* settling and benchmark step [s] */
#define SETTLE_MAXIT "100" /* iteration limit of the settling steps */
#define FIRST 1           /* the floor is body 0 */
#define NZ 20             /* fcc cells in height (40 layers) */
#define RADIUS 0.01       /* sphere radius R [m] */
#define CONV_ITER 500     /* iteration limit of the convergence runs */
#define TIME_ITER 100     /* iterations of a timing run */
#define SHORT_ITER 20     /* iterations of the short timing run (loop = difference of the two) */
#define TIME_REPS 5       /* timing runs of each length (best of) */
#define STEPS 3           /* timed backend steps per (solver, threads) */

/* the fastest sphere [m/s] */
static double max_speed(const clab_world *w)
{
    double v = 0.0;
    for (size_t k = FIRST; k < w->nbodies; k++) v = fmax(v, clab_v3_norm(w->bodies[k].rdot));
    return v;
}

/* the fcc lattice pile with nx x nx x nz cells (4 nx^2 nz spheres), periodic in x and y (bench.h:
 * bench lcp-pile builds it too); this benchmark's is nz = NZ */
clab_world *bench_lattice_pile(int nx, int nz, unsigned long seed, clab_error *err)
{
    const double R = RADIUS, a = 2.0 * sqrt(2.0) * R; /* cell edge: neighbours 2R apart */
    static const double basis[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
    clab_world *w = clab_world_create(NULL);
    if (!w) return NULL;
    clab_material m = clab_default_material();
    snprintf(m.name, sizeof m.name, "grain");
    m.mu = 0.5;
    if (clab_world_add_material(w, &m, err) < 0 || clab_world_set_periodic(w, 0, 0.0, nx * a, err) ||
        clab_world_set_periodic(w, 1, 0.0, nx * a, err))
        goto fail;
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    d.material = 1;
    snprintf(d.name, sizeof d.name, "floor");
    if (clab_world_add_body(w, &d, err) < 0) goto fail;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    d = clab_default_body_def();
    d.density = 2500.0;
    d.material = 1;
    d.shape = clab_sphere(R);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < nx; j++)
            for (int i = 0; i < nx; i++)
                for (int b = 0; b < 4; b++) {
                    double jx = 1e-4 * R * (2.0 * gsl_rng_uniform(r) - 1.0), jy = 1e-4 * R * (2.0 * gsl_rng_uniform(r) - 1.0);
                    d.r = clab_v3((i + basis[b][0]) * a + jx, (j + basis[b][1]) * a + jy, R + (k + basis[b][2]) * a);
                    if (clab_world_add_body(w, &d, err) < 0) {
                        gsl_rng_free(r);
                        goto fail;
                    }
                }
    gsl_rng_free(r);
    return w;
fail:
    clab_world_destroy(w);
    return NULL;
}
static clab_world *lattice_pile(int nx, unsigned long seed, clab_error *err)
{
    return bench_lattice_pile(nx, NZ, seed, err);
}

/* The lattice's equilibrium impulses as the backend's warm start: in the fcc stacking each
 * sphere rests on 4 spheres of the layer below at 45 degrees, so a sphere with L layers above
 * it pushes on each of them with F = (L + 1) m g / (4 cos 45 deg); the in-layer contacts carry
 * nothing; a sphere of the bottom layer presses on the floor with (2 NZ) m g (each layer holds
 * the same number of spheres per area). Written in the checkpoint format of the backend and
 * loaded into s, so the first step starts from the solution up to the jitter. */
int bench_lattice_warm_start(clab_sim *s, int nz, clab_error *err)
{
    const clab_world *w = s->world;
    clab_contacts cs;
    clab_contacts_init(&cs);
    int rc = clab_collide(s->collider, w, s->envelope, &cs, err);
    clab_warmstart ws;
    clab_warm_init(&ws);
    if (!rc && clab_warm_reset(&ws, cs.n)) rc = clab_error_set(err, CLAB_ENOMEM, "dvi-pile: out of memory");
    const double R = RADIUS, a = 2.0 * sqrt(2.0) * R, h = s->h, g = clab_v3_norm(w->gravity);
    double ztop = 0.0;
    for (size_t k = FIRST; k < w->nbodies; k++) ztop = fmax(ztop, w->bodies[k].r.z);
    for (size_t i = 0; i < cs.n && !rc; i++) {
        const clab_contact *c = &cs.c[i];
        const clab_body *A = &w->bodies[c->a], *B = &w->bodies[c->b];
        double Fn;
        if (c->a < FIRST) {
            Fn = 2.0 * nz * B->m * g;
        } else {
            const clab_body *U = B->r.z > A->r.z ? B : A; /* the upper one */
            if (fabs(B->r.z - A->r.z) < 0.25 * a) continue; /* same layer */
            double L = floor((ztop - U->r.z) / (0.5 * a) + 0.5);
            Fn = (L + 1.0) * U->m * g / (4.0 * sqrt(0.5));
        }
        clab_warm_put(&ws, c->key, clab_v3_scale(c->n, Fn * h));
    }
    /* the warm-start section, then the rest of a fresh backend state (counters) */
    FILE *f = tmpfile(), *g2 = tmpfile();
    if (!rc && (!f || !g2)) rc = clab_error_set(err, CLAB_EIO, "dvi-pile: no temporary file");
    if (!rc) rc = clab_warm_save(&ws, f, err);
    if (!rc) rc = s->type->save(s->self, g2, err);
    if (!rc) {
        char line[512];
        int skip = 3; /* "dvi-warmstart 1", "contacts 0", "joint_rows 0" of the fresh state */
        rewind(g2);
        while (fgets(line, sizeof line, g2))
            if (skip > 0) skip--;
            else fputs(line, f);
        rewind(f);
        rc = s->type->load(s->self, f, err);
    }
    if (f) fclose(f);
    if (g2) fclose(g2);
    clab_warm_free(&ws);
    clab_contacts_free(&cs);
    return rc;
}
static int lattice_warm_start(clab_sim *s, clab_error *err) { return bench_lattice_warm_start(s, NZ, err); }

/* a DVI simulation of w with the given solver and tolerance */
static clab_sim *dvi_sim(clab_world *w, const char *solver, const char *tol, const char *max_iter, clab_error *err)
{
    clab_options o;
    clab_options_init(&o);
    clab_options_set(&o, "solver", solver, NULL);
    clab_options_set(&o, "tol", tol, NULL);
    clab_options_set(&o, "max_iter", max_iter, NULL);
    clab_sim *s = clab_sim_create(w, "dvi", SETTLE_H, &o, err);
    clab_options_free(&o);
    return s;
}

/* iteration at which the history first drops to level, 0 when never */
static long first_below(const clab_ccp_result *r, double level)
{
    for (size_t it = 0; it < r->nhistory; it++)
        if (r->history[it] <= level) return (long)it + 1;
    return 0;
}

static void fmt_iter(char *buf, size_t len, long it)
{
    if (it > 0) snprintf(buf, len, "%ld", it);
    else snprintf(buf, len, "-");
}

typedef struct solver_figures {
    long it4[2], it6[2];  /* iterations to 1e-4, 1e-6 m/s, warm and cold (0: not within CONV_ITER) */
    double res_end[2];    /* residual after the convergence run [m/s] */
} solver_figures;

/* best (smallest) wall and CPU seconds of a solve from the warm start, with its iterations and
 * products with N (clab_ccp_result.body_passes; the same in every repetition) */
typedef struct solve_time {
    double wall, cpu;
    long iterations, products;
} solve_time;
static void time_solve(const clab_ccp_solver_type *sv, const clab_ccp *P, double tol, long iters, const double *warm,
                       double *nu, clab_ccp_work *W, solve_time *best)
{
    clab_ccp_options so = clab_ccp_default_options(sv);
    so.tol = tol;
    so.max_iter = iters;
    memcpy(nu, warm, P->n * sizeof *nu);
    clab_ccp_result res;
    clab_error err;
    double t1 = bench_now(), c1 = bench_cpu_now(1);
    sv->solve(P, &so, nu, W, &res, &err);
    best->wall = fmin(best->wall, bench_now() - t1);
    best->cpu = fmin(best->cpu, bench_cpu_now(1) - c1);
    best->iterations = res.iterations;
    best->products = res.body_passes;
}

static int run_size(const bench_ctx *c, int nx)
{
    clab_error err;
    const int N = 4 * nx * nx * NZ;
    int maxthreads = 1;
    for (int t = 0; t < c->nthreads; t++) maxthreads = c->threads[t] > maxthreads ? c->threads[t] : maxthreads;

    /* the pile: lattice, then settled by DVI (or read from an earlier run's checkpoint) */
    double t0 = bench_now();
    clab_world *w = lattice_pile(nx, 1, &err);
    if (!w) {
        fprintf(stderr, "dvi-pile: %s\n", err.msg);
        return 1;
    }
    bench_set_threads(maxthreads);
    clab_sim *s = dvi_sim(w, "apgd", "1e-4", SETTLE_MAXIT, &err);
    if (!s) {
        fprintf(stderr, "dvi-pile: %s\n", err.msg);
        clab_world_destroy(w);
        return 1;
    }
    char ckpt[1200];
    snprintf(ckpt, sizeof ckpt, "%s/dvi-pile-%d-settled.ckpt", c->out, N);
    clab_checkpoint_info ci;
    int cached = clab_checkpoint_read(s, ckpt, &ci, &err) == CLAB_OK;
    long hits = 0, iters = 0;
    size_t settled_contacts = 0; /* the last settling step's */
    if (!cached && lattice_warm_start(s, &err)) {
        fprintf(stderr, "dvi-pile: %s\n", err.msg);
        clab_sim_destroy(s);
        clab_world_destroy(w);
        return 1;
    }
    if (!cached) {
        for (int k = 0; k < SETTLE; k++) {
            if (clab_sim_step(s, &err)) {
                fprintf(stderr, "dvi-pile: settling: %s\n", err.msg);
                clab_sim_destroy(s);
                clab_world_destroy(w);
                return 1;
            }
            clab_solver_stats st;
            s->type->stats(s->self, &st);
            fprintf(stderr, "  settling N = %d: step %d, %zu contacts, %ld iterations (residual %.3g m/s), max speed "
                            "%.3g m/s, %.1f s\n", N, k + 1, s->contacts.n, st.iterations, st.residual, max_speed(w),
                    bench_now() - t0);
            hits = st.maxiter_hits, iters = st.total_iterations;
            settled_contacts = s->contacts.n;
        }
        clab_checkpoint_output out;
        memset(&out, 0, sizeof out);
        snprintf(out.tag, sizeof out.tag, "bench dvi-pile settled %d", N);
        if (clab_checkpoint_write(s, &out, ckpt, &err)) {
            fprintf(stderr, "dvi-pile: (not kept) %s\n", err.msg);
        } else {
            /* the measurements start from the checkpoint read back into a new world and sim, as
             * a later run reads it: the same state and the same path through memory whether
             * or not this run settled the pile (not the settling sim's arrays and heap) */
            clab_world *w2 = lattice_pile(nx, 1, &err);
            clab_sim *s2 = w2 ? dvi_sim(w2, "apgd", "1e-4", SETTLE_MAXIT, &err) : NULL;
            if (s2 && clab_checkpoint_read(s2, ckpt, &ci, &err) == CLAB_OK) {
                clab_sim_destroy(s);
                clab_world_destroy(w);
                s = s2;
                w = w2;
            } else {
                fprintf(stderr, "dvi-pile: (measured in the settling sim) %s\n", err.msg);
                clab_sim_destroy(s2);
                clab_world_destroy(w2);
            }
        }
    }
    double t_settle = bench_now() - t0, vmax = max_speed(w);
    if (cached)
        printf("pile of %d spheres (fcc lattice %d x %d x %d cells, periodic in x and y): settled state read from %s "
               "(t = %.3f s), max speed %.3g m/s\n", N, nx, nx, NZ, ckpt, w->t, vmax);
    else
        printf("pile of %d spheres (fcc lattice %d x %d x %d cells, periodic in x and y): built, warm-started with "
               "the lattice's equilibrium impulses and settled by %d DVI steps (apgd, tol 1e-4 m/s, <= %s iterations, h = %g s, %d threads; %ld iterations, %ld limit hits) in "
               "%.1f s: max speed %.3g m/s, %zu contacts (%.2f a sphere); kept in %s, and the figures below start "
               "from it as read back\n",
               N, nx, nx, NZ, SETTLE, SETTLE_MAXIT, SETTLE_H, maxthreads, iters, hits, t_settle, vmax, settled_contacts,
               (double)settled_contacts / N, ckpt);

    /* into cell order (--sort, as the penalty benchmarks; the settled checkpoint keeps the
     * lattice's order): the warm start follows the renumbered contacts */
    if (c->sort > 0) {
        size_t sorts = s->sorts;
        if (clab_sim_sort(s, &err)) {
            fprintf(stderr, "dvi-pile: %s\n", err.msg);
            return 1;
        }
        printf("  bodies renumbered into cell order (--sort %ld; %s)\n", c->sort,
               s->sorts > sorts ? "done" : "already in it");
    }

    /* the settled state: bodies, and the backend's warm-start impulses (checkpoint format) */
    clab_world *w0 = clab_world_clone(w);
    FILE *warmfile = tmpfile();
    if (!w0 || !warmfile || s->type->save(s->self, warmfile, &err)) {
        fprintf(stderr, "dvi-pile: cannot keep the settled state\n");
        return 1;
    }

    /* 1. the next step's CCP, warm-started by key */
    clab_warmstart ws;
    clab_warm_init(&ws);
    rewind(warmfile);
    if (clab_warm_load(&ws, warmfile, &err)) {
        fprintf(stderr, "dvi-pile: %s\n", err.msg);
        return 1;
    }
    clab_contacts cs;
    clab_contacts_init(&cs);
    clab_collide(s->collider, w, s->envelope, &cs, &err);
    for (size_t k = 0; k < w->nbodies; k++) {
        clab_vec3 F, tau;
        clab_world_applied(w, k, &F, &tau);
        clab_body_kick(&w->bodies[k], F, tau, SETTLE_H);
    }
    clab_ccp P;
    clab_ccp_init(&P);
    clab_ccp_work W;
    clab_ccp_work_init(&W);
    if (clab_ccp_build(&P, w, &cs, SETTLE_H, 1.0, &err)) {
        fprintf(stderr, "dvi-pile: %s\n", err.msg);
        return 1;
    }
    double *warm = calloc(P.n + 1, sizeof *warm), *nu = malloc((P.n + 1) * sizeof *nu);
    if (!warm || !nu) return 1;
    size_t matched = 0;
    for (size_t i = 0; i < P.ncontacts; i++) {
        const clab_vec3 *F = clab_warm_get(&ws, cs.c[i].key);
        if (!F) continue;
        matched++;
        clab_vec3 tu, tw;
        clab_contact_frame(&cs.c[i], &tu, &tw);
        warm[3 * i] = clab_v3_dot(*F, cs.c[i].n);
        warm[3 * i + 1] = clab_v3_dot(*F, tu);
        warm[3 * i + 2] = clab_v3_dot(*F, tw);
    }
    printf("CCP of the next step: %zu contacts, %zu unknowns, %zu warm-start impulses matched by key\n", P.ncontacts,
           P.n, matched);
    const clab_ccp_solver_type *const *solvers = clab_ccp_solvers();
    int nsolvers = 0;
    while (solvers[nsolvers]) nsolvers++;
    solver_figures fig[8];
    printf("%-7s %-5s %9s %9s %12s   (limit %d iterations, %d threads)\n", "solver", "start", "it_1e-4", "it_1e-6",
           "residual", CONV_ITER, maxthreads);
    for (int k = 0; k < nsolvers; k++)
        for (int start = 0; start < 2; start++) { /* 0 warm, 1 cold */
            clab_ccp_options so = clab_ccp_default_options(solvers[k]);
            so.tol = 1e-6;
            so.max_iter = CONV_ITER;
            if (start) memset(nu, 0, P.n * sizeof *nu);
            else memcpy(nu, warm, P.n * sizeof *nu);
            clab_ccp_result res;
            solvers[k]->solve(&P, &so, nu, &W, &res, &err);
            fig[k].it4[start] = first_below(&res, 1e-4);
            fig[k].it6[start] = first_below(&res, 1e-6);
            fig[k].res_end[start] = res.residual;
            char a[24], b[24];
            fmt_iter(a, sizeof a, fig[k].it4[start]);
            fmt_iter(b, sizeof b, fig[k].it6[start]);
            printf("%-7s %-5s %9s %9s %12.3g\n", solvers[k]->name, start ? "cold" : "warm", a, b, res.residual);
            fflush(stdout);
        }

    /* 2. cost per iteration (loop), per product and per solve (setup, and a solve to the
     * backend's tolerance), and 3. seconds per backend step, per thread count */
    printf("%-7s %7s %12s %14s %14s %10s %10s %12s %6s\n", "solver", "threads", "s_per_iter", "ns_per_c_iter",
           "cpu_ns_c_iter", "setup_ms", "whole_ns", "s_per_step", "load");
    printf("        (ns_per_c_iter: one iteration of the loop, wall, = (T(%d) - T(%d)) / %d per contact, best of %d; "
           "cpu_ns_c_iter: the same in CPU time, one thread only;\n         setup_ms: the rest of a %d-iteration "
           "solve, paid once per solve; whole_ns: T(%d) / %d per contact, set-up included, the figure printed up to "
           "session 4.\n         An iteration is not always one product with N (apgd: one more per backtracking "
           "step; gs: none, its sweep moves u contact by contact), so under each row: the products a loop iteration "
           "made,\n         the loop's cost per (contact x product) (- for gs), and what a user gets: a solve from the warm start to the backend's tol %s m/s, "
           "its iterations, products and time, per (contact x iteration) with its set-up.\n         The "
           "repetitions go round the solvers (each round: every solver's T(%d), T(%d) and solve to tol), so a slow "
           "spell of a shared host falls on all of them.)\n", TIME_ITER, SHORT_ITER, TIME_ITER - SHORT_ITER,
           TIME_REPS, TIME_ITER, TIME_ITER, TIME_ITER, XP_PILE_DVI_TOL, SHORT_ITER, TIME_ITER);
    int status = 0;
    const double step_tol = atof(XP_PILE_DVI_TOL);
    solve_time ts[8], tl[8], tt[8];
    for (int ti = 0; ti < c->nthreads; ti++) {
        int threads = bench_set_threads(c->threads[ti]);
        for (int k = 0; k < nsolvers; k++)
            ts[k] = tl[k] = tt[k] = (solve_time){INFINITY, INFINITY, 0, 0};
        for (int rep = 0; rep < TIME_REPS; rep++)
            for (int k = 0; k < nsolvers; k++) {
                time_solve(solvers[k], &P, 0.0, SHORT_ITER, warm, nu, &W, &ts[k]);
                time_solve(solvers[k], &P, 0.0, TIME_ITER, warm, nu, &W, &tl[k]);
                time_solve(solvers[k], &P, step_tol, TIME_ITER, warm, nu, &W, &tt[k]);
            }
        for (int k = 0; k < nsolvers; k++) {
            const double nc = (double)P.ncontacts, span = TIME_ITER - SHORT_ITER;
            const double best = (tl[k].wall - ts[k].wall) / span, best_cpu = (tl[k].cpu - ts[k].cpu) / span;
            const double loop1 = threads == 1 ? best_cpu : best; /* the setup from CPU time on one thread */
            const double setup = (threads == 1 ? tl[k].cpu : tl[k].wall) - TIME_ITER * loop1;
            const double whole = (threads == 1 ? tl[k].cpu : tl[k].wall) / TIME_ITER;
            const long prods = tl[k].products - ts[k].products; /* in the loop's TIME_ITER - SHORT_ITER */
            const double per_prod = prods >= span ? loop1 * span / (double)prods : 0.0; /* gs: none */
            const double t_solve = threads == 1 ? tt[k].cpu : tt[k].wall;
            const double solve_ns = tt[k].iterations > 0 ? 1e9 * t_solve / ((double)tt[k].iterations * nc) : 0.0;
            double load = bench_load1();
            /* full steps from the settled state, warm-started from its impulses */
            clab_world_destroy(w);
            w = clab_world_clone(w0);
            clab_sim *sk = w ? dvi_sim(w, solvers[k]->name, XP_PILE_DVI_TOL, "1000", &err) : NULL;
            rewind(warmfile);
            if (!sk || sk->type->load(sk->self, warmfile, &err)) {
                fprintf(stderr, "dvi-pile: %s\n", err.msg);
                return 1;
            }
            double best_step = INFINITY, t_steps = 0.0;
            for (int q = 0; q < STEPS; q++) {
                double t1 = bench_now();
                if (clab_sim_step(sk, &err)) {
                    fprintf(stderr, "dvi-pile: %s\n", err.msg);
                    status = 1;
                    break;
                }
                double dt = bench_now() - t1;
                t_steps += dt;
                best_step = fmin(best_step, dt);
            }
            clab_solver_stats sst;
            sk->type->stats(sk->self, &sst);
            char cpu[32] = "-";
            if (threads == 1) snprintf(cpu, sizeof cpu, "%.1f", 1e9 * best_cpu / nc);
            printf("%-7s %7d %12.4g %14.1f %14s %10.2f %10.1f %12.4g %6.2f\n", solvers[k]->name, threads, best,
                   1e9 * best / nc, cpu, 1e3 * setup, 1e9 * whole / nc, best_step, load);
            char pp[32] = "-";
            if (per_prod > 0.0) snprintf(pp, sizeof pp, "%.1f", 1e9 * per_prod / nc);
            printf("        products: %.3f a loop iteration (%ld in %d), %s ns %s per (contact x product); solve to "
                   "%s: %ld iterations%s, %ld products, %.2f ms, %.1f ns per (contact x iteration)\n",
                   (double)prods / span, prods, TIME_ITER - SHORT_ITER, pp, threads == 1 ? "CPU" : "wall",
                   XP_PILE_DVI_TOL, tt[k].iterations, tt[k].iterations >= TIME_ITER ? " (the limit: tol not met)" : "",
                   tt[k].products, 1e3 * t_solve, solve_ns);
            char name[64], note[768], it[4][24];
            snprintf(name, sizeof name, "dvi-pile-%d-%s", N, solvers[k]->name);
            fmt_iter(it[0], sizeof it[0], fig[k].it4[0]);
            fmt_iter(it[1], sizeof it[1], fig[k].it6[0]);
            fmt_iter(it[2], sizeof it[2], fig[k].it4[1]);
            fmt_iter(it[3], sizeof it[3], fig[k].it6[1]);
            snprintf(note, sizeof note,
                     "s_per_iter=%.4g ns_per_contact_iter=%.1f cpu_ns_per_contact_iter=%s setup_ms=%.2f "
                     "whole_ns_per_contact_iter=%.1f products_per_iter=%.3f ns_per_contact_product=%s "
                     "solve_iterations=%ld solve_products=%ld solve_ms=%.2f solve_ns_per_contact_iter=%.1f "
                     "warm_it_1e-4=%s warm_it_1e-6=%s cold_it_1e-4=%s cold_it_1e-6=%s "
                     "(limit %d) step_tol=%s best_s_per_step=%.4g iterations_last_step=%ld load=%.2f",
                     best, 1e9 * best / nc, cpu, 1e3 * setup, 1e9 * whole / nc, (double)prods / span,
                     pp, tt[k].iterations, tt[k].products, 1e3 * t_solve, solve_ns, it[0], it[1],
                     it[2], it[3], CONV_ITER, XP_PILE_DVI_TOL, best_step, sst.iterations, load);
            bench_row row = {name, threads, (long)N, (long)sk->contacts.n, STEPS, t_steps, bench_peak_rss_bytes(), note};
            if (bench_summary_append(c, &row)) status = 1;
            if (c->fclib_dir && k == 0 && bench_fclib_export(c, sk, name)) status = 1; /* bench --fclib-dir */
            clab_sim_destroy(sk);
        }
    }
    fclose(warmfile);
    free(warm);
    free(nu);
    clab_ccp_free(&P);
    clab_ccp_work_free(&W);
    clab_contacts_free(&cs);
    clab_warm_free(&ws);
    clab_sim_destroy(s);
    clab_world_destroy(w0);
    clab_world_destroy(w);
    return status;
}

int bench_dvi_pile(const bench_ctx *c)
{
    const int full[2] = {10, 20}, quick[2] = {5, 7}; /* nx: 80 nx^2 spheres */
    int status = 0;
    for (int k = 0; k < 2; k++)
        if (run_size(c, c->quick ? quick[k] : full[k])) status = 1;
    return status;
}

/* `bench dvi-pile-1m`: the same lattice pile with 112 x 112 x 20 cells (1,003,520 spheres),
 * STEPS_1M backend steps from the lattice (cold: no warm start on the first step; apgd, tol
 * 1e-4 m/s, at most 50 iterations a step), with the largest thread count of --threads:
 * seconds per step and the peak resident set (bytes per body and per contact). */
#define NX_1M 112
#define STEPS_1M 3
int bench_dvi_pile_1m(const bench_ctx *c)
{
    clab_error err;
    int threads = 1;
    for (int t = 0; t < c->nthreads; t++) threads = c->threads[t] > threads ? c->threads[t] : threads;
    threads = bench_set_threads(threads);
    const int nx = c->quick ? 20 : NX_1M, N = 4 * nx * nx * NZ;
    double rss0 = bench_rss_bytes(), t0 = bench_now();
    clab_world *w = lattice_pile(nx, 1, &err);
    clab_sim *s = w ? dvi_sim(w, "apgd", "1e-4", "50", &err) : NULL;
    if (!s) {
        fprintf(stderr, "dvi-pile-1m: %s\n", err.msg);
        clab_world_destroy(w);
        return 1;
    }
    printf("pile of %d spheres (fcc lattice %d x %d x %d cells, periodic in x and y) built in %.1f s; %d DVI steps "
           "(apgd, tol 1e-4 m/s, <= 50 iterations, h = %g s, first step cold), %d threads\n",
           N, nx, nx, NZ, bench_now() - t0, STEPS_1M, SETTLE_H, threads);
    double t_steps = 0.0;
    int status = 0;
    for (int k = 0; k < STEPS_1M; k++) {
        double t1 = bench_now(), c1 = bench_cpu_now(1);
        if (clab_sim_step(s, &err)) {
            fprintf(stderr, "dvi-pile-1m: %s\n", err.msg);
            status = 1;
            break;
        }
        double dt = bench_now() - t1;
        t_steps += dt;
        clab_solver_stats st;
        s->type->stats(s->self, &st);
        printf("  step %d: %.2f s wall, %.2f s CPU, %zu contacts, %ld iterations, residual %.3g m/s, resident %.2f GB "
               "(load %.2f)\n", k + 1, dt, bench_cpu_now(1) - c1, s->contacts.n, st.iterations, st.residual,
               bench_rss_bytes() / 1e9, bench_load1());
        fflush(stdout);
    }
    double peak = bench_peak_rss_bytes(), used = peak - rss0;
    size_t nc = s->contacts.n;
    printf("  peak resident %.2f GB: %.0f bytes per sphere, %.0f bytes per contact (all of it charged to contacts "
           "beyond the bodies' own %zu bytes and their names)\n", peak / 1e9, used / N, nc ? used / (double)nc : 0.0,
           sizeof(clab_body) + sizeof(size_t)); /* the record and its offset into the world's name pool */
    char note[200];
    snprintf(note, sizeof note, "dvi apgd tol=1e-4 max_iter=50 first step cold; bytes_per_body=%.0f load=%.2f",
             used / N, bench_load1());
    bench_row row = {"dvi-pile-1m", threads, (long)N, (long)nc, STEPS_1M, t_steps, peak, note};
    if (bench_summary_append(c, &row)) status = 1;
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return status;
}
