/* test_penalty_force_law: the single-contact force law (penalty/force_law.h) on hand-computed
 * cases. Expected values come from the formulas in force_law.h / doc/penalty.md (seed 002's
 * force law; Hertz-Mindlin and Tsuji for the material map; LAMMPS and LIGGGHTS for the caps),
 * evaluated independently here or by the closed forms of clab_analytic.h; tolerance 1e-12
 * relative (round-off) unless stated. */
#include <math.h>

#include "clab_analytic.h"
#include "force_law.h"
#include "tap.h"

static const double tol = 1e-12;

/* the pair of two equal materials: E = 1e9 Pa, nu = 0.25, cor = 0.5, mu = 0.4 */
static clab_material_pair equal_pair(void)
{
    clab_material ma = clab_default_material();
    ma.E = 1e9, ma.nu = 0.25, ma.cor = 0.5, ma.mu = 0.4;
    return clab_material_mix(&ma, &ma);
}

/* the damping map beta(e) and the effective mass and radius */
static void damping_and_effective(void)
{
    /* beta: zeta = -beta solves e = exp(-pi zeta/sqrt(1 - zeta^2)) */
    const double es[] = {0.05, 0.3, 0.5, 0.9, 0.999};
    double worst = 0.0;
    for (int i = 0; i < 5; i++) {
        double z = -clab_penalty_beta(es[i]);
        worst = fmax(worst, fabs(clab_analytic_hooke_restitution(z) - es[i]));
    }
    tap_close(worst, 0.0, 1e-14, "beta(e): e = exp(-pi zeta/sqrt(1 - zeta^2)) with zeta = -beta, e = 0.05..0.999");
    tap_ok(clab_penalty_beta(1.0) == 0.0, "beta(1) = 0: no damping for e = 1");

    /* effective mass and radius */
    tap_rel(clab_penalty_meff(2.0, 0, 3.0, 0), 1.2, tol, "m_eff = m_a m_b/(m_a + m_b)");
    tap_ok(clab_penalty_meff(2.0, 1, 3.0, 0) == 3.0 && clab_penalty_meff(2.0, 0, 3.0, 1) == 2.0,
           "m_eff against a fixed body is the free body's mass");
    tap_rel(clab_penalty_reff(0.1, 0.3), 0.075, tol, "R* = R_a R_b/(R_a + R_b)");
    tap_ok(clab_penalty_reff(0.1, INFINITY) == 0.1, "R* against a plane (R = infinity) is the sphere's radius");
    tap_ok(clab_penalty_reff(INFINITY, 0.25) == 0.25 && clab_penalty_reff(INFINITY, INFINITY) == INFINITY,
           "R* with the plane first, and of two flat sides (1/R* = 0)");
    tap_rel(clab_penalty_reff(2e-3, 7e-3), 1.0 / (1.0 / 2e-3 + 1.0 / 7e-3), 1e-15, "R* = 1/(1/R_a + 1/R_b), unequal radii");
}

