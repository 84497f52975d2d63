/* test_fclib.c: FCLIB export and import (fclib/clab_fclib.h, doc/fclib.md), TAP.
 *
 * - Round trip: the problem of one DVI step (a sphere on a plane; a box on a plane, 4 corner
 *   contacts) written by clab_fc_write and read by clab_fc_read gives back the same W, q, mu,
 *   M, H, f, w to the bit; q is the CCP's p of the step to the bit; W equals the CCP's dense
 *   N (clab_ccp_dense_N, another summation) to 1e-14 of max |N|; the global form's
 *   H^T M^-1 f + w equals q to 1e-13 of max |q| + g h (v* recovered as v(l+1) - M^-1 D nu,
 *   rounding); the CCP rebuilt from the global form (clab_fc_to_ccp) has the dense N of W to
 *   1e-14 of max |N|.
 * - Solutions against the analytic reactions: a sphere (m = 1 kg) resting on a plane at
 *   Phi = 0, v = 0: one step of h = 1e-3 s needs the normal impulse gamma_n = m g h (it cancels
 *   v* = -g h; friction none: gamma_T = 0) for every solver, relaxed (apgd, gs) and exact (De
 *   Saxce around apgd), to 1e-9 relative (tol 1e-12 m/s); the box (1 kg, 4 contacts): the
 *   normal impulses sum to m g h to 1e-9 relative and all contact velocities vanish (1e-9 m/s);
 *   apgd started from 0 stays in the range of N (the minimum-norm solution: m g h / 4 each,
 *   to 1e-6 relative); the reactions of the hyperstatic box are otherwise not unique, so
 *   Siconos's (when built with it: NSGS, NSN-AC) are held to the sum and the velocities only.
 *   Siconos's fc3d_compute_error equals clab_fc_error_siconos to 1e-6 relative + 1e-14 (the same
 *   formula; 1e-14 the round-off of an error near 0). The box's tangential impulses are held to
 *   a zero sum (1e-9 m g h), not each to zero: Gauss-Seidel leaves self-equilibrated pairs.
 * - Bad files get an error naming the problem, no crash: a missing file, a text file (not
 *   HDF5), a truncated copy of a good file, an HDF5 file without the FCLIB groups, and one
 *   whose /fclib_local/W/x dataset is missing.
 * Skipped (TAP plan 1..0) in a build without FCLIB. */
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
#include <hdf5.h>

#include "add_body.h"
#include "clab_fclib.h"
#include "clab_siconos.h"
#include "clab_sim.h"
#include "friction_exact.h"

#define STEP_H 1e-3
#define G 9.81

static int same_csc(const clab_fc_csc *a, const clab_fc_csc *b)
{
    if (a->m != b->m || a->n != b->n || a->p[a->n] != b->p[b->n]) return 0;
    size_t nnz = (size_t)a->p[a->n];
    return memcmp(a->p, b->p, ((size_t)a->n + 1) * sizeof *a->p) == 0 && memcmp(a->i, b->i, nnz * sizeof *a->i) == 0 &&
           memcmp(a->x, b->x, nnz * sizeof *a->x) == 0;
}

static int same(const double *a, const double *b, size_t n) { return memcmp(a, b, n * sizeof *a) == 0; }

/* dense copy of a compressed-column matrix */
static double *dense(const clab_fc_csc *A)
{
    double *D = calloc((size_t)A->m * (size_t)A->n + 1, sizeof *D);
    for (int c = 0; c < A->n; c++)
        for (int e = A->p[c]; e < A->p[c + 1]; e++) D[(size_t)A->i[e] * (size_t)A->n + (size_t)c] += A->x[e];
    return D;
}

static double max_diff(const double *a, const double *b, size_t n, double *amax)
{
    double d = 0.0, m = 0.0;
    for (size_t k = 0; k < n; k++) d = fmax(d, fabs(a[k] - b[k])), m = fmax(m, fabs(b[k]));
    if (amax) *amax = m;
    return d;
}

