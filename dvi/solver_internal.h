/* solver_internal.h: helpers shared by the solvers (fast_*.c, plain_solvers.c) (not installed). */
#ifndef CLAB_SOLVER_INTERNAL_H
#define CLAB_SOLVER_INTERNAL_H

#include "ccp_solver.h"
#include "friction_exact.h" /* clab_desaxce_*: exact_update=inner */

/* Per-block factors of the diagonal blocks N_kk: L = largest eigenvalue [1/kg] and the
 * inverse N_kk^-1 [kg] (size x size, row major); 10 doubles per block. */
#define CLAB_BLOCK_FACTORS 10
/* Fill f[CLAB_BLOCK_FACTORS * nblocks]; CLAB_ENUMERIC (err set) when a block is singular. */
int clab_ccp_block_factors(const clab_ccp *P, double *f, clab_error *err);

/* The same for the joint blocks only, f[CLAB_BLOCK_FACTORS * (i - ncontacts)] for block i;
 * the contacts' lambda_max (kept in P->cone) is only checked to be positive and finite. */
int clab_ccp_joint_factors(const clab_ccp *P, double *f, clab_error *err);

/* Largest eigenvalue of a symmetric 3x3 matrix (row major). */
double clab_sym3_max_eigenvalue(const double A[9]);

/* Make room for max_iter history entries and reset the result; CLAB_ENOMEM. */
int clab_ccp_begin(const clab_ccp_options *o, clab_ccp_work *W, clab_ccp_result *res, clab_error *err);
/* Record residual r of iteration res->iterations + 1 in the history. */
static inline void clab_ccp_record(clab_ccp_work *W, clab_ccp_result *res, double r)
{
    W->history[res->nhistory++] = r;
    res->iterations = (long)res->nhistory;
    res->history = W->history;
}
/* Final status: residual, converged flag, and CLAB_OK / CLAB_EMAXITER / CLAB_ENUMERIC. */
int clab_ccp_finish(const char *solver, const clab_ccp_options *o, clab_ccp_result *res, double r, clab_error *err);

/* Estimate of the Lipschitz constant of the gradient, |N (x - e)| / |x - e| with e = (1, .., 1)
 * (the start of APGD in Mazhar et al. 2015), floored by the largest diagonal-block eigenvalue
 * over the number of unknowns so it is never zero; uses scratch a, b of length n, u and F
 * (3 nblocks). */
double clab_ccp_lipschitz_guess(const clab_ccp *P, const double *x, double *a, double *b, double *u, double *F);

#endif