/* the material map: E*, G* and the coefficients of each model, derived and explicit */
static void coefficients(void)
{
    /* material pair: E = 1e9, nu = 0.25, cor = 0.5 on both sides */
    clab_material_pair mp = equal_pair();
    clab_penalty_pair pp = clab_penalty_pair_make(&mp, -1, -1, -1, -1);
    double Estar = clab_analytic_hertz_Estar(1e9, 0.25, 1e9, 0.25), Gstar = 1e9 / (4 * (2 - 0.25) * 1.25);
    double beta = -clab_analytic_hooke_zeta(0.5);
    tap_rel(pp.Estar, Estar, tol, "E* = 1/(2 (1 - nu^2)/E) for equal materials");
    tap_rel(pp.Gstar, Gstar, tol, "G* = 1/(4 (2 - nu)(1 + nu)/E) for equal materials");
    tap_ok(pp.kn < 0 && pp.kt < 0 && pp.gn < 0 && pp.gt < 0, "no explicit values: all derived");

    /* Hertz-Mindlin coefficients at delta = 1e-4, R* = 0.01, m* = 0.02 */
    clab_penalty_law law = {CLAB_PENALTY_HERTZ, CLAB_PENALTY_CAP_TOTAL, CLAB_PENALTY_ROLL_OFF, 0, 1.0, 0};
    double d = 1e-4, R = 0.01, m = 0.02;
    clab_penalty_coef k = clab_penalty_coefficients(&law, &pp, d, m, R);
    double Sn = 2 * Estar * sqrt(R * d), St = 8 * Gstar * sqrt(R * d);
    tap_rel(k.kn, 2.0 / 3.0 * Sn, tol, "Hertz: k_n = 4/3 E* sqrt(R* delta_n)");
    tap_rel(k.kt, St, tol, "Mindlin: k_t = 8 G* sqrt(R* delta_n)");
    tap_rel(k.cn, -2 * sqrt(5.0 / 6.0) * beta * sqrt(Sn * m), tol, "Tsuji: c_n = -2 sqrt(5/6) beta sqrt(S_n m*)");
    tap_rel(k.ct, -2 * sqrt(5.0 / 6.0) * beta * sqrt(St * m), tol, "Tsuji: c_t = -2 sqrt(5/6) beta sqrt(S_t m*)");
    /* explicit Hertz values: kn [N/m^1.5] times sqrt(delta); gamma m* sqrt(delta/R*) (seed 002, D_eff = R*) */
    clab_penalty_pair px = clab_penalty_pair_make(&mp, 3e9, 1e9, 100, 0);
    k = clab_penalty_coefficients(&law, &px, d, m, R);
    tap_rel(k.kn, 3e9 * sqrt(d), tol, "Hertz explicit: k_n = kn sqrt(delta_n)");
    tap_rel(k.kt, 1e9 * sqrt(d), tol, "Hertz explicit: k_t = kt sqrt(delta_n)");
    tap_rel(k.cn, 100 * m * sqrt(d / R), tol,
            "Hertz explicit: c_n = gamma_n m* sqrt(delta_n/R*) (f = sqrt(delta_n/D_eff), D_eff = R*)");
    tap_ok(k.ct == 0.0, "Hertz explicit gt = 0: no tangential damping");
    /* explicit stiffnesses, dashpots from cor (S_n = 3/2 k_n, S_t = k_t: the ratio fixed by the
     * pair), and one explicit with one derived (the ratio depends on R*: no shortcut) */
    clab_penalty_pair pk = clab_penalty_pair_make(&mp, 3e9, 1e9, -1, -1);
    k = clab_penalty_coefficients(&law, &pk, d, m, R);
    tap_rel(k.ct, -2 * sqrt(5.0 / 6.0) * beta * sqrt(1e9 * sqrt(d) * m), tol,
            "Hertz explicit kn, kt, damping from cor: c_t = -2 sqrt(5/6) beta sqrt(k_t m*)");
    tap_rel(k.cn, -2 * sqrt(5.0 / 6.0) * beta * sqrt(1.5 * 3e9 * sqrt(d) * m), tol,
            "Hertz explicit kn, kt, damping from cor: c_n = -2 sqrt(5/6) beta sqrt(3/2 k_n m*)");
    clab_penalty_pair pm = clab_penalty_pair_make(&mp, 3e9, -1, -1, -1);
    k = clab_penalty_coefficients(&law, &pm, d, m, R);
    tap_ok(pm.st_sn < 0.0, "Hertz explicit kn, derived kt: S_t/S_n not fixed by the pair");
    tap_rel(k.ct, -2 * sqrt(5.0 / 6.0) * beta * sqrt(St * m), tol,
            "Hertz explicit kn, derived kt: c_t = -2 sqrt(5/6) beta sqrt(8 G* sqrt(R* delta_n) m*)");

    /* Hooke: explicit kn with derived kt and damping */
    law.model = CLAB_PENALTY_HOOKE;
    clab_penalty_pair ph = clab_penalty_pair_make(&mp, 2e5, -1, -1, -1);
    k = clab_penalty_coefficients(&law, &ph, d, m, R);
    tap_ok(k.kn == 2e5, "Hooke: k_n = kn, independent of the overlap");
    tap_rel(k.kt, 2.0 / 7.0 * 2e5, tol, "Hooke: k_t = 2/7 k_n by default");
    tap_rel(k.cn, -2 * beta * sqrt(2e5 * m), tol, "Hooke: c_n = 2 zeta sqrt(k_n m*), zeta = -beta");
    /* LAMMPS chute parameters: gamma_n m_eff, gamma_t = 0 */
    clab_penalty_pair pl = clab_penalty_pair_make(&mp, 2e5, 2e5 * 2.0 / 7.0, 50.0, 0.0);
    k = clab_penalty_coefficients(&law, &pl, d, m, R);
    tap_rel(k.cn, 50.0 * m, tol, "Hooke explicit gn: c_n = gamma_n m_eff (LAMMPS convention)");
    tap_ok(k.ct == 0.0, "Hooke explicit gt = 0: c_t = 0");
    /* Hooke from E: the linear spring whose overlap at vchar equals Hertz's */
    law.vchar = 2.0;
    clab_penalty_pair pe = clab_penalty_pair_make(&mp, -1, -1, -1, -1);
    k = clab_penalty_coefficients(&law, &pe, d, m, R);
    double dH = clab_analytic_hertz_impact(clab_analytic_hertz_K(Estar, R), m, 2.0).max_overlap; /* Hertz at 2 m/s */
    tap_rel(k.kn * dH * dH, m * 4.0, 1e-12, "Hooke from E*: k_n delta_Hertz(vchar)^2 = m* vchar^2 (same max overlap)");
}

