/* ccp.h: the cone complementarity problem of one DVI step, Eq. (10) of seed 000, as data.
 *
 *     C  ∋  nu  ⊥  -(N nu + p)  ∈  C°,     N = P^T M^-1 P,     P = [D  G],
 *
 * or equivalently the QP of Eq. (11): min 1/2 nu^T N nu + p^T nu subject to nu_k in C_k.
 * nu = [gamma_1 .. gamma_NK, lambda_1 .. lambda_NB] holds impulses [N s]; p and N nu are
 * velocities [m/s]. The composite velocity of block k is (N nu + p)_k: d_i for contact i
 * (d_i = [Phi_i/h + v_n, v_u, v_w] at v(l+1)), b_j for a bilateral row. Sign convention:
 * the seed writes -d_i ∈ K_i°, the polar cone; equivalently d_i ∈ K_i* = -K_i°, the dual
 * cone {d : d_n >= mu |d_T|}. This code names that set "the dual cone" throughout.
 *
 * The problem is data only (Siconos style): the solvers (ccp_solver.h) read it, never change
 * it. Two things may be changed between solves without rebuilding:
 *   - p, e.g. the De Saxce shift p_{i,n} += mu_i |v_T,i| of an exact-Coulomb fixed point;
 *   - compliance[k], a diagonal added to N (N + diag(compliance)) for a regularized DVI
 *     (seed 001); call clab_ccp_update_blocks() afterwards, as the diagonal blocks include it.
 *
 * Storage. Every scalar unknown k (a "row" of P^T) acts on two bodies a and b:
 *     (P^T v)_k = lin_k . (rdot_b - rdot_a) + ang_a_k . wbar_a + ang_b_k . wbar_b,
 * so row k of P^T holds (-lin, ang_a) in body a's slots and (lin, ang_b) in body b's slots.
 * For contact i (rows 3i, 3i+1, 3i+2 = columns D_{i,n}, D_{i,u}, D_{i,w} of D_i) with
 * direction t in {n_i, u_i, w_i}:
 *     lin = t,   ang_a = -sbar_{i,A} x (A_A^T t),   ang_b = sbar_{i,B} x (A_B^T t),
 * which is D_i of seed 000 (translation A_i, rotation s~_{i,B} A_B^T A_i for B; minus both
 * for A). Bilateral rows follow the contacts. Rows are grouped into blocks: one cone block
 * of 3 rows per contact (K_i), one free block per joint (3 rows for a spherical joint, 1 for
 * a distance constraint; B_j = R, B_j° = {0}). */
#ifndef CLAB_CCP_H
#define CLAB_CCP_H

#include <stddef.h>
#include <stdint.h>

#include "clab_contact.h"
#include "clab_error.h"
#include "clab_world.h"

/* One row of P^T (80 bytes): the generalized direction of one scalar impulse. */
typedef struct clab_ccp_row {
    int a, b;        /* bodies (b gets +lin, a gets -lin) */
    double lin[3];   /* world direction t [-] */
    double ang_a[3]; /* rotational part for a, body frame of a [m] */
    double ang_b[3]; /* rotational part for b, body frame of b [m] */
} clab_ccp_row;

typedef enum {
    CLAB_CCP_CONE = 0, /* friction cone K_i = {x : mu x_n >= |x_T|}, 3 rows (n, u, w) */
    CLAB_CCP_FREE = 1  /* bilateral: any value, 1 or 3 rows */
} clab_ccp_kind;

/* One block of rows, a cone or a free group. */
typedef struct clab_ccp_block {
    size_t first; /* first row */
    int size;     /* rows: 3 (contact, spherical joint) or 1 (distance joint) */
    int kind;     /* clab_ccp_kind */
    double mu;    /* friction coefficient mu_i (cone blocks; 0 = frictionless) */
    double Nii[9];/* diagonal block of N + diag(compliance), row major size x size [1/kg] */
    double t_res; /* residual scale size / trace(Nii) [kg]: see residual.c */
} clab_ccp_block;

