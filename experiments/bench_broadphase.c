/* bench_broadphase.c: time the grid broad phase against brute force (a benchmark, not a test).
 *
 *     bench_broadphase [--reps R] [N ...]        (default: N = 2000 20000, R = 5)
 *
 * For each N, two random scenes at a solid volume fraction of 0.2 (the cube side grows as
 * N^(1/3)): "narrow" sizes log-uniform in 0.02..0.08 m, and "wide" sizes 0.005..0.3 m; both
 * mixed spheres and randomly turned boxes, 10 % fixed, plus 3 planes and 3 very large boxes.
 * Brute force tests every pair with the same predicate on precomputed bounds (so it is
 * charged only for the pair loop); above N = 50,000 it is skipped. Times are the best of R
 * runs (clock_gettime, CLOCK_PROCESS_CPUTIME_ID), after one warm-up call that sizes the storage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "clab_collide.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* N random bodies, sizes s log-uniform in [smin, smax] (spheres of radius s, boxes of half
 * extents (s, 0.7 s, 0.5 s)), in a cube whose side L gives a solid volume fraction of 0.2;
 * plus 3 planes and 3 very large boxes (a fixed floor slab, a wall, a cube of side 0.6 L) */
static clab_world *scene(unsigned long seed, int N, double smin, double smax, double *side)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    clab_world *w = clab_world_create(NULL);
    clab_error err;
    double *s = malloc((size_t)N * sizeof *s), V = 0.0;
    int *isbox = malloc((size_t)N * sizeof *isbox);
    if (!s || !isbox) exit(1);
    for (int k = 0; k < N; k++) {
        s[k] = smin * exp(gsl_rng_uniform(r) * log(smax / smin));
        isbox[k] = gsl_rng_uniform(r) < 0.5;
        V += isbox[k] ? 8.0 * 0.35 * s[k] * s[k] * s[k] : 4.0 / 3.0 * M_PI * s[k] * s[k] * s[k];
    }
    double L = cbrt(V / 0.2);
    *side = L;
    for (int k = 0; k < N + 6; k++) {
        clab_body_def d = clab_default_body_def();
        d.r = clab_v3(L * gsl_rng_uniform(r), L * gsl_rng_uniform(r), L * gsl_rng_uniform(r));
        d.e = clab_q_normalize(clab_q(gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1),
                                      gsl_ran_gaussian(r, 1)));
        d.fixed = gsl_rng_uniform(r) < 0.1;
        d.mass = 1.0;
        if (k < N) {
            d.shape = isbox[k] ? clab_box(s[k], 0.7 * s[k], 0.5 * s[k]) : clab_sphere(s[k]);
        } else if (k < N + 3) { /* the floor, then walls tilted 1.3 rad about x and about y */
            d.shape = clab_plane();
            d.fixed = 1;
            d.r = clab_v3(0.5 * L, 0.5 * L, 0.1 * L);
            d.e = k == N ? clab_q_identity() : clab_q_axis_angle(clab_v3(k == N + 1, k == N + 2, 0), 1.3);
        } else if (k == N + 3) {
            d.shape = clab_box(L, L, 0.05 * L);
            d.fixed = 1;
        } else {
            d.shape = k == N + 4 ? clab_box(0.02 * L, 0.6 * L, 0.4 * L) : clab_box(0.3 * L, 0.3 * L, 0.3 * L);
        }
        if (clab_world_add_body(w, &d, &err) < 0) {
            fprintf(stderr, "bench_broadphase: %s\n", err.msg);
            exit(1);
        }
    }
    free(s);
    free(isbox);
    gsl_rng_free(r);
    return w;
}

/* brute force over precomputed bounds: the pair predicate of clab_broadphase_test */
static size_t brute(const clab_world *w, double margin, double *lo, double *hi, double *m)
{
    size_t n = w->nbodies, np = 0;
    for (size_t i = 0; i < n; i++) {
        clab_vec3 l, h;
        clab_collide_bounds(&w->bodies[i], margin, &l, &h);
        lo[3 * i] = l.x; lo[3 * i + 1] = l.y; lo[3 * i + 2] = l.z;
        hi[3 * i] = h.x; hi[3 * i + 1] = h.y; hi[3 * i + 2] = h.z;
        clab_vec3 mv = clab_q_rotate(w->bodies[i].e, clab_v3(0, 0, 1));
        m[3 * i] = mv.x; m[3 * i + 1] = mv.y; m[3 * i + 2] = mv.z;
    }
    for (size_t i = 0; i < n; i++) {
        const clab_body *A = &w->bodies[i];
        int pa = A->shape.type == CLAB_SHAPE_PLANE;
        for (size_t j = i + 1; j < n; j++) {
            const clab_body *B = &w->bodies[j];
            int pb = B->shape.type == CLAB_SHAPE_PLANE;
            if ((A->fixed && B->fixed) || (pa && pb)) continue;
            if (pa || pb) {
                size_t p = pa ? i : j, k = pa ? j : i;
                double d = 0.0;
                for (int c = 0; c < 3; c++) {
                    double mid = 0.5 * (lo[3 * k + c] + hi[3 * k + c]), e = 0.5 * (hi[3 * k + c] - lo[3 * k + c]);
                    d += m[3 * p + c] * (mid - clab_v3_get(w->bodies[p].r, c)) - fabs(m[3 * p + c]) * e;
                }
                np += d <= 0.5 * margin;
                continue;
            }
            np += lo[3 * i] <= hi[3 * j] && lo[3 * j] <= hi[3 * i] && lo[3 * i + 1] <= hi[3 * j + 1] &&
                  lo[3 * j + 1] <= hi[3 * i + 1] && lo[3 * i + 2] <= hi[3 * j + 2] && lo[3 * j + 2] <= hi[3 * i + 2];
        }
    }
    return np;
}

