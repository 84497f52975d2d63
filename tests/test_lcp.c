/* test_lcp.c: Lemke's method (lcp/lemke.c) and the Stewart-Trinkle LCP data (lcp/lcp_problem.c).
 *   - random LCPs of n = 1 .. 8 unknowns against brute force over all 2^n complementary bases
 *     (z_a = -M_aa^-1 q_a, z = 0 elsewhere; a solution when z_a >= 0 and w = M z + q >= 0,
 *     to 1e-9 relative to 1 + |z|, see violation()): P-matrices (symmetric positive definite, and positive definite plus a skew part),
 *     for which the solution exists and is unique: Lemke finds it, equal to 1e-8; positive
 *     semidefinite matrices of half rank plus a skew part (copositive-plus, not P), for which
 *     Lemke ends in a solution exactly when the LCP has one and on a ray otherwise (Cottle, Pang
 *     and Stone, Thm 4.4.13);
 *   - degenerate problems (integer data, q with ties and zeros) and the local LCPs of the
 *     polyhedral cone (lambda rows with a zero diagonal): every answer checked as an LCP solution;
 *   - Lemke warm-started from a complementary basis (clab_lemke_solve_from) on the same kinds of
 *     random LCPs, from a random guess and from the brute-force solution's own basis, with the
 *     backend's fallback to the cold start: equal to the brute-force solution (P-matrices, to
 *     1e-8) or a solution exactly when one exists (copositive-plus); the exact basis ends with no
 *     pivot;
 *   - the basis hash behind the cycling status: equal for the same basic set in any row order,
 *     back to its value when a pivot is undone, different for the bases of a small problem;
 *   - the pivot bound and a one-unknown LCP without a solution;
 *   - the dense N of lcp_problem.c against the DVI's clab_ccp_dense_N. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "add_body.h"
#include "clab_collide.h"
#include "lcp_internal.h"
#include "lcp_brute.h"
#include "tap.h"

static unsigned long long rng = 88172645463325252ULL;
static double urand(void) { return lcp_urand(&rng); }
#define violation lcp_violation
/* brute force over the complementary bases: the number of solutions found, the first in z */
static int brute(int n, const double *M, const double *q, double *z) { return lcp_brute(n, M, q, z, 1, 1e-10); }

/* M = B B^T (+ diag) (+ skew), B n x r entries in [-1, 1] */
static void make_matrix(int n, int r, double diag, double skew, double *M)
{
    double B[64], S[64];
    for (int i = 0; i < n * r; i++) B[i] = 2.0 * urand() - 1.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            const double s = skew * (2.0 * urand() - 1.0);
            S[i * n + j] = i == j ? 0.0 : s;
            S[j * n + i] = i == j ? 0.0 : -s;
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double v = 0.0;
            for (int c = 0; c < r; c++) v += B[i * r + c] * B[j * r + c];
            M[i * n + j] = v + (i == j ? diag : 0.0) + S[i * n + j];
        }
}

static void p_matrices(clab_lemke_work *W)
{
    int ok = 0, total = 0;
    double worst = 0.0;
    for (int t = 0; t < 400; t++) {
        const int n = 1 + t % 8;
        double M[64], q[8], z[8], zb[8];
        make_matrix(n, n, 0.05, t % 2 ? 1.0 : 0.0, M); /* PD (+ skew): a P-matrix */
        for (int i = 0; i < n; i++) q[i] = 2.0 * urand() - 1.0;
        long piv;
        const int st = clab_lemke_solve((size_t)n, M, q, z, 0, W, &piv);
        const int nb = brute(n, M, q, zb);
        double dz = 0.0;
        for (int i = 0; i < n; i++) dz = fmax(dz, fabs(z[i] - zb[i]));
        worst = fmax(worst, dz);
        ok += st == CLAB_LEMKE_SOLVED && nb == 1 && dz <= 1e-8;
        total++;
    }
    tap_ok(ok == total, "P-matrices (n = 1..8, half with a skew part): Lemke's z = the unique brute-force solution in "
                        "%d of %d LCPs (max |dz| %.2g <= 1e-8)", ok, total, worst);
}

