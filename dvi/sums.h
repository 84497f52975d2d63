/* sums.h: the terms of the DVI solvers' global sums with sums=exact (not installed).
 *
 * With sums=exact a global sum (a dot product over the unknowns) is accumulated in a
 * clab_xsum (lib/clab_xsum.h): each term is rounded once, as a sequential sum rounds it, and
 * the terms are then added exactly, so the rounded total does not depend on their order nor
 * on how the unknowns are split into parts. The plain solvers (plain_solvers.c) add the terms
 * of every row; a part of the split solver (split_solvers.c) adds those of the rows of the
 * blocks it counts, and the parts' accumulators are merged. These functions are the one
 * definition of each term, so that both add the same numbers. Rows k0 .. k1 - 1. */
#ifndef CLAB_DVI_SUMS_H
#define CLAB_DVI_SUMS_H

#include <math.h>
#include <stddef.h>

#include "clab_xsum.h"

/* How the plain solvers sum (the option sums=): in the order of the unknowns, or exactly. */
enum { CLAB_SUMS_SEQUENTIAL = 0, CLAB_SUMS_EXACT = 1 };

/* APGD's backtracking test (Mazhar et al. 2015): acc[0] += e.(N xn - N y), acc[1] += e.e,
 * e = xn - y */
static inline void clab_sums_backtrack(clab_xsum acc[2], size_t k0, size_t k1, const double *xn, const double *y,
                                       const double *Nxn, const double *Ny)
{
    for (size_t k = k0; k < k1; k++) {
        const double e = xn[k] - y[k];
        clab_xsum_add(&acc[0], e * (Nxn[k] - Ny[k]));
        clab_xsum_add(&acc[1], e * e);
    }
}

/* APGD's restart test g(y).(x_{k+1} - x_k): acc += (N y + p).(xn - x) */
static inline void clab_sums_restart(clab_xsum *acc, size_t k0, size_t k1, const double *Ny, const double *p,
                                     const double *xn, const double *x)
{
    for (size_t k = k0; k < k1; k++) clab_xsum_add(acc, (Ny[k] + p[k]) * (xn[k] - x[k]));
}

/* The Lipschitz estimate |N a| / |a|: acc[0] += b.b (b = N a), acc[1] += a.a */
static inline void clab_sums_lipschitz(clab_xsum acc[2], size_t k0, size_t k1, const double *a, const double *b)
{
    for (size_t k = k0; k < k1; k++) {
        clab_xsum_add(&acc[0], b[k] * b[k]);
        clab_xsum_add(&acc[1], a[k] * a[k]);
    }
}

/* The estimate from its sums: sqrt(b.b / a.a), floored by the largest block eigenvalue
 * (the floor of clab_ccp_plain_lipschitz) */
static inline double clab_sums_lipschitz_value(double bb, double aa, double floor)
{
    const double L = aa > 0.0 ? sqrt(bb / aa) : 0.0;
    return L > floor ? L : floor;
}

#endif
