/* test_granular_fit: the analysis of the quasi-static granular tests (experiments/granular_fit.c)
 * on synthetic curves whose answers are known.
 *
 * 1. Mohr-Coulomb: points on tau = c + sigma_n tan(phi) (c = 1 kPa, phi = 30 deg, sigma_n =
 *    3, 8, 15, 25 kPa as `contactlab shear` uses) give phi and c back to rounding (1e-9 deg,
 *    1e-6 Pa); with a +-3% error on each tau (a fixed pattern) phi within 1 deg; points on
 *    tau = sigma_n tan(25 deg) give phi_0 = 25 deg and c = 0 (1e-9); a single sigma_n, or
 *    one point, is refused; a NaN point is left out.
 * 2. Peak and residual: a shear curve rising to 0.8 at x = 2 mm and decaying to 0.55, with a
 *    fluctuation of amplitude 0.05 and period 0.1 mm: the peak of the curve smoothed over
 *    0.5 mm (5 periods: the fluctuation averages out to 1/(5 pi) of its amplitude at worst)
 *    within 0.01 of 0.8 at 2 mm +- 0.1 mm, while the raw maximum is 0.85; the residual over
 *    x >= 6 mm within 0.005 of 0.55 (the bump's mean there
 *    is below 1e-3); no point past x_res: -1.
 * 3. Triaxial: M = 6 sin(phi)/(3 - sin(phi)) is the inverse of sin(phi) = 3 M/(6 + M): phi =
 *    30 deg is M = 1.2 (Wood 1990), to 1e-12 deg; M outside [0, 3) is NaN.
 * 4. I = rate d sqrt(rho/P) (0.2/s, 5 mm, 2650 kg/m^3, 3 kPa: 9.4e-4), the formula to 1e-15. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "granular.h"
#include "tap.h"

static double deg(double r) { return r * 180.0 / M_PI; }
static double rad(double d) { return d * M_PI / 180.0; }

static void test_mohr_coulomb(void)
{
    const double sn[4] = {3e3, 8e3, 15e3, 25e3};
    double tau[4];
    gr_mc_fit f;
    for (int i = 0; i < 4; i++) tau[i] = 1e3 + sn[i] * tan(rad(30.0));
    tap_ok(gr_mohr_coulomb(sn, tau, 4, &f) == 0, "Mohr-Coulomb fit of 4 exact points runs");
    tap_close(f.phi_deg, 30.0, 1e-9, "exact points: phi [deg]");
    tap_close(f.c, 1e3, 1e-6, "exact points: cohesion c [Pa]");
    tap_close(f.r2, 1.0, 1e-12, "exact points: R^2");
    const double err[4] = {0.03, -0.03, -0.03, 0.03}; /* the worst pattern for the slope */
    for (int i = 0; i < 4; i++) tau[i] = (1e3 + sn[i] * tan(rad(30.0))) * (1.0 + err[i]);
    gr_mohr_coulomb(sn, tau, 4, &f);
    tap_close(f.phi_deg, 30.0, 1.0, "+-3% on tau: phi [deg] within 1 deg");
    tap_ok(f.se_phi_deg > 0.0 && f.se_phi_deg < 2.0, "+-3%% on tau: standard error of phi %g deg in (0, 2)",
           f.se_phi_deg);
    for (int i = 0; i < 4; i++) tau[i] = sn[i] * tan(rad(25.0));
    gr_mohr_coulomb(sn, tau, 4, &f);
    tap_close(f.phi0_deg, 25.0, 1e-9, "cohesionless points: phi_0 of the fit through the origin [deg]");
    tap_close(f.c, 0.0, 1e-9, "cohesionless points: c [Pa]");
    tap_close(f.phi_deg, f.phi0_deg, 1e-9, "cohesionless points: phi = phi_0 [deg]");
    const double same[3] = {5e3, 5e3, 5e3};
    tap_ok(gr_mohr_coulomb(same, tau, 3, &f) == -1 && isnan(f.phi_deg), "one sigma_n only: refused, phi NaN");
    tap_ok(gr_mohr_coulomb(sn, tau, 1, &f) == -1, "one point: refused");
    double tn[4] = {tau[0], NAN, tau[2], tau[3]};
    int rc = gr_mohr_coulomb(sn, tn, 4, &f);
    tap_ok(rc == 0 && fabs(f.phi0_deg - 25.0) < 1e-9, "a NaN point is left out: phi_0 %.12g deg from the other three",
           f.phi0_deg);
}

