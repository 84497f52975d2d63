/* options.c: the penalty backend's definition (options.h): defaults, reading, metadata, help */
#include "options.h"

#include <float.h>
#include <stdarg.h>
#include <stdio.h>

static const char *const model_names[] = {"hooke", "hertz", NULL};
static const char *const integrator_names[] = {"euler", "verlet", NULL};
static const char *const cap_names[] = {"total", "spring", "lammps", "cone", NULL};
static const char *const clamp_names[] = {"off", "on", NULL};
static const char *const rolling_names[] = {"off", "cdt", NULL};
static const char *const lever_names[] = {"contact", "surface", NULL};
static const char *const history_start_names[] = {"slip", "zero", NULL};
static const char *const history_turn_names[] = {"keep", "project", NULL};
static const char *const orientation_names[] = {"integrate", "off", NULL};
static const char *const fast_names[] = {"off", "on", NULL};
static const char *const history_names[] = {"on", "off", NULL};

void clab_penalty_def_init(clab_penalty_def *d)
{
    *d = (clab_penalty_def){0};
    d->law.model = CLAB_PENALTY_HERTZ;
    d->law.cap = CLAB_PENALTY_CAP_CONE;
    d->law.rolling = CLAB_PENALTY_ROLL_OFF;
    d->law.clamp = 0;
    d->law.vchar = 1.0;
    d->integrator = CLAB_PENALTY_EULER;
    d->fast = 1;
    d->kn = d->kt = d->gn = d->gt = -1.0;
}

/* an optional number option that must be > 0 (positive) or >= 0; *out keeps its value when absent */
static int number_option(clab_options *opt, const char *key, int positive, const char *what, const char *unit,
                         double *out, clab_error *err)
{
    if (!clab_options_get(opt, key)) return CLAB_OK;
    double v = 0.0;
    int rc = clab_options_double(opt, key, -DBL_MAX, DBL_MAX, &v, err);
    if (rc) return rc;
    if (positive ? !(v > 0.0) : !(v >= 0.0)) {
        clab_options_refuse(opt, key); /* so every other problem is reported too (clab_sim_create) */
        return clab_error_set(err, CLAB_EINVAL, "%s: %s = %g %s: out of range; allowed: the %s must be %s",
                              clab_options_where(opt, key), key, v, unit, what, positive ? "> 0" : ">= 0");
    }
    *out = v;
    return CLAB_OK;
}

int clab_penalty_def_read(clab_options *opt, clab_penalty_def *d, clab_error *err)
{
    int model = d->law.model, integ = d->integrator, cap = d->law.cap, clamp = d->law.clamp, roll = d->law.rolling;
    int rc = clab_options_choice(opt, "model", model_names, &model, err);
    if (!rc) rc = clab_options_choice(opt, "integrator", integrator_names, &integ, err);
    if (!rc) rc = clab_options_choice(opt, "cap", cap_names, &cap, err);
    if (!rc) rc = clab_options_choice(opt, "clamp", clamp_names, &clamp, err);
    if (!rc) rc = clab_options_choice(opt, "rolling", rolling_names, &roll, err);
    if (!rc) rc = clab_options_choice(opt, "lever", lever_names, &d->lever_surface, err);
    if (!rc) rc = clab_options_choice(opt, "history_start", history_start_names, &d->history_zero, err);
    if (!rc) rc = clab_options_choice(opt, "history_turn", history_turn_names, &d->history_project, err);
    if (!rc) rc = clab_options_choice(opt, "sphere_orientation", orientation_names, &d->orientation_off, err);
    if (!rc) rc = clab_options_choice(opt, "fast", fast_names, &d->fast, err);
    if (!rc) rc = clab_options_choice(opt, "history", history_names, &d->law.history_off, err);
    const char *k_unit = model == CLAB_PENALTY_HOOKE ? "N/m" : "N/m^1.5";
    if (!rc) rc = number_option(opt, "kn", 1, "normal stiffness", k_unit, &d->kn, err);
    if (!rc) rc = number_option(opt, "kt", 1, "tangential stiffness", k_unit, &d->kt, err);
    if (!rc) rc = number_option(opt, "gn", 0, "normal damping rate gamma_n", "1/s", &d->gn, err);
    if (!rc) rc = number_option(opt, "gt", 0, "tangential damping rate gamma_t", "1/s", &d->gt, err);
    if (!rc) rc = number_option(opt, "vchar", 1, "characteristic impact speed", "m/s", &d->law.vchar, err);
    d->law.model = (clab_penalty_model)model;
    d->integrator = (clab_penalty_integrator)integ;
    d->law.cap = (clab_penalty_cap)cap;
    d->law.clamp = clamp;
    d->law.rolling = (clab_penalty_rolling)roll;
    return rc;
}

