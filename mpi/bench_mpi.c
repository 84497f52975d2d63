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
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "bench_lammps.h"
#include "bench_model.h"
#include "bench_mpi.h"
#include "bench_mpi_internal.h"
#include "bench_pile_lammps.h"
#include "chute_data.h"
#include "clab_mpi.h"
#include "xp.h"
#include "xp_mpi.h"

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
            "  --project-ranks L the projection's rank counts (default 16,64,256)\n");
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
    static const struct option lo[] = {
        {"mpi", no_argument, 0, 'M'},           {"ranks", required_argument, 0, 'p'},
        {"steps", required_argument, 0, 's'},   {"quick", no_argument, 0, 'q'},
        {"nx", required_argument, 0, 'n'},      {"repeat", required_argument, 0, 'r'},
        {"out", required_argument, 0, 'o'},     {"data", required_argument, 0, 'd'},
        {"no-lammps", no_argument, 0, 'L'},     {"alpha", required_argument, 0, 'a'},
        {"beta", required_argument, 0, 'b'},    {"project-n", required_argument, 0, 'N'},
        {"project-ranks", required_argument, 0, 'P'},
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
                       &r->re_msg, &r->reductions, NULL,         NULL,           NULL,          &r->exchange, &r->rebuild,
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
        fprintf(stderr, "contactlab bench --mpi: mpirun -np %d contactlab bench %s failed (exit %d%s); its output: %s\n", P,
                which, st, st == 127 ? ": mpirun not found (Debian: openmpi-bin)" : "", log);
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
        /* data.chute and in.chute in the data's folder (--data may name the file) */
        char folder[2048], src[2100], link[2100], abs[4096];
        struct stat st;
        snprintf(folder, sizeof folder, "%s", data_dir);
        if (stat(folder, &st) == 0 && S_ISREG(st.st_mode)) {
            char *slash = strrchr(folder, '/');
            if (slash) *slash = '\0';
        }
        snprintf(src, sizeof src, "%s/data.chute", folder);
        snprintf(link, sizeof link, "%s/in.chute", folder);
        if (stat(src, &st) != 0 || stat(link, &st) != 0) {
            printf("  LAMMPS not run: no data.chute and in.chute in %s\n", folder);
            return;
        }
        snprintf(in, n, "%s", link);
        snprintf(link, sizeof link, "%s/data.chute", dir);
        remove(link);
        if (!realpath(src, abs) || symlink(abs, link) != 0) {
            printf("  LAMMPS not run: cannot link %s into %s\n", src, dir);
            in[0] = '\0';
            return;
        }
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

/* the runs: at each P the three codes in turn, repeated; the best of each into pt; 1 when a run
 * failed or the end states differ */
static int take_turns(const bm_opts *o, const char *which, const char *exe, const char *out, const char *data,
                      const clab_world *w, const clab_options *opt, double h, const char *ldir, const char *in,
                      const bench_lammps_caps *lc, bm_point *pt)
{
    clab_error err;
    clab_error_clear(&err);
    for (int k = 0; k < o->nranks; k++) {
        memset(&pt[k], 0, sizeof pt[k]);
        pt[k].P = o->ranks[k];
        pt[k].omp = pt[k].mpi = pt[k].lmp = INFINITY;
    }
    int status = 0, same = 1;
    uint64_t hash0 = 0;
    for (int r = 0; r < o->c.repeat && !status; r++)
        for (int k = 0; k < o->nranks && !status; k++) {
            bm_point *p = &pt[k];
            double sec = 0.0;
            uint64_t hash = 0;
            if (omp_run(w, opt, h, o->steps, p->P, &sec, &hash, &err)) {
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
            if (in[0] && (p->P == 1 || lc->mpi) && lmp_run(ldir, in, which, o->steps, p->P, &lo) == 0) {
                p->lmp = fmin(p->lmp, lo.loop);
                snprintf(lt, sizeof lt, "%.3f s", lo.loop);
            }
            printf("  run %d, P = %d: OpenMP %.3f s (end state %016llx), MPI %.3f s (%s), LAMMPS %s\n", r + 1, p->P, sec,
                   (unsigned long long)hash, m.seconds, m.hash, lt);
            fflush(stdout);
        }
    if (status) return status;
    printf("  end states (FNV-1a 64 of r e rdot wbar): %s across every P of the OpenMP and the MPI runs (%016llx)\n",
           same ? "the same to the bit" : "DIFFERENT", (unsigned long long)hash0);
    if (!same) status = 1;
    return status;
}

/* the three CSVs the benchmarks' rows go to */
typedef struct bm_files {
    FILE *scaling, *traffic, *projection;
} bm_files;

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
    char ldir[1200], in[2100];
    snprintf(ldir, sizeof ldir, "%s/mpi-lammps-%s-%ld", out, which, moving);
    bench_lammps_caps lc;
    lmp_prepare(o, which, data, w, h, ldir, in, sizeof in, &lc);
    fflush(stdout);
    bm_point pt[BM_MAX_P];
    int status = take_turns(o, which, exe, out, data, w, &opt, h, ldir, in, &lc, pt);
    if (!status) {
        bm_report_scaling(o, which, moving, pt, fl->scaling);
        bm_report_traffic(o, which, pt, fl->traffic);
        bm_report_projection(o, which, pt, w, fl->projection);
    }
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
    fprintf(f[1], "# a row a rank of the fastest MPI run of each P; per step: over the steps run; rebuild_compute_s: a "
                  "rebuild's computing (the mean step with a rebuild less the mean without, exchanges out)\n"
                  "benchmark,ranks,grid,rank,owned,local,ghosts,replicated,fwd_bytes_per_step,fwd_messages_per_step,"
                  "rebuild_bytes_per_step,rebuild_messages_per_step,reductions_per_step,exchange_s,rebuild_compute_s,"
                  "peak_rss_bytes\n");
    fprintf(f[2], "# the time a step at P ranks (bench_model.h): T(P) = c (N/P + G) + m alpha + b_g G / beta + r 2 alpha "
                  "ceil(log2 P) + T_rebuild / k; alpha = %.6g s, beta = %.6g bytes/s; measured_s: the "
                  "measured MPI run's time a step at that P\n"
                  "benchmark,N,ranks,grid,owned,ghosts,neighbors,compute_s,forward_s,reductions_s,rebuild_s,total_s,"
                  "speedup,measured_s\n",
            o.net.alpha, o.net.beta);
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
