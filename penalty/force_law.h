/* force_law.h: the penalty (DEM) contact force of seed 002 ("The Penalty Method in Chrono,
 * Nuts and Bolts"), for one contact:
 *
 *   F_n = f(delta_n/D_eff) (k_n delta_n n - gamma_n m_eff v_n)
 *   F_t = f(delta_n/D_eff) (-k_t delta_t - gamma_t m_eff v_t)
 *   if |F_t| > mu |F_n|, scale delta_t so that |F_t| = mu |F_n|
 *
 * with f = 1 (Hooke) or f = sqrt(delta_n/D_eff) (Hertz). Every model is reduced here to the
 * current stiffness and damping coefficients of the contact (Chrono SMC's form),
 *
 *   F_n = k_n delta_n - c_n (v . n),    F_t = -k_t delta_t - c_t v_t,
 *
 * so k_n, k_t [N/m] and c_n, c_t [N s/m] carry the f factor, the material mapping and m_eff.
 * doc/penalty.md lists every formula with its source. */
#ifndef CLAB_PENALTY_FORCE_LAW_H
#define CLAB_PENALTY_FORCE_LAW_H

#include <float.h>
#include <math.h>

#include "clab_material.h"
#include "clab_math.h"
#include "clab_simd.h"

typedef enum { CLAB_PENALTY_HOOKE = 0, CLAB_PENALTY_HERTZ = 1 } clab_penalty_model;

/* Coulomb cap conventions (codes differ; doc/penalty.md says why cone is the default and what
 * each gives in gross sliding):
 * CONE   |spring + dashpot| <= mu max(F_n, 0); sliding, the history is set so that the spring
 *        alone carries the sliding force, delta_t = -F_t/k_t (the spring stays on the cone);
 * TOTAL  |spring + dashpot| <= mu max(F_n, 0); sliding, the history is set so that spring and
 *        dashpot together give it, delta_t = -(F_t + c_t v_t)/k_t (Luding; LAMMPS while F_n >= 0):
 *        when c_t |v_t| > mu F_n the spring then pushes against the slip, and as k_t grows
 *        faster than c_t with the overlap (Hertz-Mindlin) the friction can turn round;
 * SPRING k_t |delta_t| <= mu max(F_n, 0); the dashpot is added only while sticking (LIGGGHTS);
 * LAMMPS |spring + dashpot| <= mu |F_n|: TOTAL, but a contact whose dashpot pulls (F_n < 0,
 *        clamp off) keeps friction, as LAMMPS gran/hooke/history without limit_damping. */
typedef enum {
    CLAB_PENALTY_CAP_TOTAL = 0,
    CLAB_PENALTY_CAP_SPRING = 1,
    CLAB_PENALTY_CAP_LAMMPS = 2,
    CLAB_PENALTY_CAP_CONE = 3
} clab_penalty_cap;

typedef enum { CLAB_PENALTY_ROLL_OFF = 0, CLAB_PENALTY_ROLL_CDT = 1 } clab_penalty_rolling;

/* The model choices of one run (the backend's options). */
typedef struct clab_penalty_law {
    clab_penalty_model model;
    clab_penalty_cap cap;
    clab_penalty_rolling rolling;
    int clamp;   /* 1: F_n = max(F_n, 0), no pull from the dashpot at separation */
    double vchar; /* characteristic impact speed [m/s]: Hooke stiffness from E*, Hertz time */
    int history_off; /* 1: no tangential history, F_t = -c_t v_t capped at the cap's bound
                      * (LAMMPS gran/hooke, LIGGGHTS tangential_model no_history) */
} clab_penalty_law;

/* Coefficients of one material pair, fixed for the run. Explicit values win over the
 * material mapping; a negative value means "derive". */
typedef struct clab_penalty_pair {
    double mu;      /* Coulomb friction coefficient [-] */
    double mu_roll; /* rolling resistance length [m] */
    double cor;     /* coefficient of restitution e [-] */
    double beta;    /* ln e / sqrt(ln^2 e + pi^2), in (-1, 0] */
    double Estar;   /* effective Young's modulus E* [Pa] */
    double Gstar;   /* effective shear modulus G* [Pa] */
    double kn, kt;  /* explicit stiffness: Hooke [N/m], Hertz [N/m^1.5]; < 0 = from E*, G* */
    double gn, gt;  /* explicit damping rates gamma [1/s]; < 0 = from cor */
    double st_sn;   /* Hertz, both dashpots from cor: sqrt(S_t/S_n) when the pair fixes it (k_n and
                     * k_t both from E*, G*: sqrt(4 G* / E*); both explicit: sqrt(kt/(3/2 kn))),
                     * so c_t = c_n sqrt(S_t/S_n) takes no square root of its own; else -1 */
} clab_penalty_pair;

