/* test_driven: driven bodies, applied loads and the force on a body (clab_motion.h,
 * clab_sim_body_force), under the penalty and the DVI backends.
 *
 * 1. A sphere at rest on a belt (a driven plane moving at U along x), mu = 0.3: the belt
 *    slides under the sphere, friction mu m g speeds its center up and spins it backwards,
 *    v = mu g t, omega R = -5/2 mu g t, until the contact point moves with the belt,
 *    v - omega R = U, at t* = 2 U/(7 mu g); then it rolls on the belt at v = 2 U/7 with
 *    omega R = -5 U/7. This is the slip-to-roll of a ball launched at -U on a fixed plane
 *    (clab_analytic_roll_time/_speed) seen from the belt: v = U + 5 (-U)/7. Penalty (Hooke,
 *    k_n = 1e7 N/m, h = 1e-5 s): speeds within 1%, t* within 1%; DVI (h = 1e-4 s): speeds
 *    within 1%, t* within 2% (the step's granularity and the CCP's relaxed cone). The belt's
 *    position is U t to rounding.
 * 2. A driven box follows a table (piecewise linear v_x, omega_z): its center is the exact
 *    integral of the table (1e-12 m, the step driver integrates the table's mean over each
 *    step) and its angle the integral of omega_z (1e-10 rad), at steps that straddle the
 *    table's breakpoints; the table's value and mean by hand.
 * 3. A free sphere without gravity under an applied force F and torque T: rdot = F/m t and
 *    omega = T/J t to 1e-12 relative (the explicit and the half-implicit Euler are exact for a
 *    constant force), both backends.
 * 4. A sphere resting on a plane: the contact force on it (clab_sim_body_force) is m g up,
 *    on the plane m g down, within 1e-6 (penalty, damped at rest) and 1e-9 (DVI, its CCP
 *    solved to tol = 1e-12 m/s); the torques zero; clab_sim_body_forces gives the same. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clab_analytic.h"
#include "clab_motion.h"
#include "clab_sim.h"
#include "contact_scene.h"
#include "tap.h"

static const double g = 9.81;

static clab_world *make_world(double mu, clab_vec3 gravity)
{
    clab_world_def wd = clab_default_world_def();
    wd.gravity = gravity;
    clab_world *w = clab_world_create(&wd);
    clab_material m = clab_default_material();
    m.mu = mu;
    m.cor = 0.5;
    m.E = 2e8;
    clab_world_add_material(w, &m, NULL);
    return w;
}

static int step_to(clab_sim *s, double t_end)
{
    clab_error err;
    while (s->world->t < t_end - 0.5 * s->h)
        if (clab_sim_step(s, &err)) {
            tap_diag("step at t = %g: %s", s->world->t, err.msg);
            return 1;
        }
    return 0;
}

/* 1. a sphere on a belt */
static void belt(const char *backend)
{
    const int pen = strcmp(backend, "penalty") == 0;
    const double R = 0.05, mu = 0.3, U = 1.0, kn = 1e7, h = pen ? 1e-5 : 1e-4;
    clab_world *w = make_world(mu, clab_v3(0, 0, -g));
    int belt_i = add_plane(w, clab_q_identity());
    const double m = 1000.0 * 4.0 / 3.0 * M_PI * R * R * R;
    int ball = add_sphere(w, R, 1000.0, clab_v3(0, 0, pen ? R - m * g / kn : R), clab_v3(0, 0, 0), clab_v3(0, 0, 0));
    clab_error err;
    clab_motion mo = clab_motion_constant(clab_v3(U, 0, 0), clab_v3(0, 0, 0));
    if (clab_world_set_motion(w, (size_t)belt_i, &mo, &err)) tap_diag("%s", err.msg);
    const char *const pen_opts[] = {"model=hooke", "kn=1e7", NULL}, *const dvi_opts[] = {NULL};
    clab_sim *s = sim_with(w, backend, h, pen ? pen_opts : dvi_opts);
    if (!s) return;
    const double t_want = clab_analytic_roll_time(U, mu, g), v_want = U + clab_analytic_roll_speed(-U);
    double t_roll = -1.0, vsum = 0.0, wsum = 0.0;
    long nsum = 0;
    while (w->t < 0.2 - 0.5 * h) {
        if (clab_sim_step(s, &err)) {
            tap_diag("%s", err.msg);
            break;
        }
        const clab_body *b = &w->bodies[ball];
        const double slip = b->rdot.x - R * clab_body_omega_world(b).y - U; /* contact point - belt */
        if (t_roll < 0.0 && fabs(slip) < 1e-3 * U) t_roll = w->t;
        if (w->t > 0.15) {
            vsum += b->rdot.x;
            wsum += clab_body_omega_world(b).y;
            nsum++;
        }
    }
    char what[128];
    snprintf(what, sizeof what, "%s belt: rolling at v = 2 U/7 (1%%, mean over 0.15..0.2 s)", backend);
    tap_rel(vsum / (double)nsum, v_want, 0.01, what);
    snprintf(what, sizeof what, "%s belt: omega R = -5 U/7 once rolling (1%%)", backend);
    tap_rel(wsum / (double)nsum * R, -(U - v_want), 0.01, what);
    snprintf(what, sizeof what, "%s belt: slip ends at t* = 2 U/(7 mu g) (%s)", backend, pen ? "1%" : "2%");
    tap_rel(t_roll, t_want, pen ? 0.01 : 0.02, what);
    snprintf(what, sizeof what, "%s belt: the belt is at x = U t", backend);
    tap_close(w->bodies[belt_i].r.x, U * w->t, 1e-12, what);
    tap_ok(w->bodies[belt_i].fixed && w->bodies[belt_i].rdot.x == U, "%s belt: the belt keeps its velocity", backend);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* the exact integral of a piecewise-linear column c of the table from 0 to t (t >= t_0 = 0) */
static double table_integral(const double *tab, size_t nr, int c, double t)
{
    double sum = 0.0;
    for (size_t r = 0; r + 1 < nr && tab[7 * r] < t; r++) {
        const double t0 = tab[7 * r], t1 = fmin(tab[7 * (r + 1)], t), s = (t1 - t0) / (tab[7 * (r + 1)] - t0);
        const double v0 = tab[7 * r + c], v1 = v0 + s * (tab[7 * (r + 1) + c] - v0);
        sum += 0.5 * (t1 - t0) * (v0 + v1);
    }
    const double tl = tab[7 * (nr - 1)];
    if (t > tl) sum += (t - tl) * tab[7 * (nr - 1) + c];
    return sum;
}

/* 2. a box that follows a table */
static void table(const char *backend)
{
    const double tab[] = {0.0,   0.0, 0.0, 0.0, 0.0, 0.0, 0.0,  /* t vx vy vz wx wy wz */
                          0.013, 0.5, 0.0, 0.0, 0.0, 0.0, 2.0,  /* ramps up */
                          0.0271, 0.5, 0.0, 0.0, 0.0, 0.0, 2.0, /* holds */
                          0.04,  -0.25, 0.0, 0.0, 0.0, 0.0, -1.0};
    const size_t nr = 4;
    clab_world *w = make_world(0.3, clab_v3(0, 0, -g));
    int box = add_sphere(w, 0.05, 1000.0, clab_v3(0, 0, 1.0), clab_v3(0, 0, 0), clab_v3(0, 0, 0));
    w->bodies[box].shape = clab_box(0.1, 0.05, 0.02); /* (only its motion matters) */
    clab_motion mo = {CLAB_MOTION_TABLE, {0, 0, 0}, {0, 0, 0}, tab, nr, {{0, 0, 0}, 0, 0, 0, 0}};
    clab_error err;
    if (clab_world_set_motion(w, (size_t)box, &mo, &err)) tap_diag("%s", err.msg);
    const char *const opts[] = {NULL};
    clab_sim *s = sim_with(w, backend, 1e-3 / 0.7, opts); /* steps straddle the breakpoints */
    if (!s) return;
    double ex = 0.0, eth = 0.0;
    while (w->t < 0.06) {
        if (clab_sim_step(s, &err)) {
            tap_diag("%s", err.msg);
            break;
        }
        const clab_body *b = &w->bodies[box];
        ex = fmax(ex, fabs(b->r.x - table_integral(tab, nr, 1, w->t)));
        const double th = 2.0 * atan2(b->e.e3, b->e.e0); /* a turn about z */
        eth = fmax(eth, fabs(th - table_integral(tab, nr, 6, w->t)));
    }
    char what[128];
    snprintf(what, sizeof what, "%s table: x(t) is the integral of v_x (largest error over %ld steps)", backend,
             w->step);
    tap_close(ex, 0.0, 1e-12, what);
    snprintf(what, sizeof what, "%s table: the angle is the integral of omega_z", backend);
    tap_close(eth, 0.0, 1e-10, what);
    tap_ok(w->bodies[box].r.z == 1.0 && w->bodies[box].r.y == 0.0, "%s table: y, z unchanged (no gravity on it)",
           backend);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    double v[6];
    clab_motion_table_at(tab, nr, 0.0065, v);
    tap_close(v[0], 0.25, 1e-15, "table: value halfway up the ramp");
    clab_motion_table_at(tab, nr, 1.0, v);
    tap_ok(v[0] == -0.25 && v[5] == -1.0, "table: the last row's value after it");
    clab_motion_table_mean(tab, nr, 0.01, 0.02, v);
    /* (integral 0.01..0.013 of the ramp + 0.007 x 0.5) / 0.01 */
    const double ramp = 0.5 * 0.003 * (0.5 * 0.01 / 0.013 + 0.5);
    tap_close(v[0], (ramp + 0.007 * 0.5) / 0.01, 1e-14, "table: mean over a step across a breakpoint");
}

/* 3. an applied force and torque */
static void load(const char *backend)
{
    clab_world *w = make_world(0.3, clab_v3(0, 0, 0));
    const double R = 0.1;
    int ball = add_sphere(w, R, 1000.0, clab_v3(0, 0, 0), clab_v3(0, 0, 0), clab_v3(0, 0, 0));
    const clab_vec3 F = clab_v3(3.0, -1.0, 2.0), T = clab_v3(0.0, 0.0, 0.5);
    clab_error err;
    if (clab_world_set_load(w, (size_t)ball, F, T, &err)) tap_diag("%s", err.msg);
    const char *const opts[] = {NULL};
    clab_sim *s = sim_with(w, backend, 1e-3, opts);
    if (!s) return;
    step_to(s, 0.5);
    const clab_body *b = &w->bodies[ball];
    const double m = b->m, J = b->J.x, t = w->t;
    char what[128];
    snprintf(what, sizeof what, "%s load: rdot.x = F_x t/m", backend);
    tap_rel(b->rdot.x, F.x / m * t, 1e-12, what);
    snprintf(what, sizeof what, "%s load: rdot.z = F_z t/m", backend);
    tap_rel(b->rdot.z, F.z / m * t, 1e-12, what);
    snprintf(what, sizeof what, "%s load: omega_z = T_z t/J", backend);
    tap_rel(clab_body_omega_world(b).z, T.z / J * t, 1e-12, what);
    clab_sim_destroy(s);
    tap_ok(clab_world_set_load(w, 0, F, T, &err) == CLAB_OK, "load: replaced");
    clab_world *c = clab_world_clone(w);
    tap_ok(c && c->loads && c->loads[0].F.x == F.x, "load: a clone keeps it");
    clab_world_destroy(c);
    clab_world_destroy(w);
}

/* 4. the force on a resting sphere */
static void resting(const char *backend)
{
    const int pen = strcmp(backend, "penalty") == 0;
    const double R = 0.05, kn = 1e7;
    clab_world *w = make_world(0.3, clab_v3(0, 0, -g));
    int plane = add_plane(w, clab_q_identity());
    const double m = 1000.0 * 4.0 / 3.0 * M_PI * R * R * R;
    int ball = add_sphere(w, R, 1000.0, clab_v3(0, 0, pen ? R - m * g / kn : R), clab_v3(0, 0, 0), clab_v3(0, 0, 0));
    const char *const pen_opts[] = {"model=hooke", "kn=1e7", NULL}, *const dvi_opts[] = {"tol=1e-12", NULL};
    clab_sim *s = sim_with(w, backend, pen ? 1e-5 : 1e-3, pen ? pen_opts : dvi_opts);
    if (!s) return;
    step_to(s, 0.05);
    clab_vec3 F, T, Fp, Tp, Fall[2], Tall[2];
    clab_error err;
    clab_sim_body_force(s, (size_t)ball, &F, &T, &err);
    clab_sim_body_force(s, (size_t)plane, &Fp, &Tp, &err);
    clab_sim_body_forces(s, Fall, Tall, &err);
    const double tol = pen ? 1e-6 : 1e-9;
    char what[128];
    snprintf(what, sizeof what, "%s resting: the contact force on the sphere is m g up", backend);
    tap_rel(F.z, m * g, tol, what);
    snprintf(what, sizeof what, "%s resting: on the plane m g down", backend);
    tap_rel(Fp.z, -m * g, tol, what);
    tap_ok(fabs(F.x) + fabs(F.y) < tol * m * g && clab_v3_norm(T) < tol * m * g * R,
           "%s resting: no sideways force, no torque (|T| %.3g N m)", backend, clab_v3_norm(T));
    tap_ok(Fall[ball].z == F.z && Fall[plane].z == Fp.z && Tall[ball].y == T.y,
           "%s resting: clab_sim_body_forces gives the same", backend);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* the API's refusals */
static void refusals(void)
{
    clab_world *w = make_world(0.3, clab_v3(0, 0, -g));
    int plane = add_plane(w, clab_q_identity());
    int ball = add_sphere(w, 0.1, 1000.0, clab_v3(0, 0, 1), clab_v3(0, 0, 0), clab_v3(0, 0, 0));
    clab_error err;
    const double bad[] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0};
    clab_motion mo = {CLAB_MOTION_TABLE, {0, 0, 0}, {0, 0, 0}, bad, 2, {{0, 0, 0}, 0, 0, 0, 0}};
    tap_ok(clab_world_set_motion(w, (size_t)ball, &mo, &err) == CLAB_EINVAL && strstr(err.msg, "row 1"),
           "refused: a table whose t does not increase (%s)", err.msg);
    tap_ok(clab_world_motion(w, (size_t)ball) == NULL && !w->bodies[ball].fixed, "refused: the body unchanged");
    tap_ok(clab_world_set_body_velocity(w, (size_t)ball, clab_v3(1, 0, 0), clab_v3(0, 0, 0), &err) == CLAB_EINVAL,
           "refused: the velocity of a body that is not driven (%s)", err.msg);
    tap_ok(clab_world_set_load(w, (size_t)plane, clab_v3(1, 0, 0), clab_v3(0, 0, 0), &err) == CLAB_EINVAL,
           "refused: a load on a fixed body (%s)", err.msg);
    clab_motion sv = clab_motion_constant(clab_v3(0, 0, 0), clab_v3(0, 0, 0));
    sv.kind = CLAB_MOTION_SERVO;
    sv.servo = (clab_servo){clab_v3(0, 0, -1), 1e3, 0.0, 1e-6, 0.1};
    tap_ok(clab_world_set_motion(w, (size_t)ball, &sv, &err) == CLAB_EINVAL && strstr(err.msg, "area"),
           "refused: a servo of area 0 (%s)", err.msg);
    clab_world_destroy(w);
}

int main(void)
{
    const char *const backends[] = {"penalty", "dvi"};
    for (int k = 0; k < 2; k++) {
        belt(backends[k]);
        table(backends[k]);
        load(backends[k]);
        resting(backends[k]);
    }
    refusals();
    return tap_done();
}
