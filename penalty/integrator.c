/* integrator.c: explicit integration of the free bodies (see integrator.h) */
#include "integrator.h"

void clab_penalty_integrate_body_bar(clab_world *w, size_t i, clab_vec3 F, clab_vec3 taubar_c, double h,
                                     clab_penalty_integrator scheme, int first)
{
    clab_body *b = &w->bodies[i];
    if (b->fixed) return;
    /* total force (world) and torque (body frame, as Euler's equations want it) */
    clab_vec3 Fa, taua;
    clab_world_applied(w, i, &Fa, &taua);
    clab_vec3 Ftot = clab_v3_add(F, Fa);
    clab_vec3 taubar = clab_v3_add(taubar_c, taua);
    if (scheme == CLAB_PENALTY_VERLET) {
        /* kick-drift-kick, the closing half-kick of the last step merged in here */
        if (!first) clab_body_kick(b, Ftot, taubar, 0.5 * h);
        clab_body_kick(b, Ftot, taubar, 0.5 * h);
    } else {
        clab_body_kick(b, Ftot, taubar, h); /* Eq. (5b) of seed 000 */
    }
    clab_body_drift(b, h); /* Eq. (5a) of seed 000 */
}

void clab_penalty_integrate_body(clab_world *w, size_t i, clab_vec3 F, clab_vec3 T, double h,
                                 clab_penalty_integrator scheme, int first)
{
    clab_body *b = &w->bodies[i];
    if (b->fixed) return;
    clab_penalty_integrate_body_bar(w, i, F, clab_q_rotate_inv(b->e, T), h, scheme, first);
}

void clab_penalty_integrate(clab_world *w, const clab_vec3 *F, const clab_vec3 *T, double h,
                            clab_penalty_integrator scheme, int first)
{
    for (size_t i = 0; i < w->nbodies; i++) clab_penalty_integrate_body(w, i, F[i], T[i], h, scheme, first);
}
