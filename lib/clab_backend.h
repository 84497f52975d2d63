/* clab_backend.h: the contact-method interface. A backend is a type object (GSL style)
 * looked up by name: create from options, step, report contact forces, report solver
 * statistics, write its parameters, checkpoint, renumber, destroy. Every backend consumes the
 * same contact array and reports forces in newtons in the same contact frame (n, u, w), so
 * their output compares column for column. The contract each function keeps:
 * doc/design.md, "The backend contract"; tests/test_backends.c holds every registered backend to it. */
#ifndef CLAB_BACKEND_H
#define CLAB_BACKEND_H

#include <stddef.h>
#include <stdio.h>

#include "clab_contact.h"
#include "clab_error.h"
#include "clab_options.h"
#include "clab_world.h"

/* Solver statistics of the last step (backends without an iterative solver report zeros). */
typedef struct clab_solver_stats {
    long solves;             /* solves so far */
    long total_iterations;   /* iterations summed over all solves */
    long maxiter_hits;       /* solves that stopped at the iteration limit */
    long iterations;         /* iterations of the last solve */
    double residual;         /* residual of the last solve (backend's documented scaling) */
    double gamma_outside_K;  /* last solve: max distance of gamma_i from K_i [N s] */
    double d_outside_polar;  /* last solve: max distance of -d_i from the polar cone K_i° (Eq. (7) of
                                seed 000), i.e. of d_i from the dual cone K_i* [m/s] */
    double complementarity;  /* last solve: max |gamma_i . d_i| [N m] */
    const double *history;   /* residual after each iteration of the last solve, or NULL */
    size_t nhistory;         /* length of history */
    /* exact Coulomb friction (DVI friction=exact, dvi/friction_exact.h); zeros otherwise */
    long outer_iterations;       /* last step: CCP solves of the De Saxce fixed point */
    long total_outer_iterations; /* summed over all steps */
    long fixed_point_failures;   /* steps whose fixed point stopped at exact_max_outer */
    double exact_residual;       /* last step: natural map of exact Coulomb friction with the
                                    modified velocity d_i + [mu_i |d_T,i|, 0, 0] [m/s] */
} clab_solver_stats;

typedef struct clab_backend_type {
    const char *name;        /* "penalty", "dvi", ... */
    const char *summary;     /* one line for `contactlab list` */
    const char *options_help;/* multi-line help: every option, unit and default */
    /* contacts are reported while Phi < envelope [m]; a backend's default (delta_K for DVI) */
    double default_envelope;

    /* Read options (marking the keys it knows), check the world (e.g. joints it cannot
     * handle), allocate state. Unknown keys are caught afterwards by the caller. */
    int (*create)(const clab_world *w, clab_options *opt, void **self, clab_error *err);
    /* Advance bodies' q and v by h, given the contacts of the configuration at t. */
    int (*step)(void *self, clab_world *w, const clab_contacts *c, double h, clab_error *err);
    /* Contact forces of the last step, one (F_n, F_u, F_w) [N] per contact of c, in the
     * frame (n, u, w); F_n > 0 pushes the bodies apart (force on b along n). */
    void (*forces)(const void *self, const clab_contacts *c, clab_vec3 *f_nuw);
    /* Solver statistics of the last step. */
    void (*stats)(const void *self, clab_solver_stats *s);
    /* Every parameter in force, as key = value lines for output metadata. */
    void (*meta)(const void *self, clab_options *m);
    /* Largest step the method is stable with, for this world [s]; 0 = no such limit. */
    double (*stable_step)(const void *self, const clab_world *w);
    /* Checkpoint the backend's own state (history, warm start); may be NULL. */
    int (*save)(const void *self, FILE *f, clab_error *err);
    int (*load)(void *self, FILE *f, clab_error *err);
    /* Optional (NULL: the backend's bodies cannot be renumbered, clab_sim_sort refuses): the
     * world's bodies are about to be renumbered, old body i becoming body inv[i] (nbodies
     * entries); map the state kept between steps (contact keys of a history or a warm start).
     * A contact whose two bodies swap order (a < b by index) has its normal reversed: a
     * vector of b relative to a changes sign. On failure the state must be unchanged. */
    int (*permute)(void *self, const size_t *inv, size_t nbodies, clab_error *err);
    void (*destroy)(void *self);
} clab_backend_type;

/* The backend called name, NULL when there is none. */
const clab_backend_type *clab_backend_lookup(const char *name);
/* The registered backends, NULL-terminated. */
const clab_backend_type *const *clab_backend_all(void);

#endif
