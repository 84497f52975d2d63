/* test_fclib_cross.c: contactlab's exact-Coulomb solution and Siconos's of one exported FCLIB
 * problem checked against Coulomb's conditions contact by contact (fclib/clab_fclib_check.h,
 * doc/fclib.md "Cross-check"), on a problem whose solutions are not unique: a stack of 10
 * cubes (0.1 m, 1 kg) on a floor, 4 contacts a face (40 contacts, 60 velocities: hyperstatic),
 * settled by 21 DVI steps of 1 ms and exported (clab_fc_from_sim, write, read back).
 *
 * Solvers: contactlab's exact (De Saxce's fixed point around apgd, from 0, tol 1e-8 m/s) and,
 * when built with Siconos, NSN-AC (from 0, relative tol 1e-10; it converges in about 10
 * iterations here). Held, with the tolerances and where they come from:
 *  - each solution: r_i in K_i to 1e-12 max |r| (both project onto the cone: rounding);
 *    De Saxce's modified velocity y_i in K_i* and r_i . y_i / |r_i| within 1e-7 m/s (10 x
 *    contactlab's tol 1e-8 m/s: its residual bounds both); u = W r + q to 1e-15 m/s (the same
 *    product) and u = H^T v + w with v = M^-1 (H r + f) to 1e-12 m/s (W = H^T M^-1 H to rounding);
 *    nothing slides (|u_T| <= 1e-5 m/s everywhere): a stack at rest;
 *  - the two solutions: contact velocities within 1e-7 m/s, bodies' velocities within 1e-7 m/s;
 *    reactions differing by more than 10 % of max |r| (the multiplicity: apgd from 0 takes the
 *    minimum-norm distribution, NSN-AC another; measured 50 %), the difference an internal
 *    stress: its part moving the bodies (the range of H^T, clab_fc_split_nullspace) below 1e-4
 *    of |r_a - r_b|_2 (measured 4e-6 at tol 1e-8); the midpoint (r_a + r_b)/2 also solves the
 *    problem (r_E <= 1e-7 m/s: nothing slides, the solution set is convex here);
 *  - the fixed-point test: contactlab's exact started from NSN-AC's solution and NSN-AC from
 *    contactlab's stay (their velocities move by at most 1e-7 m/s).
 *
 * And a problem with two solutions that move the body differently (Painleve's indeterminacy):
 * a rod (box 1 x 0.1 x 0.1 m, 1 kg) tilted 45 degrees about y and 0.2 rad about x, one corner
 * on the floor, mu = 3, sliding at 2 m/s along x and rising at 0.02 m/s (q_n > 0); one DVI
 * step exported, one contact. With t the slip direction, W_nn - mu W_nT . t < 0 (a friction
 * impulse pushes the corner down harder than a normal one lifts it), so besides the open
 * solution r = 0 (u = q separating) there is a sliding one, u_n = 0, r_T = -mu r_n t, r_n =
 * -q_n / (W_nn - mu W_nT . t) > 0, t = u_T / |u_T| (a fixed point on t, to 1e-14). Held:
 * both satisfy the conditions (y in K* and r.y/|r| to 1e-12 m/s, r in K to 1e-15 N s; Siconos's
 * fc3d_compute_error of each below 1e-12 when built with it); contactlab's exact solver and
 * Siconos's NSGS from 0 find the open one (r_n <= 1e-12 N s); contactlab's exact from the
 * sliding one stays there (u moves by at most 1e-9 m/s); the two move the rod differently
 * (its velocities differ by more than 1e-3 m/s). Siconos's driver returns r = 0 whenever every
 * q_n >= 0 (fc3d_checkTrivialCase) whatever the guess, so only contactlab's restart is held.
 * Without Siconos: contactlab's solution's checks only. Skipped (1..0) without FCLIB. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

#ifndef CLAB_HAVE_FCLIB
int main(void)
{
    printf("1..0 # SKIP contactlab was built without FCLIB (libfclib-dev)\n");
    return 0;
}
#else
#include "clab_fclib.h"
#include "clab_fclib_check.h"
#include "clab_material.h"
#include "clab_siconos.h"
#include "clab_sim.h"
#include "friction_exact.h"

#define NBOX 10
#define TOL_CLAB 1e-8 /* contactlab's residual [m/s] */
#define TOL_SIC 1e-10 /* Siconos's relative error */
#define TOL_U 1e-7    /* velocities [m/s]: 10 x TOL_CLAB */
#define SLIP 1e-5     /* [m/s] */

