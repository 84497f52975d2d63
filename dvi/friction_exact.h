/* friction_exact.h: exact Coulomb friction for the DVI backend (option friction=exact), by
 * De Saxce's change of variable around the unchanged CCP solvers of ccp_solver.h.
 *
 * Seed 000 relaxes the gap condition of Eq. (5d) to Phi/h + v_n - mu |v_T| >= 0 so that the
 * step is the CCP of Eq. (10), the optimality condition of the convex QP of Eq. (11); the
 * price is that a sliding contact leaves every step separating at v_n = mu |v_T| (the
 * bowling-ball lift-off, seed 000 Sect. 3). The unrelaxed problem, Signorini's condition
 * 0 <= gamma_n _|_ Phi/h + v_n >= 0 with Coulomb's law, is (De Saxce and Feng 1998) the
 * same cone complementarity with the "modified velocity" of each contact:
 *
 *     K_i  ∋  gamma_i  ⊥  d_i + [mu_i |d_T,i|, 0, 0]  ∈  K_i*,     d = N nu + p,      (E)
 *
 * i.e. the CCP of Eq. (10) with p_{i,n} shifted by s_i = mu_i |d_T,i| evaluated at its own
 * solution. Indeed, with y_i = d_i + [s_i, 0, 0]: sliding (gamma_i on the boundary of K_i,
 * gamma_i != 0) puts y_i on the boundary of K_i*, y_n = mu |y_T|, hence Phi/h + v_n =
 * d_n = 0 and the friction opposes the slip with |gamma_T| = mu gamma_n; open (gamma_i = 0)
 * needs y_i in K_i*, i.e. d_n >= 0; sticking needs y_i = 0, i.e. d_i = 0. No lift-off.
 *
 * Solution: an outer fixed point on s around any CCP solver,
 *     s^0 = mu |d_T(nu^0)|  (nu^0 = the warm-start guess, projected onto C),
 *     nu^{k+1} = CCP solution with p = p0 + [s^k, 0, 0] per contact, started from nu^k,
 *     s^{k+1}  = mu |d_T(nu^{k+1})|   (or, under-relaxed, s^k + omega (mu |d_T| - s^k)),
 *                                      stop when max_i |s^{k+1}_i - s^k_i| <= exact_tol
 *                                      or nu^{k+1} solves (E) to the solver's tol
 *                                      (clab_ccp_residual_exact <= tol).
 * (The tangential part of d does not depend on s, so s^{k+1} reads directly off the shifted
 * solution.) exact_update=inner also refreshes s inside the solver iterations: the Gauss-
 * Seidel solver before each contact's local solve and after each sweep, the others after
 * every iteration (clab_desaxce_block/_all below, called through clab_ccp_options.desaxce_p0);
 * the outer loop still checks the fixed point at the end.
 *
 * (E) is NOT a convex problem: it is not the optimality condition of any convex program, and
 * existence and uniqueness of its solutions are not guaranteed in general (they are for one
 * contact and for small mu times the coupling of normal and tangential compliances). The
 * fixed point may converge slowly, cycle or diverge. When it has not converged after
 * exact_max_outer solves, the step keeps the last iterate (the solution of the last shifted
 * CCP, a consistent velocity update), counts the step in fixed_point_failures of the solver
 * statistics (contactlab run warns about it) and carries on, like an iteration-limit hit. */
#ifndef CLAB_FRICTION_EXACT_H
#define CLAB_FRICTION_EXACT_H

#include <stdio.h>

#include "ccp_solver.h"
#include "clab_backend.h"
#include "clab_options.h"

enum { CLAB_FRICTION_RELAXED = 0, CLAB_FRICTION_EXACT = 1 };
enum { CLAB_EXACT_OUTER = 0, CLAB_EXACT_INNER = 1 };

