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
 *      relative (Coulomb's law with a constant normal force). */
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

int main(void)
{
    elastic_bounce();
    newton_restitution();
    slip_to_roll();
    resting("sphere", clab_sphere(0.1), 0.1, 3.0);
    resting("box", clab_box(0.2, 0.1, 0.05), 0.05, 5.0);
    incline(20.0, 0.5);
    incline(30.0, 0.5);
    return tap_done();
}