/* Current coefficients of one contact: F_n = kn delta_n - cn v_n, F_t = -kt delta_t - ct v_t. */
typedef struct clab_penalty_coef {
    double kn, kt; /* [N/m] */
    double cn, ct; /* [N s/m] */
} clab_penalty_coef;

/* beta = ln e / sqrt(ln^2 e + pi^2): the damping ratio of a linear oscillator with restitution
 * e is zeta = -beta, from e = exp(-pi zeta / sqrt(1 - zeta^2)). */
double clab_penalty_beta(double e);

/* The pair coefficients from the mixed material (clab_material_mix) and the run's explicit
 * overrides kn, kt, gn, gt (< 0 where the material decides). */
clab_penalty_pair clab_penalty_pair_make(const clab_material_pair *mp, double kn, double kt, double gn, double gt);

/* Effective mass m_eff = m_a m_b/(m_a + m_b); a fixed body counts as infinitely heavy. */
static inline double clab_penalty_meff(double ma, int fixa, double mb, int fixb)
{
    if (fixa) return mb;
    if (fixb) return ma;
    return ma * mb / (ma + mb);
}

/* Effective radius R* = R_a R_b/(R_a + R_b) with the radii of clab_penalty_contact_radius
 * (INFINITY for flat shapes: 1/R* = 1/R_a + 1/R_b, so R* is the other radius), in one
 * division (the contact loop's: 1/(1/R_a + 1/R_b) took three) and no branch. */
static inline double clab_penalty_reff(double ra, double rb)
{
    const double lo = ra < rb ? ra : rb, hi = ra < rb ? rb : ra;
    return clab_gt_select(hi, DBL_MAX, lo, ra * rb / (ra + rb)); /* (inf/inf = NaN not chosen) */
}

/* The coefficients of one contact at overlap delta_n > 0 (see doc/penalty.md for the table):
 *   hooke: k_n explicit, or 16/15 sqrt(R*) E* (15 m_eff vchar^2/(16 sqrt(R*) E*))^(1/5);
 *          k_t explicit, or 2/7 k_n; c = gamma m_eff, or c_n = -2 beta sqrt(k_n m_eff),
 *          c_t = -2 beta sqrt(k_t m_eff)
 *   hertz: k_n = kn sqrt(delta_n), or 4/3 E* sqrt(R* delta_n); k_t = kt sqrt(delta_n), or
 *          8 G* sqrt(R* delta_n); c = gamma m_eff sqrt(delta_n/R*) (seed 002, D_eff = R*), or
 *          c_n = -2 sqrt(5/6) beta sqrt(3/2 k_n m_eff), c_t = -2 sqrt(5/6) beta sqrt(k_t m_eff) */
/* Hooke stiffness from E*: the linear spring whose maximum overlap at impact speed vchar equals
 * Hertz's, k_n = 16/15 sqrt(R*) E* (15 m_eff vchar^2 / (16 sqrt(R*) E*))^(1/5)
 * (LIGGGHTS normal_model hooke; Chrono ChContactSMC, Hooke with material properties). */
static inline double clab_penalty_hooke_kn_from_E(double Estar, double m_eff, double R_eff, double vchar)
{
    double K = 16.0 / 15.0 * sqrt(R_eff) * Estar;
    return K * pow(m_eff * vchar * vchar / K, 0.2);
}

