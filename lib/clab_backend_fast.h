/* clab_backend_fast.h (not installed): the optional hooks of a backend's fast path, and what
 * the driver (lib/sim.c) hands them. A backend type (clab_backend.h) says what a method is;
 * a fast path that fuses the driver's passes over the bodies with its own (the penalty
 * backend's, penalty/fast_step.c) registers these hooks in lib/backend.c's table, and
 * clab_sim_create asks for them once (clab_backend_fast_of). Only lib/sim.c calls them; a
 * backend without them, or an instance whose fast path is off, runs the plain driver:
 * collide, step, clab_world_wrap, clab_world_check_state. */
#ifndef CLAB_BACKEND_FAST_H
#define CLAB_BACKEND_FAST_H

#include "clab_backend.h"
#include "clab_collide.h"
#include "clab_sim.h"

typedef struct clab_backend_fast {
    const clab_backend_type *type; /* the backend these hooks belong to */
    /* 1 when this instance runs its fast path (e.g. the option fast=on); 0: no hook is called */
    int (*enabled)(const void *self);
    /* Optional (NULL: clab_sim_step calls step, then clab_world_wrap and
     * clab_world_check_state, two more passes over the bodies): step, wrapping each moved
     * body's center into the periodic box (clab_world_wrap_body) in the same pass, and set
     * *suspect = 1 when some body (fixed ones included) may fail clab_world_check_state with
     * this vmax (a non-finite state, or a speed near or above vmax); the driver then runs
     * clab_world_check_state for the exact report. The same bits as step + clab_world_wrap. */
    int (*step_wrap)(void *self, clab_world *w, const clab_contacts *c, double h, double vmax, int *suspect,
                     clab_error *err);
    /* Optional, the two together (NULL: the step reads the bodies itself): what the next step
     * reads of the bodies, gathered ahead of it inside the collider's pass over them
     * (clab_body_pass, clab_collide_with), so the bodies are read once for both.
     * gather_begin readies it (allocations) for the world as it is; gather then sees
     * disjoint ranges of bodies, from several threads at once; the next step uses what was
     * gathered only when gather saw every body since gather_begin at this w->step, and
     * gathers itself otherwise. clab_sim_step calls them, then the step, with nothing between
     * that changes the bodies. */
    int (*gather_begin)(void *self, const clab_world *w, clab_error *err);
    void (*gather)(void *self, const clab_world *w, size_t i0, size_t i1);
    /* Optional (NULL: nothing to ready): size the arrays the next step uses for this world and
     * these contacts (those of its configuration), and write them once, so that the step
     * neither allocates nor faults in their pages; the state kept between steps (a history, a
     * warm start) unchanged. The last step's contact forces may be lost (clab_sim_prepare
     * empties the contact list). */
    int (*prepare)(void *self, const clab_world *w, const clab_contacts *c, clab_error *err);
    /* Optional (NULL: not measured): the wall time of the steps so far by part [s]
     * (clab_clock): the pass over the contacts and the pass over the bodies. */
    void (*times)(const void *self, double *t_contacts, double *t_bodies);
} clab_backend_fast;

/* the penalty backend's (penalty/fast_step.c) */
extern const clab_backend_fast clab_backend_penalty_fast;

/* The fast hooks of this instance (self, of type) when its fast path is on, else NULL. */
const clab_backend_fast *clab_backend_fast_of(const clab_backend_type *type, const void *self);

/* The backend's wall time of s's steps so far by part [s] (the fast hooks' times), zeros when
 * it does not measure them: the pass over the contacts and the pass over the bodies. For the
 * benchmarks' breakdowns (experiments/bench_chute.c). */
void clab_sim_backend_times(const clab_sim *s, double *t_contacts, double *t_bodies);

#endif
