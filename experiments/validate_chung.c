/* validate_chung.c: the eight benchmark tests of Chung and Ooi, "Benchmark tests for verifying
 * discrete element modelling codes at particle impact level", Granular Matter 13 (2011)
 * 643-656, under one method, each against its closed form (doc/validation.md lists every
 * number and where it comes from):
 *   1 elastic normal impact of two identical spheres (glass, limestone)   Hertz: t_c, delta_max, F_max
 *   2 elastic normal impact of a sphere on a rigid plane (Al, Mg alloy)   Hertz
 *   3 normal impact, restitution 0.2..1 (Al oxide, cast iron)             e
 *   4 oblique impact at constant speed, 5..85 deg (Al oxide)              rigid body: e_t, rebound angle
 *   5 oblique impact at constant normal speed, varying tangential speed   rigid body
 *   6 a spinning sphere on a rigid plane, constant normal speed           rigid body: v_t', omega'
 *   7 two identical spinning spheres                                     rigid body
 *   8 a small spinning sphere on a large heavy one                        rigid body
 * Rigid methods (the CCP kind) have no overlap or contact time (rows not applicable) and no
 * restitution (e = 0 at the velocity level): their rows are the CCP's one-step impulse
 * (val_rigid_impact with ccp). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

typedef struct val_mat {
    const char *name;
    double E, nu, rho; /* [Pa], [-], [kg/m^3] */
} val_mat;

/* Chung and Ooi's tables (as the public decks of Yade and PySPH transcribe them) */
static const val_mat glass = {"glass", 4.8e10, 0.20, 2800.0};
static const val_mat limestone = {"limestone", 2.0e10, 0.25, 2500.0};
static const val_mat al_alloy = {"Al-alloy", 7.0e10, 0.33, 2700.0};
static const val_mat mg_alloy = {"Mg-alloy", 4.0e10, 0.35, 1800.0};
static const val_mat al_oxide = {"Al-oxide", 3.8e11, 0.23, 4000.0};
static const val_mat cast_iron = {"cast-iron", 1.0e11, 0.25, 7000.0};
static const val_mat steel = {"steel", 2.08e11, 0.30, 7850.0};
static const val_mat polyethylene = {"polyethylene", 1.0e9, 0.40, 1400.0};
static const val_mat nylon = {"nylon", 2.5e9, 0.40, 1000.0};
static const val_mat copper = {"copper", 1.2e11, 0.35, 8900.0};

#define WALL_STIFFER 1000.0 /* the rigid plane: the sphere's material 1000 times stiffer (the decks') */

static clab_material material(const val_mat *v, double E_scale, double cor, double mu)
{
    clab_material m = clab_default_material();
    m.E = v->E * E_scale;
    m.nu = v->nu;
    m.cor = cor;
    m.mu = mu;
    return m;
}

/* how a method is compared */
typedef enum { CMP_HERTZ, CMP_FORCE, CMP_RIGID, CMP_NONE } cmp_kind;

typedef struct chung_ctx {
    const val_opts *o;
    const xp_method *m;
    val_table *t;
    clab_csv *curves;
    cmp_kind kind;
    int relaxed; /* rigid: the relaxed cone of the Tasora-Anitescu CCP (else exact Coulomb) */
    char why_none[120];
} chung_ctx;

/* the step of a compliant impact: the Hertz contact time over steps_per_contact; the rigid
 * methods' own step */
static double step_for(const chung_ctx *x, double Estar, double Rstar, double mstar, double vn)
{
    if (x->kind == CMP_RIGID) return x->o->hdvi;
    const clab_analytic_impact a = clab_analytic_hertz_impact(clab_analytic_hertz_K(Estar, Rstar), mstar, vn);
    return a.contact_time / x->o->steps_per_contact;
}

static double t_after(const chung_ctx *x, double h, double tc)
{
    return x->kind == CMP_RIGID ? 20.0 * h : 3.0 * tc;
}

/* one impact; -1 on failure */
static int run(const chung_ctx *x, const val_impact_def *d, val_impact *r)
{
    if (val_impact_run(&x->o->c, x->m, d, NULL, r)) return -1;
    return 0;
}

