/* integrator.c: explicit integration of the free bodies (see integrator.h) */
#include "integrator.h"

void clab_penalty_integrate_body(clab_world *w, size_t i, clab_vec3 F, clab_vec3 T, double h,
                                 clab_penalty_integrator scheme, int first)
{
    clab_body *b = &w->bodies[i];
    if (b->fixed) return;
    if (w->loads) clab_penalty_load_kick(w, i, h, scheme, first);
    clab_penalty_integrate_body_bar(w, i, F, clab_q_rotate_inv(b->e, T), h, scheme, first);
}

void clab_penalty_integrate(clab_world *w, const clab_vec3 *F, const clab_vec3 *T, double h,
                            clab_penalty_integrator scheme, int first)
{
    for (size_t i = 0; i < w->nbodies; i++) clab_penalty_integrate_body(w, i, F[i], T[i], h, scheme, first);
}
