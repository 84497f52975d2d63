/* test_dvi_regularized: the regularized DVI of seed 001 (dvi/regularize.c, options of the dvi
 * backend compliance=/stiffness=, tau=/damping=/cor=, reg_scheme=).
 *
 * 1. Coefficients (R1), (R2) of doc/dvi.md, the option rules, and two exact identities:
 *    reg_scheme=euler with compliance=0, tau=0 is seed 000's rigid DVI (same CCP, so the same
 *    trajectory to round-off); a sphere resting on the plane sinks to Phi = -epsilon m g
 *    (the static row of (R1)/(R2): Sigma gamma = -a Phi with gamma = m g h).
 * 2. epsilon -> 0: the regularized trajectory tends to the epsilon = 0 one (for euler that is
 *    seed 000's rigid DVI) at rate 1 (the CCP's solution is Lipschitz in its data, and
 *    epsilon enters the data linearly through Sigma). Table as TAP diagnostics.
 * 3. Hooke impact (sphere on a plane, no gravity, k = 1e6 N/m, cor 0.9/0.7/0.5, h = t_c/1000):
 *    with stiffness = k and cor = e the restitution and contact time (overlap duration) are
 *    those of the linear spring-dashpot within 2%: of its unilateral closed form (gamma_n >= 0
 *    cannot pull; clab_analytic_hooke_impact_unilateral) for every e, of the classical two-sided
 *    e = exp(-pi zeta/sqrt(1 - zeta^2)), t_c = pi/(omega_n sqrt(1 - zeta^2)) for e = 0.9 (where
 *    the pull hardly matters), and of the penalty backend (model=hooke, kn = k; clamp=on for
 *    every e, the default clamp=off for e = 0.9).
 * 4. Gauss-Seidel needs fewer iterations on a degenerate problem (stacks of 3 and 5 boxes, 4
 *    contacts per face for 3 constrained directions) with regularization (k = 1e7 N/m,
 *    eps m/h^2 = 0.8) than without: at most 0.5x and 0.25x (stated margins; measured 0.36x,
 *    0.087x). A nearly rigid regularization (k = 1e9) is slower and only printed.
 * 5. Composition with friction=exact: a sliding sphere stays at Phi = -m g/k. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_analytic.h"
#include "clab_sim.h"
#include "contact_scene.h"
#include "regularize.h"
#include "tap.h"

#define G 9.81

/* a world with gravity g (0 or -G along z), one material */
static clab_world *world_new(double gz, double mu, double cor)
{
    clab_world_def wd = clab_default_world_def();
    wd.gravity = clab_v3(0, 0, gz);
    clab_world *w = clab_world_create(&wd);
    clab_material m = clab_default_material();
    m.mu = mu;
    m.cor = cor;
    clab_world_add_material(w, &m, NULL);
    add_plane(w, clab_q_identity());
    return w;
}

/* a sim of backend with comma-separated key=value options; NULL (diagnosed) on failure */
static clab_sim *sim_make(clab_world *w, const char *backend, double h, const char *opts)
{
    clab_options o;
    clab_error err;
    clab_options_init(&o);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", opts ? opts : "");
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","))
        if (clab_options_parse(&o, tok, "test", &err)) tap_diag("bad option %s: %s", tok, err.msg);
    clab_sim *s = clab_sim_create(w, backend, h, &o, &err);
    if (!s) tap_diag("sim create (%s, %s) failed: %s", backend, opts ? opts : "", err.msg);
    clab_options_free(&o);
    return s;
}

static int create_fails(const char *opts)
{
    clab_world *w = world_new(-G, 0.5, 0.5);
    clab_sim *s = sim_make(w, "dvi", 1e-3, opts);
    int failed = s == NULL;
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return failed;
}

