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
 *   - the pivot bound and a one-unknown LCP without a solution;
 *   - the dense N of lcp_problem.c against the DVI's clab_ccp_dense_N. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "add_body.h"
#include "clab_collide.h"
#include "lcp_internal.h"
#include "tap.h"

static unsigned long long rng = 88172645463325252ULL;
static double urand(void) /* xorshift64, uniform in [0, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* solve the a x a system A x = b in place (partial pivoting); -1 when singular */
static int gauss(double *A, double *b, int a)
{
    for (int c = 0; c < a; c++) {
        int p = c;
        for (int r = c + 1; r < a; r++)
            if (fabs(A[r * a + c]) > fabs(A[p * a + c])) p = r;
        if (fabs(A[p * a + c]) < 1e-10) return -1;
        for (int j = 0; j < a; j++) {
            double t = A[c * a + j];
            A[c * a + j] = A[p * a + j];
            A[p * a + j] = t;
        }
        double t = b[c];
        b[c] = b[p];
        b[p] = t;
        for (int r = c + 1; r < a; r++) {
            const double f = A[r * a + c] / A[c * a + c];
            for (int j = c; j < a; j++) A[r * a + j] -= f * A[c * a + j];
            b[r] -= f * b[c];
        }
    }
    for (int r = a - 1; r >= 0; r--) {
        double v = b[r];
        for (int j = r + 1; j < a; j++) v -= A[r * a + j] * b[j];
        b[r] = v / A[r * a + r];
    }
    return 0;
}

/* max violation of z >= 0, w >= 0 and z_i w_i = 0 for w = M z + q, relative to the size of z
 * (the data are O(1); an ill-conditioned basis gives a large z whose w is good to rounding of
 * |M z|): max(-z_i, -w_i) / (1 + |z|), |z_i w_i| / (1 + |z|)^2 */
static double violation(int n, const double *M, const double *q, const double *z)
{
    double v = 0.0, zmax = 0.0;
    for (int i = 0; i < n; i++) zmax = fmax(zmax, fabs(z[i]));
    const double s = 1.0 + zmax;
    for (int i = 0; i < n; i++) {
        double w = q[i];
        for (int j = 0; j < n; j++) w += M[i * n + j] * z[j];
        v = fmax(v, fmax(-z[i], -w) / s);
        v = fmax(v, fabs(z[i] * w) / (s * s));
    }
    return v;
}

/* brute force over the complementary bases: the number of solutions found, the first in z */
static int brute(int n, const double *M, const double *q, double *z)
{
    int found = 0;
    for (unsigned mask = 0; mask < (1u << n); mask++) {
        int idx[8], a = 0;
        for (int i = 0; i < n; i++)
            if (mask & (1u << i)) idx[a++] = i;
        double A[64], b[8], x[8] = {0};
        for (int r = 0; r < a; r++) {
            for (int c = 0; c < a; c++) A[r * a + c] = M[idx[r] * n + idx[c]];
            b[r] = -q[idx[r]];
        }
        if (a > 0 && gauss(A, b, a)) continue;
        for (int r = 0; r < a; r++) x[idx[r]] = b[r];
        if (violation(n, M, q, x) <= 1e-9) {
            if (!found) memcpy(z, x, (size_t)n * sizeof *z);
            found++;
        }
    }
    return found;
}

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
    limits(&W);
    clab_lemke_work_free(&W);
    dense_N();
    return tap_done();
}