/* a world: a fixed plane z <= 0, and a sphere (R 0.1) or a cube (0.1 m) of 1 kg resting on it */
static clab_sim *one_step(int box, clab_world **wp)
{
    clab_world_def wd = clab_default_world_def();
    clab_world *w = clab_world_create(&wd);
    add(w, clab_plane(), clab_v3(0, 0, 0), clab_q_identity(), 1);
    if (box) add(w, clab_box(0.05, 0.05, 0.05), clab_v3(0, 0, 0.05), clab_q_identity(), 0);
    else add(w, clab_sphere(0.1), clab_v3(0, 0, 0.1), clab_q_identity(), 0);
    clab_options o;
    clab_options_init(&o);
    clab_error err;
    clab_options_parse(&o, "tol=1e-12", "test", &err);
    clab_sim *s = clab_sim_create(w, "dvi", STEP_H, &o, &err);
    clab_options_free(&o);
    if (!s || clab_sim_step(s, &err)) {
        tap_diag("step: %s", err.msg);
        exit(99);
    }
    *wp = w;
    return s;
}

/* write, read back, compare; fp: the problem as read (the caller frees it) */
static void roundtrip(clab_sim *s, const char *path, const char *what, clab_fc_problem *back)
{
    clab_error err;
    clab_fc_problem fp;
    int rc = clab_fc_from_sim(s, &fp, &err);
    if (!rc) rc = clab_fc_write(&fp, path, &err);
    if (!rc) rc = clab_fc_read(path, back, &err);
    if (!tap_ok(rc == 0, "%s: export then import (%s)", what, rc ? err.msg : "ok")) exit(1);
    size_t n = 3 * fp.nc;
    tap_ok(back->nc == fp.nc && back->has_local && back->has_global && back->has_guess && same_csc(&back->W, &fp.W) &&
               same(back->q, fp.q, n) && same(back->mu, fp.mu, fp.nc),
           "%s: W, q, mu read back to the bit (%zu contacts, %d entries in W)", what, fp.nc, fp.W.p[fp.W.n]);
    tap_ok(same_csc(&back->M, &fp.M) && same_csc(&back->H, &fp.H) && same(back->f, fp.f, (size_t)fp.M.n) &&
               same(back->w, fp.w, n) && same(back->r, fp.r, n) && same(back->u, fp.u, n),
           "%s: M, H, f, w and the guess read back to the bit", what);
    clab_dvi_problem dp;
    clab_dvi_last_problem(s, &dp, &err);
    tap_ok(same(back->q, dp.p, n), "%s: q is the step's p of Eq. (10) to the bit", what);
    /* W against the CCP's dense N */
    double *N = malloc(n * n * sizeof *N), *Wd = dense(&back->W), nmax;
    clab_ccp_dense_N(dp.ccp, N);
    double d = max_diff(Wd, N, n * n, &nmax);
    tap_ok(d <= 1e-14 * nmax, "%s: W = N (dense P^T M^-1 P) to %.3g <= 1e-14 max |N| = %.3g", what, d, 1e-14 * nmax);
    /* H^T M^-1 f + w against q */
    size_t ng = (size_t)back->M.n / 6;
    double *Minv = malloc(10 * ng * sizeof *Minv), *vf = malloc(6 * ng * sizeof *vf), *q2 = malloc(n * sizeof *q2);
    clab_fc_M_inverse(&back->M, Minv, &err);
    for (size_t g = 0; g < ng; g++) {
        const double *X = &Minv[10 * g], *f = &back->f[6 * g];
        for (int c = 0; c < 3; c++) vf[6 * g + c] = X[0] * f[c];
        for (int r = 0; r < 3; r++) vf[6 * g + 3 + r] = X[1 + 3 * r] * f[3] + X[2 + 3 * r] * f[4] + X[3 + 3 * r] * f[5];
    }
    for (size_t k = 0; k < n; k++) {
        q2[k] = back->w[k];
        for (int e = back->H.p[k]; e < back->H.p[k + 1]; e++) q2[k] += back->H.x[e] * vf[back->H.i[e]];
    }
    double qmax;
    d = max_diff(q2, back->q, n, &qmax);
    tap_ok(d <= 1e-13 * (qmax + G * STEP_H), "%s: H^T M^-1 f + w = q to %.3g m/s", what, d);
    /* the rebuilt CCP */
    clab_ccp P;
    rc = clab_fc_to_ccp(back, &P, &err);
    if (tap_ok(rc == 0, "%s: CCP rebuilt from the global form (%s)", what, rc ? err.msg : "ok")) {
        clab_ccp_dense_N(&P, N);
        d = max_diff(N, Wd, n * n, &nmax);
        tap_ok(d <= 1e-14 * nmax, "%s: its N = W to %.3g", what, d);
        clab_ccp_free(&P);
    }
    free(N), free(Wd), free(Minv), free(vf), free(q2);
    clab_fc_free(&fp);
}

