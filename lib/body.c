/* body.c: the shared rigid-body updates, Eq. (5a)-(5b) of seed 000 for one body */
#include "clab_body.h"

double clab_body_kinetic_energy(const clab_body *b)
{
    if (b->fixed) return 0.0;
    return 0.5 * b->m * clab_v3_norm2(b->rdot) + 0.5 * clab_v3_dot(b->wbar, clab_v3_mul(b->J, b->wbar));
}

void clab_body_kick(clab_body *b, clab_vec3 F, clab_vec3 taubar, double h)
{
    if (b->fixed) return;
    b->rdot = clab_v3_madd(b->rdot, h / b->m, F);
    /* Euler's equations in the principal frame: Jbar wbar' = taubar - wbar x (Jbar wbar) */
    clab_vec3 gyro = clab_v3_cross(b->wbar, clab_v3_mul(b->J, b->wbar));
    clab_vec3 dw = clab_v3_sub(taubar, gyro);
    b->wbar = clab_v3_add(b->wbar, clab_v3(h * dw.x / b->J.x, h * dw.y / b->J.y, h * dw.z / b->J.z));
}

void clab_body_drift(clab_body *b, double h)
{
    if (b->fixed) return;
    b->r = clab_v3_madd(b->r, h, b->rdot);
    b->e = clab_q_advance(b->e, b->wbar, h);
}
