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
    return p;
}

/* Hooke stiffness from E*: the linear spring whose maximum overlap at impact speed vchar equals
 * Hertz's, k_n = 16/15 sqrt(R*) E* (15 m_eff vchar^2 / (16 sqrt(R*) E*))^(1/5)
 * (LIGGGHTS normal_model hooke; Chrono ChContactSMC, Hooke with material properties). */
static double hooke_kn_from_E(double Estar, double m_eff, double R_eff, double vchar)
{
    double K = 16.0 / 15.0 * sqrt(R_eff) * Estar;
    return K * pow(m_eff * vchar * vchar / K, 0.2);
}

clab_penalty_coef clab_penalty_coefficients(const clab_penalty_law *law, const clab_penalty_pair *p, double delta_n,
                                            double m_eff, double R_eff)
{
    clab_penalty_coef k;
    if (law->model == CLAB_PENALTY_HOOKE) {
        /* f = 1: constant spring and dashpot; c = gamma m_eff, or the linear oscillator's
         * c = 2 zeta sqrt(k m_eff) with zeta = -beta, so that e = exp(-pi zeta/sqrt(1-zeta^2)) */
        k.kn = p->kn > 0.0 ? p->kn : hooke_kn_from_E(p->Estar, m_eff, R_eff, law->vchar);
        k.kt = p->kt > 0.0 ? p->kt : 2.0 / 7.0 * k.kn; /* Silbert et al. 2001; LAMMPS default */
        k.cn = p->gn >= 0.0 ? p->gn * m_eff : -2.0 * p->beta * sqrt(k.kn * m_eff);
        k.ct = p->gt >= 0.0 ? p->gt * m_eff : -2.0 * p->beta * sqrt(k.kt * m_eff);
    } else {
        /* Hertz-Mindlin: k_n = 4/3 E* sqrt(R* delta_n) (Hertz, Johnson 1985 Sect. 4.2, as a
         * secant stiffness), k_t = 8 G* sqrt(R* delta_n) = S_t (Mindlin 1949, no-slip tangent stiffness);
         * damping from e with S_n = 2 E* sqrt(R* delta_n) = 3/2 k_n (Tsuji et al. 1992 as in
         * LIGGGHTS hertz/history and Chrono SMC): c = -2 sqrt(5/6) beta sqrt(S m_eff) */
        double sd = sqrt(delta_n);
        k.kn = p->kn > 0.0 ? p->kn * sd : 4.0 / 3.0 * p->Estar * sqrt(R_eff) * sd;
        k.kt = p->kt > 0.0 ? p->kt * sd : 8.0 * p->Gstar * sqrt(R_eff) * sd;
        /* explicit rates: seed 002's f = sqrt(delta_n/D_eff) on the dashpot too, D_eff = R* */
        double f = sqrt(delta_n / R_eff);
        k.cn = p->gn >= 0.0 ? p->gn * m_eff * f : -2.0 * sqrt(5.0 / 6.0) * p->beta * sqrt(1.5 * k.kn * m_eff);
        k.ct = p->gt >= 0.0 ? p->gt * m_eff * f : -2.0 * sqrt(5.0 / 6.0) * p->beta * sqrt(k.kt * m_eff);
    }
    return k;
}

void clab_penalty_contact_force(const clab_penalty_law *law, clab_penalty_coef k, double mu, double delta_n,
                                double vn, clab_vec3 vt, clab_vec3 *delta_t, double *Fn, clab_vec3 *Ft)
{
    /* normal: spring and dashpot along n; the dashpot may pull at separation unless clamped */
    double fn = k.kn * delta_n - k.cn * vn;
    if (law->clamp && fn < 0.0) fn = 0.0;
    *Fn = fn;

    /* tangential: spring on the history and dashpot on the slip velocity */
    double Fmax = mu * (fn > 0.0 ? fn : law->cap == CLAB_PENALTY_CAP_LAMMPS ? -fn : 0.0);
    clab_vec3 spring = clab_v3_scale(*delta_t, -k.kt);
    clab_vec3 damp = clab_v3_scale(vt, -k.ct);
    if (law->cap != CLAB_PENALTY_CAP_SPRING) {
        /* |F_t| > Fmax: scale F_t to the cone and rewrite delta_t so that -k_t delta_t - c_t v_t
         * is that force (LAMMPS pair gran/hooke/history) */
        clab_vec3 ft = clab_v3_add(spring, damp);
        double ftn = clab_v3_norm(ft);
        if (ftn > Fmax) {
            ft = ftn > 0.0 ? clab_v3_scale(ft, Fmax / ftn) : ft;
            *delta_t = k.kt > 0.0 ? clab_v3_scale(clab_v3_add(ft, clab_v3_scale(vt, k.ct)), -1.0 / k.kt)
                                  : clab_v3(0.0, 0.0, 0.0);
        }
        *Ft = ft;
    } else {
        /* k_t |delta_t| > mu F_n: scale delta_t to the cone, sliding force = spring alone;
         * sticking: spring plus dashpot (LIGGGHTS tangential_model history) */
        double fs = clab_v3_norm(spring);
        if (fs > Fmax) {
            double s = fs > 0.0 ? Fmax / fs : 0.0;
            *delta_t = clab_v3_scale(*delta_t, s);
            *Ft = clab_v3_scale(spring, s);
        } else {
            *Ft = clab_v3_add(spring, damp);
        }
    }
}

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