/* ---- tests 1 and 2: elastic normal impacts against Hertz ---- */

static int hertz_case(chung_ctx *x, const char *test, const val_mat *v, double R, double vrel, int on_plane)
{
    const char *mn = x->m->name;
    val_impact_def d;
    memset(&d, 0, sizeof d);
    d.mat1 = material(v, 1.0, 1.0, 0.35);
    d.mat0 = material(v, on_plane ? WALL_STIFFER : 1.0, 1.0, 0.35);
    d.R1 = R, d.rho1 = v->rho;
    d.R0 = on_plane ? 0.0 : R, d.rho0 = v->rho;
    const double m = v->rho * 4.0 / 3.0 * M_PI * R * R * R;
    const double mstar = on_plane ? m : 0.5 * m, Rstar = on_plane ? R : 0.5 * R;
    const double Estar = clab_analytic_hertz_Estar(d.mat0.E, d.mat0.nu, d.mat1.E, d.mat1.nu);
    if (on_plane) {
        d.v1 = clab_v3(0.0, 0.0, -vrel);
    } else {
        d.v0 = clab_v3(0.0, 0.0, 0.5 * vrel);
        d.v1 = clab_v3(0.0, 0.0, -0.5 * vrel);
    }
    const clab_analytic_impact a = clab_analytic_hertz_impact(clab_analytic_hertz_K(Estar, Rstar), mstar, vrel);
    d.h = step_for(x, Estar, Rstar, mstar, vrel);
    d.t_max = t_after(x, d.h, a.contact_time);
    val_impact r;
    if (run(x, &d, &r)) return -1;
    const double e = (r.v1.z - r.v0.z) / vrel;
    char what[64];
    snprintf(what, sizeof what, "%s, v = %g m/s", v->name, vrel);
    if (x->kind == CMP_HERTZ) {
        const char *src = "Hertz (Johnson 1985, 11.4): t_c = 2.868 (m*^2/(R* E*^2 v))^(1/5)";
        val_add(x->t, test, mn, what, "contact time [s]", a.contact_time, r.t_contact, 0.01, 0, src);
        val_add(x->t, test, mn, what, "max overlap [m]", a.max_overlap, r.max_overlap, 0.01, 0,
                "Hertz: delta_max = (15 m* v^2/(16 E* sqrt(R*)))^(2/5)");
        val_add(x->t, test, mn, what, "max force [N]", a.max_force, r.max_force, 0.01, 0,
                "Hertz: F_max = 4/3 E* sqrt(R*) delta_max^(3/2)");
        val_add(x->t, test, mn, what, "restitution [-]", 1.0, e, 0.005, 0, "elastic: no damping (cor = 1)");
    } else if (x->kind == CMP_RIGID) {
        val_add_note(x->t, test, mn, what, "contact time [s]", a.contact_time, NAN, VAL_NA,
                     "rigid contact: no overlap, the impact is one impulse");
        val_add(x->t, test, mn, what, "restitution [-]", 0.0, e, 1e-3, 1,
                "rigid contacts are inelastic at the velocity level (Tasora-Anitescu CCP: e = 0)");
    } else {
        val_add_note(x->t, test, mn, what, "contact time [s]", a.contact_time, r.t_contact, VAL_NA, x->why_none);
    }
    return 0;
}

static int test1(chung_ctx *x)
{
    if (hertz_case(x, "1", &glass, 0.01, 20.0, 0)) return -1;
    return x->o->quick ? 0 : hertz_case(x, "1", &limestone, 0.01, 20.0, 0);
}

static int test2(chung_ctx *x)
{
    if (hertz_case(x, "2", &al_alloy, 0.1, 0.2, 1)) return -1;
    return x->o->quick ? 0 : hertz_case(x, "2", &mg_alloy, 0.1, 0.2, 1);
}

/* ---- test 3: restitution ---- */

