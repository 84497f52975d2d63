/* collide_triangle.c: narrow phase for a sphere against one triangle of a mesh wall
 * (clab_mesh.h, doc/design.md "Triangle-mesh walls").
 *
 * Gap convention of seed 000, Sect. 2: n the unit normal from A (the sphere) to B (the
 * triangle), Phi = n . (P_B - P_A) < 0 in penetration. With c the sphere center in the
 * triangle's frame and p the closest point of the triangle to c (Ericson, Real-Time Collision
 * Detection, Sect. 5.1.5: the Voronoi regions of the vertices, the edges and the face, tested
 * here in the mesh's own terms, closest_feature):
 *     Phi = |c - p| - R,   n = -(c - p)/|c - p|,   P_B = p,   P_A = c + R n;
 * on the face p = c - h m (m the unit normal, h = m . (c - v0)), so Phi = |h| - R and
 * n = -sign(h) m, the plane's formulas (h = 0: n = -m). Two-sided, zero thickness.
 * A contact on an edge or a vertex is reported only by the triangle that owns the feature,
 * and only when c lies in the feature's region of the whole mesh (its region vectors g:
 * (c - X) . g <= 0 for each), so a sphere over a flat joint or a shared vertex gets one
 * contact. One contact per pair: feature 0 (the key persists as the sphere moves over the
 * triangle's face, edges and corners). Every point p of the triangle has |c - p| >= |h|, so a
 * sphere with |h| - R beyond the envelope by more than the rounding of either distance
 * (clab_tri_slack, collide_common.h) is left before the feature tests: the same verdict. */
#include "clab_mesh.h"
#include "collide_common.h"
#include "narrow_pair.h"

enum { FEAT_EDGE0 = 0, FEAT_VERTEX0 = 3, FEAT_FACE = 6 };

/* The feature of T closest to x (frame as loaded) and the closest point p on it:
 *  1. vertex k when x is in its Voronoi region of T, (x - V) . (W - V) <= 0 for both edges
 *     V W of T at it (closed: a boundary goes to the vertex);
 *  2. else edge k when x is on or beyond its side, s_k = (x - X_k) . beta_k >= 0, and
 *     projects inside it, (x - P) . (Q - P) > 0 and (x - Q) . (P - Q) > 0 (the nearest such);
 *  3. else the face when every s_k < 0 (open);
 *  4. else (ties of rounding) the nearest point of the three edges.
 * The tests are the mesh's own region tests term for term (the same doubles in the same
 * operations), so two triangles at a shared feature decide it alike. */
static int closest_feature(const clab_tri *T, clab_vec3 x, clab_vec3 *p)
{
    double end[3][2]; /* (x - w_k) . (w_k+1 - w_k), (x - w_k+1) . (w_k - w_k+1) */
    for (int k = 0; k < 3; k++) {
        const clab_vec3 P = T->w[k], Q = T->w[(k + 1) % 3];
        end[k][0] = clab_v3_dot(clab_v3_sub(x, P), clab_v3_sub(Q, P));
        end[k][1] = clab_v3_dot(clab_v3_sub(x, Q), clab_v3_sub(P, Q));
    }
    for (int k = 0; k < 3; k++) /* vertex k: edges k (its start) and k + 2 (its end) */
        if (end[k][0] <= 0.0 && end[(k + 2) % 3][1] <= 0.0) {
            *p = T->w[k];
            return FEAT_VERTEX0 + k;
        }
    int best = -1, outside = 0;
    double best_d2 = INFINITY;
    clab_vec3 best_p = T->w[0];
    for (int k = 0; k < 3; k++) {
        const double s = clab_v3_dot(clab_v3_sub(x, T->w[T->anchor[k]]), T->beta[k]);
        if (!(s >= 0.0)) continue;
        outside = 1;
        const clab_vec3 P = T->w[k], e = clab_v3_sub(T->w[(k + 1) % 3], P);
        double t = end[k][0] / clab_v3_dot(e, e);
        t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
        const clab_vec3 q = clab_v3_madd(P, t, e), d = clab_v3_sub(x, q);
        const double d2 = clab_v3_dot(d, d);
        if (end[k][0] > 0.0 && end[k][1] > 0.0 && d2 < best_d2) {
            best = k;
            best_d2 = d2;
            best_p = q;
        }
    }
    if (best >= 0) {
        *p = best_p;
        return FEAT_EDGE0 + best;
    }
    if (!outside) return FEAT_FACE; /* p: the caller's projection on the plane */
    /* 4. the nearest point of the edges, as a vertex or an edge */
    int f = FEAT_VERTEX0;
    best_d2 = INFINITY;
    for (int k = 0; k < 3; k++) {
        const clab_vec3 P = T->w[k], e = clab_v3_sub(T->w[(k + 1) % 3], P);
        double t = end[k][0] / clab_v3_dot(e, e);
        t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
        const clab_vec3 q = clab_v3_madd(P, t, e), d = clab_v3_sub(x, q);
        const double d2 = clab_v3_dot(d, d);
        if (d2 < best_d2) {
            best_d2 = d2;
            *p = q;
            f = t <= 0.0 ? FEAT_VERTEX0 + k : t >= 1.0 ? FEAT_VERTEX0 + (k + 1) % 3 : FEAT_EDGE0 + k;
        }
    }
    return f;
}

