/* bench.c: the `contactlab bench` command: option parsing, the table of benchmarks, and the
 * bench-summary.csv rows they all append. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bench.h"
#include "chute_data.h"
#include "xp.h"
#ifdef CLAB_HAVE_MPI
#include "bench_mpi.h"
#endif

/* the benchmarks: add an entry here and a source file bench_<name>.c */
static const bench_entry benchmarks[] = {
    {"chute", "LAMMPS's chute flow (32,000 spheres, Hooke with history) side by side with lmp", bench_chute},
    {"pile", "penalty (Hertz-Mindlin, history) on a settled dense pile of 8k, 32k, 128k spheres: rate, memory, scaling; "
             "the 32k pile beside lmp",
     bench_pile},
    {"pile-1m", "penalty on a settled dense pile of 1,000,000 spheres: memory and time per step", bench_pile_1m},
    {"dvi-pile", "DVI solvers on a settled pile of 8,000 and 32,000 spheres: s/step, ns per (contact x iteration), iterations to 1e-4/1e-6 m/s", bench_dvi_pile},
    {"lcp-pile", "Stewart-Trinkle LCP (pgs, Lemke) beside the CCP solvers on settled fcc piles: s/step, ns per (contact x sweep), pivots", bench_lcp_pile},
    {"fclib", "FCLIB problems (settled piles of 1,000 and 8,000 spheres, a box stack, or FILES): contactlab's and Siconos's fc3d solvers side by side", bench_fclib},
    {"dvi-pile-1m", "DVI (apgd) on the fcc pile of 1,003,520 spheres: seconds per step, memory", bench_dvi_pile_1m},
    {"mesh", "the same sample between five planes and between five triangle-mesh walls, penalty and DVI: time per step "
             "and their ratio", bench_mesh},
    {NULL, NULL, NULL},
};

static size_t nbenchmarks(void)
{
    size_t n = 0;
    while (benchmarks[n].name) n++;
    return n;
}

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double bench_cpu_now(int all_threads)
{
    struct timespec ts;
    clock_gettime(all_threads ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double bench_load1(void)
{
    double l = 0.0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1) l = 0.0;
        fclose(f);
    }
    return l;
}

/* a "Vm...:  N kB" line of /proc/self/status */
static double status_kb(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return 0.0;
    char line[256];
    double kb = 0.0;
    size_t len = strlen(field);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, len) == 0 && line[len] == ':') {
            kb = strtod(line + len + 1, NULL);
            break;
        }
    fclose(f);
    return kb * 1024.0;
}

double bench_rss_bytes(void) { return status_kb("VmRSS"); }
double bench_peak_rss_bytes(void) { return status_kb("VmHWM"); }

int bench_set_threads(int n)
{
#ifdef _OPENMP
    omp_set_num_threads(n);
    return n;
#else
    (void)n;
    return 1;
#endif
}

int bench_summary_append(const bench_ctx *c, const bench_row *r)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/bench-summary.csv", c->out);
    struct stat st;
    int fresh = stat(path, &st) != 0 || st.st_size == 0;
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(stderr, "contactlab bench: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (fresh)
        fprintf(f, "benchmark,threads,bodies,contacts,steps,seconds,particle_steps_per_s,ns_per_particle_step,"
                   "peak_rss_bytes,note\n");
    double ps = (double)r->bodies * (double)r->steps;
    double rate = r->seconds > 0 ? ps / r->seconds : 0.0;
    double ns = ps > 0 ? 1e9 * r->seconds / ps : 0.0;
    fprintf(f, "%s,%d,%ld,%ld,%ld,%.6g,%.6g,%.6g,%.0f,%s\n", r->benchmark, r->threads, r->bodies, r->contacts,
            r->steps, r->seconds, rate, ns, r->peak_rss_bytes, r->note ? r->note : "");
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "contactlab bench: writing %s failed\n", path);
        return -1;
    }
    printf("  %-24s threads %d  bodies %ld  steps %ld  %.4g s  %.4g particle-steps/s  %.4g ns/particle-step\n",
           r->benchmark, r->threads, r->bodies, r->steps, r->seconds, rate, ns);
    fflush(stdout);
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: contactlab bench [options] [NAME...] [FILE.hdf5...]   (default: every benchmark)\n\n"
               "  --out DIR        output folder (default out/bench); rows are appended to DIR/bench-summary.csv\n"
               "  --threads LIST   thread counts to run, e.g. 1,2 (default 1 and the number of cores)\n"
               "  --quick          small sizes, for a smoke run\n"
               "  --no-lammps      do not run LAMMPS even when lmp is installed\n"
               "  --sort N         chute, pile: bodies renumbered into cell order every N steps (sim option\n"
               "                   sort; default 1000, LAMMPS's atom sort), dvi-pile: once after settling;\n"
               "                   0: the order they were built in\n"
               "  --data DIR       chute: LAMMPS's data.chute (a folder holding it and in.chute, a folder\n"
               "                   holding lammps-chute/, or the file); default: the packing contactlab\n"
               "                   makes in the --out folder's chute-data/ (--quick: chute-data-quick/)\n"
               "                   on first use, and reuses\n"
               "  --make-data DIR  chute: make that packing (data.chute, in.chute) in DIR and stop\n"
               "  --repeat N       chute: runs of each code per (steps, threads), contactlab and LAMMPS\n"
               "                   alternating (default 3, --quick 1; at most 32); the best of each is\n"
               "                   compared, and the ratio within each pair of runs is printed too;\n"
               "                   pile: timed runs of each thread count, the counts taking turns\n"
               "                   (default 3), and the runs of each code on the pile written for LAMMPS\n"
               "                   (default 3, --quick 1); more repeats ride out a slow spell of a shared host\n"
               "  --mpi            chute, pile: strong scaling across MPI ranks beside the OpenMP build and LAMMPS\n"
               "                   (built with --with-mpi; contactlab bench --mpi --help, doc/mpi.md)\n"
               "  --fclib-dir DIR  dvi-pile: write apgd's last timed step as an FCLIB problem into DIR\n"
               "                   (doc/fclib.md)\n"
               "  FILE.hdf5        fclib: the FCLIB problems to solve (default: its own piles and box stack)\n"
               "  --help\n\nbenchmarks:\n");
    for (size_t i = 0; i < nbenchmarks(); i++) fprintf(f, "  %-12s %s\n", benchmarks[i].name, benchmarks[i].summary);
}

