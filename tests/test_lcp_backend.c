/* test_lcp_backend.c: the LCP backend (lcp/), the Stewart-Trinkle / Anitescu-Potra step with a
 * polyhedral friction cone, through clab_sim with h = 1e-3 s, g = 9.81 m/s^2, m = 1 kg:
 *   - a box (4 corner contacts) at rest on a plane: sum of F_n = m g within 1e-6 relative after
 *     0.5 s, tangential force 0, for both solvers and Lemke warm-started from pgs' basis
 *     (lemke_start=pgs; pgs stops at 1e-9 m/s here, Lemke is exact), and regularized
 *     (lemke_reg=1e-6: the box settles where Phi/h = -eps c_n, so the sum is m g again);
 *   - the same box under gravity tilted by theta, the slope's downhill direction at angle alpha
 *     from an edge of the k-gon: the friction it can take up the slope is mu m g cos(theta)
 *     r(alpha), r(alpha) = cos(pi/k) / cos(alpha - pi/k) for alpha in [0, 2 pi/k] (the k-gon's
 *     radius in that direction), so it sticks for tan(theta) < mu r(alpha) and slides above:
 *     tested at 0.97 and 1.03 of the threshold for k = 4 and 8, alpha on an edge, on a bisector and
 *     between, with both solvers on some; sliding along an edge or a bisector the box keeps its
 *     direction and accelerates at g (sin theta - mu cos theta r(alpha)), within 1e-6 relative;
 *   - a pendulum on a distance joint and on a spherical joint: the joint holds to 2 h^2 g (the
 *     position update's miss of the circle, h^2 omega^2 L / 2 <= h^2 g), Lemke (joints eliminated
 *     by Cholesky) and pgs agree to 1e-9 m;
 *   - bad options are refused naming the key (lemke_reg above 1 too); Lemke refuses an LCP beyond lemke_max_unknowns. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "add_body.h"
#include "clab_sim.h"
#include "tap.h"

#define H 1e-3
#define G 9.81

static clab_sim *sim(clab_world *w, const char *opts, clab_error *err)
{
    clab_options o;
    clab_options_init(&o);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", opts ? opts : "");
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) clab_options_parse(&o, tok, "test", err);
    clab_sim *s = clab_sim_create(w, "lcp", H, &o, err);
    clab_options_free(&o);
    return s;
}

static int run(clab_sim *s, int n, clab_error *err)
{
    for (int k = 0; k < n; k++)
        if (clab_sim_step(s, err)) return 0;
    return 1;
}

/* a box of half extents 0.1, 0.1, 0.05 m resting on a plane, gravity g_vec */
static clab_world *box_world(clab_vec3 g_vec, double mu, int *box)
{
    clab_world_def wd = clab_default_world_def();
    wd.gravity = g_vec;
    clab_world *w = clab_world_create(&wd);
    w->materials[0].mu = mu;
    add(w, clab_plane(), clab_v3(0.0, 0.0, 0.0), clab_q_identity(), 1);
    *box = add(w, clab_box(0.1, 0.1, 0.05), clab_v3(0.0, 0.0, 0.05), clab_q_identity(), 0);
    return w;
}

static void forces(const clab_sim *s, double *Fn, double *Ft)
{
    const size_t n = s->contacts.n;
    clab_vec3 *f = malloc((n ? n : 1) * sizeof *f);
    clab_sim_forces(s, f);
    *Fn = 0.0;
    double fu = 0.0, fw = 0.0;
    for (size_t i = 0; i < n; i++) *Fn += f[i].x, fu += f[i].y, fw += f[i].z;
    *Ft = hypot(fu, fw);
    free(f);
}

