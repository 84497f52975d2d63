/* test_conewave: the pieces of `contactlab cone` and `contactlab wave` that the figures rest on.
 *
 * 1. The penetrometer mesh (experiments/cone_mesh.c): 4 nseg - 2 triangles; the ring at
 *    radius Rc and height Hc = Rc / tan 30 degrees (a 60-degree cone); each cone facet's normal
 *    has n_z = sin(atan(Rc cos(pi/nseg) / Hc)) (the facet through the apex and a chord of the
 *    ring, at distance Rc cos(pi/nseg) from the axis), to 1e-12; the world accepts it.
 * 2. Momentum balance on a bed at rest under a driven cone stopped on it (test_balance): the
 *    vertical contact forces on the cone and on the floor add up to minus the bed's weight,
 *    -sum m_i g, to 1e-3 (penalty: the cone pressing the bed; DVI: the cone clear of it,
 *    carrying one sphere on its cap, -m g to 1e-3).
 * 3. Arrival detection (experiments/wave_fit.c) on synthetic signals: ramps v(t) = v_p
 *    min(max((t - t_k)/T, 0), 1) starting at t_k = t_0 + z_k / c, sampled every dt with the
 *    threshold crossing inside a linear piece: arrival = t_k + X T exactly (linear interpolation
 *    of a linear piece) to 1e-15 s, and the line fit of depth against arrival gives c to 1e-9;
 *    a dip below zero before the front is ignored; a signal that stays below gives NAN; the
 *    running form agrees with the array form bit for bit; a half sine sampled at tau/200
 *    crosses 0.1 v_p at tau asin(0.1)/pi within 1e-4 tau (the interpolation error of a smooth
 *    signal, dt^2 max|v''| / (8 |v'|) ~ 3e-6 tau). The power fit returns alpha = 1/6 from exact
 *    data y = 3 x^(1/6) to 1e-12.
 * 4. A 1-D Hertz chain (the reference of experiments/chain.c): 30 steel spheres and a striker
 *    at 1 m/s under the penalty method, arrivals at 0.01 v with xp_arrival_step, the speed from
 *    the line fit over spheres 10 .. 29: within 2% of Nesterenko's solitary-wave speed
 *    (16/25)^(1/5) c^(4/5) v_m^(1/5), c^2 = K a^(5/2)/m (clab_analytic_nesterenko_speed; the
 *    tolerance of the chain experiment's test: a discrete chain against the long-wave limit). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clab_analytic.h"
#include "clab_mesh.h"
#include "clab_motion.h"
#include "clab_sim.h"
#include "cone_mesh.h"
#include "tap.h"
#include "wave_fit.h"

static void test_mesh_geometry(void)
{
    const double Rc = 0.03, alpha = M_PI / 6.0, Hc = Rc / tan(alpha);
    const int nseg = 12;
    double *xyz;
    size_t n = xp_cone_mesh(Rc, alpha, 0.1, nseg, &xyz);
    tap_ok(n == (size_t)(4 * nseg - 2), "cone mesh: %zu triangles (4 nseg - 2 = %d)", n, 4 * nseg - 2);
    double err_r = 0.0, err_nz = 0.0;
    const double nz_want = sin(atan(Rc * cos(M_PI / nseg) / Hc));
    for (int k = 0; k < nseg; k++) {
        const double *t = xyz + 9 * k;
        for (int v = 1; v < 3; v++) {
            err_r = fmax(err_r, fabs(hypot(t[3 * v], t[3 * v + 1]) - Rc));
            err_r = fmax(err_r, fabs(t[3 * v + 2] - Hc));
        }
        clab_vec3 a = clab_v3(t[3] - t[0], t[4] - t[1], t[5] - t[2]), b = clab_v3(t[6] - t[0], t[7] - t[1], t[8] - t[2]);
        clab_vec3 nn = clab_v3_cross(a, b);
        err_nz = fmax(err_nz, fabs(fabs(nn.z) / clab_v3_norm(nn) - nz_want));
    }
    tap_ok(err_r <= 1e-15, "cone mesh: the ring at radius Rc and height Rc/tan 30 deg (largest error %.2g m)", err_r);
    tap_ok(err_nz <= 1e-12, "cone mesh: facet normals n_z = %.12f (largest error %.2g)", nz_want, err_nz);
    clab_world *w = clab_world_create(NULL);
    clab_error err;
    clab_world_add_material(w, &(clab_material){0}, &err);
    clab_mesh_def md = clab_default_mesh_def();
    snprintf(md.name, sizeof md.name, "cone");
    md.xyz = xyz;
    md.ntri = n;
    tap_ok(clab_world_add_mesh(w, &md, &err) == 0, "cone mesh: the world accepts it (welded, no zero-area triangle)");
    clab_world_destroy(w);
    free(xyz);
    tap_ok(xp_cone_mesh(Rc, alpha, 0.1, 2, &xyz) == 0 && !xyz, "cone mesh: nseg = 2 refused");
}

/* The momentum balance scene: a bed of 4 x 4 spheres (radius R) on a rough floor with a 3 x 3
 * layer in its hollows (centres at R + sqrt(2) R), between four frictionless walls (their
 * normals horizontal: no vertical force), and the penetrometer (radius 1.5 R) above the
 * central top sphere with one more sphere resting on the centre of its shaft's cap (whose
 * fan of triangles puts the centre on the edge of two of them). The cone is driven down at
 * 0.05 m/s until t_stop, then stopped (a table motion). */
