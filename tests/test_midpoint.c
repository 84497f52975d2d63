/* test_midpoint.c: the midpoint backend (midpoint/, Solfec's scheme, Eq. (9)-(13) of
 * "Constraints") on the problems whose answers are known in closed form:
 *   1. an elastic ball (e = 1) bouncing on a plane keeps its maximum height within 1e-6
 *      (relative) over 100 bounces. Free flight under constant gravity is exact under the
 *      midpoint rule (z^{t+h} = z^t + h v^t - g h^2/2), and the impact step maps
 *      (z, v) to (z, -v) (U_n^{t+h} = -U_n^t, q^{t+h} = q^{t+h/2} - (h/2) v^t = q^t), so the
 *      apex of each flight, z + v_z^2/(2 g), is the first one to rounding;
 *   2. Newton's law with e = 0.5: the rebound speed is e times the impact speed (1e-12);
 *   3. a ball launched sliding without spin ends rolling at 5 v0/7 (the slip-to-roll law,
 *      lib/clab_analytic.h): the contact impulses pass through the contact point, so the
 *      angular momentum about it, m v R + J omega, is kept step by step, and a sticking
 *      contact gives v = omega R: 5 v0/7 within 1e-9 relative (the Gauss-Seidel tolerance
 *      1e-9 m/s against v0 = 3 m/s), the slip ending within one step of t* = 2 v0/(7 mu g);
 *   4. a resting sphere and a resting box (4 contacts) on a plane: sum of R_n = m g h every
 *      step, within 1e-9 relative (Gauss-Seidel to tol = 1e-12 m/s: the error of sum R_n is
 *      about m tol, 1e-10 of m g h at h = 1e-3 s);
 *   5. a box on an incline (gravity tilted by theta): at tan theta < mu it stays (speed below
 *      1e-9 m/s after 1 s); above, it slides at a = g (sin theta - mu cos theta) within 1e-9
 *      relative (Coulomb's law with a constant normal force);
 *   6. oblique impacts against the rigid-body solution with Newton's e and Coulomb's mu (Maw,
 *      Barber and Fawcett 1976, rigid limit; Brach 1991; doc/validation.md): J_n = m* (1 + e)
 *      |U_n|, the slip s of the surface points changes by B J_t, B = 1/m_a + 1/m_b + R_a^2/I_a +
 *      R_b^2/I_b; it stops (J_t = -s/B) when |s| <= mu J_n B, else J_t = -mu J_n sign(s). A
 *      sphere without spin on a plane sticks for tan theta <= 7/2 mu (1 + e) and leaves with
 *      v_t' = 5/7 v_t and its contact point at rest; sliding, R omega' = 5/2 mu (1 + e) v_n.
 *      Within 1e-12 of the speed (the single contact's local solve is exact: linear when it
 *      sticks), at a step that catches the impact h |U_n|/2 deep (0.7 to 2 mm on a radius of
 *      10 mm), so each sphere's lever must reach its surface, not the overlap's midpoint. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_analytic.h"
#include "clab_sim.h"
#include "tap.h"

#define G 9.81

static clab_world *world_g(clab_vec3 g)
{
    clab_world_def wd = clab_default_world_def();
    wd.gravity = g;
    return clab_world_create(&wd);
}

static int body(clab_world *w, clab_shape sh, clab_vec3 r, double m, int fixed)
{
    clab_error err;
    clab_body_def d = clab_default_body_def();
    d.shape = sh;
    d.r = r;
    d.mass = m;
    d.fixed = fixed;
    int k = clab_world_add_body(w, &d, &err);
    if (k < 0) {
        tap_diag("add body: %s", err.msg);
        exit(99);
    }
    return k;
}

static clab_sim *make(clab_world *w, double h, const char *opts)
{
    clab_error err;
    clab_options o;
    clab_options_init(&o);
    if (opts) clab_options_parse(&o, opts, "test", &err);
    clab_sim *s = clab_sim_create(w, "midpoint", h, &o, &err);
    clab_options_free(&o);
    if (!s) {
        tap_diag("midpoint: create: %s", err.msg);
        exit(99);
    }
    return s;
}

static int step(clab_sim *s)
{
    clab_error err;
    if (clab_sim_step(s, &err)) {
        tap_diag("midpoint: step: %s", err.msg);
        return 0;
    }
    return 1;
}

static double sum_fn(const clab_sim *s)
{
    clab_vec3 f[16];
    if (s->contacts.n > 16) return NAN;
    clab_sim_forces(s, f);
    double sum = 0.0;
    for (size_t i = 0; i < s->contacts.n; i++) sum += f[i].x;
    return sum;
}

static void elastic_bounce(void)
{
    clab_world *w = world_g(clab_v3(0, 0, -G));
    w->materials[0].cor = 1.0;
    w->materials[0].mu = 0.3;
    const double R = 0.1, z0 = 0.6;
    body(w, clab_plane(), clab_v3(0, 0, 0), 1.0, 1);
    const int b = body(w, clab_sphere(R), clab_v3(0, 0, z0), 1.0, 0);
    clab_sim *s = make(w, 1e-3, NULL);
    int ok = 1, bounces = 0;
    double worst = 0.0, vz_prev = 0.0, zmin = z0;
    while (ok && bounces < 100 && w->t < 100.0) {
        ok = step(s);
        const clab_body *B = &w->bodies[b];
        zmin = fmin(zmin, B->r.z);
        if (vz_prev < 0.0 && B->rdot.z > 0.0) { /* a bounce: the apex of the next flight */
            bounces++;
            const double apex = B->r.z + B->rdot.z * B->rdot.z / (2.0 * G);
            worst = fmax(worst, fabs(apex - z0) / (z0 - R));
        }
        vz_prev = B->rdot.z;
    }
    tap_ok(ok && bounces == 100 && worst <= 1e-6,
           "elastic bounce (e = 1, h = 1e-3 s): %d bounces in %.3g s, apex z + v^2/(2g) within %.2g of the drop "
           "height (relative) <= 1e-6; lowest gap at the end of a step %.3g m",
           bounces, w->t, worst, zmin - R);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

