/* test_penalty_lammps.c: the penalty options that run LAMMPS gran/hooke/history's law exactly
 * (doc/penalty.md, "Running LAMMPS's law"): cap=lammps (Coulomb bound mu |F_n|), lever=surface
 * (lever arms to each body's surface point, the radii), history_start=zero (no slip added at
 * the first step), history_turn=project (the history projected onto the new tangent plane
 * without keeping its length), sphere_orientation=off (spheres keep their Euler parameters, as
 * LAMMPS's atom_style sphere has none). Expected values are worked out by hand in the comments from the formulas of
 * force_law.h; they hold to rounding (rel 1e-12). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clab_sim.h"
#include "force_law.h"
#include "tap.h"

/* cap conventions on one contact whose dashpot pulls:
 * k_n = 100, c_n = 10, delta_n = 0.01, v_n = 0.5: F_n = 1 - 5 = -4; k_t = 50, c_t = 0,
 * delta_t = (0.1, 0, 0): spring -5 x; mu = 0.5 */
static void caps(void)
{
    clab_penalty_coef k = {100.0, 50.0, 10.0, 0.0};
    const clab_penalty_cap cap[3] = {CLAB_PENALTY_CAP_TOTAL, CLAB_PENALTY_CAP_SPRING, CLAB_PENALTY_CAP_LAMMPS};
    /* total, spring: bound mu max(F_n, 0) = 0, no friction, history wiped;
     * lammps: bound mu |F_n| = 2, F_t = -2 x, delta_t = -F_t/k_t = 0.04 x */
    const double want_ft[3] = {0.0, 0.0, -2.0}, want_dt[3] = {0.0, 0.0, 0.04};
    for (int i = 0; i < 3; i++) {
        clab_penalty_law law = {CLAB_PENALTY_HOOKE, cap[i], CLAB_PENALTY_ROLL_OFF, 0, 1.0};
        clab_vec3 dt = clab_v3(0.1, 0.0, 0.0), Ft;
        double Fn;
        clab_penalty_contact_force(&law, k, 0.5, 0.01, 0.5, clab_v3(0.0, 0.0, 0.0), &dt, &Fn, &Ft);
        tap_close(Fn, -4.0, 1e-12, "pulling contact: F_n = k_n delta_n - c_n v_n = -4 (clamp off)");
        tap_close(Ft.x, want_ft[i], 1e-12, i == 2 ? "cap=lammps: F_t = -mu |F_n| = -2" : "cap=total/spring: F_t = 0");
        tap_close(dt.x, want_dt[i], 1e-12, i == 2 ? "cap=lammps: delta_t = 0.04" : "cap=total/spring: delta_t = 0");
    }
    /* pushing contacts: every cap bounds at mu F_n (delta_n = 0.1, v_n = 0: F_n = 10, bound 5) */
    for (int i = 0; i < 3; i++) {
        clab_penalty_law law = {CLAB_PENALTY_HOOKE, cap[i], CLAB_PENALTY_ROLL_OFF, 0, 1.0};
        clab_vec3 dt = clab_v3(1.0, 0.0, 0.0), Ft;
        double Fn;
        clab_penalty_contact_force(&law, k, 0.5, 0.1, 0.0, clab_v3(0.0, 0.0, 0.0), &dt, &Fn, &Ft);
        tap_close(Ft.x, -5.0, 1e-12, "pushing contact: |F_t| = mu F_n = 5 under every cap");
    }
}

/* Two spheres of radius R = 0.5, mass 1, overlapping by delta = 0.01 along x (a at the
 * origin, b at x = 2R - delta), b spinning at w0 about z, nothing else moving, no gravity,
 * semi-implicit Euler, k_n = 1000, k_t = 400, no damping, mu = 10 (no sliding).
 * The contact point velocity of b is w0 z x (-L x) = -L w0 y with L the lever arm of b, so
 * after one step (slip history) delta_t = -h L w0 y, F_t = -k_t delta_t = k_t h L w0 y on b,
 * torque on b = (-L x) x F = -L F_t z, on a = -(L x) x F = -L F_t z (L = R - delta/2 for
 * lever=contact, R for lever=surface), so wbar_z(b) = w0 - h L F_t / J, wbar_z(a) = -h L F_t / J,
 * J = 2/5 m R^2. With history_start=zero the first step has F_t = 0 and the spins do not
 * change. */