enum { NBED = 25 };
static clab_world *balance_scene(double R, double gap, double t_stop, size_t *first, size_t *ntri)
{
    clab_error err;
    clab_world *w = clab_world_create(NULL);
    clab_material m = clab_default_material();
    m.E = 1e7, m.mu = 0.5, m.cor = 0.5;
    clab_material mw = m;
    snprintf(mw.name, sizeof mw.name, "wall");
    mw.mu = 0.0;
    clab_world_add_material(w, &m, &err);
    const int iw = clab_world_add_material(w, &mw, &err);
    clab_body_def d = clab_default_body_def();
    snprintf(d.name, sizeof d.name, "floor");
    d.shape = clab_plane();
    d.fixed = 1;
    clab_world_add_body(w, &d, &err);
    const double L = 4.0 * R, c = sqrt(0.5);
    const clab_vec3 wr[4] = {{-L, 0, 0}, {L, 0, 0}, {0, -L, 0}, {0, L, 0}};
    const clab_quat we[4] = {clab_q(c, 0, c, 0), clab_q(c, 0, -c, 0), clab_q(c, -c, 0, 0), clab_q(c, c, 0, 0)};
    for (int k = 0; k < 4; k++) { /* the plane's normal z turned to +x, -x, +y, -y: into the box */
        d = clab_default_body_def();
        snprintf(d.name, sizeof d.name, "wall%d", k);
        d.shape = clab_plane();
        d.fixed = 1;
        d.material = iw;
        d.r = wr[k], d.e = we[k];
        clab_world_add_body(w, &d, &err);
    }
    const double ztop = R + sqrt(2.0) * R;
    for (int i = 0; i < NBED; i++) {
        d = clab_default_body_def();
        snprintf(d.name, sizeof d.name, "s%d", i);
        d.shape = clab_sphere(R);
        d.density = 2500;
        d.r = i < 16 ? clab_v3((i % 4 - 1.5) * 2.0 * R, (i / 4 - 1.5) * 2.0 * R, R)
                     : clab_v3(((i - 16) % 3 - 1.0) * 2.0 * R, ((i - 16) / 3 - 1.0) * 2.0 * R, ztop);
        clab_world_add_body(w, &d, &err);
    }
    double *xyz;
    const double Rc = 1.5 * R, Hc = Rc / tan(M_PI / 6.0), Ls = 2.0 * R, z0 = ztop + R + gap;
    *ntri = xp_cone_mesh(Rc, M_PI / 6.0, Ls, 12, &xyz);
    clab_mesh_def md = clab_default_mesh_def();
    snprintf(md.name, sizeof md.name, "cone");
    md.xyz = xyz;
    md.ntri = *ntri;
    md.r = clab_v3(0.0, 0.0, z0);
    int f = clab_world_add_mesh(w, &md, &err);
    free(xyz);
    *first = (size_t)f;
    d = clab_default_body_def();
    snprintf(d.name, sizeof d.name, "on_cap");
    d.shape = clab_sphere(R);
    d.density = 2500;
    d.r = clab_v3(0.0, 0.0, z0 + Hc + Ls + R);
    clab_world_add_body(w, &d, &err);
    double tab[3 * CLAB_MOTION_COLS] = {0};
    tab[0] = 0.0, tab[3] = -0.05;
    tab[CLAB_MOTION_COLS] = t_stop, tab[CLAB_MOTION_COLS + 3] = -0.05;
    tab[2 * CLAB_MOTION_COLS] = t_stop + 1e-6;
    clab_motion mo = {CLAB_MOTION_TABLE, clab_v3(0, 0, 0), clab_v3(0, 0, 0), tab, 3, {{0, 0, 0}, 0, 0, 0, 0}};
    for (size_t k = 0; k < *ntri; k++) clab_world_set_motion(w, *first + k, &mo, &err);
    return w;
}

