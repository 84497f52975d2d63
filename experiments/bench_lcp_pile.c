/* bench_lcp_pile.c: `contactlab bench lcp-pile`: the Stewart-Trinkle LCP backend's solvers
 * (projected block Gauss-Seidel, Lemke's method) beside the Tasora-Anitescu CCP solvers (apgd,
 * gs) on settled piles of the fcc lattice of `bench dvi-pile` (bench_lattice_pile: spheres of
 * R = 0.01 m, mu = 0.5, periodic in x and y, nx x nx x nz cells, 4 nx^2 nz spheres).
 *
 * Each pile is warm-started with the lattice's equilibrium impulses and settled as dvi-pile
 * settles it, by SETTLE steps of the DVI backend (apgd, tol 1e-4 m/s, at most 100 iterations,
 * h = 2 ms). From that state (bodies and the impulses by contact key, given to every method as its
 * warm start), one thread:
 *   - STEPS full steps of each method to its tolerance (lcp pgs and the CCP solvers: 1e-4 m/s,
 *     the pile experiments' default; Lemke: exact), mean seconds per step and iterations a step
 *     (pgs: sweeps, Lemke: pivots);
 *   - the cost of one iteration: a step with tol = 0 and LONG iterations against one with SHORT
 *     (always that many), (T(LONG) - T(SHORT)) / (LONG - SHORT) per contact, best of REPS: the
 *     set-up of a step (collision, rows, the local matrices) cancels; Lemke: the step's time per
 *     pivot instead (it has no iterations to difference).
 * Lemke's dense tableau (n = contacts (k + 2) unknowns, n (2n + 2) doubles, O(n^2) a pivot)
 * runs on the small piles only, with at most 20,000 pivots, from the cold start (lcp-lemke),
 * warm-started from the basis of pgs' answer to 1e-8 m/s (lcp-lemke-warm, lemke_start=pgs), and
 * on the regularized LCP (lcp-lemke-reg<X>, lemke_reg=X: A + eps I on the impulse rows). On
 * these periodic lattice piles (rank-deficient N, many contacts per body) the first two reach
 * that bound, printed as the finding with the time per pivot up to it; the regularized ones end
 * (doc/lcp.md, "Limits"). Every row also gives its last step's natural-map residual of the
 * unregularized LCP [m/s] and the largest body speed after it (the pile at rest: ~0).
 * Rows of bench-summary.csv: lcp-pile-<N>-<method>. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "clab_sim.h"

#define H 2e-3
#define SETTLE 10
#define STEPS 3
#define SHORT 5
#define LONG 25
#define REPS 3

typedef struct lp_method {
    const char *name, *backend, *options; /* options: key=value,... */
    int lemke;                            /* dense: small piles only */
} lp_method;

static const lp_method methods[] = {
    {"lcp-pgs", "lcp", "solver=pgs,tol=1e-4,max_iter=1000", 0},
    {"lcp-lemke-warm", "lcp", "solver=lemke,lemke_start=pgs,tol=1e-8,max_iter=1000,max_pivots=20000", 1},
    {"lcp-lemke", "lcp", "solver=lemke,max_pivots=20000", 1},
    {"lcp-lemke-reg1e-2", "lcp", "solver=lemke,lemke_reg=1e-2,max_pivots=20000", 1},
    {"lcp-lemke-reg3e-4", "lcp", "solver=lemke,lemke_reg=3e-4,max_pivots=20000", 1},
    {"dvi-apgd", "dvi", "solver=apgd,tol=1e-4,max_iter=1000", 0},
    {"dvi-gs", "dvi", "solver=gs,tol=1e-4,max_iter=1000", 0},
};
enum { NMETHODS = sizeof methods / sizeof methods[0] };

static clab_sim *make_sim(clab_world *w, const char *backend, const char *opts, const char *extra, clab_error *err)
{
    clab_options o;
    clab_options_init(&o);
    char buf[256];
    snprintf(buf, sizeof buf, "%s%s%s", opts, extra ? "," : "", extra ? extra : "");
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) clab_options_parse(&o, tok, "bench lcp-pile", err);
    clab_sim *s = clab_sim_create(w, backend, H, &o, err);
    clab_options_free(&o);
    return s;
}

