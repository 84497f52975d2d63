/* clab_world.h: the world every backend steps: bodies, materials, joints, gravity, time.
 * Built from definition structs with defaults (Box2D style):
 *
 *     clab_world *w = clab_world_create(NULL);           // gravity (0, 0, -9.81)
 *     clab_body_def d = clab_default_body_def();
 *     d.shape = clab_sphere(0.1); d.r = clab_v3(0, 0, 0.1); d.rdot = clab_v3(3, 0, 0);
 *     clab_world_add_body(w, &d, &err);
 */
#ifndef CLAB_WORLD_H
#define CLAB_WORLD_H

#include <stddef.h>

#include "clab_body.h"
#include "clab_error.h"
#include "clab_joint.h"
#include "clab_material.h"
#include "clab_motion.h"

typedef struct clab_world_def {
    clab_vec3 gravity; /* [m/s^2], default (0, 0, -9.81) */
} clab_world_def;

typedef struct clab_body_def {
    char name[CLAB_NAME_LEN]; /* optional, for messages and output ("" = "body <index>") */
    clab_shape shape;         /* default: sphere of radius 0.1 m */
    double mass;              /* [kg]; 0 = from density and volume */
    double density;           /* [kg/m^3], used when mass = 0; default 1000 */
    clab_vec3 r;              /* position [m] */
    clab_quat e;              /* orientation, Euler parameters (normalized on add) */
    clab_vec3 rdot;           /* velocity [m/s] */
    clab_vec3 omega;          /* angular velocity, WORLD frame [rad/s] (converted to wbar) */
    int fixed;                /* 1 = immovable */
    int material;             /* material index, default 0 */
} clab_body_def;

/* Periodic boundaries: along axis k with on[k], space repeats with period L = hi[k] - lo[k].
 * Pairs interact through the minimum image (bounded bodies must be narrower than L/2 along
 * k, else the collision reports an error naming the body); clab_sim_step wraps the centers of
 * moving bodies back into [lo, hi) after each step. Half-spaces must contain the periodic
 * directions (a floor normal to z with x, y periodic is fine; a plane normal to a periodic
 * axis is an error). Joints are not periodic-aware. All off by default. */
typedef struct clab_periodic {
    int on[3];           /* 1: axis k (x, y, z) is periodic */
    double lo[3], hi[3]; /* the period [lo, hi) [m] where on */
} clab_periodic;

typedef struct clab_world {
    clab_body *bodies;        /* [nbodies] */
    size_t nbodies, cap_bodies;
    /* body names (clab_world_body_name), one after the other, each '\0'-terminated: about 10
     * bytes a body instead of a CLAB_NAME_LEN slot */
    char *name_pool;          /* [name_cap] */
    size_t name_len, name_cap; /* bytes in use, allocated */
    size_t *name_off;         /* [cap_bodies] where body i's name starts in name_pool */
    clab_material *materials; /* [nmaterials]; index 0 always exists */
    size_t nmaterials, cap_materials;
    clab_joint *joints;       /* [njoints] bilateral constraints */
    size_t njoints, cap_joints;
    clab_vec3 gravity;        /* [m/s^2] */
    double t;                 /* simulated time [s] */
    long step;                /* steps taken */
    clab_periodic periodic;   /* periodic boundaries, all off by default */
    clab_driven *driven;      /* [ndriven] the driven bodies (clab_motion.h), in no order */
    size_t ndriven, cap_driven;
    clab_load *loads;         /* [cap_bodies] applied loads, or NULL when no body has one */
} clab_world;

clab_world_def clab_default_world_def(void);
clab_body_def clab_default_body_def(void);
static inline clab_shape clab_sphere(double radius) { clab_shape s = {CLAB_SHAPE_SPHERE, radius, {0, 0, 0}}; return s; }
static inline clab_shape clab_box(double hx, double hy, double hz) { clab_shape s = {CLAB_SHAPE_BOX, 0.0, {hx, hy, hz}}; return s; }
static inline clab_shape clab_plane(void) { clab_shape s = {CLAB_SHAPE_PLANE, 0.0, {0, 0, 0}}; return s; }

/* New world with the default material at index 0; def may be NULL for defaults. */
clab_world *clab_world_create(const clab_world_def *def);
void clab_world_destroy(clab_world *w);

/* Add a material; returns its index, or -1 with err set (invalid or duplicate name).
 * A material named "default" replaces the built-in one at index 0. */
int clab_world_add_material(clab_world *w, const clab_material *m, clab_error *err);
/* Index of a material by name, -1 when absent. */
int clab_world_find_material(const clab_world *w, const char *name);

/* Add a body; returns its index, or -1 with err set naming the body and the field. */
int clab_world_add_body(clab_world *w, const clab_body_def *def, clab_error *err);
/* Index of a body by name, -1 when absent. */
int clab_world_find_body(const clab_world *w, const char *name);

/* Add a bilateral constraint; returns its index or -1 with err set. */
int clab_world_add_joint(clab_world *w, const clab_joint *j, clab_error *err);

/* Make axis (0 = x, 1 = y, 2 = z) periodic on [lo, hi): CLAB_EINVAL unless lo < hi, both
 * finite, and the axis is 0..2. */
int clab_world_set_periodic(clab_world *w, int axis, double lo, double hi, clab_error *err);

/* Half the period of each periodic axis, infinite on open ones: a difference d needs
 * clab_world_min_image only when some |d_k| > half[k] (three compares in the common case). */
