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

#include "xp.h"

/* ---- the particles and the prepared sample (granular_sample.c) ---- */

/* the particles' material: monodisperse spheres */
typedef struct gr_material {
    double d;       /* diameter [m] */
    double density; /* [kg/m^3] */
    double mu;      /* Coulomb friction between particles, and with the rough boundaries */
    double E, nu;   /* Young's modulus [Pa] and Poisson ratio of the Hertz-Mindlin law */
    double cor;     /* coefficient of restitution of the penalty law's damping */
} gr_material;

/* A prepared sample: n spheres in the box [lo, hi] (their tops at most hi[2]). */
typedef struct gr_sample {
    size_t n;
    double *x; /* [3 n] centers [m] */
    double *R; /* [n] radii [m] */
    double lo[3], hi[3];
} gr_sample;

/* How a sample is prepared: n spheres of m's diameter in a square box of width L (0: the
 * width that makes the dense sample as high as it is wide, at a solid fraction of 0.6),
 * dropped from a loose random packing (solid fraction 0.3, gsl_rng_mt19937 with seed) and
 * settled under gravity with friction off (the usual recipe for a dense sample), Hertz-
 * Mindlin penalty contacts; settled when the kinetic energy is below 1e-9 of the potential
 * energy the drop released (or after t_max). */
typedef struct gr_sample_def {
    size_t n;
    double L;
    unsigned long seed;
    double t_max; /* [s] */
} gr_sample_def;

/* The sample of def made of m's spheres, from the file path when it holds that sample (same
 * n, d, L and seed; its first line says so), else prepared and saved there (label: the
 * progress bar's). -1 (printed, prefixed "contactlab NAME: ") on failure. */
int gr_sample_get(const xp_common *c, const gr_sample_def *def, const gr_material *m, const char *path,
                  gr_sample *s);
void gr_sample_free(gr_sample *s);
/* The solid fraction of the sample in its box (the box's top at the highest sphere's top). */
double gr_sample_solid_fraction(const gr_sample *s);
/* The same in the box shrunk by margin on every side (the bulk, away from the walls' layering
 * and the rough top), the spheres the box cuts counted by their part inside
 * (clab_measure_sphere_in_box). */
double gr_sample_bulk_fraction(const gr_sample *s, double margin);
/* Add the spheres (material index mat) to w; the index of the first in *first. */
int gr_sample_add(const gr_sample *s, const gr_material *m, int mat, clab_world *w, size_t *first, clab_error *err);
/* Hertz's tangent stiffness dF/ddelta = 3/2 K^(2/3) F^(1/3) of a sphere of radius R on a flat
 * of the same material, under the force F [N/m] */
double gr_hertz_kn(const gr_material *m, double R, double F);
/* 1 when method im is De Saxce's fixed point (exact Coulomb): a sequence of CCPs a step */
int gr_exact_friction(const xp_method *im);
/* The options both granular tests give a method on top of the user's (where: "shear",
 * "triaxial", for the options' origin): rigid methods a quasi-static tolerance (1e-4 m/s, 1% of
 * the boundaries' speed), 200 iterations, an envelope of d/20 and, for the exact friction, at
 * most 3 CCPs a step; the regularized one Hertz's tangent stiffness under the force stress d^2. */
void gr_method_options(clab_options *extra, const xp_method *im, const gr_material *m, double stress,
                       const char *where);

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
