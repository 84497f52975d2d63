/* clab_fclib.h: frictional-contact problems in and out as FCLIB files (Acary, Bremond, Huber
 * 2018: an HDF5 layout written and read by libfclib). Not installed; the contactlab program
 * and the tests link it (built with FCLIB; without it every call below returns CLAB_EINVAL
 * with the message clab_fc_missing(), fclib_none.c).
 *
 * One DVI step of contactlab (the Tasora-Anitescu CCP of Eq. (10) of seed 000) in FCLIB's
 * two forms (doc/fclib.md for the mapping):
 *   global:  M v = H r + f,   u = H^T v + w,   K ∋ r ⊥ u + [mu |u_T|, 0, 0] ∈ K*,
 *            v = (rdot, omega) of the moving bodies (6 each, omega = A wbar in the world frame:
 *            M = diag(m I, A Jbar A^T)), H = D in the world frame (column k = row k of D^T),
 *            r = gamma [N s], f = M v* (v* the free velocity), w_i = [max(Phi_i/h, -recovery), 0, 0];
 *   local:   W r + q = u,      W = H^T M^-1 H = N,   q = H^T M^-1 f + w = p of Eq. (10).
 * FCLIB's problem is Coulomb's (De Saxce's modified velocity u + [mu |u_T|, 0, 0]); the
 * Tasora-Anitescu CCP is the same data with that shift removed.
 *
 * The problem in contactlab's terms: compressed-column matrices (FCLIB's nz = -1). */
#ifndef CLAB_FCLIB_H
#define CLAB_FCLIB_H

#include <stddef.h>

#include "ccp.h"
#include "clab_error.h"
#include "clab_sim.h"
#include "dvi_problem.h"

typedef struct clab_fc_csc {
    int m, n;  /* rows, columns */
    int *p;    /* [n + 1] column starts */
    int *i;    /* [p[n]] row indices */
    double *x; /* [p[n]] values */
} clab_fc_csc;

typedef struct clab_fc_problem {
    size_t nc;           /* contacts (3 unknowns each) */
    clab_fc_csc W;       /* local: W (3 nc x 3 nc) [1/kg] */
    double *q;           /* [3 nc] [m/s] */
    double *mu;          /* [nc] */
    int has_local;       /* the file carried /fclib_local (else W, q formed from the global form) */
    int has_global;      /* M, H, f, w below are set */
    clab_fc_csc M;       /* global: M (ndof x ndof) [kg, kg m^2] */
    clab_fc_csc H;       /* global: H (ndof x 3 nc) */
    double *f;           /* [ndof] [N s] */
    double *w;           /* [3 nc] [m/s] */
    int has_guess;       /* r, u (and v when global) of a guess */
    double *r, *u, *v;   /* the guess: impulses [N s], local velocities [m/s], v [m/s, rad/s] */
    char title[256];     /* the info title of the file */
    char description[512];
} clab_fc_problem;

/* the message of a build without FCLIB: what to install */
const char *clab_fc_missing(void);
/* 1 when built with FCLIB */
int clab_fc_available(void);

void clab_fc_init(clab_fc_problem *fp);
void clab_fc_free(clab_fc_problem *fp);

/* The problem of the DVI backend's last step of s (dvi_problem.h) in both forms, with the
 * step's impulses and velocities as the guess. Call right after clab_sim_step (it reads the
 * new velocities and the step's contacts). CLAB_EINVAL for joints or a regularized DVI
 * (compliance: not a problem of FCLIB's forms), or not the DVI backend. */
int clab_fc_from_sim(const clab_sim *s, clab_fc_problem *fp, clab_error *err);

/* Write both forms (global when has_global) and the guess into path (replaced). CLAB_EIO. */
int clab_fc_write(const clab_fc_problem *fp, const char *path, clab_error *err);

/* Read a 3-D FCLIB problem: local, global or both, and the first guess when present. Checks
 * the layout before libfclib reads it: a file that is not HDF5, damaged, or without the
 * FCLIB groups gets CLAB_EIO / CLAB_EINVAL with what is wrong, never a crash. When only the
 * global form is present, W and q are formed as H^T M^-1 H and H^T M^-1 f + w (M must then
 * be diagonal). */
int clab_fc_read(const char *path, clab_fc_problem *fp, clab_error *err);

/* helpers: an m x n matrix with room for nnz entries (p zeroed), CLAB_ENOMEM;
 * M^-1 of a rigid-body M (6 columns a body: m I beside a 3x3 inertia block), 10 numbers a
 * body (1/m, then the inverse inertia row major), CLAB_EINVAL naming the body otherwise;
 * W = H^T M^-1 H with those blocks, sorted row indices, CLAB_ENOMEM. */
int clab_fc_csc_alloc(clab_fc_csc *A, int m, int n, size_t nnz);
int clab_fc_M_inverse(const clab_fc_csc *M, double *Minv, clab_error *err);
int clab_fc_form_W(const clab_fc_csc *H, const double *Minv, clab_fc_csc *W);

/* u = W r + q with the file's W [3 nc]. */
void clab_fc_local_velocity(const clab_fc_problem *fp, const double *r, double *u);

/* Errors of Coulomb's problem at (r, u = W r + q), Siconos's fc3d convention: the natural map
 *     F_i = r_i - Proj_Ki(r_i - (u_i + [mu_i |u_T,i|, 0, 0]))     (rho = 1)
 * and e = |F|_2 / |q|_2 (fc3d_compute_error with norm |q|_2; 1 + |q| would make it absolute
 * for small q). The FCLIB merit (fclib_merit_local, MERIT_1) is |F|_2 / (1 + sqrt(|q|_2)).
 * Both mix impulses and velocities (rho = 1 in the file's units). */
double clab_fc_error_siconos(const clab_fc_problem *fp, const double *r, const double *u);
double clab_fc_merit_fclib(const clab_fc_problem *fp, const double *r);

/* The CCP of Eq. (10) that contactlab's solvers take, rebuilt from the global form: one body
 * per 6 columns of M (m I beside an inertia block, clab_fc_M_inverse) plus a fixed body 0 for the contacts with
 * one moving body, the rows of D^T from H (each contact's 3 columns on at most two bodies,
 * their linear parts opposite, the directions orthonormal), p = q, mu. CLAB_EINVAL with the
 * reason when the file is not such a rigid-body problem (the local form alone has no bodies:
 * contactlab's matrix-free solvers need them). */
int clab_fc_to_ccp(const clab_fc_problem *fp, clab_ccp *P, clab_error *err);

#endif
