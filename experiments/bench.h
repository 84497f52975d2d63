/* bench.h: `contactlab bench [NAME...]`: benchmarks (never part of make check). Each one
 * prints its figures and appends rows to bench-summary.csv in the output folder, one row per
 * (benchmark, threads):
 *
 *     benchmark,threads,bodies,contacts,steps,seconds,particle_steps_per_s,ns_per_particle_step,
 *     peak_rss_bytes,note
 *
 * seconds is wall-clock time (CLOCK_MONOTONIC) of the timed steps only, setup excluded. */
#ifndef CLAB_BENCH_H
#define CLAB_BENCH_H

#include <stddef.h>

#define BENCH_MAX_THREADS 8

typedef struct bench_ctx {
    char out[1024];                    /* output folder */
    int threads[BENCH_MAX_THREADS];    /* thread counts to run, e.g. {1, 2} */
    int nthreads;
    int quick;                         /* --quick: small sizes, for a smoke run */
    int lammps;                        /* run LAMMPS (lmp) when installed; --no-lammps turns it off */
    long sort;                         /* --sort N: penalty runs renumber their bodies into cell order
                                        * every N steps (sim option sort; LAMMPS's default atom sort is
                                        * every 1000 steps); 0: never */
    char data_dir[1024];               /* --data: the chute's LAMMPS data (a folder or the file);
                                        * "": the packing contactlab makes (chute_data.h) */
    int repeat;                        /* --repeat N: chute runs of each code a (steps, threads),
                                        * alternating; pile runs of each thread count, taking
                                        * turns; 0: the default (chute 3, --quick 1; pile 3) */
    const char *const *files;          /* bench fclib: the FCLIB files named on the command line */
    int nfiles;
    const char *fclib_dir;             /* --fclib-dir DIR: dvi-pile writes its last timed step's problem
                                        * there as an FCLIB file (NULL: not) */
} bench_ctx;
#define BENCH_MAX_REPEAT 32

/* one row of bench-summary.csv */
typedef struct bench_row {
    const char *benchmark;   /* e.g. "chute-100", "chute-100-lammps", "pile-8000" */
    int threads;
    long bodies;             /* bodies moved (fixed ones excluded) */
    long contacts;           /* contacts at the end (or mean), -1 when not known */
    long steps;
    double seconds;          /* wall-clock of the timed steps */
    double peak_rss_bytes;   /* VmHWM of the process, 0 when not known */
    const char *note;        /* free text (no commas), may be NULL */
} bench_row;

/* Append one row (writing the header when the file is new) and print it; -1 on error. */
int bench_summary_append(const bench_ctx *c, const bench_row *r);

/* wall clock [s], CLOCK_MONOTONIC */
double bench_now(void);
/* CPU time [s]: of every thread of the process (all_threads), else of the calling thread
 * only (CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID). On a machine shared with other
 * work, CPU time is closer to the code's own cost than wall time; one thread's runs read
 * their own clock, which leaves out the runtime's idle threads still spinning after a run
 * on more threads */
double bench_cpu_now(int all_threads);
/* the 1-minute load average of the machine (/proc/loadavg), 0 when unknown: printed with the
 * figures, so that a run on a busy machine shows */
double bench_load1(void);
/* the process's resident set: now (VmRSS) and peak (VmHWM) [bytes]; 0 when unknown */
double bench_rss_bytes(void);
double bench_peak_rss_bytes(void);
/* Set the OpenMP thread count for what follows (no-op without OpenMP); returns the count
 * in effect (1 without OpenMP). */
int bench_set_threads(int n);

/* the benchmarks: each returns 0, or non-zero after printing what went wrong */
typedef struct bench_entry {
    const char *name;
    const char *summary;
    int (*run)(const bench_ctx *c);
} bench_entry;

/* the benchmarks (bench_<name>.c) */
int bench_chute(const bench_ctx *c);
/* bench_pile.c */
int bench_pile(const bench_ctx *c);
int bench_pile_1m(const bench_ctx *c);
/* bench_dvi_pile.c */
int bench_dvi_pile(const bench_ctx *c);
int bench_dvi_pile_1m(const bench_ctx *c);
/* bench_mesh.c */
int bench_mesh(const bench_ctx *c);
/* the fcc lattice pile of dvi-pile, nx x nx x nz cells, and its equilibrium impulses loaded into
 * s as a warm start (a backend with the checkpoint format of dvi/warmstart.h) */
struct clab_world;
struct clab_sim;
struct clab_error;
struct clab_world *bench_lattice_pile(int nx, int nz, unsigned long seed, struct clab_error *err);
int bench_lattice_warm_start(struct clab_sim *s, int nz, struct clab_error *err);
/* bench_lcp_pile.c */
int bench_lcp_pile(const bench_ctx *c);
/* bench_fclib.c */
int bench_fclib(const bench_ctx *c);
/* the problem of s's last step into c->fclib_dir/<name>-step<k>.hdf5 (printed); -1 on error */
struct clab_sim;
int bench_fclib_export(const bench_ctx *c, const struct clab_sim *s, const char *name);

#endif