/* contactlab's solvers and Siconos's on the problem read back; expected total normal impulse m g h */
static void solve_all(clab_fc_problem *fp, int box, const char *what)
{
    clab_error err;
    clab_ccp P;
    if (clab_fc_to_ccp(fp, &P, &err)) return;
    size_t n = 3 * fp->nc;
    double *r = calloc(n, sizeof *r), *u = calloc(n, sizeof *u), want = 1.0 * G * STEP_H;
    const char *solvers[] = {"apgd", "gs", "exact"};
    for (int k = 0; k < 3; k++) {
        clab_ccp_solver_type const *S = clab_ccp_solver_lookup(strcmp(solvers[k], "exact") ? solvers[k] : "apgd");
        clab_ccp_options o = clab_ccp_default_options(S);
        o.tol = 1e-12;
        o.max_iter = 100000;
        clab_ccp_work W;
        clab_ccp_work_init(&W);
        clab_ccp_result res;
        memset(r, 0, n * sizeof *r);
        memcpy(P.p, fp->q, n * sizeof *P.p);
        int rc;
        if (k == 2) {
            clab_friction_exact x;
            clab_exact_init(&x);
            x.friction = CLAB_FRICTION_EXACT;
            x.tol = 1e-12;
            rc = clab_exact_solve(&x, &P, S, &o, r, &W, &res, &err);
            clab_exact_free(&x);
        } else {
            rc = S->solve(&P, &o, r, &W, &res, &err);
        }
        clab_ccp_work_free(&W);
        clab_fc_local_velocity(fp, r, u);
        /* the tangential impulses: zero for the sphere; for the box their sum (all four share the
         * frame n = z, u, w): a hyperstatic box may hold self-equilibrated tangential pairs */
        double sum = 0.0, tang = 0.0, umax = 0.0, su = 0.0, sw = 0.0;
        for (size_t i = 0; i < fp->nc; i++) sum += r[3 * i], su += r[3 * i + 1], sw += r[3 * i + 2];
        tang = hypot(su, sw);
        for (size_t k2 = 0; k2 < n; k2++) umax = fmax(umax, fabs(u[k2]));
        tap_ok(rc == 0 && fabs(sum - want) <= 1e-9 * want && tang <= 1e-9 * want && umax <= 1e-9,
               "%s, %s: sum gamma_n = %.12g (m g h = %.12g), |sum gamma_T| %.2g, max |u| %.2g m/s", what, solvers[k], sum,
               want, tang, umax);
        if (box && k == 0) {
            double dev = 0.0;
            for (size_t i = 0; i < fp->nc; i++) dev = fmax(dev, fabs(r[3 * i] - want / 4));
            tap_ok(fp->nc == 4 && dev <= 1e-6 * want, "%s, apgd from 0: the minimum-norm reactions m g h / 4 each (max "
                                                        "deviation %.3g)", what, dev);
        }
    }
    const char *sic[] = {"nsgs", "nsn-ac"};
    for (int k = 0; k < 2 && clab_sic_available(); k++) {
        memset(r, 0, n * sizeof *r);
        clab_sic_result res;
        int rc = clab_sic_solve(fp, sic[k], 1e-12, 1000, r, u, &res, &err);
        double sum = 0.0, umax = 0.0;
        for (size_t i = 0; i < fp->nc; i++) sum += r[3 * i];
        for (size_t k2 = 0; k2 < n; k2++) umax = fmax(umax, fabs(u[k2]));
        tap_ok(rc == 0 && res.info == 0 && fabs(sum - want) <= 1e-9 * want && umax <= 1e-9,
               "%s, Siconos %s: converged (info %d) in %ld iterations, sum r_n = %.12g, max |u| %.2g m/s", what, sic[k],
               res.info, res.iterations, sum, umax);
        double mine = clab_fc_error_siconos(fp, r, u), theirs = clab_sic_error(fp, r);
        tap_ok(fabs(mine - theirs) <= 1e-6 * theirs + 1e-14, /* 1e-14: round-off of an error near 0 */
               "%s, Siconos %s: fc3d_compute_error %.6g = clab_fc_error_siconos %.6g", what, sic[k], theirs, mine);
    }
    if (!clab_sic_available()) tap_diag("Siconos absent: its solvers not checked");
    free(r), free(u);
    clab_ccp_free(&P);
}