#define R 0.5
#define DELTA 0.01
#define W0 3.0
#define H 1e-3
#define KT 400.0

/* options of an undamped linear spring, k_n = 1000 N/m, k_t = 400 N/m (to be freed) */
static void undamped_hooke(clab_options *o)
{
    clab_options_init(o);
    clab_options_set(o, "model", "hooke", NULL);
    clab_options_set(o, "kn", "1000", NULL);
    clab_options_set(o, "kt", "400", NULL);
    clab_options_set(o, "gn", "0", NULL);
    clab_options_set(o, "gt", "0", NULL);
}

static int spin_step(const char *lever, const char *start, double *Ft, double *wa, double *wb)
{
    clab_world_def wd = {{0.0, 0.0, 0.0}};
    clab_world *w = clab_world_create(&wd);
    clab_material m = clab_default_material();
    m.mu = 10.0;
    clab_world_add_material(w, &m, NULL);
    clab_body_def d = clab_default_body_def();
    d.shape = clab_sphere(R);
    d.mass = 1.0;
    clab_world_add_body(w, &d, NULL);
    d.r = clab_v3(2.0 * R - DELTA, 0.0, 0.0);
    d.omega = clab_v3(0.0, 0.0, W0);
    clab_world_add_body(w, &d, NULL);
    clab_options o;
    undamped_hooke(&o);
    clab_options_set(&o, "lever", lever, NULL);
    clab_options_set(&o, "history_start", start, NULL);
    clab_error err;
    clab_error_clear(&err);
    clab_sim *s = clab_sim_create(w, "penalty", H, &o, &err);
    int rc = s ? clab_sim_step(s, &err) : CLAB_EINVAL;
    if (!rc && s->contacts.n == 1) {
        clab_vec3 f;
        clab_sim_forces(s, &f);
        *Ft = s->contacts.c[0].a == 0 ? hypot(f.y, f.z) : -1.0;
        *wa = w->bodies[0].wbar.z;
        *wb = w->bodies[1].wbar.z;
    } else {
        tap_diag("setup failed: %s", err.msg);
        rc = CLAB_EINVAL;
    }
    clab_sim_destroy(s);
    clab_options_free(&o);
    clab_world_destroy(w);
    return rc;
}

static void levers(void)
{
    const double J = 0.4 * R * R;
    const char *lever[2] = {"contact", "surface"};
    const double L[2] = {R - 0.5 * DELTA, R};
    for (int i = 0; i < 2; i++) {
        double Ft, wa, wb;
        if (spin_step(lever[i], "slip", &Ft, &wa, &wb)) {
            tap_ok(0, "lever=%s: one step", lever[i]);
            continue;
        }
        double want = KT * H * L[i] * W0;
        char what[128];
        snprintf(what, sizeof what, "lever=%s: |F_t| = k_t h L w0, L = %g", lever[i], L[i]);
        tap_rel(Ft, want, 1e-12, what);
        snprintf(what, sizeof what, "lever=%s: wbar_z(b) = w0 - h L F_t / J", lever[i]);
        tap_rel(wb, W0 - H * L[i] * want / J, 1e-12, what);
        snprintf(what, sizeof what, "lever=%s: wbar_z(a) = -h L F_t / J", lever[i]);
        tap_rel(wa, -H * L[i] * want / J, 1e-12, what);
    }
    double Ft, wa, wb;
    if (spin_step("surface", "zero", &Ft, &wa, &wb) == CLAB_OK)
        tap_ok(Ft == 0.0 && wa == 0.0 && wb == W0,
               "history_start=zero: no tangential force at the first step (F_t = %g, spins %g, %g)", Ft, wa, wb);
    else
        tap_ok(0, "history_start=zero: one step");
}

