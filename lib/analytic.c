/* analytic.c: the closed-form references of clab_analytic.h */
#include "config.h"

#include "clab_analytic.h"

#include <math.h>

double clab_analytic_hertz_K(double Estar, double R) { return 4.0 / 3.0 * Estar * sqrt(R); }

/* delta_max = (5 m v^2 / (4 K))^(2/5), F_max = K delta_max^(3/2), t_c = 2.9432 delta_max / v */
clab_analytic_impact clab_analytic_hertz_impact(double K, double m, double v)
{
    clab_analytic_impact r;
    r.max_overlap = pow(1.25 * m * v * v / K, 0.4);
    r.max_force = K * pow(r.max_overlap, 1.5);
    r.contact_time = CLAB_ANALYTIC_HERTZ_TC * r.max_overlap / v;
    r.restitution = 1.0;
    return r;
}

/* the damped oscillator delta(t) = v/omega_d exp(-zeta omega_0 t) sin(omega_d t) */
clab_analytic_impact clab_analytic_hooke_impact(double k, double c, double m, double v)
{
    clab_analytic_impact r;
    double w0 = sqrt(k / m), zeta = c / (2.0 * sqrt(k * m));
    double wd = w0 * sqrt(fmax(1.0 - zeta * zeta, 1e-12));
    r.contact_time = M_PI / wd;
    double ts = atan2(wd, zeta * w0) / wd; /* tan(omega_d t) = omega_d / (zeta omega_0) */
    r.max_overlap = v / wd * exp(-zeta * w0 * ts) * sin(wd * ts);
    r.restitution = exp(-M_PI * zeta / sqrt(fmax(1.0 - zeta * zeta, 1e-12)));
    /* the force k delta + c delta' is largest at t = 0+ or later: sampled */
    double fmaxv = 0.0;
    for (int i = 0; i <= 1000; i++) {
        double t = r.contact_time * i / 1000.0, ex = exp(-zeta * w0 * t);
        double d = v / wd * ex * sin(wd * t), dd = v * ex * (cos(wd * t) - zeta * w0 / wd * sin(wd * t));
        fmaxv = fmax(fmaxv, k * d + c * dd);
    }
    r.max_force = fmaxv;
    return r;
}

/* t* = 2 v0 / (7 mu g) */
double clab_analytic_roll_time(double v0, double mu, double g) { return 2.0 * v0 / (7.0 * mu * g); }

/* v = 5 v0 / 7 */
double clab_analytic_roll_speed(double v0) { return 5.0 * v0 / 7.0; }

/* vx = v0 - mu g t, slip = v0 - 7/2 mu g t until t*, then 5 v0/7 and 0 */
void clab_analytic_slip_to_roll(double v0, double mu, double g, double t, double *vx, double *slip)
{
    double ts = clab_analytic_roll_time(v0, mu, g);
    if (mu <= 0.0 || t >= ts) {
        *vx = mu > 0.0 ? clab_analytic_roll_speed(v0) : v0;
        *slip = mu > 0.0 ? 0.0 : v0;
    } else {
        *vx = v0 - mu * g * t;
        *slip = v0 - 3.5 * mu * g * t;
    }
}

/* a = g (sin theta - mu cos theta) while tan theta > mu, else 0 */
double clab_analytic_incline_accel(double g, double theta, double mu)
{
    return tan(theta) > mu ? g * (sin(theta) - mu * cos(theta)) : 0.0;
}

/* V_s = (16/25)^(1/5) c^(4/5) v_m^(1/5), c^2 = K a^(5/2) / m */
double clab_analytic_nesterenko_speed(double K, double m, double a, double vm)
{
    double c = sqrt(K * pow(a, 2.5) / m);
    return pow(16.0 / 25.0, 0.2) * pow(c, 0.8) * pow(vm, 0.2);
}

/* c_0 = a sqrt(k/m) */
double clab_analytic_chain_sound_speed(double k, double m, double a) { return a * sqrt(k / m); }

/* 1/E* = (1 - nu_1^2)/E_1 + (1 - nu_2^2)/E_2 */
double clab_analytic_hertz_Estar(double E1, double nu1, double E2, double nu2)
{
    return 1.0 / ((1.0 - nu1 * nu1) / E1 + (1.0 - nu2 * nu2) / E2);
}

/* delta = (F/K)^(2/3) */
double clab_analytic_hertz_rest_overlap(double K, double F) { return pow(F / K, 2.0 / 3.0); }

/* 2 int_0^1 (1 - x^(5/2))^(-1/2) dx = 2 sqrt(pi) Gamma(7/5)/Gamma(9/10) */
double clab_analytic_hertz_tc_factor(void) { return 2.0 * sqrt(M_PI) * tgamma(1.4) / tgamma(0.9); }

/* e = exp(-pi zeta / sqrt(1 - zeta^2)) */
double clab_analytic_hooke_restitution(double zeta) { return exp(-M_PI * zeta / sqrt(1.0 - zeta * zeta)); }

/* zeta = -ln e / sqrt(ln^2 e + pi^2) */
double clab_analytic_hooke_zeta(double e)
{
    double l = log(e);
    return -l / sqrt(l * l + M_PI * M_PI);
}

/* the force k delta + c delta' vanishes at omega_d t_s = pi - atan(2 zeta s/(1 - 2 zeta^2)),
 * s = sqrt(1 - zeta^2); then e = -delta'(t_s)/v, t_c = t_s + delta(t_s)/|delta'(t_s)| */
clab_analytic_impact clab_analytic_hooke_impact_unilateral(double k, double c, double m, double v)
{
    clab_analytic_impact r = clab_analytic_hooke_impact(k, c, m, v);
    double wn = sqrt(k / m), zeta = c / (2.0 * sqrt(k * m));
    double s1 = sqrt(1.0 - zeta * zeta), wd = wn * s1;
    double phase = M_PI - atan(2.0 * zeta * s1 / (1.0 - 2.0 * zeta * zeta)); /* omega_d t_s */
    double ts = phase / wd, ex = exp(-zeta * wn * ts);
    double x = ex * sin(phase) / wd;                         /* delta(t_s) per unit v */
    double xd = ex * (cos(phase) - zeta / s1 * sin(phase));  /* delta'(t_s) per unit v, < 0 */
    r.restitution = -xd;
    r.contact_time = ts + x / -xd;
    return r;
}

/* theta'' = 5/7 g sin theta / L */
double clab_analytic_roll_over_sphere_accel(double g, double L, double theta) { return 5.0 / 7.0 * g / L * sin(theta); }

/* F_n = m g (17/7 cos theta - 10/7), F_t = 2/7 m g sin theta */
void clab_analytic_roll_over_sphere_forces(double m, double g, double theta, double *Fn, double *Ft)
{
    *Fn = m * g * (17.0 / 7.0 * cos(theta) - 10.0 / 7.0);
    *Ft = 2.0 / 7.0 * m * g * sin(theta);
}