static void copositive_plus(clab_lemke_work *W)
{
    int agree = 0, total = 0, solvable = 0, rays = 0;
    double worst = 0.0;
    for (int t = 0; t < 400; t++) {
        const int n = 2 + t % 7;
        double M[64], q[8], z[8], zb[8];
        make_matrix(n, n / 2, 0.0, t % 2 ? 0.5 : 0.0, M); /* PSD of rank n/2 (+ skew): not P */
        for (int i = 0; i < n; i++) q[i] = 2.0 * urand() - 1.0;
        long piv;
        const int st = clab_lemke_solve((size_t)n, M, q, z, 0, W, &piv);
        const int nb = brute(n, M, q, zb);
        solvable += nb > 0;
        rays += st == CLAB_LEMKE_RAY;
        if (st == CLAB_LEMKE_SOLVED) worst = fmax(worst, violation(n, M, q, z));
        const int good = (nb > 0 && st == CLAB_LEMKE_SOLVED && violation(n, M, q, z) <= 1e-9) ||
                         (nb == 0 && st == CLAB_LEMKE_RAY);
        if (!good) tap_diag("case %d n %d: brute %d, lemke %s after %ld pivots, violation %.3g", t, n, nb,
                            clab_lemke_status_name(st), piv, violation(n, M, q, z));
        agree += good;
        total++;
    }
    tap_ok(agree == total && solvable > 50 && total - solvable > 50,
           "PSD rank n/2 (+ skew), n = 2..8: Lemke solves exactly the %d solvable LCPs (violation %.2g <= 1e-9) and "
           "ends on a ray on the %d without a solution (%d rays; %d of %d agree)",
           solvable, worst, total - solvable, rays, agree, total);
}

static void degenerate(clab_lemke_work *W)
{
    int ok = 0, total = 0;
    long maxpiv = 0;
    for (int t = 0; t < 300; t++) {
        const int n = 2 + t % 7;
        double M[64], q[8], z[8];
        /* integer PSD (+ I for half of them) and q in {-1, 0, 1}: many ties */
        double B[64];
        for (int i = 0; i < n * n; i++) B[i] = floor(3.0 * urand()) - 1.0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double v = 0.0;
                for (int c = 0; c < n; c++) v += B[i * n + c] * B[j * n + c];
                M[i * n + j] = v + (t % 2 && i == j ? 1.0 : 0.0);
            }
        for (int i = 0; i < n; i++) q[i] = floor(3.0 * urand()) - 1.0;
        long piv;
        const int st = clab_lemke_solve((size_t)n, M, q, z, 0, W, &piv);
        double zb[8];
        const int nb = brute(n, M, q, zb);
        if (piv > maxpiv) maxpiv = piv;
        ok += (st == CLAB_LEMKE_SOLVED && violation(n, M, q, z) <= 1e-9) || (st == CLAB_LEMKE_RAY && nb == 0);
        total++;
    }
    tap_ok(ok == total, "degenerate integer LCPs (ties, q_i = 0): %d of %d solved or a ray exactly when brute force "
                        "finds none (at most %ld pivots: no cycling)", ok, total, maxpiv);
}

/* the local LCP of a contact (lambda rows with zero diagonal), k = 3 .. 16: always solvable
 * (Anitescu and Potra 1997); every answer an LCP solution */
static void local_problems(clab_lemke_work *W)
{
    int ok = 0, total = 0;
    double worst = 0.0;
    for (int t = 0; t < 300; t++) {
        clab_lcp_cone K;
        const int k = 3 + t % 14, m = k + 2;
        clab_lcp_cone_init(&K, k);
        double J[18], Nii[9], r[3];
        for (int i = 0; i < 18; i++) J[i] = 2.0 * urand() - 1.0; /* N = J J^T, rank 3 */
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                double v = 0.0;
                for (int c = 0; c < 6; c++) v += J[a * 6 + c] * J[b * 6 + c];
                Nii[a * 3 + b] = v;
            }
        for (int a = 0; a < 3; a++) r[a] = 2.0 * urand() - 1.0;
        if (t % 3 == 0) r[1] = r[2] = 0.0; /* no tangential motion: the ties of a symmetric polygon */
        const double mu = t % 5 == 0 ? 0.0 : urand();
        double A[66 * 66], q[66], z[66];
        clab_lcp_local(&K, Nii, mu, sqrt(3.0 / (Nii[0] + Nii[4] + Nii[8])), r, A, q);
        long piv;
        const int st = clab_lemke_solve((size_t)m, A, q, z, 0, W, &piv);
        const double v = violation(m, A, q, z);
        worst = fmax(worst, v);
        ok += st == CLAB_LEMKE_SOLVED && v <= 1e-9;
        total++;
    }
    tap_ok(ok == total, "Stewart-Trinkle local LCPs, k = 3..16, mu in [0, 1): %d of %d solved (violation %.2g <= 1e-9)",
           ok, total, worst);
}

/* warm start then, on a ray, a cycle or the bound, the cold start (as lcp_lemke.c does) */
static int warm_then_cold(int n, const double *M, const double *q, const unsigned char *start, double *z,
                          clab_lemke_work *W, int *warm_status, long *warm_pivots)
{
    long piv;
    int st = clab_lemke_solve_from((size_t)n, M, q, start, z, 0, W, &piv);
    *warm_status = st;
    *warm_pivots = piv;
    if (st > 0) st = clab_lemke_solve((size_t)n, M, q, z, 0, W, &piv);
    return st;
}