/* Momentum balance on the cone's bed at rest (balance_scene): the vertical contact forces on
 *    the cone (xp_mesh_force over its triangles) and on the floor (clab_sim_body_force) add up
 *    to minus the weight of every sphere, -sum m_i g (the walls are frictionless and vertical,
 *    so nothing else holds the spheres up); the expected value comes from the masses and g
 *    alone, not from the contact list. Penalty: the cone, stopped with its tip 0.05 R into the
 *    central top sphere, presses the bed, so the floor carries more than the bed's weight;
 *    after 0.4 s (about 100 periods of a sphere on its contacts, damped at e = 0.5) to 1e-3 W
 *    (the bed's residual acceleration). DVI: the tip stopped 0.02 R above the bed; to 1e-3 W
 *    (the solver's tolerance on the impulses); and the cone then carries the sphere on its cap
 *    alone, -m g to 1e-3 m g: the contact on the edge between two of the cap's triangles
 *    counted once. Both: the spheres at rest (every speed below 1e-3 m/s). The cone starts
 *    0.05 R (penalty) or 0.02 R (DVI) above the bed and moves 0.1 R (penalty) or not at all. */
static void test_balance(const char *backend, double h, double gap, double t_stop)
{
    const double R = 0.01, T = 0.4;
    size_t first, ntri;
    clab_world *w = balance_scene(R, gap, t_stop, &first, &ntri);
    clab_error err;
    clab_sim *s = clab_sim_create(w, backend, h, NULL, &err);
    if (!s) {
        tap_ok(0, "%s: sim created (%s)", backend, err.msg);
        clab_world_destroy(w);
        return;
    }
    int ok = 1;
    const long nsteps = (long)ceil(T / h);
    for (long k = 1; k <= nsteps && ok; k++) ok = clab_sim_step(s, &err) == 0;
    const size_t cap = w->nbodies - 1;
    double W = 0.0, vmax = 0.0;
    for (size_t i = first - NBED; i < first; i++) W += w->bodies[i].m, vmax = fmax(vmax, clab_v3_norm(w->bodies[i].rdot));
    W = -(W + w->bodies[cap].m) * w->gravity.z;
    vmax = fmax(vmax, clab_v3_norm(w->bodies[cap].rdot));
    clab_vec3 Fc = clab_v3(0, 0, 0), Ff = clab_v3(0, 0, 0), Tf;
    ok = ok && xp_mesh_force(s, first, ntri, clab_v3(0, 0, 0), &Fc, NULL, &err) == 0 &&
         clab_sim_body_force(s, 0, &Ff, &Tf, &err) == 0;
    tap_ok(ok && vmax < 1e-3, "%s balance: %ld steps of %g s, the spheres at rest (largest speed %.2g m/s < 1e-3)",
           backend, nsteps, h, vmax);
    tap_ok(ok && fabs(Fc.z + Ff.z + W) <= 1e-3 * W,
           "%s balance: cone %.6g N + floor %.6g N = %.6g N against -sum m g = %.6g N (1e-3)", backend, Fc.z, Ff.z,
           Fc.z + Ff.z, -W);
    const double mg = -w->bodies[cap].m * w->gravity.z;
    if (gap - 0.05 * t_stop > 0.0)
        tap_ok(ok && fabs(Fc.z + mg) <= 1e-3 * mg, "%s balance: the cone (tip clear of the bed) carries the sphere on its "
               "cap: %.6g N against -m g = %.6g N (1e-3)", backend, Fc.z, -mg);
    else
        tap_ok(ok && Fc.z > 0.5 * W, "%s balance: the cone's tip presses the bed: %.4g N upward on the cone net of the "
               "cap's sphere, more than half the weight %.4g N", backend, Fc.z, W);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

static void test_arrival(void)
{
    enum { NL = 8, NS = 4000 };
    const double c = 750.0, t0 = 3e-6, T = 2e-6, vp = 0.02, X = 0.1, dt = 1e-8;
    double t[NS], v[NS], z[NL], arr[NL], arr2[NL], want = 0.0, worst = 0.0;
    int same = 1;
    for (int i = 0; i < NS; i++) t[i] = i * dt;
    for (int k = 0; k < NL; k++) {
        z[k] = 0.002 * (k + 1);
        double tk = t0 + z[k] / c;
        double pt = NAN, pv = NAN;
        arr2[k] = NAN;
        for (int i = 0; i < NS; i++) {
            v[i] = vp * fmin(fmax((t[i] - tk) / T, 0.0), 1.0);
            if (t[i] < tk && t[i] > tk - 1e-6) v[i] = -0.5 * vp; /* a dip before the front */
            xp_arrival_step(&arr2[k], &pt, &pv, t[i], v[i], X * vp);
        }
        arr[k] = xp_arrival(t, v, NS, X * vp);
        want = tk + X * T;
        worst = fmax(worst, fabs(arr[k] - want));
        same &= arr[k] == arr2[k];
    }
    tap_ok(worst <= 1e-15, "arrival: ramps crossing X v_p inside a linear piece: t_k + X T to %.2g s <= 1e-15", worst);
    tap_ok(same, "arrival: the running form (xp_arrival_step) = the array form, bit for bit");
    double a, b;
    int n = xp_line_fit(arr, z, NL, &a, &b);
    tap_ok(n == NL, "arrival: line fit over %d layers", n);
    tap_rel(b, c, 1e-9, "arrival: speed from depth against arrival");
    for (int i = 0; i < NS; i++) v[i] = 0.09 * vp;
    tap_ok(isnan(xp_arrival(t, v, NS, X * vp)), "arrival: a signal below the threshold never arrives (NAN)");
    /* a half sine of duration tau, sampled at tau / 200 */
    const double tau = 1e-5, h = tau / 200;
    for (int i = 0; i < NS; i++) {
        t[i] = i * h;
        v[i] = t[i] <= tau ? vp * sin(M_PI * t[i] / tau) : 0.0;
    }
    tap_close(xp_arrival(t, v, NS, X * vp), tau * asin(X) / M_PI, 1e-4 * tau, "arrival: half sine crosses 0.1 v_p");
    double x[5] = {1e3, 1e4, 1e5, 1e6, 1e7}, y[5], A, alpha;
    for (int i = 0; i < 5; i++) y[i] = 3.0 * pow(x[i], 1.0 / 6.0);
    xp_power_fit(x, y, 5, &A, &alpha);
    tap_close(alpha, 1.0 / 6.0, 1e-12, "power fit: the exponent of y = 3 x^(1/6)");
    tap_rel(A, 3.0, 1e-10, "power fit: the prefactor");
    x[2] = NAN;
    tap_ok(xp_power_fit(x, y, 5, &A, &alpha) == 4, "power fit: a non-finite point is left out");
}

/* the chain of chain.c: striker (body 0) and N spheres along x, no gravity, no friction */
static void test_chain(void)
{
    enum { N = 30, FIT_FROM = 10 };
    const double R = 0.005, rho = 7800, E = 2e11, nu = 0.3, v0 = 1.0, a = 2 * R, thr = 0.01;
    clab_world_def wd = clab_default_world_def();
    wd.gravity = clab_v3(0, 0, 0);
    clab_world *w = clab_world_create(&wd);
    clab_error err;
    clab_material m = clab_default_material();
    m.E = E, m.nu = nu, m.cor = 1.0, m.mu = 0.0;
    clab_world_add_material(w, &m, &err);
    for (int i = 0; i <= N; i++) {
        clab_body_def d = clab_default_body_def();
        snprintf(d.name, sizeof d.name, "s%d", i);
        d.shape = clab_sphere(R);
        d.density = rho;
        d.r = clab_v3(a * i, 0, 0);
        d.rdot = clab_v3(i == 0 ? v0 : 0.0, 0, 0);
        clab_world_add_body(w, &d, &err);
    }
    const double mass = w->bodies[0].m, K = clab_analytic_hertz_K(clab_analytic_hertz_Estar(E, nu, E, nu), 0.5 * R);
    /* the step: 1/200 of a Hertz collision of two spheres at v0 (chain.c's rule) */
    const clab_analytic_impact imp = clab_analytic_hertz_impact(K, 0.5 * mass, v0);
    const double h = imp.contact_time / 200.0;
    const double vs = clab_analytic_nesterenko_speed(K, mass, a, 0.6 * v0);
    const long nsteps = (long)(1.5 * N * a / vs / h);
    clab_sim *s = clab_sim_create(w, "penalty", h, NULL, &err);
    double arr[N], pt[N], pv[N], vmax[N], x[N];
    for (int i = 0; i < N; i++) arr[i] = pt[i] = pv[i] = NAN, vmax[i] = 0.0, x[i] = a * i;
    int ok = s != NULL;
    for (long k = 1; k <= nsteps && ok; k++) {
        ok = clab_sim_step(s, &err) == 0;
        for (int i = 0; i < N; i++) {
            double vi = fabs(w->bodies[i + 1].rdot.x);
            vmax[i] = fmax(vmax[i], vi);
            xp_arrival_step(&arr[i], &pt[i], &pv[i], w->t, vi, thr * v0);
        }
    }
    tap_ok(ok, "chain: %ld steps of h = %.3g s", nsteps, h);
    double ta[N], za[N], vm = 0.0;
    int nf = 0;
    for (int i = FIT_FROM - 1; i < N - 1; i++) ta[nf] = arr[i], za[nf] = x[i], vm += vmax[i], nf++;
    double icept, speed;
    int used = xp_line_fit(ta, za, (size_t)nf, &icept, &speed);
    vm /= nf;
    tap_ok(used == nf, "chain: %d spheres arrived and fitted", used);
    tap_rel(speed, clab_analytic_nesterenko_speed(K, mass, a, vm), 0.02,
            "chain: Hertz wave speed against Nesterenko's (16/25)^(1/5) c^(4/5) v_m^(1/5) (2%)");
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* 5. The bed's surface rule (xp_bed_surface) on 8 simple-cubic layers of 10 x 10 spheres of
 *    radius R = 1 in a 20 x 20 box: the top layer's centers at z_c = 15 R, the bulk (slices
 *    from 4 R to 8 R, one period) pi/6 to 1e-3, the surface z_c + sqrt(2/3) R to 0.01 R (slices
 *    of 0.2 R: averaging the layer's parabolic profile over a slice moves the crossing by about
 *    dz^2/(24 u) = 0.002 R). The standard error of a line's slope (xp_line_fit_se) on
 *    (-1, 0), (0, 1), (1, 0): b = 0, residuals -1/3, 2/3, -1/3, se = sqrt((2/3) / 1 / 2) =
 *    sqrt(1/3), to 1e-15; NAN with two points. */
static void test_surface(void)
{
    enum { NL = 8, NX = 10 };
    static double z[NL * NX * NX], r[NL * NX * NX];
    for (int i = 0; i < NL * NX * NX; i++) z[i] = 1.0 + 2.0 * (i / (NX * NX)), r[i] = 1.0;
    double phib;
    double zs = xp_bed_surface(z, r, NL * NX * NX, 400.0, 0.2, 4.0, 8.0, &phib);
    const double want = 15.0 + sqrt(2.0 / 3.0);
    tap_ok(fabs(phib - M_PI / 6.0) < 1e-3, "bed surface: bulk solid fraction %.6f of simple cubic layers (pi/6 = %.6f)",
           phib, M_PI / 6.0);
    tap_ok(fabs(zs - want) < 0.01, "bed surface: %.5f R where the slices' solid fraction is half the bulk (z_c + "
           "sqrt(2/3) R = %.5f R)", zs, want);
    const double x[3] = {-1.0, 0.0, 1.0}, y[3] = {0.0, 1.0, 0.0};
    double a, b;
    xp_line_fit(x, y, 3, &a, &b);
    const double se = xp_line_fit_se(x, y, 3, a, b);
    tap_ok(fabs(se - sqrt(1.0 / 3.0)) < 1e-15, "slope standard error %.17g (sqrt(1/3))", se);
    tap_ok(isnan(xp_line_fit_se(x, y, 2, a, b)), "slope standard error of two points: NAN");
}

int main(void)
{
    test_mesh_geometry();
    test_balance("penalty", 2e-5, 0.05 * 0.01, 0.02);
    test_balance("dvi", 1e-3, 0.02 * 0.01, 0.0);
    test_arrival();
    test_chain();
    test_surface();
    return tap_done();
}
