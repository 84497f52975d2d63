/* clab_motion.h: driven (kinematic) bodies, applied loads and servo walls.
 *
 * A driven body is a fixed body (infinite mass: forces do not move it, clab_body_invmass = 0)
 * whose velocity is prescribed and whose position and orientation advance with it each step:
 * a moving wall, a shear box, a conveyor belt. Its rdot and wbar are its velocity, and both
 * backends take them in like any body's (penalty: the relative velocity and the tangential
 * history; DVI: the terms D^T v of the CCP, with M^-1 = 0). The velocity is
 *   - constant (CLAB_MOTION_CONSTANT): the one given, held; the driver may change it between
 *     steps with clab_world_set_body_velocity (or clab_sim_set_body_velocity);
 *   - a table (CLAB_MOTION_TABLE): rows (t, vx, vy, vz, wx, wy, wz), t strictly increasing,
 *     linear in between, the first row's value before it and the last row's after it;
 *   - a servo (CLAB_MOTION_SERVO): along an axis, from the stress the contacts put on the
 *     body in the last step (clab_servo_speed), plus a constant base velocity.
 * The step driver (clab_sim_step) sets a table's velocity at the start of each step to its
 * mean over [t, t + h] (so the positions are the exact integral of the table: the value at
 * t + h/2 inside a segment), advances every driven body by h after the backend's step
 * (r += h rdot, e advanced by wbar), and sets a servo's velocity for the next step from the
 * forces of the step just taken. Driven bodies are not wrapped into a periodic box.
 *
 *     clab_motion m = clab_motion_constant(clab_v3(0.001, 0, 0), clab_v3(0, 0, 0));
 *     clab_world_set_motion(w, plate, &m, &err);      // plate slides at 1 mm/s
 *
 * An applied load (clab_world_set_load) is a constant force and torque, world frame, added
 * to the gravity of a free body in clab_world_applied (both backends, both paths). */
#ifndef CLAB_MOTION_H
#define CLAB_MOTION_H

#include <stddef.h>

#include "clab_error.h"
#include "clab_math.h"

struct clab_world;

typedef enum clab_motion_kind {
    CLAB_MOTION_CONSTANT = 0, /* the velocity v, omega, held (the driver may set another) */
    CLAB_MOTION_TABLE = 1,    /* piecewise linear in time */
    CLAB_MOTION_SERVO = 2     /* a servo wall (clab_servo) */
} clab_motion_kind;

#define CLAB_MOTION_COLS 7 /* a table row: t [s], vx vy vz [m/s], wx wy wz [rad/s] (world frame) */

/* The servo wall's law (lib/servo.c). axis: the unit direction in which the wall moves INTO
 * the sample (a top plate: (0, 0, -1)); the sample pushes the wall back along -axis with the
 * contact force F (clab_sim_body_force), so the normal stress on the wall, compressive
 * positive, is sigma = -F . axis / area, and the wall's speed along axis is
 *     v = gain (stress - sigma),   clamped to |v| <= vmax:
 * too little stress moves the wall into the sample, too much backs it off. gain [m/(s Pa)]:
 * with N_c contacts of normal stiffness k_n on the wall, a wall speed v changes sigma by
 * k_n N_c v h / area in one step, so gain = alpha area / (k_n N_c h) closes the fraction
 * alpha of the stress error in a step (clab_servo_gain; alpha <= 0.5 for a smooth approach,
 * the choice of Thornton's and of PFC's servo); vmax bounds the wall's travel per step, h vmax,
 * to a small fraction of the contacts' overlap (e.g. 1e-3 of a radius per step). */
typedef struct clab_servo {
    clab_vec3 axis; /* unit [-] (normalized by clab_world_set_motion) */
    double stress;  /* target normal stress sigma* [Pa], compressive positive */
    double area;    /* area the stress acts on [m^2], > 0 */
    double gain;    /* [m/(s Pa)], > 0 */
    double vmax;    /* speed limit [m/s], > 0 */
} clab_servo;

