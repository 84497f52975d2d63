/* fclib_cross.c: the cross-check of two solutions of one FCLIB problem's Coulomb problem,
 * contactlab's exact solution (De Saxce's fixed point) and a Siconos solver's, for
 * `contactlab bench fclib` (fclib_xp.h, doc/fclib.md):
 *  - each checked contact by contact (clab_fclib_check.h): r in K, the modified velocity
 *    y = u + [mu |u_T|, 0, 0] in K*, r . y = 0, u = W r + q and u = H^T v + w;
 *  - the fixed-point test: each solver started from the other's solution, and each from its
 *    own with the tolerance divided by POLISH: a solution of the problem stays put;
 *  - the difference: contact velocities, the slip pattern (open / sticking / sliding), the
 *    reactions split into internal stresses (null space of H) and the part that moves the
 *    bodies, and the bodies' velocities v = M^-1 (H r + f);
 *  - the midpoint (r_a + r_b)/2, a solution when the solution set is convex (the relaxed CCP's
 *    is: W is positive semi-definite). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_fclib_check.h"
#include "clab_siconos.h"
#include "fclib_xp.h"

#define SLIP 1e-5  /* [m/s] a closed contact slides when |u_T| exceeds this (10 x the --quick tol 1e-6 m/s) */
#define POLISH 100 /* the polishing solves' tolerance: the run's divided by this */

static double max_abs_diff(const double *a, const double *b, size_t n)
{
    double m = 0.0;
    for (size_t k = 0; k < n; k++) m = fmax(m, fabs(a[k] - b[k]));
    return m;
}

/* one row of the cross-check's CSV: problem, quantity, value */
static void kv(FILE *csv, const char *base, const char *who, const char *key, double value)
{
    if (csv) fprintf(csv, "%s,%s,%s,%.6e\n", base, who, key, value);
}

static void print_check(const char *name, const clab_fc_problem *fp, clab_ccp *P, const double *r, const double *u,
                        double *v, FILE *csv, const char *base)
{
    clab_fc_check c;
    clab_fc_check_coulomb(fp, r, u, SLIP, &c);
    xp_fc_run e;
    xp_fc_errors(fp, P, r, u, &e);
    double cons_g = NAN;
    clab_error err;
    if (clab_fc_body_velocity(fp, r, u, v, &cons_g, &err)) cons_g = NAN;
    printf("    %-14s %11.3e %11.3e %11.3e %11.3e %11.3e %11.3e %11.3e %6zu %6zu %6zu\n", name, e.err_siconos,
           e.residual_exact, c.cone, c.dual, c.compl_vel, c.consistency, cons_g, c.open, c.stick, c.slide);
    const char *keys[] = {"err_siconos", "r_exact_m_s", "dist_r_K_Ns", "dist_y_Kdual_m_s", "r_dot_y_over_r_m_s",
                          "u_minus_Wr_q_m_s", "u_minus_Hv_w_m_s", "open", "sticking", "sliding"};
    double vals[] = {e.err_siconos, e.residual_exact, c.cone, c.dual, c.compl_vel, c.consistency, cons_g,
                     (double)c.open, (double)c.stick, (double)c.slide};
    for (int k = 0; k < 10; k++) kv(csv, base, name, keys[k], vals[k]);
}

/* contacts whose status (open, sticking, sliding) differs between a and b */
static size_t status_changes(const clab_fc_problem *fp, const double *ra, const double *ua, const double *rb,
                             const double *ub, size_t *stick_slide)
{
    double ma = 0.0, mb = 0.0;
    for (size_t i = 0; i < fp->nc; i++) ma = fmax(ma, ra[3 * i]), mb = fmax(mb, rb[3 * i]);
    size_t nch = 0;
    *stick_slide = 0;
    for (size_t i = 0; i < fp->nc; i++) {
        int sa = clab_fc_status(fp, ra, ua, 1e-12 * ma, SLIP, i), sb = clab_fc_status(fp, rb, ub, 1e-12 * mb, SLIP, i);
        if (sa != sb) nch++;
        if (sa != sb && sa != CLAB_FC_OPEN && sb != CLAB_FC_OPEN) (*stick_slide)++;
    }
    return nch;
}

/* one restart: solver `who` (contactlab "exact" or a Siconos name) from r0 to tol; prints its
 * work and how far the contact velocities moved from u0 */