static CLAB_ALWAYS_INLINE clab_penalty_coef clab_penalty_coefficients(const clab_penalty_law *law,
                                                                      const clab_penalty_pair *p, double delta_n,
                                                                      double m_eff, double R_eff)
{
    clab_penalty_coef k;
    if (law->model == CLAB_PENALTY_HOOKE) {
        /* f = 1: constant spring and dashpot; c = gamma m_eff, or the linear oscillator's
         * c = 2 zeta sqrt(k m_eff) with zeta = -beta, so that e = exp(-pi zeta/sqrt(1-zeta^2)) */
        k.kn = p->kn > 0.0 ? p->kn : clab_penalty_hooke_kn_from_E(p->Estar, m_eff, R_eff, law->vchar);
        k.kt = p->kt > 0.0 ? p->kt : 2.0 / 7.0 * k.kn; /* Silbert et al. 2001; LAMMPS default */
        k.cn = p->gn >= 0.0 ? p->gn * m_eff : -2.0 * p->beta * sqrt(k.kn * m_eff);
        k.ct = p->gt >= 0.0 ? p->gt * m_eff : -2.0 * p->beta * sqrt(k.kt * m_eff);
    } else {
        /* Hertz-Mindlin: k_n = 4/3 E* sqrt(R* delta_n) (Hertz, Johnson 1985 Sect. 4.2, as a
         * secant stiffness), k_t = 8 G* sqrt(R* delta_n) = S_t (Mindlin 1949, no-slip tangent stiffness);
         * damping from e with S_n = 2 E* sqrt(R* delta_n) = 3/2 k_n (Tsuji et al. 1992 as in
         * LIGGGHTS hertz/history and Chrono SMC): c = -2 sqrt(5/6) beta sqrt(S m_eff), and
         * c_t = c_n sqrt(S_t/S_n) where the pair fixes that ratio (st_sn). Square roots and
         * divisions are the long-latency steps of a contact: one sqrt(R* delta_n) for both
         * stiffnesses, one sqrt(S_n m_eff) for both dashpots */
        const double srd = sqrt(R_eff * delta_n);
        k.kn = p->kn > 0.0 ? p->kn * sqrt(delta_n) : 4.0 / 3.0 * p->Estar * srd;
        k.kt = p->kt > 0.0 ? p->kt * sqrt(delta_n) : 8.0 * p->Gstar * srd;
        const double c = -2.0 * sqrt(5.0 / 6.0) * p->beta;
        const double cn = c * sqrt(1.5 * k.kn * m_eff);
        /* explicit rates: seed 002's f = sqrt(delta_n/D_eff) on the dashpot too, D_eff = R* */
        k.cn = p->gn >= 0.0 ? p->gn * m_eff * sqrt(delta_n / R_eff) : cn;
        k.ct = p->gt >= 0.0   ? p->gt * m_eff * sqrt(delta_n / R_eff)
               : p->st_sn >= 0.0 ? cn * p->st_sn
                                 : c * sqrt(k.kt * m_eff);
    }
    return k;
}

/* Rotate the history delta_t onto the tangent plane of the current normal n, keeping its
 * length (the contact frame turns between steps; a delta_t along n becomes zero). */
static inline clab_vec3 clab_penalty_rotate_history(clab_vec3 delta_t, clab_vec3 n)
{
    double len2 = clab_v3_norm2(delta_t);
    if (len2 == 0.0) return delta_t;
    clab_vec3 p = clab_v3_madd(delta_t, -clab_v3_dot(delta_t, n), n);
    double p2 = clab_v3_norm2(p);
    return p2 > 0.0 ? clab_v3_scale(p, sqrt(len2 / p2)) : clab_v3(0.0, 0.0, 0.0);
}

/* The same turn as LAMMPS gran/hooke/history does it: the plain projection onto the tangent
 * plane, delta_t - (delta_t . n) n, whose length shrinks by the cosine of the tilt. */
static inline clab_vec3 clab_penalty_project_history(clab_vec3 delta_t, clab_vec3 n)
{
    return clab_v3_madd(delta_t, -clab_v3_dot(delta_t, n), n);
}

/* (clab_penalty_coefficients and clab_penalty_contact_force are always inlined: in the
 * penalty backend's contact loop GCC -O2 had left them out of line, the coefficients passed
 * through memory, 94 instructions a contact of the chute more, callgrind.) */

