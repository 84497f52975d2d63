/* tap.h: a small TAP producer for the test programs (Automake's tap-driver.sh reads it).
 * Each check prints "ok N - description" or "not ok N - description" with the values
 * involved; tap_done() prints the plan and returns the exit status. */
#ifndef CLAB_TAP_H
#define CLAB_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

typedef struct { int n, failed; } tap_state;
static tap_state tap_st_; /* one per test program: tests are single-threaded executables */

static inline int tap_ok(int cond, const char *fmt, ...)
{
    va_list ap;
    tap_st_.n++;
    if (!cond) tap_st_.failed++;
    printf("%sok %d - ", cond ? "" : "not ", tap_st_.n);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    return cond;
}

/* |got - want| <= tol: prints both values and the tolerance */
static inline int tap_close(double got, double want, double tol, const char *what)
{
    int ok = fabs(got - want) <= tol; /* NaN fails */
    return tap_ok(ok, "%s: got %.10g, want %.10g, |diff| %.3g <= tol %.3g", what, got, want, fabs(got - want), tol);
}

/* relative: |got - want| <= rtol |want| */
static inline int tap_rel(double got, double want, double rtol, const char *what)
{
    double rel = want != 0.0 ? fabs(got - want) / fabs(want) : fabs(got);
    int ok = rel <= rtol;
    return tap_ok(ok, "%s: got %.10g, want %.10g, rel err %.3g <= %.3g", what, got, want, rel, rtol);
}

static inline void tap_diag(const char *fmt, ...)
{
    va_list ap;
    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

static inline int tap_done(void)
{
    printf("1..%d\n", tap_st_.n);
    return tap_st_.failed ? 1 : 0;
}

#endif