/* s warm-started from the impulses of warm (a dvi or lcp checkpoint section: the warm-start block
 * of dvi/warmstart.h, then the backend's counters): that block, then the rest of s's own fresh
 * state */
static int load_warm(clab_sim *s, FILE *warm, clab_error *err)
{
    FILE *f = tmpfile(), *g = tmpfile();
    int rc = f && g ? CLAB_OK : clab_error_set(err, CLAB_EIO, "lcp-pile: no temporary file");
    char line[512];
    rewind(warm);
    while (!rc && fgets(line, sizeof line, warm) && strncmp(line, "lcp-stats", 9) != 0 && strncmp(line, "dvi-stats", 9) != 0)
        fputs(line, f);
    if (!rc) rc = s->type->save(s->self, g, err);
    if (!rc) {
        int skip = 3; /* the fresh state's "dvi-warmstart 1", "contacts 0", "joint_rows 0" */
        rewind(g);
        while (fgets(line, sizeof line, g))
            if (skip > 0) skip--;
            else fputs(line, f);
        rewind(f);
        rc = s->type->load(s->self, f, err);
    }
    if (f) fclose(f);
    if (g) fclose(g);
    return rc;
}

/* seconds per step from the settled state (w0, warm), the mean of the steps made (all of them,
 * or up to a failing one, which counts: Lemke's time to its pivot bound), with the iterations a
 * step made (mean); *done: the steps made */
