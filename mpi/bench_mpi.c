/* bench_mpi.c: `contactlab bench --mpi [chute|pile]` (built with --with-mpi; doc/mpi.md, "Traffic
 * and time"): strong scaling of the benchmark's world on each P of --ranks, three codes taking
 * turns in one run (run r of each code at P, then at the next P; best of --repeat each, as
 * bench chute does):
 *
 *   - contactlab's OpenMP build at P threads: the same world, options and steps in this process
 *     (clab_sim, as `mpirun contactlab bench --check` runs its reference);
 *   - contactlab across P ranks: `mpirun -np P contactlab bench chute|pile ... --csv FILE`
 *     (mpi/xp_mpi.c), whose CSV gives the time, the end-state hash and each rank's bodies and
 *     traffic;
 *   - LAMMPS on P processes, `mpirun -np P lmp -in in.chute` (the chute's input beside its
 *     data), or the pile's input as bench pile writes it (bench_pile_lammps.c) for the same
 *     spheres, when lmp is installed.
 *
 * mpirun gets --oversubscribe when P exceeds the cores, --allow-run-as-root as root. The end
 * states of the OpenMP runs and of every rank count are compared (the decomposition's promise:
 * the same bits). Then the projection to 16, 64 and 256 ranks (bench_model.h) from the measured
 * one-rank compute time and traffic. Writes DIR/mpi-scaling.csv (a row a code and P),
 * mpi-traffic.csv (a row a rank of the fastest MPI run of each P) and mpi-projection.csv. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_lammps.h"
#include "bench_model.h"
#include "bench_mpi.h"
#include "bench_pile_lammps.h"
#include "chute_data.h"
#include "clab_mpi.h"
#include "xp.h"
#include "xp_mpi.h"

#define BM_MAX_P 8   /* rank counts a run */
#define BM_MAX_RANK 64 /* ranks read from a CSV */

typedef struct bm_opts {
    bench_ctx c; /* out, quick, data_dir, repeat, lammps */
    int ranks[BM_MAX_P], nranks;
    long steps;
    int nx;
    bench_net net;
    double project_n; /* 0: the measured world's moving bodies */
    int project[8], nproject;
    bench_rebuild_model rebuild;
    const char *rebuild_name;
    int run[2]; /* chute, pile */
} bm_opts;

/* one rank's row of the MPI bench's --csv */
typedef struct bm_rank {
    double owned, local, ghosts, replicated, fwd_bytes, fwd_msg, re_bytes, re_msg, reductions, exchange, assign, rss,
        reach;
} bm_rank;

/* one MPI run, as its CSV gives it */
typedef struct bm_mpi {
    double seconds;
    long steps, rebuilds, moving;
    int grid[3], nrank;
    char hash[20];
    bm_rank r[BM_MAX_RANK];
} bm_mpi;

/* the best runs of each code at one P */
typedef struct bm_point {
    int P;
    double omp, mpi, lmp; /* seconds, INFINITY: none */
    uint64_t omp_hash;
    bm_mpi best;          /* the fastest MPI run's figures */
} bm_point;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: contactlab bench --mpi [chute] [pile] [options]   (built with --with-mpi; doc/mpi.md)\n"
            "  strong scaling on each P of --ranks, the codes taking turns: contactlab's OpenMP build at P threads,\n"
            "  mpirun -np P contactlab bench NAME (the decomposition), mpirun -np P lmp (LAMMPS, when installed);\n"
            "  the traffic a rank and a step; the time a step projected to 16, 64, 256 ranks\n"
            "  --ranks LIST      rank (and thread) counts (default 1,2)\n"
            "  --steps N         steps a run (default 1000; --quick 100)\n"
            "  --quick           the small chute (2,000 spheres) and pile (nx 4: 1,280 spheres)\n"
            "  --nx N            pile: N x N x 20 fcc cells (default 8, --quick 4)\n"
            "  --repeat N        runs of each code a P, taking turns; the best of each (default 3, --quick 1)\n"
            "  --out DIR         output folder (default out/bench): mpi-scaling.csv, mpi-traffic.csv,\n"
            "                    mpi-projection.csv, the runs' logs and CSVs\n"
            "  --data PATH       chute: LAMMPS's data.chute (as bench chute --data)\n"
            "  --no-lammps       do not run LAMMPS\n"
            "  --alpha S         the network's latency (default 2e-6 s)\n"
            "  --beta B          its bandwidth (default 1e10 bytes/s)\n"
            "  --project-n N     the projection's moving bodies (default: the measured world's)\n"
            "  --project-ranks L the projection's rank counts (default 16,64,256)\n"
            "  --rebuild-model M allgather (mpi/mpi_sim.c's rebuild: every rank gathers and assigns all N;\n"
            "                    default) or neighbors (migration with the neighbour bricks only)\n");
}

