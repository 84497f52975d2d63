/* bench_pile.c: `contactlab bench pile` and `pile-1m`: the penalty backend (Hertz-Mindlin
 * with tangential history) on a settled dense pile of N spheres.
 *
 * The pile is built dense at once, so setup does not dominate: a face-centred cubic lattice
 * (nearest-neighbour distance 2R) of spheres of radius R with horizontal offsets of
 * +-1e-4 R, so the 12 neighbours of a sphere start touching or within 1e-4 R (about 3.6
 * contacts a particle once compressed; a random pile has about 3), nx x nx cells across
 * (periodic in x and y, period nx a) and NZ cells high, on a fixed floor plane z = 0. The
 * bodies come in raster order of the cells, or along a Morton curve with
 * CLAB_PILE_ORDER=morton (neighbours near in memory, as in a code that re-sorts its bodies
 * by cell). Gravity compresses the pile during 300 settling steps (velocities zeroed every
 * QUENCH steps; 25 steps only for the 1,000,000-sphere pile). Then, for each thread count,
 * the best of 3 runs (--repeat N: N) of K steps is timed (wall clock and CPU time), the
 * thread counts taking turns (1, 2, 1, 2, ...: a slow spell of the shared host falls on
 * both), each run after one untimed step (its threads' caches then hold their shares, as in
 * a run that stays on its thread count; without it the turns timed two threads starting from
 * one thread's cache: 1.50-1.61x instead of 1.82-1.93x at 8,000 and 32,000). Every run
 * starts from the settled state (kept in memory as a checkpoint image and restored before each
 * run), so every thread count steps the same pile through the same contacts: the runs used
 * to go on from one another, and the later ones (two threads) had up to 15 % more contacts to
 * compute (8,000: 3.74 against 4.29 a particle). The runs' end states are compared to the
 * bit across thread counts (the backend's promise), and the image's bytes are left out of
 * the memory figure.
 *
 * Reported per N and thread count: particle-steps per second, ns per particle-step, contacts
 * per particle (at the end, and the most of any step so far: the peak memory holds that
 * many), bytes per body and per contact at that most (the rise of the peak resident set from
 * before the world was built, VmHWM reset through /proc/self/clear_refs), Verlet-list
 * rebuilds; at the end, the exponent of a log-log fit of time per step against N.
 *
 * Each size runs in a process of its own, as a user runs one pile: the bench re-executes
 * itself (/proc/self/exe bench pile with the same options and CLAB_BENCH_PILE_ONLY=k in the
 * environment), the child warms up, takes its baseline and runs size k alone, prints its
 * lines and CSV rows as before and hands them back through a pipe on its standard output
 * (CLAB_BENCH_PILE_CHILD=1 set).
 * Its memory rise is then its own: no heap left behind by an earlier size (glibc keeps freed
 * blocks; the sizes run one after another in one process measured 60-80 B a body more).
 * CLAB_BENCH_PILE_ONLY=k (0, 1, 2: 8,000, 32,000, 128,000) set by hand runs that size alone
 * in the process itself. Without /proc/self/exe (or when the child cannot start) the sizes run
 * in the bench's own process, one after another, and the output says so. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <errno.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__GLIBC__)
#include <malloc.h> /* malloc_trim */
#endif

#include <gsl/gsl_fit.h>
#include <gsl/gsl_rng.h>

#include "bench.h"
#include "bench_pile_lammps.h"
#include "clab_checkpoint.h"
#include "clab_sim.h"
#include "pile_scene.h"