static int test3(chung_ctx *x)
{
    static const double es[] = {0.2, 0.4, 0.6, 0.8, 1.0}, es_quick[] = {0.2, 0.6, 1.0};
    const val_mat *mats[] = {&al_oxide, &cast_iron};
    const int nm = x->o->quick ? 1 : 2, ne = x->o->quick ? 3 : 5;
    for (int i = 0; i < nm; i++)
        for (int j = 0; j < ne; j++) {
            const double cor = x->o->quick ? es_quick[j] : es[j], R = 0.0025, v = 3.9;
            val_impact_def d;
            memset(&d, 0, sizeof d);
            d.mat1 = material(mats[i], 1.0, cor, 0.0);
            d.mat0 = material(mats[i], WALL_STIFFER, cor, 0.0);
            d.R1 = R, d.rho1 = mats[i]->rho;
            d.v1 = clab_v3(0.0, 0.0, -v);
            const double m = mats[i]->rho * 4.0 / 3.0 * M_PI * R * R * R;
            const double Estar = clab_analytic_hertz_Estar(d.mat0.E, d.mat0.nu, d.mat1.E, d.mat1.nu);
            d.h = step_for(x, Estar, R, m, v);
            d.t_max = t_after(x, d.h, d.h * x->o->steps_per_contact);
            val_impact r;
            if (run(x, &d, &r)) return -1;
            char what[64];
            snprintf(what, sizeof what, "%s, cor = %g", mats[i]->name, cor);
            const double e = r.v1.z / v;
            if (x->kind == CMP_RIGID)
                val_add(x->t, "3", x->m->name, what, "restitution [-]", 0.0, e, 1e-3, 1,
                        "rigid contacts are inelastic at the velocity level (Tasora-Anitescu CCP: e = 0)");
            else
                val_add(x->t, "3", x->m->name, what, "restitution [-]", cor, e, 0.02, 0,
                        "the material's cor (penalty: Tsuji's damping map, approximate for Hertz)");
        }
    return 0;
}

/* ---- tests 4 to 8: oblique and spinning impacts against the rigid-body solution ---- */

/* a curve test's CSV: x, closed form and obtained of two quantities */
static clab_csv *curve_open(const chung_ctx *x, const char *test, const char *mat, const char *const *cols)
{
    char file[256], path[2048];
    snprintf(file, sizeof file, "validate-test%s-%s-%s.csv", test, mat, x->m->name);
    xp_path(&x->o->c, file, path, sizeof path);
    clab_error err;
    clab_csv *f = clab_csv_open(path, CLAB_CSV_OVERWRITE, &err);
    clab_options meta;
    clab_options_init(&meta);
    clab_options_set(&meta, "experiment", "validate", NULL);
    clab_options_set(&meta, "test", test, NULL);
    clab_options_set(&meta, "material", mat, NULL);
    xp_method_meta(x->m, &meta);
    clab_options_set(&meta, "closed_form",
                     x->kind != CMP_RIGID ? "rigid body, Newton e and Coulomb mu (stick: tan theta <= 7/2 mu (1 + e))"
                     : x->relaxed         ? "rigid, e = 0, relaxed cone: the CCP one-step impulse"
                                          : "rigid, e = 0, exact Coulomb", NULL);
    if (!f || clab_csv_meta(f, &meta, x->o->c.argc, x->o->c.argv, &err) || clab_csv_header(f, cols, 5, &err)) {
        fprintf(stderr, "contactlab validate: %s\n", err.msg);
        if (f) clab_csv_close(f, &err);
        f = NULL;
    }
    clab_options_free(&meta);
    return f;
}

/* check one quantity of a case: compliant methods in gross sliding within tol, in the stick
 * regime for reference only (tangential compliance: Maw, Barber and Fawcett 1976); rigid
 * methods always, against the CCP's impulse */
