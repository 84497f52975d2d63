/* clab_clock.h: a monotonic wall clock for the step's timing breakdown (clab_sim_times, the
 * collider's and the backends' times). */
#ifndef CLAB_CLOCK_H
#define CLAB_CLOCK_H

/* seconds since some fixed point (CLOCK_MONOTONIC): only differences mean anything */
double clab_clock(void);

#endif
