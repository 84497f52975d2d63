/* wave_fit.c: arrival times, line fits and power-law fits (wave_fit.h) */
#include "wave_fit.h"

#include <math.h>
#include <stdlib.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* first crossing of vth between two samples: linear interpolation of v in t */
static double crossing(double t0, double v0, double t1, double v1, double vth)
{
    double x = v1 != v0 ? (vth - v0) / (v1 - v0) : 1.0;
    return t0 + fmin(fmax(x, 0.0), 1.0) * (t1 - t0);
}

double xp_arrival(const double *t, const double *v, size_t n, double vth)
{
    for (size_t k = 0; k < n; k++)
        if (v[k] >= vth) return k == 0 ? t[0] : crossing(t[k - 1], v[k - 1], t[k], v[k], vth);
    return NAN;
}

void xp_arrival_step(double *arr, double *prev_t, double *prev_v, double t, double v, double vth)
{
    if (isnan(*arr) && v >= vth) *arr = isnan(*prev_t) ? t : crossing(*prev_t, *prev_v, t, v, vth);
    *prev_t = t;
    *prev_v = v;
}

int xp_line_fit(const double *x, const double *y, size_t n, double *a, double *b)
{
    /* centred sums: b = sum (x - xm)(y - ym) / sum (x - xm)^2, a = ym - b xm */
    double sx = 0.0, sy = 0.0;
    int m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]) && isfinite(y[i])) sx += x[i], sy += y[i], m++;
    *a = *b = NAN;
    if (m < 2) return m;
    double xm = sx / m, ym = sy / m, sxx = 0.0, sxy = 0.0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]) && isfinite(y[i])) {
            sxx += (x[i] - xm) * (x[i] - xm);
            sxy += (x[i] - xm) * (y[i] - ym);
        }
    if (sxx > 0.0) {
        *b = sxy / sxx;
        *a = ym - *b * xm;
    }
    return m;
}

int xp_power_fit(const double *x, const double *y, size_t n, double *A, double *alpha)
{
    double lx[64], ly[64];
    size_t m = 0;
    for (size_t i = 0; i < n && m < 64; i++)
        if (isfinite(x[i]) && isfinite(y[i]) && x[i] > 0.0 && y[i] > 0.0) lx[m] = log(x[i]), ly[m] = log(y[i]), m++;
    double a, b;
    int used = xp_line_fit(lx, ly, m, &a, &b);
    *alpha = b;
    *A = isnan(a) ? NAN : exp(a);
    return used;
}

double xp_line_fit_se(const double *x, const double *y, size_t n, double a, double b)
{
    double sx = 0.0, srr = 0.0, sxx = 0.0;
    int m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]) && isfinite(y[i])) sx += x[i], m++;
    if (m < 3 || !isfinite(b)) return NAN;
    const double xm = sx / m;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]) && isfinite(y[i])) {
            const double r = y[i] - a - b * x[i];
            srr += r * r;
            sxx += (x[i] - xm) * (x[i] - xm);
        }
    return sxx > 0.0 ? sqrt(srr / (m - 2) / sxx) : NAN;
}

/* the volume of a sphere (radius R) between heights u1 < u2 from its center */
static double slab_volume(double R, double u1, double u2)
{
    u1 = fmin(fmax(u1, -R), R), u2 = fmin(fmax(u2, -R), R);
    return M_PI * (R * R * (u2 - u1) - (u2 * u2 * u2 - u1 * u1 * u1) / 3.0);
}

double xp_bed_surface(const double *z, const double *r, size_t n, double A, double dz, double z_lo, double z_hi,
                      double *phib)
{
    double top = 0.0;
    for (size_t i = 0; i < n; i++) top = fmax(top, z[i] + r[i]);
    const size_t ns = (size_t)ceil(top / dz) + 1;
    double *phi = calloc(ns, sizeof *phi);
    if (!phi || !(dz > 0.0) || !(A > 0.0)) {
        free(phi);
        return NAN;
    }
    for (size_t i = 0; i < n; i++) {
        const size_t k0 = (size_t)fmax(0.0, floor((z[i] - r[i]) / dz)), k1 = (size_t)floor((z[i] + r[i]) / dz);
        for (size_t k = k0; k <= k1 && k < ns; k++)
            phi[k] += slab_volume(r[i], k * dz - z[i], (k + 1) * dz - z[i]) / (A * dz);
    }
    double sb = 0.0;
    int nb = 0;
    for (size_t k = 0; k < ns; k++)
        if ((k + 0.5) * dz >= z_lo && (k + 0.5) * dz <= z_hi) sb += phi[k], nb++;
    const double half = nb ? 0.5 * sb / nb : NAN;
    if (phib) *phib = nb ? sb / nb : NAN;
    double zs = NAN;
    for (size_t k = ns - 1; k > 0 && nb; k--)
        if (phi[k - 1] >= half && phi[k] < half) {
            zs = (k - 0.5) * dz + (half - phi[k - 1]) / (phi[k] - phi[k - 1]) * dz;
            break;
        }
    free(phi);
    return zs;
}
