/* clab_v2.h: two items at a time, for the hot loops whose items are independent (contacts):
 * each lane of a 128-bit SSE2 register (GCC's vector extension) holds one item's value, and
 * each operation below is the scalar one of clab_math.h, in the same order, on both lanes.
 * IEEE arithmetic is lane by lane, so a loop written with these gives every item the same
 * bits as the one-item code; what it saves is that one instruction (a square root, a
 * division) serves two items whose chains would otherwise wait on each other's latency.
 *
 * CLAB_V2 is defined where this is available (GCC or Clang with SSE2); callers keep their
 * one-item code for the rest. */
#ifndef CLAB_V2_H
#define CLAB_V2_H

#include "clab_math.h"
#include "clab_simd.h"

#if defined(__GNUC__) && defined(__SSE2__)
#define CLAB_V2 1

typedef double clab_v2d __attribute__((vector_size(16)));   /* (item 0, item 1) */
typedef long long clab_v2l __attribute__((vector_size(16))); /* a lane mask of a compare: -1 or 0 */

/* both lanes x */
static inline clab_v2d clab_v2_set1(double x) { return (clab_v2d){x, x}; }

/* m ? a : b, lane by lane (a mask of a compare) */
static inline clab_v2d clab_v2_select(clab_v2l m, clab_v2d a, clab_v2d b)
{
    return (clab_v2d)(((clab_v2l)a & m) | ((clab_v2l)b & ~m));
}

/* a < b ? a : b lane by lane, b when either is NaN (minpd: clab_lt_min of each lane) */
static inline clab_v2d clab_v2_min(clab_v2d a, clab_v2d b) { return (clab_v2d)_mm_min_pd((__m128d)a, (__m128d)b); }

static inline clab_v2d clab_v2_sqrt(clab_v2d a) { return (clab_v2d)_mm_sqrt_pd((__m128d)a); }

/* a 3-vector of each lane */
typedef struct clab_v2v3 {
    clab_v2d x, y, z;
} clab_v2v3;

/* (a of lane 0, b of lane 1) */
static inline clab_v2v3 clab_v2v3_pair(clab_vec3 a, clab_vec3 b)
{
    return (clab_v2v3){{a.x, b.x}, {a.y, b.y}, {a.z, b.z}};
}
/* lane l's vector */
static inline clab_vec3 clab_v2v3_lane(clab_v2v3 a, int l) { return clab_v3(a.x[l], a.y[l], a.z[l]); }

/* clab_v3_add, _sub, _scale, _madd, _dot, _cross, _norm2, _norm of each lane */
static inline clab_v2v3 clab_v2v3_add(clab_v2v3 a, clab_v2v3 b) { return (clab_v2v3){a.x + b.x, a.y + b.y, a.z + b.z}; }
static inline clab_v2v3 clab_v2v3_sub(clab_v2v3 a, clab_v2v3 b) { return (clab_v2v3){a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline clab_v2v3 clab_v2v3_scale(clab_v2v3 a, clab_v2d s) { return (clab_v2v3){s * a.x, s * a.y, s * a.z}; }
static inline clab_v2v3 clab_v2v3_madd(clab_v2v3 a, clab_v2d s, clab_v2v3 b)
{
    return (clab_v2v3){a.x + s * b.x, a.y + s * b.y, a.z + s * b.z};
}
static inline clab_v2d clab_v2v3_dot(clab_v2v3 a, clab_v2v3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline clab_v2v3 clab_v2v3_cross(clab_v2v3 a, clab_v2v3 b)
{
    return (clab_v2v3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
static inline clab_v2d clab_v2v3_norm2(clab_v2v3 a) { return clab_v2v3_dot(a, a); }
static inline clab_v2d clab_v2v3_norm(clab_v2v3 a) { return clab_v2_sqrt(clab_v2v3_dot(a, a)); }
/* m ? a : b for the three components */
static inline clab_v2v3 clab_v2v3_select(clab_v2l m, clab_v2v3 a, clab_v2v3 b)
{
    return (clab_v2v3){clab_v2_select(m, a.x, b.x), clab_v2_select(m, a.y, b.y), clab_v2_select(m, a.z, b.z)};
}
#endif

#endif