/* 1. coefficients, options, identities */
static void coefficients(void)
{
    double S, a, U, h = 1e-3, eps = 2e-7, tau = 3e-3;
    /* (R1) by hand: q = 1 + 4 tau/h = 13 */
    clab_dvi_reg_coefficients(CLAB_DVI_REG_SPOOK, eps, tau, h, &S, &a, &U);
    tap_ok(fabs(S - 4 * eps / (h * h * 13)) <= 1e-15 * S && fabs(a - 4 / (h * 13)) <= 1e-12 * a &&
               fabs(U - 1.0 / 13) <= 1e-15,
           "(R1) SPOOK: Sigma = 4 eps/(h^2 q), a = 4/(h q), Upsilon = 1/q, q = 1 + 4 tau/h = 13 (rel 1e-12)");
    /* (R2) by hand */
    clab_dvi_reg_coefficients(CLAB_DVI_REG_EULER, eps, tau, h, &S, &a, &U);
    tap_ok(fabs(S - eps / (h * 4e-3)) <= 1e-15 * S && fabs(a - 250.0) <= 1e-12 && U == 0.0,
           "(R2) euler: Sigma = eps/(h (h + tau)), a = 1/(h + tau) = 250 1/s, Upsilon = 0 (rel 1e-12)");
    clab_dvi_reg_coefficients(CLAB_DVI_REG_EULER, 0.0, 0.0, h, &S, &a, &U);
    tap_ok(S == 0.0 && a == 1.0 / h && U == 0.0,
           "(R2) at eps = tau = 0 is the rigid Tasora-Anitescu Phi/h row (exact)");
    /* zeta(e) inverts e = exp(-pi zeta/sqrt(1 - zeta^2)) */
    double worst = 0.0;
    for (double e = 0.05; e <= 1.0; e += 0.05) {
        double z = clab_dvi_reg_zeta(e);
        worst = fmax(worst, fabs(clab_analytic_hooke_restitution(z) - e));
    }
    tap_ok(worst < 1e-14, "zeta(e) inverts e = exp(-pi zeta/sqrt(1 - zeta^2)) for e = 0.05 .. 1 (max error %.2g < 1e-14)",
           worst);
    /* option rules (regularize.h) */
    tap_ok(create_fails("compliance=1e-6,stiffness=1e6"), "compliance= and stiffness= together are refused");
    tap_ok(create_fails("stiffness=1e6,tau=1e-3,cor=0.5"), "two of tau=, damping=, cor= are refused");
    tap_ok(create_fails("tau=1e-3"), "tau= without compliance=/stiffness= is refused");
    tap_ok(create_fails("compliance=0,cor=0.5"), "cor= with compliance=0 (no finite stiffness) is refused");
    tap_ok(create_fails("stiffness=0"), "stiffness=0 is refused (range (0, 1e300])");
    tap_ok(!create_fails("stiffness=1e6,damping=50,reg_scheme=euler"), "stiffness=, damping=, reg_scheme=euler accepted");
    { /* the metadata records the parameters in force (clab_backend.h: meta gives every parameter) */
        clab_world *w = world_new(-G, 0.5, 0.5);
        clab_sim *s = sim_make(w, "dvi", 1e-3, "stiffness=2e6,damping=40");
        clab_options m;
        clab_options_init(&m);
        if (s) clab_sim_meta(s, &m);
        const char *k = clab_options_get(&m, "dvi_stiffness_N_m"), *c = clab_options_get(&m, "dvi_damping_N_s_m");
        const char *sc = clab_options_get(&m, "dvi_reg_scheme"), *eps = clab_options_get(&m, "dvi_compliance_m_N");
        tap_ok(k && c && sc && eps && strtod(k, NULL) == 2e6 && strtod(c, NULL) == 40.0 && strcmp(sc, "spook") == 0 &&
                   strtod(eps, NULL) == 1.0 / 2e6,
               "metadata: dvi_stiffness_N_m = 2e6, dvi_damping_N_s_m = 40, dvi_compliance_m_N = 5e-7, dvi_reg_scheme = "
               "spook (exact round trip)");
        clab_options_free(&m);
        clab_sim_destroy(s);
        clab_world_destroy(w);
    }

    /* euler, eps = tau = 0 against the rigid backend: an oblique spinning impact, 400 steps */
    clab_world *w[2];
    clab_sim *s[2];
    for (int k = 0; k < 2; k++) {
        w[k] = world_new(-G, 0.3, 0.5);
        add_sphere(w[k], 0.05, 1000.0, clab_v3(0, 0, 0.06), clab_v3(1.0, 0.3, -1.0), clab_v3(5, -20, 3));
        s[k] = sim_make(w[k], "dvi", 1e-3, k ? "solver=gs,tol=1e-12,reg_scheme=euler,compliance=0,tau=0" : "solver=gs,tol=1e-12");
    }
    double dmax = 0.0;
    clab_error err;
    for (int n = 0; n < 400 && s[0] && s[1]; n++) {
        clab_sim_step(s[0], &err);
        clab_sim_step(s[1], &err);
        const clab_body *a = &w[0]->bodies[1], *b = &w[1]->bodies[1];
        dmax = fmax(dmax, clab_v3_norm(clab_v3_sub(a->r, b->r)) + 1e-3 * clab_v3_norm(clab_v3_sub(a->rdot, b->rdot)));
    }
    tap_ok(s[0] && s[1] && dmax <= 1e-12,
           "reg_scheme=euler, compliance=0, tau=0 reproduces the rigid Tasora-Anitescu DVI (max |dr| + h |dv| = %.2g m "
           "<= 1e-12 m over 400 steps: the same CCP)",
           dmax);
    for (int k = 0; k < 2; k++) {
        clab_sim_destroy(s[k]);
        clab_world_destroy(w[k]);
    }

    /* static penetration Phi = -epsilon m g, both schemes */
    for (int sc = 0; sc < 2; sc++) {
        const double R = 0.05, rho = 1000.0, k = 1e5;
        double m = rho * 4.0 / 3.0 * M_PI * R * R * R;
        clab_world *wr = world_new(-G, 0.5, 0.5);
        add_sphere(wr, R, rho, clab_v3(0, 0, R), clab_v3(0, 0, 0), clab_v3(0, 0, 0));
        clab_sim *sr = sim_make(wr, "dvi", 1e-3, sc ? "solver=gs,tol=1e-12,stiffness=1e5,cor=0.3,reg_scheme=euler"
                                                    : "solver=gs,tol=1e-12,stiffness=1e5,cor=0.3");
        for (int n = 0; n < 2000 && sr; n++) clab_sim_step(sr, &err);
        double phi = wr->bodies[1].r.z - R;
        char what[200];
        snprintf(what, sizeof what, "%s: resting sphere sinks to Phi = -m g/k = %.6g m (rel 1e-6; static row of (R%d))",
                 sc ? "euler" : "spook", -m * G / k, sc ? 2 : 1);
        tap_rel(phi, -m * G / k, 1e-6, what);
        clab_sim_destroy(sr);
        clab_world_destroy(wr);
    }
}

