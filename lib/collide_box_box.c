/* collide_box_box.c: narrow phase for box-box, by the separating axis test.
 *
 * Two boxes (centers r_A, r_B, unit axes a_k, b_k = columns of A(e), half extents hA, hB)
 * are disjoint when some axis L separates their projections. On a unit axis L with
 * d = r_B - r_A the projections are separated by
 *     s(L) = |d . L| - sum_k hA_k |a_k . L| - sum_k hB_k |b_k . L|,
 * and it suffices to test the 15 axes a_i, b_j, a_i x b_j. Every s(L) is a lower bound of the
 * distance, so max s >= envelope means no contact. Otherwise the axis of largest s gives the
 * contact (faces preferred over edges, and a's faces over b's, within a small tolerance so the
 * choice does not flicker while a contact persists):
 *   face axis: the reference face (normal along L, on the box owning L) and the incident face
 *     (the other box's face most opposed to L); the incident face is clipped against the four
 *     side planes of the reference face (Sutherland-Hodgman) and each clipped point p with gap
 *     Phi = depth of p beyond the reference face < envelope is a contact (at most 8, reduced
 *     to 4); P_ref = p - Phi L lies on the reference face;
 *   edge axis a_i x b_j: one contact at the closest points of the two supporting edges,
 *     Phi = s(L) (the edges' common perpendicular is L; when they do not cross and the boxes
 *     are apart, the distance of the two points and n along them).
 * Feature ids (narrow_pair.h) name the incident vertex, the incident edge and side
 * plane, or the edge pair that produced a point, so they stay the same while it persists. */
#include "narrow_pair.h"

/* an oriented box: center, world axes, half extents */
typedef struct {
    clab_vec3 c;
    clab_vec3 ax[3];
    double h[3];
} obb;

static obb obb_of(const clab_body *b)
{
    obb o;
    clab_mat33 R = clab_q_to_A(b->e);
    o.c = b->r;
    for (int k = 0; k < 3; k++) o.ax[k] = clab_m33_col(R, k);
    o.h[0] = b->shape.half.x;
    o.h[1] = b->shape.half.y;
    o.h[2] = b->shape.half.z;
    return o;
}

/* projection radius of a box on the unit axis L */
static double obb_radius(const obb *o, clab_vec3 L)
{
    return o->h[0] * fabs(clab_v3_dot(o->ax[0], L)) + o->h[1] * fabs(clab_v3_dot(o->ax[1], L)) +
           o->h[2] * fabs(clab_v3_dot(o->ax[2], L));
}

/* a polygon vertex during clipping, in reference-face coordinates (x, y along the face's
 * tangent axes, z = gap beyond the face), with the feature tag of the point and of the
 * polygon edge leaving it (edge tag < 16: incident edge id; 16 + side: a side plane) */
typedef struct {
    double x, y, z;
    unsigned kind, detail;
    unsigned edge;
} clip_vertex;

/* Clip the polygon in[0..n) against the side plane sgn * coord <= lim (coord 0: x, 1: y),
 * side id `side`; returns the number of vertices written to out (at most n + 1). */
static int clip_side(const clip_vertex *in, int n, int coord, double sgn, double lim, unsigned side,
                     clip_vertex *out)
{
    int m = 0;
    for (int k = 0; k < n; k++) {
        const clip_vertex *P = &in[k], *Q = &in[(k + 1) % n];
        double fP = sgn * (coord ? P->y : P->x) - lim, fQ = sgn * (coord ? Q->y : Q->x) - lim;
        if (fP <= 0.0) out[m++] = *P;
        if ((fP <= 0.0) != (fQ <= 0.0)) {
            /* the edge P->Q crosses the plane: new point I on it */
            double t = fP / (fP - fQ);
            clip_vertex I;
            I.x = P->x + t * (Q->x - P->x);
            I.y = P->y + t * (Q->y - P->y);
            I.z = P->z + t * (Q->z - P->z);
            if (coord == 0) I.x = sgn * lim; /* exactly on the plane */
            else I.y = sgn * lim;
            if (P->edge < 16) { /* an incident edge crossing this side plane */
                I.kind = CLAB_BB_CLIP;
                I.detail = 4u * P->edge + side;
            } else { /* two side planes meet: a corner of the reference face */
                I.kind = CLAB_BB_CORNER;
                I.detail = (I.x > 0.0 ? 1u : 0u) + (I.y > 0.0 ? 2u : 0u);
            }
            /* leaving I: along the side plane when P is inside, else the rest of P->Q */
            I.edge = fP <= 0.0 ? 16u + side : P->edge;
            out[m++] = I;
        }
    }
    return m;
}

