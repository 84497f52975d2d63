/* clab_simd.h: the hot loops' helpers, not installed: branch-free selects and minima on SSE2
 * registers (each the value of the plain conditional expression, to the bit), a prefetch hint,
 * and inlining controls. None of them changes a result; they change what the compiler emits. */
#ifndef CLAB_SIMD_H
#define CLAB_SIMD_H

#include "clab_math.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* A hint to start loading the cache line at p, for loops that read memory in random order
 * (no effect on results). */
#if defined(__GNUC__)
#define CLAB_PREFETCH(p) __builtin_prefetch(p)
#else
#define CLAB_PREFETCH(p) ((void)(p))
#endif

/* Inline a function a hot loop calls once an item even where the compiler would not (it saves
 * the call and the spills around it; no effect on results). */
#if defined(__GNUC__)
#define CLAB_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define CLAB_ALWAYS_INLINE inline
#endif

/* a > b ? x : y without a branch (an SSE2 compare and masks where there is SSE2): for a choice
 * the branch predictor cannot learn, both sides already formed. The value of the conditional
 * expression, to the bit (a NaN compares false: y). */
#if defined(__SSE2__)
/* x where the mask m is set, else y (the low lanes) */
static inline double clab_mask_select(__m128d m, double x, double y)
{
    return _mm_cvtsd_f64(_mm_or_pd(_mm_and_pd(m, _mm_set_sd(x)), _mm_andnot_pd(m, _mm_set_sd(y))));
}
#endif
static inline double clab_gt_select(double a, double b, double x, double y)
{
#if defined(__SSE2__)
    return clab_mask_select(_mm_cmpgt_sd(_mm_set_sd(a), _mm_set_sd(b)), x, y);
#else
    return a > b ? x : y;
#endif
}

/* a < b ? a : b without a branch (SSE2 minsd): b when a is NaN */
static inline double clab_lt_min(double a, double b)
{
#if defined(__SSE2__)
    return _mm_cvtsd_f64(_mm_min_sd(_mm_set_sd(a), _mm_set_sd(b)));
#else
    return a < b ? a : b;
#endif
}

/* Keep a function out of line: a hot loop in a function of its own gets the compiler's whole
 * inlining budget, not what is left in a large caller. */
#if defined(__GNUC__)
#define CLAB_NOINLINE __attribute__((noinline))
#else
#define CLAB_NOINLINE
#endif

/* a > b ? x : y for the three components of a vector, one compare for the three (as
 * clab_gt_select, to the bit) */
static inline clab_vec3 clab_v3_gt_select(double a, double b, clab_vec3 x, clab_vec3 y)
{
#if defined(__SSE2__)
    const __m128d m = _mm_cmpgt_sd(_mm_set_sd(a), _mm_set_sd(b));
    return clab_v3(clab_mask_select(m, x.x, y.x), clab_mask_select(m, x.y, y.y), clab_mask_select(m, x.z, y.z));
#else
    return a > b ? x : y;
#endif
}

#endif
