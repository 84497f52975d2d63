/* bench_dvi_pile.c: `contactlab bench dvi-pile`: the DVI solvers on a settled dense pile.
 *
 * For N = 8,000 and 32,000 spheres (--quick: 1,000 and 4,000) the pile of pile_scene.h
 * (R = 0.01 m +- 10 %, 2500 kg/m^3, mu = 0.5, frictionless walls, box width from N) is built
 * as a deposit (each sphere dropped at the lowest of 256 random spots: dense at once, every
 * sphere touching its support but not in equilibrium) and settled by the DVI backend itself
 * (apgd, tol 1e-4 m/s, at most 100 iterations a step, h = 2 ms) for SETTLE_T seconds or until
 * every sphere is slower than 1 cm/s. Then, on that pile:
 *
 *   1. the next step's CCP (Eq. (10) of seed 000, after the kick to v*), every solver started
 *      from the settling run's last impulses matched by contact key (warm, as the backend
 *      does), run to 1e-6 m/s or CONV_ITER iterations: the iterations at which the residual
 *      (the natural map of residual.c, m/s) first falls below 1e-4 and 1e-6 ("-" = not within
 *      the limit). Solvers are deterministic for any thread count, so this runs once;
 *   2. for each thread count of --threads and each solver: TIME_ITER iterations with tol = 0
 *      (always exactly TIME_ITER iterations), best of 3: seconds per iteration and ns per
 *      (contact x iteration);
 *   3. for each thread count and each solver: STEPS full backend steps (collision, CCP build,
 *      solve to tol 1e-4 m/s, the pile experiments' default, update), warm-started from the
 *      settled state: seconds per step.
 *
 * Rows of bench-summary.csv: dvi-pile-<N>-<solver>, one per thread count, with the timed
 * steps of 3 and the other figures in the note. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ccp_solver.h"
#include "clab_checkpoint.h"
#include "clab_sim.h"
#include "pile_scene.h"
#include "warmstart.h"

#define SETTLE_T 1.0      /* longest settling run [s] */
#define SETTLE_VMAX 0.005 /* damping stops when every sphere is slower [m/s] */
#define SETTLE_DAMP 0.9   /* velocity factor after each damped settling step */
#define SETTLE_PLAIN 5    /* undamped steps at the end of settling */
#define SETTLE_MAXIT "200" /* iteration limit of the settling steps */
#define SETTLE_H 2e-3     /* settling and benchmark step [s] */
#define CONV_ITER 1000    /* iteration limit of the convergence runs */
#define TIME_ITER 100     /* iterations of a timing run */
#define STEPS 3           /* timed backend steps per (solver, threads) */

/* the fastest sphere [m/s] */
static double max_speed(const clab_world *w)
{
    double v = 0.0;
    for (size_t k = XP_PILE_FIRST; k < w->nbodies; k++) v = fmax(v, clab_v3_norm(w->bodies[k].rdot));
    return v;
}

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
    long it4, it6;        /* iterations to 1e-4, 1e-6 m/s (0: not within CONV_ITER) */
    double res_end;       /* residual after the convergence run [m/s] */
} solver_figures;