/* twice the signed area of the triangle (p, q, r) in the face plane */
static double area2(const clip_vertex *p, const clip_vertex *q, const clip_vertex *r)
{
    return (q->x - p->x) * (r->y - p->y) - (q->y - p->y) * (r->x - p->x);
}

/* Keep 4 of n > 4 contact points, spread out: the deepest (p1), the one farthest from it (p2),
 * then the two making the largest triangles with p1 p2, one on either side of it when the
 * polygon extends to both sides, else the two largest on the one side. Marks keep[]. */
static void reduce_to_4(const clip_vertex *p, int n, int *keep)
{
    int i1 = 0, i2 = -1, i3 = -1, i4 = -1;
    for (int k = 1; k < n; k++)
        if (p[k].z < p[i1].z) i1 = k;
    double best = -1.0;
    for (int k = 0; k < n; k++) {
        double dx = p[k].x - p[i1].x, dy = p[k].y - p[i1].y, d2 = dx * dx + dy * dy;
        if (k != i1 && d2 > best) {
            best = d2;
            i2 = k;
        }
    }
    double a[8], amax = 0.0, amin = 0.0;
    for (int k = 0; k < n; k++) {
        a[k] = (k == i1 || k == i2) ? 0.0 : area2(&p[i1], &p[i2], &p[k]);
        if (k == i1 || k == i2) continue;
        if (i3 < 0 || a[k] > amax) { amax = a[k]; i3 = k; }
        if (i4 < 0 || a[k] < amin) { amin = a[k]; i4 = k; }
    }
    if (!(amax > 0.0 && amin < 0.0)) { /* one side only: the two largest |area| */
        i3 = i4 = -1;
        for (int k = 0; k < n; k++) {
            if (k == i1 || k == i2) continue;
            if (i3 < 0 || fabs(a[k]) > fabs(a[i3])) { i4 = i3; i3 = k; }
            else if (i4 < 0 || fabs(a[k]) > fabs(a[i4])) i4 = k;
        }
    }
    for (int k = 0; k < n; k++) keep[k] = k == i1 || k == i2 || k == i3 || k == i4;
}

/* Face contact: reference box R (face axis i, outward normal nref pointing toward the
 * incident box I), ref_is_b says which of (A, B) R is. */
