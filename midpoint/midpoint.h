/* midpoint.h: the midpoint backend's state (internal). Solfec's constrained time stepping,
 * Eq. (9)-(13) of "Constraints" (seed 004):
 *   q^{t+h/2} = q^t + (h/2) u^t                                   (9)
 *   u^{t+h}   = u^t + h M^-1 f(q^{t+h/2}, u^t) + M^-1 H^T R        (10)
 *   U         = H(q^{t+h/2}) u^{t+h}                               (11)
 *   C(U, R)   = 0: Signorini-Coulomb with Newton's impact law      (12)
 *   q^{t+h}   = q^{t+h/2} + (h/2) u^{t+h}                          (13)
 * rows.c builds H and the Delassus blocks W_ij = H_i M^-1 H_j^T at q^{t+h/2}, gauss_seidel.c
 * solves U = W R + B contact by contact with the exact local law (local_solver.h), step.c is
 * the scheme, midpoint_backend.c the options and the backend type. */
#ifndef CLAB_MIDPOINT_H
#define CLAB_MIDPOINT_H

#include <stddef.h>

#include "clab_backend.h"
#include "local_solver.h"
#include "warmstart.h"

/* One contact at the midpoint configuration: its frame, gap, H blocks and local problem. */
typedef struct clab_mp_row {
    int body[2];        /* the free bodies of sides a, b (-1: fixed, no velocity) */
    double L[2][9];     /* H's linear blocks sigma [n u w]^T (3x3 row-major), sigma = -1 for a, +1 for b */
    double G[2][9];     /* H's angular blocks, acting on wbar: row r = sigma A(e)^T (s x f_r) */
    clab_vec3 n, u, w;  /* the frame at t + h/2 */
    double phi;         /* the gap at t + h/2 [m] */
    double mu, e;       /* friction and restitution of the pair */
    int active;         /* 1: phi <= gap_tol (closed), the contact enters the local dynamics */
    double Un0;         /* U_n^t = (H u^t)_n [m/s] */
    double B[3];        /* H u_free + (e min(U_n^t, 0), 0, 0) [m/s] */
    double W[9];        /* W_ii [m/(N s^2)... s/kg] */
    double R[3];        /* the impulse [N s], frame (n, u, w) at t + h/2 */
    size_t off, noff;   /* its off-diagonal blocks: offj[off .. off + noff), offW likewise */
} clab_mp_row;

typedef struct clab_midpoint {
    /* options */
    double tol;                /* Gauss-Seidel: max local residual [m/s] */
    long max_iter;             /* Gauss-Seidel sweeps per step at most */
    clab_mp_local_opt local;   /* the local Alart-Curnier Newton */
    double cor;                /* restitution; < 0: the material pair's */
    double gap_tol;            /* a contact is closed when its gap at t + h/2 is <= gap_tol [m] */
    int warm_start;            /* 1: start from the last step's impulses by contact key */
    /* per step, reused */
    clab_body *saved;          /* [cap_saved] the bodies at t (restored when a step fails) */
    size_t cap_saved;
    clab_mp_row *row;          /* [cap_row] one per contact record */
    size_t cap_row, nrow;
    size_t *offj;              /* off-diagonal blocks: the other contact j */
    double *offW;              /* and W_ij, 9 doubles each */
    size_t cap_off;
    size_t *bstart, *blist;    /* active contacts by body (CSR): blist[bstart[k] .. bstart[k+1]) */
    size_t cap_bstart, cap_blist;
    clab_vec3 *fnuw;           /* [cap_f] the last step's forces in each record's frame [N] */
    size_t cap_f, nf;
    clab_warmstart warm;       /* the last step's impulses by contact key (world vectors) [N s] */
    clab_warmstart warm_next;  /* this step's, swapped with warm at its end */
    double h;
    /* statistics */
    long solves, total_iterations, maxiter_hits, local_failures;
    long iterations;
    double residual, outside_K, normal_violation, complementarity;
} clab_midpoint;

/* rows.c: the rows of every record of c at q^{t+h/2} (the world holds q^{t+h/2}, saved the
 * bodies at t), U_n^t from u^t, and the contact's pair data. */
void clab_mp_rows(clab_midpoint *s, const clab_world *w, const clab_contacts *c, double h);
/* rows.c: B of the active rows from the world's velocities (u_free) */
void clab_mp_free_velocity(clab_midpoint *s, const clab_world *w);
/* rows.c: W_ii and the off-diagonal W_ij of active rows sharing a free body; CLAB_ENOMEM */
int clab_mp_delassus(clab_midpoint *s, const clab_world *w, clab_error *err);
/* rows.c: u += M^-1 H^T R over the active rows */
void clab_mp_apply_impulses(const clab_midpoint *s, clab_world *w);
/* gauss_seidel.c: solve C(W R + B, R) = 0 for every active row from the rows' R */
void clab_mp_gauss_seidel(clab_midpoint *s);
/* step.c: the backend's step */
int clab_mp_step(void *self, clab_world *w, const clab_contacts *c, double h, clab_error *err);

#endif
