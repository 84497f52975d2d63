/* body.c: the shared rigid-body updates, Eq. (5a)-(5b) of seed 000 for one body */
#include "clab_body.h"

double clab_body_kinetic_energy(const clab_body *b)
{
    if (b->fixed) return 0.0;
    return 0.5 * b->m * clab_v3_norm2(b->rdot) + 0.5 * clab_v3_dot(b->wbar, clab_v3_mul(b->J, b->wbar));
}

/* clab_body_kick and clab_body_drift are inline in clab_body.h (the integration loops of both
 * backends call them once a body a step) */