static int face_contact(const clab_body *A, const clab_body *B, int ia, int ib, const obb *R, const obb *I,
                        int i, clab_vec3 nref, int ref_is_b, double env, clab_contacts *out)
{
    int k1 = (i + 1) % 3, k2 = (i + 2) % 3;
    unsigned face = 2u * (unsigned)i + (clab_v3_dot(nref, R->ax[i]) > 0.0 ? 1u : 0u);
    clab_vec3 fc = clab_v3_madd(R->c, R->h[i], nref); /* reference face center */

    /* incident face: the face of I whose outward normal is most opposed to nref */
    int j = 0;
    double best = -1.0;
    for (int k = 0; k < 3; k++) {
        double a = fabs(clab_v3_dot(I->ax[k], nref));
        if (a > best) { best = a; j = k; }
    }
    double sj = clab_v3_dot(I->ax[j], nref) > 0.0 ? -1.0 : 1.0;
    int j1 = (j + 1) % 3, j2 = (j + 2) % 3;

    /* its 4 corners in cyclic order (+,+), (-,+), (-,-), (+,-) along (j1, j2), in face
     * coordinates, each tagged with its vertex id and the id of the edge to the next */
    static const double s1[4] = {1, -1, -1, 1}, s2[4] = {1, 1, -1, -1};
    clip_vertex poly[2][8];
    int n = 4;
    for (int k = 0; k < 4; k++) {
        double coord[3];
        coord[j] = sj * I->h[j];
        coord[j1] = s1[k] * I->h[j1];
        coord[j2] = s2[k] * I->h[j2];
        clab_vec3 p = I->c;
        for (int c = 0; c < 3; c++) p = clab_v3_madd(p, coord[c], I->ax[c]);
        clab_vec3 rel = clab_v3_sub(p, fc);
        clip_vertex *v = &poly[0][k];
        v->x = clab_v3_dot(rel, R->ax[k1]);
        v->y = clab_v3_dot(rel, R->ax[k2]);
        v->z = clab_v3_dot(rel, nref);
        v->kind = CLAB_BB_VERTEX;
        v->detail = (coord[0] > 0.0 ? 1u : 0u) + (coord[1] > 0.0 ? 2u : 0u) + (coord[2] > 0.0 ? 4u : 0u);
        /* edge to the next corner: along j1 after k = 0, 2 and along j2 after k = 1, 3 */
        int along = (k % 2 == 0) ? j1 : j2; /* the coordinate that changes sign */
        int o1 = (along + 1) % 3, o2 = (along + 2) % 3;
        v->edge = clab_box_edge_id(along, coord[o1], coord[o2]);
    }

    /* clip against the 4 side planes x <= h_k1, -x <= h_k1, y <= h_k2, -y <= h_k2 */
    int cur = 0;
    for (unsigned side = 0; side < 4 && n > 0; side++) {
        int coord = side / 2 ? 1 : 0;
        double sgn = side % 2 ? -1.0 : 1.0;
        n = clip_side(poly[cur], n, coord, sgn, coord ? R->h[k2] : R->h[k1], side, poly[1 - cur]);
        cur = 1 - cur;
    }

    /* the points below the envelope, at most 4 */
    clip_vertex pts[8];
    int np = 0, keep[8];
    for (int k = 0; k < n; k++)
        if (poly[cur][k].z < env) pts[np++] = poly[cur][k];
    for (int k = 0; k < np; k++) keep[k] = 1;
    if (np > 4) reduce_to_4(pts, np, keep);

    for (int k = 0; k < np; k++) {
        if (!keep[k]) continue;
        const clip_vertex *v = &pts[k];
        clab_vec3 pR = clab_v3_madd(clab_v3_madd(fc, v->x, R->ax[k1]), v->y, R->ax[k2]); /* on the face */
        clab_vec3 pI = clab_v3_madd(pR, v->z, nref);                                     /* on I */
        unsigned feature = clab_bb_face_feature(v->kind, ref_is_b, face, v->detail);
        int rc = ref_is_b ? clab_emit_contact(A, B, ia, ib, pI, pR, clab_v3_neg(nref), v->z, feature, out)
                          : clab_emit_contact(A, B, ia, ib, pR, pI, nref, v->z, feature, out);
        if (rc) return rc;
    }
    return CLAB_OK;
}

/* Edge-edge contact on the axis L = a_i x b_j / |..| (oriented from A to B) with separation s:
 * the supporting edge of A (extreme along +L) and of B (extreme along -L), and the closest
 * points of the two segments. */
static int edge_contact(const clab_body *A, const clab_body *B, int ia, int ib, const obb *oA, const obb *oB, int i,
                        int j, clab_vec3 L, double s, clab_contacts *out)
{
    int a1 = (i + 1) % 3, a2 = (i + 2) % 3, b1 = (j + 1) % 3, b2 = (j + 2) % 3;
    double sa1 = clab_v3_dot(oA->ax[a1], L) >= 0.0 ? 1.0 : -1.0;
    double sa2 = clab_v3_dot(oA->ax[a2], L) >= 0.0 ? 1.0 : -1.0;
    double sb1 = clab_v3_dot(oB->ax[b1], L) > 0.0 ? -1.0 : 1.0;
    double sb2 = clab_v3_dot(oB->ax[b2], L) > 0.0 ? -1.0 : 1.0;
    clab_vec3 cA = clab_v3_madd(clab_v3_madd(oA->c, sa1 * oA->h[a1], oA->ax[a1]), sa2 * oA->h[a2], oA->ax[a2]);
    clab_vec3 cB = clab_v3_madd(clab_v3_madd(oB->c, sb1 * oB->h[b1], oB->ax[b1]), sb2 * oB->h[b2], oB->ax[b2]);
    clab_vec3 u = oA->ax[i], v = oB->ax[j];

    /* closest points cA + sA u, cB + tB v: minimize |w0 + sA u - tB v|^2, w0 = cA - cB */
    clab_vec3 w0 = clab_v3_sub(cA, cB);
    double b = clab_v3_dot(u, v), d = clab_v3_dot(u, w0), e = clab_v3_dot(v, w0);
    double den = 1.0 - b * b; /* = |u x v|^2 > 0 for the axes tested */
    double sA = (b * e - d) / den, tB;
    int clamped = 0;
    if (sA < -oA->h[i]) { sA = -oA->h[i]; clamped = 1; }
    if (sA > oA->h[i]) { sA = oA->h[i]; clamped = 1; }
    tB = e + sA * b;
    if (tB < -oB->h[j] || tB > oB->h[j]) {
        tB = tB < -oB->h[j] ? -oB->h[j] : oB->h[j];
        clamped = 1;
        sA = tB * b - d;
        if (sA < -oA->h[i]) sA = -oA->h[i];
        if (sA > oA->h[i]) sA = oA->h[i];
    }
    clab_vec3 pA = clab_v3_madd(cA, sA, u), pB = clab_v3_madd(cB, tB, v);

    /* the gap is s(L); when separated and the edges do not cross in projection, the distance
     * between the two points along the line joining them (L . (pB - pA) = s > 0, so it still
     * points from A to B), so that Phi < envelope means the boxes are that close and
     * P -+ Phi/2 n are the two points */
    double phi = s;
    clab_vec3 n = L;
    if (clamped && s > 0.0) {
        clab_vec3 d = clab_v3_sub(pB, pA);
        phi = clab_v3_norm(d);
        n = clab_v3_scale(d, 1.0 / phi);
    }
    unsigned ea = clab_box_edge_id(i, sa1, sa2), eb = clab_box_edge_id(j, sb1, sb2);
    return clab_emit_contact(A, B, ia, ib, pA, pB, n, phi, clab_bb_edge_feature(ea, eb), out);
}

