/* clab_fclib_check.h: an independent check of a solution of an FCLIB problem's Coulomb
 * conditions, contact by contact, and the comparison of two solutions (bodies' motion,
 * internal stresses, slip pattern) for `contactlab bench fclib` (doc/fclib.md). Plain C on
 * the problem's arrays: no libfclib, no Siconos. Not installed.
 *
 * Coulomb's problem of each contact i (clab_fclib.h), y_i the De Saxce modified velocity:
 *     r_i ∈ K_i,   y_i = u_i + [mu_i |u_T,i|, 0, 0] ∈ K_i*,   r_i . y_i = 0,
 * K_i = {|r_T| <= mu_i r_n}, K_i* = {mu_i |y_T| <= y_n}, u = W r + q. */
#ifndef CLAB_FCLIB_CHECK_H
#define CLAB_FCLIB_CHECK_H

#include <stddef.h>

#include "clab_fclib.h"

typedef struct clab_fc_check {
    double cone;        /* max_i dist(r_i, K_i) [N s] */
    double dual;        /* max_i dist(y_i, K_i*) [m/s] */
    double compl_vel;   /* max_i |r_i . y_i| / |r_i| [m/s]: the modified velocity along the reaction (0 when r_i = 0) */
    double compl_abs;   /* max_i |r_i . y_i| [N s m/s] */
    double consistency; /* max_k |u_k - (W r + q)_k| [m/s]: u is the velocity of r */
    size_t open;        /* r_n <= 1e-12 max_j r_n,j */
    size_t stick;       /* closed, |u_T| <= slip */
    size_t slide;       /* closed, |u_T| > slip */
} clab_fc_check;

/* status of contact i: 0 open, 1 sticking, 2 sliding (the thresholds of clab_fc_check) */
enum { CLAB_FC_OPEN = 0, CLAB_FC_STICK = 1, CLAB_FC_SLIDE = 2 };
int clab_fc_status(const clab_fc_problem *fp, const double *r, const double *u, double rn_min, double slip, size_t i);

/* the check of (r, u) with the slip threshold slip [m/s]; u as given (consistency against W r + q) */
void clab_fc_check_coulomb(const clab_fc_problem *fp, const double *r, const double *u, double slip, clab_fc_check *c);

/* v = M^-1 (H r + f) of the global form [ndof] (the bodies' velocities after the step), and
 * max_k |u_k - (H^T v + w)_k| into *consistency [m/s] when not NULL. CLAB_EINVAL without the
 * global form or with an M that is not a rigid-body M. */
int clab_fc_body_velocity(const clab_fc_problem *fp, const double *r, const double *u, double *v, double *consistency,
                          clab_error *err);

/* dr = H^T y + z with H z = 0: z changes no body velocity (internal stresses of a hyperstatic
 * system), H^T y does. y by conjugate gradients on H H^T y = H dr (to 1e-12 relative, at most
 * max_iter iterations). |H^T y|_2 and |z|_2 into *range, *null [N s]; the CG's iterations
 * returned (-1: out of memory). */
long clab_fc_split_nullspace(const clab_fc_problem *fp, const double *dr, long max_iter, double *range, double *null);

#endif