static void bad_file(const char *path, const char *want, const char *what)
{
    clab_fc_problem fp;
    clab_error err;
    clab_error_clear(&err);
    int rc = clab_fc_read(path, &fp, &err);
    tap_ok(rc != 0 && strstr(err.msg, want) != NULL, "%s: refused with '%s'", what, err.msg);
}

int main(void)
{
    char dir[] = "/tmp/clab-fclib-XXXXXX", path[256], p2[256];
    if (!mkdtemp(dir)) return 99;
    const char *what[2] = {"sphere on a plane", "box on a plane"};
    for (int box = 0; box < 2; box++) {
        clab_world *w;
        clab_sim *s = one_step(box, &w);
        snprintf(path, sizeof path, "%s/%s.hdf5", dir, box ? "box" : "sphere");
        clab_fc_problem back;
        roundtrip(s, path, what[box], &back);
        tap_ok(back.nc == (box ? 4u : 1u), "%s: %zu contacts", what[box], back.nc);
        solve_all(&back, box, what[box]);
        clab_fc_free(&back);
        clab_sim_destroy(s);
        clab_world_destroy(w);
    }
    /* bad files */
    snprintf(p2, sizeof p2, "%s/none.hdf5", dir);
    bad_file(p2, "cannot open", "a missing file");
    snprintf(p2, sizeof p2, "%s/text.hdf5", dir);
    FILE *f = fopen(p2, "w");
    fprintf(f, "not an HDF5 file\n");
    fclose(f);
    bad_file(p2, "not an HDF5 file", "a text file");
    /* a truncated copy of the box's file */
    snprintf(p2, sizeof p2, "%s/truncated.hdf5", dir);
    FILE *in = fopen(path, "rb"), *out = fopen(p2, "wb");
    fseek(in, 0, SEEK_END);
    long len = ftell(in);
    rewind(in);
    char *buf = malloc((size_t)len);
    size_t got = fread(buf, 1, (size_t)len, in);
    fwrite(buf, 1, got / 2, out);
    fclose(in), fclose(out), free(buf);
    bad_file(p2, "damaged or truncated", "a truncated file");
    /* foreign HDF5: a group of another name */
    snprintf(p2, sizeof p2, "%s/foreign.hdf5", dir);
    hid_t h = H5Fcreate(p2, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    H5Gclose(H5Gcreate2(h, "/something_else", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    H5Fclose(h);
    bad_file(p2, "without /fclib_local or /fclib_global", "an HDF5 file without the FCLIB groups");
    /* a damaged FCLIB layout: W/x removed from a copy of the sphere's */
    snprintf(path, sizeof path, "%s/sphere.hdf5", dir);
    h = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(h, "/fclib_local/W/x", H5P_DEFAULT);
    H5Fclose(h);
    bad_file(path, "/fclib_local/W/x has -1 entries", "an FCLIB file without W's values");
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) tap_diag("could not remove %s", dir);
    return tap_done();
}
#endif