void clab_penalty_put(clab_options *m, const char *key, const char *fmt, ...)
{
    char v[CLAB_OPT_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    clab_options_set(m, key, v, NULL);
}

static void put_override(clab_options *m, const char *key, double v)
{
    if (v >= 0.0) clab_penalty_put(m, key, "%.17g", v);
    else clab_penalty_put(m, key, "material");
}

void clab_penalty_def_meta(const clab_penalty_def *d, clab_options *m)
{
    const int hooke = d->law.model == CLAB_PENALTY_HOOKE;
    /* the options, as they can be given back */
    clab_penalty_put(m, "model", "%s", model_names[d->law.model]);
    clab_penalty_put(m, "integrator", "%s", integrator_names[d->integrator]);
    clab_penalty_put(m, "cap", "%s", cap_names[d->law.cap]);
    clab_penalty_put(m, "clamp", "%s", clamp_names[d->law.clamp]);
    clab_penalty_put(m, "rolling", "%s", rolling_names[d->law.rolling]);
    clab_penalty_put(m, "lever", "%s", lever_names[d->lever_surface]);
    clab_penalty_put(m, "history_start", "%s", history_start_names[d->history_zero]);
    clab_penalty_put(m, "history_turn", "%s", history_turn_names[d->history_project]);
    if (d->law.history_off) /* only when off: the metadata of other runs stay as they were */
        clab_penalty_put(m, "history", "%s", history_names[d->law.history_off]);
    if (d->orientation_off) /* only when on: the metadata of other runs stay as they were */
        clab_penalty_put(m, "sphere_orientation", "%s", orientation_names[d->orientation_off]);
    if (!d->fast) /* only when off: the two paths give the same bits */
        clab_penalty_put(m, "fast", "%s", fast_names[d->fast]);
    put_override(m, "kn", d->kn);
    put_override(m, "kt", d->kt);
    put_override(m, "gn", d->gn);
    put_override(m, "gt", d->gt);
    clab_penalty_put(m, "vchar", "%.17g", d->law.vchar);
    /* the laws in words, so a CSV says which model ran */
    clab_penalty_put(m, "penalty_normal_force", "%s",
        hooke ? "F_n = k_n delta_n - c_n v_n; k_n = kn or 16/15 sqrt(R*) E* (15 m* vchar^2/(16 sqrt(R*) E*))^(1/5)"
              : "F_n = k_n delta_n - c_n v_n; k_n = kn sqrt(delta_n) or 4/3 E* sqrt(R* delta_n) (Hertz)");
    clab_penalty_put(m, "penalty_tangential_force", "%s",
        hooke ? "F_t = -k_t delta_t - c_t v_t; k_t = kt or 2/7 k_n"
              : "F_t = -k_t delta_t - c_t v_t; k_t = kt sqrt(delta_n) or 8 G* sqrt(R* delta_n) (Mindlin)");
    clab_penalty_put(m, "penalty_damping", "%s",
        hooke ? "c = gamma m* or c_n = -2 beta sqrt(k_n m*), c_t = -2 beta sqrt(k_t m*); beta = ln e/sqrt(ln^2 e + pi^2)"
              : "c = gamma m* sqrt(delta_n/R*) or c = -2 sqrt(5/6) beta sqrt(S m*), S_n = 3/2 k_n, S_t = k_t (Tsuji)");
    clab_penalty_put(m, "penalty_cap", "%s",
        d->law.history_off                     ? "|-c_t v_t| <= mu max(F_n, 0) (mu |F_n| with cap=lammps), no history"
        : d->law.cap == CLAB_PENALTY_CAP_CONE  ? "|-k_t delta_t - c_t v_t| <= mu max(F_n, 0); sliding: -k_t delta_t = F_t"
        : d->law.cap == CLAB_PENALTY_CAP_TOTAL ? "|-k_t delta_t - c_t v_t| <= mu max(F_n, 0); sliding: -k_t delta_t - c_t v_t = F_t"
        : d->law.cap == CLAB_PENALTY_CAP_LAMMPS ? "|-k_t delta_t - c_t v_t| <= mu |F_n|, delta_t rescaled (LAMMPS)"
                                                : "k_t |delta_t| <= mu max(F_n, 0), dashpot only while sticking (LIGGGHTS)");
    clab_penalty_put(m, "penalty_history", "%s",
                     d->history_project
                         ? "delta_t += h v_t per contact key; projected on the tangent plane (LAMMPS)"
                         : "delta_t += h v_t per contact key; projected on the tangent plane, length kept");
    clab_penalty_put(m, "penalty_radius", "%s",
                     "R* = R_a R_b/(R_a + R_b); sphere R, plane infinite, box smallest half extent");
}

const char clab_penalty_options_help[] =
    "  model=hertz|hooke       force law (default hertz): Hertz-Mindlin from E, nu, cor, or linear\n"
    "  integrator=euler|verlet semi-implicit Euler (default) or velocity Verlet (LAMMPS nve/sphere;\n"
    "                          velocities between steps are the half-step ones)\n"
    "  cap=cone|total|spring|lammps  Coulomb cap: cone (default): spring + dashpot capped at\n"
    "                          mu max(F_n, 0), sliding leaves the spring alone on the cone\n"
    "                          (delta_t = -F_t/k_t; |F_t| = mu F_n in gross sliding); total: the\n"
    "                          same cap, sliding sets spring + dashpot to F_t (Luding; falls below\n"
    "                          Coulomb in fast sliding, doc/penalty.md); spring: the spring alone\n"
    "                          capped, dashpot only while sticking (LIGGGHTS); lammps: as total at\n"
    "                          mu |F_n| (LAMMPS gran/*: friction while the dashpot pulls)\n"
    "  history=on|off          off: no tangential history, F_t = -c_t v_t capped by Coulomb\n"
    "                          (LAMMPS gran/hooke, LIGGGHTS no_history); default on\n"
    "  clamp=off|on            on: F_n >= 0 (no dashpot pull at separation; restitution then\n"
    "                          exceeds cor); default off, so cor is met exactly by Hooke\n"
    "  lever=contact|surface   lever arms of torques and contact-point velocities: to the contact\n"
    "                          point P midway through the overlap (default) or to each body's own\n"
    "                          surface point P -+ Phi/2 n (LAMMPS: the radii)\n"
    "  history_start=slip|zero contacts present at the first step start with delta_t = h v_t like\n"
    "                          any new contact (default) or 0 (LAMMPS: the initial state has no\n"
    "                          history, its setup force does not advance it)\n"
    "  history_turn=keep|project  delta_t turned onto the new tangent plane with its length kept\n"
    "                          (default) or plainly projected, shrinking by the cosine of the tilt\n"
    "                          (LAMMPS gran/hooke/history)\n"
    "  sphere_orientation=integrate|off  off: spheres of isotropic inertia keep their Euler\n"
    "                          parameters (their motion does not depend on them; LAMMPS's\n"
    "                          atom_style sphere has none); default integrate\n"
    "  rolling=off|cdt         rolling resistance: constant directional torque mu_roll F_n (material\n"
    "                          mu_roll [m]); default off\n"
    "  kn=K, kt=K              stiffness for every pair, > 0: hooke [N/m], hertz [N/m^1.5]\n"
    "                          (default: the materials' kn, kt, else from E*, G*)\n"
    "  gn=G, gt=G              damping rates gamma [1/s], >= 0, force gamma m_eff v (hertz: times\n"
    "                          sqrt(delta_n/R*)); default: the materials' gn, gt, else from cor\n"
    "  vchar=V                 characteristic impact speed [m/s] (default 1): hooke stiffness from\n"
    "                          E* and the stable-step estimate\n"
    "  fast=on|off             on (default): the fast path (bodies gathered in the collider's pass,\n"
    "                          forces scattered as they are made, two contacts at a time in SIMD\n"
    "                          lanes, OpenMP threads); off: the plain single-threaded step. The\n"
    "                          same bits either way\n";