static int time_step(const clab_world *w0, FILE *warm, const lp_method *m, const char *extra, int steps,
                     double *mean, double *iters, size_t *contacts, int *done, double acc[2], clab_error *err)
{
    clab_world *w = clab_world_clone(w0);
    clab_sim *s = w ? make_sim(w, m->backend, m->options, extra, err) : NULL;
    int rc = s ? load_warm(s, warm, err) : CLAB_EINVAL;
    double t = 0.0;
    long it = 0;
    int k = 0;
    for (; k < steps && !rc; k++) {
        const double t1 = bench_now();
        rc = clab_sim_step(s, err);
        t += bench_now() - t1;
        clab_solver_stats st;
        s->type->stats(s->self, &st);
        it += st.iterations;
        *contacts = s->contacts.n;
        if (!rc) { /* the last step's natural-map residual (of the unregularized LCP) and max |v+| */
            acc[0] = st.residual;
            acc[1] = 0.0;
            for (size_t b = 0; b < w->nbodies; b++) acc[1] = fmax(acc[1], clab_v3_norm(w->bodies[b].rdot));
        }
    }
    *done = k;
    *mean = k ? t / k : 0.0;
    *iters = k ? (double)it / k : 0.0;
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

static int run_size(const bench_ctx *c, int nx, int nz, int small)
{
    clab_error err;
    const int N = 4 * nx * nx * nz;
    const double t0 = bench_now();
    clab_world *w = bench_lattice_pile(nx, nz, 1, &err);
    clab_sim *s = w ? make_sim(w, "dvi", "solver=apgd,tol=1e-4,max_iter=100", NULL, &err) : NULL;
    FILE *warm = tmpfile();
    int rc = s && warm ? bench_lattice_warm_start(s, nz, &err) : 1;
    for (int k = 0; k < SETTLE && !rc; k++) rc = clab_sim_step(s, &err);
    clab_world *w0 = rc ? NULL : clab_world_clone(w);
    if (!rc && (!w0 || s->type->save(s->self, warm, &err))) rc = 1;
    if (rc) {
        fprintf(stderr, "lcp-pile: pile of %d spheres: %s\n", N, err.msg);
        clab_sim_destroy(s);
        clab_world_destroy(w);
        if (warm) fclose(warm);
        return 1;
    }
    printf("pile of %d spheres (fcc %d x %d x %d cells): settled as dvi-pile does (%d DVI steps, apgd, tol 1e-4 m/s, <= "
           "100 iterations) in %.1f s, %zu contacts\n", N, nx,
           nx, nz, SETTLE, bench_now() - t0, s->contacts.n);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    int status = 0;
    for (int mi = 0; mi < NMETHODS && !status; mi++) {
        const lp_method *m = &methods[mi];
        if (m->lemke && !small) continue;
        double best = 0.0, t_short = INFINITY, t_long = INFINITY;
        double it = 0.0, it2 = 0.0, acc[2] = {NAN, NAN}, acc2[2];
        size_t nc = 0;
        int done = 0, done2 = 0;
        const char *ended = "";
        if (time_step(w0, warm, m, NULL, STEPS, &best, &it, &nc, &done, acc, &err)) {
            if (!m->lemke) {
                fprintf(stderr, "lcp-pile: %s on %d spheres: %s\n", m->name, N, err.msg);
                status = 1;
                break;
            }
            /* a finding, not a failure of the benchmark: say it, and time the pivots it made */
            printf("  %-10s did not finish: %s\n", m->name, err.msg);
            ended = " (did not finish: the pivot bound; time per pivot up to it)";
        }
        double per_iter = best / (it > 0.0 ? it : 1.0); /* Lemke: per pivot */
        if (!m->lemke) {
            char e1[64], e2[64];
            snprintf(e1, sizeof e1, "tol=0,max_iter=%d", SHORT);
            snprintf(e2, sizeof e2, "tol=0,max_iter=%d", LONG);
            for (int r = 0; r < REPS && !status; r++) {
                double ts, tl;
                if (time_step(w0, warm, m, e1, 1, &ts, &it2, &nc, &done2, acc2, &err) ||
                    time_step(w0, warm, m, e2, 1, &tl, &it2, &nc, &done2, acc2, &err)) {
                    fprintf(stderr, "lcp-pile: %s on %d spheres: %s\n", m->name, N, err.msg);
                    status = 1;
                }
                t_short = fmin(t_short, ts);
                t_long = fmin(t_long, tl);
            }
            per_iter = (t_long - t_short) / (LONG - SHORT);
        }
        const double ns = 1e9 * per_iter / (double)(nc ? nc : 1);
        printf("  %-10s %8zu contacts %10.4g s/step %9.1f %-7s %10.1f ns per (contact x %s); residual %.3g m/s, "
               "max |v+| %.3g m/s%s\n", m->name, nc, best, it, m->lemke ? "pivots" : "iter", ns,
               m->lemke ? "pivot" : "iteration", acc[0], acc[1], ended);
        fflush(stdout);
        char name[64], note[256];
        snprintf(name, sizeof name, "lcp-pile-%d-%s", N, m->name);
        snprintf(note, sizeof note, "%s %s; %.1f %s a step; %.1f ns per (contact x %s)%s; residual %.3g m/s; max |v+| "
                 "%.3g m/s%s; load %.2f", m->backend, m->options, it, m->lemke ? "pivots" : "iterations", ns,
                 m->lemke ? "pivot" : "iteration", m->lemke ? "" : " from tol=0 steps", acc[0], acc[1], ended,
                 bench_load1());
        for (char *p = note; *p; p++)
            if (*p == ',') *p = ' ';
        bench_row row = {name, 1, (long)N, (long)nc, done, done * best, bench_peak_rss_bytes(), note};
        if (bench_summary_append(c, &row)) status = 1;
    }
    fclose(warm);
    clab_world_destroy(w0);
    return status;
}

int bench_lcp_pile(const bench_ctx *c)
{
    bench_set_threads(1);
    printf("one thread; step h = %g s; iterations: lcp pgs sweeps, Lemke pivots, CCP solver iterations; the cost of an "
           "iteration from steps of %d and %d iterations at tol = 0 (Lemke: the step's time per pivot)\n",
           H, LONG, SHORT);
    /* small piles (Lemke too): 2 x 2 cells (the least the periodic box allows), 1 and 2 high;
     * then taller ones, and dvi-pile's --quick pile of 2,000, pgs and the CCP */
    const int full[][3] = {{2, 1, 1}, {2, 5, 0}, {2, 20, 0}, {5, 20, 0}};
    const int quick[][3] = {{2, 1, 1}, {2, 5, 0}};
    const int n = c->quick ? 2 : 4;
    int status = 0;
    for (int k = 0; k < n; k++) {
        const int *z = c->quick ? quick[k] : full[k];
        if (run_size(c, z[0], z[1], z[2])) status = 1;
    }
    return status;
}