#define NZ 20         /* fcc cells in height (40 sphere layers) */
#define RADIUS 0.01   /* mean radius R [m] */
#define DENSITY 2500.0 /* [kg/m^3] */
#define REPEATS 3     /* timed repeats, the best is kept (--repeat N: N) */
#define QUENCH 25     /* settling: velocities zeroed every QUENCH steps */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* the lattice pile with nx x nx x NZ fcc cells (4 nx^2 NZ spheres), or NULL */
static clab_world *lattice_pile(int nx, unsigned long seed, clab_error *err)
{
    const double R = RADIUS, a = 2.0 * sqrt(2.0) * R; /* cell edge: neighbours 2R apart */
    static const double basis[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
    clab_world *w = clab_world_create(NULL);
    if (!w) return NULL;
    clab_material m = clab_default_material();
    snprintf(m.name, sizeof m.name, "default");
    m.mu = 0.5;
    m.E = 1e8;
    m.nu = 0.3;
    m.cor = 0.5;
    if (clab_world_add_material(w, &m, err) < 0 || clab_world_set_periodic(w, 0, 0.0, nx * a, err) ||
        clab_world_set_periodic(w, 1, 0.0, nx * a, err))
        goto fail;
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    snprintf(d.name, sizeof d.name, "floor");
    if (clab_world_add_body(w, &d, err) < 0) goto fail;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    d = clab_default_body_def();
    d.density = DENSITY;
    /* the cells in raster order (x fastest), or along a Morton curve (CLAB_PILE_ORDER=morton:
     * neighbours near in body index, as a code that re-sorts its bodies by cell keeps them) */
    size_t ncell = (size_t)nx * nx * NZ;
    uint64_t *cell = malloc(ncell * sizeof *cell);
    if (!cell) goto fail;
    const char *order = getenv("CLAB_PILE_ORDER");
    int morton = order && strcmp(order, "morton") == 0;
    for (size_t q = 0; q < ncell; q++) {
        uint64_t i = q % (size_t)nx, j = (q / (size_t)nx) % (size_t)nx, k = q / ((size_t)nx * nx), key = 0;
        for (int bit = 0; bit < 20 && morton; bit++)
            key |= ((i >> bit) & 1u) << (3 * bit) | ((j >> bit) & 1u) << (3 * bit + 1) | ((k >> bit) & 1u) << (3 * bit + 2);
        cell[q] = (morton ? key : q) << 24 | q; /* q < 2^24 */
    }
    qsort(cell, ncell, sizeof *cell, cmp_u64);
    for (size_t q = 0; q < ncell; q++) {
        size_t c = (size_t)(cell[q] & 0xffffffu);
        int i = (int)(c % (size_t)nx), j = (int)((c / (size_t)nx) % (size_t)nx), k = (int)(c / ((size_t)nx * nx));
                for (int b = 0; b < 4; b++) {
                    double jit[3];
                    for (int c = 0; c < 2; c++) jit[c] = 1e-4 * R * (2.0 * gsl_rng_uniform(r) - 1.0);
                    d.shape = clab_sphere(R);
                    d.r = clab_v3((i + basis[b][0]) * a + jit[0], (j + basis[b][1]) * a + jit[1],
                                  R + (k + basis[b][2]) * a);
                    if (clab_world_add_body(w, &d, err) < 0) {
                        gsl_rng_free(r);
                        free(cell);
                        goto fail;
                    }
                }
    }
    free(cell);
    gsl_rng_free(r);
    return w;
fail:
    clab_world_destroy(w);
    return NULL;
}

/* the lattice pile, for the MPI driver (mpi/xp_mpi.c) */
clab_world *bench_pile_world(int nx, clab_error *err) { return lattice_pile(nx, 1, err); }

/* reset the peak resident set (VmHWM) to the current one; 0 when the kernel allows it */
static int reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f) return -1;
    int ok = fputs("5", f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

static void load_note(char *buf, size_t n) { snprintf(buf, n, "load %.2f", bench_load1()); }

typedef struct {
    long n;
    double s_per_step[BENCH_MAX_THREADS];   /* wall clock */
    double cpu_per_step[BENCH_MAX_THREADS]; /* CPU time, all threads */
} pile_point;

/* The baseline of the memory rise: the free memory of the heap handed back to the system
 * (glibc's malloc keeps freed blocks resident, and a size run after a larger one reused them
 * without a rise: 13 MB of the 32,000-sphere run under the 128,000 one). */
static void trim_heap(void)
{
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

/* A few steps of a small pile before the first size, so the program's code (the library's and
 * the shared libraries' pages, about 0.7 MB, file-backed) is resident already and the first
 * size's rise counts only its own memory, like the sizes after it. */
static void warm_up(void)
{
    clab_error err;
    clab_world *w = lattice_pile(2, 1, &err);
    if (!w) return;
    clab_sim *s = clab_sim_create(w, "penalty", 1e-5, NULL, &err);
    if (s) {
        s->h = xp_pile_penalty_step(s);
        for (int k = 0; k < 10; k++)
            if (clab_sim_step(s, &err)) break;
        clab_sim_destroy(s);
    }
    clab_world_destroy(w);
}

/* one pile size: build, settle, then time every thread count; peer: the settled pile also
 * written as a LAMMPS data file with its input and, after the timed runs, run by both codes
 * under LAMMPS's law (bench_pile_lammps.c) */
static int run_size(const bench_ctx *c, int nx, int settle, int steps, const char *tag, int peer, pile_point *pt)
{
    clab_error err;
    trim_heap();
    reset_peak();
    double rss0 = bench_rss_bytes(), t0 = bench_now();
    clab_world *w = lattice_pile(nx, 1, &err);
    if (!w) {
        fprintf(stderr, "bench pile: %s\n", err.msg);
        return 1;
    }
    long n = (long)w->nbodies - 1;
    clab_options o;
    clab_options_init(&o);
    char srt[32];
    snprintf(srt, sizeof srt, "%ld", c->sort);
    clab_options_set(&o, "sort", srt, NULL); /* into cell order before the settling, then every c->sort steps */
    clab_sim *s = clab_sim_create(w, "penalty", 1e-5, &o, &err);
    clab_options_free(&o);
    if (!s) {
        fprintf(stderr, "bench pile: %s\n", err.msg);
        clab_world_destroy(w);
        return 1;
    }
    s->h = xp_pile_penalty_step(s);
    clab_checkpoint_image img; /* the settled state (below) */
    clab_checkpoint_image_init(&img);
    size_t ncmax = 0; /* the most contacts of any step so far */
    /* the settling runs on the first thread count, so that count's peak memory is its own (the
     * narrow phase's thread buffers of a larger count would stay in the peak of a smaller one) */
    bench_set_threads(c->threads[0]);
    /* settling, quenched: every QUENCH steps the velocities are set to zero, which takes the
     * kinetic energy of the compression out faster than the contact damping does */
    for (int k = 0; k < settle; k++) {
        if (clab_sim_step(s, &err)) {
            fprintf(stderr, "bench pile: settling: %s\n", err.msg);
            goto fail;
        }
        if (s->contacts.n > ncmax) ncmax = s->contacts.n;
        if ((k + 1) % QUENCH == 0 && k + 1 < settle)
            for (size_t i = 0; i < w->nbodies; i++) w->bodies[i].rdot = w->bodies[i].wbar = clab_v3(0.0, 0.0, 0.0);
    }
    double tset = bench_now() - t0;
    char peer_dir[1100];
    snprintf(peer_dir, sizeof peer_dir, "%s/pile-lammps-%ld", c->out, n);
    if (peer && pile_lammps_write(peer_dir, w, RADIUS, DENSITY, s->h, 0.2 * RADIUS)) goto fail;
    /* the settled state every timed run starts from */
    if (clab_checkpoint_encode(s, NULL, &img, &err)) {
        fprintf(stderr, "bench pile: keeping the settled state: %s\n", err.msg);
        goto fail;
    }
    /* the image grew by reallocation, old and new buffer at once for a moment, and the heap
     * may keep the old ones: they are given back and the peak starts again from here (what
     * is resident stays counted; the image's own bytes are taken off below) */
    trim_heap();
    reset_peak();
    double ke_end[BENCH_MAX_THREADS];
    printf("  N = %ld: h = %.3g s, built and settled (%d steps) in %.3g s, KE %.3g J, %zu contacts (%.2f a "
           "particle)\n",
           n, s->h, settle, tset, clab_world_kinetic_energy(w), s->contacts.n, (double)s->contacts.n / (double)n);
    pt->n = n;
    /* the runs: the thread counts take turns (a slow spell of the shared host then falls on
     * all of them, not on one count's block of runs), each run from the settled state */
    double best[BENCH_MAX_THREADS], best_cpu[BENCH_MAX_THREADS], peak0 = NAN;
    size_t rebuilds[BENCH_MAX_THREADS] = {0}, calls[BENCH_MAX_THREADS] = {0};
    int th[BENCH_MAX_THREADS];
    for (int t = 0; t < c->nthreads; t++) best[t] = best_cpu[t] = INFINITY;
    const int repeats = c->repeat > 0 ? c->repeat : REPEATS;
    for (int rep = 0; rep < repeats; rep++)
        for (int t = 0; t < c->nthreads; t++) {
            th[t] = bench_set_threads(c->threads[t]);
            /* the first run starts where the settling ended; every other one from the image */
            if ((t > 0 || rep > 0) && clab_checkpoint_decode(s, img.data, img.len, "the settled pile", NULL, &err)) {
                fprintf(stderr, "bench pile: %s\n", err.msg);
                goto fail;
            }
            /* one step untimed, so that each thread's caches hold its share of the data, as
             * in a run that stays on this thread count (the turns would otherwise time the
             * first steps of two threads with everything in the cache of one) */
            if (clab_sim_step(s, &err)) {
                fprintf(stderr, "bench pile: %s\n", err.msg);
                goto fail;
            }
            clab_broadphase_stats st0, st1;
            clab_broadphase_stats_get(s->collider, &st0);
            double a = bench_now(), ac = bench_cpu_now(th[t] > 1);
            for (int k = 0; k < steps; k++)
                if (clab_sim_step(s, &err)) {
                    fprintf(stderr, "bench pile: %s\n", err.msg);
                    goto fail;
                } else if (s->contacts.n > ncmax) {
                    ncmax = s->contacts.n;
                }
            best[t] = fmin(best[t], bench_now() - a);
            best_cpu[t] = fmin(best_cpu[t], bench_cpu_now(th[t] > 1) - ac);
            clab_broadphase_stats_get(s->collider, &st1);
            rebuilds[t] += st1.rebuilds - st0.rebuilds;
            calls[t] += st1.calls - st0.calls;
            ke_end[t] = clab_world_kinetic_energy(w);
            /* the memory of a run: the first thread count's first run, before any restore
             * (restoring sets the history's generation aside, which one thread does not) */
            if (t == 0 && rep == 0) peak0 = bench_peak_rss_bytes() - rss0 - (double)img.len;
        }
    const double peak_all = bench_peak_rss_bytes() - rss0 - (double)img.len; /* restores included */
    for (int t = 0; t < c->nthreads; t++) {
        const double peak = t ? peak_all : peak0;
        size_t nc = s->contacts.n;
        char note[384], load[64];
        load_note(load, sizeof load);
        snprintf(note, sizeof note,
                 "best of %d; CPU %.1f ns/particle-step (all threads); %.2f contacts/particle (%.2f at the most); %.0f "
                 "B/body and %.0f B/contact at the most (peak RSS rise%s); %zu rebuilds in %zu steps; %s",
                 repeats, 1e9 * best_cpu[t] / ((double)n * steps), (double)nc / (double)n, (double)ncmax / (double)n,
                 peak / (double)n, ncmax ? peak / (double)ncmax : 0.0, t ? ", with the restores" : "", rebuilds[t],
                 calls[t], load);
        char name[64];
        snprintf(name, sizeof name, "%s-%ld", tag, n);
        bench_row row = {name, th[t], n, (long)nc, steps, best[t], bench_peak_rss_bytes(), note};
        bench_summary_append(c, &row);
        printf("    %s\n", note);
        pt->s_per_step[t] = best[t] / steps;
        pt->cpu_per_step[t] = best_cpu[t] / steps;
    }
    if (c->nthreads > 1) {
        int same = 1;
        for (int t = 1; t < c->nthreads; t++) same = same && ke_end[t] == ke_end[0];
        printf("    every run from the settled state (%.0f B a body kept for it, not counted above), one step untimed "
               "then %d timed, the thread counts taking turns; the end states' kinetic energy %s on every thread "
               "count (%.17g J)\n",
               (double)img.len / (double)n, steps, same ? "the same to the bit" : "DIFFERS", ke_end[0]);
    }
    clab_checkpoint_image_free(&img);
    const double h = s->h;
    clab_sim_destroy(s);
    int rc = peer ? pile_lammps_compare(c, peer_dir, w, RADIUS, DENSITY, h) : 0;
    clab_world_destroy(w);
    return rc;
fail:
    clab_checkpoint_image_free(&img);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return 1;
}

/* ---- one size a process ---- */

/* the size index this process runs alone (CLAB_BENCH_PILE_ONLY), -1 when none */
static int only_size(int nsizes)
{
    const char *v = getenv("CLAB_BENCH_PILE_ONLY");
    if (!v || !*v) return -1;
    char *end = NULL;
    long k = strtol(v, &end, 10);
    return *end == '\0' && k >= 0 && k < nsizes ? (int)k : -1;
}

/* the child's point, one line on its standard output (which its parent reads): the doubles'
 * bits in hexadecimal, so nothing is rounded on the way */
#define POINT_TAG "@pile-point"
static void send_point(const bench_ctx *c, const pile_point *pt)
{
    const char *v = getenv("CLAB_BENCH_PILE_CHILD");
    if (!v || strcmp(v, "1") != 0) return;
    printf(POINT_TAG " %ld", pt->n);
    for (int t = 0; t < c->nthreads; t++) printf(" %a %a", pt->s_per_step[t], pt->cpu_per_step[t]);
    printf("\n");
    fflush(stdout);
}

/* Run size k in a child process (this program re-executed: bench pile with the same options,
 * --out, --threads, --sort, --quick, --no-lammps, --repeat, and CLAB_BENCH_PILE_ONLY=k) and read its point
 * back from its output, which is passed on without bench's own header and footer lines. 0 on
 * success, 1 when the child failed after its point, -1 when it gave none (the caller runs the
 * size itself then). */
static int run_child(const bench_ctx *c, int k, pile_point *pt)
{
    char thr[16 * BENCH_MAX_THREADS] = "", srt[32], only[16], rep[16];
    for (int t = 0; t < c->nthreads; t++) {
        size_t len = strlen(thr);
        snprintf(thr + len, sizeof thr - len, "%s%d", t ? "," : "", c->threads[t]);
    }
    snprintf(srt, sizeof srt, "%ld", c->sort);
    snprintf(only, sizeof only, "%d", k);
    snprintf(rep, sizeof rep, "%d", c->repeat);
    char *argv[16];
    int a = 0;
    argv[a++] = "contactlab";
    argv[a++] = "bench";
    argv[a++] = "--out";
    argv[a++] = (char *)c->out;
    argv[a++] = "--threads";
    argv[a++] = thr;
    argv[a++] = "--sort";
    argv[a++] = srt;
    if (c->quick) argv[a++] = "--quick";
    if (!c->lammps) argv[a++] = "--no-lammps";
    if (c->repeat > 0) {
        argv[a++] = "--repeat";
        argv[a++] = rep;
    }
    argv[a++] = "pile";
    argv[a] = NULL;
    if (access("/proc/self/exe", X_OK) != 0) return -1;
    int fd[2];
    if (pipe(fd) != 0) return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) { /* the child: only exec (the parent may have OpenMP threads) */
        close(fd[0]);
        if (dup2(fd[1], STDOUT_FILENO) >= 0 && setenv("CLAB_BENCH_PILE_ONLY", only, 1) == 0 &&
            setenv("CLAB_BENCH_PILE_CHILD", "1", 1) == 0)
            execv("/proc/self/exe", argv);
        _exit(127);
    }
    close(fd[1]);
    FILE *f = fdopen(fd[0], "r");
    int got = 0;
    if (f) {
        char line[1024];
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, POINT_TAG " ", sizeof POINT_TAG) == 0) {
                char *p = line + sizeof POINT_TAG, *end;
                pt->n = strtol(p, &end, 10);
                got = end != p;
                for (int t = 0; got && t < c->nthreads; t++) {
                    pt->s_per_step[t] = strtod(p = end, &end);
                    pt->cpu_per_step[t] = strtod(end, &end);
                    got = end != p;
                }
            } else if (strncmp(line, "== ", 3) != 0 && strncmp(line, "summary: ", 9) != 0) {
                fputs(line, stdout);
                fflush(stdout);
            }
        }
        fclose(f);
    } else {
        close(fd[0]);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) continue;
    /* no point: the child did not start, or /proc/self/exe is not this program (under
     * valgrind it is the tool's); the caller then runs the size itself (a real failure shows
     * again there) */
    if (!got) return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

