/* clock.c: clab_clock (clab_clock.h) */
#define _POSIX_C_SOURCE 199309L
#include "clab_clock.h"

#include <time.h>

double clab_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