static double restart(const clab_fc_problem *fp, clab_ccp *P, const char *who, int clab, const double *r0,
                      const double *u0, double tol, long max_iter, double *r, double *u, const char *what, int *converged)
{
    *converged = 0;
    size_t n = 3 * fp->nc;
    memcpy(r, r0, n * sizeof *r);
    clab_error err;
    long it = -1, outer = 0;
    int conv = 0;
    if (clab) {
        xp_fc_run e;
        if (!xp_fc_solve(fp, P, who, tol, max_iter, r, u, &e, &err)) it = e.iterations, outer = e.outer, conv = e.converged;
    } else {
        clab_sic_result res;
        if (!clab_sic_solve(fp, who, tol, max_iter, r, u, &res, &err)) it = res.iterations, conv = res.info == 0;
    }
    if (it < 0) {
        printf("    %s: %s\n", what, err.msg);
        return NAN;
    }
    double du = max_abs_diff(u, u0, n);
    *converged = conv;
    char ccp[48] = "";
    if (clab) snprintf(ccp, sizeof ccp, " in %ld CCP solves", outer);
    xp_fc_run e;
    xp_fc_errors(fp, P, r, u, &e);
    printf("    %-44s tol %.0e: %6ld iterations%s, %s, moves u by %.3e m/s; err Siconos %.3e, r_E %.3e m/s\n", what,
           tol, it, ccp, conv ? "converged" : "NOT converged", du, e.err_siconos, e.residual_exact);
    return du;
}

/* the data both solvers read: the rebuilt CCP's mu and p against the file's mu and q (to the
 * bit), and its matrix-free d = N r + p against W r + q (rounding) at r */
static void check_data(const clab_fc_problem *fp, clab_ccp *P, const double *r, const double *u)
{
    size_t n = 3 * fp->nc, nmu = 0;
    for (size_t i = 0; i < fp->nc; i++) nmu += P->blocks[i].mu != fp->mu[i];
    memcpy(P->p, fp->q, n * sizeof *P->p);
    double *d = malloc((n + 1) * sizeof *d), *w = malloc((6 * P->nbodies + 1) * sizeof *w), dd = NAN;
    if (d && w) {
        clab_ccp_d(P, r, w, d);
        dd = max_abs_diff(d, u, n);
    }
    free(d), free(w);
    printf("    data: contactlab's CCP has the file's mu at %zu of %zu contacts and its q to the bit; its N r + p "
           "equals W r + q to %.1e m/s (a)\n", fp->nc - nmu, fp->nc, dd);
}

/* the difference of a and b: contact velocities, slip pattern, reactions (internal stresses
 * and the part that moves the bodies), bodies' velocities va, vb */