static void warm_start(clab_lemke_work *W)
{
    int ok = 0, total = 0, warm_solved = 0, exact_zero = 0, exact_total = 0;
    double worst = 0.0;
    for (int t = 0; t < 400; t++) { /* P-matrices: the unique solution */
        const int n = 1 + t % 8;
        double M[64], q[8], z[8], zb[8];
        unsigned char start[8];
        make_matrix(n, n, 0.05, t % 2 ? 1.0 : 0.0, M);
        for (int i = 0; i < n; i++) q[i] = 2.0 * urand() - 1.0;
        const int nb = brute(n, M, q, zb);
        for (int i = 0; i < n; i++) start[i] = urand() < 0.5;
        int ws;
        long wp;
        const int st = warm_then_cold(n, M, q, start, z, W, &ws, &wp);
        double dz = 0.0;
        for (int i = 0; i < n; i++) dz = fmax(dz, fabs(z[i] - zb[i]));
        worst = fmax(worst, dz);
        ok += st == CLAB_LEMKE_SOLVED && nb == 1 && dz <= 1e-8;
        warm_solved += ws == CLAB_LEMKE_SOLVED;
        total++;
        /* from the solution's own basis: no pivot, the same z */
        for (int i = 0; i < n; i++) start[i] = zb[i] > 0.0;
        long piv;
        const int st2 = clab_lemke_solve_from((size_t)n, M, q, start, z, 0, W, &piv);
        dz = 0.0;
        for (int i = 0; i < n; i++) dz = fmax(dz, fabs(z[i] - zb[i]));
        exact_zero += st2 == CLAB_LEMKE_SOLVED && piv == 0 && dz <= 1e-8;
        exact_total++;
    }
    tap_ok(ok == total && warm_solved > total / 2,
           "warm-started Lemke on P-matrices (n = 1..8, random guessed basis, cold start on failure): z = the unique "
           "brute-force solution in %d of %d (max |dz| %.2g <= 1e-8); the warm start alone solved %d",
           ok, total, worst, warm_solved);
    tap_ok(exact_zero == exact_total, "warm start from the brute-force solution's basis: solved with 0 pivots, same z "
                                      "to 1e-8, in %d of %d", exact_zero, exact_total);
    int agree = 0, solvable = 0, warm_ok = 0;
    total = 0;
    for (int t = 0; t < 400; t++) { /* copositive-plus: a solution exactly when brute force finds one */
        const int n = 2 + t % 7;
        double M[64], q[8], z[8], zb[8];
        unsigned char start[8];
        make_matrix(n, n / 2, 0.0, t % 2 ? 0.5 : 0.0, M);
        for (int i = 0; i < n; i++) q[i] = 2.0 * urand() - 1.0;
        const int nb = brute(n, M, q, zb);
        for (int i = 0; i < n; i++) start[i] = urand() < 0.5;
        int ws;
        long wp;
        const int st = warm_then_cold(n, M, q, start, z, W, &ws, &wp);
        solvable += nb > 0;
        const int good = (nb > 0 && st == CLAB_LEMKE_SOLVED && violation(n, M, q, z) <= 1e-9) ||
                         (nb == 0 && st == CLAB_LEMKE_RAY);
        if (!good) tap_diag("warm case %d n %d: brute %d, lemke %s (warm %s after %ld pivots)", t, n, nb,
                            clab_lemke_status_name(st), clab_lemke_status_name(ws), wp);
        agree += good;
        warm_ok += ws == CLAB_LEMKE_SOLVED && violation(n, M, q, z) <= 1e-9;
        total++;
    }
    tap_ok(agree == total && solvable > 50, "warm-started Lemke on PSD rank n/2 (+ skew), n = 2..8: a solution (violation "
                                            "<= 1e-9) exactly for the %d solvable of %d (%d agree; the warm start alone "
                                            "solved %d)", solvable, total, agree, warm_ok);
}