static void oblique_row(chung_ctx *x, const char *test, const char *what, const char *q, double want, double got,
                        int slides, double tol, double scale)
{
    if (x->kind == CMP_NONE) {
        val_add_note(x->t, test, x->m->name, what, q, want, got, VAL_NA, x->why_none);
    } else if (x->kind == CMP_RIGID) {
        val_add(x->t, test, x->m->name, what, q, want, got, 1e-3 * scale, 1,
                x->relaxed ? "rigid, e = 0, relaxed cone (CCP one-step impulse)" : "rigid, e = 0, exact Coulomb");
    } else if (!slides) {
        val_add_note(x->t, test, x->m->name, what, q, want, got, VAL_REF,
                     "sticks: tangential compliance (Maw et al. 1976) departs from the rigid limit");
    } else {
        val_add(x->t, test, x->m->name, what, q, want, got, tol * scale, 1,
                tol > 0.03 ? "slides; J_t = mu int F_n+ dt, 3.4% above mu J_n at e = 0.5 (the pull carries no friction)"
                           : "slides throughout: J_t = mu J_n");
    }
}

/* one oblique impact: body 1 (sphere R1 of v1 at vel1, spin w1) on body 0 (plane when R0 =
 * 0, else a sphere of v0, density rho0 at rest), cor e, friction mu; the closed form and the
 * run's velocities after */
static int oblique(chung_ctx *x, const val_mat *v1m, double R1, const val_mat *v0m, double R0, double rho0,
                   clab_vec3 vel1, clab_vec3 w1, double e, double mu, val_rigid *want, val_impact *got)
{
    val_impact_def d;
    memset(&d, 0, sizeof d);
    d.mat1 = material(v1m, 1.0, e, mu);
    d.mat0 = material(v0m, R0 > 0.0 ? 1.0 : WALL_STIFFER, e, mu);
    d.R1 = R1, d.rho1 = v1m->rho, d.R0 = R0, d.rho0 = rho0;
    d.v1 = vel1, d.w1 = w1;
    const double m1 = v1m->rho * 4.0 / 3.0 * M_PI * R1 * R1 * R1;
    const double m0 = R0 > 0.0 ? rho0 * 4.0 / 3.0 * M_PI * R0 * R0 * R0 : INFINITY;
    const double mstar = isfinite(m0) ? m0 * m1 / (m0 + m1) : m1, Rstar = R0 > 0.0 ? R0 * R1 / (R0 + R1) : R1;
    const double Estar = clab_analytic_hertz_Estar(d.mat0.E, d.mat0.nu, d.mat1.E, d.mat1.nu);
    d.h = step_for(x, Estar, Rstar, mstar, -vel1.z);
    d.t_max = t_after(x, d.h, d.h * x->o->steps_per_contact);
    *want = x->kind == CMP_RIGID ? val_rigid_impact(m0, R0, clab_v3(0, 0, 0), clab_v3(0, 0, 0), m1, R1, vel1, w1, 0.0, mu, x->relaxed)
                                 : val_rigid_impact(m0, R0, clab_v3(0, 0, 0), clab_v3(0, 0, 0), m1, R1, vel1, w1, e, mu, 0);
    return run(x, &d, got);
}

static int test4(chung_ctx *x)
{
    const double v = 3.9, mu = 0.092, e = 0.98, R = 0.0025;
    static const char *const cols[] = {"angle_deg", "et_closed", "et", "rebound_closed_deg", "rebound_deg"};
    clab_csv *f = curve_open(x, "4", al_oxide.name, cols);
    if (!f) return -1;
    const int step = x->o->quick ? 20 : 5;
    for (int deg = x->o->quick ? 10 : 5; deg <= 85; deg += step) {
        const double th = deg * M_PI / 180.0;
        val_rigid want;
        val_impact got;
        if (oblique(x, &al_oxide, R, &al_oxide, 0.0, 0.0, clab_v3(v * sin(th), 0, -v * cos(th)), clab_v3(0, 0, 0), e,
                    mu, &want, &got))
            return -1;
        const double vt = v * sin(th);
        const double row[5] = {(double)deg, want.v1.x / vt, got.v1.x / vt, atan2(want.v1.x, want.v1.z) * 180.0 / M_PI,
                               atan2(got.v1.x, got.v1.z) * 180.0 / M_PI};
        clab_error err;
        if (clab_csv_row(f, row, 5, &err)) fprintf(stderr, "contactlab validate: %s\n", err.msg);
        char what[64];
        snprintf(what, sizeof what, "%s, %d deg", al_oxide.name, deg);
        oblique_row(x, "4", what, "tangential restitution [-]", row[1], row[2], want.slides, 0.02, fabs(row[1]) + 0.05);
        oblique_row(x, "4", what, "rebound angle [deg]", row[3], row[4], want.slides, 0.02, fabs(row[3]) + 1.0);
    }
    clab_error err;
    clab_csv_close(f, &err);
    return 0;
}

