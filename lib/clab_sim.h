/* clab_sim.h: one simulation, the flow of design.md: world -> collision -> backend step.
 *
 *     clab_sim *s = clab_sim_create(world, "dvi", 1e-3, &options, &err);
 *     while (world->t < t_end) if (clab_sim_step(s, &err)) { report err.msg; break; }
 *     clab_sim_destroy(s);
 *
 * Options read here (the rest go to the backend): envelope [m] (contacts reported while
 * Phi < envelope, >= 0; default: the backend's), the physics guard's (clab_sim_guard below:
 * vmax [m/s], guard_energy, guard_penetration, guard_every, allow_overlap), skin [m]
 * (Verlet skin of the candidate pairs, clab_collider_set_skin: 0 = rebuild every step;
 * default automatic, a tenth of the median bound radius; the contacts do not depend on it,
 * so it is not part of the metadata), sort [steps] (renumber the bodies into cell order,
 * clab_sim_sort, before the first step and every so many steps after; 0, the default: never)
 * and sort_cell [m] (the cell of that order; default a sphere diameter).
 * Driven bodies (clab_motion.h): each step sets the tables' velocities (their mean over
 * [t, t + h]) before the collision, advances the driven bodies by h after the backend's step,
 * then sets each servo wall's velocity for the next step from the contact force on it
 * (clab_sim_body_force, clab_servo_speed). */
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

/* The physics guard (lib/guard.c; doc/reliability.md, "Runtime guards"). It reads the state
 * and the contacts and changes nothing the run computes. Checked:
 *   every step: a non-finite state, a speed above s->vmax (clab_world_check_state; vmax = 0
 *     switches the speed bound off, never the rest);
 *   every `every` steps and in clab_sim_check:
 *     energy: E = K + U, U = -sum m g.r over the moving bodies (g's components along periodic
 *       axes excluded: there gravity is a load whose work W = int sum m g_p.rdot dt is
 *       integrated by the trapezoid rule between checks). With no other external work, E may
 *       not rise above  E0 + W + E_el + energy (K_max + lift + |W|):  E_el = 2 sum F_n (-Phi)
 *       over the initial overlaps at the first step (the elastic energy an initial overlap
 *       can release is at most F_n (-Phi) for a force growing with the overlap; DVI's
 *       stabilization gives at most that too), K_max the largest kinetic energy seen at a
 *       check, lift = sum m |g| (bounding radius) (every body lifted by its size), |W| the
 *       integral of |P|. A stable explicit contact errs by a few percent of the energy it
 *       carries (tests/test_penalty_backend: 5% over 100 undamped bounces), far inside the
 *       default 0.5; a blow-up grows E geometrically and passes it within a few checks;
 *     penetration: an overlap -Phi beyond `penetration` x the smaller radius of the pair
 *       (sphere radius, a box's smallest half extent) and deeper than the deepest overlap
 *       at the start (pen0, the same ratio: a placement the driver accepted);
 *   at the first step: the state it starts from (non-finite, vmax);
 *   in clab_sim_check of a world at step 0, once: the initial placement: an overlap beyond
 *     CLAB_GUARD_OVERLAP0 x the smaller radius is refused unless allow_overlap (a driver's
 *     choice: clab_sim_step alone accepts any placement, as stress tests of random
 *     packings need).
 * Crowding (a warning for the driver, never an error): `crowding` is the mean number of
 * contacts of a moving sphere at the last check; `crowded_step` the first step it exceeded
 * CLAB_GUARD_CROWDED (-1: never). */
#define CLAB_GUARD_OVERLAP0 0.1 /* initial overlap tolerance, x the smaller radius */
#define CLAB_GUARD_CROWDED 24.0 /* contacts per moving sphere: twice the kissing number 12 */
typedef struct clab_sim_guard {
    /* options */
    double energy;      /* the energy allowance's factor; 0: off (option guard_energy, default 0.5) */
    double penetration; /* largest -Phi / smaller radius; 0: off (guard_penetration, default 0.5) */
    long every;         /* energy and penetration every so many steps (guard_every, default 10) */
    long allow_overlap; /* 1: initial overlaps not refused (option allow_overlap, default 0) */
    /* state */
    int placed;         /* the initial placement was checked */
    int started;        /* E0 .. set (at the first step) */
    int elastic;        /* E_el set (after the first step) */
    double E0, E_el, K_max, lift, W, W_abs, P_last, t_last; /* [J], [J], ..., [W], [s] */
    double pen0;        /* the deepest overlap at the start, x the smaller radius */
    size_t spheres;     /* moving spheres (the crowding's divisor) */
    double rmin;        /* the smallest body's radius (as the penetration measures it) [m] */
    double crowding;    /* contacts per moving sphere at the last check */
    long crowded_step;  /* first step with crowding > CLAB_GUARD_CROWDED (-1: none) */
} clab_sim_guard;

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
    double vmax;                   /* [m/s] the guard's speed bound; 0: none (option vmax, default 1e4) */
    long sort_every;               /* clab_sim_sort every so many steps (0: never) */
    double sort_cell;              /* its cell [m] (<= 0: a sphere diameter) */
    size_t sorts;                  /* renumberings so far (sorts that moved some body) */
    long sorted_at;                /* w->step of the last clab_sim_sort (-1: none): the step sorts
                                    * only if none was done at that step already */
    clab_sim_times times;          /* clab_sim_step's wall time by part */
    clab_sim_guard guard;          /* the physics guard: options and running values */
    clab_vec3 *fbuf;               /* scratch: the last step's contact forces (body_force.c) */
    size_t fbuf_cap;
} clab_sim;

