/* test_hopper.c: contactlab hopper's parts (experiments/hopper_scene.c, hopper_fit.c):
 *  1. the Beverloo fit recovers C and k from flow rates made by the law itself;
 *  2. the flow rate of an exactly linear discharge is its slope, over the 20-80 % window;
 *  3. the discharge count: each sphere counted once, frozen (fixed, at rest) when counted;
 *  4. a discharge (penalty, a small hopper): discharged + remaining = N at every step and the
 *     counted spheres are exactly the frozen ones;
 *  5. a closed orifice holds its mass: the loose fill dropped onto the floor mesh with its
 *     orifice closed by a fan of triangles, flat and conical, under penalty and dvi, keeps every
 *     sphere center above the floor (no leak through the mesh's joints and vertices). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clab_sim.h"
#include "hopper.h"
#include "tap.h"

static hp_def small_def(int geometry, int n)
{
    hp_def d = {0};
    d.geometry = geometry;
    d.n = n;
    d.radius = 0.005;
    d.poly = 0.1;
    d.density = 2500.0;
    d.mu = d.mu_wall = 0.5;
    d.E = 1e6;
    d.nu = 0.3;
    d.cor = 0.5;
    d.width = 10 * 0.01;
    d.half_angle = 30.0 * M_PI / 180.0;
    d.bottom = 8 * 0.01;
    d.seed = 3;
    return d;
}

static void test_beverloo(void)
{
    /* W = C rho_b sqrt(g) (D - k d)^(5/2) at D = 5..8 d: the line W^(2/5) is exact, so the fit
     * gives C and k to rounding (1e-10 relative: a few hundred ulps through pow) */
    const double C = 0.58, k = 1.4, rho = 1500.0, g = 9.81, d = 0.01;
    double D[4], W[4];
    for (int i = 0; i < 4; i++) D[i] = (5.0 + i) * d, W[i] = C * rho * sqrt(g) * pow(D[i] - k * d, 2.5);
    hp_beverloo b;
    int rc = hp_beverloo_fit(D, W, 4, rho, g, d, &b);
    tap_ok(rc == 0 && b.npoints == 4, "Beverloo fit of 4 synthetic flow rates succeeds (rc %d, %d points)", rc, b.npoints);
    tap_rel(b.C, C, 1e-10, "Beverloo C recovered (synthetic W from C = 0.58, k = 1.4)");
    tap_rel(b.k, k, 1e-10, "Beverloo k recovered");
    tap_close(b.r2, 1.0, 1e-12, "the line W^(2/5) against D_o is exact: r^2 = 1");
    /* the other literature corner, and a point without flow ignored */
    const double C2 = 0.64, k2 = 1.6;
    double W2[5], D2[5];
    for (int i = 0; i < 4; i++) D2[i] = D[i], W2[i] = C2 * rho * sqrt(g) * pow(D[i] - k2 * d, 2.5);
    D2[4] = 1.5 * d, W2[4] = 0.0; /* clogged */
    rc = hp_beverloo_fit(D2, W2, 5, rho, g, d, &b);
    tap_ok(rc == 0 && b.npoints == 4 && fabs(b.C - C2) <= 1e-10 * C2 && fabs(b.k - k2) <= 1e-10 * k2,
           "C = 0.64, k = 1.6 recovered with a clogged orifice (W = 0) left out: C %.12g, k %.12g, %d points", b.C, b.k,
           b.npoints);
    double one[1] = {0.01}, w1[1] = {1.0};
    tap_ok(hp_beverloo_fit(one, w1, 1, rho, g, d, &b) == -1, "one orifice: no fit (-1)");
}

static void test_flow_rate(void)
{
    /* exits at t_i = 0.1 + i/100 s, each of mass 0.002 kg: M = 0.2 (t - 0.1) + 0.002, plus a
     * slow start (the first 10 exits at half the rate) below the 20 % window */
    enum { N = 200 };
    double t[N], M[N], W, r2;
    for (int i = 0; i < N; i++) {
        t[i] = i < 10 ? 0.02 * i : 0.2 + 0.01 * (i - 10);
        M[i] = 0.002 * (i + 1);
    }
    int rc = hp_flow_rate(t, M, N, 0.2, 0.8, &W, &r2);
    tap_ok(rc == 0, "flow rate of a linear discharge (rc %d)", rc);
    tap_rel(W, 0.2, 1e-12, "W = 0.002 kg / 0.01 s = 0.2 kg/s, the slow start outside the 20-80 % window");
    tap_close(r2, 1.0, 1e-12, "r^2 of an exact line");
    tap_ok(hp_flow_rate(t, M, 2, 0.2, 0.8, &W, &r2) == -1 && isnan(W), "two exits: no flow rate (-1, NaN)");
}