int xp_bench(int argc, char **argv)
{
    for (int k = 1; k < argc; k++) /* --mpi: the scaling across ranks (mpi/bench_mpi.c) */
        if (strcmp(argv[k], "--mpi") == 0) {
#ifdef CLAB_HAVE_MPI
            return clab_bench_mpi_launch(argc, argv);
#else
            fprintf(stderr, "contactlab bench --mpi: this contactlab is built without MPI; configure it with --with-mpi "
                            "(./configure --with-mpi, doc/mpi.md) to run the benchmarks across MPI ranks\n");
            return 2;
#endif
        }
    bench_ctx c;
    memset(&c, 0, sizeof c);
    snprintf(c.out, sizeof c.out, "out/bench");
    char make_data[1024] = "";
    c.lammps = 1;
    c.sort = 1000;
    c.threads[0] = 1;
    c.nthreads = 1;
#ifdef _OPENMP
    if (omp_get_num_procs() > 1) c.threads[c.nthreads++] = omp_get_num_procs() < BENCH_MAX_THREADS ? omp_get_num_procs() : BENCH_MAX_THREADS;
#endif
    static const struct option longopts[] = {
        {"out", required_argument, 0, 'o'},   {"threads", required_argument, 0, 't'},
        {"quick", no_argument, 0, 'q'},       {"no-lammps", no_argument, 0, 'L'},
        {"data", required_argument, 0, 'd'},  {"help", no_argument, 0, 'h'},
        {"sort", required_argument, 0, 's'},  {"repeat", required_argument, 0, 'r'},
        {"make-data", required_argument, 0, 'm'}, {"fclib-dir", required_argument, 0, 'F'},
        {0, 0, 0, 0},
    };
    optind = 1;
    int opt;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (opt) {
        case 'o': snprintf(c.out, sizeof c.out, "%s", optarg); break;
        case 'd':
            if (!*optarg) {
                fprintf(stderr, "contactlab bench: --data: empty folder name\n");
                return 2;
            }
            snprintf(c.data_dir, sizeof c.data_dir, "%s", optarg);
            break;
        case 'm':
            if (!*optarg) {
                fprintf(stderr, "contactlab bench: --make-data: empty folder name\n");
                return 2;
            }
            snprintf(make_data, sizeof make_data, "%s", optarg);
            break;
        case 'q': c.quick = 1; break;
        case 'F': c.fclib_dir = optarg; break;
        case 'L': c.lammps = 0; break;
        case 's': {
            long v;
            if (xp_parse_long("sort", optarg, 0, 1000000000000L, &v)) return 2;
            c.sort = v;
            break;
        }
        case 'r': {
            long v;
            if (xp_parse_long("repeat", optarg, 1, BENCH_MAX_REPEAT, &v)) return 2;
            c.repeat = (int)v;
            break;
        }
        case 't': {
            double v[BENCH_MAX_THREADS];
            int n;
            if (xp_parse_list("threads", optarg, 1, 256, v, BENCH_MAX_THREADS, &n)) return 2;
            for (int k = 0; k < n; k++) {
                if (v[k] != (int)v[k]) {
                    fprintf(stderr, "contactlab bench: --threads: '%s' is not a list of whole numbers\n", optarg);
                    return 2;
                }
                c.threads[k] = (int)v[k];
            }
            c.nthreads = n;
            break;
        }
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    /* the benchmarks asked for, all when none */
    int run[64] = {0}, any = 0, nfiles = 0;
    static const char *files[256]; /* bench fclib's FILES */
    c.files = files;
    for (int k = optind; k < argc; k++) {
        size_t i = 0;
        while (i < nbenchmarks() && strcmp(argv[k], benchmarks[i].name) != 0) i++;
        size_t len = strlen(argv[k]);
        if (i == nbenchmarks() && ((len > 5 && strcmp(argv[k] + len - 5, ".hdf5") == 0) ||
                                   (len > 3 && strcmp(argv[k] + len - 3, ".h5") == 0))) {
            if (nfiles == 256) {
                fprintf(stderr, "contactlab bench: more than 256 FCLIB files\n");
                return 2;
            }
            files[nfiles++] = argv[k]; /* bench fclib's problems */
            continue;
        }
        if (i == nbenchmarks()) {
            fprintf(stderr, "contactlab bench: unknown benchmark '%s'\n", argv[k]);
            usage(stderr);
            return 2;
        }
        run[i] = any = 1;
    }
    if (make_data[0]) return chute_make_data(make_data, c.quick) ? 1 : 0;
    if (xp_mkdir_p(c.out)) {
        fprintf(stderr, "contactlab bench: cannot create %s: %s\n", c.out, strerror(errno));
        return 1;
    }
    c.nfiles = nfiles;
    int status = 0;
    for (size_t i = 0; i < nbenchmarks(); i++) {
        if (any && !run[i]) continue;
        printf("== %s: %s\n", benchmarks[i].name, benchmarks[i].summary);
        fflush(stdout);
        if (benchmarks[i].run(&c)) status = 1;
    }
    printf("summary: %s/bench-summary.csv\n", c.out);
    return status;
}
