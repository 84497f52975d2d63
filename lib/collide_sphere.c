/* collide_sphere.c: narrow phase for sphere-sphere and sphere-plane */
#include "narrow_pair.h"

/* spheres of radii R_A, R_B at r_A, r_B: Phi = |r_B - r_A| - R_A - R_B, n = (r_B - r_A)/|..| */
int clab_collide_sphere_sphere(const clab_body *A, const clab_body *B, int ia, int ib, double env, clab_contacts *out)
{
    clab_vec3 d = clab_v3_sub(B->r, A->r);
    double dist = clab_v3_norm(d);
    double phi = dist - A->shape.radius - B->shape.radius;
    if (phi >= env) return CLAB_OK;
    clab_vec3 n = dist > 0.0 ? clab_v3_scale(d, 1.0 / dist) : clab_v3(0.0, 0.0, 1.0);
    clab_vec3 pA = clab_v3_madd(A->r, A->shape.radius, n);
    clab_vec3 pB = clab_v3_madd(B->r, -B->shape.radius, n);
    return clab_emit_contact(A, B, ia, ib, pA, pB, n, phi, 0, out);
}

/* sphere A against the half-space B with outward normal m = A_B (0,0,1) through r_B:
 * Phi = m . (r_A - r_B) - R_A; the normal from A to B is -m */
int clab_collide_sphere_plane(const clab_body *A, const clab_body *B, int ia, int ib, double env, clab_contacts *out)
{
    clab_vec3 m = clab_q_rotate(B->e, clab_v3(0.0, 0.0, 1.0));
    double h = clab_v3_dot(m, clab_v3_sub(A->r, B->r));
    double phi = h - A->shape.radius;
    if (phi >= env) return CLAB_OK;
    clab_vec3 pA = clab_v3_madd(A->r, -A->shape.radius, m);
    clab_vec3 pB = clab_v3_madd(A->r, -h, m);
    return clab_emit_contact(A, B, ia, ib, pA, pB, clab_v3_neg(m), phi, 0, out);
}