int main(int argc, char **argv)
{
    int reps = 5, sizes[16], nsizes = 0;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
            printf("usage: bench_broadphase [--reps R] [N ...]\n"
                   "Times the grid broad phase against brute force on random scenes of N mixed spheres and\n"
                   "boxes (plus 3 planes and 3 very large boxes); default N = 2000 20000, R = 5.\n");
            return 0;
        }
        if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
        else if (nsizes < 16 && atoi(argv[a]) > 0) sizes[nsizes++] = atoi(argv[a]);
        else {
            fprintf(stderr, "bench_broadphase: unknown argument '%s' (try --help)\n", argv[a]);
            return 2;
        }
    }
    if (!nsizes) {
        sizes[0] = 2000;
        sizes[1] = 20000;
        nsizes = 2;
    }
    if (reps < 1) reps = 1;
    const double margin = 0.005;
    const char *names[2] = {"narrow", "wide"};
    const double smin[2] = {0.02, 0.005}, smax[2] = {0.08, 0.3};

    printf("# broad phase: uniform grid against brute force, best of %d runs, margin %g m\n", reps, margin);
    printf("%-7s %7s %8s %7s %3s %6s %5s %5s %9s %10s %8s %10s\n", "sizes", "N", "pairs", "cell_m", "lev", "coarse",
           "large", "ent/b", "grid_ms", "brute_ms", "speedup", "collide_ms");
    for (int s = 0; s < nsizes; s++)
        for (int kind = 0; kind < 2; kind++) {
            int N = sizes[s];
            double L;
            clab_world *w = scene(1000 + (unsigned long)N, N, smin[kind], smax[kind], &L);
            clab_collider *cd = clab_collider_create();
            clab_error err;
            const clab_pair *pairs;
            size_t np = 0;
            clab_contacts cs;
            clab_contacts_init(&cs);

            /* grid: warm-up, then the best of reps */
            double tg = INFINITY, tc = INFINITY, tb = INFINITY;
            if (clab_broadphase(cd, w, margin, &pairs, &np, &err)) {
                fprintf(stderr, "bench_broadphase: %s\n", err.msg);
                return 1;
            }
            for (int r = 0; r < reps; r++) {
                double t0 = now();
                clab_broadphase(cd, w, margin, &pairs, &np, &err);
                tg = fmin(tg, now() - t0);
            }
            clab_collide(cd, w, margin, &cs, &err);
            for (int r = 0; r < reps; r++) {
                double t0 = now();
                clab_collide(cd, w, margin, &cs, &err);
                tc = fmin(tc, now() - t0);
            }
            clab_broadphase_stats st;
            clab_broadphase_stats_get(cd, &st);

            /* brute force (once per run is plenty at these sizes) */
            size_t nb = 0;
            if (N <= 50000) {
                double *lo = malloc(3 * w->nbodies * sizeof *lo), *hi = malloc(3 * w->nbodies * sizeof *hi),
                       *m = malloc(3 * w->nbodies * sizeof *m);
                if (!lo || !hi || !m) return 1;
                int rb = reps < 3 ? reps : 3;
                for (int r = 0; r < rb; r++) {
                    double t0 = now();
                    nb = brute(w, margin, lo, hi, m);
                    tb = fmin(tb, now() - t0);
                }
                free(lo);
                free(hi);
                free(m);
                if (nb != np) fprintf(stderr, "bench_broadphase: MISMATCH grid %zu pairs, brute force %zu\n", np, nb);
            }
            printf("%-7s %7d %8zu %7.4f %3d %6zu %5zu %5.2f %9.3f %10.1f %8.1f %10.3f\n", names[kind], N, np, st.cell,
                   st.levels, st.coarse_bodies, st.large_bodies,
                   (double)st.entries / (double)(st.grid_bodies ? st.grid_bodies : 1), 1e3 * tg,
                   N <= 50000 ? 1e3 * tb : NAN, N <= 50000 ? tb / tg : NAN, 1e3 * tc);
            fflush(stdout);
            clab_contacts_free(&cs);
            clab_collider_destroy(cd);
            clab_world_destroy(w);
        }
    return 0;
}
