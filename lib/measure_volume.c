/* measure_volume.c: the volume of a sphere inside an axis-aligned box (clab_measure.h), for the
 * solid fraction of a sample whose spheres the box's faces cut.
 *
 * In the sphere's frame (center at 0, radius R), the slice at height z is a disc of radius
 * rho(z) = sqrt(R^2 - z^2); its area inside the rectangle [x0, x1] x [y0, y1] is, by
 * inclusion-exclusion over the corners,
 *     A(z) = H(x1, y1) - H(x0, y1) - H(x1, y0) + H(x0, y0),
 * H(a, b) the disc's area in the quadrant {x < a, y < b}: the integral over x < a of the chord
 * part below y = b, in closed form through S(x) = (x s(x) + rho^2 asin(x/rho))/2, the
 * antiderivative of the half chord s(x) = sqrt(rho^2 - x^2). The volume is the integral of A(z)
 * over the box's z range, cut at the heights where a face or a corner line starts to cut the
 * slice (A has a (z - z_b)^(3/2) kink there); each piece is integrated by 32-point
 * Gauss-Legendre after z = z_a + (z_b - z_a)(1 - cos(pi u))/2, which turns the kinks at its ends
 * into smooth functions of u (tests/test_measure: a relative 1e-12 against GSL's adaptive
 * quadrature). One face cutting the sphere alone gives the cap pi h^2 (3R - h)/3 directly. */
#include "clab_measure.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_integration.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* the integral of s(x) = sqrt(rho^2 - x^2) over [u, v] clamped to [-rho, rho] */
static double chord_integral(double rho, double u, double v)
{
    u = fmax(u, -rho);
    v = fmin(v, rho);
    if (!(v > u)) return 0.0;
    const double r2 = rho * rho;
    double su = sqrt(fmax(r2 - u * u, 0.0)), sv = sqrt(fmax(r2 - v * v, 0.0));
    double au = asin(fmax(-1.0, fmin(1.0, u / rho))), av = asin(fmax(-1.0, fmin(1.0, v / rho)));
    return 0.5 * ((v * sv + r2 * av) - (u * su + r2 * au));
}

/* H(a, b): the area of the disc of radius rho at 0 in {x < a, y < b} */
static double quadrant_area(double rho, double a, double b)
{
    if (b >= rho) return 2.0 * chord_integral(rho, -rho, a); /* whole chords */
    if (b <= -rho) return 0.0;
    const double c = sqrt(rho * rho - b * b); /* |x| < c: the line y = b crosses the chord */
    const double m = fmin(a, c);
    double H = b * fmax(0.0, m + c) + chord_integral(rho, -c, m); /* chord from -s(x) to b */
    if (b > 0.0) H += 2.0 * (chord_integral(rho, -rho, fmin(a, -c)) + chord_integral(rho, c, a)); /* |x| > c */
    return H;
}

/* A(z): the area of the slice at z inside the rectangle (relative coordinates) */
static double slice_area(double R, double z, const double x[2], const double y[2])
{
    const double rho = sqrt(fmax(R * R - z * z, 0.0));
    if (rho == 0.0) return 0.0;
    return quadrant_area(rho, x[1], y[1]) - quadrant_area(rho, x[0], y[1]) - quadrant_area(rho, x[1], y[0]) +
           quadrant_area(rho, x[0], y[0]);
}

static int cmp_double(const void *p, const void *q)
{
    double a = *(const double *)p, b = *(const double *)q;
    return (a > b) - (a < b);
}

/* the integral of A(z) over [z0, z1], cut at the kinks (see the top) */
static double slices_volume(double R, double z0, double z1, const double x[2], const double y[2])
{
    double cut[20], d2[8];
    int n = 0;
    cut[n++] = z0;
    cut[n++] = z1;
    /* where rho(z) reaches a face's distance |x_i|, |y_j| or a corner's sqrt(x_i^2 + y_j^2) */
    for (int i = 0; i < 2; i++) {
        d2[i] = x[i] * x[i];
        d2[2 + i] = y[i] * y[i];
        for (int j = 0; j < 2; j++) d2[4 + 2 * i + j] = x[i] * x[i] + y[j] * y[j];
    }
    for (int k = 0; k < 8; k++) {
        if (!isfinite(d2[k]) || d2[k] >= R * R) continue;
        const double zb = sqrt(R * R - d2[k]);
        if (zb > z0 && zb < z1) cut[n++] = zb;
        if (-zb > z0 && -zb < z1) cut[n++] = -zb;
    }
    qsort(cut, (size_t)n, sizeof cut[0], cmp_double);
    gsl_integration_glfixed_table *t = gsl_integration_glfixed_table_alloc(32);
    if (!t) return NAN;
    double V = 0.0;
    for (int k = 0; k + 1 < n; k++) {
        const double za = cut[k], L = cut[k + 1] - cut[k];
        if (!(L > 0.0)) continue;
        for (size_t i = 0; i < 32; i++) {
            double u, wt;
            gsl_integration_glfixed_point(0.0, 1.0, i, &u, &wt, t);
            /* z = za + L (1 - cos(pi u))/2, dz = L pi/2 sin(pi u) du */
            const double z = za + 0.5 * L * (1.0 - cos(M_PI * u));
            V += wt * slice_area(R, z, x, y) * 0.5 * L * M_PI * sin(M_PI * u);
        }
    }
    gsl_integration_glfixed_table_free(t);
    return V;
}

double clab_measure_sphere_in_box(clab_vec3 c, double R, const clab_measure_box *box)
{
    const double ctr[3] = {c.x, c.y, c.z};
    double lo[3], hi[3];
    int cuts = 0, axis = -1, side = 0;
    for (int k = 0; k < 3; k++) {
        lo[k] = box->lo[k] - ctr[k]; /* the faces relative to the center */
        hi[k] = box->hi[k] - ctr[k];
        if (lo[k] >= R || hi[k] <= -R || !(lo[k] < hi[k])) return 0.0; /* outside */
        if (lo[k] > -R) cuts++, axis = k, side = 0;
        if (hi[k] < R) cuts++, axis = k, side = 1;
    }
    const double full = 4.0 / 3.0 * M_PI * R * R * R;
    if (cuts == 0) return full;
    if (cuts == 1) { /* a cap: the part beyond the face, height h */
        const double d = side ? hi[axis] : lo[axis];
        const double h = side ? R + d : R - d;
        return M_PI * h * h * (3.0 * R - h) / 3.0;
    }
    /* z along the axis, x and y the other two (any order: the volume is symmetric) */
    const double x[2] = {lo[0], hi[0]}, y[2] = {lo[1], hi[1]};
    return slices_volume(R, fmax(lo[2], -R), fmin(hi[2], R), x, y);
}
