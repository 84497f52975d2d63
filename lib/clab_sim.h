/* clab_sim.h: one simulation, the flow of design.md: world -> collision -> backend step.
 *
 *     clab_sim *s = clab_sim_create(world, "dvi", 1e-3, &options, &err);
 *     while (world->t < t_end) if (clab_sim_step(s, &err)) { report err.msg; break; }
 *     clab_sim_destroy(s);
 *
 * Options read here (the rest go to the backend): envelope [m] (contacts reported while
 * Phi < envelope; default: the backend's), vmax [m/s] (runtime guard; default 1e4), skin [m]
 * (Verlet skin of the candidate pairs, clab_collider_set_skin: 0 = rebuild every step;
 * default automatic, a tenth of the median bound radius; the contacts do not depend on it,
 * so it is not part of the metadata), sort [steps] (renumber the bodies into cell order,
 * clab_sim_sort, before the first step and every so many steps after; 0, the default: never)
 * and sort_cell [m] (the cell of that order; default a sphere diameter). */
#ifndef CLAB_SIM_H
#define CLAB_SIM_H

#include "clab_backend.h"
#include "clab_collide.h"

/* Where clab_sim_step's wall time went, summed since clab_sim_create [s] (clab_clock): the
 * sorts, clab_collide (its parts in clab_broadphase_stats: skin test, builds, narrow phase),
 * the backend's step, and the rest (the state's check, the step's bookkeeping). A few clock
 * reads a step. */
typedef struct clab_sim_times {
    double sort, collide, backend, rest;
    long steps;
} clab_sim_times;

typedef struct clab_sim {
    clab_world *world;             /* borrowed, stepped in place */
    const clab_backend_type *type; /* the backend */
    void *self;                    /* the backend's state */
    const struct clab_backend_fast *fast; /* private: the backend's fast hooks when its fast path is
                                    * on (lib/clab_backend_fast.h), else NULL */
    clab_collider *collider;
    clab_contacts contacts;        /* contacts of the last step (configuration at its start) */
    double h;                      /* time step [s] */
    double envelope;               /* [m] */
    double vmax;                   /* [m/s] runtime guard */
    long sort_every;               /* clab_sim_sort every so many steps (0: never) */
    double sort_cell;              /* its cell [m] (<= 0: a sphere diameter) */
    size_t sorts;                  /* renumberings so far (sorts that moved some body) */
    long sorted_at;                /* w->step of the last clab_sim_sort (-1: none): the step sorts
                                    * only if none was done at that step already */
    clab_sim_times times;          /* clab_sim_step's wall time by part */
} clab_sim;

/* Create; on failure returns NULL with err set (unknown backend, bad or unknown option). */
clab_sim *clab_sim_create(clab_world *w, const char *backend, double h, clab_options *opt, clab_error *err);
void clab_sim_destroy(clab_sim *s);

/* One step: collide at q(l), backend step to q(l+1), v(l+1), t += h, then the runtime guard
 * (CLAB_ENUMERIC naming the body when a state is non-finite or too fast). */
int clab_sim_step(clab_sim *s, clab_error *err);

/* The next step's setup ahead of it, advancing nothing: the sort when one is due, the pair
 * list of the current configuration (clab_collide), and the backend's arrays for its contacts
 * (the type's prepare). The next clab_sim_step then computes the same to the bit, without
 * the first build's and the first allocations' time, as LAMMPS's setup builds its neighbor
 * list and allocates before its timed loop (contactlab bench chute calls it before its clock).
 * s->contacts is left empty (its storage sized for the current contacts) until the next
 * step; s->times does not count this call, the collider's statistics do. */
int clab_sim_prepare(clab_sim *s, clab_error *err);

/* Renumber the world's bodies into cell order (clab_world_cell_order with s->sort_cell,
 * then clab_world_permute), mapping the backend's state (its permute) and dropping the
 * collider's kept pair list, so the next step computes what it would have without the sort
 * up to the order of summation. Body indices change: find bodies by name
 * (clab_world_find_body). Between steps only; s->contacts then still describe the last step
 * in the old numbering, until the next step. CLAB_EINVAL when the backend cannot map its
 * state (no permute); the world and the state unchanged on any failure. */
int clab_sim_sort(clab_sim *s, clab_error *err);

/* 1 when the next clab_sim_step renumbers the bodies before it steps (option sort): a caller
 * that keeps body indices across that step calls clab_sim_sort itself first, then reads them. */
static inline int clab_sim_sort_due(const clab_sim *s)
{
    return s->sort_every > 0 && s->world->step % s->sort_every == 0 && s->sorted_at != s->world->step;
}

/* Contact forces of the last step [N], frame (n, u, w) (u, w: clab_contact_frame), one per s->contacts record;
 * out must hold s->contacts.n entries. */
void clab_sim_forces(const clab_sim *s, clab_vec3 *f_nuw);

/* Every parameter (sim and backend) as key = value lines, for output metadata. */
void clab_sim_meta(const clab_sim *s, clab_options *m);

#endif