/* one contact's force: spring + dashpot, the two caps, separation with and without clamp */
static void contact_force(void)
{
    clab_penalty_law law = {CLAB_PENALTY_HOOKE, CLAB_PENALTY_CAP_TOTAL, CLAB_PENALTY_ROLL_OFF, 0, 1.0, 0};
    /* contact force: below the cap, spring + dashpot, history unchanged */
    clab_penalty_coef kc = {1000.0, 400.0, 2.0, 1.0};
    clab_vec3 dt = clab_v3(1e-4, 0, 0), vt = clab_v3(0, 0.01, 0), Ft;
    double Fn;
    clab_penalty_contact_force(&law, kc, 0.5, 0.01, -0.1, vt, &dt, &Fn, &Ft);
    tap_rel(Fn, 1000 * 0.01 + 2.0 * 0.1, tol, "F_n = k_n delta_n - c_n v_n (approaching: the dashpot pushes)");
    tap_ok(Ft.x == -400 * 1e-4 && Ft.y == -0.01 && Ft.z == 0.0 && dt.x == 1e-4,
           "below the cap: F_t = -k_t delta_t - c_t v_t, delta_t unchanged");

    /* cap=total: |F_t| = mu F_n, and delta_t rewritten so that -k_t delta_t - c_t v_t = F_t (LAMMPS) */
    dt = clab_v3(0.1, 0.05, 0);
    clab_penalty_contact_force(&law, kc, 0.5, 0.01, 0.0, vt, &dt, &Fn, &Ft);
    tap_rel(clab_v3_norm(Ft), 0.5 * Fn, tol, "cap=total: |F_t| = mu F_n");
    clab_vec3 back = clab_v3_add(clab_v3_scale(dt, -kc.kt), clab_v3_scale(vt, -kc.ct));
    tap_close(clab_v3_norm(clab_v3_sub(back, Ft)), 0.0, 1e-12, "cap=total: -k_t delta_t - c_t v_t = F_t after the cap");
    clab_vec3 dir = clab_v3_normalize(clab_v3_add(clab_v3_scale(clab_v3(0.1, 0.05, 0), -400), clab_v3_scale(vt, -1.0)));
    tap_close(clab_v3_norm(clab_v3_sub(clab_v3_normalize(Ft), dir)), 0.0, 1e-12,
              "cap=total: F_t keeps the direction of spring + dashpot");

    /* cap=spring: k_t |delta_t| = mu F_n, F_t = spring alone while sliding (LIGGGHTS) */
    law.cap = CLAB_PENALTY_CAP_SPRING;
    dt = clab_v3(0.1, 0.05, 0);
    clab_penalty_contact_force(&law, kc, 0.5, 0.01, 0.0, vt, &dt, &Fn, &Ft);
    tap_rel(kc.kt * clab_v3_norm(dt), 0.5 * Fn, tol, "cap=spring: k_t |delta_t| = mu F_n");
    tap_close(clab_v3_norm(clab_v3_add(Ft, clab_v3_scale(dt, kc.kt))), 0.0, 1e-15,
              "cap=spring: sliding force is the spring alone");
    tap_close(clab_v3_norm(clab_v3_cross(dt, clab_v3(0.1, 0.05, 0))), 0.0, 1e-15, "cap=spring: delta_t only shortened");
    law.cap = CLAB_PENALTY_CAP_TOTAL;

    /* separation: the dashpot pulls (clamp off) or F_n = 0 (clamp on); no friction without push */
    dt = clab_v3(1e-3, 0, 0);
    clab_penalty_contact_force(&law, kc, 0.5, 0.001, 2.0, vt, &dt, &Fn, &Ft);
    tap_ok(Fn < 0.0 && clab_v3_norm(Ft) == 0.0, "clamp=off: the dashpot may pull (F_n = %g < 0), friction 0", Fn);
    law.clamp = 1;
    dt = clab_v3(1e-3, 0, 0);
    clab_penalty_contact_force(&law, kc, 0.5, 0.001, 2.0, vt, &dt, &Fn, &Ft);
    tap_ok(Fn == 0.0 && clab_v3_norm(Ft) == 0.0, "clamp=on: F_n = 0 and no friction when the dashpot would pull");
}