static int parse(int argc, char **argv, bm_opts *o)
{
    memset(o, 0, sizeof *o);
    snprintf(o->c.out, sizeof o->c.out, "out/bench");
    o->c.lammps = 1;
    o->ranks[0] = 1;
    o->ranks[1] = 2;
    o->nranks = 2;
    o->steps = -1;
    o->net.alpha = 2e-6;
    o->net.beta = 1e10;
    o->project[0] = 16;
    o->project[1] = 64;
    o->project[2] = 256;
    o->nproject = 3;
    o->rebuild = bench_rebuild_allgather;
    o->rebuild_name = "allgather";
    static const struct option lo[] = {
        {"mpi", no_argument, 0, 'M'},           {"ranks", required_argument, 0, 'p'},
        {"steps", required_argument, 0, 's'},   {"quick", no_argument, 0, 'q'},
        {"nx", required_argument, 0, 'n'},      {"repeat", required_argument, 0, 'r'},
        {"out", required_argument, 0, 'o'},     {"data", required_argument, 0, 'd'},
        {"no-lammps", no_argument, 0, 'L'},     {"alpha", required_argument, 0, 'a'},
        {"beta", required_argument, 0, 'b'},    {"project-n", required_argument, 0, 'N'},
        {"project-ranks", required_argument, 0, 'P'}, {"rebuild-model", required_argument, 0, 'R'},
        {"help", no_argument, 0, 'h'},          {0, 0, 0, 0}};
    optind = 1;
    int ch;
    while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        long v;
        double x[BM_MAX_P];
        int n;
        switch (ch) {
        case 'M': break;
        case 'p':
            if (xp_parse_list("ranks", optarg, 1, 64, x, BM_MAX_P, &n)) return -1;
            for (int k = 0; k < n; k++) {
                if (x[k] != (int)x[k]) {
                    fprintf(stderr, "contactlab bench --mpi: --ranks: '%s' is not a list of whole numbers\n", optarg);
                    return -1;
                }
                o->ranks[k] = (int)x[k];
            }
            o->nranks = n;
            break;
        case 's': if (xp_parse_long("steps", optarg, 1, 100000000L, &o->steps)) return -1; break;
        case 'q': o->c.quick = 1; break;
        case 'n': if (xp_parse_long("nx", optarg, 1, 200, &v)) return -1; o->nx = (int)v; break;
        case 'r': if (xp_parse_long("repeat", optarg, 1, BENCH_MAX_REPEAT, &v)) return -1; o->c.repeat = (int)v; break;
        case 'o': snprintf(o->c.out, sizeof o->c.out, "%s", optarg); break;
        case 'd': snprintf(o->c.data_dir, sizeof o->c.data_dir, "%s", optarg); break;
        case 'L': o->c.lammps = 0; break;
        case 'a': if (xp_parse_double("alpha", optarg, 0.0, 1.0, &o->net.alpha)) return -1; break;
        case 'b': if (xp_parse_double("beta", optarg, 1.0, 1e15, &o->net.beta)) return -1; break;
        case 'N': if (xp_parse_double("project-n", optarg, 1.0, 1e12, &o->project_n)) return -1; break;
        case 'P':
            if (xp_parse_list("project-ranks", optarg, 1, 1 << 20, x, 8, &n)) return -1;
            for (int k = 0; k < n; k++) o->project[k] = (int)x[k];
            o->nproject = n;
            break;
        case 'R':
            if (strcmp(optarg, "allgather") == 0) o->rebuild = bench_rebuild_allgather;
            else if (strcmp(optarg, "neighbors") == 0) o->rebuild = bench_rebuild_neighbors;
            else {
                fprintf(stderr, "contactlab bench --mpi: --rebuild-model: '%s' is not allgather or neighbors\n", optarg);
                return -1;
            }
            o->rebuild_name = optarg;
            break;
        case 'h': return 1;
        default: return -1;
        }
    }
    for (int k = optind; k < argc; k++) {
        if (strcmp(argv[k], "chute") == 0) o->run[0] = 1;
        else if (strcmp(argv[k], "pile") == 0) o->run[1] = 1;
        else {
            fprintf(stderr, "contactlab bench --mpi: '%s': the benchmarks across ranks are chute and pile\n", argv[k]);
            return -1;
        }
    }
    if (!o->run[0] && !o->run[1]) o->run[0] = o->run[1] = 1;
    if (o->steps < 0) o->steps = o->c.quick ? 100 : 1000;
    if (o->nx == 0) o->nx = o->c.quick ? 4 : 8;
    if (o->c.repeat == 0) o->c.repeat = o->c.quick ? 1 : 3;
    return 0;
}