/* history_turn: sphere b (R = 0.5, m = 1) slides over a fixed sphere a at vx = 1, overlap 0.01,
 * no gravity, h = 1e-2, k_t = 400, mu = 10: the normal tilts between the two steps by theta,
 * cos theta = n1 . n2. Step 1 is the same under both options; at step 2 the turned history is
 * |d1| t2 (keep) or |d1| cos theta t2 (project), and the slip h v_t2 added to it is the same, so
 * F_t(keep) - F_t(project) = -k_t |d1| (1 - cos theta) t2, of length |F_t1| (1 - n1 . n2). */
static int slide_two_steps(const char *turn, double *Ft1, clab_vec3 *n1, clab_vec3 *n2, clab_vec3 *Ft2)
{
    clab_world_def wd = {{0.0, 0.0, 0.0}};
    clab_world *w = clab_world_create(&wd);
    clab_material m = clab_default_material();
    m.mu = 10.0;
    clab_world_add_material(w, &m, NULL);
    clab_body_def d = clab_default_body_def();
    d.shape = clab_sphere(0.5);
    d.mass = 1.0;
    d.fixed = 1;
    clab_world_add_body(w, &d, NULL);
    d.fixed = 0;
    d.r = clab_v3(0.0, 0.0, 1.0 - 0.01);
    d.rdot = clab_v3(1.0, 0.0, 0.0);
    clab_world_add_body(w, &d, NULL);
    clab_options o;
    undamped_hooke(&o);
    clab_options_set(&o, "history_turn", turn, NULL);
    clab_error err;
    clab_error_clear(&err);
    clab_sim *s = clab_sim_create(w, "penalty", 1e-2, &o, &err);
    int rc = s ? CLAB_OK : CLAB_EINVAL;
    clab_vec3 f;
    for (int step = 0; step < 2 && !rc; step++) {
        rc = clab_sim_step(s, &err);
        if (!rc && s->contacts.n != 1) rc = CLAB_EINVAL;
        if (rc) break;
        const clab_contact *c = &s->contacts.c[0];
        clab_sim_forces(s, &f);
        if (step == 0) {
            *Ft1 = hypot(f.y, f.z);
            *n1 = c->n;
        } else {
            *n2 = c->n;
            clab_vec3 tu, tw;
            clab_contact_frame(c, &tu, &tw);
            *Ft2 = clab_v3_add(clab_v3_scale(tu, f.y), clab_v3_scale(tw, f.z));
        }
    }
    if (rc) tap_diag("slide: %s", err.msg);
    if (s) {
        clab_options meta;
        clab_options_init(&meta);
        clab_sim_meta(s, &meta);
        const char *v = clab_options_get(&meta, "history_turn");
        if (!v || strcmp(v, turn) != 0) rc = CLAB_EINVAL;
        clab_options_free(&meta);
    }
    clab_sim_destroy(s);
    clab_options_free(&o);
    clab_world_destroy(w);
    return rc;
}

static void turns(void)
{
    double Fk1, Fp1;
    clab_vec3 nk1, nk2, np1, np2, Fk2, Fp2;
    int rk = slide_two_steps("keep", &Fk1, &nk1, &nk2, &Fk2), rp = slide_two_steps("project", &Fp1, &np1, &np2, &Fp2);
    if (rk || rp) {
        tap_ok(0, "history_turn: two steps of sliding, option in the metadata");
        return;
    }
    tap_ok(Fk1 == Fp1 && Fk1 > 0.0, "history_turn: the first step is the same (|F_t| = %g)", Fk1);
    double want = Fk1 * (1.0 - clab_v3_dot(nk1, nk2));
    tap_ok(want > 1e-6 * Fk1, "history_turn: the normal tilts (1 - cos theta = %g)", 1.0 - clab_v3_dot(nk1, nk2));
    /* the two runs are identical up to the turn: same n2, force difference |F_t1| (1 - cos theta) */
    tap_rel(clab_v3_norm(clab_v3_sub(Fk2, Fp2)), want, 1e-6,
            "history_turn=project: F_t shorter by |F_t1| (1 - n1.n2) at the second step");
    tap_ok(clab_v3_norm(Fp2) < clab_v3_norm(Fk2), "history_turn=project: |F_t| %.12g < keep %.12g",
           clab_v3_norm(Fp2), clab_v3_norm(Fk2));
    /* the helper itself: plain projection */
    clab_vec3 n = clab_v3_normalize(clab_v3(1.0, 0.0, 1.0));
    clab_vec3 r = clab_penalty_project_history(clab_v3(2.0, 1.0, 0.0), n);
    tap_ok(fabs(clab_v3_dot(r, n)) < 1e-15 && fabs(r.x - 1.0) < 1e-15 && fabs(r.y - 1.0) < 1e-15 &&
               fabs(r.z + 1.0) < 1e-15,
           "clab_penalty_project_history((2,1,0), (1,0,1)/sqrt 2) = (1, 1, -1)");
}