/* the history turned onto a new tangent plane, and the rolling-resistance torque */
static void history_and_rolling(void)
{
    /* history rotation: onto the tangent plane, length kept */
    clab_vec3 n = clab_v3_normalize(clab_v3(0.1, 0.0, 1.0));
    clab_vec3 r = clab_penalty_rotate_history(clab_v3(2e-4, 1e-4, 0), n);
    tap_close(clab_v3_dot(r, n), 0.0, 1e-20, "rotated history lies in the tangent plane");
    tap_rel(clab_v3_norm(r), clab_v3_norm(clab_v3(2e-4, 1e-4, 0)), tol, "rotated history keeps its length");
    r = clab_penalty_rotate_history(clab_v3(0, 0, 1e-4), clab_v3(0, 0, 1));
    tap_ok(clab_v3_norm(r) == 0.0, "a history along the new normal becomes zero");

    /* rolling resistance: M = mu_roll F_n against the rolling part of w_b - w_a, no reversal in a step */
    clab_vec3 M = clab_penalty_rolling_torque(1e-3, 10.0, clab_v3(5, 0, 7), clab_v3(0, 0, 1), 0.0, 100.0, 1e-4);
    tap_ok(fabs(M.x + 1e-2) < 1e-15 && M.y == 0 && M.z == 0, "rolling torque -mu_roll F_n along the rolling axis "
                                                             "(twist about n ignored): (%g, %g, %g)",
           M.x, M.y, M.z);
    M = clab_penalty_rolling_torque(1e-3, 10.0, clab_v3(5e-5, 0, 0), clab_v3(0, 0, 1), 0.0, 100.0, 1e-4);
    tap_rel(-M.x * 1e-4 * 100.0, 5e-5, tol, "rolling torque limited to stop w_r within one step, not reverse it");
}

/* the contact-time estimates against the closed forms */
static void contact_times(void)
{
    clab_material_pair mp = equal_pair();
    clab_penalty_pair pe = clab_penalty_pair_make(&mp, -1, -1, -1, -1);
    double Estar = clab_analytic_hertz_Estar(1e9, 0.25, 1e9, 0.25);
    clab_penalty_law law = {CLAB_PENALTY_HOOKE, CLAB_PENALTY_CAP_TOTAL, CLAB_PENALTY_ROLL_OFF, 0, 1.0, 0};
    /* contact time: Hooke damped half period; Hertz time 2.9432 delta_max/v */
    clab_penalty_pair pt = clab_penalty_pair_make(&mp, 1e6, -1, 100.0, -1);
    double tc_hooke = clab_analytic_hooke_impact(1e6, 100.0 * 0.01, 0.01, 1.0).contact_time; /* c = gamma m */
    tap_rel(clab_penalty_contact_time(&law, &pt, 0.01, 0.01, 1.0), tc_hooke, tol,
            "Hooke contact time pi/sqrt(k/m - (gamma/2)^2)");
    law.model = CLAB_PENALTY_HERTZ;
    clab_analytic_impact hz = clab_analytic_hertz_impact(clab_analytic_hertz_K(Estar, 0.01), 0.01, 3.0);
    tap_rel(clab_penalty_contact_time(&law, &pe, 0.01, 0.01, 3.0), 2.9432752 * hz.max_overlap / 3.0, 1e-6,
            "Hertz contact time 2.9432752 delta_max/v (constant by quadrature; Johnson, Sect. 11.4)");
}

int main(void)
{
    damping_and_effective();
    coefficients();
    contact_force();
    history_and_rolling();
    contact_times();
    return tap_done();
}