int clab_collide_box_box(const clab_body *A, const clab_body *B, int ia, int ib, double env, clab_contacts *out)
{
    if (ia > ib) { /* features are defined with a the lower index */
        const clab_body *t = A; A = B; B = t;
        int k = ia; ia = ib; ib = k;
    }
    obb oA = obb_of(A), oB = obb_of(B);
    clab_vec3 d = clab_v3_sub(oB.c, oA.c);

    /* tolerance of the axis choice: a small fraction of the smallest half extent */
    double lmin = oA.h[0];
    for (int k = 0; k < 3; k++) {
        if (oA.h[k] < lmin) lmin = oA.h[k];
        if (oB.h[k] < lmin) lmin = oB.h[k];
    }
    double tol = 1e-3 * lmin;

    /* face axes of A and of B */
    double sA = -INFINITY, sB = -INFINITY;
    int iA = 0, iB = 0;
    for (int k = 0; k < 3; k++) {
        double s = fabs(clab_v3_dot(d, oA.ax[k])) - oA.h[k] - obb_radius(&oB, oA.ax[k]);
        if (s >= env) return CLAB_OK;
        if (s > sA) { sA = s; iA = k; }
    }
    for (int k = 0; k < 3; k++) {
        double s = fabs(clab_v3_dot(d, oB.ax[k])) - oB.h[k] - obb_radius(&oA, oB.ax[k]);
        if (s >= env) return CLAB_OK;
        if (s > sB) { sB = s; iB = k; }
    }

    /* edge axes a_i x b_j (nearly parallel edges are covered by the face axes) */
    double sE = -INFINITY;
    int eI = 0, eJ = 0;
    clab_vec3 LE = clab_v3(0, 0, 0);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            clab_vec3 L = clab_v3_cross(oA.ax[i], oB.ax[j]);
            double len = clab_v3_norm(L);
            if (len < 1e-6) continue;
            L = clab_v3_scale(L, 1.0 / len);
            double dl = clab_v3_dot(d, L);
            double s = fabs(dl) - obb_radius(&oA, L) - obb_radius(&oB, L);
            if (s >= env) return CLAB_OK;
            if (s > sE) {
                sE = s;
                eI = i;
                eJ = j;
                LE = dl >= 0.0 ? L : clab_v3_neg(L); /* from A to B */
            }
        }

    /* the contact: faces of A, then faces of B, then edges, each only when clearly better */
    double sF = sA;
    int ref_is_b = 0;
    if (sB > sA + tol) {
        sF = sB;
        ref_is_b = 1;
    }
    if (sE > sF + tol) return edge_contact(A, B, ia, ib, &oA, &oB, eI, eJ, LE, sE, out);
    if (!ref_is_b) {
        clab_vec3 n = clab_v3_dot(d, oA.ax[iA]) >= 0.0 ? oA.ax[iA] : clab_v3_neg(oA.ax[iA]);
        return face_contact(A, B, ia, ib, &oA, &oB, iA, n, 0, env, out);
    }
    clab_vec3 n = clab_v3_dot(d, oB.ax[iB]) <= 0.0 ? oB.ax[iB] : clab_v3_neg(oB.ax[iB]);
    return face_contact(A, B, ia, ib, &oB, &oA, iB, n, 1, env, out);
}