static int test5(chung_ctx *x)
{
    const double vn = 5.0, mu = 0.3, e = 1.0, R = 0.01;
    static const double vts[] = {0.5, 1, 2, 5, 10, 15, 20, 30, 40, 50, 70}, vq[] = {1, 10, 40};
    static const char *const cols[] = {"psi", "omega_n_closed", "omega_n", "recoil_n_closed", "recoil_n"};
    const val_mat *mats[] = {&steel, &polyethylene};
    for (int i = 0; i < (x->o->quick ? 1 : 2); i++) {
        clab_csv *f = curve_open(x, "5", mats[i]->name, cols);
        if (!f) return -1;
        const int n = x->o->quick ? 3 : 11;
        for (int k = 0; k < n; k++) {
            const double vt = x->o->quick ? vq[k] : vts[k];
            val_rigid want;
            val_impact got;
            if (oblique(x, mats[i], R, mats[i], 0.0, 0.0, clab_v3(vt, 0, -vn), clab_v3(0, 0, 0), e, mu, &want, &got))
                return -1;
            /* normalized by mu v_n: the spin R omega' and the contact point's tangential velocity after */
            const double s = mu * vn;
            const double row[5] = {vt / s, R * want.w1.y / s, R * got.w1.y / s, (want.v1.x - R * want.w1.y) / s,
                                   (got.v1.x - R * got.w1.y) / s};
            clab_error err;
            if (clab_csv_row(f, row, 5, &err)) fprintf(stderr, "contactlab validate: %s\n", err.msg);
            char what[64];
            snprintf(what, sizeof what, "%s, v_t = %g m/s", mats[i]->name, vt);
            oblique_row(x, "5", what, "R omega'/(mu v_n) [-]", row[1], row[2], want.slides, 0.02, fabs(row[1]) + 0.1);
            oblique_row(x, "5", what, "v_ct'/(mu v_n) [-]", row[3], row[4], want.slides, 0.02, fabs(row[3]) + 0.1);
        }
        clab_error err;
        clab_csv_close(f, &err);
    }
    return 0;
}