/* One block (contact or joint) of P in the world frame, for the fast matrix-free products
 * (128 bytes, two cache lines). With omega = A wbar the world angular velocity and
 * r = A sbar the contact (attachment) point from a body's centre in the world frame, row q of
 * the block gives
 *     (P^T v)_q = t_q . (rdot_b + omega_b x r_b - rdot_a - omega_a x r_a),
 * the same number as the row form above (ang_b . wbar_b = (sbar_b x A_b^T t) . wbar_b =
 * t . (omega_b x r_b)); and P nu puts the world impulse F = sum_q t_q nu_q on b (torque
 * r_b x F) and -F on a (torque -r_a x F). */
typedef struct clab_ccp_item {
    double t[9];    /* row directions t_0, t_1, t_2, world (n, u, w of a contact; the axes of a
                       spherical joint; a distance joint has t_1 = t_2 = 0) */
    double r[6];    /* r_a = A_a sbar_a (0..2) and r_b = A_b sbar_b (3..5): the point from
                       the centres of a and b, world [m] */
    int32_t a, b;   /* bodies */
} clab_ccp_item;

/* The compact record of a contact whose arms lie along its normal (72 bytes): r_a = ra n and
 * r_b = rb n in the world frame (a sphere's contact point lies on the line of centres; a
 * fixed body gets 0: it never moves), so with w = n x u (clab_v3_frame) and
 * c = rb omega_b - ra omega_a the rows of the item reduce to
 *     v = v_b - v_a + c x n,   (D_i^T v)_n = n.(v_b - v_a),
 *     (D_i^T v)_u = u.(v_b - v_a) + w.c,   (D_i^T v)_w = w.(v_b - v_a) - u.c
 * (u.(c x n) = c.(n x u) = c.w, w.(c x n) = c.(n x w) = -c.u, n.(c x n) = 0), and the world
 * impulse is F = n x_0 + u x_1 + w x_2 as before. The same numbers as the item's up to
 * rounding; the solvers' contact loops read these 72 bytes instead of its 128. */
typedef struct clab_ccp_sph {
    double n[3], u[3]; /* normal and first tangent, world [-] */
    double ra, rb;     /* signed arm lengths along n: r_a = ra n, r_b = rb n [m] */
    int32_t a, b;      /* bodies */
} clab_ccp_sph;

typedef struct clab_ccp {
    size_t nbodies;      /* bodies of the world */
    size_t ncontacts;    /* N_K: cone blocks 0 .. NK-1, rows 0 .. 3 NK - 1 */
    size_t njoint_rows;  /* N_B: bilateral rows after the contact rows */
    size_t n;            /* unknowns 3 N_K + N_B */
    size_t nblocks;      /* N_K + number of joints */
    double h;            /* time step the data was built for [s] */
    double *invm;        /* [nbodies] 1/m, 0 for fixed bodies [1/kg] */
    double *invJ;        /* [3 nbodies] 1/Jbar (principal, body frame), 0 for fixed [1/(kg m^2)] */
    clab_ccp_row *rows;  /* [n] rows of P^T */
    clab_ccp_block *blocks; /* [nblocks] */
    double *p;           /* [n] the vector p of Eq. (10) [m/s]; may be changed between solves */
    double *compliance;  /* [n] diagonal added to N, 0 = rigid [1/kg]; see clab_ccp_update_blocks */
    size_t cap_bodies, cap_rows, cap_blocks; /* allocated lengths */
    /* the same P in the world frame for the fast products (ccp.c), built with the rows */
    clab_ccp_item *items; /* [nblocks] one per block, 64-byte aligned */
    double *minv;         /* [8 nbodies] per body 1/m, then the world inverse inertia
                             A Jbar^-1 A^T (xx, xy, xz, yy, yz, zz), 0; all 0 for fixed bodies */
    double *rot;          /* [9 nbodies] A(e) of each body, row major */
    size_t *inc_start;    /* [nbodies + 1] body k's incidences are inc[inc_start[k] .. inc_start[k+1]) */
    uint32_t *inc;        /* [2 nblocks] 2 block + side (0: body a, 1: body b), blocks increasing;
                             moving bodies only (fixed bodies get no velocity) */
    double *inc_r;        /* [3 * 2 nblocks] per incidence its arm, signed: -r_a (side a) or r_b,
                             so the torque of the block's impulse F on the body is inc_r x F */
    double *cone;         /* [4 ncontacts] per contact mu_i, t_res, lambda_max(N_ii) [1/kg], 1/t_res
                             (compact copy of the blocks for the solvers' loops) */
    clab_ccp_sph *sph;    /* [ncontacts] the compact records (valid where the chunk's flag is set) */
    unsigned char *sph_chunk; /* [chunks of CLAB_CCP_CHUNK contacts] 1: every contact of the chunk
                                 has a compact record (arms along n to 1e-13 |r|, w = n x u) */
    int has_compliance;   /* some compliance[k] != 0 (set by clab_ccp_update_blocks) */
} clab_ccp;