/* ---- the runs ---- */

/* mpirun's own options for P ranks: --oversubscribe beyond the cores, --allow-run-as-root as root */
static int mpirun_argv(char **av, int P, const char *np)
{
    int n = 0;
    av[n++] = "mpirun";
    if (P > sysconf(_SC_NPROCESSORS_ONLN)) av[n++] = "--oversubscribe";
    if (geteuid() == 0) av[n++] = "--allow-run-as-root";
    av[n++] = "-np";
    av[n++] = (char *)np;
    return n;
}

/* the OpenMP build's run: the same world, options and steps in one process on `threads` threads */
static int omp_run(const clab_world *w0, const clab_options *opt, double h, long steps, int threads, double *sec,
                   uint64_t *hash, clab_error *err)
{
    clab_world *w = clab_world_clone(w0);
    if (!w) return clab_error_set(err, CLAB_ENOMEM, "out of memory");
    clab_options o;
    clab_options_init(&o);
    clab_options_merge(&o, opt);
    /* the energy bound off, as on the ranks (a check, not a change of state) */
    clab_options_set(&o, "guard_energy", "0", NULL);
    bench_set_threads(threads);
    clab_sim *s = clab_sim_create(w, "penalty", h, &o, err);
    clab_options_free(&o);
    int rc = s ? CLAB_OK : CLAB_EINVAL;
    const double t0 = bench_now();
    for (long k = 0; k < steps && !rc; k++) rc = clab_sim_step(s, err);
    *sec = bench_now() - t0;
    if (!rc) *hash = clab_mpi_state_hash(w);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

/* the MPI bench's --csv (mpi/xp_mpi.c's columns) */
static int read_mpi_csv(const char *path, bm_mpi *m)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    memset(m, 0, sizeof *m);
    char line[2048];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || strncmp(line, "benchmark,", 10) == 0) continue;
        char *fld[32];
        int n = 0;
        for (char *s = line, *t; n < 32 && s; s = t) {
            t = strchr(s, ',');
            if (t) *t++ = '\0';
            fld[n++] = s;
        }
        if (n < 27 || m->nrank == BM_MAX_RANK) continue;
        sscanf(fld[2], "%dx%dx%d", &m->grid[0], &m->grid[1], &m->grid[2]);
        m->moving = atol(fld[4]);
        m->steps = atol(fld[5]);
        m->seconds = atof(fld[6]);
        m->rebuilds = atol(fld[8]);
        snprintf(m->hash, sizeof m->hash, "%s", fld[9]);
        bm_rank *r = &m->r[m->nrank++];
        double *v[] = {&r->owned,  &r->local,      &r->ghosts,   &r->replicated, &r->fwd_bytes, &r->fwd_msg, &r->re_bytes,
                       &r->re_msg, &r->reductions, NULL,         NULL,           NULL,          &r->exchange, &r->assign,
                       &r->rss,    &r->reach};
        for (int k = 0; k < 16; k++)
            if (v[k]) *v[k] = atof(fld[11 + k]);
    }
    fclose(f);
    return m->nrank > 0 ? 0 : -1;
}

/* one MPI run of the benchmark on P ranks; its CSV into m */
static int mpi_run(const bm_opts *o, const char *exe, const char *out, const char *which, const char *data, int P,
                   bm_mpi *m)
{
    char np[16], steps[32], nx[16], csv[2048], log[2048];
    snprintf(np, sizeof np, "%d", P);
    snprintf(steps, sizeof steps, "%ld", o->steps);
    snprintf(nx, sizeof nx, "%d", o->nx);
    snprintf(csv, sizeof csv, "%s/mpi-%s-%d.csv", out, which, P);
    snprintf(log, sizeof log, "%s/mpi-%s-%d.log", out, which, P);
    char *av[32];
    int n = mpirun_argv(av, P, np);
    const char *rest[] = {exe, "bench", which, "--steps", steps, "--nx", nx, "--out", out, "--csv", csv};
    for (size_t k = 0; k < sizeof rest / sizeof *rest; k++) av[n++] = (char *)rest[k];
    if (o->c.quick) av[n++] = "--quick";
    if (data[0]) {
        av[n++] = "--data";
        av[n++] = (char *)data;
    }
    av[n] = NULL;
    remove(csv);
    const int st = bench_run_in(out, av, log);
    if (st != 0 || read_mpi_csv(csv, m)) {
        fprintf(stderr, "contactlab bench --mpi: mpirun -np %d contactlab bench %s failed (exit %d); its output: %s\n", P,
                which, st, log);
        return -1;
    }
    return 0;
}

