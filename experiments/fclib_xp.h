/* fclib_xp.h: the FCLIB commands and options of the drivers (doc/fclib.md):
 *   contactlab fclib solve FILE.hdf5 [--solver ...]   (fclib_cmd.c)
 *   contactlab bench fclib [FILES]                     (bench_fclib.c)
 *   run/pile --fclib-every N --fclib-dir DIR           (run_fclib.c: the export after a step) */
#ifndef CLAB_FCLIB_XP_H
#define CLAB_FCLIB_XP_H

#include <stdio.h>

#include "clab_fclib.h"
#include "clab_sim.h"

/* the export option of a driver: every N steps (N >= 1) into dir (NULL: off) */
typedef struct xp_fclib_export {
    const char *dir;  /* --fclib-dir DIR (NULL: no export) */
    long every;       /* --fclib-every N (default 1 with --fclib-dir) */
    const char *name; /* file prefix: DIR/<name>-step<k>.hdf5 */
    long written;     /* files written */
    long skipped;     /* steps due without contacts (nothing to write) */
} xp_fclib_export;

/* After step k of s: write the step's problem when k % every == 0 (a step without contacts
 * is counted in skipped). Makes dir on the first call. -1 with err set (and for a build
 * without FCLIB, with what to install). */
int xp_fclib_after_step(xp_fclib_export *x, const clab_sim *s, clab_error *err);
/* The problem of s's last step into path. -1 with err set. */
int xp_fclib_write_step(const clab_sim *s, const char *path, clab_error *err);
/* the --help lines of --fclib-every and --fclib-dir */
void xp_fclib_help(void);

/* One solve of an FCLIB problem by contactlab (fclib_cmd.c): solver "apgd", "gs", "jacobi",
 * "bb" (the Tasora-Anitescu CCP, relaxed) or "exact" / "exact-<solver>" (Coulomb's problem by
 * De Saxce's fixed point around apgd or the named solver), on the CCP rebuilt from the file
 * (clab_fc_to_ccp; its p is reset to the file's q first). r: the guess on entry (projected),
 * the solution on exit; u = W r + q with the file's W. */
typedef struct xp_fc_run {
    long iterations;       /* solver iterations (summed over the outer iterations) */
    long outer;            /* exact: CCP solves of the fixed point (1 for relaxed) */
    double seconds;        /* wall time of the solve */
    double residual;       /* contactlab's residual of the CCP (relaxed) [m/s] */
    double residual_exact; /* contactlab's exact-Coulomb residual r_E [m/s] */
    double err_siconos;    /* Siconos's relative error of Coulomb's problem (clab_fc_error_siconos) */
    double merit;          /* fclib_merit_local (MERIT_1) */
    int converged;         /* the solver's own test (relaxed: r <= tol; exact: fixed point) */
} xp_fc_run;
int xp_fc_solve(const clab_fc_problem *fp, clab_ccp *P, const char *solver, double tol, long max_iter, double *r,
                double *u, xp_fc_run *out, clab_error *err);
/* the errors of (r, u) in both conventions, into out (residual, residual_exact, err_siconos, merit) */
void xp_fc_errors(const clab_fc_problem *fp, clab_ccp *P, const double *r, const double *u, xp_fc_run *out);

/* The cross-check of two solutions a (contactlab's exact, De Saxce around apgd) and b (the
 * Siconos solver solver_b) of fp's Coulomb problem (fclib_cross.c, doc/fclib.md): Coulomb's
 * conditions contact by contact for each, their difference (contact and body velocities, slip
 * pattern, reactions split into internal stresses and the part moving the bodies), and the
 * fixed-point test (each solver from the other's solution, and from its own at a tolerance
 * 100 times smaller). Printed; key,value rows into csv when not NULL. -1 out of memory. */
typedef struct xp_fc_pair {
    const char *name_a, *name_b, *solver_b;
    const double *ra, *ua, *rb, *ub;
    double tol_a, tol_b; /* contactlab's [m/s], Siconos's (relative) */
    long iter_a, iter_b;
    int no_polish;       /* 1: skip the restarts from their own solutions (large problems) */
} xp_fc_pair;
int xp_fc_cross(const clab_fc_problem *fp, clab_ccp *P, const xp_fc_pair *x, FILE *csv, const char *base);

/* contactlab fclib check FILE: contactlab's exact solution and Siconos's NSGS's, cross-checked (fclib_cross.c) */
int xp_fclib_check(int argc, char **argv);

/* contactlab fclib ... */
int xp_fclib(int argc, char **argv);

#endif
