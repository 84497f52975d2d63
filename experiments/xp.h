/* xp.h: what every experiment driver shares: the subcommand table, the common options
 * (--method, --h, --t-end, --out, --opt, --force), the progress bar,
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

/* ---- methods: a method is a row of a table, a registered backend and the backend options
 * that make the method. The table holds the named variants (penalty, dvi, dvi-exact,
 * dvi-regularized) and then every other registered backend (clab_backend_all()) under its own
 * name, so a backend registered later runs in every experiment. ---- */

/* what kind of contact a method has: the step a driver gives it by default and the theory
 * it is compared with */
typedef enum xp_kind {
    XP_KIND_CCP,     /* rigid contacts, a cone complementarity problem a step (Tasora-Anitescu):
                        the step is the user's (--h-dvi) */
    XP_KIND_PENALTY, /* the spring-dashpots of penalty/force_law.h (Hertz-Mindlin or Hooke): the
                        default step comes from the backend's stable step (--h-penalty), and
                        Hertz's or Hooke's impact and wave theory apply */
    XP_KIND_FORCE    /* another force law: the default step from its stable step, no theory */
} xp_kind;

typedef struct xp_method {
    const char *name;    /* in file names, CSV metadata and printed tables: "penalty", "dvi-exact" */
    const char *title;   /* by its authors and equations: "De Saxce fixed point (exact Coulomb)" */
    const char *backend; /* the registered backend */
    const char *options; /* backend options that make the method, "key=value[,key=value]", or NULL */
    xp_kind kind;
    int regularized;     /* compliant normal rows: needs stiffness= (the experiment's, or --opt) */
} xp_method;

#define XP_MAX_METHODS 16 /* rows of the table */
#define XP_MAX_SCOPES 20  /* --opt scopes: all methods, a backend, a method */

/* user options of one scope: "" (every method), a backend's name (every method on it) or a
 * method's name */
typedef struct xp_scope_opts {
    char scope[32];
    clab_options opt;
} xp_scope_opts;

typedef struct xp_common {
    xp_method table[XP_MAX_METHODS]; /* every method (xp_common_init) */
    int ntable;
    const xp_method *method[XP_MAX_METHODS]; /* the chosen ones (--method), in table order */
    int nmethod;
    unsigned chosen;       /* bit k: table[k] is chosen */
    char method_default[64]; /* --method's default, for --help */
    int gives_stiffness;   /* the experiment gives a regularized method its stiffness ('all' has them) */
    double h;              /* step size [s]; 0 = the experiment's default per method */
    double t_end;          /* end time [s]; 0 = the experiment's default */
    char out[1024];        /* output folder */
    int force;             /* overwrite existing results */
    int progress;          /* progress bar on stderr (when stderr is a terminal) */
    int plot;              /* run gnuplot after the CSVs are written */
    xp_scope_opts opt[XP_MAX_SCOPES]; /* --opt [METHOD:]key=value (--opt-penalty, --opt-dvi) */
    int nopt;
    int argc;              /* the command line as it determines the results, for metadata: */
    char **argv;           /*   without --out, --force, --no-plot, --no-progress, --checkpoint-every,
                                --restart, --stop-after (so runs in two folders compare byte for byte) */
    /* checkpoint and restart (experiments that support them: xp_restart_supported) */
    long checkpoint_every; /* --checkpoint-every N: a checkpoint every N steps of a simulation; 0: none */
    long stop_after;       /* --stop-after N: stop after step N of a simulation, as if interrupted */
    char restart[1024];    /* --restart FILE; "" when not given */
    /* internal: the experiment, the whole command line and what the metadata leaves out */
    char name[32];
    int argc_all;
    char **argv_all;
    unsigned char *drop;   /* [argc_all] 1: not in the metadata, 2: nor in the resume command */
    char **argv_meta;      /* [argc_all + 1] storage of argv */
    int ncase;             /* simulations begun so far (xp_case_skip) */
    char case_label[48];   /* the current one's */
    int resume_case;       /* --restart: the index of the simulation it continues; -1: none */
    clab_checkpoint_info resume; /* --restart: what the checkpoint says (xp_restart_begin) */
} xp_common;

