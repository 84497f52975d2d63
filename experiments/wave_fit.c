/* wave_fit.c: arrival times, line fits and power-law fits (wave_fit.h) */
#include "wave_fit.h"

#include <math.h>

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