static void at_rest(const char *opts)
{
    clab_error err;
    int b;
    clab_world *w = box_world(clab_v3(0.0, 0.0, -G), 0.5, &b);
    clab_sim *s = sim(w, opts, &err);
    int ok = s && run(s, 500, &err);
    if (!ok) tap_diag("%s", err.msg);
    double Fn = 0.0, Ft = 1.0;
    if (ok) forces(s, &Fn, &Ft);
    tap_ok(ok && s->contacts.n == 4 && fabs(Fn - G) <= 1e-6 * G && Ft <= 1e-9 * G,
           "box at rest (%s): %zu contacts, sum F_n = %.10f N = m g within 1e-6, |F_t| = %.2g N", opts,
           ok ? s->contacts.n : 0, Fn, Ft);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* the box on a slope tan(theta) = ratio mu r(alpha), downhill at alpha from edge 0 (u = +y,
 * w = n x u = -x for n = +z: the friction up the slope along cos(alpha) u + sin(alpha) w) */
static void slope(int k, double alpha, double ratio, const char *solver)
{
    const double mu = 0.5, pk = M_PI / k;
    const double a0 = fmod(alpha, 2.0 * pk);
    const double r = cos(pk) / cos(a0 - pk), tan_th = ratio * mu * r, th = atan(tan_th);
    /* friction direction (cos alpha, sin alpha) in (u, w) = (-sin alpha, cos alpha) in (x, y);
     * downhill is its opposite */
    const clab_vec3 down = clab_v3(sin(alpha), -cos(alpha), 0.0);
    const clab_vec3 g_vec = clab_v3(G * sin(th) * down.x, G * sin(th) * down.y, -G * cos(th));
    char opts[128];
    snprintf(opts, sizeof opts, "directions=%d solver=%s tol=1e-9", k, solver);
    clab_error err;
    int b;
    clab_world *w = box_world(g_vec, mu, &b);
    clab_sim *s = sim(w, opts, &err);
    const double T = 0.5;
    int ok = s && run(s, (int)(T / H + 0.5), &err);
    if (!ok) tap_diag("%s", err.msg);
    const clab_body *B = &w->bodies[b];
    const double along = B->r.x * down.x + B->r.y * down.y, side = B->r.x * down.y - B->r.y * down.x;
    const double v_along = B->rdot.x * down.x + B->rdot.y * down.y;
    const double a_th = G * (sin(th) - mu * cos(th) * r); /* sliding: Coulomb on the k-gon */
    const char *where = a0 == 0.0 ? "an edge" : fabs(a0 - pk) < 1e-12 ? "a bisector" : "between";
    if (ratio < 1.0) {
        tap_ok(ok && hypot(B->r.x, B->r.y) <= 1e-6,
               "k = %d, %s, slope at %.2f of tan theta_c = mu r = %.5f (alpha %.1f deg, %s): sticks, moved %.2g m <= 1e-6",
               k, solver, ratio, mu * r, alpha * 180 / M_PI, where, ok ? hypot(B->r.x, B->r.y) : -1.0);
    } else if (a0 == 0.0 || fabs(a0 - pk) < 1e-12) {
        /* a straight slide: v = a (T - h) after the first step's start from rest (v_1 = a h) */
        const double v_th = a_th * T;
        tap_ok(ok && fabs(v_along - v_th) <= 1e-6 * v_th + 1e-9 && fabs(side) <= 1e-9 * along,
               "k = %d, %s, slope at %.2f of tan theta_c (alpha %.1f deg, %s): slides straight, v = %.9f m/s = "
               "g (sin - mu r cos) t = %.9f within 1e-6, sideways %.2g m",
               k, solver, ratio, alpha * 180 / M_PI, where, v_along, v_th, side);
    } else {
        tap_ok(ok && along > 1e-3, "k = %d, %s, slope at %.2f of tan theta_c (alpha %.1f deg, %s): slides, %.4f m > 1 mm",
               k, solver, ratio, alpha * 180 / M_PI, where, along);
    }
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* a sphere on a joint from a fixed sphere, released horizontally */
static void pendulum(clab_joint_type type)
{
    double r_end[2][3];
    double err_max[2] = {0.0, 0.0};
    const char *solver[2] = {"solver=pgs tol=1e-12", "solver=lemke"};
    int ok = 1;
    for (int q = 0; q < 2; q++) {
        clab_world_def wd = clab_default_world_def();
        wd.gravity = clab_v3(0.0, 0.0, -G);
        clab_world *w = clab_world_create(&wd);
        const int a = add(w, clab_sphere(0.02), clab_v3(0.0, 0.0, 1.0), clab_q_identity(), 1);
        const int b = add(w, clab_sphere(0.02), clab_v3(0.3, 0.0, 1.0), clab_q_identity(), 0);
        clab_joint J = {type, a, b, clab_v3(0.0, 0.0, 0.0), clab_v3(0.0, 0.0, 0.0), 0.3};
        if (type == CLAB_JOINT_SPHERICAL) J.sb = clab_v3(-0.3, 0.0, 0.0);
        clab_error err;
        ok = ok && clab_world_add_joint(w, &J, &err) >= 0;
        clab_sim *s = ok ? sim(w, solver[q], &err) : NULL;
        for (int k = 0; s && k < 500; k++) {
            if (clab_sim_step(s, &err)) {
                tap_diag("%s", err.msg);
                ok = 0;
                break;
            }
            const clab_vec3 pa = clab_body_point(&w->bodies[a], J.sa), pb = clab_body_point(&w->bodies[b], J.sb);
            const double g = type == CLAB_JOINT_DISTANCE ? fabs(clab_v3_norm(clab_v3_sub(pb, pa)) - 0.3)
                                                         : clab_v3_norm(clab_v3_sub(pb, pa));
            err_max[q] = fmax(err_max[q], g);
        }
        ok = ok && s;
        r_end[q][0] = w->bodies[b].r.x, r_end[q][1] = w->bodies[b].r.y, r_end[q][2] = w->bodies[b].r.z;
        clab_sim_destroy(s);
        clab_world_destroy(w);
    }
    const double d = hypot(hypot(r_end[0][0] - r_end[1][0], r_end[0][1] - r_end[1][1]), r_end[0][2] - r_end[1][2]);
    /* the constraint holds at v+ (with g/h); the position update h v+ of a point on a lever
     * turning at omega misses the circle by h^2 omega^2 L / 2 <= h^2 g (omega^2 L <= 2 g) */
    const double bound = 2.0 * H * H * G;
    tap_ok(ok && err_max[0] <= bound && err_max[1] <= bound && d <= 1e-9,
           "%s joint pendulum, 0.5 s: violation %.2g m (pgs), %.2g m (lemke) <= 2 h^2 g = %.2g m; end positions agree "
           "to %.2g m",
           clab_joint_name(type), err_max[0], err_max[1], bound, d);
}

static void refusals(void)
{
    clab_error err;
    int b;
    clab_world *w = box_world(clab_v3(0.0, 0.0, -G), 0.5, &b);
    clab_sim *s = sim(w, "directions=2", &err);
    tap_ok(!s && strstr(err.msg, "directions"), "directions=2 refused: %s", s ? "(accepted)" : err.msg);
    clab_sim_destroy(s);
    s = sim(w, "solver=simplex", &err);
    tap_ok(!s && strstr(err.msg, "solver"), "solver=simplex refused: %s", s ? "(accepted)" : err.msg);
    clab_sim_destroy(s);
    s = sim(w, "solver=lemke lemke_reg=2", &err);
    tap_ok(!s && strstr(err.msg, "lemke_reg"), "lemke_reg=2 refused: %s", s ? "(accepted)" : err.msg);
    clab_sim_destroy(s);
    s = sim(w, "solver=lemke lemke_max_unknowns=20", &err);
    const int rc = s ? clab_sim_step(s, &err) : -1;
    tap_ok(s && rc != CLAB_OK && strstr(err.msg, "solver=pgs") && w->step == 0,
           "4 contacts x 10 unknowns > lemke_max_unknowns = 20: the step fails, the world unchanged: %s", err.msg);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

int main(void)
{
    at_rest("solver=pgs tol=1e-9");
    at_rest("solver=lemke");
    at_rest("solver=lemke lemke_start=pgs tol=1e-9");
    at_rest("solver=lemke lemke_reg=1e-6"); /* 12 contact rows on 6 velocities: N rank deficient */
    const double pi = M_PI;
    const struct { int k; double alpha; const char *solver; } cases[] = {
        {4, 0.0, "pgs"}, {4, pi / 4, "pgs"}, {4, pi / 8, "pgs"}, {8, 0.0, "pgs"},
        {8, pi / 8, "pgs"}, {8, 3 * pi / 16 + pi / 2, "pgs"}, {4, pi / 4, "lemke"}, {4, pi / 8 + pi, "lemke"},
        {6, pi / 6, "lemke"}, {4, pi / 8 + pi, "lemke lemke_start=pgs"}, {6, pi / 6, "lemke lemke_start=pgs"}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        slope(cases[c].k, cases[c].alpha, 0.97, cases[c].solver);
        slope(cases[c].k, cases[c].alpha, 1.03, cases[c].solver);
    }
    pendulum(CLAB_JOINT_DISTANCE);
    pendulum(CLAB_JOINT_SPHERICAL);
    refusals();
    return tap_done();
}
