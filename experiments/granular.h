/* granular.h: what the quasi-static granular tests (`contactlab shear`, `contactlab triaxial`)
 * share: the analysis of their curves (granular_fit.c) and the sample both start from
 * (granular_sample.c).
 *
 * Analysis, soil mechanics' conventions (compression positive):
 *   - peak and residual of a stress-ratio curve: the peak is the largest value of the curve
 *     smoothed by a centered moving average (the raw maximum of a DEM curve is its largest
 *     fluctuation), the residual (critical-state) value the mean of the raw curve over the
 *     last part of the test;
 *   - the Mohr-Coulomb envelope tau = c + sigma_n tan(phi), by least squares over the
 *     (sigma_n, tau) points (gsl_fit_linear), and the cohesionless tau = sigma_n tan(phi_0)
 *     (gsl_fit_mul);
 *   - triaxial compression: M = q/p and sin(phi) = 3 M / (6 + M) (Wood, "Soil behaviour and
 *     critical state soil mechanics", 1990, Eq. (7.15): q = sigma_1 - sigma_3,
 *     p = (sigma_1 + 2 sigma_3)/3, sigma_1/sigma_3 = (1 + sin phi)/(1 - sin phi));
 *   - the inertial number I = gamma_dot d sqrt(rho / P) (GDR MiDi 2004; da Cruz et al.
 *     2005): quasi-static below 1e-3. */
#ifndef CLAB_GRANULAR_H
#define CLAB_GRANULAR_H

#include <stddef.h>

/* out[i] = mean of y[j] over the j with |x[j] - x[i]| <= win/2 (x non-decreasing); win <= 0
 * copies y. */
void gr_smooth(const double *x, const double *y, size_t n, double win, double *out);

typedef struct gr_peak {
    double peak;     /* largest value of the smoothed curve */
    double x_peak;   /* where it is */
    double residual; /* mean of the raw curve over x >= x_res */
    size_t nres;     /* points in that mean */
} gr_peak;

/* Peak (smoothed over win) and residual (mean over x >= x_res) of the curve y(x), x
 * non-decreasing. -1 when n = 0 or no point lies at x >= x_res (out NAN then). */
int gr_peak_residual(const double *x, const double *y, size_t n, double win, double x_res, gr_peak *out);

typedef struct gr_mc_fit {
    double c;        /* cohesion [Pa] (the intercept) */
    double tan_phi;  /* slope of tau against sigma_n */
    double phi_deg;  /* atan(tan_phi) [degrees] */
    double se_phi_deg; /* its standard error from the fit's covariance [degrees] (0 for 2 points) */
    double r2;       /* coefficient of determination */
    double tan_phi0; /* the fit through the origin, tau = sigma_n tan(phi_0) */
    double phi0_deg;
} gr_mc_fit;

/* The Mohr-Coulomb envelope of n >= 2 points (sigma_n, tau) with at least two distinct
 * sigma_n; points with a NaN are left out. -1 (f NAN) when fewer than two are left. */
int gr_mohr_coulomb(const double *sigma_n, const double *tau, size_t n, gr_mc_fit *f);

/* The friction angle [degrees] of triaxial compression at stress ratio M = q/p:
 * asin(3 M / (6 + M)); NAN outside 0 <= M < 3. */
double gr_phi_triaxial_deg(double M);

/* The inertial number I = rate d sqrt(rho / P). */
double gr_inertial_number(double rate, double d, double rho, double P);

#endif
