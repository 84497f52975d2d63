/* validate_checks.c: the single-contact analytic checks of contactlab validate, for any method
 * of the experiment table (the closed forms of lib/analytic.c; experiments bowling, incline and
 * drop run them at length):
 *   slip to roll   a solid ball (R = 0.1085 m, 7 kg) launched sliding at v0 = 3 m/s, mu = 0.2:
 *                  the slip ends at t* = 2 v0/(7 mu g) and the ball rolls at 5 v0/7;
 *   incline        a box (0.2 x 0.2 x 0.1 m, 1 kg) on a slope, mu = 0.5: tan theta = 0.4 holds
 *                  (moves less than 1 mm in 0.5 s), tan theta = 0.6 slides at
 *                  a = g (sin theta - mu cos theta);
 *   resting        the ball at rest on the plane carries F_n = m g;
 *   lift-off       the ball's normal speed after the first sliding step: mu v_T under the
 *                  relaxed cone of the Tasora-Anitescu CCP (seed 000, Eq. (5d)), 0 under exact
 *                  Coulomb (De Saxce), a penalty contact or any method that does not declare
 *                  friction=relaxed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

#define G 9.81
#define BALL_R 0.1085
#define BALL_M 7.0

static clab_world *flat_world(double mu, double theta, clab_error *err)
{
    clab_world *w = clab_world_create(NULL); /* gravity (0, 0, -9.81) */
    if (!w) return NULL;
    clab_material m = clab_default_material();
    m.mu = mu;
    m.E = 1e8;
    m.nu = 0.3;
    m.cor = 0.5;
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    d.e = clab_q_axis_angle(clab_v3(0.0, 1.0, 0.0), theta);
    snprintf(d.name, sizeof d.name, "plane");
    if (clab_world_add_material(w, &m, err) < 0 || clab_world_add_body(w, &d, err) < 0) {
        clab_world_destroy(w);
        return NULL;
    }
    return w;
}

/* the overlap a compliant method rests at under load F on a Hertz contact of radius R (0 for
 * rigid methods, which rest touching) */
static double rest_overlap(const xp_method *m, double R, double F)
{
    if (m->kind == XP_KIND_CCP) return 0.0;
    const double Estar = clab_analytic_hertz_Estar(1e8, 0.3, 1e8, 0.3);
    return clab_analytic_hertz_rest_overlap(clab_analytic_hertz_K(Estar, R), F);
}

static double step_of(const val_opts *o, const xp_method *m)
{
    return m->kind == XP_KIND_CCP ? o->hdvi : 1e-5;
}

/* the ball resting on the plane at its static overlap, moving at v; its sim (NULL: printed) */
static clab_sim *ball_sim(const val_opts *o, const xp_method *m, double mu, clab_vec3 v)
{
    clab_error err;
    clab_world *w = flat_world(mu, 0.0, &err);
    if (!w) return NULL;
    clab_body_def d = clab_default_body_def();
    d.shape = clab_sphere(BALL_R);
    d.mass = BALL_M;
    d.r = clab_v3(0.0, 0.0, BALL_R - rest_overlap(m, BALL_R, BALL_M * G));
    d.rdot = v;
    snprintf(d.name, sizeof d.name, "ball");
    if (clab_world_add_body(w, &d, &err) < 0) {
        fprintf(stderr, "contactlab validate: %s\n", err.msg);
        clab_world_destroy(w);
        return NULL;
    }
    clab_sim *s = xp_sim(&o->c, w, m, step_of(o, m), NULL);
    if (!s) clab_world_destroy(w);
    return s;
}

