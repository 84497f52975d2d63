/* test_dvi_exact.c: exact Coulomb friction in the DVI backend (friction=exact, De Saxce's
 * fixed point around the CCP of Eq. (10) of seed 000; dvi/friction_exact.h).
 *
 *   1. Bowling ball (R = 0.1085 m, m = 7 kg, solid: J = 2/5 m R^2) launched sliding at
 *      v0 = 8 m/s without spin from rest on a plane (Phi = 0), h = 1 ms, mu = 0.2 and 0.5,
 *      solver tolerance TOL = 1e-9 m/s, exact_tol = TOL:
 *      - with friction=exact it never leaves the plane: |height of the lowest point| <=
 *        10 h TOL. Why: Phi/h + v_n = d_n is driven to 0 at every step up to the solver
 *        error, so Phi(l+1) = Phi(l) + h v_n(l+1) = h d_n = O(h TOL); the factor 10 covers the
 *        block scaling of the residual (ccp_solver.h; as in test_dvi.c's sphere drop);
 *      - no vertical velocity: |v_z| = |d_n - Phi/h| <= 2 x 10 TOL (both terms above);
 *      - slip ends (|v_x - R omega_y| first below 1e-3 v0) at t* = 2 v0/(7 mu g) and the ball
 *        then rolls at 5 v0/7, each within 1% (rigid ball with Coulomb friction: v_x = v0 -
 *        mu g t, R omega = 5/2 mu g t, clab_analytic_roll_time/_speed; the discrete slip end is
 *        within h of t*, 0.2% of it);
 *      - every step's fixed point converged (fixed_point_failures = 0), the statistics report
 *        outer iterations, and the exact-Coulomb residual of the last step is <= 10 TOL;
 *      - the relaxed method (seed 000's CCP) on the same setup lifts off: after the first step
 *        v_z = mu v_T(l+1) within 10 TOL (seed 000 Sect. 3: Phi/h + v_n = mu |v_T| when
 *        sliding), and the ball then flies ballistically: its highest point is at least
 *        0.9 v_z^2/(2 g) (the apex of free flight; 0.9 allows for the first-order integrator).
 *      Both exact_update=outer (apgd) and exact_update=inner (gs) are run.
 *   2. KKT of the exact solution on a small scene with every kind of contact (sliding sphere,
 *      sphere at rest, sphere moving up, a box sliding and spinning on 4 corners, a sphere
 *      resting on a sphere), mu = 0.5, built as in one DVI step and solved by clab_exact_solve
 *      with every solver and both updates to TOL2 = 1e-10 m/s. With d = N nu + p0 (unshifted p):
 *      - gamma_i in K_i (the solvers project: 1e-12 of max gamma_n);
 *      - Signorini: d_n >= -10 TOL2 and |gamma_n d_n| <= 10 TOL2 max gamma_n;
 *      - sliding (|d_T| > 1e-6 m/s): gamma on the cone boundary, | |gamma_T| - mu gamma_n | <=
 *        1e-6 gamma_n, friction opposite to the slip (|gamma_T/|gamma_T| + d_T/|d_T|| <= 1e-6),
 *        and no lift-off: |d_n| <= 10 TOL2 (the relaxed CCP would give mu |d_T|);
 *      - sticking (gamma_n > 0, |d_T| <= 1e-6): |d| <= 10 TOL2;
 *      - open (gamma = 0): d_n >= -10 TOL2 (free separation);
 *      - the scene has at least one contact of each kind, and the exact residual
 *        (clab_ccp_residual_exact) is <= 10 TOL2 (TOL2 bounds the shifted CCP's residual; the
 *        shift differs from mu |d_T| by at most exact_tol = TOL2).
 *   3. the run's counters survive a checkpoint (save, load; absent -> 0). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccp_solver.h"
#include "clab_analytic.h"
#include "clab_sim.h"
#include "friction_exact.h"
#include "tap.h"

#define G 9.81
#define H 1e-3
#define TOL 1e-9
#define TOL2 1e-10
#define BR 0.1085
#define BM 7.0

/* the bowling scene: plane (body 0) and the ball (body 1) resting on it, sliding at v0 */
static clab_world *bowling_world(double mu, double v0)
{
    clab_world *w = clab_world_create(NULL);
    clab_material m = clab_default_material();
    m.mu = mu;
    clab_world_add_material(w, &m, NULL);
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    clab_world_add_body(w, &d, NULL);
    d = clab_default_body_def();
    d.shape = clab_sphere(BR);
    d.mass = BM;
    d.r = clab_v3(0.0, 0.0, BR);
    d.rdot = clab_v3(v0, 0.0, 0.0);
    clab_world_add_body(w, &d, NULL);
    return w;
}