/* the feature f (edge or vertex) of T is reported for the center x: T owns it and x is in its
 * region of the mesh, (x - X) . g <= 0 for every region vector (X: edge f's anchor, or the
 * vertex f - 3) */
static int feature_reported(const clab_meshes *m, const clab_tri *T, int f, clab_vec3 x)
{
    if (!(T->own & (1u << f))) return 0;
    const clab_vec3 d = clab_v3_sub(x, T->w[f < FEAT_VERTEX0 ? T->anchor[f] : f - FEAT_VERTEX0]);
    for (uint32_t k = T->reg[f]; k < T->reg[f + 1]; k++)
        if (clab_v3_dot(d, m->g[k]) > 0.0) return 0;
    return 1;
}

/* sphere A against triangle B */
static int sphere_triangle(const clab_world *w, const clab_body *A, const clab_body *B, int ia, int ib, double env,
                           clab_contacts *out)
{
    const clab_tri *T = &w->meshes->t[B->shape.tri];
    const double R = A->shape.radius;
    /* the center in the frame as loaded: itself while the triangle is where it was loaded */
    int home;
    const clab_vec3 x = clab_tri_local(T, B, A->r, &home);
    /* the signed height over the plane; |x - p| >= |h| for every point p of the triangle, so
     * a sphere whose |h| - R clears the envelope by more than the rounding of either distance
     * (clab_tri_slack) has no contact: the verdict of the feature tests below, without them */
    const double h = clab_v3_dot(T->n, clab_v3_sub(x, T->w[0]));
    double phi = fabs(h) - R;
    if (phi >= env && phi >= env + clab_tri_slack(T, B, x)) return CLAB_OK;
    clab_vec3 p, nbar;
    const int f = closest_feature(T, x, &p);
    if (f == FEAT_FACE) {
        if (!(phi < env)) return CLAB_OK;
        p = clab_v3_madd(x, -h, T->n);
        nbar = h >= 0.0 ? clab_v3_neg(T->n) : T->n;
    } else {
        const clab_vec3 d = clab_v3_sub(x, p);
        const double dist = clab_v3_norm(d);
        phi = dist - R;
        if (!(phi < env)) return CLAB_OK;
        if (!feature_reported(w->meshes, T, f, x)) return CLAB_OK;
        nbar = dist > 0.0 ? clab_v3_scale(d, -1.0 / dist) : clab_v3_neg(T->n);
    }
    const clab_vec3 n = home ? nbar : clab_q_rotate(B->e, nbar);
    const clab_vec3 pB = home ? p : clab_body_point(B, clab_v3_sub(p, T->r0)), pA = clab_v3_madd(A->r, R, n);
    return clab_emit_contact(A, B, ia, ib, pA, pB, n, phi, 0, out);
}

int clab_collide_triangle_pair(const clab_world *w, const clab_body *A, const clab_body *B, int ia, int ib,
                               double env, clab_contacts *out)
{
    if (!w->meshes || B->shape.tri < 0 || (size_t)B->shape.tri >= w->meshes->n) return CLAB_EINVAL;
    switch (A->shape.type) {
    case CLAB_SHAPE_SPHERE: return sphere_triangle(w, A, B, ia, ib, env, out);
    case CLAB_SHAPE_BOX: return CLAB_EINVAL; /* refused when the world is built (clab_world_add_mesh) */
    default: return CLAB_OK;                 /* a plane or a triangle: both fixed */
    }
}
