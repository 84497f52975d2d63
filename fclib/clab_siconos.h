/* clab_siconos.h: Siconos numerics' fc3d solvers (Acary et al.) on an FCLIB problem read by
 * clab_fc_read, for `contactlab bench fclib`. Optional: without Siconos (configure) every
 * call returns CLAB_EINVAL with clab_sic_missing(). Not installed. */
#ifndef CLAB_SICONOS_H
#define CLAB_SICONOS_H

#include "clab_fclib.h"

typedef struct clab_sic_result {
    int info;          /* fc3d_driver's return: 0 = converged to tol */
    long iterations;   /* iparam[SICONOS_IPARAM_ITER_DONE] */
    double seconds;    /* wall time of fc3d_driver (the matrix conversion excluded) */
    double error;      /* dparam[SICONOS_DPARAM_RESIDU]: the solver's own final error */
} clab_sic_result;

int clab_sic_available(void);
const char *clab_sic_missing(void);

/* The solver names clab_sic_solve takes: "nsgs", "prox", "vi-eg", "vi-fpp", "nsn-ac"
 * (SICONOS_FRICTION_3D_NSGS, _PROX, _VI_EG, _VI_FPP, _NSN_AC), NULL-terminated. */
const char *const *clab_sic_solvers(void);

/* Coulomb's problem of fp (local form W, q, mu) by the named fc3d solver, from r (the guess
 * on entry: zero or given), to tol (Siconos's relative error) or max_iter; r, u = W r + q on
 * exit. CLAB_EINVAL (unknown solver), CLAB_ENOMEM; non-convergence is res->info != 0, not an
 * error. */
int clab_sic_solve(const clab_fc_problem *fp, const char *solver, double tol, long max_iter, double *r, double *u,
                   clab_sic_result *res, clab_error *err);

/* Siconos's own error of (r, u) (fc3d_compute_error, norm |q|_2), to cross-check
 * clab_fc_error_siconos; -1 when Siconos is absent. */
double clab_sic_error(const clab_fc_problem *fp, const double *r);

#endif
