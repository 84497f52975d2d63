/* force_law.c: the penalty force law of seed 002 and the map from material properties to
 * its coefficients (Hooke, Hertz-Mindlin); formulas and sources in force_law.h and
 * doc/penalty.md. */
#include "force_law.h"

#include <math.h>

double clab_penalty_beta(double e)
{
    if (e >= 1.0) return 0.0;
    double loge = log(e);
    return loge / sqrt(loge * loge + M_PI * M_PI);
}

/* explicit value of the run (> 0, or >= 0 for damping), else of the material pair (> 0), else derive (-1) */
static double pick(double run, double material, int zero_ok)
{
    if (zero_ok ? run >= 0.0 : run > 0.0) return run;
    return material > 0.0 ? material : -1.0;
}

clab_penalty_pair clab_penalty_pair_make(const clab_material_pair *mp, double kn, double kt, double gn, double gt)
{
    clab_penalty_pair p;
    p.mu = mp->mu;
    p.mu_roll = mp->mu_roll;
    p.cor = mp->cor;
    p.beta = clab_penalty_beta(mp->cor);
    p.Estar = mp->Estar;
    p.Gstar = mp->Gstar;
    p.kn = pick(kn, mp->kn, 0);
    p.kt = pick(kt, mp->kt, 0);
    p.gn = pick(gn, mp->gn, 1);
    p.gt = pick(gt, mp->gt, 1);
    /* S_t/S_n, fixed for the pair when both stiffnesses are derived or both explicit */
    const double ratio = p.kn < 0.0 && p.kt < 0.0 ? 4.0 * p.Gstar / p.Estar
                         : p.kn > 0.0 && p.kt > 0.0 ? p.kt / (1.5 * p.kn)
                                                    : -1.0;
    p.st_sn = ratio >= 0.0 && isfinite(ratio) ? sqrt(ratio) : -1.0;
    return p;
}

/* hooke_kn_from_E, clab_penalty_coefficients and clab_penalty_contact_force are inline in
 * force_law.h (called once a contact a step) */

clab_vec3 clab_penalty_rolling_torque(double mu_roll, double Fn, clab_vec3 omega_rel, clab_vec3 n, double inv_I_a,
                                      double inv_I_b, double h)
{
    clab_vec3 wr = clab_v3_madd(omega_rel, -clab_v3_dot(omega_rel, n), n);
    double wn = clab_v3_norm(wr);
    if (wn == 0.0 || Fn <= 0.0 || mu_roll <= 0.0) return clab_v3(0.0, 0.0, 0.0);
    double M = mu_roll * Fn;
    /* no reversal within a step: h M (1/I_a + 1/I_b) <= |w_r| */
    double inv = inv_I_a + inv_I_b;
    if (inv > 0.0 && h * M * inv > wn) M = wn / (h * inv);
    return clab_v3_scale(wr, -M / wn);
}

double clab_penalty_contact_time(const clab_penalty_law *law, const clab_penalty_pair *p, double m_eff, double R_eff,
                                 double v)
{
    if (law->model == CLAB_PENALTY_HOOKE) {
        clab_penalty_coef k = clab_penalty_coefficients(law, p, 1.0, m_eff, R_eff);
        double w0 = k.kn / m_eff, g = k.cn / (2.0 * m_eff);
        double wd2 = w0 - g * g;
        return M_PI / sqrt(wd2 > 0.25 * w0 ? wd2 : 0.25 * w0); /* heavy damping: bounded by 2 pi/omega_0 */
    }
    /* F = K delta^(3/2); 1/2 m v^2 = 2/5 K delta_max^(5/2);
     * t_c = 2 delta_max/v int_0^1 (1 - x^(5/2))^(-1/2) dx = 2 sqrt(pi) Gamma(7/5)/Gamma(9/10) delta_max/v */
    double K = p->kn > 0.0 ? p->kn : 4.0 / 3.0 * p->Estar * sqrt(R_eff);
    double dmax = pow(1.25 * m_eff * v * v / K, 0.4);
    return 2.0 * sqrt(M_PI) * tgamma(1.4) / tgamma(0.9) * dmax / v;
}