/* getopt_long entries of the common options; experiments append theirs and end with {0} */
#define XP_COMMON_LONGOPTS                                      \
    {"method", required_argument, 0, 'm'},                      \
    {"h", required_argument, 0, 'H'},                           \
    {"t-end", required_argument, 0, 'T'},                       \
    {"out", required_argument, 0, 'o'},                         \
    {"opt", required_argument, 0, 'O'},                         \
    {"opt-penalty", required_argument, 0, 'P'},                 \
    {"opt-dvi", required_argument, 0, 'D'},                     \
    {"force", no_argument, 0, 'f'},                             \
    {"no-plot", no_argument, 0, 'N'},                           \
    {"no-progress", no_argument, 0, 'Q'},                       \
    {"checkpoint-every", required_argument, 0, 'C'},            \
    {"restart", required_argument, 0, 'R'},                     \
    {"stop-after", required_argument, 0, 'S'},                  \
    {"help", no_argument, 0, '?' + 256}

/* the help of the methods (the table, the default) and of the common options */
void xp_common_help(const xp_common *c);

/* defaults: methods both (penalty,dvi), out = "out/<name>", progress when stderr is a terminal */
void xp_common_init(xp_common *c, const char *name, int argc, char **argv);
/* Choose the methods of list (as --method takes it); a driver's default when called before
 * the options are parsed. -1 (message printed, counted) on an unknown name. */
int xp_methods_choose(xp_common *c, const char *list);
/* The method called name in the table, NULL when there is none. */
const xp_method *xp_method_find(const xp_common *c, const char *name);
/* The value the user gave method m for key (--opt M:key, of its backend, of every method),
 * NULL when none. */
const char *xp_user_option(const xp_common *c, const xp_method *m, const char *key);
/* Print the chosen methods, one a line: name, title, backend and options. */
void xp_methods_print(const xp_common *c);
/* The method's name and title as metadata (clab_sim_meta adds its backend and options) */
void xp_method_meta(const xp_method *m, clab_options *meta);
/* The step of method m: h_force for a force law (0: its default from the stable step),
 * h_ccp for rigid contacts */
static inline double xp_method_h(const xp_method *m, double h_force, double h_ccp)
{
    return m->kind == XP_KIND_CCP ? h_ccp : h_force;
}
void xp_common_free(xp_common *c);
/* Handle one common option (getopt's return value opt, its optarg); returns 1 when it was
 * one, 0 when not, -1 on a bad value (message printed). */
int xp_common_option(xp_common *c, int opt, const char *arg);
/* Command-line problems: a parser reports each with xp_option_error (printf format, one line
 * ending in a newline; the first XP_MAX_ERRORS are printed, the rest counted) and goes on
 * with the next option; an option getopt did not know (it printed the message) counts with
 * xp_option_unknown. After the loop, xp_option_errors prints "and N more" and "see --help"
 * as needed and returns the number of problems: the command line is good when it is 0. */
