/* integrator.h: the explicit time integration of the penalty backend, for every free body,
 * from the contact forces of one step (world frame) plus the applied forces of the world. */
#ifndef CLAB_PENALTY_INTEGRATOR_H
#define CLAB_PENALTY_INTEGRATOR_H

#include "clab_v2.h"
#include "clab_world.h"

typedef enum {
    CLAB_PENALTY_EULER = 0, /* semi-implicit (symplectic) Euler: Eq. (5b) then (5a) of seed 000 */
    CLAB_PENALTY_VERLET = 1 /* velocity Verlet as LAMMPS fix nve/sphere runs it */
} clab_penalty_integrator;

/* Advance every free body of w by h under the contact force F[i] and torque T[i] (both world
 * frame, about the center of mass; arrays of w->nbodies) plus gravity and the loads
 * (clab_world_applied; the loads by clab_penalty_load_kick):
 *   euler:  v(l+1) = v(l) + h M^-1 f(q(l), v(l)),  q(l+1) = q(l) + h v(l+1)
 *   verlet: v(l) = v(l-1/2) + h/2 M^-1 f(l)  (second half-kick of the last step, skipped when
 *           first), v(l+1/2) = v(l) + h/2 M^-1 f(l), q(l+1) = q(l) + h v(l+1/2)
 * The velocities stored between verlet steps are the half-step ones, v(l+1/2), which are what
 * the forces of the next step see (as in LAMMPS). Euler parameters stay normalized
 * (clab_q_advance). */
void clab_penalty_integrate(clab_world *w, const clab_vec3 *F, const clab_vec3 *T, double h,
                            clab_penalty_integrator scheme, int first);

/* The same for the one free body i under contact force F and torque T (world frame); the
 * loop body of clab_penalty_integrate, for callers that sum the forces per body themselves
 * (and in parallel: bodies are independent). */
void clab_penalty_integrate_body(clab_world *w, size_t i, clab_vec3 F, clab_vec3 T, double h,
                                 clab_penalty_integrator scheme, int first);
/* The same with the contact torque given in the body frame, taubar = A(e)^T T (inline: the
 * backend's body loop calls it once a body a step), and turn = 0 for a body whose orientation
 * is not advanced (r only: the penalty option sphere_orientation=off, for spheres of isotropic
 * inertia, whose motion does not depend on e: their levers lie on the normals, and A(e) wbar,
 * the angular velocity in the world frame, changes only by h/J tau whatever e is). */
static CLAB_ALWAYS_INLINE void clab_penalty_integrate_body_turn(clab_world *w, size_t i, clab_vec3 F, clab_vec3 taubar_c,
                                                                double h, clab_penalty_integrator scheme, int first,
                                                                int turn)
{
    clab_body *b = &w->bodies[i];
    if (b->fixed) return;
    /* total force (world) and torque (body frame, as Euler's equations want it) */
    clab_vec3 Fa, taua;
    clab_world_gravity(w, i, &Fa, &taua); /* the loads: clab_penalty_load_kick */
    clab_vec3 Ftot = clab_v3_add(F, Fa);
    clab_vec3 taubar = clab_v3_add(taubar_c, taua);
    if (scheme == CLAB_PENALTY_VERLET) {
        /* kick-drift-kick, the closing half-kick of the last step merged in here (the factors
         * h/2m, h/2J divided once for both) */
        if (b->J.x == b->J.y && b->J.y == b->J.z) {
            /* isotropic (a sphere): no gyroscopic term, one factor h/2J (clab_body_kick_by with
             * hJ = (h/2J, h/2J, h/2J): the same operations, divided once); h/2m and h/2J by one
             * division of two lanes where there are lanes (clab_v2.h: the same bits) */
#ifdef CLAB_V2
            const clab_v2d q = clab_v2_set1(0.5 * h) / (clab_v2d){b->m, b->J.x};
            const double hm = q[0], hJ = q[1];
#else
            const double hm = 0.5 * h / b->m, hJ = 0.5 * h / b->J.x;
#endif
            if (!first) {
                b->rdot = clab_v3_madd(b->rdot, hm, Ftot);
                b->wbar = clab_v3_madd(b->wbar, hJ, taubar);
            }
            b->rdot = clab_v3_madd(b->rdot, hm, Ftot);
            b->wbar = clab_v3_madd(b->wbar, hJ, taubar);
        } else {
            const double hm = 0.5 * h / b->m;
            clab_vec3 hJ = clab_v3(0.5 * h / b->J.x, 0.5 * h / b->J.y, 0.5 * h / b->J.z);
            if (!first) clab_body_kick_by(b, Ftot, taubar, hm, hJ);
            clab_body_kick_by(b, Ftot, taubar, hm, hJ);
        }
    } else {
        clab_body_kick(b, Ftot, taubar, h); /* Eq. (5b) of seed 000 */
    }
    if (turn) clab_body_drift(b, h); /* Eq. (5a) of seed 000 */
    else b->r = clab_v3_madd(b->r, h, b->rdot);
}

/* The loads' kick of free body i (clab_world_set_load; a world with loads only), given before
 * its update above, after the contact forces: v += c h F_L/m, wbar += c h Jbar^-1 A(e)^T T_L,
 * c = 1/2 at velocity Verlet's first step (its one half-kick), else 1 (Euler's kick, Verlet's
 * two merged half-kicks). With the update's kick of the contact forces and gravity this is
 * the kick of clab_world_applied's sum, split in two (the same to rounding; the plain and the
 * fast step split it alike). */
static inline void clab_penalty_load_kick(clab_world *w, size_t i, double h, clab_penalty_integrator scheme, int first)
{
    clab_body *b = &w->bodies[i];
    if (b->fixed) return;
    const double c = scheme == CLAB_PENALTY_VERLET && first ? 0.5 * h : h;
    const clab_load *L = &w->loads[i];
    b->rdot = clab_v3_madd(b->rdot, c / b->m, L->F);
    const clab_vec3 tb = clab_q_rotate_inv(b->e, L->T);
    b->wbar = clab_v3_add(b->wbar, clab_v3(c * tb.x / b->J.x, c * tb.y / b->J.y, c * tb.z / b->J.z));
}

/* clab_penalty_integrate_body_turn with the orientation advanced */
static inline void clab_penalty_integrate_body_bar(clab_world *w, size_t i, clab_vec3 F, clab_vec3 taubar_c, double h,
                                                   clab_penalty_integrator scheme, int first)
{
    clab_penalty_integrate_body_turn(w, i, F, taubar_c, h, scheme, first, 1);
}

#endif
