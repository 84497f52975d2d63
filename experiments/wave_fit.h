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

/* The standard error of the slope b of xp_line_fit's line over the same points:
 *     se(b) = sqrt( sum r_i^2 / (m - 2) / sum (x_i - xm)^2 ),  r_i = y_i - a - b x_i;
 * NAN when fewer than 3 points. (Correlated residuals, a force that wanders over several
 * rows, make it an underestimate: spread over independent samples is the safer error.) */
double xp_line_fit_se(const double *x, const double *y, size_t n, double a, double b);

/* The surface of a bed of n spheres (centers z[i], radii r[i]) on a floor at z = 0 in a
 * container of horizontal area A: the solid fraction of horizontal slices of thickness dz,
 *     phi(z) = sum_i V_i(z, z + dz) / (A dz),  V_i the sphere's volume between the heights,
 *     V = pi [R^2 (u2 - u1) - (u2^3 - u1^3) / 3], u the heights from its center clamped to [-R, R];
 * the bulk value phi_b its mean over the slices between z_lo and z_hi; the surface the
 * highest height where phi falls to phi_b / 2 (linear between the slices' mid-heights).
 * For a simple-cubic top layer of centers z_c (phi_b = pi/6) it is z_c + sqrt(2/3) R: a
 * layer's slice fraction pi (R^2 - u^2) / (4 R^2) is half the bulk at u^2 = 2/3 R^2. NAN when
 * no slice reaches phi_b / 2. *phib may be NULL. */
double xp_bed_surface(const double *z, const double *r, size_t n, double A, double dz, double z_lo, double z_hi,
                      double *phib);

/* Power law y = A x^alpha fitted as a line of log y against log x over the points with x, y
 * finite and > 0. Returns the points used; alpha and A NAN when fewer than 2. */
int xp_power_fit(const double *x, const double *y, size_t n, double *A, double *alpha);

#endif
