/* xp.h: what every experiment driver shares: the subcommand table, the common options
 * (--method, --h, --t-end, --out, --opt-penalty/--opt-dvi, --force), the progress bar,
 * output folders, metadata and the gnuplot step. */
#ifndef CLAB_XP_H
#define CLAB_XP_H

#include <getopt.h>
#include <stdio.h>

#include "clab_checkpoint.h"
#include "clab_csv.h"
#include "clab_options.h"
#include "clab_sim.h"

/* one subcommand of `contactlab` */
typedef struct xp_experiment {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand name; returns exit status */
} xp_experiment;

/* the methods a driver can run; "both" expands to penalty and dvi */
enum { XP_PENALTY = 1, XP_DVI = 2 };

typedef struct xp_common {
    int methods;           /* XP_PENALTY | XP_DVI */
    double h;              /* step size [s]; 0 = the experiment's default per method */
    double t_end;          /* end time [s]; 0 = the experiment's default */
    char out[1024];        /* output folder */
    int force;             /* overwrite existing results */
    int progress;          /* progress bar on stderr (when stderr is a terminal) */
    int plot;              /* run gnuplot after the CSVs are written */
    clab_options opt_penalty; /* --opt-penalty key=value */
    clab_options opt_dvi;     /* --opt-dvi key=value */
    int argc;              /* the command line, for metadata */
    char **argv;
} xp_common;

/* getopt_long entries of the common options; experiments append theirs and end with {0} */
#define XP_COMMON_LONGOPTS                                      \
    {"method", required_argument, 0, 'm'},                      \
    {"h", required_argument, 0, 'H'},                           \
    {"t-end", required_argument, 0, 'T'},                       \
    {"out", required_argument, 0, 'o'},                         \
    {"opt-penalty", required_argument, 0, 'P'},                 \
    {"opt-dvi", required_argument, 0, 'D'},                     \
    {"force", no_argument, 0, 'f'},                             \
    {"no-plot", no_argument, 0, 'N'},                           \
    {"no-progress", no_argument, 0, 'Q'},                       \
    {"help", no_argument, 0, '?' + 256}

/* the help lines of the common options */
extern const char xp_common_help[];

/* defaults: methods both, out = "out/<name>", progress when stderr is a terminal */
void xp_common_init(xp_common *c, const char *name, int argc, char **argv);
void xp_common_free(xp_common *c);
/* Handle one common option (getopt's return value opt, its optarg); returns 1 when it was
 * one, 0 when not, -1 on a bad value (message printed). */
int xp_common_option(xp_common *c, int opt, const char *arg);
/* Parse a number option fully (finite, within [lo, hi]); prints the error and returns -1. */
int xp_parse_double(const char *opt, const char *arg, double lo, double hi, double *out);
/* A comma-separated list of numbers, e.g. "3,8" */
int xp_parse_list(const char *opt, const char *arg, double lo, double hi, double *out, int max, int *n);

/* Create the output folder (and parents). */
int xp_mkdir_p(const char *path);
/* out/<file>, in a static-free caller buffer */
void xp_path(const xp_common *c, const char *file, char *buf, size_t len);

/* A simulation of `world` under backend `method` ("penalty" or "dvi") with the common
 * options for that method; prints the error and returns NULL on failure. */
clab_sim *xp_sim(const xp_common *c, clab_world *w, const char *method, double h, const clab_options *extra);

/* progress bar with ETA on stderr, only when enabled */
typedef struct xp_progress {
    int on;
    double start;     /* wall-clock start [s] */
    double last;      /* last redraw [s] */
    char label[128];
} xp_progress;
void xp_progress_begin(xp_progress *p, const xp_common *c, const char *label);
void xp_progress_update(xp_progress *p, double fraction);
void xp_progress_end(xp_progress *p);

/* Copy experiments/<script> into the output folder and run gnuplot there (PNG + PDF).
 * When gnuplot is absent or --no-plot was given, say how to make the figures. */
int xp_plot(const xp_common *c, const char *script);

/* ---- reliability (run.c uses it; any driver may): integer options, stop signals, and the
 * runtime guard that keeps the last good state and writes it out when a step fails ---- */

/* Parse an integer option fully, within [lo, hi]; prints the error (option, value, allowed
 * range) and returns -1. */
int xp_parse_long(const char *opt, const char *arg, long lo, long hi, long *out);

/* SIGINT and SIGTERM set a flag that step loops poll (xp_stop_signal), so a run stops at the
 * end of a step, flushes its CSVs and writes a checkpoint; a second signal of the same kind
 * takes its default action (the program ends at once; CSVs still hold whole rows). */
void xp_catch_signals(void);
/* The signal that asked the run to stop, 0 when none. */
int xp_stop_signal(void);

/* A run's output series and checkpoints (one per simulation). */
typedef struct xp_guard {
    char path[2048];                                /* checkpoint file */
    clab_checkpoint_output out;                     /* tag, lengths and rows of the series, nout */
    clab_csv *csv[CLAB_CHECKPOINT_MAX_FILES];       /* the series, in the order a restart reopens them */
    clab_checkpoint_image last;                     /* last good state (xp_guard_snapshot) */
} xp_guard;

/* path: where checkpoints go; tag: what wrote them (checked on restart) */
void xp_guard_init(xp_guard *g, const char *path, const char *tag);
void xp_guard_free(xp_guard *g);
/* Add a CSV series (at most CLAB_CHECKPOINT_MAX_FILES). */
int xp_guard_add(xp_guard *g, clab_csv *f);
/* Write every series' pending rows and record the lengths in g->out. */
int xp_guard_flush(xp_guard *g, clab_error *err);
/* Keep the state of s as the last good one, with the series' lengths now: call it at an
 * output step after that step's rows are written (a restart continues after them). */
int xp_guard_snapshot(xp_guard *g, const clab_sim *s, clab_error *err);
/* Flush and write a checkpoint of the state of s now (its rows written up to the last step). */
int xp_guard_checkpoint(xp_guard *g, const clab_sim *s, clab_error *err);
/* A step failed: flush every series and write the last good state to g->path. Prints what
 * was saved (prefix starts the lines); returns 0 when the checkpoint was written. */
int xp_guard_fail(xp_guard *g, const char *prefix);
/* Restore s from the checkpoint at file, which must carry g's tag and nfiles series; fills
 * g->out from it (the series' lengths to resume). Prints the problem and returns -1. */
int xp_guard_restore(xp_guard *g, clab_sim *s, const char *file, int nfiles, clab_checkpoint_info *info,
                     const char *prefix);
/* After xp_guard_restore: reopen series k at path (ncols columns), cut back to its length
 * at the checkpoint (clab_csv_resume); NULL with err set on failure. */
clab_csv *xp_guard_resume(xp_guard *g, int k, const char *path, size_t ncols, clab_error *err);

/* the subcommands */
int xp_bowling(int argc, char **argv);
int xp_pile(int argc, char **argv);        /* pile.c */
int xp_convergence(int argc, char **argv); /* convergence.c */
int xp_scaling(int argc, char **argv);     /* scaling.c */
int xp_incline(int argc, char **argv);     /* incline.c */
int xp_drop(int argc, char **argv);        /* drop.c */
int xp_chain(int argc, char **argv);       /* chain.c */
int xp_run(int argc, char **argv);
int xp_bench(int argc, char **argv);     /* bench.c */

#endif
