/* penalty.h: the penalty backend's instance, shared by its plain step (step.c), its fast path
 * (fast_step.c) and its type object (penalty_backend.c); and what both steps need of the
 * world (setup.c): the checks, the material pair table, the contact radius. */
#ifndef CLAB_PENALTY_H
#define CLAB_PENALTY_H

#include <stddef.h>
#include <stdint.h>

#include "clab_balance.h"
#include "clab_contact.h"
#include "clab_world.h"
#include "history.h"
#include "options.h"

/* a body as the fast contact loop reads it (fast_contact.h), 64 bytes */
typedef struct pen_body pen_body;
/* a body's contact sums as one thread of the fast path scatters them (fast_scatter.h) */
typedef struct pen_acc pen_acc;
/* the terms one thread of the fast path's split scatter leaves for the others (fast_scatter.h) */
typedef struct pen_side pen_side;

/* the fast path's arrays and bookkeeping (fast_step.c); unused by the plain step */
typedef struct pen_fast {
    /* per-step arrays, per body [cap_bodies] */
    pen_body *pb;               /* what the contact loop reads of the bodies (64-byte aligned) */
    pen_acc *acc;               /* [cap_acc] one thread: each body's contact sums (contact_scatter),
                                 * zero between steps when acc_zero (the body loop reads and clears them) */
    size_t cap_bodies, cap_acc;
    int acc_zero;
    uint32_t *blist;            /* contact indices by body b, a segment a thread (by_b) */
    size_t cap_blist;
    /* the split scatter of two or more threads [nside]: each thread's terms left for others */
    pen_side *side;
    size_t nside;
    /* only when needed */
    uint32_t *alist;            /* contact indices by body a, when the contacts are not sorted by a */
    uint32_t *astart;           /* [bodies + 1] with alist: alist[astart[i] .. astart[i+1]) have i as a */
    uint32_t *brow;             /* [threads x (bodies + 1)] each thread's offsets of its segment of blist (by_b) */
    size_t *bbase;              /* [threads] where each thread's segment of blist starts (by_b) */
    unsigned char *still;       /* [bodies] sphere_orientation=off: still_of each body (clab_penalty_fast_gather_still) */
    size_t cap_alist, cap_astart, cap_brow, cap_bbase, cap_still;
    /* the gather done ahead of the step in the collider's pass (the fast hooks gather_begin,
     * gather): bodies gathered (pre_n, of pre_nb) at step pre_step, whether a material other
     * than body 0's (pre_m0) was seen */
    size_t pre_n, pre_nb;
    long pre_step;
    int pre_m0, pre_mixed;
    /* the split's cuts, by the threads' times (clab_balance.h): of the contacts (where the
     * contact loop's ranges of bodies a start, split_cut) and of the bodies (the body loop) */
    clab_balance bal_contacts, bal_bodies;
    double t_contacts, t_bodies; /* wall time of the steps' passes (the fast hook times) [s] */
} pen_fast;

/* the metadata lists the material pairs while there are at most this many (10 materials) */
#define CLAB_PENALTY_META_PAIRS 64

typedef struct penalty {
    clab_penalty_def def; /* the run's choices (options.h) */
    /* per material pair, rebuilt when materials are added */
    clab_penalty_pair *pairs;       /* [nmat * nmat], pairs[ma * nmat + mb] */
    clab_material *mat;             /* [nmat] the world's materials, for the metadata */
    size_t nmat;
    uint32_t pairs_crc;             /* CRC-32 of the table's numbers (pairs a <= b), for the metadata */
    size_t nchecked; /* bodies already validated */
    /* tangential history delta_t, keyed by contact key (history.h) */
    clab_history hist;
    /* the last step's contacts [cap_forces] */
    clab_vec3 *Fc;   /* force on b, world [N]; (F_n, F_u, F_w) = (Fc.n, Fc.u, Fc.w) for output */
    clab_vec3 *Mr;   /* [cap_mr] rolling resistance couple on b, world [N m] (rolling=cdt) */
    size_t nforces, cap_forces, cap_mr;
    /* the plain step's sums a body [cap_sums]: force (world) and torque (a sphere: world; any
     * other body: its own frame) */
    clab_vec3 *F, *tau;
    size_t cap_sums;
    pen_fast f; /* the fast path's state */
    /* bookkeeping */
    int started;        /* verlet: a step has been taken (its closing half-kick is pending) */
    long steps;         /* steps taken */
    double stable_step; /* estimate for the world at create [s] */
} penalty;