/* The force law of seed 002 for one contact: normal force F_n [N] (scalar, along n, on body
 * b) and tangential force F_t [N] (vector in the tangent plane, on body b) from the overlap
 * delta_n, the normal relative speed vn = (v_b - v_a) . n, the tangential relative velocity
 * vt and the history *delta_t (already advanced to this step). Caps *delta_t by Coulomb
 * with the law's convention (bound mu max(F_n, 0), or mu |F_n| for CAP_LAMMPS); F_n is
 * clamped at 0 when law->clamp. With law->history_off there is no spring: F_t = -c_t v_t
 * scaled onto the cone when longer (every cap convention: there is no spring to cap alone),
 * and *delta_t = 0. */
static CLAB_ALWAYS_INLINE void clab_penalty_contact_force(const clab_penalty_law *law, clab_penalty_coef k,
                                                          double mu, double delta_n, double vn, clab_vec3 vt,
                                                          clab_vec3 *delta_t, double *Fn, clab_vec3 *Ft)
{
    /* normal: spring and dashpot along n; the dashpot may pull at separation unless clamped */
    double fn = k.kn * delta_n - k.cn * vn;
    if (law->clamp && fn < 0.0) fn = 0.0;
    *Fn = fn;

    /* tangential: spring on the history and dashpot on the slip velocity */
    double Fmax = mu * (fn > 0.0 ? fn : law->cap == CLAB_PENALTY_CAP_LAMMPS ? -fn : 0.0);
    clab_vec3 damp = clab_v3_scale(vt, -k.ct);
    if (law->history_off) {
        /* no history: F_t = -c_t v_t, times min(Fmax/|F_t|, 1) (0/0 and x/0 give 1: F_t) */
        const double q = Fmax / clab_v3_norm(damp);
        *Ft = clab_v3_scale(damp, clab_lt_min(q, 1.0));
        *delta_t = clab_v3(0.0, 0.0, 0.0);
        return;
    }
    clab_vec3 spring = clab_v3_scale(*delta_t, -k.kt);
    if (law->cap != CLAB_PENALTY_CAP_SPRING) {
        /* |F_t| > Fmax: scale F_t to the cone and rewrite delta_t so that the spring alone is
         * that force, -k_t delta_t = F_t (cone), or so that spring and dashpot together are,
         * -k_t delta_t - c_t v_t = F_t (total, lammps: LAMMPS pair gran/hooke/history) */
        clab_vec3 ft = clab_v3_add(spring, damp);
        double ftn = clab_v3_norm(ft);
        /* sliding (ftn > Fmax) or sticking is a coin toss in a granular flow (55 % of the
         * chute's contacts slide), so both sides are formed and chosen without a branch: ft
         * times min(Fmax/ftn, 1) (Fmax/ftn < 1 exactly when ftn > Fmax; 0/0, x/0 and NaN give
         * 1: ft itself), delta_t rewritten or kept (one compare for its three components);
         * the same bits as the branch */
        const double q = Fmax / ftn;
        ft = clab_v3_scale(ft, clab_lt_min(q, 1.0));
        const clab_vec3 held = law->cap == CLAB_PENALTY_CAP_CONE ? ft : clab_v3_add(ft, clab_v3_scale(vt, k.ct));
        const clab_vec3 dslide = k.kt > 0.0 ? clab_v3_scale(held, -1.0 / k.kt) : clab_v3(0.0, 0.0, 0.0);
        *delta_t = clab_v3_gt_select(ftn, Fmax, dslide, *delta_t);
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

/* Rolling resistance torque on body b (body a gets its negative), constant directional
 * torque model: M = -mu_roll F_n w_r/|w_r| with w_r the rolling part (tangential component) of
 * omega_b - omega_a, limited so that it cannot reverse w_r within one step h, given the
 * inverse rotational inertias inv_I_a, inv_I_b about w_r [1/(kg m^2)]. */
clab_vec3 clab_penalty_rolling_torque(double mu_roll, double Fn, clab_vec3 omega_rel, clab_vec3 n, double inv_I_a,
                                      double inv_I_b, double h);

/* Duration of a collision of this pair at normal impact speed v [s]: the damped half period
 * pi/sqrt(k_n/m_eff - (c_n/(2 m_eff))^2) (Hooke), or the Hertz contact time
 * 2.9432 delta_max/v, delta_max = (15 m_eff v^2/(16 E* sqrt(R*)))^(2/5) (Johnson 1985, Sect. 11.4). */
double clab_penalty_contact_time(const clab_penalty_law *law, const clab_penalty_pair *p, double m_eff, double R_eff,
                                 double v);

#endif