/* tests 6 to 8: spinning spheres at constant normal speed 0.2 m/s, mu 0.4, e 0.5 */
static int spinning(chung_ctx *x, const char *test, const val_mat *const *mats, int two, double R0, double rho_scale)
{
    const double vn = 0.2, mu = 0.4, e = 0.5, R = 0.1;
    static const double ws[] = {0.175, 0.5, 1, 2, 3, 4, 5, 7, 10, 15, 21}, wq[] = {1, 10, 21};
    static const char *const cols[] = {"omega0_rad_s", "vt_closed_m_s", "vt_m_s", "omega_closed_rad_s", "omega_rad_s"};
    static const char *const cols8[] = {"R_omega_over_vn", "vt_closed_m_s", "vt_m_s", "omega_closed_rad_s", "omega_rad_s"};
    for (int i = 0; i < (x->o->quick ? 1 : 2); i++) {
        clab_csv *f = curve_open(x, test, mats[i]->name, rho_scale > 1.0 ? cols8 : cols);
        if (!f) return -1;
        const int n = x->o->quick ? 3 : 11;
        for (int k = 0; k < n; k++) {
            const double w = x->o->quick ? wq[k] : ws[k];
            val_rigid want;
            val_impact got;
            /* two spheres: both spin at w about y (the contact slips at 2 R w), approach at v_n each (test 7) */
            clab_vec3 v1 = clab_v3(0, 0, two ? -0.5 * vn : -vn);
            if (R0 > 0.0 && two) {
                /* the lower sphere moves up at v_n/2 and spins too: the closed form in its frame */
                val_impact_def d;
                memset(&d, 0, sizeof d);
                d.mat0 = d.mat1 = material(mats[i], 1.0, e, mu);
                d.R0 = d.R1 = R, d.rho0 = d.rho1 = mats[i]->rho;
                d.v0 = clab_v3(0, 0, 0.5 * vn), d.v1 = v1, d.w0 = d.w1 = clab_v3(0, w, 0);
                const double m = mats[i]->rho * 4.0 / 3.0 * M_PI * R * R * R;
                const double Estar = clab_analytic_hertz_Estar(d.mat0.E, d.mat0.nu, d.mat1.E, d.mat1.nu);
                d.h = step_for(x, Estar, 0.5 * R, 0.5 * m, vn);
                d.t_max = t_after(x, d.h, d.h * x->o->steps_per_contact);
                want = x->kind == CMP_RIGID ? val_rigid_impact(m, R, d.v0, d.w0, m, R, d.v1, d.w1, 0.0, mu, x->relaxed)
                                            : val_rigid_impact(m, R, d.v0, d.w0, m, R, d.v1, d.w1, e, mu, 0);
                if (run(x, &d, &got)) return -1;
            } else if (oblique(x, mats[i], R, mats[i], R0, mats[i]->rho * rho_scale, v1, clab_v3(0, w, 0), e, mu, &want,
                               &got)) {
                return -1;
            }
            double row[5] = {w, want.v1.x, got.v1.x, want.w1.y, got.w1.y};
            if (rho_scale > 1.0) row[0] = R * w / vn; /* test 8: against R omega/v_n */
            clab_error err;
            if (clab_csv_row(f, row, 5, &err)) fprintf(stderr, "contactlab validate: %s\n", err.msg);
            char what[64];
            snprintf(what, sizeof what, "%s, omega = %g rad/s", mats[i]->name, w);
            const double tol = x->kind == CMP_RIGID ? 1e-3 : 0.05;
            oblique_row(x, test, what, "v_t' [m/s]", row[1], row[2], want.slides, tol, fabs(row[1]) + 0.01);
            oblique_row(x, test, what, "omega' [rad/s]", row[3], row[4], want.slides, tol, fabs(row[3]) + 0.1);
        }
        clab_error err;
        clab_csv_close(f, &err);
    }
    return 0;
}

int val_chung_ooi(const val_opts *o, const xp_method *m, val_table *t, clab_csv *curves)
{
    chung_ctx x = {o, m, t, curves, CMP_HERTZ, 0, ""};
    if (m->kind == XP_KIND_CCP) x.kind = CMP_RIGID, x.relaxed = val_method_relaxed(&o->c, m);
    if (m->kind == XP_KIND_FORCE) {
        x.kind = CMP_FORCE;
        snprintf(x.why_none, sizeof x.why_none, "a force law other than Hertz-Mindlin: no closed form here");
    }
    if (m->regularized && !xp_user_option(&o->c, m, "stiffness") && !xp_user_option(&o->c, m, "compliance")) {
        x.kind = CMP_NONE;
        snprintf(x.why_none, sizeof x.why_none, "needs stiffness= (--opt %s:stiffness=K)", m->name);
        val_add_note(t, "1-8", m->name, "every case", "-", NAN, NAN, VAL_NA, x.why_none);
        return 0;
    }
    static const val_mat *const t6[] = {&al_alloy, &nylon}, *const t7[] = {&al_alloy, &copper};
    int rc = 0;
    if (!rc && (o->tests & 1u << 1)) rc = test1(&x);
    if (!rc && (o->tests & 1u << 2)) rc = test2(&x);
    if (!rc && (o->tests & 1u << 3)) rc = test3(&x);
    if (!rc && (o->tests & 1u << 4)) rc = test4(&x);
    if (!rc && (o->tests & 1u << 5)) rc = test5(&x);
    if (!rc && (o->tests & 1u << 6)) rc = spinning(&x, "6", t6, 0, 0.0, 1.0);
    if (!rc && (o->tests & 1u << 7)) rc = spinning(&x, "7", t7, 1, 0.1, 1.0);
    if (!rc && (o->tests & 1u << 8)) rc = spinning(&x, "8", t6, 0, 0.5, 1000.0);
    return rc;
}