/* the stack, 21 DVI steps of 1 ms, exported and read back from path */
static int stack_problem(const char *path, clab_fc_problem *fp)
{
    clab_world_def wd = clab_default_world_def();
    clab_world *w = clab_world_create(&wd);
    clab_error err;
    clab_body_def f = clab_default_body_def();
    f.shape = clab_plane();
    f.fixed = 1;
    int rc = clab_world_add_body(w, &f, &err) < 0;
    for (int k = 0; k < NBOX && !rc; k++) {
        clab_body_def b = clab_default_body_def();
        b.shape = clab_box(0.05, 0.05, 0.05);
        b.mass = 1.0;
        b.r = clab_v3(0.0, 0.0, 0.05 + 0.1 * k);
        rc = clab_world_add_body(w, &b, &err) < 0;
    }
    clab_options o;
    clab_options_init(&o);
    clab_options_parse(&o, "tol=1e-5", "test", &err);
    clab_options_parse(&o, "max_iter=5000", "test", &err);
    clab_sim *s = rc ? NULL : clab_sim_create(w, "dvi", 1e-3, &o, &err);
    clab_options_free(&o);
    rc = !s;
    for (int k = 0; k <= 20 && !rc; k++) rc = clab_sim_step(s, &err);
    clab_fc_problem out;
    if (!rc) rc = clab_fc_from_sim(s, &out, &err);
    if (!rc) {
        rc = clab_fc_write(&out, path, &err);
        clab_fc_free(&out);
    }
    if (!rc) rc = clab_fc_read(path, fp, &err);
    if (rc) tap_diag("the stack's problem: %s", err.msg);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

/* contactlab's exact solution from r (0 or a guess); u = W r + q */
static int solve_exact(const clab_fc_problem *fp, clab_ccp *P, double *r, double *u)
{
    const clab_ccp_solver_type *S = clab_ccp_solver_lookup("apgd");
    clab_ccp_options o = clab_ccp_default_options(S);
    o.tol = TOL_CLAB;
    o.max_iter = 100000;
    clab_ccp_work W;
    clab_ccp_work_init(&W);
    clab_ccp_result res;
    clab_error err;
    clab_friction_exact x;
    clab_exact_init(&x);
    x.friction = CLAB_FRICTION_EXACT;
    x.tol = TOL_CLAB;
    memcpy(P->p, fp->q, 3 * fp->nc * sizeof *P->p);
    int rc = clab_exact_solve(&x, P, S, &o, r, &W, &res, &err);
    int ok = rc == 0 && x.converged;
    clab_exact_free(&x);
    clab_ccp_work_free(&W);
    clab_fc_local_velocity(fp, r, u);
    return ok;
}

static double max_abs_diff(const double *a, const double *b, size_t n)
{
    double m = 0.0;
    for (size_t k = 0; k < n; k++) m = fmax(m, fabs(a[k] - b[k]));
    return m;
}

/* the conditions of one solution; v: its bodies' velocities */
static void conditions(const clab_fc_problem *fp, const double *r, const double *u, double *v, const char *who)
{
    clab_fc_check c;
    clab_fc_check_coulomb(fp, r, u, SLIP, &c);
    double rmax = 0.0, cg = NAN;
    for (size_t k = 0; k < 3 * fp->nc; k++) rmax = fmax(rmax, fabs(r[k]));
    clab_error err;
    int rc = clab_fc_body_velocity(fp, r, u, v, &cg, &err);
    tap_ok(c.cone <= 1e-12 * rmax, "%s: r in K: max dist %.3g N s <= 1e-12 max |r| (%.3g)", who, c.cone, rmax);
    tap_ok(c.dual <= TOL_U && c.compl_vel <= TOL_U,
           "%s: y = u + [mu |u_T|, 0, 0] in K*: max dist %.3g m/s; r.y/|r| %.3g m/s (<= %g)", who, c.dual, c.compl_vel,
           TOL_U);
    tap_ok(rc == 0 && c.consistency <= 1e-15 && cg <= 1e-12,
           "%s: u = W r + q to %.3g m/s, u = H^T v + w to %.3g m/s (v = M^-1 (H r + f))", who, c.consistency, cg);
    tap_ok(c.slide == 0 && c.stick + c.open == fp->nc, "%s: nothing slides (open %zu, sticking %zu, sliding %zu)", who,
           c.open, c.stick, c.slide);
}

/* the rod of the header, one DVI step, exported and read back from path */
static int rod_problem(const char *path, clab_fc_problem *fp)
{
    clab_world_def wd = clab_default_world_def();
    clab_world *w = clab_world_create(&wd);
    clab_error err;
    clab_material m = clab_default_material();
    m.mu = 3.0;
    int rc = clab_world_add_material(w, &m, &err) < 0;
    clab_body_def f = clab_default_body_def();
    f.shape = clab_plane();
    f.fixed = 1;
    rc = rc || clab_world_add_body(w, &f, &err) < 0;
    clab_body_def b = clab_default_body_def();
    b.shape = clab_box(0.5, 0.05, 0.05);
    b.mass = 1.0;
    b.e = clab_q_mul(clab_q_axis_angle(clab_v3(0, 1, 0), 0.785), clab_q_axis_angle(clab_v3(1, 0, 0), 0.2));
    clab_mat33 A = clab_q_to_A(b.e);
    double zmin = 1e9; /* the lowest corner touches the floor */
    for (int c = 0; c < 8; c++)
        zmin = fmin(zmin, clab_m33_mulv(A, clab_v3(c & 1 ? 0.5 : -0.5, c & 2 ? 0.05 : -0.05, c & 4 ? 0.05 : -0.05)).z);
    b.r = clab_v3(0.0, 0.0, -zmin);
    b.rdot = clab_v3(2.0, 0.0, 0.02);
    rc = rc || clab_world_add_body(w, &b, &err) < 0;
    clab_options o;
    clab_options_init(&o);
    clab_options_parse(&o, "tol=1e-10", "test", &err);
    clab_sim *s = rc ? NULL : clab_sim_create(w, "dvi", 1e-3, &o, &err);
    clab_options_free(&o);
    rc = !s || clab_sim_step(s, &err);
    clab_fc_problem out;
    if (!rc) rc = clab_fc_from_sim(s, &out, &err);
    if (!rc) {
        rc = clab_fc_write(&out, path, &err);
        clab_fc_free(&out);
    }
    if (!rc) rc = clab_fc_read(path, fp, &err);
    if (rc) tap_diag("the rod's problem: %s", err.msg);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

/* the sliding solution of the one-contact problem: u_n = 0, r_T = -mu r_n t, t = u_T/|u_T|,
 * by a fixed point on t from q_T's direction; *denom = W_nn - mu W_nT . t; the last change of
 * t returned */
static double sliding_solution(const clab_fc_problem *fp, double *r, double *u, double *denom)
{
    double W[9] = {0}, mu = fp->mu[0], t[2] = {fp->q[1], fp->q[2]}, nt = hypot(t[0], t[1]), change = 1.0;
    for (int c = 0; c < 3; c++)
        for (int e = fp->W.p[c]; e < fp->W.p[c + 1]; e++) W[3 * fp->W.i[e] + c] = fp->W.x[e];
    t[0] /= nt, t[1] /= nt;
    for (int k = 0; k < 200 && change > 1e-15; k++) {
        *denom = W[0] - mu * (W[1] * t[0] + W[2] * t[1]);
        double rn = -fp->q[0] / *denom;
        r[0] = rn, r[1] = -mu * rn * t[0], r[2] = -mu * rn * t[1];
        clab_fc_local_velocity(fp, r, u);
        nt = hypot(u[1], u[2]);
        change = hypot(u[1] / nt - t[0], u[2] / nt - t[1]);
        t[0] = u[1] / nt, t[1] = u[2] / nt;
    }
    return change;
}

/* the rod: two solutions of one contact */
static void rod(const char *dir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/rod.hdf5", dir);
    clab_fc_problem fp;
    if (!tap_ok(rod_problem(path, &fp) == 0, "the sliding rod exported and read back")) return;
    clab_error err;
    clab_ccp P;
    int rc = clab_fc_to_ccp(&fp, &P, &err);
    if (!tap_ok(rc == 0 && fp.nc == 1 && fp.q[0] > 0.0, "the rod: %zu contact, q_n = %.4g m/s > 0 (separating), mu %g",
                fp.nc, fp.q[0], fp.nc ? fp.mu[0] : 0.0)) {
        if (!rc) clab_ccp_free(&P);
        clab_fc_free(&fp);
        return;
    }
    double r0[3] = {0}, u0[3], rs[3], us[3], r[3], u[3], v0[6], vs[6], denom = 0.0;
    clab_fc_local_velocity(&fp, r0, u0);
    double change = sliding_solution(&fp, rs, us, &denom);
    tap_ok(change <= 1e-14 && denom < 0.0 && rs[0] > 0.0,
           "the rod: W_nn - mu W_nT.t = %.4g < 0 (Painleve), sliding solution r_n = %.6g N s, |u_T| = %.4g m/s "
           "(slip direction to %.1g)", denom, rs[0], hypot(us[1], us[2]), change);
    const char *who[2] = {"open solution r = 0", "sliding solution"};
    for (int k = 0; k < 2; k++) {
        const double *rk = k ? rs : r0, *uk = k ? us : u0;
        clab_fc_check c;
        clab_fc_check_coulomb(&fp, rk, uk, SLIP, &c);
        double sic = clab_sic_available() ? clab_sic_error(&fp, rk) : 0.0;
        tap_ok(c.cone <= 1e-15 && c.dual <= 1e-12 && c.compl_vel <= 1e-12 && sic <= 1e-12,
               "the rod, %s: d(r,K) %.3g N s, d(y,K*) %.3g m/s, r.y/|r| %.3g m/s, Siconos's error %.3g", who[k], c.cone,
               c.dual, c.compl_vel, sic);
    }
    memset(r, 0, sizeof r);
    int ok = solve_exact(&fp, &P, r, u);
    tap_ok(ok && r[0] <= 1e-12, "the rod: contactlab exact from 0 finds the open one (r_n %.3g)", r[0]);
    if (clab_sic_available()) {
        clab_sic_result res;
        memset(r, 0, sizeof r);
        rc = clab_sic_solve(&fp, "nsgs", TOL_SIC, 1000, r, u, &res, &err);
        tap_ok(rc == 0 && res.info == 0 && r[0] <= 1e-12, "the rod: Siconos NSGS from 0 finds the open one (r_n %.3g)",
               r[0]);
    }
    memcpy(r, rs, sizeof r);
    ok = solve_exact(&fp, &P, r, u);
    double moved = max_abs_diff(u, us, 3);
    tap_ok(ok && moved <= 1e-9, "the rod: contactlab exact from the sliding solution stays: u moves by %.3g m/s", moved);
    rc = clab_fc_body_velocity(&fp, r0, u0, v0, NULL, &err) || clab_fc_body_velocity(&fp, rs, us, vs, NULL, &err);
    tap_ok(!rc && max_abs_diff(v0, vs, 3) > 1e-3, "the rod: the two solutions move it differently, |v_open - v_sliding| "
                                                  "%.4g m/s", max_abs_diff(v0, vs, 3));
    clab_ccp_free(&P);
    clab_fc_free(&fp);
    unlink(path);
}

int main(void)
{
    char dir[] = "/tmp/clab-fccross-XXXXXX", path[256];
    if (!mkdtemp(dir)) return 99;
    snprintf(path, sizeof path, "%s/boxes.hdf5", dir);
    clab_fc_problem fp;
    if (!tap_ok(stack_problem(path, &fp) == 0, "the stack of %d boxes exported and read back", NBOX)) return tap_done();
    clab_error err;
    clab_ccp P;
    int rc = clab_fc_to_ccp(&fp, &P, &err);
    size_t n = 3 * fp.nc, nd = (size_t)fp.M.n;
    tap_ok(rc == 0 && fp.nc == 4 * NBOX && nd == 6 * NBOX, "%zu contacts, %zu velocities (hyperstatic) (%s)", fp.nc, nd,
           rc ? err.msg : "ok");
    if (rc) return tap_done();
    double *ra = calloc(n, sizeof *ra), *ua = calloc(n, sizeof *ua), *rb = calloc(n, sizeof *rb),
           *ub = calloc(n, sizeof *ub), *r = calloc(n, sizeof *r), *u = calloc(n, sizeof *u),
           *va = calloc(nd, sizeof *va), *vb = calloc(nd, sizeof *vb), *dr = calloc(n, sizeof *dr);
    tap_ok(solve_exact(&fp, &P, ra, ua), "contactlab exact (De Saxce + apgd) converges from 0 to %g m/s", TOL_CLAB);
    conditions(&fp, ra, ua, va, "contactlab exact");
    if (clab_sic_available()) {
        clab_sic_result res;
        rc = clab_sic_solve(&fp, "nsn-ac", TOL_SIC, 200, rb, ub, &res, &err);
        tap_ok(rc == 0 && res.info == 0, "Siconos NSN-AC converges from 0 to %g (info %d, %ld iterations)", TOL_SIC,
               res.info, res.iterations);
        conditions(&fp, rb, ub, vb, "Siconos NSN-AC");
        double du = max_abs_diff(ua, ub, n), dv = max_abs_diff(va, vb, nd), rmax = 0.0, rng, nul;
        for (size_t k = 0; k < n; k++) rmax = fmax(rmax, fabs(rb[k])), dr[k] = ra[k] - rb[k];
        tap_ok(du <= TOL_U && dv <= TOL_U, "the same motion: contact velocities within %.3g m/s, bodies' within %.3g "
                                          "(<= %g)", du, dv, TOL_U);
        double drmax = max_abs_diff(ra, rb, n);
        long it = clab_fc_split_nullspace(&fp, dr, 10000, &rng, &nul);
        tap_ok(drmax > 0.1 * rmax && it >= 0 && rng <= 1e-4 * hypot(rng, nul),
               "not the same reactions (max |r_a - r_b| %.3g > 10 %% of max |r| %.3g), an internal stress: the part "
               "moving the bodies %.3g <= 1e-4 |r_a - r_b|_2 = %.3g", drmax, rmax, rng, hypot(rng, nul));
        for (size_t k = 0; k < n; k++) r[k] = 0.5 * (ra[k] + rb[k]);
        clab_fc_local_velocity(&fp, r, u);
        clab_fc_check c;
        clab_fc_check_coulomb(&fp, r, u, SLIP, &c);
        tap_ok(c.dual <= TOL_U && c.compl_vel <= TOL_U && c.cone <= 1e-12 * rmax,
               "the midpoint (r_a + r_b)/2 solves it too (d(y,K*) %.3g, r.y/|r| %.3g m/s)", c.dual, c.compl_vel);
        /* the fixed-point test */
        memcpy(r, rb, n * sizeof *r);
        int ok = solve_exact(&fp, &P, r, u);
        double moved = max_abs_diff(u, ub, n);
        tap_ok(ok && moved <= TOL_U, "contactlab exact from NSN-AC's solution stays: u moves by %.3g m/s", moved);
        memcpy(r, ra, n * sizeof *r);
        rc = clab_sic_solve(&fp, "nsn-ac", TOL_SIC, 200, r, u, &res, &err);
        moved = max_abs_diff(u, ua, n);
        tap_ok(rc == 0 && res.info == 0 && moved <= TOL_U,
               "NSN-AC from contactlab's solution stays: %ld iterations, u moves by %.3g m/s", res.iterations, moved);
    } else {
        tap_diag("Siconos absent: the comparison with its solution not run");
    }
    free(ra), free(ua), free(rb), free(ub), free(r), free(u), free(va), free(vb), free(dr);
    clab_ccp_free(&P);
    clab_fc_free(&fp);
    unlink(path);
    rod(dir);
    rmdir(dir);
    return tap_done();
}
#endif