/* the basis hash of the cycling test: a function of the basic set only */
static void basis_hash(void)
{
    const int b1[5] = {0, 6, 2, 10, 4}, b2[5] = {4, 10, 2, 6, 0}; /* n = 5: w0, z1, w2, z0, w4 */
    const unsigned long long h1 = clab_lemke_basis_hash(5, b1), h2 = clab_lemke_basis_hash(5, b2);
    int b3[5] = {0, 6, 2, 10, 4};
    b3[2] = 7; /* w2 leaves, z2 enters */
    const unsigned long long h3 = clab_lemke_basis_hash(5, b3);
    b3[2] = 2; /* and back: the same basis again */
    const unsigned long long h4 = clab_lemke_basis_hash(5, b3);
    /* all 2^5 complementary bases of n = 5 with z0 in row 0: distinct hashes */
    unsigned long long all[32];
    int distinct = 1;
    for (int mask = 0; mask < 32; mask++) {
        int b[5];
        for (int i = 0; i < 5; i++) b[i] = mask & (1 << i) ? 5 + i : i;
        b[0] = 10;
        all[mask] = clab_lemke_basis_hash(5, b);
        for (int j = 0; j < mask; j++)
            if (all[j] == all[mask] && (mask | 1) != (j | 1)) distinct = 0;
    }
    tap_ok(h1 == h2 && h3 != h1 && h4 == h1 && distinct,
           "basis hash: the same basic set in another row order gives the same hash, a pivot changes it and undoing "
           "it restores it (a repeated basis, the cycling status '%s'), the complementary bases of n = 5 differ",
           clab_lemke_status_name(CLAB_LEMKE_CYCLE));
}

static void limits(clab_lemke_work *W)
{
    double M1 = -1.0, q1 = -1.0, z1;
    long piv;
    int st = clab_lemke_solve(1, &M1, &q1, &z1, 0, W, &piv);
    tap_ok(st == CLAB_LEMKE_RAY, "w = -z - 1 >= 0 has no solution: %s after %ld pivots", clab_lemke_status_name(st), piv);
    double M[64], q[8], z[8];
    make_matrix(8, 8, 0.05, 0.0, M);
    for (int i = 0; i < 8; i++) q[i] = -1.0 - urand();
    st = clab_lemke_solve(8, M, q, z, 2, W, &piv);
    tap_ok(st == CLAB_LEMKE_MAXPIVOT && piv == 2, "max_pivots = 2 on an LCP needing more: %s after %ld pivots",
           clab_lemke_status_name(st), piv);
    const double q0[3] = {0.0, 1.0, 2.0};
    st = clab_lemke_solve(3, M, q0, z, 0, W, &piv);
    tap_ok(st == CLAB_LEMKE_SOLVED && piv == 0 && z[0] == 0.0 && z[1] == 0.0 && z[2] == 0.0, "q >= 0: z = 0, no pivot");
}

/* the dense N of the LCP backend (from the incidences) against the DVI's (from P) */
static void dense_N(void)
{
    clab_world_def wd = clab_default_world_def();
    clab_world *w = clab_world_create(&wd);
    add(w, clab_plane(), clab_v3(0.0, 0.0, 0.0), clab_q_identity(), 1);
    const int a = add(w, clab_box(0.1, 0.07, 0.05), clab_v3(0.0, 0.0, 0.049), clab_q_axis_angle(clab_v3(0, 0, 1), 0.3), 0);
    const int b = add(w, clab_sphere(0.05), clab_v3(0.02, 0.01, 0.148), clab_q_identity(), 0);
    clab_joint J = {CLAB_JOINT_DISTANCE, a, b, clab_v3(0.1, 0.0, 0.0), clab_v3(0.0, 0.0, 0.05), 0.2};
    clab_error err;
    clab_world_add_joint(w, &J, &err);
    clab_contacts c = {0};
    clab_collider *cd = clab_collider_create();
    clab_collide(cd, w, 0.002, &c, &err);
    clab_ccp P;
    clab_ccp_init(&P);
    int ok = clab_ccp_build(&P, w, &c, 1e-3, 1.0, &err) == CLAB_OK && c.n >= 5;
    double *N1 = calloc(P.n * P.n + 1, sizeof *N1), *N2 = calloc(P.n * P.n + 1, sizeof *N2), diff = 0.0, scale = 0.0;
    if (ok) {
        clab_lcp_dense_N(&P, N1);
        clab_ccp_dense_N(&P, N2);
        for (size_t i = 0; i < P.n * P.n; i++) {
            diff = fmax(diff, fabs(N1[i] - N2[i]));
            scale = fmax(scale, fabs(N2[i]));
        }
    }
    tap_ok(ok && diff <= 1e-12 * scale, "dense N = P^T M^-1 P (box on a plane, sphere on the box, a joint; %zu rows): "
                                        "by incidences = from P to %.2g (<= 1e-12 of %.3g)", P.n, diff, scale);
    free(N1);
    free(N2);
    clab_ccp_free(&P);
    clab_contacts_free(&c);
    clab_collider_destroy(cd);
    clab_world_destroy(w);
}

int main(void)
{
    clab_lemke_work W;
    clab_lemke_work_init(&W);
    p_matrices(&W);
    copositive_plus(&W);
    degenerate(&W);
    local_problems(&W);
    warm_start(&W);
    basis_hash();
    limits(&W);
    clab_lemke_work_free(&W);
    dense_N();
    return tap_done();
}