int bench_pile(const bench_ctx *c)
{
    /* nx for N = 4 nx^2 NZ: 8,000, 32,000, 128,000 (quick: 320, 1,280, 5,120) */
    static const int full[] = {10, 20, 40}, quick[] = {2, 4, 8};
    const int *nx = c->quick ? quick : full;
    const int nsizes = 3;
    pile_point pt[3];
    memset(pt, 0, sizeof pt);
    int only = only_size(nsizes), inproc = 0;
    if (only < 0)
        printf("  memory: the rise of the peak resident set (VmHWM) of a process running one size alone, from its\n"
               "  baseline after a warm-up; each size runs in a child process of its own\n");
    for (int k = 0; k < nsizes; k++) {
        if (only >= 0 && k != only) continue;
        /* about the same work per size: K steps x N particles = 800,000 (at least 10 steps) */
        int steps = c->quick ? 20 : 100 / (nx[k] * nx[k] / 100);
        if (steps < 10) steps = 10;
        if (only < 0 && !inproc) { /* once a child gave nothing, the rest run here too */
            int rc = run_child(c, k, &pt[k]);
            if (rc > 0) return 1;
            if (rc == 0) continue;
            if (!inproc)
                printf("  (no child process: the sizes run one after another in this process; the later sizes' memory\n"
                       "  rise then includes what the heap kept of the earlier ones)\n");
        }
        if (!inproc) warm_up();
        inproc = 1;
        if (run_size(c, nx[k], c->quick ? 100 : 300, steps, "pile", k == 1, &pt[k])) return 1;
        if (only >= 0) {
            send_point(c, &pt[k]);
            return 0;
        }
    }
    /* the scaling exponent: log(time per step) = a + b log N, per thread count */
    for (int t = 0; t < c->nthreads; t++) {
        double x[3], y[3], yc[3], a, b, bc, c00, c01, c11, ss;
        for (int k = 0; k < nsizes; k++) {
            x[k] = log((double)pt[k].n);
            y[k] = log(pt[k].s_per_step[t]);
            yc[k] = log(pt[k].cpu_per_step[t]);
        }
        gsl_fit_linear(x, 1, y, 1, nsizes, &a, &b, &c00, &c01, &c11, &ss);
        gsl_fit_linear(x, 1, yc, 1, nsizes, &a, &bc, &c00, &c01, &c11, &ss);
        printf("  threads %d: wall time per step ~ N^%.3f, CPU time per step ~ N^%.3f from N = %ld to %ld (wall %.4g s to "
               "%.4g s a step)\n",
               c->threads[t], b, bc, pt[0].n, pt[nsizes - 1].n, pt[0].s_per_step[t], pt[nsizes - 1].s_per_step[t]);
        char note[160];
        snprintf(note, sizeof note, "wall time per step ~ N^%.3f; CPU time ~ N^%.3f (log-log fits over %d sizes)", b, bc,
                 nsizes);
        bench_row row = {"pile-scaling", c->threads[t], pt[nsizes - 1].n, -1, 0, 0.0, 0.0, note};
        bench_summary_append(c, &row);
    }
    for (int t = 1; t < c->nthreads; t++)
        for (int k = 0; k < nsizes; k++)
            printf("  N = %ld: %d threads %.3gx the single-thread rate\n", pt[k].n, c->threads[t],
                   pt[k].s_per_step[0] / pt[k].s_per_step[t]);
    return 0;
}

int bench_pile_1m(const bench_ctx *c)
{
    pile_point pt;
    memset(&pt, 0, sizeof pt);
    /* 4 x 112^2 x 20 = 1,003,520 spheres (quick: 20,480) */
    /* a short compression only (this one is about memory and the cost of a step) */
    return run_size(c, c->quick ? 16 : 112, 25, 5, "pile-1m", 0, &pt);
}