/* one LAMMPS run on P processes of dir/input (written from in for the steps) */
static int lmp_run(const char *dir, const char *in, const char *which, long steps, int P, bench_lammps_out *lo)
{
    char input[2048], log[2048], np[16];
    snprintf(input, sizeof input, "%s/in.%s-%ld", dir, which, steps);
    snprintf(log, sizeof log, "%s/lammps-%s-%ld-%d.log", dir, which, steps, P);
    if (bench_lammps_input(in, input, steps, 1)) {
        fprintf(stderr, "contactlab bench --mpi: cannot write %s from %s\n", input, in);
        return -1;
    }
    snprintf(np, sizeof np, "%d", P);
    char *av[32];
    int n = mpirun_argv(av, P, np);
    const char *rest[] = {"lmp", "-in", input, "-log", "none", "-nocite"};
    for (size_t k = 0; k < sizeof rest / sizeof *rest; k++) av[n++] = (char *)rest[k];
    av[n] = NULL;
    const int st = bench_run_in(dir, av, log);
    if (st != 0 || bench_lammps_parse(log, steps, lo)) {
        fprintf(stderr, "contactlab bench --mpi: LAMMPS on %d process(es) failed (exit %d); its output: %s\n", P, st, log);
        return -1;
    }
    return 0;
}

/* LAMMPS's input for the benchmark in dir (made): the chute's in.chute beside a link to its
 * data; the pile's data.pile and in.pile as bench pile writes them, of the same spheres; "" in
 * `in` when LAMMPS is not run */
static void lmp_prepare(const bm_opts *o, const char *which, const char *data_dir, const clab_world *w, double h,
                        const char *dir, char *in, size_t n, bench_lammps_caps *lc)
{
    in[0] = '\0';
    memset(lc, 0, sizeof *lc);
    if (!o->c.lammps || xp_mkdir_p(dir)) return;
    bench_lammps_probe(dir, lc);
    if (!lc->found) {
        printf("  LAMMPS (lmp) not found: contactlab's figures only\n");
        return;
    }
    if (!lc->mpi) printf("  LAMMPS %s has no MPI: run on 1 process only\n", lc->version);
    if (strcmp(which, "chute") == 0) {
        char src[2048], link[2048], abs[4096];
        snprintf(src, sizeof src, "%s/data.chute", data_dir);
        snprintf(link, sizeof link, "%s/data.chute", dir);
        remove(link);
        if (!realpath(src, abs) || symlink(abs, link) != 0) return;
        snprintf(in, n, "%s/in.chute", data_dir);
    } else {
        /* the pile's spheres as the ranks start them: radius R, density from the mass */
        double R = 0.0, rho = 0.0;
        for (size_t i = 0; i < w->nbodies && R == 0.0; i++)
            if (!w->bodies[i].fixed && w->bodies[i].shape.type == CLAB_SHAPE_SPHERE) {
                R = w->bodies[i].shape.radius;
                rho = w->bodies[i].m / (4.0 / 3.0 * M_PI * R * R * R);
            }
        if (pile_lammps_write(dir, w, R, rho, h, 0.2 * R)) return;
        snprintf(in, n, "%s/in.pile", dir);
    }
    printf("  LAMMPS %s: mpirun -np P lmp -in %s\n", lc->version, in);
}

/* ---- the figures ---- */

static double mean_rank(const bm_mpi *m, size_t off)
{
    double s = 0.0;
    for (int q = 0; q < m->nrank; q++) s += *(const double *)((const char *)&m->r[q] + off);
    return m->nrank ? s / m->nrank : 0.0;
}

static double max_rank(const bm_mpi *m, size_t off)
{
    double s = 0.0;
    for (int q = 0; q < m->nrank; q++) s = fmax(s, *(const double *)((const char *)&m->r[q] + off));
    return s;
}

#define RMEAN(m, f) mean_rank(m, offsetof(bm_rank, f))
#define RMAX(m, f) max_rank(m, offsetof(bm_rank, f))

