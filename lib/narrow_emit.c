/* narrow_emit.c: the record a narrow-phase pair routine appends (clab_emit_contact) */
#include "narrow_pair.h"

int clab_emit_contact(const clab_body *A, const clab_body *B, int ia, int ib, clab_vec3 pA, clab_vec3 pB, clab_vec3 n,
                      double phi, unsigned feature, clab_contacts *out)
{
    clab_contact c;
    if (ia > ib) { /* seed 000: n points from the lower body index to the higher */
        const clab_body *tb = A; A = B; B = tb;
        int ti = ia; ia = ib; ib = ti;
        n = clab_v3_neg(n);
    }
    c.a = ia;
    c.b = ib;
    c.n = n;
    c.phi = phi;
    c.key = clab_contact_key(ia, ib, feature);
    c.lever = CLAB_LEVER_NONE; /* set by clab_contacts_push */
    c.unused = 0;
    /* two spheres: no levers (P on the line of centers, clab_contact_levers) */
    if (A->shape.type == CLAB_SHAPE_SPHERE && B->shape.type == CLAB_SHAPE_SPHERE)
        return clab_contacts_push(out, &c, NULL);
    /* else P, midway, in both body frames, stored in the side array (the record indexes it) */
    clab_vec3 p = clab_v3_scale(clab_v3_add(pA, pB), 0.5);
    const clab_lever lv = {clab_q_rotate_inv(A->e, clab_v3_sub(p, A->r)),
                           clab_q_rotate_inv(B->e, clab_v3_sub(p, B->r))};
    return clab_contacts_push(out, &c, &lv);
}