/* Create; on failure returns NULL with err set (unknown backend, bad or unknown option). */
clab_sim *clab_sim_create(clab_world *w, const char *backend, double h, clab_options *opt, clab_error *err);
void clab_sim_destroy(clab_sim *s);

/* One step: the driven bodies' tables, collide at q(l), backend step to q(l+1), v(l+1), the
 * driven bodies advanced, the servos set, t += h, then the physics guard
 * (clab_sim_guard; CLAB_ENUMERIC naming the body, the step and the time when it fires; the
 * first step of a sim, or a step from step 0, checks the state it starts from first, the
 * world unchanged when refused, and starts the guard's energy there). */
int clab_sim_step(clab_sim *s, clab_error *err);

/* The whole guard on the current state, now: the state (non-finite, vmax), and before the
 * first step the initial placement (its own collision pass; s->contacts and the collider are
 * left as they were), after it the energy and the penetration of the last step's contacts.
 * A driver calls it before it writes a state (the initial one included), so no output holds
 * a state the guard refuses. CLAB_OK, or CLAB_ENUMERIC / CLAB_EINVAL with err naming the body. */
int clab_sim_check(clab_sim *s, clab_error *err);

/* The number of steps n of size h that reach t_end from 0: n = round(t_end/h) when t_end/h
 * is within 8 ulps of an integer (t_end = 12.9, h = 1e-7 gives 129000000, not one more),
 * else ceil(t_end/h). CLAB_EINVAL for a non-finite or negative t_end, h <= 0 or non-finite,
 * or n above CLAB_SIM_MAX_STEPS; *n untouched then. */
#define CLAB_SIM_MAX_STEPS 1e12 /* about 12 days at 1 microsecond a step */
int clab_sim_step_count(double t_end, double h, long *n, clab_error *err);

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

/* The contact force F [N] and its torque T [N m] about the center of mass, both world frame,
 * on body i, summed over the last step's contacts (lib/body_force.c): each contact's
 * clab_sim_forces (n, u, w) mapped to the world, F_c = F_n n + F_u u + F_w w on b and -F_c
 * on a, with the torque l x (+-F_c), l = A(e) sbar the contact point from the center
 * (clab_contact_levers); a penalty rolling couple (rolling=cdt) is not included. Gravity and
 * loads are not contact forces: a sphere resting on a plane has F = -m g. Zero before the
 * first step and after clab_sim_prepare; between steps only (after a clab_sim_sort the
 * contacts are in the old numbering until the next step). CLAB_EINVAL for a body that does
 * not exist, CLAB_ENOMEM. */
int clab_sim_body_force(clab_sim *s, size_t i, clab_vec3 *F, clab_vec3 *T, clab_error *err);
/* The same for every body at once: F[nbodies] and T[nbodies] (T may be NULL). */
int clab_sim_body_forces(clab_sim *s, clab_vec3 *F, clab_vec3 *T, clab_error *err);
/* The terms clab_sim_body_force sums for body i's force: term[j] the force on i of contact
 * k[j] (world frame: +F_c on b, -F_c on a), j = 0 .. *n - 1 in contact order; term and k with
 * room for every contact of the sim. Added in this order from zero they give
 * clab_sim_body_force's F to the bit (x - y is x + (-y) in IEEE arithmetic): a caller can merge
 * the terms of several sims (the ranks of a decomposition) in the one contact order. */
int clab_sim_body_force_terms(clab_sim *s, size_t i, clab_vec3 *term, size_t *k, size_t *n, clab_error *err);

/* Set a driven body's velocity (world frame) for the next steps: clab_world_set_body_velocity
 * (clab_motion.h) on the sim's world. */
int clab_sim_set_body_velocity(clab_sim *s, size_t i, clab_vec3 v, clab_vec3 omega, clab_error *err);

/* Every parameter (sim and backend) as key = value lines, for output metadata. */
void clab_sim_meta(const clab_sim *s, clab_options *m);

#endif