static void test_peak_residual(void)
{
    enum { N = 8001 };
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    /* x in mm: 0..8; r (1 - exp(-4 x)) + (p - r) u^6 exp(6 (1 - u)), u = x/xp, rises from 0
     * like a loaded sample, peaks at p at u = 1, decays to r (the bump is < 5e-3 (p - r) past
     * x = 6 mm: its mean there < 1e-3) */
    const double p = 0.8, r = 0.55, xp = 2.0, amp = 0.05, per = 0.1;
    double rawmax = -1.0;
    for (int i = 0; i < N; i++) {
        x[i] = 8.0 * i / (N - 1);
        double u = x[i] / xp;
        y[i] = r * (1.0 - exp(-4.0 * x[i])) + (p - r) * pow(u, 6) * exp(6.0 * (1.0 - u)) +
               amp * sin(2.0 * M_PI * x[i] / per);
        rawmax = fmax(rawmax, y[i]);
    }
    gr_peak k;
    tap_ok(gr_peak_residual(x, y, N, 0.5, 6.0, &k) == 0, "peak and residual of a noisy shear curve");
    tap_close(k.peak, p, 0.01, "smoothed peak (window 0.5 mm = 5 fluctuation periods)");
    tap_close(k.x_peak, xp, 0.1, "where the peak is [mm]");
    tap_ok(rawmax > p + 0.8 * amp, "the raw maximum %.4f is the fluctuation's, %.2f above the peak", rawmax,
           rawmax - p);
    tap_close(k.residual, r, 0.005, "residual: mean over x >= 6 mm");
    tap_ok(k.nres == 2001, "residual mean over the 2001 points at x >= 6 mm (got %zu)", k.nres);
    tap_ok(gr_peak_residual(x, y, N, 0.5, 9.0, &k) == -1 && isnan(k.residual) && !isnan(k.peak),
           "no point at x >= x_res: -1, residual NaN, peak still found");
    double s[3];
    const double xs[3] = {0, 1, 2}, ys[3] = {1, 2, 6};
    gr_smooth(xs, ys, 3, 2.0, s);
    tap_ok(s[0] == 1.5 && s[1] == 3.0 && s[2] == 4.0, "moving average over +-1: %g %g %g (1.5 3 4)", s[0], s[1], s[2]);
    free(x);
    free(y);
}

static void test_triaxial(void)
{
    double sphi = sin(rad(30.0)), M = 6.0 * sphi / (3.0 - sphi);
    tap_close(M, 1.2, 1e-12, "phi = 30 deg: M = 6 sin(phi)/(3 - sin(phi))");
    tap_close(gr_phi_triaxial_deg(1.2), 30.0, 1e-12, "M = 1.2: phi = asin(3M/(6+M)) [deg]");
    for (double d = 5.0; d < 60.0; d += 10.0) {
        double s = sin(rad(d));
        if (!tap_close(gr_phi_triaxial_deg(6.0 * s / (3.0 - s)), d, 1e-9, "phi from M(phi) [deg]")) break;
    }
    tap_ok(isnan(gr_phi_triaxial_deg(3.0)) && isnan(gr_phi_triaxial_deg(-0.1)), "M outside [0, 3): NaN");
    tap_rel(gr_inertial_number(0.2, 5e-3, 2650.0, 3e3), 0.2 * 5e-3 * sqrt(2650.0 / 3e3), 1e-15, "I = rate d sqrt(rho/P)");
    (void)deg;
}

int main(void)
{
    test_mohr_coulomb();
    test_peak_residual();
    test_triaxial();
    return tap_done();
}
