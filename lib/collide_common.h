/* collide_common.h: what every layer of the collision reads (the bottom private header of
 * lib/: broad phase, narrow phase and driver include it; it includes no header of theirs).
 * The bodies' hot records, the geometric tests the broad phase's paths share bit for bit,
 * the minimum-image shortcuts, and the grow-by-realloc helper. */
#ifndef CLAB_COLLIDE_COMMON_H
#define CLAB_COLLIDE_COMMON_H

#include <stdint.h>
#include <stdlib.h>

#include "clab_mesh.h"
#include "clab_simd.h"
#include "clab_world.h"

/* loops over pairs ask for body b (CLAB_PREFETCH, clab_simd.h) this many pairs ahead */
#define CLAB_PREFETCH_AHEAD 16

/* What the sphere-sphere distance test of the narrow phase reads of a body: 32 bytes, two a
 * cache line. It is all a record of two spheres needs too: the record stores no levers
 * (clab_contact_levers derives them), so the orientation is never read there. */
typedef struct clab_hot_body {
    double r[3]; /* center [m] */
    double R;    /* sphere radius [m]; < 0: not a sphere */
} clab_hot_body;

/* the hot record of body b (the skin test's pass and the gather of skin.c) */
static inline void clab_hot_fill(clab_hot_body *h, const clab_body *b)
{
    h->r[0] = b->r.x;
    h->r[1] = b->r.y;
    h->r[2] = b->r.z;
    h->R = b->shape.type == CLAB_SHAPE_SPHERE ? b->shape.radius : -1.0;
}

/* realloc *pp to n elements of size sz (n = 0: one); 0 on success */
static inline int clab_bp_resize(void *pp, size_t n, size_t sz)
{
    void **p = pp;
    void *q = realloc(*p, (n ? n : 1) * sz);
    if (!q) return 1;
    *p = q;
    return 0;
}

/* closed overlap of two boxes given by their low and high corners */
static inline int clab_boxes_overlap(const double *la, const double *ha, const double *lb, const double *hb)
{
    return la[0] <= hb[0] && lb[0] <= ha[0] && la[1] <= hb[1] && lb[1] <= ha[1] && la[2] <= hb[2] && lb[2] <= ha[2];
}

/* the box [lo, hi] reaches the half-space m . (x - r) <= margin/2: its lowest point along m,
 * m . (c - r) - sum_k |m_k| e_k (c center, e half widths), is at most margin/2 */
static inline int clab_box_meets_plane(const double *lo, const double *hi, const double *m, clab_vec3 r,
                                       double margin)
{
    double d = 0.0;
    for (int k = 0; k < 3; k++) {
        double c = 0.5 * (lo[k] + hi[k]), e = 0.5 * (hi[k] - lo[k]);
        d += m[k] * (c - clab_v3_get(r, k)) - fabs(m[k]) * e;
    }
    return d <= 0.5 * margin;
}

/* bounds [lv, hv] moved along each periodic axis to the image whose center lies in [lo, hi)
 * (the broad phase's bounds of a body, before its images) */
static inline void clab_wrap_bounds(const clab_periodic *per, double *lv, double *hv)
{
    for (int k = 0; k < 3; k++) {
        if (!per->on[k]) continue;
        double L = per->hi[k] - per->lo[k], c = 0.5 * (lv[k] + hv[k]), q = (c - per->lo[k]) / L;
        if (q >= 0.0 && q < 1.0) continue; /* t = L floor(q) = 0: inside already (no libm call) */
        double t = L * floor(q);
        lv[k] -= t;
        hv[k] -= t;
    }
}

/* nearbyint(x) in the default rounding (to nearest, ties to even), without the libm call:
 * for |x| < 2^51, x + 1.5 2^52 lies in [2^52, 2^53), where the doubles are the integers, so
 * the sum is rounded to C + nearbyint(x) (C = 1.5 2^52 is even: the same ties) and the
 * subtraction is exact. One difference: a result 0 comes out +0 where nearbyint gives -0
 * for x in (-0.5, 0); the callers' v - L (+-0) is v either way (v != 0 there). */
static inline double clab_near_int(double x)
{
    const double C = 6755399441055744.0; /* 1.5 2^52 */
    return fabs(x) < 2251799813685248.0 ? (x + C) - C : nearbyint(x);
}