/* final state of the oblique spinning impact under options opts: r, v, wbar of the sphere */
static int drop_run(const char *opts, double h, int steps, double out[9])
{
    clab_world *w = world_new(-G, 0.3, 0.5);
    add_sphere(w, 0.05, 1000.0, clab_v3(0, 0, 0.06), clab_v3(1.0, 0.3, -1.0), clab_v3(5, -20, 3));
    clab_sim *s = sim_make(w, "dvi", h, opts);
    clab_error err;
    int rc = s ? 0 : 1;
    for (int n = 0; n < steps && !rc; n++) rc = clab_sim_step(s, &err);
    const clab_body *b = &w->bodies[1];
    double v[9] = {b->r.x, b->r.y, b->r.z, b->rdot.x, b->rdot.y, b->rdot.z, b->wbar.x, b->wbar.y, b->wbar.z};
    memcpy(out, v, sizeof v);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

/* dimensionless distance of two final states: |dr|/R + |dv|/v0 + R |dw|/v0 */
static double state_dist(const double *a, const double *b)
{
    double dr = 0, dv = 0, dw = 0;
    for (int k = 0; k < 3; k++) {
        dr += (a[k] - b[k]) * (a[k] - b[k]);
        dv += (a[3 + k] - b[3 + k]) * (a[3 + k] - b[3 + k]);
        dw += (a[6 + k] - b[6 + k]) * (a[6 + k] - b[6 + k]);
    }
    return sqrt(dr) / 0.05 + sqrt(dv) / 1.0 + 0.05 * sqrt(dw) / 1.0;
}

/* 2. epsilon -> 0 */
static void rigid_limit(void)
{
    const double h = 1e-3, m = 1000.0 * 4.0 / 3.0 * M_PI * 0.05 * 0.05 * 0.05;
    const int steps = 300;
    const char *scheme[2] = {"spook", "euler"};
    for (int sc = 0; sc < 2; sc++) {
        double ref[9], x[9], err_prev = NAN;
        char o[256];
        snprintf(o, sizeof o, "solver=gs,tol=1e-13,max_iter=100000,reg_scheme=%s,compliance=0", scheme[sc]);
        drop_run(o, h, steps, ref);
        tap_diag("%s: eps_rel = eps m/h^2; error = |dr|/R + |dv|/v0 + R|dw|/v0 at t = %g s against eps = 0%s", scheme[sc],
                 steps * h, sc ? " (= the rigid Tasora-Anitescu DVI)" : "");
        tap_diag("  eps_rel     eps [m/N]     error        rate (decades of error per decade of eps)");
        double rate_min = 1e9, rate_max = -1e9, err_last = NAN;
        for (int e = 4; e <= 10; e++) {
            double eps_rel = pow(10.0, -e), eps = eps_rel * h * h / m;
            snprintf(o, sizeof o, "solver=gs,tol=1e-13,max_iter=100000,reg_scheme=%s,compliance=%.17g", scheme[sc], eps);
            drop_run(o, h, steps, x);
            double err = state_dist(x, ref);
            double rate = e > 4 ? log10(err_prev / err) : NAN;
            if (e > 4 && e <= 9) { /* the last decade may meet round-off */
                rate_min = fmin(rate_min, rate);
                rate_max = fmax(rate_max, rate);
            }
            tap_diag("  %7.0e   %11.4e   %11.4e   %5.2f", eps_rel, eps, err, rate);
            err_prev = err;
            err_last = err;
        }
        char what[200];
        snprintf(what, sizeof what, "%s: error decreases at rate 1 as eps -> 0 (rates from 1e-4 to 1e-9 in [0.9, 1.1]: "
                                    "%.3f .. %.3f)", scheme[sc], rate_min, rate_max);
        tap_ok(rate_min >= 0.9 && rate_max <= 1.1, "%s", what);
        tap_ok(err_last < 1e-8, "%s: error at eps_rel = 1e-10 is %.3g < 1e-8", scheme[sc], err_last);
    }
}

/* one head-on impact on the plane, no gravity: restitution and overlap duration */
typedef struct impact {
    double e, t_c;
    int ok;
} impact;

static impact collide(const char *backend, const char *opts, double R, double rho, double v, double cor, double h)
{
    impact r = {0, 0, 0};
    clab_world *w = world_new(0.0, 0.0, cor);
    add_sphere(w, R, rho, clab_v3(0, 0, R + 1e-7), clab_v3(0, 0, -v), clab_v3(0, 0, 0));
    clab_sim *s = sim_make(w, backend, h, opts);
    if (!s) {
        clab_world_destroy(w);
        return r;
    }
    clab_error err;
    double g0 = w->bodies[1].r.z - R, t_in = -1, t_out = -1;
    for (long k = 0; k < 10000000L; k++) {
        if (clab_sim_step(s, &err)) break;
        double g1 = w->bodies[1].r.z - R;
        if (g0 >= 0 && g1 < 0 && t_in < 0) t_in = w->t - h * g1 / (g1 - g0);
        if (g0 < 0 && g1 >= 0 && t_in >= 0) {
            t_out = w->t - h * g1 / (g1 - g0);
            break;
        }
        g0 = g1;
    }
    for (int k = 0; k < 3; k++) clab_sim_step(s, &err);
    r.e = w->bodies[1].rdot.z / v;
    r.t_c = t_out - t_in;
    r.ok = t_in >= 0 && t_out > t_in;
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return r;
}

/* The unilateral linear spring-dashpot (the force kx + c x' cannot pull, x = overlap) of mass m,
 * stiffness k and damping ratio zeta (c = 2 zeta sqrt(k m)): the force vanishes at t_s while
 * x(t_s) > 0, and the sphere flies freely over the rest (clab_analytic.h):
 *     e_u = -x'(t_s)/v,  t_u = t_s + x(t_s)/|x'(t_s)|   (zeta < 1/sqrt 2). */
static void unilateral(double zeta, double k, double m, double *e_u, double *t_u)
{
    clab_analytic_impact u = clab_analytic_hooke_impact_unilateral(k, 2.0 * zeta * sqrt(k * m), m, 1.0);
    *e_u = u.restitution;
    *t_u = u.contact_time;
}

/* 3. Hooke impact */
static void hooke(void)
{
    const double R = 0.01, rho = 2800.0, v = 1.0, k = 1e6;
    const double m = rho * 4.0 / 3.0 * M_PI * R * R * R;
    const double cors[] = {0.9, 0.7, 0.5};
    for (int i = 0; i < 3; i++) {
        double e = cors[i], zeta = clab_dvi_reg_zeta(e), e_u, t_u;
        double tc = clab_analytic_hooke_impact(k, 2.0 * zeta * sqrt(k * m), m, v).contact_time, h = tc / 1000;
        unilateral(zeta, k, m, &e_u, &t_u);
        char o[256], what[256];
        impact pen = collide("penalty", "model=hooke,kn=1e6,clamp=on", R, rho, v, e, h);
        impact pen0 = collide("penalty", "model=hooke,kn=1e6", R, rho, v, e, h);
        tap_diag("cor %.2f (zeta %.4f), h = t_c/1000: two-sided analytic e %.5f t_c %.5f ms; unilateral analytic "
                 "e %.5f t_c %.5f ms; penalty clamp=off e %.5f t_c %.5f ms; clamp=on e %.5f t_c %.5f ms",
                 e, zeta, e, tc * 1e3, e_u, t_u * 1e3, pen0.e, pen0.t_c * 1e3, pen.e, pen.t_c * 1e3);
        for (int sc = 0; sc < 2; sc++) {
            const char *name = sc ? "euler" : "spook";
            snprintf(o, sizeof o, "solver=gs,tol=1e-12,stiffness=%g,cor=%g,reg_scheme=%s", k, e, name);
            impact r = collide("dvi", o, R, rho, v, e, h);
            tap_diag("  %s: e %.5f (%+.3f%% vs unilateral, %+.3f%% vs two-sided), t_c %.5f ms (%+.3f%%, %+.3f%%)",
                     name, r.e, 100 * (r.e / e_u - 1), 100 * (r.e / e - 1), r.t_c * 1e3, 100 * (r.t_c / t_u - 1),
                     100 * (r.t_c / tc - 1));
            /* gamma_n >= 0 cannot pull: the unilateral closed form above is the analytic value */
            snprintf(what, sizeof what, "%s, k = 1e6 N/m, cor = %.1f: restitution = unilateral spring-dashpot e_u (2%%)",
                     name, e);
            tap_rel(r.e, e_u, 0.02, what);
            snprintf(what, sizeof what, "%s, cor = %.1f: contact time = unilateral spring-dashpot t_u (2%%)", name, e);
            tap_rel(r.t_c, t_u, 0.02, what);
            snprintf(what, sizeof what, "%s, cor = %.1f: restitution = penalty hooke clamp=on (2%%)", name, e);
            tap_rel(r.e, pen.e, 0.02, what);
            snprintf(what, sizeof what, "%s, cor = %.1f: contact time = penalty hooke clamp=on (2%%)", name, e);
            tap_rel(r.t_c, pen.t_c, 0.02, what);
            if (i == 0) { /* small zeta: the dashpot's pull hardly matters, so the two-sided formulas hold too */
                snprintf(what, sizeof what, "%s, cor = 0.9: restitution = exp(-pi zeta/sqrt(1 - zeta^2)) (2%%)", name);
                tap_rel(r.e, e, 0.02, what);
                snprintf(what, sizeof what, "%s, cor = 0.9: contact time = pi/(omega_n sqrt(1 - zeta^2)) (2%%)", name);
                tap_rel(r.t_c, tc, 0.02, what);
                snprintf(what, sizeof what, "%s, cor = 0.9: restitution = penalty hooke clamp=off (2%%)", name);
                tap_rel(r.e, pen0.e, 0.02, what);
                snprintf(what, sizeof what, "%s, cor = 0.9: contact time = penalty hooke clamp=off (2%%)", name);
                tap_rel(r.t_c, pen0.t_c, 0.02, what);
            }
        }
    }
    /* a coarse step: the compliant rows are implicit, so h = t_c/10 stays stable (diagnostic) */
    double zeta = clab_dvi_reg_zeta(0.5), wn = sqrt(k / m), e_u, t_u;
    unilateral(zeta, k, m, &e_u, &t_u);
    const int divs[] = {1, 2, 10, 100};
    for (int q = 0; q < 4; q++) {
        double h = clab_analytic_hooke_impact(k, 2.0 * zeta * sqrt(k * m), m, v).contact_time / divs[q];
        impact r = collide("dvi", "solver=gs,tol=1e-12,stiffness=1e6,cor=0.5", R, rho, v, 0.5, h);
        impact p = collide("penalty", "model=hooke,kn=1e6,clamp=on", R, rho, v, 0.5, h);
        tap_diag("cor 0.5, h = t_c/%d (omega_n h = %.2f): spook e %.4f, t_c %.4f ms; penalty clamp=on e %.4g, t_c %.4g ms "
                 "(unilateral analytic e %.4f, t_c %.4f ms)",
                 divs[q], wn * h, r.e, r.t_c * 1e3, p.e, p.t_c * 1e3, e_u, t_u * 1e3);
    }
}

/* a stack of nbox boxes (half extents 0.1, 0.1, 0.05 m, 1000 kg/m^3 = 8 kg) on the plane,
 * resting face to face: 4 vertex contacts each, for 3 constrained directions (z, two tilts) */
static clab_world *stack(int nbox, double mu)
{
    clab_world *w = world_new(-G, mu, 0.5);
    for (int i = 0; i < nbox; i++) {
        clab_body_def d = clab_default_body_def();
        d.shape = clab_box(0.1, 0.1, 0.05);
        d.density = 1000.0;
        d.r = clab_v3(0.0, 0.0, 0.05 + 0.1 * i);
        clab_world_add_body(w, &d, NULL);
    }
    return w;
}

/* Gauss-Seidel iterations summed over steps 21..120 of a resting stack (cold start) */
static long gs_iterations(int nbox, double mu, const char *extra, long *hits, double *drift)
{
    clab_world *w = stack(nbox, mu);
    char o[256];
    snprintf(o, sizeof o, "solver=gs,tol=1e-8,max_iter=5000,warm_start=off%s%s", extra ? "," : "", extra ? extra : "");
    clab_sim *s = sim_make(w, "dvi", 1e-3, o);
    long it = -1;
    clab_error err;
    if (s) {
        clab_solver_stats st0, st1;
        for (int n = 0; n < 20; n++) clab_sim_step(s, &err);
        s->type->stats(s->self, &st0);
        for (int n = 0; n < 100; n++) clab_sim_step(s, &err);
        s->type->stats(s->self, &st1);
        it = st1.total_iterations - st0.total_iterations;
        *hits = st1.maxiter_hits - st0.maxiter_hits;
        *drift = fabs(w->bodies[nbox].r.z - (0.05 + 0.1 * (nbox - 1)));
    }
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return it;
}

/* 4. Gauss-Seidel on a degenerate problem: a stack of boxes, 4 vertex contacts per face */
static void gauss_seidel(void)
{
    /* eps_rel = eps m/h^2 = 8 kg / (k 1e-6 s^2): 0.8 for k = 1e7 N/m, 0.008 for k = 1e9 N/m */
    const int nb[2] = {3, 5};
    const double margin[2] = {0.5, 0.25};
    for (int q = 0; q < 2; q++) {
        long hits[3];
        double drift[3];
        long rigid = gs_iterations(nb[q], 0.5, NULL, &hits[0], &drift[0]);
        long soft = gs_iterations(nb[q], 0.5, "stiffness=1e7,cor=0.5", &hits[1], &drift[1]);
        long stiff = gs_iterations(nb[q], 0.5, "stiffness=1e9,cor=0.5", &hits[2], &drift[2]);
        tap_diag("%d boxes, mu 0.5, GS tol 1e-8 m/s, cold start, steps 21-120: rigid %ld iterations (%ld at the limit); "
                 "k = 1e7 N/m (eps_rel 0.8) %ld (%ld); k = 1e9 N/m (eps_rel 0.008) %ld (%ld)",
                 nb[q], rigid, hits[0], soft, hits[1], stiff, hits[2]);
        tap_ok(rigid > 0 && soft > 0 && hits[1] == 0 && (double)soft <= margin[q] * (double)rigid,
               "%d-box stack (degenerate: 4 contacts per face), mu 0.5: regularized GS (k = 1e7 N/m, cor 0.5) needs "
               "%ld iterations, at most %.2f x the rigid %ld (Lacoursiere-Servin: regularization removes the degeneracy; "
               "measured ratio %.3f)",
               nb[q], soft, margin[q], rigid, rigid > 0 ? (double)soft / (double)rigid : NAN);
    }
}

/* 5. With friction=exact (De Saxce's fixed point, dvi/friction_exact.h) the compliant contact
 * has no relaxation term: a bowling ball (R = 0.1085 m, 7 kg) launched sliding at 3 m/s
 * (mu 0.2) stays at its static overlap Phi = -m g/k (a sphere's normal force is m g whatever
 * the friction); with the relaxed CCP the same contact lifts off (seed 000's mu v_T remains). */
static double bowl_phi_range(const char *opts, double *phi_max)
{
    const double R = 0.1085, m = 7.0, k = 2.4e6, rho = m / (4.0 / 3.0 * M_PI * R * R * R);
    clab_world *w = world_new(-G, 0.2, 0.5);
    add_sphere(w, R, rho, clab_v3(0, 0, R - m * G / k), clab_v3(3.0, 0, 0), clab_v3(0, 0, 0));
    clab_sim *s = sim_make(w, "dvi", 1e-3, opts);
    clab_error err;
    double dev = 0.0;
    *phi_max = -INFINITY;
    for (int n = 0; n < 200 && s; n++) {
        if (clab_sim_step(s, &err)) break;
        double phi = w->bodies[1].r.z - R;
        dev = fmax(dev, fabs(phi + m * G / k));
        *phi_max = fmax(*phi_max, phi);
    }
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return dev;
}

static void with_exact_friction(void)
{
    const double dstat = 7.0 * G / 2.4e6;
    double pmax_x, pmax_r;
    double dev = bowl_phi_range("solver=gs,tol=1e-10,stiffness=2.4e6,cor=0.5,friction=exact", &pmax_x);
    tap_ok(dev <= 1e-3 * dstat, "stiffness + friction=exact: a sliding bowling ball keeps Phi = -m g/k = %.4g m within "
                               "1e-3 of it (max deviation %.3g m; exact Coulomb has no mu v_T term)",
           -dstat, dev);
    bowl_phi_range("solver=gs,tol=1e-10,stiffness=2.4e6,cor=0.5", &pmax_r);
    tap_ok(pmax_r > 0.0 && pmax_x < 0.0,
           "stiffness with the relaxed CCP lifts the sliding ball off (highest Phi %.3g m > 0), with friction=exact it "
           "stays in contact (highest Phi %.3g m < 0)",
           pmax_r, pmax_x);
}

int main(void)
{
    coefficients();
    rigid_limit();
    hooke();
    gauss_seidel();
    with_exact_friction();
    return tap_done();
}