static void newton_restitution(void)
{
    clab_world *w = world_g(clab_v3(0, 0, -G));
    w->materials[0].cor = 0.5;
    body(w, clab_plane(), clab_v3(0, 0, 0), 1.0, 1);
    const int b = body(w, clab_sphere(0.1), clab_v3(0, 0, 0.3), 1.0, 0);
    clab_sim *s = make(w, 1e-3, NULL);
    int ok = 1;
    double vin = 0.0, vout = 0.0;
    while (ok && w->t < 1.0 && vout == 0.0) {
        const double v = w->bodies[b].rdot.z;
        ok = step(s);
        if (v < 0.0 && w->bodies[b].rdot.z > 0.0) vin = v, vout = w->bodies[b].rdot.z;
    }
    tap_ok(ok && vin < 0.0 && fabs(vout + 0.5 * vin) <= 1e-12 * fabs(vin),
           "Newton's impact law, e = 0.5: rebound %.12g m/s = -e x impact %.12g m/s within 1e-12", vout, vin);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

static void slip_to_roll(void)
{
    clab_world *w = world_g(clab_v3(0, 0, -G));
    const double mu = 0.3, v0 = 3.0, R = 0.1, h = 1e-3;
    w->materials[0].mu = mu;
    body(w, clab_plane(), clab_v3(0, 0, 0), 1.0, 1);
    const int b = body(w, clab_sphere(R), clab_v3(0, 0, R), 7.0, 0);
    w->bodies[b].rdot = clab_v3(v0, 0, 0);
    clab_sim *s = make(w, h, NULL);
    int ok = 1;
    double t_roll = -1.0;
    while (ok && w->t < 1.0 - 0.5 * h) {
        ok = step(s);
        const clab_body *B = &w->bodies[b];
        const double slip = B->rdot.x - clab_body_omega_world(B).y * R; /* v_x - omega_y R */
        if (t_roll < 0.0 && fabs(slip) <= 1e-9 * v0) t_roll = w->t;
    }
    const clab_body *B = &w->bodies[b];
    const double v = B->rdot.x, want = clab_analytic_roll_speed(v0), ts = clab_analytic_roll_time(v0, mu, G);
    tap_ok(ok && fabs(v - want) <= 1e-9 * want && fabs(clab_body_omega_world(B).y * R - want) <= 1e-9 * want,
           "slip to roll: v = %.12g m/s, omega R = %.12g m/s, 5 v0/7 = %.12g m/s within 1e-9 relative", v,
           clab_body_omega_world(B).y * R, want);
    tap_ok(ok && fabs(t_roll - ts) <= h,
           "slip to roll: rolling from t = %.6g s, t* = 2 v0/(7 mu g) = %.6g s within one step h = %g s", t_roll, ts, h);
    tap_ok(ok && fabs(B->r.z - R) <= 1e-12, "slip to roll: the ball stays on the plane, |z - R| = %.2g m <= 1e-12",
           fabs(B->r.z - R));
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

static void resting(const char *name, clab_shape sh, double zc, double m)
{
    clab_world *w = world_g(clab_v3(0, 0, -G));
    body(w, clab_plane(), clab_v3(0, 0, 0), 1.0, 1);
    const int b = body(w, sh, clab_v3(0, 0, zc), m, 0);
    clab_sim *s = make(w, 1e-3, "tol=1e-12");
    int ok = 1;
    double worst = 0.0;
    for (int k = 0; ok && k < 1000; k++) {
        ok = step(s);
        worst = fmax(worst, fabs(sum_fn(s) - m * G) / (m * G)); /* sum R_n / h = m g */
    }
    const double drift = fabs(w->bodies[b].r.z - zc);
    clab_solver_stats st;
    s->type->stats(s->self, &st);
    tap_ok(ok && worst <= 1e-9 && drift <= 1e-12 && st.maxiter_hits == 0,
           "resting %s (%zu contacts): sum of R_n = m g h every step of 1000, worst %.2g <= 1e-9 relative; z drift "
           "%.2g m <= 1e-12; %ld Gauss-Seidel sweeps in all, %ld iteration-limit hits",
           name, s->contacts.n, worst, drift, st.total_iterations, st.maxiter_hits);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

static void incline(double theta_deg, double mu)
{
    const double th = theta_deg * M_PI / 180.0;
    clab_world *w = world_g(clab_v3(G * sin(th), 0, -G * cos(th)));
    w->materials[0].mu = mu;
    body(w, clab_plane(), clab_v3(0, 0, 0), 1.0, 1);
    const int b = body(w, clab_box(0.1, 0.05, 0.05), clab_v3(0, 0, 0.05), 2.0, 0);
    clab_sim *s = make(w, 1e-3, NULL);
    int ok = 1;
    for (int k = 0; ok && k < 1000; k++) ok = step(s);
    const double v = w->bodies[b].rdot.x, t = w->t;
    if (tan(th) < mu) {
        tap_ok(ok && fabs(v) <= 1e-9 && fabs(w->bodies[b].rdot.y) <= 1e-9,
               "incline %.1f deg, tan theta = %.4f < mu = %.2f: the box stays, v = %.2g m/s after %.3g s", theta_deg,
               tan(th), mu, v, t);
    } else {
        const double a = G * (sin(th) - mu * cos(th));
        tap_ok(ok && fabs(v - a * t) <= 1e-9 * a * t,
               "incline %.1f deg, tan theta = %.4f > mu = %.2f: v = %.12g m/s = g (sin - mu cos) t = %.12g within 1e-9",
               theta_deg, tan(th), mu, v, a * t);
    }
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* the rigid-body oblique impact in the x-z plane, normal z, spins about y: sphere b (R_b, m_b)
 * above body a (a sphere R_a, m_a, or a fixed plane: m_a = INFINITY, R_a = 0); the velocities
 * after, in place (v: x, z; w: y) */
static void rigid_impact(double ma, double Ra, double va[2], double *wa, double mb, double Rb, double vb[2],
                         double *wb, double e, double mu)
{
    const double Ia = 0.4 * ma * Ra * Ra, Ib = 0.4 * mb * Rb * Rb;
    const double ima = isfinite(ma) ? 1.0 / ma : 0.0, iIa = isfinite(ma) && Ra > 0.0 ? 1.0 / Ia : 0.0;
    const double mstar = 1.0 / (ima + 1.0 / mb), B = ima + 1.0 / mb + Ra * Ra * iIa + Rb * Rb / Ib;
    const double Jn = mstar * (1.0 + e) * (va[1] - vb[1]);         /* on b, along +z */
    const double slip = (vb[0] - Rb * *wb) - (va[0] + Ra * *wa);     /* b's surface point - a's */
    const double Jt = fabs(slip) <= mu * Jn * B ? -slip / B : -mu * Jn * copysign(1.0, slip);
    vb[0] += Jt / mb, vb[1] += Jn / mb, *wb -= Rb * Jt / Ib;          /* torque (-R_b z) x (J_t x) */
    va[0] -= Jt * ima, va[1] -= Jn * ima, *wa -= Ra * Jt * iIa;       /* torque (R_a z) x (-J_t x) */
}

/* one impact under midpoint at h, gravity off; the lower body is a fixed plane when Ra = 0 */
static void oblique(const char *name, double Ra, double Rb, double va_z, double vb_x, double vb_z, double w,
                    double e, double mu, double h)
{
    clab_world *w_ = world_g(clab_v3(0, 0, 0));
    w_->materials[0].cor = e;
    w_->materials[0].mu = mu;
    const double m = 1.0, gap0 = 1e-6;
    const int a = Ra > 0.0 ? body(w_, clab_sphere(Ra), clab_v3(0, 0, 0), m, 0)
                           : body(w_, clab_plane(), clab_v3(0, 0, 0), 1.0, 1);
    const int b = body(w_, clab_sphere(Rb), clab_v3(0, 0, Ra + Rb + gap0), m, 0);
    w_->bodies[b].rdot = clab_v3(vb_x, 0, vb_z);
    w_->bodies[b].wbar = clab_v3(0, w, 0); /* the body frame is the world's at t = 0 */
    if (Ra > 0.0) w_->bodies[a].rdot = clab_v3(0, 0, va_z), w_->bodies[a].wbar = clab_v3(0, w, 0);
    double va[2] = {0.0, va_z}, vb[2] = {vb_x, vb_z}, wa = Ra > 0.0 ? w : 0.0, wb = w;
    rigid_impact(Ra > 0.0 ? m : INFINITY, Ra, va, &wa, m, Rb, vb, &wb, e, mu);
    clab_sim *s = make(w_, h, NULL);
    int ok = 1;
    for (int k = 0; ok && k < 10; k++) ok = step(s);
    const clab_body *A = &w_->bodies[a], *Bb = &w_->bodies[b];
    const double got[6] = {Bb->rdot.x, Bb->rdot.z, Rb * clab_body_omega_world(Bb).y, A->rdot.x, A->rdot.z,
                           Ra * clab_body_omega_world(A).y};
    const double want[6] = {vb[0], vb[1], Rb * wb, va[0], va[1], Ra * wa};
    const double scale = hypot(vb_x, vb_z - va_z) + Rb * fabs(w);
    double worst = 0.0;
    for (int i = 0; i < 6; i++) worst = fmax(worst, fabs(got[i] - want[i]));
    const double slip = (Bb->rdot.x - got[2]) - (A->rdot.x + got[5]);
    tap_ok(ok && worst <= 1e-12 * scale,
           "oblique impact, %s (e = %g, mu = %g, h = %g s): v_x' = %.12g, v_z' = %.12g, R omega' = %.12g m/s "
           "(rigid: %.12g, %.12g, %.12g), largest error %.2g <= 1e-12 x %.3g m/s; slip after %.3g m/s",
           name, e, mu, h, got[0], got[1], got[2], want[0], want[1], want[2], worst, scale, slip);
    clab_sim_destroy(s);
    clab_world_destroy(w_);
}

int main(void)
{
    elastic_bounce();
    newton_restitution();
    slip_to_roll();
    resting("sphere", clab_sphere(0.1), 0.1, 3.0);
    resting("box", clab_box(0.2, 0.1, 0.05), 0.05, 5.0);
    incline(20.0, 0.5);
    incline(30.0, 0.5);
    /* a sphere (R = 0.01 m) on a plane at 4 m/s, 30 deg from the normal: tan 30 = 0.58 <= 7/2
     * mu (1 + e) = 1.68, it sticks: v_t' = 5/7 v_t; at 70 deg (tan 2.75) it slides */
    oblique("sphere on a plane, 30 deg: sticks, v_t' = 5/7 v_t", 0.0, 0.01, 0.0, 4.0 * sin(M_PI / 6.0),
            -4.0 * cos(M_PI / 6.0), 0.0, 0.6, 0.4, 1e-3);
    oblique("sphere on a plane, 70 deg: slides", 0.0, 0.01, 0.0, 4.0 * sin(70.0 * M_PI / 180.0),
            -4.0 * cos(70.0 * M_PI / 180.0), 0.0, 0.6, 0.4, 1e-3);
    /* two spheres spinning at 100 rad/s about y, meeting at 2 m/s each: slip 2 R omega = 2 m/s
     * <= 7/2 mu (1 + e) v_n = 8.96 m/s, they stick (Chung and Ooi's test 7 in the stick regime) */
    oblique("two spheres spinning, sticks", 0.01, 0.01, 2.0, 0.0, -2.0, 100.0, 0.6, 0.4, 1e-3);
    return tap_done();
}
