/* dvi_internal.h: the state of the DVI backend (dvi_backend.c: options, statistics,
 * checkpoints) and its time step (step.c). Not installed. */
#ifndef CLAB_DVI_INTERNAL_H
#define CLAB_DVI_INTERNAL_H

#include "ccp_solver.h"
#include "friction_exact.h"
#include "regularize.h"
#include "warmstart.h"

typedef struct clab_dvi {
    /* options */
    const clab_ccp_solver_type *solver; /* of the fast path (fast_*.c) or the plain one (plain_solvers.c) */
    int fast;                     /* 1: the fast products and solvers (default), 0: the plain ones */
    int sums;                     /* CLAB_SUMS_* (sums.h): the plain solvers' global sums */
    clab_ccp_options opt;         /* max_iter, tol [m/s], omega */
    double recovery_speed;        /* cap on -Phi/h [m/s] */
    int warm_start;               /* 1: start from the last step's impulses */
    clab_dvi_reg reg;             /* regularized normal rows (seed 001), regularize.h */
    clab_friction_exact exact;    /* friction=exact: De Saxce fixed point (friction_exact.c) */
    /* per-step data, reused */
    clab_ccp ccp;                 /* the CCP of the last step */
    clab_ccp_work work;           /* solver scratch and residual history */
    double *nu;                   /* [cap_nu] impulses of the last step [N s] */
    double *d;                    /* [cap_d] d = N nu + p of the last step [m/s] */
    double *u;                    /* [cap_u] M^-1 P nu per body (6 per body) */
    double *v_saved;              /* [cap_v] v(l), restored when a step fails */
    size_t cap_nu, cap_d, cap_u, cap_v;
    clab_warmstart warm;          /* impulses by contact key */
    double h;                     /* step of the last solve [s] */
    /* statistics */
    long solves, total_iterations, maxiter_hits;
    clab_ccp_result last;         /* the last solve */
    clab_ccp_diagnostics diag;    /* its complementarity diagnostics */
    struct clab_dvi_ranks *ranks; /* across MPI ranks: the rank's part (split_step.c); NULL in one process */
} clab_dvi;

/* One step of Eq. (5) of seed 000 (step.c): the clab_backend_type step of the DVI backend. */
int clab_dvi_step(void *self, clab_world *w, const clab_contacts *c, double h, clab_error *err);
/* its phases (step.c): 1. v* for every body (v(l) kept in s->v_saved); the warm start's guess
 * for the CCP s->ccp of the contacts c; this step's impulses s->nu kept by contact key */
void clab_dvi_free_velocity(clab_dvi *s, clab_world *w, double h);
void clab_dvi_warm_guess(const clab_dvi *s, const clab_world *w, const clab_contacts *c, double *nu);
int clab_dvi_warm_store(clab_dvi *s, const clab_contacts *c);

/* Across MPI ranks (split_step.c; clab_backend_keyed.h's set_ranks): the step of the rank's
 * part, the CCP of the contacts touching an owned body solved by the split solver with the
 * ranks' communication; the forces of the sim's contacts (those of the part, 0 for the others);
 * attach (ranks) or detach (NULL), refusing what does not run across ranks; free. */
int clab_dvi_ranks_step(clab_dvi *s, clab_world *w, const clab_contacts *c, double h, clab_error *err);
void clab_dvi_ranks_forces(const clab_dvi *s, const clab_contacts *c, clab_vec3 *f_nuw);
struct clab_backend_ranks;
int clab_dvi_set_ranks(void *self, const struct clab_backend_ranks *ranks, clab_error *err);
void clab_dvi_ranks_free(clab_dvi *s);

#endif