/* the model's inputs from the measured runs (the one-rank run and the largest P), bench_model.h */
static int measure(const bm_point *pt, int np, const clab_world *w, bench_mpi_measured *m)
{
    const bm_point *one = NULL, *big = NULL;
    for (int k = 0; k < np; k++) {
        if (pt[k].P == 1 && isfinite(pt[k].mpi)) one = &pt[k];
        if (pt[k].P > 1 && isfinite(pt[k].mpi) && (!big || pt[k].P > big->P)) big = &pt[k];
    }
    if (!one) return -1;
    memset(m, 0, sizeof *m);
    const bm_mpi *a = &one->best;
    m->N = (double)a->moving;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, Rmax = 0.0;
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        if (b->fixed) continue;
        const double x[3] = {b->r.x, b->r.y, b->r.z};
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], x[k]);
            hi[k] = fmax(hi[k], x[k]);
        }
        Rmax = fmax(Rmax, clab_shape_bound_radius(&b->shape));
    }
    for (int k = 0; k < 3; k++) {
        m->periodic[k] = w->periodic.on[k];
        m->L[k] = m->periodic[k] ? w->periodic.hi[k] - w->periodic.lo[k] : fmax(hi[k] - lo[k], 2.0 * Rmax);
    }
    m->width = a->r[0].reach + Rmax;
    const double steps = (double)a->steps;
    m->interval = a->rebuilds > 0 ? steps / (double)a->rebuilds : 0.0;
    m->reductions = a->r[0].reductions;
    m->c = (a->seconds - a->r[0].exchange - (double)a->rebuilds * a->r[0].assign) / (steps * m->N);
    m->assign_a = a->r[0].assign / m->N;
    m->ghost_scale = 1.0;
    m->bytes_ghost = 13.0 * sizeof(double);
    m->collectives = 4.0;
    m->gather_bytes = 112.0;
    if (!big) return 0;
    const bm_mpi *b = &big->best;
    const int P = big->P;
    double ghosts = 0.0, fwd = 0.0, re = 0.0, re_msg = 0.0;
    for (int q = 0; q < b->nrank; q++) {
        ghosts += b->r[q].ghosts;
        fwd += b->r[q].fwd_bytes;
        re += b->r[q].re_bytes;
        re_msg += b->r[q].re_msg;
    }
    double shell, nb;
    bench_mpi_shell(m->L, m->periodic, b->grid, m->width, &shell, &nb);
    const double model = shell * m->N / (m->L[0] * m->L[1] * m->L[2]) * P;
    if (model > 0.0 && ghosts > 0.0) m->ghost_scale = ghosts / model;
    if (ghosts > 0.0) m->bytes_ghost = fwd / ghosts;
    if (b->rebuilds > 0) {
        const double per_rebuild = (double)b->steps / (double)b->rebuilds;
        /* each rank sends its records to the P - 1 others: the gathered total is the sum / (P - 1) */
        m->gather_bytes = re * per_rebuild / (P - 1) / m->N;
        /* an allgather counts 2 (P - 1) messages a rank (its counts, its records): 2 collectives */
        m->collectives = re_msg / b->nrank * per_rebuild / (P - 1);
    }
    /* the assignment: N (a + b P), from its times at 1 and P ranks (the slowest rank), b >= 0 */
    const double tb = RMAX(b, assign) / m->N, ta = a->r[0].assign / m->N;
    m->assign_b = fmax(0.0, (tb - ta) / (P - 1));
    m->assign_a = fmax(0.0, ta - m->assign_b);
    return 0;
}

/* ---- one benchmark ---- */

typedef struct bm_files {
    FILE *scaling, *traffic, *projection;
} bm_files;

static void print_row(FILE *csv, const char *which, const char *code, int P, long moving, long steps, double sec,
                      double sec1, double lmp, const char *hash, const bm_mpi *m)
{
    const double ps = (double)moving * (double)steps, ns = 1e9 * sec / ps;
    char rate[32] = "-";
    if (isfinite(lmp)) snprintf(rate, sizeof rate, "%.3g", lmp / sec);
    printf("  %-20s %3d  %10.1f  %8.3g  %8s  %s\n", code, P, ns, sec1 / sec, rate, hash);
    fprintf(csv, "%s,%s,%d,%ld,%ld,%.6g,%.6g,%.4g,%s,%s,", which, code, P, moving, steps, sec, ns, sec1 / sec,
            isfinite(lmp) ? rate : "", hash);
    if (m)
        fprintf(csv, "%.6g,%.4g,%.6g,%.4g,%.4g,%.4g,%.0f\n", RMEAN(m, fwd_bytes), RMEAN(m, fwd_msg), RMEAN(m, re_bytes),
                RMEAN(m, re_msg), RMEAN(m, reductions), RMAX(m, exchange), RMAX(m, rss));
    else fprintf(csv, ",,,,,,\n");
}