static inline void clab_world_half_periods(const clab_periodic *p, double half[3])
{
    for (int k = 0; k < 3; k++) half[k] = p->on[k] ? 0.5 * (p->hi[k] - p->lo[k]) : INFINITY;
}

/* The minimum image of d = r_b - r_a under the world's periodic axes: d - L round(d/L). */
static inline clab_vec3 clab_world_min_image(const clab_periodic *p, clab_vec3 d)
{
    double v[3] = {d.x, d.y, d.z};
    for (int k = 0; k < 3; k++)
        if (p->on[k]) {
            double L = p->hi[k] - p->lo[k];
            if (fabs(v[k]) > 0.5 * L) v[k] -= L * nearbyint(v[k] / L); /* else nearbyint gives 0 */
        }
    return clab_v3(v[0], v[1], v[2]);
}

/* x moved by a whole number of periods into [lo, hi) (x finite) */
static inline double clab_world_wrap_coord(double x, double lo, double hi)
{
    if (x >= lo && x < hi) return x;
    double L = hi - lo;
    x -= L * floor((x - lo) / L);
    if (x >= hi || x < lo) x = lo; /* rounding at the upper end */
    return x;
}

/* The center of one free body back into [lo, hi) along the periodic axes (non-finite
 * coordinates left for clab_world_check_state to report). */
static inline void clab_world_wrap_body(const clab_periodic *p, clab_body *b)
{
    if (b->fixed) return;
    /* inside [lo, hi): nothing to do (a NaN fails the test, then isfinite); the three axes
     * written out, so the common case is six compares */
    if (p->on[0] && !(b->r.x >= p->lo[0] && b->r.x < p->hi[0]) && isfinite(b->r.x))
        b->r.x = clab_world_wrap_coord(b->r.x, p->lo[0], p->hi[0]);
    if (p->on[1] && !(b->r.y >= p->lo[1] && b->r.y < p->hi[1]) && isfinite(b->r.y))
        b->r.y = clab_world_wrap_coord(b->r.y, p->lo[1], p->hi[1]);
    if (p->on[2] && !(b->r.z >= p->lo[2] && b->r.z < p->hi[2]) && isfinite(b->r.z))
        b->r.z = clab_world_wrap_coord(b->r.z, p->lo[2], p->hi[2]);
}

/* Wrap the centers of the free bodies back into [lo, hi) along the periodic axes. */
void clab_world_wrap(clab_world *w);

/* Name of body i (bodies added without a name are called "body<i>"). */
const char *clab_world_body_name(const clab_world *w, size_t i);

/* Applied force (world frame: gravity m g plus the body's load F, clab_world_set_load) and
 * torque (body frame: A(e)^T T of the load, zero without one) of body i, the f(l) of
 * Eq. (5b) divided by h; the gyroscopic term lives in clab_body_kick (inline: the
 * integration loops call it once a body a step). */
static inline void clab_world_applied(const clab_world *w, size_t i, clab_vec3 *F, clab_vec3 *taubar)
{
    const clab_body *b = &w->bodies[i];
    *F = b->fixed ? clab_v3(0, 0, 0) : clab_v3_scale(w->gravity, b->m);
    *taubar = clab_v3(0, 0, 0);
    if (w->loads && !b->fixed) { /* only worlds with a load pay for this test's other side */
        *F = clab_v3_add(*F, w->loads[i].F);
        *taubar = clab_q_rotate_inv(b->e, w->loads[i].T);
    }
}

/* Total kinetic energy of the free bodies [J]. */
double clab_world_kinetic_energy(const clab_world *w);

/* First non-finite state, or a body speed above vmax (m/s; <= 0: no bound): returns
 * CLAB_ENUMERIC with err naming the body and the time, else CLAB_OK. */
int clab_world_check_state(const clab_world *w, double vmax, clab_error *err);

/* Deep copy (for restarts and tests); NULL on allocation failure. */
clab_world *clab_world_clone(const clab_world *w);

/* Renumber the bodies: body k afterwards is body perm[k] before (perm: a permutation of
 * 0 .. nbodies-1). Names go with their bodies (find them with clab_world_find_body), joints'
 * body indices are mapped. CLAB_EINVAL (naming the bad entry) and the world unchanged when
 * perm is not a permutation. A running clab_sim renumbers through clab_sim_sort, which also
 * maps the backend's and the collider's state; call this one directly only between
 * building a world and creating its sim. */
int clab_world_permute(clab_world *w, const size_t *perm, clab_error *err);

/* The cell order of the bodies (world_order.c): perm[k] = the body to put at k, for
 * clab_world_permute. Each maximal run of consecutive spheres is sorted by the Morton code
 * (z-order) of the cell of side `cell` [m] holding its center (<= 0: a sphere diameter;
 * periodic axes wrapped), ties in the old order; other bodies keep their index, and no
 * sphere passes one of them. *moved (may be NULL) counts the bodies that change index. */
int clab_world_cell_order(const clab_world *w, double cell, size_t *perm, size_t *moved, clab_error *err);

/* The order in which the bodies were added (world_order.c): order[k] = the index now of the
 * k-th body added (the identity until the bodies are renumbered; names are stored in the
 * order of adding, so this is the order of their offsets). Outputs and checkpoints of a run
 * that sorts its bodies list them in this order. Returns 1 when it is the identity, 0 when
 * not, -1 (CLAB_ENOMEM in err) when out of memory. */
int clab_world_add_order(const clab_world *w, size_t *order, clab_error *err);

#endif
