/* run_contacts.h: the optional outputs of `contactlab run` beside its bodies and steps series:
 * the contact-force CSV (--contacts N) and the sample-measure CSV (--measure BOX). */
#ifndef CLAB_RUN_CONTACTS_H
#define CLAB_RUN_CONTACTS_H

#include "clab_csv.h"
#include "clab_measure.h"
#include "clab_sim.h"
#include "xp.h"

typedef struct xp_run_extra {
    long contacts_every;     /* --contacts N: the contacts every N output rows; 0: none */
    int measure;             /* --measure given */
    int box_walls;           /* --measure walls: the box from the walls at each output row */
    clab_measure_box box;    /* --measure x0,x1,y0,y1,z0,z1 [m] */
    long rattler_min;        /* --rattler-min N (default 2) */
    clab_csv *fc, *fm;       /* the two CSVs, NULL when off */
    char cpath[2048], mpath[2048];
    clab_vec3 *f;            /* the last step's forces */
    size_t fcap;
    size_t *inv;             /* [nbodies] world index -> the scene's order */
} xp_run_extra;

/* getopt_long entries, after run.c's own */
#define XP_RUN_EXTRA_LONGOPTS                              \
    {"contacts", required_argument, 0, 'c' + 512},         \
    {"measure", required_argument, 0, 'm' + 512},          \
    {"rattler-min", required_argument, 0, 'r' + 512}

void xp_run_extra_init(xp_run_extra *x);
/* the lines of run's --help for these options */
void xp_run_extra_help(void);
/* One of the options above: 1 handled, -1 a bad value (message printed, counted), 0 not one. */
int xp_run_extra_option(xp_run_extra *x, int opt, const char *arg);
/* 1 when some extra output is on */
static inline int xp_run_extra_on(const xp_run_extra *x) { return x->contacts_every > 0 || x->measure; }
/* --measure walls: the walls of w make a box (before any file is made); -1 with err set. */
int xp_run_extra_check(const xp_run_extra *x, const clab_world *w, clab_error *err);
/* Open <prefix>-contacts.csv and <prefix>-measure.csv as asked (flags: clab_csv_open's), with
 * meta, the command line and the options of these outputs. -1 with err set. */
int xp_run_extra_open(xp_run_extra *x, const xp_common *c, const char *prefix,
                      const clab_options *meta, int argc, char *const *argv, int flags, clab_error *err);
/* The rows of output row nout (the world at its step; the contacts and forces of the step
 * that led there); order: the outputs' order of the bodies (order[k] = world index of the
 * k-th). -1 with err set. */
int xp_run_extra_rows(xp_run_extra *x, const clab_sim *s, const size_t *order, long nout, clab_error *err);
/* the contacts CSV's columns */
#define XP_RUN_CONTACT_COLS 17
/* The contacts CSV's row of contact i of cs (a record of w's sim; cs->c[i].a, .b index
 * w->bodies): the time and step of w, a and b (the bodies' indices in the scene's order), the
 * point P placed from body a as w holds it, n, Phi, f = (F_n, F_u, F_w) the force on b in the
 * frame n u w and the same in the world axes. `run` in one process and across ranks
 * (mpi/run_mpi.c, on the rank that counts the contact) write their rows with it. */
void xp_run_contact_row(const clab_world *w, const clab_contacts *cs, size_t i, clab_vec3 f, size_t a, size_t b,
                        double row[XP_RUN_CONTACT_COLS]);
/* Close the CSVs (-1 with err set when a close failed), free the rest. */
int xp_run_extra_close(xp_run_extra *x, clab_error *err);

#endif