/* The minimum image of d is surely farther than S (a pair across a periodic face that is not
 * one: the sphere list's and the narrow phase's shortcut): clab_world_min_image's
 * d - L nearbyint(d/L), half[k] = L_k/2 (infinite off the periodic axes), with nearbyint as
 * clab_near_int, and a margin of 1e-9 on the comparison; 0 sends the pair to the exact test */
static inline int clab_image_far(const clab_periodic *per, const double *half, clab_vec3 d, double S)
{
    double v[3] = {d.x, d.y, d.z}, d2 = 0.0;
    for (int k = 0; k < 3; k++) {
        if (fabs(v[k]) > half[k]) {
            double L = per->hi[k] - per->lo[k], x = v[k] / L;
            if (!(fabs(x) < 1e15)) return 0;
            v[k] -= L * clab_near_int(x);
        }
        d2 += v[k] * v[k];
    }
    return d2 > S * S * (1.0 + 1e-9);
}

/* ---- a sphere against a triangle of a mesh wall (clab_mesh.h) ---- */

/* The point c in the frame triangle body B (store entry T) was loaded in: c itself while B is
 * where it was loaded (*home = 1), else r0 + A(e)^T (c - r) (the narrow phase's x, and the
 * broad phase's, from the same operations) */
static inline clab_vec3 clab_tri_local(const clab_tri *T, const clab_body *B, clab_vec3 c, int *home)
{
    *home = B->r.x == T->r0.x && B->r.y == T->r0.y && B->r.z == T->r0.z && clab_q_is_identity(B->e);
    return *home ? c : clab_v3_add(T->r0, clab_q_rotate_inv(B->e, clab_v3_sub(c, B->r)));
}

/* The rounding allowance of a distance between x (frame as loaded) and triangle body B (bound
 * radius rho = B's shape.radius, origin r0): the distances here and in the narrow phase are
 * formed from coordinates at most |x|_1 + |r0|_1 + rho in size, each with an error of a few
 * ulps of that; 1e-12 of it is far above them (thousands of ulps) and far below any gap that
 * matters */
static inline double clab_tri_slack(const clab_tri *T, const clab_body *B, clab_vec3 x)
{
    return 1e-12 * (fabs(x.x) + fabs(x.y) + fabs(x.z) + fabs(T->r0.x) + fabs(T->r0.y) + fabs(T->r0.z) +
                    B->shape.radius);
}

/* x (frame as loaded) is surely farther than S from the triangle T: the triangle lies in its
 * plane (height of x over it h = m . (x - w_0)) on the inner side of each edge's line
 * (s_k = (x - X_k) . beta_k <= 0 on it, beta_k the unit in-plane outward normal), so every
 * point p of it has |x - p|^2 >= h^2 + max(0, max_k s_k)^2 (h and s_k along orthogonal unit
 * vectors). True when that bound exceeds S + slack; false for NaN. The broad phase's filter
 * of a sphere-triangle pair (S = R + M: the sphere list and the grid path alike) */
static inline int clab_tri_beyond(const clab_tri *T, clab_vec3 x, double S, double slack)
{
    const double h = clab_v3_dot(T->n, clab_v3_sub(x, T->w[0]));
    double s = 0.0;
    for (int k = 0; k < 3; k++) {
        const double sk = clab_v3_dot(clab_v3_sub(x, T->w[T->anchor[k]]), T->beta[k]);
        s = sk > s ? sk : s;
    }
    const double L = S + slack;
    return h * h + s * s > L * L;
}

/* Sphere A (center c, radius R) is surely farther than R + M from triangle body B: the kept
 * list's filter of a sphere-triangle pair (both paths of the broad phase), like the distance
 * filter of two spheres. A dropped pair cannot come within the margin before the next
 * rebuild (each body moves at most skin/2 until then). 0 for a triangle the store does not
 * hold (the narrow phase reports it) */
static inline int clab_sphere_tri_far(const clab_world *w, const clab_body *A, const clab_body *B, double M)
{
    if (!w->meshes || B->shape.tri < 0 || (size_t)B->shape.tri >= w->meshes->n) return 0;
    const clab_tri *T = &w->meshes->t[B->shape.tri];
    int home;
    const clab_vec3 x = clab_tri_local(T, B, A->r, &home);
    return clab_tri_beyond(T, x, A->shape.radius + M, clab_tri_slack(T, B, x));
}

#endif