static void sim_free(clab_sim *s)
{
    clab_world *w = s->world;
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* slip to roll, the resting ball's load, and the lift-off speed */
static int ball(const val_opts *o, const xp_method *m, val_table *t)
{
    const double mu = 0.2, v0 = 3.0, h = step_of(o, m);
    clab_error err;
    clab_sim *s = ball_sim(o, m, mu, clab_v3(0.0, 0.0, 0.0));
    if (!s) return -1;
    clab_world *w = s->world;
    clab_vec3 *f = NULL;
    size_t fcap = 0;
    int rc = 0;
    /* at rest for 0.2 s: the contact carries m g */
    double Fn = 0.0;
    while (rc == 0 && w->t < 0.2 - 0.5 * h) {
        if (clab_sim_step(s, &err) || xp_forces(s, &f, &fcap)) rc = -1;
        Fn = 0.0;
        for (size_t i = 0; rc == 0 && i < s->contacts.n; i++) Fn += f[i].x;
    }
    /* a rigid method's F_n is its impulse over h; a compliant one still rings a little */
    if (rc == 0)
        val_add(t, "resting", m->name, "ball on a plane, 0.2 s", "F_n/(m g) [-]", 1.0, Fn / (BALL_M * G), 1e-3, 0,
                "static equilibrium");
    else
        fprintf(stderr, "contactlab validate: %s\n", err.msg);
    sim_free(s);
    free(f);
    if (rc) return rc;
    /* launched sliding without spin */
    if (!(s = ball_sim(o, m, mu, clab_v3(v0, 0.0, 0.0)))) return -1;
    w = s->world;
    const clab_body *b = &w->bodies[1];
    const double t0 = w->t, tstar = clab_analytic_roll_time(v0, mu, G);
    double t_slip = NAN;
    int first = 1;
    while (rc == 0 && w->t - t0 < 2.0 * tstar) {
        if (clab_sim_step(s, &err)) {
            fprintf(stderr, "contactlab validate: %s\n", err.msg);
            rc = -1;
            break;
        }
        const double slip = b->rdot.x - BALL_R * clab_body_omega_world(b).y;
        if (first) {
            const int rel = val_sim_relaxed(s);
            val_add(t, "lift-off", m->name, "ball sliding at 3 m/s", "v_n after one step [m/s]",
                    rel ? mu * slip : 0.0, b->rdot.z, 1e-3 * mu * v0, 1,
                    rel ? "relaxed cone (Tasora-Anitescu CCP): u_n = mu |u_t|" : "no relaxation: stays on the plane");
            first = 0;
        }
        if (isnan(t_slip) && fabs(slip) < 1e-3 * v0) t_slip = w->t - t0;
    }
    if (rc == 0) {
        val_add(t, "slip-roll", m->name, "v0 = 3 m/s, mu = 0.2", "slip end t* [s]", tstar, t_slip, 0.02, 0,
                "t* = 2 v0/(7 mu g)");
        val_add(t, "slip-roll", m->name, "v0 = 3 m/s, mu = 0.2", "roll speed [m/s]", clab_analytic_roll_speed(v0),
                b->rdot.x, 0.01, 0, "5 v0/7 (solid sphere)");
    }
    sim_free(s);
    return rc;
}

/* a box on a slope tan theta: its travel along the slope over [0.2, 0.5] s and its
 * acceleration there */
static int box(const val_opts *o, const xp_method *m, double tan_th, double *ds, double *a)
{
    const double mu = 0.5, th = atan(tan_th), h = step_of(o, m), hx = 0.1, hz = 0.05;
    clab_error err;
    clab_world *w = flat_world(mu, th, &err);
    if (!w) return -1;
    const clab_quat e = clab_q_axis_angle(clab_v3(0.0, 1.0, 0.0), th);
    const clab_vec3 n = clab_q_rotate(e, clab_v3(0, 0, 1)), down = clab_q_rotate(e, clab_v3(1, 0, 0));
    clab_body_def d = clab_default_body_def();
    d.shape = clab_box(hx, hx, hz);
    d.mass = 1.0;
    d.e = e;
    d.r = clab_v3_scale(n, hz - rest_overlap(m, hz, G * cos(th) / 4.0)); /* four corners, R* = hz */
    snprintf(d.name, sizeof d.name, "box");
    if (clab_world_add_body(w, &d, &err) < 0) {
        clab_world_destroy(w);
        return -1;
    }
    clab_sim *s = xp_sim(&o->c, w, m, h, NULL);
    if (!s) {
        clab_world_destroy(w);
        return -1;
    }
    const clab_body *b = &w->bodies[1];
    double s1 = 0.0, v1 = 0.0;
    int rc = 0;
    while (w->t < 0.5 - 0.5 * h) {
        if (clab_sim_step(s, &err)) {
            fprintf(stderr, "contactlab validate: %s\n", err.msg);
            rc = -1;
            break;
        }
        if (fabs(w->t - 0.2) < 0.5 * h) s1 = clab_v3_dot(b->r, down), v1 = clab_v3_dot(b->rdot, down);
    }
    *ds = clab_v3_dot(b->r, down) - s1;
    *a = (clab_v3_dot(b->rdot, down) - v1) / 0.3;
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

int val_checks(const val_opts *o, const xp_method *m, val_table *t)
{
    if (m->regularized && !xp_user_option(&o->c, m, "stiffness") && !xp_user_option(&o->c, m, "compliance")) {
        char why[120];
        snprintf(why, sizeof why, "needs stiffness= (--opt %s:stiffness=K)", m->name);
        val_add_note(t, "checks", m->name, "every check", "-", NAN, NAN, VAL_NA, why);
        return 0;
    }
    if (ball(o, m, t)) return -1;
    double ds, a;
    if (box(o, m, 0.4, &ds, &a)) return -1;
    val_add(t, "incline", m->name, "tan theta = 0.4 < mu = 0.5", "travel 0.2..0.5 s [m]", 0.0, ds, 1e-3, 1,
            "sticks (Coulomb: tan theta <= mu)");
    if (box(o, m, 0.6, &ds, &a)) return -1;
    val_add(t, "incline", m->name, "tan theta = 0.6 > mu = 0.5", "acceleration [m/s^2]",
            clab_analytic_incline_accel(G, atan(0.6), 0.5), a, 0.02, 0, "a = g (sin theta - mu cos theta)");
    return 0;
}
