/* collide_box.c: narrow phase for plane-box and sphere-box.
 *
 * Gap convention of seed 000, Sect. 2: with P_A on the surface of A, P_B on the surface of B
 * and n the unit normal from A to B, Phi = n . (P_B - P_A); Phi < 0 is penetration. */
#include "narrow_pair.h"

/* Box B against the half-space A (outward normal m = A_A (0,0,1), boundary through r_A).
 * The gap of box vertex k, at r_B + A_B vbar_k, is
 *     Phi_k = m . (r_B - r_A) + (A_B^T m) . vbar_k,
 * exact for any orientation; n = m points from the plane to the box. Each vertex with
 * Phi_k < envelope is a contact (feature = vertex id k); when more than 4 qualify (a thin
 * box and a wide envelope) the 4 with the smallest gaps are kept, ties by vertex id, so a
 * box resting on a face reports exactly that face's 4 corners. */
int clab_collide_plane_box(const clab_body *A, const clab_body *B, int ia, int ib, double env, clab_contacts *out)
{
    clab_vec3 m = clab_q_rotate(A->e, clab_v3(0.0, 0.0, 1.0));
    clab_vec3 mbar = clab_q_rotate_inv(B->e, m); /* m in the box frame */
    double h0 = clab_v3_dot(m, clab_v3_sub(B->r, A->r));
    double phi[8];
    unsigned order[8], nsel = 0;

    /* vertices below the envelope, kept sorted by (Phi, id) (insertion sort, 8 at most) */
    for (unsigned k = 0; k < 8; k++) {
        phi[k] = h0 + clab_v3_dot(mbar, clab_box_vertex(B->shape.half, k));
        if (!(phi[k] < env)) continue;
        unsigned p = nsel++;
        while (p > 0 && phi[order[p - 1]] > phi[k]) {
            order[p] = order[p - 1];
            p--;
        }
        order[p] = k;
    }
    if (nsel > 4) nsel = 4;

    /* emit in vertex-id order: P_B the vertex, P_A its projection on the plane */
    for (unsigned k = 0; k < 8; k++) {
        int kept = 0;
        for (unsigned s = 0; s < nsel; s++) kept |= order[s] == k;
        if (!kept) continue;
        clab_vec3 pB = clab_body_point(B, clab_box_vertex(B->shape.half, k));
        clab_vec3 pA = clab_v3_madd(pB, -phi[k], m);
        int rc = clab_emit_contact(A, B, ia, ib, pA, pB, m, phi[k], k, out);
        if (rc) return rc;
    }
    return CLAB_OK;
}

/* Sphere A (radius R, center r_A) against box B (half extents h). With c = A_B^T (r_A - r_B)
 * the center in the box frame and q = clamp(c, -h, h) the closest box point:
 *   outside (q != c): Phi = |c - q| - R, n = -A_B (c - q)/|c - q| (from the sphere to the box),
 *     P_B = r_B + A_B q, P_A = r_A + R n;
 *   inside: the sphere is pushed out through the face of least penetration d_i = h_i - |c_i|
 *     (outward face normal mbar = sign(c_i) e_i): Phi = -(d_i + R), n = -A_B mbar,
 *     P_B = c moved onto that face, P_A = r_A + R n.
 * One contact per pair, so the feature is 0 (the key persists as the sphere rolls over
 * faces, edges and corners). */
int clab_collide_sphere_box(const clab_body *A, const clab_body *B, int ia, int ib, double env, clab_contacts *out)
{
    double R = A->shape.radius;
    double h[3] = {B->shape.half.x, B->shape.half.y, B->shape.half.z};
    clab_vec3 cv = clab_q_rotate_inv(B->e, clab_v3_sub(A->r, B->r));
    double c[3] = {cv.x, cv.y, cv.z}, q[3], d2 = 0.0;
    int inside = 1;

    /* closest point of the box to the center */
    for (int i = 0; i < 3; i++) {
        q[i] = c[i] < -h[i] ? -h[i] : (c[i] > h[i] ? h[i] : c[i]);
        if (q[i] != c[i]) inside = 0;
        d2 += (c[i] - q[i]) * (c[i] - q[i]);
    }

    clab_vec3 nbar; /* normal from the sphere to the box, box frame */
    double phi;
    if (!inside) {
        double dist = sqrt(d2);
        phi = dist - R;
        if (!(phi < env)) return CLAB_OK;
        nbar = clab_v3((q[0] - c[0]) / dist, (q[1] - c[1]) / dist, (q[2] - c[2]) / dist);
    } else {
        /* face of least penetration, ties to the lower axis */
        int f = 0;
        double dmin = h[0] - fabs(c[0]);
        for (int i = 1; i < 3; i++)
            if (h[i] - fabs(c[i]) < dmin) {
                dmin = h[i] - fabs(c[i]);
                f = i;
            }
        phi = -(dmin + R);
        if (!(phi < env)) return CLAB_OK;
        double sgn = c[f] >= 0.0 ? 1.0 : -1.0;
        q[f] = sgn * h[f];
        nbar = clab_v3(f == 0 ? -sgn : 0.0, f == 1 ? -sgn : 0.0, f == 2 ? -sgn : 0.0);
    }
    clab_vec3 n = clab_q_rotate(B->e, nbar);
    clab_vec3 pB = clab_body_point(B, clab_v3(q[0], q[1], q[2]));
    clab_vec3 pA = clab_v3_madd(A->r, R, n);
    return clab_emit_contact(A, B, ia, ib, pA, pB, n, phi, 0, out);
}