/* A prescribed motion as given to clab_world_set_motion (which copies the table). */
typedef struct clab_motion {
    clab_motion_kind kind;
    clab_vec3 v, omega;  /* constant: the velocity [m/s] and angular velocity, world frame
                          * [rad/s]; servo: a base velocity added to the servo's (e.g. a
                          * shear box's lid driven sideways while it holds its stress) */
    const double *table; /* table: nrows x CLAB_MOTION_COLS, row major */
    size_t nrows;        /* table: >= 1 */
    clab_servo servo;    /* servo */
} clab_motion;

/* A driven body of the world: its index and its motion (the table the world's own copy). */
typedef struct clab_driven {
    size_t body;
    clab_motion m;
} clab_driven;

/* An applied load on a free body: force and torque, world frame, constant [N], [N m]. */
typedef struct clab_load {
    clab_vec3 F, T;
} clab_load;

static inline clab_motion clab_motion_constant(clab_vec3 v, clab_vec3 omega)
{
    clab_motion m = {CLAB_MOTION_CONSTANT, v, omega, NULL, 0, {{0, 0, 0}, 0, 0, 0, 0}};
    return m;
}

/* Check a motion table: nrows >= 1, every entry finite, t strictly increasing. CLAB_OK, or
 * CLAB_EINVAL with why (n bytes) saying which row and what. */
int clab_motion_table_check(const double *table, size_t nrows, char *why, size_t n);

/* Check a servo: axis finite and non-zero, stress finite, area, gain and vmax finite and > 0.
 * CLAB_OK, or CLAB_EINVAL with why naming the field. */
int clab_servo_check(const clab_servo *s, char *why, size_t n);

/* The table's velocity at time t (out: vx vy vz wx wy wz), and its mean over [t0, t1]
 * (t1 > t0; the exact integral of the piecewise-linear velocity divided by t1 - t0). */
void clab_motion_table_at(const double *table, size_t nrows, double t, double out[6]);
void clab_motion_table_mean(const double *table, size_t nrows, double t0, double t1, double out[6]);

/* The servo's speed along its axis for the contact force F on the wall (world frame) [m/s]. */
double clab_servo_speed(const clab_servo *s, clab_vec3 F);

/* The usual gain: alpha area / (kn ncontacts h) [m/(s Pa)] (see clab_servo). kn [N/m]: a
 * contact's normal stiffness (Hertz: its tangent stiffness at the expected overlap). */
double clab_servo_gain(double area, double kn, double ncontacts, double h, double alpha);

/* Make body i driven (fixed, with this motion), replacing a motion it had; sets its velocity
 * now (constant, servo: v and omega; table: the table at w->t). CLAB_EINVAL (naming the body
 * and the field) for a bad table or servo or a body that does not exist, CLAB_ENOMEM. */
int clab_world_set_motion(struct clab_world *w, size_t i, const clab_motion *m, clab_error *err);

/* The motion of body i, NULL when it is not driven. */
const clab_driven *clab_world_motion(const struct clab_world *w, size_t i);

/* Set a driven body's velocity (world frame) between steps: a constant motion holds it from
 * now on, a servo takes it as its base velocity; CLAB_EINVAL when body i is not driven or
 * follows a table (the table rules), or the values are not finite. */
int clab_world_set_body_velocity(struct clab_world *w, size_t i, clab_vec3 v, clab_vec3 omega, clab_error *err);

/* A constant applied force F and torque T (world frame) on free body i, added to its gravity
 * in clab_world_applied; zero both to remove it. CLAB_EINVAL for a fixed body or a value not
 * finite, CLAB_ENOMEM. */
int clab_world_set_load(struct clab_world *w, size_t i, clab_vec3 F, clab_vec3 T, clab_error *err);

/* The step driver's two passes over the driven bodies (lib/sim.c): before the step, each
 * table's velocity set to its mean over [t, t + h]; after it, every driven body advanced by h
 * (r += h rdot, e advanced by wbar: Eq. (5a) of seed 000). */
void clab_world_motion_begin(struct clab_world *w, double h);
void clab_world_motion_drift(struct clab_world *w, double h);

#endif
