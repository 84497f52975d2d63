/* wave_fit.h: arrival times, line fits and power-law fits for the wave and cone experiments
 * (wave_fit.c). Plain functions of arrays, so tests can hold them to synthetic signals. */
#ifndef CLAB_WAVE_FIT_H
#define CLAB_WAVE_FIT_H

#include <stddef.h>

/* Arrival of a pulse in a sampled signal v(t_k), k = 0 .. n-1, t increasing: the first k with
 * v(t_k) >= vth (vth > 0; a layer's velocity against the threshold fraction of the pulse's
 * peak speed), the time interpolated linearly between t_(k-1) and t_k:
 *     t_a = t_(k-1) + (vth - v_(k-1)) / (v_k - v_(k-1)) (t_k - t_(k-1));
 * t_0 when the first sample is already at or above it; NAN when no sample reaches it. */
double xp_arrival(const double *t, const double *v, size_t n, double vth);

/* The running form of xp_arrival for a step loop: feed (t, v) once a step; *arr stays NAN
 * until the first crossing, then holds its interpolated time. prev_t, prev_v: the last sample
 * (the caller keeps them; NAN before the first). */
void xp_arrival_step(double *arr, double *prev_t, double *prev_v, double t, double v, double vth);

/* Least-squares line y = a + b x over the points with finite x and y (n in all). Returns the
 * number of points used; a, b NAN when fewer than 2 or all x equal. */
int xp_line_fit(const double *x, const double *y, size_t n, double *a, double *b);

/* Power law y = A x^alpha fitted as a line of log y against log x over the points with x, y
 * finite and > 0. Returns the points used; alpha and A NAN when fewer than 2. */
int xp_power_fit(const double *x, const double *y, size_t n, double *A, double *alpha);

#endif