static int run_one(const bm_opts *o, const char *which, const char *exe, const char *out, bm_files *fl)
{
    clab_error err;
    clab_error_clear(&err);
    bench_ctx c = o->c;
    memcpy(c.out, out, strlen(out) + 1); /* shorter than c.out (clab_bench_mpi_launch) */
    /* the chute's packing, found or made before the runs, and given to every run */
    char data[sizeof c.data_dir] = "";
    if (strcmp(which, "chute") == 0) {
        if (c.data_dir[0]) snprintf(data, sizeof data, "%s", c.data_dir);
        else if (chute_default_data(out, c.quick, data, sizeof data)) return 1;
        char abs[4096];
        if (realpath(data, abs) && strlen(abs) < sizeof c.data_dir) memcpy(data, abs, strlen(abs) + 1);
        memcpy(c.data_dir, data, strlen(data) + 1);
    }
    clab_options opt;
    clab_options_init(&opt);
    double h = 0.0;
    clab_world *w = clab_xp_mpi_bench_world(&c, which, o->nx, "penalty", &opt, &h, &err);
    if (!w) {
        fprintf(stderr, "contactlab bench --mpi %s: %s\n", which, err.msg);
        clab_options_free(&opt);
        return 1;
    }
    long moving = 0;
    for (size_t i = 0; i < w->nbodies; i++) moving += !w->bodies[i].fixed;
    printf("== %s across ranks: %zu bodies (%ld moving), %ld steps of %g s, best of %d, ranks", which, w->nbodies,
           moving, o->steps, h, c.repeat);
    for (int k = 0; k < o->nranks; k++) printf(" %d", o->ranks[k]);
    printf("; load %.2f\n", bench_load1());
    /* LAMMPS: a folder of its own for the input and logs */
    char ldir[1200], in[1400];
    snprintf(ldir, sizeof ldir, "%s/mpi-lammps-%s-%ld", out, which, moving);
    bench_lammps_caps lc;
    lmp_prepare(o, which, data, w, h, ldir, in, sizeof in, &lc);
    fflush(stdout);
    bm_point pt[BM_MAX_P];
    for (int k = 0; k < o->nranks; k++) {
        memset(&pt[k], 0, sizeof pt[k]);
        pt[k].P = o->ranks[k];
        pt[k].omp = pt[k].mpi = pt[k].lmp = INFINITY;
    }
    int status = 0, same = 1;
    uint64_t hash0 = 0;
    for (int r = 0; r < c.repeat && !status; r++)
        for (int k = 0; k < o->nranks && !status; k++) {
            bm_point *p = &pt[k];
            double sec = 0.0;
            uint64_t hash = 0;
            if (omp_run(w, &opt, h, o->steps, p->P, &sec, &hash, &err)) {
                fprintf(stderr, "contactlab bench --mpi %s: the OpenMP run: %s\n", which, err.msg);
                status = 1;
                break;
            }
            p->omp = fmin(p->omp, sec);
            p->omp_hash = hash;
            if (r == 0 && k == 0) hash0 = hash;
            same = same && hash == hash0;
            bm_mpi m;
            if (mpi_run(o, exe, out, which, data, p->P, &m)) {
                status = 1;
                break;
            }
            char hx[20];
            snprintf(hx, sizeof hx, "%016llx", (unsigned long long)hash0);
            same = same && strcmp(m.hash, hx) == 0;
            if (m.seconds < p->mpi) {
                p->mpi = m.seconds;
                p->best = m;
            }
            bench_lammps_out lo;
            char lt[32] = "not run";
            if (in[0] && (p->P == 1 || lc.mpi) && lmp_run(ldir, in, which, o->steps, p->P, &lo) == 0) {
                p->lmp = fmin(p->lmp, lo.loop);
                snprintf(lt, sizeof lt, "%.3f s", lo.loop);
            }
            printf("  run %d, P = %d: OpenMP %.3f s (end state %016llx), MPI %.3f s (%s), LAMMPS %s\n", r + 1, p->P, sec,
                   (unsigned long long)hash, m.seconds, m.hash, lt);
            fflush(stdout);
        }
    if (status) goto done;
    printf("  end states (FNV-1a 64 of r e rdot wbar): %s across every P of the OpenMP and the MPI runs (%016llx)\n",
           same ? "the same to the bit" : "DIFFERENT", (unsigned long long)hash0);
    if (!same) status = 1;
    /* the table: ns a particle-step, speedup against the first P, rate against LAMMPS at the same P */
    printf("  %-20s %3s  %10s  %8s  %8s  %s\n", "code", "P", "ns/p-step", "speedup", "rate/lmp", "end-state hash");
    const long steps = o->steps;
    for (int k = 0; k < o->nranks; k++) {
        const bm_point *p = &pt[k];
        char hx[20];
        snprintf(hx, sizeof hx, "%016llx", (unsigned long long)p->omp_hash);
        print_row(fl->scaling, which, "contactlab-openmp", p->P, moving, steps, p->omp, pt[0].omp, p->lmp, hx, NULL);
        print_row(fl->scaling, which, "contactlab-mpi", p->P, moving, steps, p->mpi, pt[0].mpi, p->lmp, p->best.hash,
                  &p->best);
        if (isfinite(p->lmp))
            print_row(fl->scaling, which, "lammps-mpirun", p->P, moving, steps, p->lmp, isfinite(pt[0].lmp) ? pt[0].lmp : NAN,
                      NAN, "", NULL);
    }
    printf("  (speedup: against P = %d of the same code; rate/lmp: the code's particle-steps a second over LAMMPS's at "
           "the same P)\n", pt[0].P);
    /* the traffic a rank */
    for (int k = 0; k < o->nranks; k++) {
        const bm_mpi *m = &pt[k].best;
        for (int q = 0; q < m->nrank; q++) {
            const bm_rank *a = &m->r[q];
            printf("  P = %d (grid %dx%dx%d), rank %d: %.0f owned, %.0f ghosts, %.0f replicated; a step: forward %.0f bytes "
                   "in %.2f messages, rebuilds %.0f bytes in %.2f messages, %.3g all-reduces; %.3g s in exchanges; "
                   "peak RSS %.1f MB\n",
                   pt[k].P, m->grid[0], m->grid[1], m->grid[2], q, a->owned, a->ghosts, a->replicated, a->fwd_bytes,
                   a->fwd_msg, a->re_bytes, a->re_msg, a->reductions, a->exchange, a->rss / 1e6);
            fprintf(fl->traffic, "%s,%d,%dx%dx%d,%d,%.0f,%.0f,%.0f,%.0f,%.6g,%.4g,%.6g,%.4g,%.4g,%.4g,%.4g,%.0f\n", which,
                    pt[k].P, m->grid[0], m->grid[1], m->grid[2], q, a->owned, a->local, a->ghosts, a->replicated,
                    a->fwd_bytes, a->fwd_msg, a->re_bytes, a->re_msg, a->reductions, a->exchange, a->assign, a->rss);
        }
    }
    /* the projection */
    bench_mpi_measured mm;
    if (measure(pt, o->nranks, w, &mm)) {
        printf("  projection: needs the one-rank run (--ranks 1,...)\n");
        goto done;
    }
    const double N = o->project_n > 0.0 ? o->project_n : mm.N;
    printf("  projection (a model: doc/mpi.md \"Projection\"): N = %.0f moving bodies; network alpha = %.3g s, beta = "
           "%.3g bytes/s; rebuild: %s\n"
           "    measured: c = %.1f ns a body a step (one rank, exchanges and assignments out), shell w = %.3g m (x %.3g "
           "to match the measured ghosts), %.0f bytes a ghost a step, %.3g all-reduces a step, a rebuild every %.1f "
           "steps (0: none in the run) gathering %.0f bytes a body in %.3g collectives, assignment N (%.3g + %.3g P) ns\n"
           "    T(P) = c (N/P + G) + m alpha + b_g G / beta + r 2 alpha ceil(log2 P) + T_rebuild / k\n",
           N, o->net.alpha, o->net.beta, o->rebuild_name, 1e9 * mm.c, mm.width, mm.ghost_scale, mm.bytes_ghost,
           mm.reductions, mm.interval, mm.gather_bytes, mm.collectives, 1e9 * mm.assign_a, 1e9 * mm.assign_b);
    printf("    %6s %-9s %10s %9s %6s %10s %10s %10s %10s %10s %8s %10s\n", "P", "grid", "owned", "ghosts", "msgs",
           "compute", "forward", "reduce", "rebuild", "total", "speedup", "measured");
    bench_mpi_point p1;
    bench_mpi_project(&mm, &o->net, o->rebuild, N, 1, &p1);
    int list[BM_MAX_P + 8], nl = 0;
    for (int k = 0; k < o->nranks; k++) list[nl++] = o->ranks[k];
    for (int k = 0; k < o->nproject; k++) list[nl++] = o->project[k];
    for (int k = 0; k < nl; k++) {
        bench_mpi_point p;
        if (bench_mpi_project(&mm, &o->net, o->rebuild, N, list[k], &p)) continue;
        double meas = NAN;
        for (int j = 0; j < o->nranks && N == mm.N; j++)
            if (pt[j].P == list[k] && k < o->nranks) meas = pt[j].mpi / (double)steps;
        char grid[32];
        snprintf(grid, sizeof grid, "%dx%dx%d", p.grid[0], p.grid[1], p.grid[2]);
        printf("    %6d %-9s %10.0f %9.0f %6.3g %8.3g s %8.3g s %8.3g s %8.3g s %8.3g s %8.3g", p.P, grid, p.owned,
               p.ghosts, p.neighbors, p.t_compute, p.t_forward, p.t_reduce, p.t_rebuild, p.t_total,
               p1.t_total / p.t_total);
        if (isfinite(meas)) printf(" %8.3g s", meas);
        printf("\n");
        fprintf(fl->projection, "%s,%.0f,%d,%s,%.6g,%.6g,%.4g,%.6g,%.6g,%.6g,%.6g,%.6g,%.4g,", which, N, p.P, grid, p.owned,
                p.ghosts, p.neighbors, p.t_compute, p.t_forward, p.t_reduce, p.t_rebuild, p.t_total, p1.t_total / p.t_total);
        if (isfinite(meas)) fprintf(fl->projection, "%.6g\n", meas);
        else fprintf(fl->projection, "\n");
    }
done:
    fflush(stdout);
    clab_world_destroy(w);
    clab_options_free(&opt);
    return status;
}