/* a DVI sim at tol = exact_tol = TOL with the options extra ("k=v,k=v") */
static clab_sim *make_sim(clab_world *w, const char *extra)
{
    clab_options o;
    clab_error err;
    clab_options_init(&o);
    char tol[32], kvs[256];
    snprintf(tol, sizeof tol, "%g", TOL);
    clab_options_set(&o, "tol", tol, NULL);
    clab_options_set(&o, "exact_tol", tol, NULL);
    clab_options_set(&o, "max_iter", "100000", NULL);
    snprintf(kvs, sizeof kvs, "%s", extra);
    for (char *kv = strtok(kvs, ","); kv; kv = strtok(NULL, ","))
        if (clab_options_parse(&o, kv, NULL, &err)) tap_diag("options: %s", err.msg);
    clab_sim *s = clab_sim_create(w, "dvi", H, &o, &err);
    if (!s) tap_diag("sim: %s", err.msg);
    clab_options_free(&o);
    return s;
}

/* 1. the bowling ball with exact friction (update: "outer" or "inner", solver) */
static void bowling_exact(double mu, const char *solver, const char *update)
{
    double v0 = 8.0;
    double ts = clab_analytic_roll_time(v0, mu, G), vf = clab_analytic_roll_speed(v0); /* 2 v0/(7 mu g), 5 v0/7 */
    clab_world *w = bowling_world(mu, v0);
    char extra[128];
    snprintf(extra, sizeof extra, "friction=exact,solver=%s,exact_update=%s", solver, update);
    clab_sim *s = make_sim(w, extra);
    if (!s) {
        tap_ok(0, "%s: sim created", extra);
        clab_world_destroy(w);
        return;
    }
    clab_body *ball = &w->bodies[1];
    long n = lround(1.2 * ts / H);
    double hmax = 0.0, vzmax = 0.0, slip_end = -1.0;
    long outer_max = 0;
    int bad = 0;
    clab_error err;
    for (long k = 0; k < n && !bad; k++) {
        bad = clab_sim_step(s, &err);
        if (bad) tap_diag("step %ld: %s", k, err.msg);
        clab_vec3 om = clab_body_omega_world(ball);
        double slip = ball->rdot.x - BR * om.y;
        hmax = fmax(hmax, fabs(ball->r.z - BR));
        vzmax = fmax(vzmax, fabs(ball->rdot.z));
        if (slip_end < 0.0 && fabs(slip) < 1e-3 * v0) slip_end = w->t;
        clab_solver_stats st = {0};
        s->type->stats(s->self, &st);
        if (st.outer_iterations > outer_max) outer_max = st.outer_iterations;
    }
    clab_solver_stats st = {0};
    s->type->stats(s->self, &st);
    tap_ok(!bad && hmax <= 10 * H * TOL,
           "%s mu=%g: stays on the plane, max |height| = %.3g m <= 10 h TOL = %.3g m", extra, mu, hmax, 10 * H * TOL);
    tap_ok(!bad && vzmax <= 20 * TOL, "%s mu=%g: max |v_z| = %.3g m/s <= 20 TOL = %.3g m/s", extra, mu, vzmax,
           20 * TOL);
    tap_rel(slip_end, ts, 0.01, "slip ends at t* = 2 v0/(7 mu g) [s] (1%)");
    tap_rel(ball->rdot.x, vf, 0.01, "rolls at 5 v0/7 [m/s] (1%)");
    tap_ok(st.fixed_point_failures == 0 && st.total_outer_iterations >= n && outer_max >= 1 &&
               st.exact_residual <= 10 * TOL,
           "%s mu=%g: %ld steps, %ld outer iterations (max %ld a step), 0 = %ld fixed-point failures, exact residual "
           "%.3g <= 10 TOL m/s",
           extra, mu, n, st.total_outer_iterations, outer_max, st.fixed_point_failures, st.exact_residual);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* 1'. the same launch with seed 000's relaxation: lift-off */
static void bowling_relaxed(double mu)
{
    double v0 = 8.0;
    clab_world *w = bowling_world(mu, v0);
    clab_sim *s = make_sim(w, "friction=relaxed");
    if (!s) {
        tap_ok(0, "relaxed sim created");
        clab_world_destroy(w);
        return;
    }
    clab_body *ball = &w->bodies[1];
    clab_error err;
    clab_quat e0 = ball->e;
    int bad = clab_sim_step(s, &err);
    /* contact-point velocity with the frame of q(l), as D_i uses it */
    clab_body b = *ball;
    b.e = e0;
    clab_vec3 vp = clab_body_point_velocity(&b, clab_q_rotate_inv(b.e, clab_v3(0, 0, -BR)));
    double vT = sqrt(vp.x * vp.x + vp.y * vp.y), vz1 = vp.z;
    tap_ok(!bad && fabs(vz1 - mu * vT) <= 10 * TOL,
           "relaxed mu=%g: first step leaves at v_n = %.9g = mu v_T = %.9g m/s (|diff| %.2g <= 10 TOL)", mu, vz1,
           mu * vT, fabs(vz1 - mu * vT));
    double hmax = 0.0;
    for (long k = 0; k < 1000 && !bad; k++) {
        bad = clab_sim_step(s, &err);
        hmax = fmax(hmax, ball->r.z - BR);
    }
    double apex = vz1 * vz1 / (2.0 * G);
    tap_ok(!bad && hmax >= 0.9 * apex, "relaxed mu=%g: lift-off, the ball rises %.4g m >= 0.9 v_z^2/(2g) = %.4g m", mu,
           hmax, 0.9 * apex);
    clab_sim_destroy(s);
    clab_world_destroy(w);
}

/* 2. KKT of the exact solution on a small scene */
static clab_world *kkt_world(void)
{
    clab_world *w = clab_world_create(NULL);
    clab_material m = clab_default_material();
    m.mu = 0.5;
    clab_world_add_material(w, &m, NULL);
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    clab_world_add_body(w, &d, NULL);
    struct { clab_vec3 r, v, om; int box; } b[] = {
        {{0, 0, 0.1}, {3, 0, 0}, {0, 0, 0}, 0},        /* slides */
        {{1, 0, 0.1}, {0, 0, 0}, {0, 0, 0}, 0},        /* rests */
        {{2, 0, 0.1}, {0.2, 0, 1.0}, {0, 0, 0}, 0},    /* moves up: opens */
        {{0, 1, 0.05}, {1, 0.5, 0}, {0, 0, 2.0}, 1},   /* box sliding and spinning on 4 corners */
        {{1, 0, 0.3}, {0.01, 0, 0}, {0, 0, 0}, 0},     /* on top of the resting sphere */
    };
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        d = clab_default_body_def();
        d.shape = b[i].box ? clab_box(0.2, 0.1, 0.05) : clab_sphere(0.1);
        d.r = b[i].r;
        d.rdot = b[i].v;
        d.omega = b[i].om;
        clab_world_add_body(w, &d, NULL);
    }
    return w;
}