static void difference(const clab_fc_problem *fp, const xp_fc_pair *x, const double *va, const double *vb, double *dr,
                       FILE *csv, const char *base)
{
    size_t n = 3 * fp->nc, nd = fp->has_global ? (size_t)fp->M.n : 0;
    size_t nss = 0, nst = status_changes(fp, x->ra, x->ua, x->rb, x->ub, &nss), ndu = 0, nbod = 0, by[4] = {0};
    double ma = 0.0, mb = 0.0;
    for (size_t i = 0; i < fp->nc; i++) ma = fmax(ma, x->ra[3 * i]), mb = fmax(mb, x->rb[3 * i]);
    for (size_t i = 0; i < fp->nc; i++)
        if (max_abs_diff(x->ua + 3 * i, x->ub + 3 * i, 3) > 1e-4) { /* by the statuses: the same (open, stick, slide) or not */
            int sa = clab_fc_status(fp, x->ra, x->ua, 1e-12 * ma, SLIP, i), sb = clab_fc_status(fp, x->rb, x->ub, 1e-12 * mb, SLIP, i);
            ndu++;
            by[sa == sb ? sa : 3]++;
        }
    double du = max_abs_diff(x->ua, x->ub, n), dun = 0.0;
    for (size_t i = 0; i < fp->nc; i++) dun = fmax(dun, fabs(x->ua[3 * i] - x->ub[3 * i]));
    for (size_t k = 0; k < n; k++) dr[k] = x->ra[k] - x->rb[k];
    double rng = NAN, nul = NAN, nra = 0.0;
    for (size_t k = 0; k < n; k++) nra += x->rb[k] * x->rb[k];
    long cg = clab_fc_split_nullspace(fp, dr, 20000, &rng, &nul);
    double dvl = 0.0, dva = 0.0, vl = 0.0, vang = 0.0;
    for (size_t b = 0; b < nd / 6; b++) {
        double bl = max_abs_diff(va + 6 * b, vb + 6 * b, 3), ba = max_abs_diff(va + 6 * b + 3, vb + 6 * b + 3, 3);
        nbod += bl > 1e-4 || ba > 1e-2;
        dvl = fmax(dvl, bl), dva = fmax(dva, ba);
        for (int k = 0; k < 3; k++) vl = fmax(vl, fmax(fabs(va[6 * b + k]), fabs(vb[6 * b + k])));
        for (int k = 3; k < 6; k++) vang = fmax(vang, fmax(fabs(va[6 * b + k]), fabs(vb[6 * b + k])));
    }
    printf("    contact velocities: max |u_a - u_b| %.3e m/s (normal %.3e), %zu of %zu contacts above 1e-4 m/s (open in "
           "both %zu, sticking in both %zu, sliding in both %zu, status changed %zu); status differs at %zu contacts "
           "(%zu sticking <-> sliding)\n",
           du, dun, ndu, fp->nc, by[0], by[1], by[2], by[3], nst, nss);
    printf("    reactions: |r_a - r_b|_2 %.3e N s (|r_b|_2 %.3e): internal stresses (null space of H) %.3e, the part "
           "moving the bodies %.3e (CG %ld)\n",
           sqrt(rng * rng + nul * nul), sqrt(nra), nul, rng, cg);
    printf("    bodies: max |v_a - v_b| %.3e m/s, %.3e rad/s (max |v| %.3e m/s, %.3e rad/s); %zu of %zu bodies differ "
           "by more than 1e-4 m/s or 1e-2 rad/s\n",
           dvl, dva, vl, vang, nbod, nd / 6);
    const char *keys[] = {"du_max_m_s", "du_normal_max_m_s", "contacts_du_above_1e-4", "status_changes",
                          "stick_slide_changes", "dr_Ns", "dr_null_space_Ns", "dr_moving_Ns", "dv_linear_m_s",
                          "dv_angular_rad_s", "v_linear_max_m_s", "v_angular_max_rad_s", "bodies_differing"};
    double vals[] = {du, dun, (double)ndu, (double)nst, (double)nss, sqrt(rng * rng + nul * nul), nul, rng, dvl, dva,
                     vl, vang, (double)nbod};
    for (int k = 0; k < 13; k++) kv(csv, base, "difference", keys[k], vals[k]);
}

/* the midpoint (r_a + r_b) / 2: a solution when the solution set is convex (the relaxed CCP's
 * is; Coulomb's need not be) */
static void midpoint(const clab_fc_problem *fp, clab_ccp *P, const xp_fc_pair *x, double *r, double *u, FILE *csv,
                     const char *base)
{
    size_t n = 3 * fp->nc;
    for (size_t k = 0; k < n; k++) r[k] = 0.5 * (x->ra[k] + x->rb[k]);
    clab_fc_local_velocity(fp, r, u);
    xp_fc_run e;
    xp_fc_errors(fp, P, r, u, &e);
    clab_fc_check c;
    clab_fc_check_coulomb(fp, r, u, SLIP, &c);
    printf("    midpoint (r_a + r_b)/2: err Siconos %.3e, r_E %.3e m/s, d(y,K*) %.3e m/s, r.y/|r| %.3e m/s\n",
           e.err_siconos, e.residual_exact, c.dual, c.compl_vel);
    kv(csv, base, "midpoint", "err_siconos", e.err_siconos);
    kv(csv, base, "midpoint", "r_exact_m_s", e.residual_exact);
}

/* each solver from the other's solution, and from its own at the tolerance / POLISH. A restart
 * that converges within d of where it started certifies a solution of its tolerance within d
 * of that start: the two solutions are distinct when the nearest certified ones, near a and
 * near b, are farther apart than ten times those distances. */