/* Empty problem (no allocation). */
void clab_ccp_init(clab_ccp *P);
void clab_ccp_free(clab_ccp *P);

/* Build the CCP of Eq. (10) from the world and the contact records (Eq. (5) of seed 000).
 * The bodies' velocities must already be v* = v(l) + M^-1 f(l) (the free velocity), so that
 *     p_i = d_{i,0} + D_i^T v*,  d_{i,0} = [max(Phi_i/h, -recovery_speed), 0, 0],
 *     p_j = b_{j,0} = g_j/h + G_j^T v*            (joints, no cap);
 * mu_i comes from the material mixing rule. Reuses the arrays (no allocation once they are
 * large enough). compliance is reset to 0. CLAB_EINVAL for a joint between two fixed bodies
 * or a degenerate distance joint (attachment points coincide), CLAB_ENOMEM. */
int clab_ccp_build(clab_ccp *P, const clab_world *w, const clab_contacts *c, double h, double recovery_speed,
                   clab_error *err);

/* Recompute the diagonal blocks Nii and residual scales (after changing compliance; the
 * fast products notice a nonzero compliance here, so this call is required). */
void clab_ccp_update_blocks(clab_ccp *P);

/* u = M^-1 P nu, per body [6 nbodies]: (rdot change [m/s], wbar change [rad/s]) of Eq. (9). */
void clab_ccp_minv_P(const clab_ccp *P, const double *nu, double *u);
/* out = P^T u + compliance .* nu (nu may be NULL: no compliance term) [m/s]. */
void clab_ccp_Pt(const clab_ccp *P, const double *u, const double *nu, double *out);
/* out = N nu = P^T M^-1 P nu + compliance .* nu, matrix-free; u is scratch [6 nbodies] (it
 * receives M^-1 P nu in the world frame: rdot change, world angular velocity change).
 * Parallel with OpenMP and deterministic: the same bytes for any number of threads. */
void clab_ccp_apply_N(const clab_ccp *P, const double *nu, double *u, double *out);
/* d = N nu + p: the composite velocities d_i, b_j of Eq. (10), the gradient of Eq. (11). */
void clab_ccp_d(const clab_ccp *P, const double *nu, double *u, double *d);
/* Objective of Eq. (11), 1/2 nu.N nu + p.nu, from nu and d = N nu + p: 1/2 nu.(d + p) [J]. */
double clab_ccp_objective(const clab_ccp *P, const double *nu, const double *d);

/* Dense N (n x n, row major, compliance included), assembled as P^T M^-1 P from a dense P:
 * for small problems, tests and diagnostics. Nd must hold n*n doubles. CLAB_ENOMEM. */
int clab_ccp_dense_N(const clab_ccp *P, double *Nd);

/* Project every block of nu onto its set C_k (cone blocks onto K_i, free blocks unchanged). */
void clab_ccp_project(const clab_ccp *P, double *nu);

/* the steps' scratch: *p holds at least n doubles (grown by half again when short; the
 * contents kept); CLAB_OK or CLAB_ENOMEM (*p unchanged) */
int clab_ccp_grow(double **p, size_t *cap, size_t n);

#endif
