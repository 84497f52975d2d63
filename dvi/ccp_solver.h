/* ccp_solver.h: iterative solvers for the CCP of Eq. (10) of seed 000 (problem in ccp.h).
 *
 * Siconos style: the problem is data, the options a separate struct, and each algorithm a
 * type object in its own file taking (problem, options, initial guess) and returning the
 * iteration count and the residual history:
 *
 *     clab_ccp_options o = clab_ccp_default_options();
 *     o.tol = 1e-8;
 *     rc = clab_ccp_solver_apgd.solve(&P, &o, nu, &work, &res, &err);
 *
 * The fast solvers (fast_*.c; the plain ones: plain_solvers.c): projected Jacobi (jacobi), projected Gauss-Seidel/SOR contact by
 * contact (gs), Nesterov's accelerated projected gradient with adaptive step and restart
 * (apgd; Mazhar, Heyn, Tasora, Negrut 2015) and Barzilai-Borwein spectral projected gradient
 * with a non-monotone line search (bb; Birgin, Martinez, Raydan 2000).
 *
 * Residual (residual.c), the same for every solver: the natural map of the CCP scaled to a
 * velocity,
 *     r(nu) = max_k |nu_k - Proj_Ck(nu_k - t_k d_k)| / t_k   [m/s],   d = N nu + p,
 * block k over contacts and joints, t_k = size_k / trace(N_kk) (an inverse mean diagonal of
 * the block, in kg). r = 0 exactly at a solution of Eq. (10). Its meaning: a sticking contact
 * (gamma inside K) gets r = |d_k|, the velocity by which the contact violates the no-slip,
 * no-penetration condition; a free (bilateral) row gets |b_j|, its velocity-level constraint
 * violation; an open contact (gamma = 0) gets 0 once d_k lies in the dual cone.
 *
 * Return values: CLAB_OK when r <= tol; CLAB_EMAXITER when the iteration limit was reached
 * (nu then holds the best iterate the solver has and res describes it); CLAB_ENUMERIC on a
 * non-finite iterate; CLAB_ENOMEM. */
#ifndef CLAB_CCP_SOLVER_H
#define CLAB_CCP_SOLVER_H

#include "ccp.h"

typedef struct clab_ccp_options {
    long max_iter; /* iteration limit, >= 1 (default 1000) */
    double tol;    /* stop when the residual r <= tol [m/s] (default 1e-6) */
    double omega;  /* relaxation: jacobi step factor, gs SOR factor in (0, 2); apgd, bb: unused.
                      Default: the solver's default_omega (1 when it has none) */
    const double *desaxce_p0; /* NULL (default), or the unshifted p [n]: exact friction with the
                                 De Saxce shift refreshed inside the iterations
                                 (friction_exact.h, exact_update=inner); then, and only then,
                                 a solver changes the normal entries of P->p */
} clab_ccp_options;

/* Outcome of one solve. */
typedef struct clab_ccp_result {
    long iterations;       /* iterations done (0 when the initial guess already met tol) */
    double residual;       /* residual r of the returned nu [m/s] */
    int converged;         /* residual <= tol */
    const double *history; /* [nhistory] r after each iteration, owned by the work struct */
    size_t nhistory;       /* = iterations */
    long body_passes;      /* passes u = M^-1 P x over all bodies, set-up included: the products
                              with N (each completed by a pass over the contacts). jacobi: one
                              an iteration + 1; apgd: one an iteration and one a backtracking
                              step, + 2 (N x_0, the Lipschitz estimate); bb: one an iteration,
                              one a refresh, + 2; gs: its refreshes of u + 1 (a sweep is no
                              product). For the benchmarks: cost per product */
} clab_ccp_result;

/* Scratch arrays of the solvers, reused from solve to solve (grown on demand only). */
#define CLAB_CCP_WORK_SLOTS 12
typedef struct clab_ccp_work {
    double *slot[CLAB_CCP_WORK_SLOTS]; /* scratch arrays */
    size_t cap[CLAB_CCP_WORK_SLOTS];   /* their lengths */
    double *history;                   /* [cap_history] residual history of the last solve */
    size_t cap_history;
} clab_ccp_work;

void clab_ccp_work_init(clab_ccp_work *W);
void clab_ccp_work_free(clab_ccp_work *W);
/* Scratch slot i with at least len doubles (contents undefined); NULL when out of memory. */
double *clab_ccp_work_get(clab_ccp_work *W, int i, size_t len);

typedef struct clab_ccp_solver_type {
    const char *name;          /* "apgd", "gs", "jacobi", "bb" */
    const char *summary;       /* one line */
    double default_omega;      /* relaxation default (0 when unused) */
    /* nu: initial guess on entry (any values: it is projected onto C first), solution on exit */
    int (*solve)(const clab_ccp *P, const clab_ccp_options *o, double *nu, clab_ccp_work *W, clab_ccp_result *res,
                 clab_error *err);
} clab_ccp_solver_type;

extern const clab_ccp_solver_type clab_ccp_solver_jacobi; /* fast_jacobi.c */
extern const clab_ccp_solver_type clab_ccp_solver_gs;     /* fast_gs.c */
extern const clab_ccp_solver_type clab_ccp_solver_apgd;   /* fast_apgd.c */
extern const clab_ccp_solver_type clab_ccp_solver_bb;     /* fast_bb.c */

/* The solvers, NULL-terminated, and lookup by name (NULL when unknown). */
const clab_ccp_solver_type *const *clab_ccp_solvers(void);
const clab_ccp_solver_type *clab_ccp_solver_lookup(const char *name);

/* max_iter 1000, tol 1e-6 m/s, omega = the solver's default (1 when solver is NULL). */
clab_ccp_options clab_ccp_default_options(const clab_ccp_solver_type *solver);

/* ---- residual.c ---- */

/* The residual r(nu) above, given d = N nu + p [m/s]. */
double clab_ccp_residual(const clab_ccp *P, const double *nu, const double *d);

/* Complementarity diagnostics of Eq. (7)-(8) for nu and d = N nu + p. */
typedef struct clab_ccp_diagnostics {
    double gamma_outside_K;  /* max_i dist(gamma_i, K_i) [N s] */
    double d_outside_dual;   /* max_i dist(d_i, K_i*) = dist(-d_i, K_i°) (contacts) and
                                max_j |b_j| (bilateral rows, B_j° = {0}) [m/s] */
    double complementarity;  /* max_k |nu_k . d_k| over blocks [N m] */
} clab_ccp_diagnostics;
void clab_ccp_diagnose(const clab_ccp *P, const double *nu, const double *d, clab_ccp_diagnostics *out);

#endif