int clab_bench_mpi_launch(int argc, char **argv)
{
    bm_opts o;
    const int p = parse(argc, argv, &o);
    if (p) {
        usage(p > 0 ? stdout : stderr);
        return p > 0 ? 0 : 2;
    }
    if (xp_mkdir_p(o.c.out)) {
        fprintf(stderr, "contactlab bench --mpi: cannot create %s: %s\n", o.c.out, strerror(errno));
        return 1;
    }
    char abs[4096], out[1000], exe[4096];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (!realpath(o.c.out, abs) || strlen(abs) >= sizeof out || n <= 0) {
        fprintf(stderr, "contactlab bench --mpi: cannot resolve %s (or it is too long) or this program's path\n", o.c.out);
        return 1;
    }
    memcpy(out, abs, strlen(abs) + 1);
    exe[n] = '\0';
    char path[3][1100];
    const char *name[3] = {"mpi-scaling.csv", "mpi-traffic.csv", "mpi-projection.csv"};
    FILE *f[3] = {NULL, NULL, NULL};
    for (int k = 0; k < 3; k++) {
        snprintf(path[k], sizeof path[k], "%s/%s", out, name[k]);
        f[k] = fopen(path[k], "w");
        if (!f[k]) {
            fprintf(stderr, "contactlab bench --mpi: cannot write %s: %s\n", path[k], strerror(errno));
            for (int j = 0; j < k; j++) fclose(f[j]);
            return 1;
        }
        fprintf(f[k], "# contactlab bench --mpi (doc/mpi.md, \"Traffic and time\"): %ld steps, best of %d, load %.2f at "
                      "the start; %ld cores\n",
                o.steps, o.c.repeat, bench_load1(), sysconf(_SC_NPROCESSORS_ONLN));
    }
    fprintf(f[0], "# codes: contactlab-openmp (one process, P threads), contactlab-mpi (mpirun -np P contactlab bench; one "
                  "thread a rank), lammps-mpirun (mpirun -np P lmp); speedup against the first P of the same code; "
                  "rate_vs_lammps: particle-steps a second over LAMMPS's at the same P; traffic: the mean over the ranks "
                  "a step, exchange_s and peak RSS the largest rank's\n"
                  "benchmark,code,ranks,moving,steps,seconds,ns_per_particle_step,speedup,rate_vs_lammps,end_state_hash,"
                  "fwd_bytes_per_step,fwd_messages_per_step,rebuild_bytes_per_step,rebuild_messages_per_step,"
                  "reductions_per_step,exchange_s,peak_rss_bytes\n");
    fprintf(f[1], "# a row a rank of the fastest MPI run of each P; per step: over the steps run; assign_s: one assignment "
                  "of the bodies to the ranks, timed after the run\n"
                  "benchmark,ranks,grid,rank,owned,local,ghosts,replicated,fwd_bytes_per_step,fwd_messages_per_step,"
                  "rebuild_bytes_per_step,rebuild_messages_per_step,reductions_per_step,exchange_s,assign_s,"
                  "peak_rss_bytes\n");
    fprintf(f[2], "# the time a step at P ranks (bench_model.h): T(P) = c (N/P + G) + m alpha + b_g G / beta + r 2 alpha "
                  "ceil(log2 P) + T_rebuild / k; alpha = %.6g s, beta = %.6g bytes/s; rebuild model: %s; measured_s: the "
                  "measured MPI run's time a step at that P\n"
                  "benchmark,N,ranks,grid,owned,ghosts,neighbors,compute_s,forward_s,reductions_s,rebuild_s,total_s,"
                  "speedup,measured_s\n",
            o.net.alpha, o.net.beta, o.rebuild_name);
    bm_files fl = {f[0], f[1], f[2]};
    int status = 0;
    const char *names[2] = {"chute", "pile"};
    for (int k = 0; k < 2; k++)
        if (o.run[k] && run_one(&o, names[k], exe, out, &fl)) status = 1;
    for (int k = 0; k < 3; k++)
        if (fclose(f[k])) status = 1;
    printf("written: %s, %s, %s\n", path[0], path[1], path[2]);
    return status;
}