/* sphere_orientation=off: a sphere of isotropic inertia keeps its Euler parameters, and its
 * motion is the same as with them advanced. Reason (doc/penalty.md): its levers lie on the
 * contact normals, and its world angular velocity A(e) wbar changes only by h/J tau whatever
 * e is (a turn about wbar leaves wbar fixed). So positions, velocities and A(e) wbar of every
 * body agree between the two runs to rounding: measured 4e-15 relative after 400 steps here,
 * tolerance 1e-10 (a torque turned by the wrong frame changes the spins by 1e-2 and more).
 * The scene: a sphere rolling and spinning on a floor plane, a second sphere landing on it off
 * center, a turned box sliding on the floor, and a sphere with an anisotropic inertia (turned
 * start), which, like the box, must still turn. */
static clab_world *orientation_world(void)
{
    clab_world_def wd = {{0.0, 0.0, -9.81}};
    clab_world *w = clab_world_create(&wd);
    clab_material m = clab_default_material();
    m.mu = 0.4;
    clab_world_add_material(w, &m, NULL);
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    clab_world_add_body(w, &d, NULL); /* 0: the floor z = 0 */
    d = clab_default_body_def();
    d.shape = clab_sphere(0.1);
    d.r = clab_v3(0.0, 0.0, 0.0995);
    d.rdot = clab_v3(0.5, 0.1, 0.0);
    d.omega = clab_v3(1.0, -3.0, 7.0);
    clab_world_add_body(w, &d, NULL); /* 1: rolling, spinning */
    d.r = clab_v3(0.03, 0.01, 0.297);
    d.rdot = clab_v3(0.5, 0.1, -0.5);
    d.omega = clab_v3(-2.0, 0.0, 4.0);
    d.e = clab_q_normalize(clab_q(1.0, 0.3, 0.2, -0.1)); /* not the identity: its torque is turned */
    clab_world_add_body(w, &d, NULL); /* 2: lands on 1 off center */
    d.e = clab_q_identity();
    d.shape = clab_box(0.05, 0.04, 0.03);
    d.r = clab_v3(0.5, 0.0, 0.0299);
    d.rdot = clab_v3(-0.3, 0.0, 0.0);
    d.omega = clab_v3(0.0, 0.0, 2.0);
    d.e = clab_q_normalize(clab_q(1.0, 0.0, 0.0, 0.3));
    clab_world_add_body(w, &d, NULL); /* 3: a box sliding and turning */
    d.shape = clab_sphere(0.08);
    d.r = clab_v3(-0.5, 0.0, 0.0799);
    d.rdot = clab_v3(0.2, 0.0, 0.0);
    d.omega = clab_v3(3.0, 1.0, 0.0);
    d.e = clab_q_normalize(clab_q(1.0, 0.2, -0.1, 0.0));
    clab_world_add_body(w, &d, NULL); /* 4: a sphere whose inertia is made anisotropic below */
    w->bodies[4].J.z *= 1.5;
    return w;
}

static int orientation_run(const char *mode, clab_world **out)
{
    clab_world *w = orientation_world();
    clab_options o;
    clab_options_init(&o);
    clab_options_set(&o, "model", "hooke", NULL);
    clab_options_set(&o, "kn", "2e6", NULL); /* contact time pi sqrt(m_eff/k_n) = 3.2 ms: 2 bounces in 8 ms */
    clab_options_set(&o, "integrator", "verlet", NULL);
    if (mode) clab_options_set(&o, "sphere_orientation", mode, NULL);
    clab_error err;
    clab_error_clear(&err);
    clab_sim *s = clab_sim_create(w, "penalty", 2e-5, &o, &err);
    int rc = s ? CLAB_OK : CLAB_EINVAL;
    for (int k = 0; k < 400 && !rc; k++) rc = clab_sim_step(s, &err);
    if (rc) tap_diag("sphere_orientation=%s: %s", mode ? mode : "(default)", err.msg);
    clab_sim_destroy(s);
    clab_options_free(&o);
    *out = w;
    return rc;
}

