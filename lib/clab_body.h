/* clab_body.h: rigid bodies in the notation of seed 000.
 * State of body j: position r of the center of mass and Euler parameters e (q = [r, e]);
 * velocity rdot and angular velocity wbar in the body frame (v = [rdot, wbar]).
 * The body frame is centroidal and principal, so the inertia J is diagonal there. */
#ifndef CLAB_BODY_H
#define CLAB_BODY_H

#include "clab_math.h"
#include "clab_shape.h"

typedef struct clab_body {
    double m;        /* mass [kg] (fixed bodies: ignored, treated as infinite) */
    clab_vec3 J;     /* principal moments of inertia Jbar, body frame [kg m^2] */
    clab_vec3 r;     /* center of mass, world frame [m] */
    clab_quat e;     /* Euler parameters, body to world: x = A(e) xbar */
    clab_vec3 rdot;  /* velocity of the center of mass, world frame [m/s] */
    clab_vec3 wbar;  /* angular velocity, body frame [rad/s] */
    int fixed;       /* 1: does not move (ground, walls, frozen particles) */
    int material;    /* index into the world's materials */
    clab_shape shape;
} clab_body;

/* Inverse mass [1/kg] and inverse inertia [1/(kg m^2)]: zero for fixed bodies, so solvers
 * need no special case for the ground. */
static inline double clab_body_invmass(const clab_body *b) { return b->fixed ? 0.0 : 1.0 / b->m; }
static inline clab_vec3 clab_body_invinertia(const clab_body *b)
{
    return b->fixed ? clab_v3(0.0, 0.0, 0.0) : clab_v3(1.0 / b->J.x, 1.0 / b->J.y, 1.0 / b->J.z);
}

/* World position of a body-frame point sbar: r + A(e) sbar. */
static inline clab_vec3 clab_body_point(const clab_body *b, clab_vec3 sbar)
{
    return clab_v3_add(b->r, clab_q_rotate(b->e, sbar));
}

/* World velocity of a body-frame point sbar: rdot + A(e) (wbar x sbar). */
static inline clab_vec3 clab_body_point_velocity(const clab_body *b, clab_vec3 sbar)
{
    return clab_v3_add(b->rdot, clab_q_rotate(b->e, clab_v3_cross(b->wbar, sbar)));
}

/* Angular velocity in the world frame: A(e) wbar. */
static inline clab_vec3 clab_body_omega_world(const clab_body *b) { return clab_q_rotate(b->e, b->wbar); }

/* Kinetic energy 1/2 m |rdot|^2 + 1/2 wbar . J wbar [J] (0 for fixed bodies). */
double clab_body_kinetic_energy(const clab_body *b);

/* Velocity update of Eq. (5b) of seed 000 for one free body under a force F (world frame)
 * and a torque taubar (body frame), gyroscopic term included:
 *   rdot += h F / m,   wbar += h Jbar^-1 (taubar - wbar x Jbar wbar).
 * Fixed bodies are left unchanged. */
static inline void clab_body_kick(clab_body *b, clab_vec3 F, clab_vec3 taubar, double h)
{
    if (b->fixed) return;
    b->rdot = clab_v3_madd(b->rdot, h / b->m, F);
    /* Euler's equations in the principal frame: Jbar wbar' = taubar - wbar x (Jbar wbar); the
     * gyroscopic term vanishes for an isotropic body (a sphere), J wbar x wbar = 0 */
    clab_vec3 gyro = b->J.x == b->J.y && b->J.y == b->J.z ? clab_v3(0.0, 0.0, 0.0)
                                                           : clab_v3_cross(b->wbar, clab_v3_mul(b->J, b->wbar));
    clab_vec3 dw = clab_v3_sub(taubar, gyro);
    b->wbar = clab_v3_add(b->wbar, clab_v3(h * dw.x / b->J.x, h * dw.y / b->J.y, h * dw.z / b->J.z));
}

/* The same with the factors h/m and h/Jbar (componentwise) given, for a caller that kicks a
 * body twice a step (velocity Verlet) and divides once:
 *   rdot += (h/m) F,   wbar += (h/Jbar) (taubar - wbar x Jbar wbar).
 * Equal to clab_body_kick up to rounding (h/J dw instead of h dw/J). */
static inline void clab_body_kick_by(clab_body *b, clab_vec3 F, clab_vec3 taubar, double hm, clab_vec3 hJ)
{
    if (b->fixed) return;
    b->rdot = clab_v3_madd(b->rdot, hm, F);
    if (b->J.x == b->J.y && b->J.y == b->J.z) { /* isotropic (a sphere): no gyroscopic term */
        b->wbar = clab_v3_add(b->wbar, clab_v3_mul(hJ, taubar));
        return;
    }
    clab_vec3 gyro = clab_v3_cross(b->wbar, clab_v3_mul(b->J, b->wbar));
    b->wbar = clab_v3_add(b->wbar, clab_v3_mul(hJ, clab_v3_sub(taubar, gyro)));
}

/* Position update of Eq. (5a): r += h rdot, e advanced by wbar (clab_q_advance). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline void clab_body_drift(clab_body *b, double h)
{
    if (b->fixed) return;
    b->r = clab_v3_madd(b->r, h, b->rdot);
    b->e = clab_q_advance(b->e, b->wbar, h);
}

#endif
