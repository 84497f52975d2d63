/* fixed_jacobi.h: DVI options for tests that compare two runs bit for bit: projected Jacobi
 * with tolerance 0 and a fixed number of sweeps, so both runs do the same work whatever their
 * residuals. Header-only test helper. */
#ifndef CLAB_TEST_FIXED_JACOBI_H
#define CLAB_TEST_FIXED_JACOBI_H

#include "clab_options.h"

static inline void fixed_jacobi_options(clab_options *o, const char *sweeps)
{
    clab_options_set(o, "solver", "jacobi", NULL);
    clab_options_set(o, "tol", "0", NULL);
    clab_options_set(o, "max_iter", sweeps, NULL);
}

#endif