static double vrel(clab_vec3 a, clab_vec3 b)
{
    return clab_v3_norm(clab_v3_sub(a, b)) / fmax(clab_v3_norm(b), 1e-300);
}

static void orientation(void)
{
    clab_world *wi = NULL, *wo = NULL, *w0 = orientation_world();
    int ri = orientation_run("integrate", &wi), ro = orientation_run("off", &wo);
    tap_ok(!ri && !ro, "sphere_orientation=integrate and off: 400 steps");
    if (!ri && !ro) {
        double dr = 0.0, dv = 0.0, dw = 0.0;
        for (size_t i = 1; i < wi->nbodies; i++) {
            const clab_body *a = &wo->bodies[i], *b = &wi->bodies[i];
            dr = fmax(dr, vrel(a->r, b->r));
            dv = fmax(dv, vrel(a->rdot, b->rdot));
            dw = fmax(dw, vrel(clab_body_omega_world(a), clab_body_omega_world(b)));
        }
        tap_ok(dr < 1e-10 && dv < 1e-10 && dw < 1e-10,
               "sphere_orientation=off: r, rdot, A(e) wbar as with it integrated (rel %.2g, %.2g, %.2g < 1e-10)", dr,
               dv, dw);
        tap_ok(clab_v3_norm(wi->bodies[1].rdot) > 0.1 && clab_v3_norm(clab_v3_sub(wi->bodies[2].rdot,
                                                                                 w0->bodies[2].rdot)) > 0.1,
               "the scene moves: sphere 1 rolls, sphere 2 bounced off it");
        tap_ok(memcmp(&wo->bodies[1].e, &w0->bodies[1].e, sizeof(clab_quat)) == 0 &&
                   memcmp(&wo->bodies[2].e, &w0->bodies[2].e, sizeof(clab_quat)) == 0,
               "sphere_orientation=off: the isotropic spheres keep their Euler parameters");
        tap_ok(memcmp(&wi->bodies[1].e, &w0->bodies[1].e, sizeof(clab_quat)) != 0,
               "sphere_orientation=integrate: they turn");
        double de3 = fabs(wo->bodies[3].e.e3 - wi->bodies[3].e.e3), de4 = fabs(wo->bodies[4].e.e1 - wi->bodies[4].e.e1);
        tap_ok(fabs(wo->bodies[3].e.e3 - w0->bodies[3].e.e3) > 1e-3 && de3 < 1e-10,
               "sphere_orientation=off: the box still turns, as with it integrated (|d e3| = %.2g)", de3);
        tap_ok(fabs(wo->bodies[4].e.e1 - w0->bodies[4].e.e1) > 1e-3 && de4 < 1e-10,
               "sphere_orientation=off: the anisotropic sphere still turns (|d e1| = %.2g)", de4);
    }
    clab_world_destroy(wi);
    clab_world_destroy(wo);
    clab_world_destroy(w0);
    /* a bad value is refused with the allowed ones */
    clab_world *w = orientation_world();
    clab_options o;
    clab_options_init(&o);
    clab_options_set(&o, "sphere_orientation", "sometimes", NULL);
    clab_error err;
    clab_error_clear(&err);
    clab_sim *s = clab_sim_create(w, "penalty", 1e-5, &o, &err);
    tap_ok(!s && strstr(err.msg, "sphere_orientation") && strstr(err.msg, "integrate"),
           "sphere_orientation=sometimes refused: %s", err.msg);
    clab_sim_destroy(s);
    clab_options_free(&o);
    clab_world_destroy(w);
}

int main(void)
{
    caps();
    levers();
    turns();
    orientation();
    return tap_done();
}