static void test_counter(void)
{
    clab_world *w = clab_world_create(NULL);
    clab_error err;
    for (int i = 0; i < 5; i++) {
        clab_body_def b = clab_default_body_def();
        b.shape = clab_sphere(0.005);
        b.density = 2500.0;
        b.r = clab_v3(0.0, 0.03 * i, 0.1);
        b.rdot = clab_v3(0.0, 0.0, -1.0);
        clab_world_add_body(w, &b, &err);
    }
    hp_counter k;
    hp_counter_init(&k, 0, 5, -0.02, 0.025);
    w->bodies[1].r.z = -0.03;
    w->bodies[3].r.z = -0.021;
    size_t now = hp_counter_step(&k, w, 0.5);
    const double m = w->bodies[0].m;
    tap_ok(now == 2 && k.count == 2 && fabs(k.mass - 2 * m) <= 1e-15, "two spheres below z_out counted (%zu, mass %g)", now,
           k.mass);
    int frozen = w->bodies[1].fixed && w->bodies[3].fixed && w->bodies[1].rdot.z == 0.0 && w->bodies[1].r.z < -0.02 &&
                 !w->bodies[0].fixed;
    tap_ok(frozen, "the counted spheres are frozen (fixed, at rest, below the plane); the others free");
    /* the frozen ones stay below the plane: counted once */
    w->bodies[0].r.z = -0.5;
    now = hp_counter_step(&k, w, 0.6);
    now += hp_counter_step(&k, w, 0.7);
    tap_ok(now == 1 && k.count == 3 && k.t_out[1] == 0.5 && k.t_out[0] == 0.6 && k.t_out[2] < 0.0,
           "later steps count only the new one (%zu new, %zu in all; t_out %g %g %g)", now, k.count, k.t_out[0], k.t_out[1],
           k.t_out[2]);
    tap_ok(k.t_cum[0] == 0.5 && k.t_cum[2] == 0.6 && fabs(k.m_cum[2] - 3 * m) <= 1e-15, "exit times and cumulative mass in order");
    hp_counter_free(&k);
    clab_world_destroy(w);
}

/* n spheres discharged through D = 6 d of a 10 d box under penalty for t seconds: at every
 * step counted + free = n and the counted are the fixed */
static void test_discharge(void)
{
    hp_def d = small_def(HP_FLAT, 150);
    clab_error err;
    hp_info info;
    clab_world *fill = hp_build(&d, 0.0, HP_GATE, NULL, 0, &info, &err);
    tap_ok(fill != NULL, "gate build (%s)", fill ? "ok" : err.msg);
    if (!fill) return;
    clab_world *w = hp_build(&d, 6.0 * info.d_mean, HP_OPEN, fill, info.first, &info, &err);
    tap_ok(w != NULL && w->nbodies - info.first == 150, "open build from the fill: 150 spheres (%s)", w ? "ok" : err.msg);
    if (!w) {
        clab_world_destroy(fill);
        return;
    }
    clab_sim *s = clab_sim_create(w, "penalty", 1e-4, NULL, &err);
    hp_counter k;
    hp_counter_init(&k, info.first, 150, -2.0 * info.d_mean, 2.5 * info.d_mean);
    int bad = 0, rc = 0;
    for (int step = 0; step < 4000 && !rc; step++) {
        rc = clab_sim_step(s, &err);
        hp_counter_step(&k, w, w->t);
        size_t freec = 0, fixedc = 0;
        for (size_t i = info.first; i < w->nbodies; i++) w->bodies[i].fixed ? fixedc++ : freec++;
        if (k.count + freec != 150 || fixedc != k.count) bad++;
    }
    tap_ok(rc == 0, "0.4 s of discharge under penalty (%s)", rc ? err.msg : "ok");
    tap_ok(bad == 0 && k.count > 10, "discharged + remaining = 150 at all 4000 steps, the discharged the frozen ones "
                                     "(%d bad steps; %zu discharged)", bad, k.count);
    size_t once = 0;
    for (size_t i = 0; i < 150; i++) once += k.t_out[i] >= 0.0;
    tap_ok(once == k.count, "each discharged sphere has one exit time (%zu = %zu)", once, k.count);
    hp_counter_free(&k);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    clab_world_destroy(fill);
}

static void test_closed(int geometry, const char *backend, double h)
{
    hp_def d = small_def(geometry, 150);
    clab_error err;
    hp_info info;
    clab_world *w = hp_build(&d, (geometry == HP_CONE ? 6.0 : 5.0) * 0.01, HP_CLOSED, NULL, 0, &info, &err);
    const char *g = geometry == HP_CONE ? "cone" : "flat";
    if (!tap_ok(w != NULL, "%s: closed build (%s)", g, w ? "ok" : err.msg)) return;
    clab_sim *s = clab_sim_create(w, backend, h, NULL, &err);
    int rc = s ? 0 : 1;
    double zmin = INFINITY, rmax = 0.0;
    const long n = (long)(0.5 / h + 0.5);
    for (long k = 0; k < n && !rc; k++) {
        rc = clab_sim_step(s, &err);
        for (size_t i = info.first; i < w->nbodies; i++) {
            zmin = fmin(zmin, w->bodies[i].r.z);
            rmax = fmax(rmax, hypot(w->bodies[i].r.x, w->bodies[i].r.y));
        }
    }
    /* a sphere's center stays above the floor by at least half its radius (the penalty
     * overlap under this bed is about 0.1 R), inside the walls */
    const double wall = geometry == HP_CONE ? 0.5 * d.bottom + info.height * tan(d.half_angle) + 0.01 : 0.5 * sqrt(2.0) * d.width;
    tap_ok(rc == 0 && zmin > 0.5 * d.radius * (1.0 - d.poly) && rmax < wall,
           "%s, %s: the closed floor holds all 150 spheres for 0.5 s (%s; lowest center %.5f m > R_min/2 = %.5f m, "
           "farthest from the axis %.4f m < %.4f m)",
           g, backend, rc ? err.msg : "ok", zmin, 0.5 * d.radius * (1.0 - d.poly), rmax, wall);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

int main(void)
{
    test_beverloo();
    test_flow_rate();
    test_counter();
    test_discharge();
    test_closed(HP_FLAT, "penalty", 1e-4);
    test_closed(HP_FLAT, "dvi", 5e-4);
    test_closed(HP_CONE, "penalty", 1e-4);
    test_closed(HP_CONE, "dvi", 5e-4);
    return tap_done();
}
