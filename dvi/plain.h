/* plain.h: the plain path of the DVI backend (option fast=off): the products with
 * N = D^T M^-1 D of the Tasora-Anitescu CCP, Eq. (10) of seed 000, formed without assembling N
 * (plain_products.c), and the four solvers in their textbook form (plain_solvers.c).
 * Single-threaded, one block at a time, sums in the order of the unknowns. Here D stands for
 * the whole P = [D G] of ccp.h (contacts, then joint rows). Not installed.
 *
 * The fast path (fast_ccp.c, fast_*.c) forms the same numbers by other routes: for the
 * contacts of spheres from a compact record (other roundings), two contacts at a time (the
 * same bits), sums per chunk of 512 contacts (the same bits below one chunk), APGD's
 * backtracking test over the bodies (other roundings). tests/test_dvi_plain.c holds the two
 * to the bit where they do the same operations and to a stated tolerance elsewhere. */
#ifndef CLAB_DVI_PLAIN_H
#define CLAB_DVI_PLAIN_H

#include "ccp_solver.h"
#include "sums.h"

/* f = D gamma per body, world frame [6 nbodies]: the force (sum of +-F_i) and the torque (sum
 * of +-r x F_i) of the impulses F_i = t_n gamma_n + t_u gamma_u + t_w gamma_w of the blocks;
 * fixed bodies get 0 (they take no impulse: M^-1 = 0). */
void clab_ccp_plain_D(const clab_ccp *P, const double *gamma, double *f);

/* u = M^-1 D gamma per body, world frame: (rdot change [m/s], omega change [rad/s]) [6 nbodies]. */
void clab_ccp_plain_minv_D(const clab_ccp *P, const double *gamma, double *u);

/* The velocity update of Eq. (9) per body, v(l+1) - v*: (rdot change, wbar change = Jbar^-1
 * A^T (omega change)) [6 nbodies], the body-frame angular velocity the bodies keep. */
void clab_ccp_plain_dv(const clab_ccp *P, const double *gamma, double *dv);

/* out = D^T u + C gamma (C = diag(compliance); gamma may be NULL: no compliance term), u in
 * the world frame: (D_i^T u)_q = t_q . (v_b + omega_b x r_b - v_a - omega_a x r_a). */
void clab_ccp_plain_Dt(const clab_ccp *P, const double *u, const double *gamma, double *out);

/* d_i = (D^T u + C gamma + p)_i for block i alone (its 1 or 3 rows), u = M^-1 D gamma. */
void clab_ccp_plain_d_block(const clab_ccp *P, size_t i, const double *u, const double *gamma, double d[3]);

/* out = N gamma = D^T M^-1 D gamma + C gamma; u is scratch [6 nbodies]. */
void clab_ccp_plain_N(const clab_ccp *P, const double *gamma, double *u, double *out);

/* |N (x - 1)| / |x - 1|, floored by the largest eigenvalue of the diagonal blocks (the start
 * of APGD and BB, as clab_ccp_lipschitz_guess); a, b scratch [n], u [6 nbodies]. */
double clab_ccp_plain_lipschitz(const clab_ccp *P, const double *x, double *a, double *b, double *u);

/* The plain solvers, the same names and options as the fast ones of ccp_solver.h; the
 * De Saxce inner update (clab_ccp_options.desaxce_p0) is not supported (CLAB_EINVAL). */
extern const clab_ccp_solver_type clab_ccp_plain_jacobi;
extern const clab_ccp_solver_type clab_ccp_plain_gs;
extern const clab_ccp_solver_type clab_ccp_plain_apgd;
extern const clab_ccp_solver_type clab_ccp_plain_bb;
/* The plain solver of the same name as a fast one (NULL when there is none). */
const clab_ccp_solver_type *clab_ccp_plain_solver(const char *name);
/* The same, summing with sums: CLAB_SUMS_SEQUENTIAL (the objects above) or CLAB_SUMS_EXACT
 * (sums.h: the global sums exactly rounded; the option sums=exact). */
const clab_ccp_solver_type *clab_ccp_plain_solver_sums(const char *name, int sums);

/* What a plain solve does beyond its options: how it sums (CLAB_SUMS_*) and an observer
 * called after every iteration with its iteration number (1, 2, ..) and iterate nu (jacobi,
 * gs, bb: the iterate; apgd: x_{k+1}, before the momentum), or NULL. */
typedef struct clab_ccp_plain_control {
    int sums;
    void (*observe)(void *ctx, long iteration, const double *nu);
    void *ctx;
} clab_ccp_plain_control;
/* Solve with the plain solver of that name under ctl (CLAB_EINVAL for an unknown name). */
int clab_ccp_plain_solve(const char *name, const clab_ccp_plain_control *ctl, const clab_ccp *P,
                         const clab_ccp_options *o, double *nu, clab_ccp_work *W, clab_ccp_result *res,
                         clab_error *err);

/* The block steps of the plain solvers, shared with the split solver (split_solvers.c):
 * fi the block's factors (CLAB_BLOCK_FACTORS, solver_internal.h), rows at blocks[i].first.
 *   jacobi: x_i <- Proj_Ki(x_i - omega/L_i d_i) (a joint: x_j - omega N_jj^-1 d_j);
 *   gs: the exact local solve of block i from u = M^-1 D gamma, relaxed by omega, u updated;
 *   gs_add_velocity: u_a, u_b += M^-1 D_i dx (m = the block's rows). */
void clab_ccp_plain_jacobi_block(const clab_ccp *P, size_t i, const double *fi, double omega, const double *d,
                                 double *x);
void clab_ccp_plain_gs_block(const clab_ccp *P, size_t i, const double *fi, double omega, double *u, double *gamma);
/* gs_block's step from a given d_i (the block's rows of N gamma + p): gamma_i updated in place,
 * dx = its change; returns 1 when it moved */
int clab_ccp_plain_local_step(const clab_ccp *P, size_t i, const double *fi, double omega, const double *d,
                              double *gamma, double *dx);
void clab_ccp_plain_gs_add_velocity(const clab_ccp *P, size_t i, int m, const double *dx, double *u);
/* APGD's doublings of L per iteration at most */
#define CLAB_PLAIN_APGD_MAX_BACKTRACK 60
/* Gauss-Seidel's sweeps between recomputations of u = M^-1 D gamma (round-off drift) */
#define CLAB_PLAIN_GS_REFRESH 25
/* max over the blocks of lambda_max(N_kk): the floor of the Lipschitz estimate */
double clab_ccp_plain_block_lmax(const clab_ccp *P);

#endif
