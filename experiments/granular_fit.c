/* granular_fit.c: the analysis of the quasi-static granular tests (granular.h): peak and
 * residual of a curve, the Mohr-Coulomb fit, the triaxial friction angle, the inertial
 * number. */
#include "config.h"

#include "granular.h"

#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdlib.h>

void gr_smooth(const double *x, const double *y, size_t n, double win, double *out)
{
    if (win <= 0.0) {
        for (size_t i = 0; i < n; i++) out[i] = y[i];
        return;
    }
    /* a sliding window [lo, hi) over the sorted x: each end only moves forward */
    size_t lo = 0, hi = 0;
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        while (hi < n && x[hi] <= x[i] + 0.5 * win) sum += y[hi++];
        while (x[lo] < x[i] - 0.5 * win) sum -= y[lo++];
        out[i] = sum / (double)(hi - lo);
    }
}

int gr_peak_residual(const double *x, const double *y, size_t n, double win, double x_res, gr_peak *out)
{
    out->peak = out->x_peak = out->residual = NAN;
    out->nres = 0;
    if (n == 0) return -1;
    double *s = malloc(n * sizeof *s);
    if (!s) return -1;
    gr_smooth(x, y, n, win, s);
    size_t k = 0;
    for (size_t i = 1; i < n; i++)
        if (s[i] > s[k]) k = i;
    out->peak = s[k];
    out->x_peak = x[k];
    free(s);
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        if (x[i] >= x_res) sum += y[i], out->nres++;
    if (out->nres == 0) return -1;
    out->residual = sum / (double)out->nres;
    return 0;
}

int gr_mohr_coulomb(const double *sigma_n, const double *tau, size_t n, gr_mc_fit *f)
{
    f->c = f->tan_phi = f->phi_deg = f->se_phi_deg = f->r2 = f->tan_phi0 = f->phi0_deg = NAN;
    double *xs = malloc((n ? n : 1) * 2 * sizeof *xs);
    if (!xs) return -1;
    double *ys = xs + (n ? n : 1);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(sigma_n[i]) && isfinite(tau[i])) xs[m] = sigma_n[i], ys[m] = tau[i], m++;
    int distinct = 0;
    for (size_t i = 1; i < m; i++) distinct |= xs[i] != xs[0];
    if (m < 2 || !distinct) {
        free(xs);
        return -1;
    }
    /* tau = c + sigma_n tan(phi): ordinary least squares */
    double c0, c1, cov00, cov01, cov11, sumsq;
    gsl_fit_linear(xs, 1, ys, 1, m, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
    double mean = 0.0, tss = 0.0;
    for (size_t i = 0; i < m; i++) mean += ys[i];
    mean /= (double)m;
    for (size_t i = 0; i < m; i++) tss += (ys[i] - mean) * (ys[i] - mean);
    f->c = c0;
    f->tan_phi = c1;
    f->phi_deg = atan(c1) * 180.0 / M_PI;
    /* d(phi)/d(tan phi) = 1/(1 + tan^2 phi) */
    f->se_phi_deg = m > 2 ? sqrt(cov11) / (1.0 + c1 * c1) * 180.0 / M_PI : 0.0;
    f->r2 = tss > 0.0 ? 1.0 - sumsq / tss : 1.0;
    /* tau = sigma_n tan(phi_0): least squares through the origin */
    double k, cov_k, sumsq_k;
    gsl_fit_mul(xs, 1, ys, 1, m, &k, &cov_k, &sumsq_k);
    f->tan_phi0 = k;
    f->phi0_deg = atan(k) * 180.0 / M_PI;
    free(xs);
    return 0;
}

double gr_phi_triaxial_deg(double M)
{
    if (!(M >= 0.0 && M < 3.0)) return NAN;
    return asin(3.0 * M / (6.0 + M)) * 180.0 / M_PI;
}

double gr_inertial_number(double rate, double d, double rho, double P) { return rate * d * sqrt(rho / P); }