typedef struct clab_friction_exact {
    /* options */
    int friction;       /* CLAB_FRICTION_RELAXED (seed 000, default) or CLAB_FRICTION_EXACT */
    int update;         /* CLAB_EXACT_OUTER (default) or CLAB_EXACT_INNER */
    double tol;         /* exact_tol: fixed point reached when max_i |Delta s_i| <= tol [m/s]
                           (or when the exact residual is below the solver's tol) */
    long max_outer;     /* exact_max_outer: CCP solves per step at most */
    double omega;       /* exact_omega: s <- s + omega (mu |d_T| - s), in (0, 1] (1: plain) */
    /* scratch, reused from step to step */
    double *p0;         /* [n] the unshifted p of Eq. (10) [m/s] */
    double *d;          /* [n] composite velocities */
    double *u;          /* [6 nbodies] M^-1 P nu */
    double *history;    /* inner residuals of every solve of the last step, concatenated */
    size_t cap_p0, cap_d, cap_u, cap_history, nhistory;
    /* the last step */
    long outer;         /* CCP solves (outer iterations) */
    double change;      /* max_i |Delta s_i| at the last outer iteration [m/s] */
    double residual;    /* exact-Coulomb residual of (E), clab_ccp_residual_exact [m/s] */
    int converged;      /* change <= tol, or residual <= the solver's tol */
    /* totals over the run */
    long total_outer;   /* outer iterations summed over steps */
    long failures;      /* steps whose fixed point did not converge within max_outer */
} clab_friction_exact;

void clab_exact_init(clab_friction_exact *x);
void clab_exact_free(clab_friction_exact *x);

/* Read the options friction=relaxed|exact, exact_update=outer|inner, exact_tol=X [m/s],
 * exact_max_outer=N, exact_omega=X (marking them used); CLAB_EINVAL with a message on a bad
 * value. */
int clab_exact_options(clab_friction_exact *x, clab_options *opt, clab_error *err);

/* Solve (E) for the problem P (its p unshifted on entry; on exit p holds p0 + the shift of
 * the last solve, so N nu + p is the modified velocity of the returned nu up to the last
 * change of s). nu: initial guess on entry, the last iterate on exit. res: iterations summed
 * over the outer iterations, the last solve's residual and flag, the concatenated history.
 * Returns CLAB_OK, CLAB_EMAXITER when the last CCP solve stopped at max_iter (outer
 * non-convergence is not an error: see x->converged, x->failures), or the solver's error. */
int clab_exact_solve(clab_friction_exact *x, clab_ccp *P, const clab_ccp_solver_type *solver,
                     const clab_ccp_options *o, double *nu, clab_ccp_work *W, clab_ccp_result *res, clab_error *err);

/* The exact-Coulomb residual, the natural map of (E) scaled like clab_ccp_residual:
 *     r_E(nu) = max_i |gamma_i - Proj_Ki(gamma_i - t_i (d_i + [mu_i |d_T,i|, 0, 0]))| / t_i,
 * and |b_j| for joint rows, where d = N nu + p with the UNSHIFTED p [m/s]. (Siconos'
 * fc3d_compute_error uses the same modified velocity, with rho = 1 and a 2-norm.) */
double clab_ccp_residual_exact(const clab_ccp *P, const double *nu, const double *d);

/* Inner De Saxce update (exact_update=inner), for the solvers: given p0 (the unshifted p)
 * and the current composite velocity of contact block i (g, 3 values, computed with the
 * current P->p), set P->p[3i] = p0[3i] + mu_i |g_T| and move g_n by the same change.
 * P->p is the problem's shared array: only these calls change it during a solve. */
void clab_desaxce_block(const clab_ccp *P, const double *p0, size_t i, double g[3]);
/* The same for every contact block of d = N nu + p (length P->n). */
void clab_desaxce_all(const clab_ccp *P, const double *p0, double *d);

/* Statistics (fields outer_iterations ... exact_residual of clab_solver_stats; zeros when
 * friction=relaxed), metadata (dvi_friction, dvi_exact_*), checkpoint of the counters. */
void clab_exact_stats(const clab_friction_exact *x, clab_solver_stats *st);
void clab_exact_meta(const clab_friction_exact *x, clab_options *m);
int clab_exact_save(const clab_friction_exact *x, FILE *f, clab_error *err);
int clab_exact_load(clab_friction_exact *x, FILE *f, clab_error *err);

#endif