static int run_size(const bench_ctx *c, int N)
{
    clab_error err;
    int maxthreads = 1;
    for (int t = 0; t < c->nthreads; t++) maxthreads = c->threads[t] > maxthreads ? c->threads[t] : maxthreads;

    /* the pile: deposit, then settled by DVI */
    xp_pile_def d = xp_pile_default();
    d.n = N;
    d.packing = XP_PILE_DEPOSIT;
    xp_pile_info info;
    double t0 = bench_now();
    clab_world *w = xp_pile_build(&d, &info, &err);
    if (!w) {
        fprintf(stderr, "dvi-pile: %s\n", err.msg);
        return 1;
    }
    double t_build = bench_now() - t0;
    bench_set_threads(maxthreads);
    clab_sim *s = dvi_sim(w, "apgd", "1e-4", SETTLE_MAXIT, &err);
    if (!s) {
        fprintf(stderr, "dvi-pile: %s\n", err.msg);
        clab_world_destroy(w);
        return 1;
    }
    /* a settled pile from an earlier run (same N, same scene) is reused */
    char ckpt[1200];
    snprintf(ckpt, sizeof ckpt, "%s/dvi-pile-%d-settled.ckpt", c->out, N);
    t0 = bench_now();
    long nsettle = 0, ndamped = 0;
    double vmax = INFINITY;
    clab_checkpoint_info ci;
    int cached = clab_checkpoint_read(s, ckpt, &ci, &err) == CLAB_OK;
    if (!cached) {
        /* damped: after each step v *= SETTLE_DAMP (both rdot and wbar) removes the rolling and
         * rattling a rigid pile otherwise keeps for seconds; then a few plain steps */
        for (int plain = 0; w->t < SETTLE_T - 1e-9 && plain < SETTLE_PLAIN;) {
            if (clab_sim_step(s, &err)) {
                fprintf(stderr, "dvi-pile: settling: %s\n", err.msg);
                clab_sim_destroy(s);
                clab_world_destroy(w);
                return 1;
            }
            nsettle++;
            vmax = max_speed(w);
            int damped = vmax >= SETTLE_VMAX || w->t < 0.05;
            if (damped && !plain) {
                ndamped++;
                for (size_t k = XP_PILE_FIRST; k < w->nbodies; k++) {
                    w->bodies[k].rdot = clab_v3_scale(w->bodies[k].rdot, SETTLE_DAMP);
                    w->bodies[k].wbar = clab_v3_scale(w->bodies[k].wbar, SETTLE_DAMP);
                }
            } else {
                plain++;
            }
            if (nsettle % 25 == 0)
                fprintf(stderr, "  settling N = %d: t = %.3f s, %zu contacts, max speed %.3g m/s, %.1f s wall\n", N,
                        w->t, s->contacts.n, vmax, bench_now() - t0);
        }
        clab_checkpoint_output out;
        memset(&out, 0, sizeof out);
        snprintf(out.tag, sizeof out.tag, "bench dvi-pile settled %d", N);
        if (clab_checkpoint_write(s, &out, ckpt, &err)) fprintf(stderr, "dvi-pile: (not cached) %s\n", err.msg);
    }
    vmax = max_speed(w);
    double t_settle = bench_now() - t0;
    clab_solver_stats st;
    s->type->stats(s->self, &st);
    if (cached)
        printf("pile of %d spheres: deposit (box %.3f m wide), settled state read from %s (t = %.3f s): max speed "
               "%.3g m/s\n", N, info.width, ckpt, w->t, vmax);
    else
        printf("pile of %d spheres: deposit built in %.1f s (box %.3f m wide), settled by DVI (apgd, tol 1e-4 m/s, <= "
               "%s iterations a step, h = %g s, %d threads), velocities damped by %g after each of the first %ld steps, "
               "then %d plain steps: t = %.3f s, %.1f s wall; max speed %.3g m/s, %zu contacts (%.2f per sphere), %ld "
               "iteration-limit hits; kept in %s\n",
               N, t_build, info.width, SETTLE_MAXIT, SETTLE_H, maxthreads, SETTLE_DAMP, ndamped, SETTLE_PLAIN, w->t,
               t_settle, vmax, s->contacts.n, (double)s->contacts.n / N, st.maxiter_hits, ckpt);

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
        warm[3 * i] = clab_v3_dot(*F, cs.c[i].n);
        warm[3 * i + 1] = clab_v3_dot(*F, cs.c[i].u);
        warm[3 * i + 2] = clab_v3_dot(*F, cs.c[i].w);
    }
    printf("CCP of the next step: %zu contacts, %zu unknowns, %zu warm-start impulses matched by key\n", P.ncontacts,
           P.n, matched);
    const clab_ccp_solver_type *const *solvers = clab_ccp_solvers();
    int nsolvers = 0;
    while (solvers[nsolvers]) nsolvers++;
    solver_figures fig[8];
    printf("%-7s %9s %9s %12s   (warm start, limit %d iterations, %d threads)\n", "solver", "it_1e-4", "it_1e-6",
           "residual", CONV_ITER, maxthreads);
    for (int k = 0; k < nsolvers; k++) {
        clab_ccp_options so = clab_ccp_default_options(solvers[k]);
        so.tol = 1e-6;
        so.max_iter = CONV_ITER;
        memcpy(nu, warm, P.n * sizeof *nu);
        clab_ccp_result res;
        solvers[k]->solve(&P, &so, nu, &W, &res, &err);
        fig[k].it4 = first_below(&res, 1e-4);
        fig[k].it6 = first_below(&res, 1e-6);
        fig[k].res_end = res.residual;
        char a[24], b[24];
        fmt_iter(a, sizeof a, fig[k].it4);
        fmt_iter(b, sizeof b, fig[k].it6);
        printf("%-7s %9s %9s %12.3g\n", solvers[k]->name, a, b, res.residual);
        fflush(stdout);
    }

    /* 2. cost per iteration, and 3. seconds per backend step, per thread count */
    printf("%-7s %7s %12s %14s %12s   (best of 3; load: see uptime)\n", "solver", "threads", "s_per_iter",
           "ns_per_c_iter", "s_per_step");
    int status = 0;
    for (int ti = 0; ti < c->nthreads; ti++) {
        int threads = bench_set_threads(c->threads[ti]);
        for (int k = 0; k < nsolvers; k++) {
            clab_ccp_options so = clab_ccp_default_options(solvers[k]);
            so.tol = 0.0;
            so.max_iter = TIME_ITER;
            double best = INFINITY;
            for (int rep = 0; rep < 3; rep++) {
                memcpy(nu, warm, P.n * sizeof *nu);
                clab_ccp_result res;
                double t1 = bench_now();
                solvers[k]->solve(&P, &so, nu, &W, &res, &err);
                double dt = (bench_now() - t1) / (double)(res.iterations > 0 ? res.iterations : 1);
                best = fmin(best, dt);
            }
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
            printf("%-7s %7d %12.4g %14.1f %12.4g\n", solvers[k]->name, threads, best,
                   1e9 * best / (double)P.ncontacts, best_step);
            char name[64], note[256], a[24], b[24];
            snprintf(name, sizeof name, "dvi-pile-%d-%s", N, solvers[k]->name);
            fmt_iter(a, sizeof a, fig[k].it4);
            fmt_iter(b, sizeof b, fig[k].it6);
            snprintf(note, sizeof note,
                     "s_per_iter=%.4g ns_per_contact_iter=%.1f it_1e-4=%s it_1e-6=%s (warm; limit %d) "
                     "step_tol=%s iterations_last_step=%ld",
                     best, 1e9 * best / (double)P.ncontacts, a, b, CONV_ITER, XP_PILE_DVI_TOL, sst.iterations);
            bench_row row = {name, threads, (long)N, (long)sk->contacts.n, STEPS, t_steps, bench_peak_rss_bytes(), note};
            if (bench_summary_append(c, &row)) status = 1;
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
    const int full[2] = {8000, 32000}, quick[2] = {1000, 4000};
    int status = 0;
    for (int k = 0; k < 2; k++)
        if (run_size(c, c->quick ? quick[k] : full[k])) status = 1;
    return status;
}