#define XP_MAX_ERRORS 20
void xp_option_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* more of the last problem's message (not counted again) */
void xp_option_error_more(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
void xp_option_unknown(void);
int xp_option_errors(const char *prefix);

/* Parse a number option fully (finite, within [lo, hi]); prints the error and returns -1. */
int xp_parse_double(const char *opt, const char *arg, double lo, double hi, double *out);
/* A comma-separated list (of --opt, without its dashes): -1 (printed, counted) when an element
 * is empty ("0.05,,0.2", a leading or trailing comma) or a word is given twice */
int xp_list_check(const char *opt, const char *arg);
/* A comma-separated list of numbers, e.g. "3,8": no empty element, no value twice */
int xp_parse_list(const char *opt, const char *arg, double lo, double hi, double *out, int max, int *n);

/* Create the output folder (and parents). */
int xp_mkdir_p(const char *path);
/* Create the output folder --out; -1 with the reason printed (a file of that name, a
 * permission). */
int xp_out_dir(const xp_common *c);
/* Remove the regular files of the output folder that ours(file name, ctx) claims, and say how
 * many went: --force replaces an earlier run's results, so no stale series is drawn. */
int xp_out_clean(const xp_common *c, int (*ours)(const char *file, const void *ctx), const void *ctx);
/* xp_out_dir, then with --force (not --restart) the experiment's earlier results in it:
 * <experiment>-*.csv, .png, .pdf, .txt and its checkpoints. -1 on failure (printed). */
int xp_out_prepare(const xp_common *c);
/* out/<file>, in a static-free caller buffer */
void xp_path(const xp_common *c, const char *file, char *buf, size_t len);

/* A simulation of `world` under method m with step h: its backend with, in this order, the
 * method's options, the experiment's extra options (may be NULL) and the user's --opt of
 * every method, of m's backend and of m. A regularized method needs stiffness= (or
 * compliance=) from extra or --opt. Prints the error and returns NULL on failure. */
clab_sim *xp_sim(const xp_common *c, clab_world *w, const xp_method *m, double h, const clab_options *extra);
/* 1, with a message naming who, when s has the option sort on: the commands follow their
 * bodies by index (CSV columns, checkpoints), which the sort renumbers */
int xp_sort_refused(const clab_sim *s, const char *who);

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
/* The end of an experiment's run, rc its status so far: close its summary CSV sum (at spath; a
 * failure fails the run), then, when all went well, say where its CSVs are (series: their
 * pattern in the output folder) and draw its figures with script (figures: their file names,
 * for the message). Returns the run's status. */
int xp_finish(const xp_common *c, int rc, clab_csv *sum, const char *spath, const char *series, const char *script,
              const char *figures);
/* The same with gnuplot -e expr before the script (e.g. "prefix='ball-dvi'"; no double quote) */
int xp_plot_e(const xp_common *c, const char *script, const char *expr);

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
    double *values;                                 /* the caller's running quantities (may be NULL) */
    size_t nvalues;
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

/* ---- checkpoint and restart of an experiment (doc/reliability.md, section 4) ----
 *
 * An experiment runs its simulations ("cases": methods, parameter values) in a fixed order.
 * Its checkpoint, <out>/<experiment>.ckpt, belongs to one case: its tag names the
 * experiment, the case's index and label and a hash of the result-determining command line.
 * A restart (same command + --restart FILE) skips the cases before it (their files are
 * final; the summary is cut back to its length at the checkpoint), continues that case
 * byte-identically and runs the rest. A driver:
 *
 *     if (xp_restart_begin(&c)) exit 1;                    // after the options are parsed
 *     summary = c.restart[0] ? xp_summary_resume(&c, path, ncols, &err) : clab_csv_open(...);
 *     for each case:
 *         if (xp_case_skip(&c, "penalty")) continue;       // finished before the checkpoint
 *         build the world and sim s;
 *         r = xp_case_begin(&c, &g, s, summary, 2, run_values, nvalues);
 *         r == 1: series = xp_guard_resume(&g, 1, path, ncols, &err), k_start = w->step;
 *         r == 0: series = clab_csv_open(...), xp_guard_add(&g, series);
 *         for (k = k_start; ; k++) {
 *             rows of an output step (not the one at k_start of a restart: it is written),
 *             then xp_guard_snapshot(&g, s, &err);
 *             if (k == nsteps) break;
 *             if (k > k_start && (r = xp_case_poll(&c, &g, s, k))) -> stop (r > 0) or fail;
 *             clab_sim_step, on failure xp_case_fail(&c, &g);
 *         }
 *     on a stop: close the CSVs, return xp_case_stopped(&c, s) as the exit status.
 *
 * run_values are the driver's running quantities (sums, extrema, counters): saved with
 * every checkpoint and snapshot and restored bit for bit. */

/* 1 when contactlab <name> supports --checkpoint-every/--restart/--stop-after */
int xp_restart_supported(const char *name);
/* Check the checkpoint of --restart, when given (this experiment's, this command's) and
 * catch SIGINT/SIGTERM. Prints the problem and returns -1. */
int xp_restart_begin(xp_common *c);
/* Reopen the summary for a restart, cut back to its length at the checkpoint (series 0). */
clab_csv *xp_summary_resume(xp_common *c, const char *path, size_t ncols, clab_error *err);
/* a word for a POSIX shell: as it is when plain, else in single quotes */
void xp_shell_word(FILE *f, const char *a);
/* The summary CSV: continued after --restart (xp_summary_resume), else created (overwriting
 * only with --force) with its metadata and header. NULL on failure, printed as "contactlab
 * NAME: ...". */
clab_csv *xp_summary_open(xp_common *c, const char *path, const clab_options *meta, const char *const *cols,
                          size_t ncols);
/* The series CSV of a case (series 1 of its guard): reopened where the checkpoint left it
 * when resumed (xp_case_begin returned 1), else created with flags, metadata and header and
 * added to the guard. NULL on failure (printed). */
clab_csv *xp_series_open(const xp_common *c, xp_guard *g, int resumed, const char *path, int flags,
                         const clab_options *meta, const char *const *cols, size_t ncols);
/* The next case (label: a few words for messages). 1: skip it (finished before the
 * checkpoint being continued), 0: run it. */
int xp_case_skip(xp_common *c, const char *label);
/* Guard of the current case: series 0 is summary, nfiles series in all; values the
 * driver's running quantities. 1: continues from --restart (s and values restored; reopen
 * series 1.. with xp_guard_resume), 0: fresh (xp_guard_add its series), -1: failed (printed).
 * Free g with xp_guard_free. */
int xp_case_begin(xp_common *c, xp_guard *g, clab_sim *s, clab_csv *summary, int nfiles, double *values,
                  size_t nvalues);
/* At the top of step k (k > the case's first step of this run): write a checkpoint when
 * due (--checkpoint-every, a stop signal, --stop-after). 0: go on, 1: stop (checkpoint
 * written), -1: failed (printed). */
int xp_case_poll(xp_common *c, xp_guard *g, const clab_sim *s, long k);
/* 1 when xp_case_poll would write a checkpoint at step k (a driver with many running values
 * can pack them only then) */
int xp_case_due(const xp_common *c, long k);
/* A step failed (message in err): say so naming the case, flush, save the last good state. */
void xp_case_fail(xp_common *c, xp_guard *g, const clab_error *err);
/* After xp_case_poll returned 1: where it stopped, the CSVs whole, the command to resume;
 * returns the exit status (128 + signal number; 3 for --stop-after). */
int xp_case_stopped(const xp_common *c, const clab_sim *s);
#define XP_STOPPED 3 /* exit status of --stop-after */

/* The contact forces of s's last step in *f (grown to *cap entries as needed), one
 * (F_n, F_u, F_w) a contact (clab_sim_forces). -1 when out of memory. */
int xp_forces(const clab_sim *s, clab_vec3 **f, size_t *cap);

/* The steps from 0 to t_end at h (clab_sim_step_count: robust to rounding, refused beyond its
 * limit); -1 after printing why. Every experiment counts its steps with it. */
long xp_steps(const xp_common *c, double t_end, double h);

/* The step loop of a case (drop, incline, chain), from the state's step (0, or where a
 * restart continues) to nsteps. At each step k, at() measures the state (done_before: the
 * step a restart continues from, measured before the checkpoint) and returns 1 when an output
 * row is due (row filled), 0 when not, -1 on failure (printed). A due row is written after
 * pack() has stored the driver's running values in the guard's values, and the state is kept
 * as the last good one (xp_guard_snapshot); between steps a checkpoint is written when due
 * (xp_case_poll), and a failed step saves the last good state (xp_case_fail). */
typedef struct xp_case_loop {
    xp_common *c;
    xp_guard *g;          /* the case's (xp_case_begin) */
    clab_sim *s;
    clab_csv *csv;        /* the series */
    double *row;          /* [ncols] the row at() fills */
    size_t ncols;
    long nsteps;
    int resumed;          /* xp_case_begin returned 1 */
    xp_progress *pb;      /* progress pb0 + pbspan k/nsteps */
    double pb0, pbspan;
    int (*at)(void *ctx, long k, int done_before, double *row);
    void (*pack)(void *ctx);
    void *ctx;
} xp_case_loop;
/* 0 at nsteps, 1 on failure (printed), 2 when stopped (*status: the exit status). */
int xp_case_run(const xp_case_loop *L, int *status);

/* xp_restart_begin, then xp_summary_open; meta is freed. NULL on failure (printed). */
clab_csv *xp_summary_begin(xp_common *c, const char *path, clab_options *meta, const char *const *cols, size_t ncols);
/* The end of a case: free its guard, close its series (may be NULL); rc, or 1 when rc was 0
 * and the series failed to close (printed). */
int xp_case_end(const xp_common *c, xp_guard *g, clab_csv *series, int rc);

/* A summary row: the text cells head, the numbers vals (as %.17g), the text cells tail.
 * -1 on failure (printed). */
int xp_summary_row(const xp_common *c, clab_csv *sum, const char *const *head, size_t nhead, const double *vals,
                   size_t nvals, const char *const *tail, size_t ntail);

/* ---- contactlab run's files besides its series (run_out.c) ---- */

/* 1 when file (a name in the output folder) is one of the run's with prefix ctx
 * ("<scene>-<backend>"): its CSVs, figure, checkpoint and VTK frames (for --force) */
int xp_run_own_file(const char *file, const void *ctx);
/* <prefix>-body-names.csv: body (the index of the bodies CSV: the k-th is body order[k] of w,
 * clab_world_add_order), name, shape, fixed */
int xp_run_write_names(const clab_world *w, const size_t *order, const char *path, clab_error *err);
/* how a run ended */
typedef struct xp_run_summary {
    long steps;             /* steps taken (a failed run: to its last good state) */
    double t;               /* their simulated time [s] */
    double wall;            /* wall-clock time of this invocation [s] */
    double kinetic_energy;  /* at the end (a failed run: at the last good state) [J] */
    double max_penetration; /* deepest -Phi over the output steps [m] */
    size_t contacts;        /* at the end */
    const char *status;     /* done, failed, stopped */
    const char *message;    /* why, for failed and stopped; "" for done */
} xp_run_summary;
/* <prefix>-summary.csv: the metadata of the run and one row (replaces an earlier one) */
int xp_run_write_summary(const char *path, const clab_options *meta, int argc, char *const *argv,
                         const xp_run_summary *r, clab_error *err);
/* A restart continues the series at path whose first *bytes bytes the checkpoint keeps.
 * When this run's metadata block (meta, the command argv, the header cols) is the one the file
 * has, nothing changes (0); else the file is rewritten (1): this run's metadata, the earlier
 * restarts' lines, then restart.N = the time up to which the old values held and
 * restart.N.<key> = the old value of each key that differs (a message on stderr names each
 * option, its old and its new value, when say), the header and the rows; *bytes becomes the new length.
 * *old_every: the file's output_every (0 when absent). -1 with err set on failure. */
int xp_run_restart_meta(const char *path, long long *bytes, const clab_options *meta, int argc, char *const *argv,
                        const char *const *cols, size_t ncols, double t_restart, int say, long *old_every,
                        clab_error *err);

/* the subcommands */
int xp_bowling(int argc, char **argv);
int xp_pile(int argc, char **argv);        /* pile.c */
int xp_convergence(int argc, char **argv); /* convergence.c */
int xp_scaling(int argc, char **argv);     /* scaling.c */
int xp_incline(int argc, char **argv);     /* incline.c */
int xp_drop(int argc, char **argv);        /* drop.c */
int xp_validate(int argc, char **argv);    /* validate.c */
int xp_cone_error(int argc, char **argv);  /* cone_error.c */
int xp_chain(int argc, char **argv);       /* chain.c */
int xp_painleve(int argc, char **argv);    /* painleve.c */
int xp_cone(int argc, char **argv);        /* cone.c */
int xp_wave(int argc, char **argv);        /* wave.c */
int xp_hopper(int argc, char **argv);      /* hopper.c */
int xp_shear(int argc, char **argv);       /* shear.c */
int xp_triaxial(int argc, char **argv);    /* triaxial.c */
int xp_run(int argc, char **argv);
int xp_bench(int argc, char **argv);     /* bench.c */

#endif