static void fixed_points(const clab_fc_problem *fp, clab_ccp *P, const xp_fc_pair *x, double *r, double *u, double *r2,
                         double *u2, FILE *csv, const char *base)
{
    size_t n = 3 * fp->nc;
    int ca, cb, cpa, cpb;
    printf("    fixed points (a solution of the problem stays put):\n");
    char what[96];
    snprintf(what, sizeof what, "%s from %s's solution", x->name_a, x->name_b);
    double fa = restart(fp, P, "exact", 1, x->rb, x->ub, x->tol_a, x->iter_a, r, u, what, &ca);
    snprintf(what, sizeof what, "%s from %s's solution", x->name_b, x->name_a);
    double fb = restart(fp, P, x->solver_b, 0, x->ra, x->ua, x->tol_b, x->iter_b, r2, u2, what, &cb);
    double pa = NAN, pb = NAN;
    cpa = cpb = 0;
    if (!x->no_polish) {
        snprintf(what, sizeof what, "%s from its own solution", x->name_a);
        pa = restart(fp, P, "exact", 1, x->ra, x->ua, x->tol_a / POLISH, x->iter_a, r, u, what, &cpa);
        snprintf(what, sizeof what, "%s from its own solution", x->name_b);
        pb = restart(fp, P, x->solver_b, 0, x->rb, x->ub, x->tol_b / POLISH, x->iter_b, r2, u2, what, &cpb);
    } else { /* the comparison below: the restarts from the other's solution */
        memcpy(u, x->ua, n * sizeof *u);
        memcpy(u2, x->ub, n * sizeof *u2);
    }
    /* the nearest certified solutions: near a (b from a, a polished), near b (a from b, b polished) */
    double near_a = fmin(cb ? fb : INFINITY, cpa ? pa : INFINITY), near_b = fmin(ca ? fa : INFINITY, cpb ? pb : INFINITY);
    double du = max_abs_diff(x->ua, x->ub, n), dp = max_abs_diff(u, u2, n);
    printf("    the %s solutions' contact velocities differ by %.3e m/s; converged restarts put a solution within "
           "%.3e m/s of a and within %.3e m/s of b, %.3e m/s apart: %s\n",
           x->no_polish ? "(unpolished)" : "polished", dp, near_a, near_b, du,
           !isfinite(near_a) || !isfinite(near_b) ? "not shown (a restart did not converge)"
           : du > 10.0 * fmax(near_a, near_b)     ? "two distinct solutions"
                                                  : "one solution to the tolerance reached");
    kv(csv, base, "fixed_points", "a_from_b_moves_u_m_s", fa);
    kv(csv, base, "fixed_points", "b_from_a_moves_u_m_s", fb);
    kv(csv, base, "fixed_points", "a_polished_moves_u_m_s", pa);
    kv(csv, base, "fixed_points", "b_polished_moves_u_m_s", pb);
    kv(csv, base, "fixed_points", "polished_du_m_s", dp);
    kv(csv, base, "fixed_points", "solution_near_a_m_s", near_a);
    kv(csv, base, "fixed_points", "solution_near_b_m_s", near_b);
}

int xp_fc_cross(const clab_fc_problem *fp, clab_ccp *P, const xp_fc_pair *x, FILE *csv, const char *base)
{
    size_t n = 3 * fp->nc, nd = fp->has_global ? (size_t)fp->M.n : 0;
    double *va = calloc(nd + 1, sizeof *va), *vb = calloc(nd + 1, sizeof *vb), *dr = malloc((n + 1) * sizeof *dr),
           *r = malloc((n + 1) * sizeof *r), *u = malloc((n + 1) * sizeof *u), *r2 = malloc((n + 1) * sizeof *r2),
           *u2 = malloc((n + 1) * sizeof *u2);
    if (!va || !vb || !dr || !r || !u || !r2 || !u2) {
        free(va), free(vb), free(dr), free(r), free(u), free(r2), free(u2);
        fprintf(stderr, "contactlab bench fclib: out of memory for the cross-check\n");
        return -1;
    }
    printf("  cross-check of %s (a) and %s (b): Coulomb's conditions contact by contact (y = u + [mu |u_T|, 0, 0]; "
           "slide: |u_T| > %.0e m/s)\n", x->name_a, x->name_b, SLIP);
    printf("    %-14s %11s %11s %11s %11s %11s %11s %11s %6s %6s %6s\n", "solution", "err Siconos", "r_E [m/s]",
           "d(r,K) [Ns]", "d(y,K*)", "r.y/|r|", "u-(Wr+q)", "u-(Hv+w)", "open", "stick", "slide");
    print_check(x->name_a, fp, P, x->ra, x->ua, va, csv, base);
    print_check(x->name_b, fp, P, x->rb, x->ub, vb, csv, base);
    check_data(fp, P, x->ra, x->ua);
    difference(fp, x, va, vb, dr, csv, base);
    midpoint(fp, P, x, r, u, csv, base);
    fixed_points(fp, P, x, r, u, r2, u2, csv, base);
    free(va), free(vb), free(dr), free(r), free(u), free(r2), free(u2);
    return 0;
}