/* e kept or advanced by the body update (sphere_orientation=off) */
enum {
    PEN_TURNS = 0,         /* e advanced as usual */
    PEN_STILL = 1,         /* e kept */
    PEN_STILL_IDENTITY = 2 /* e kept, and the identity: A(e) turns nothing */
};

/* PEN_TURNS, or for a sphere of isotropic inertia (whose motion does not depend on e) under
 * sphere_orientation=off PEN_STILL (e is not advanced) or PEN_STILL_IDENTITY (and A(e) = 1) */
static inline unsigned char clab_penalty_still_of(const clab_body *b)
{
    if (b->shape.type == CLAB_SHAPE_SPHERE && b->J.x == b->J.y && b->J.y == b->J.z)
        return clab_q_is_identity(b->e) ? PEN_STILL_IDENTITY : PEN_STILL;
    return PEN_TURNS;
}

/* Body i's update from its contact sums F, tau: a sphere's torque, summed in the world frame,
 * turned into its own, taubar = A^T tau (not when it is zero, e.g. a body without contacts, or
 * the orientation is the identity); any other body's torque is summed in its own frame
 * already; then the explicit integration (integrator.h). still: PEN_TURNS, or
 * (sphere_orientation=off) clab_penalty_still_of the body. The plain and the fast step both. */
static CLAB_ALWAYS_INLINE void clab_penalty_body_update(clab_world *w, size_t i, unsigned char still, clab_vec3 F,
                                                        clab_vec3 tau, double h, clab_penalty_integrator scheme,
                                                        int first)
{
    const int turn_tau = still != PEN_STILL_IDENTITY && (tau.x != 0.0 || tau.y != 0.0 || tau.z != 0.0);
    if (turn_tau && w->bodies[i].shape.type == CLAB_SHAPE_SPHERE) tau = clab_q_rotate_inv(w->bodies[i].e, tau);
    clab_penalty_integrate_body_turn(w, i, F, tau, h, scheme, first, still == PEN_TURNS);
}

/* the inverse rotational inertia of body b about the world axis k [1/(kg m^2)] (0 when fixed) */
static inline double clab_penalty_inv_inertia_about(const clab_body *b, clab_vec3 k)
{
    if (b->fixed) return 0.0;
    clab_vec3 kb = clab_q_rotate_inv(b->e, k);
    return kb.x * kb.x / b->J.x + kb.y * kb.y / b->J.y + kb.z * kb.z / b->J.z;
}

/* setup.c: radius of a shape for R* [m] (a sphere its radius, a plane INFINITY, a box its
 * smallest half extent) */
double clab_penalty_contact_radius(const clab_shape *s);
/* setup.c: the world as the step finds it: joints refused, materials and new bodies checked,
 * the pair table rebuilt when materials were added; and nb < 2^31, nc < 2^31 */
int clab_penalty_ready(penalty *p, const clab_world *w, size_t nc, clab_error *err);
/* setup.c: the checks and the pair table at create */
int clab_penalty_check_world(penalty *p, const clab_world *w, clab_error *err);
int clab_penalty_build_pairs(penalty *p, const clab_world *w, clab_error *err);
/* setup.c: the recommended largest step [s] (clab_backend_type.stable_step) */
double clab_penalty_stable_step(const penalty *p, const clab_world *w);
/* setup.c: grow the array *pa of elements of size sz to at least n (contents kept only up to
 * realloc); 0 on success */
int clab_penalty_grow(void *pa, size_t *cap, size_t n, size_t sz);

/* step.c: the plain step (fast=off) */
int clab_penalty_plain_step(penalty *p, clab_world *w, const clab_contacts *c, double h, clab_error *err);
/* fast_step.c: the fast step (fast=on); suspect: see clab_backend_fast.step_wrap (NULL: no wrap,
 * no screen) */
int clab_penalty_fast_step(penalty *p, clab_world *w, const clab_contacts *c, double h, double vmax, int *suspect,
                           clab_error *err);
/* fast_step.c: the fast path's arrays freed */
void clab_penalty_fast_free(pen_fast *f);

#endif