static void kkt(const clab_ccp_solver_type *S, int update)
{
    clab_error err;
    clab_world *w = kkt_world();
    clab_collider *cd = clab_collider_create();
    clab_contacts c;
    clab_contacts_init(&c);
    clab_collide(cd, w, 0.002, &c, &err);
    for (size_t k = 0; k < w->nbodies; k++) { /* free velocity v* */
        clab_vec3 F, tau;
        clab_world_applied(w, k, &F, &tau);
        clab_body_kick(&w->bodies[k], F, tau, H);
    }
    clab_ccp P;
    clab_ccp_init(&P);
    clab_ccp_build(&P, w, &c, H, 1.0, &err);
    size_t n = P.n;
    double *p0 = malloc(n * sizeof *p0), *nu = calloc(n, sizeof *nu), *d = malloc(n * sizeof *d);
    double *u = malloc(6 * w->nbodies * sizeof *u);
    memcpy(p0, P.p, n * sizeof *p0);
    clab_friction_exact X;
    clab_exact_init(&X);
    X.friction = CLAB_FRICTION_EXACT;
    X.update = update;
    X.tol = TOL2;
    clab_ccp_options o = clab_ccp_default_options(S);
    o.tol = TOL2;
    o.max_iter = 200000;
    clab_ccp_work W;
    clab_ccp_work_init(&W);
    clab_ccp_result res;
    int rc = clab_exact_solve(&X, &P, S, &o, nu, &W, &res, &err);
    /* d with the unshifted p */
    clab_ccp_apply_N(&P, nu, u, d);
    for (size_t k = 0; k < n; k++) d[k] += p0[k];
    double gmax = 0.0;
    for (size_t i = 0; i < P.ncontacts; i++) gmax = fmax(gmax, nu[3 * i]);
    int nslide = 0, nstick = 0, nopen = 0, bad = 0;
    double eps = 10 * TOL2, worst_n = 0.0, worst_dir = 0.0, worst_stick = 0.0;
    for (size_t i = 0; i < P.ncontacts; i++) {
        const double *g = &nu[3 * i], *v = &d[3 * i];
        double mu = P.blocks[i].mu, gT = hypot(g[1], g[2]), vT = hypot(v[1], v[2]);
        if (g[0] < -1e-12 * gmax || gT > mu * g[0] + 1e-12 * gmax) bad |= 1;          /* gamma in K */
        if (v[0] < -eps || fabs(g[0] * v[0]) > eps * gmax) bad |= 2;                   /* Signorini */
        if (g[0] <= 1e-9 * gmax) {                                                     /* open */
            nopen++;
        } else if (vT > 1e-6) {                                                        /* sliding */
            nslide++;
            double dir = hypot(g[1] / gT + v[1] / vT, g[2] / gT + v[2] / vT);
            worst_dir = fmax(worst_dir, dir);
            worst_n = fmax(worst_n, fabs(v[0]));
            if (fabs(gT - mu * g[0]) > 1e-6 * g[0] || dir > 1e-6 || fabs(v[0]) > eps) bad |= 4;
        } else {                                                                       /* sticking */
            nstick++;
            double dv = sqrt(v[0] * v[0] + vT * vT);
            worst_stick = fmax(worst_stick, dv);
            if (dv > eps) bad |= 8;
        }
    }
    double rE = clab_ccp_residual_exact(&P, nu, d);
    tap_ok(rc == CLAB_OK && X.converged && !bad && nslide >= 1 && nstick >= 1 && nopen >= 1 && rE <= eps,
           "KKT %s %s: %zu contacts (%d sliding, %d sticking, %d open), %ld outer iterations, %ld inner; exact "
           "residual %.2g; sliding |d_n| <= %.2g, direction error %.2g; sticking |d| <= %.2g (flags %d)",
           S->name, update ? "inner" : "outer", P.ncontacts, nslide, nstick, nopen, X.outer, res.iterations, rE,
           worst_n, worst_dir, worst_stick, bad);
    /* contrast: the relaxed CCP of the same data leaves the sliding contacts at d_n = mu |d_T| */
    if (S == &clab_ccp_solver_apgd && update == CLAB_EXACT_OUTER) {
        memcpy(P.p, p0, n * sizeof *p0);
        memset(nu, 0, n * sizeof *nu);
        S->solve(&P, &o, nu, &W, &res, &err);
        clab_ccp_d(&P, nu, u, d);
        double lift = 0.0, dev = 0.0;
        for (size_t i = 0; i < P.ncontacts; i++) {
            const double *v = &d[3 * i];
            double vT = hypot(v[1], v[2]);
            if (nu[3 * i] > 1e-9 * gmax && vT > 1e-6) {
                lift = fmax(lift, v[0]);
                dev = fmax(dev, fabs(v[0] - P.blocks[i].mu * vT));
            }
        }
        tap_ok(lift > 0.1 && dev <= eps,
               "relaxed CCP of the same scene: sliding contacts leave at d_n = mu |d_T| (max %.3g m/s, |diff| %.2g)",
               lift, dev);
    }
    clab_ccp_work_free(&W);
    clab_exact_free(&X);
    clab_ccp_free(&P);
    free(p0);
    free(nu);
    free(d);
    free(u);
    clab_contacts_free(&c);
    clab_collider_destroy(cd);
    clab_world_destroy(w);
}

