/* local_solver.h: the exact Coulomb law of one contact, C(U, R) = 0 of Eq. (12) of Solfec's
 * "Constraints" (seed 004), on its local dynamics U = W R + B (W: the 3x3 diagonal block of the
 * Delassus operator, B: everything else), by Alart and Curnier's augmented Lagrangian with a
 * semismooth (generalized) Newton method and a backtracking line search.
 *
 * Frame (n, u, w) as the contact's: U = (U_n, U_u, U_w) the relative velocity of body b
 * against a [m/s], R = (R_n, R_u, R_w) the impulse on b [N s]. The law is Signorini-Coulomb
 * with friction coefficient mu:
 *   U_n >= 0, R_n >= 0, U_n R_n = 0;  |R_t| <= mu R_n, and |R_t| < mu R_n => U_t = 0,
 *   U_t != 0 => R_t = -mu R_n U_t/|U_t|.
 * Newton's impact law enters through B (the caller shifts B_n by e min(U_n^t, 0), so that the
 * U_n here is U_n^{t+h} + e U_n^-).
 *
 * Alart-Curnier (1991): with rho > 0, tau_n = R_n - rho U_n, tau_t = R_t - rho U_t,
 *   F_n(R) = R_n - [tau_n]_+,
 *   F_t(R) = R_t - Proj_{disk of radius mu [tau_n]_+}(tau_t),
 * and F(R) = 0 exactly when (U, R) obeys the law above. F is piecewise smooth; Newton's
 * method on it with the generalized Jacobian converges in finitely many steps in the sticking
 * and separating cases (F is then linear in R) and quadratically when sliding. */
#ifndef CLAB_MIDPOINT_LOCAL_SOLVER_H
#define CLAB_MIDPOINT_LOCAL_SOLVER_H

typedef struct clab_mp_local_opt {
    double tol;      /* stop when |F(R)|/rho <= tol [m/s] */
    long max_iter;   /* Newton steps at most */
    double rho;      /* augmentation factor: the contact's rho is rho 3/tr(W) [N s/(m/s)] (default 1) */
} clab_mp_local_opt;

typedef struct clab_mp_local_result {
    long iterations;  /* Newton steps taken */
    double residual;  /* |F(R)|/rho at the returned R [m/s] */
    int converged;    /* 1: residual <= tol */
} clab_mp_local_result;

/* The Alart-Curnier residual |F(R)|/rho [m/s] of R for U = W R + B (W row-major 3x3). */
double clab_mp_local_residual(const double W[9], const double B[3], double mu, double rho, const double R[3]);

/* Solve the law for R, starting from R (in/out); U (may be NULL) gets W R + B. */
clab_mp_local_result clab_mp_local_solve(const double W[9], const double B[3], double mu, const clab_mp_local_opt *opt,
                                         double R[3], double U[3]);

/* the rho of a block: opt->rho * 3/tr(W) (W's mean diagonal turned into an impulse per speed) */
double clab_mp_local_rho(const double W[9], const clab_mp_local_opt *opt);

#endif
