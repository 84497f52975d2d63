/* xp.h: what every experiment driver shares: the subcommand table, the common options
 * (--method, --h, --t-end, --out, --opt-penalty/--opt-dvi, --force), the progress bar,
 * output folders, metadata and the gnuplot step. */
#ifndef CLAB_XP_H
#define CLAB_XP_H

#include <getopt.h>
#include <stdio.h>

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

/* the subcommands */
int xp_bowling(int argc, char **argv);
int xp_run(int argc, char **argv);

#endif