/* 3. the counters in a checkpoint: written and read back with friction=exact; a block
 * without them (a relaxed run's) restarts them at 0 */
static void checkpoint_counters(void)
{
    clab_friction_exact a, b;
    clab_exact_init(&a);
    clab_exact_init(&b);
    a.friction = b.friction = CLAB_FRICTION_EXACT;
    a.total_outer = 1234;
    a.failures = 5;
    FILE *f = tmpfile();
    int ok = f && clab_exact_save(&a, f, NULL) == CLAB_OK;
    if (f) rewind(f);
    ok = ok && clab_exact_load(&b, f, NULL) == CLAB_OK && b.total_outer == 1234 && b.failures == 5;
    if (f) fclose(f);
    f = tmpfile(); /* empty block */
    b.failures = 7;
    ok = ok && f && clab_exact_load(&b, f, NULL) == CLAB_OK && b.total_outer == 0 && b.failures == 0;
    if (f) fclose(f);
    tap_ok(ok, "checkpoint: outer iterations and fixed-point failures saved and restored; absent -> 0");
}

int main(void)
{
    checkpoint_counters();
    const double mus[2] = {0.2, 0.5};
    for (int k = 0; k < 2; k++) {
        bowling_exact(mus[k], "apgd", "outer");
        bowling_exact(mus[k], "gs", "inner");
        bowling_relaxed(mus[k]);
    }
    const clab_ccp_solver_type *const *solvers = clab_ccp_solvers();
    for (int s = 0; solvers[s]; s++) {
        kkt(solvers[s], CLAB_EXACT_OUTER);
        kkt(solvers[s], CLAB_EXACT_INNER);
    }
    return tap_done();
}
