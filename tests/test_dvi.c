/* test_dvi.c: the DVI time stepper (dvi/dvi_backend.c, Eq. (5) of seed 000) on scenes with
 * known answers, through clab_sim (collision -> backend step), h = 1 ms, g = 9.81 m/s^2.
 *
 *   1. a box resting on a plane (dropped 5 mm with a tilt, settled 1 s): the normal forces sum
 *      to m g to 1e-6 relative (statics; solver tol 1e-11 m/s, so the impulse error is
 *      ~ m tol, 1e-9 of m g h), and it is at rest;
 *   2. a sphere dropped 0.4 m comes to rest (inelastic impact, seed 000 Sect. 3) with
 *      |Phi| below 10 h tol (no penetration, no hovering): Phi/h removes the gap in one step,
 *      so what is left is one step of solver error, h tol, times the block scaling (< 10);
 *   3. a box on an incline, mu = 0.3: sticks for tan(theta) < mu (slides less than 1e-6 m in
 *      1 s), slides for tan(theta) > mu with acceleration g (sin theta - mu cos theta) within
 *      1% (Coulomb's law; the relaxation floats the box on the numerical gap mu h v_T of
 *      seed 000 Sect. 3, rising at the constant rate mu a, which leaves the normal impulse
 *      m g cos(theta) h and hence the acceleration unchanged);
 *   4. the relaxation's signature, seed 000 Sect. 3: a sphere sliding at v_T on a plane leaves
 *      one step with normal velocity v_n = mu v_T(l+1) (to solver tolerance, 1e-9 m/s at tol
 *      1e-11), and, solving the 1-contact CCP by hand (J = 2/5 m R^2, so the contact-point
 *      compliance along the slip is 7/(2m)), v_T(l+1) = (v_T - 7/2 mu g h)/(1 + 7/2 mu^2);
 *   5. a pendulum on a spherical joint, and one on a distance joint, L = 1 m, swung from
 *      horizontal for 10 s: |r - pivot| stays within 1e-4 m of L (position drift per step is
 *      O(h^2 v^2/L) = 2e-5 m and the stabilization term g/h corrects it the next step).
 * Every check runs with each solver (apgd, gs, jacobi, bb). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ccp_solver.h"
#include "clab_sim.h"
#include "contact_scene.h"
#include "tap.h"

#define G 9.81
#define H 1e-3

static const char *solver_names[] = {"apgd", "gs", "jacobi", "bb"};

static clab_sim *make_sim(clab_world *w, const char *solver, const char *tol, const char *extra)
{
    clab_options o;
    clab_error err;
    clab_options_init(&o);
    clab_options_set(&o, "solver", solver, NULL);
    clab_options_set(&o, "tol", tol, NULL);
    clab_options_set(&o, "max_iter", "100000", NULL);
    if (extra) clab_options_parse(&o, extra, NULL, &err);
    clab_sim *s = clab_sim_create(w, "dvi", H, &o, &err);
    if (!s) tap_diag("sim: %s", err.msg);
    clab_options_free(&o);
    return s;
}

static int run(clab_sim *s, double t)
{
    clab_error err;
    long n = lround(t / s->h);
    for (long k = 0; k < n; k++)
        if (clab_sim_step(s, &err)) {
            tap_diag("step %ld: %s", k, err.msg);
            return 1;
        }
    return 0;
}

static int add_material(clab_world *w, double mu)
{
    clab_material m = clab_default_material();
    snprintf(m.name, sizeof m.name, "mu%g", mu);
    m.mu = mu;
    return clab_world_add_material(w, &m, NULL);
}

/* 1. box resting on a plane */
static void box_rest(const char *solver)
{
    clab_world *w = clab_world_create(NULL);
    add_plane_of(w, clab_q_identity(), 0);
    clab_body_def d = clab_default_body_def();
    d.shape = clab_box(0.2, 0.15, 0.05);
    d.mass = 3.0;
    d.r = clab_v3(0, 0, 0.055);
    d.e = clab_q_axis_angle(clab_v3(1, 1, 0), 0.02);
    int ib = clab_world_add_body(w, &d, NULL);
    clab_sim *s = make_sim(w, solver, "1e-11", NULL);
    int bad = run(s, 1.0);
    double fz = 0.0;
    clab_vec3 f[16];
    if (s->contacts.n <= 16) clab_sim_forces(s, f);
    for (size_t i = 0; i < s->contacts.n && i < 16; i++)
        fz += f[i].x * s->contacts.c[i].n.z; /* F_n along n (n = +z from the plane to the box) */
    const clab_body *b = &w->bodies[ib];
    tap_ok(!bad && s->contacts.n == 4, "%s box rest: 4 corner contacts (got %zu)", solver, s->contacts.n);
    tap_rel(fz, 3.0 * G, 1e-6, "box rest: sum of normal forces = m g [N] (rel 1e-6)");
    double v = clab_v3_norm(b->rdot) + clab_v3_norm(b->wbar) * 0.2;
    tap_ok(v < 1e-8, "%s box rest: at rest, |v| + 0.2 m |w| = %.3g < 1e-8 m/s", solver, v);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* 2. dropped sphere */
static void sphere_drop(const char *solver)
{
    clab_world *w = clab_world_create(NULL);
    add_plane_of(w, clab_q_identity(), 0);
    clab_body_def d = clab_default_body_def();
    d.shape = clab_sphere(0.1);
    d.r = clab_v3(0, 0, 0.5);
    int ib = clab_world_add_body(w, &d, NULL);
    double tol = 1e-6;
    clab_sim *s = make_sim(w, solver, "1e-6", NULL);
    int bad = run(s, 1.5);
    const clab_body *b = &w->bodies[ib];
    double pen = 0.1 - b->r.z;
    tap_ok(!bad && fabs(pen) < 10 * H * tol, "%s sphere drop: at rest on the plane, |Phi| = %.3g m < 10 h tol = %.3g m",
           solver, fabs(pen), 10 * H * tol);
    tap_ok(fabs(b->rdot.z) < 10 * tol, "%s sphere drop: |v_z| = %.3g < 10 tol m/s", solver, fabs(b->rdot.z));
    clab_solver_stats st;
    s->type->stats(s->self, &st);
    tap_ok(st.maxiter_hits == 0 && st.solves > 0, "%s sphere drop: %ld solves, %ld iteration-limit hits", solver,
           st.solves, st.maxiter_hits);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* 3. box on an incline at angle theta; returns the mean acceleration along the slope over
 * [0.2 s, 1.0 s] and the displacement over 1 s */
static void incline(const char *solver, double theta, double mu, double *accel, double *disp)
{
    clab_world *w = clab_world_create(NULL);
    int m = add_material(w, mu);
    clab_quat e = clab_q_axis_angle(clab_v3(0, 1, 0), theta);
    add_plane_of(w, e, m);
    clab_vec3 nrm = clab_q_rotate(e, clab_v3(0, 0, 1));
    clab_vec3 down = clab_q_rotate(e, clab_v3(1, 0, 0)); /* (cos, 0, -sin): down the slope */
    clab_body_def d = clab_default_body_def();
    d.shape = clab_box(0.1, 0.1, 0.05);
    d.mass = 2.0;
    d.e = e;
    d.r = clab_v3_scale(nrm, 0.05);
    d.material = m;
    int ib = clab_world_add_body(w, &d, NULL);
    clab_sim *s = make_sim(w, solver, "1e-9", NULL);
    clab_vec3 r0 = w->bodies[ib].r;
    run(s, 0.2);
    double v1 = clab_v3_dot(w->bodies[ib].rdot, down), t1 = w->t;
    run(s, 0.8);
    double v2 = clab_v3_dot(w->bodies[ib].rdot, down), t2 = w->t;
    *accel = (v2 - v1) / (t2 - t1);
    *disp = clab_v3_dot(clab_v3_sub(w->bodies[ib].r, r0), down);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* 4. one step of a sliding sphere */
static void liftoff(const char *solver)
{
    double mu = 0.5, vT = 5.0, R = 0.1;
    clab_world *w = clab_world_create(NULL);
    int m = add_material(w, mu);
    add_plane_of(w, clab_q_identity(), m);
    clab_body_def d = clab_default_body_def();
    d.shape = clab_sphere(R);
    d.r = clab_v3(0, 0, R);
    d.rdot = clab_v3(vT, 0, 0);
    d.material = m;
    int ib = clab_world_add_body(w, &d, NULL);
    clab_sim *s = make_sim(w, solver, "1e-11", NULL);
    clab_body before = w->bodies[ib];
    run(s, H);
    clab_body b = w->bodies[ib];
    b.e = before.e; /* velocity of the contact point with the frame of q(l), as D_i uses */
    clab_vec3 vp = clab_body_point_velocity(&b, clab_q_rotate_inv(b.e, clab_v3(0, 0, -R)));
    double vn = vp.z, vt = sqrt(vp.x * vp.x + vp.y * vp.y);
    tap_ok(s->contacts.n == 1 && fabs(vn - mu * vt) <= 1e-9,
           "%s lift-off: v_n = %.12g = mu v_T = %.12g after one step (|diff| %.2g <= 1e-9 m/s)", solver, vn, mu * vt,
           fabs(vn - mu * vt));
    double want = (vT - 3.5 * mu * G * H) / (1.0 + 3.5 * mu * mu);
    tap_rel(vt, want, 1e-9, "lift-off: v_T(l+1) = (v_T - 7/2 mu g h)/(1 + 7/2 mu^2) [m/s]");
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* 5. pendulum on a joint, released from horizontal */
static void pendulum(const char *solver, clab_joint_type type)
{
    double L = 1.0;
    clab_world *w = clab_world_create(NULL);
    clab_body_def p = clab_default_body_def();
    p.shape = clab_sphere(0.01);
    p.fixed = 1;
    p.r = clab_v3(0, 0, 2);
    int ip = clab_world_add_body(w, &p, NULL);
    clab_body_def d = clab_default_body_def();
    d.shape = clab_sphere(0.05);
    d.r = clab_v3(L, 0, 2);
    int ib = clab_world_add_body(w, &d, NULL);
    clab_joint j = {type, ip, ib, clab_v3(0, 0, 0), clab_v3(0, 0, 0), L};
    if (type == CLAB_JOINT_SPHERICAL) j.sb = clab_v3(-L, 0, 0), j.length = 0.0; /* pivot point in the bob's frame */
    clab_world_add_joint(w, &j, NULL);
    clab_sim *s = make_sim(w, solver, "1e-8", NULL);
    clab_error err;
    double worst = 0.0, zmin = 2.0;
    int bad = 0;
    for (long k = 0; k < 10000 && !bad; k++) {
        bad = clab_sim_step(s, &err);
        double len = clab_v3_norm(clab_v3_sub(w->bodies[ib].r, w->bodies[ip].r));
        worst = fmax(worst, fabs(len - L));
        zmin = fmin(zmin, w->bodies[ib].r.z);
    }
    tap_ok(!bad && worst < 1e-4, "%s %s pendulum: | |r - pivot| - L | <= %.3g m < 1e-4 m over 10 s", solver,
           clab_joint_name(type), worst);
    tap_ok(zmin < 2.0 - 0.99 * L, "%s %s pendulum: it swings through the bottom (z_min = %.4f m)", solver,
           clab_joint_name(type), zmin);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

int main(void)
{
    for (int k = 0; k < 4; k++) {
        const char *sv = solver_names[k];
        box_rest(sv);
        sphere_drop(sv);
        double mu = 0.3, a, x;
        double th_stick = atan(mu) - 5.0 * M_PI / 180.0, th_slide = atan(mu) + 10.0 * M_PI / 180.0;
        incline(sv, th_stick, mu, &a, &x);
        tap_ok(fabs(x) < 1e-6, "%s incline %.2f deg < atan(mu): sticks, moved %.3g m in 1 s (< 1e-6)", sv,
               th_stick * 180 / M_PI, x);
        incline(sv, th_slide, mu, &a, &x);
        double want = G * (sin(th_slide) - mu * cos(th_slide));
        tap_rel(a, want, 0.01, "incline atan(mu) + 10 deg: slides with a = g (sin - mu cos) [m/s^2] (1%)");
        liftoff(sv);
        pendulum(sv, CLAB_JOINT_SPHERICAL);
        pendulum(sv, CLAB_JOINT_DISTANCE);
    }
    return tap_done();
}
