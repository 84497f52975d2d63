/* test_lcp_reg.c: Lemke's method on the regularized Stewart-Trinkle LCP (lemke_reg,
 * clab_lcp_regularize: A + eps I on the c_n and beta rows), on random LCPs of one contact
 * (k = 3..6) and of two contacts sharing a rank-deficient N (k = 3; 6 contact rows of rank 2
 * or 3, as in a pile where contact rows outnumber velocities):
 *   - the regularized LCP against brute force over all 2^n complementary bases (solutions to
 *     1e-9 relative to 1 + |z|): brute force finds a solution in every case (the LCP is
 *     copositive with q_lambda = 0, solvable: Anitescu and Potra 1997), all its solutions
 *     share the impulses (c_n, beta) to 1e-8 at reg 1e-2 (not always at 1e-6: the LCP is not
 *     monotone), and Lemke solves every case, its z one of them to 1e-8;
 *   - eps -> 0: Lemke's z of the regularized LCP solves the original one up to the
 *     natural-map residual max |min(z, A z + q)| = eps max z (w = w_eps - eps z where z > 0,
 *     the formula, to 1e-12 (1 + |z|)), so the residual falls with eps: below
 *     1e-7 (1 + |z|) at eps = 1e-8 (relative to the mean diagonal) in every solved case; Lemke
 *     ends on a ray in at most 1 of 100 (copositive, not copositive-plus: see eps_to_zero). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lcp_internal.h"
#include "lcp_brute.h"
#include "tap.h"

#define NMAX 12

static unsigned long long rng = 1181783497276652981ULL;
static double urand(void) { return lcp_urand(&rng); }
#define violation lcp_violation
/* every solution over the complementary bases (at most max kept in Z, n apart); the count */
static int brute(int n, const double *M, const double *q, double *Z, int max) { return lcp_brute(n, M, q, Z, max, 1e-12); }

/* the natural-map residual max |min(z_i, w_i)|, w = M z + q, and max |z| over the impulse rows
 * (c_n, beta: not the lambda rows, the last of each m) */
static double natural(int n, int m, const double *M, const double *q, const double *z, double *zmax)
{
    double v = 0.0;
    *zmax = 0.0;
    for (int i = 0; i < n; i++) {
        double w = q[i];
        for (int j = 0; j < n; j++) w += M[i * n + j] * z[j];
        v = fmax(v, fabs(fmin(z[i], w)));
        if (i % m != m - 1) *zmax = fmax(*zmax, fabs(z[i]));
    }
    return v;
}

/* a random Stewart-Trinkle LCP (unscaled) of nc contacts with k edges: N = J J^T of rank r
 * over the 3 nc rows (n, u, w), blocks T_i^T N_ij T_j, the lambda couplings, mu in [0.1, 1.1),
 * q = (T^T p, 0) with p in [-1, 1] */
static int make_lcp(int nc, int k, int r, double *A, double *q)
{
    clab_lcp_cone K;
    clab_lcp_cone_init(&K, k);
    const int m = k + 2, n = m * nc, n3 = 3 * nc;
    double J[6 * 6], N[6 * 6], p[6], T[3 * 17];
    for (int i = 0; i < n3 * r; i++) J[i] = 2.0 * urand() - 1.0;
    for (int a = 0; a < n3; a++)
        for (int b = 0; b < n3; b++) {
            double v = 0.0;
            for (int c = 0; c < r; c++) v += J[a * r + c] * J[b * r + c];
            N[a * n3 + b] = v;
        }
    for (int a = 0; a < n3; a++) p[a] = 2.0 * urand() - 1.0;
    for (int a = 0; a <= k; a++) { /* column a of T: the normal, or edge a - 1 */
        T[0 * (k + 1) + a] = a == 0 ? 1.0 : 0.0;
        T[1 * (k + 1) + a] = a == 0 ? 0.0 : K.c[a - 1];
        T[2 * (k + 1) + a] = a == 0 ? 0.0 : K.s[a - 1];
    }
    memset(A, 0, (size_t)n * n * sizeof *A);
    for (int i = 0; i < nc; i++) {
        for (int j = 0; j < nc; j++)
            for (int a = 0; a <= k; a++)
                for (int b = 0; b <= k; b++) {
                    double v = 0.0;
                    for (int x = 0; x < 3; x++)
                        for (int y = 0; y < 3; y++) v += T[x * (k + 1) + a] * N[(3 * i + x) * n3 + 3 * j + y] * T[y * (k + 1) + b];
                    A[(m * i + a) * n + m * j + b] = v;
                }
        const int l = m * i + k + 1;
        for (int b = 1; b <= k; b++) {
            A[(m * i + b) * n + l] = 1.0;
            A[l * n + m * i + b] = -1.0;
        }
        A[l * n + m * i] = 0.1 + urand();
        for (int a = 0; a <= k; a++) {
            double v = 0.0;
            for (int x = 0; x < 3; x++) v += T[x * (k + 1) + a] * p[3 * i + x];
            q[m * i + a] = v;
        }
        q[l] = 0.0;
    }
    return n;
}

/* case t: one contact (k = 3..6, N of rank 3) or two (k = 3, N of rank 2 or 3) */
static int make_case(int t, int *m, double *A, double *q)
{
    const int two = t % 2, k = two ? 3 : 3 + (t / 2) % 4;
    *m = k + 2;
    return make_lcp(two ? 2 : 1, k, two ? 2 + (t / 2) % 2 : 3, A, q);
}

/* Lemke on the regularized LCP (reg relative) against brute force; check_unique: assert that the
 * brute-force solutions share their impulses (else only report it) */
static void against_brute(clab_lemke_work *W, double reg, int check_unique)
{
    int solvable = 0, unique = 0, solved = 0, equal = 0, total = 0;
    double worst = 0.0;
    for (int t = 0; t < 200; t++) {
        int m;
        double A[NMAX * NMAX], q[NMAX], z[NMAX], Z[16 * NMAX];
        const int n = make_case(t, &m, A, q);
        clab_lcp_regularize(A, (size_t)n, m, reg);
        const int nb = brute(n, A, q, Z, 16), nz = nb < 16 ? nb : 16;
        long piv;
        const int st = clab_lemke_solve((size_t)n, A, q, z, 0, W, &piv);
        solvable += nb > 0;
        int same = 1; /* the brute-force solutions' impulses agree (lambda rows excluded) */
        for (int s = 1; s < nz; s++)
            for (int i = 0; i < n; i++)
                if (i % m != m - 1 && fabs(Z[s * n + i] - Z[i]) > 1e-8 * (1.0 + fabs(Z[i]))) same = 0;
        unique += nb > 0 && same;
        double best = INFINITY;
        for (int s = 0; s < nz; s++) {
            double d = 0.0, zmax = 0.0;
            for (int i = 0; i < n; i++) {
                d = fmax(d, fabs(z[i] - Z[s * n + i]));
                zmax = fmax(zmax, fabs(Z[s * n + i]));
            }
            best = fmin(best, d / (1.0 + zmax));
        }
        if (st == CLAB_LEMKE_SOLVED) {
            solved++;
            worst = fmax(worst, best);
            equal += best <= 1e-8;
        } else {
            tap_diag("reg %g case %d n %d: %d brute-force solutions, lemke %s after %ld pivots", reg, t, n, nb,
                     clab_lemke_status_name(st), piv);
        }
        total++;
    }
    tap_ok(solvable == total, "regularized Stewart-Trinkle LCPs (reg %g, 1 and 2 contacts, rank-deficient N): brute "
           "force finds a solution in %d of %d", reg, solvable, total);
    if (check_unique)
        tap_ok(unique == total, "reg %g: every brute-force solution has the same impulses (c_n, beta) to 1e-8 in %d "
               "of %d", reg, unique, total);
    else
        tap_diag("reg %g: the brute-force solutions share their impulses in %d of %d (the regularized LCP is not "
                 "monotone: the mu c_n coupling)", reg, unique, total);
    tap_ok(solved == total && equal == solved, "reg %g: Lemke solved %d of %d, its z a brute-force solution (to 1e-8 "
           "(1 + |z|), worst %.2g) in %d", reg, solved, total, worst, equal);
}

/* eps -> 0: the residual against the unregularized LCP. Lemke may end on a ray: the LCP is
 * copositive but not copositive-plus (the mu c_n coupling in the lambda rows), so a ray does
 * not prove it unsolvable (Cottle, Pang and Stone, Thm 4.4.13 needs copositive-plus); rays are
 * counted and bounded (at most 1 in 100) */
static void eps_to_zero(clab_lemke_work *W)
{
    const double regs[] = {1e-2, 1e-4, 1e-6, 1e-8};
    int formula = 0, solved = 0, small = 0, solved8 = 0, total = 0;
    double worst_formula = 0.0, worst_small = 0.0;
    for (int t = 0; t < 200; t++) {
        for (int e = 0; e < 4; e++) {
            int m;
            double A0[NMAX * NMAX], A[NMAX * NMAX], q[NMAX], z[NMAX];
            const int n = make_case(t, &m, A0, q);
            memcpy(A, A0, (size_t)n * n * sizeof *A);
            const double eps = clab_lcp_regularize(A, (size_t)n, m, regs[e]);
            long piv;
            const int st = clab_lemke_solve((size_t)n, A, q, z, 0, W, &piv);
            if (st != CLAB_LEMKE_SOLVED) {
                tap_diag("reg %g case %d n %d: lemke %s after %ld pivots", regs[e], t, n, clab_lemke_status_name(st),
                         piv);
                continue;
            }
            double zmax;
            const double res = natural(n, m, A0, q, z, &zmax);
            const double dev = fabs(res - eps * zmax) / (1.0 + zmax); /* the formula */
            worst_formula = fmax(worst_formula, dev);
            solved++;
            formula += dev <= 1e-12;
            if (e == 3) {
                worst_small = fmax(worst_small, res / (1.0 + zmax));
                small += res <= 1e-7 * (1.0 + zmax);
                solved8++;
            }
        }
        total++;
    }
    tap_ok(100 * solved >= 99 * 4 * total, "reg 1e-2 .. 1e-8: Lemke solved %d of %d (rays counted, at most 1 in 100)",
           solved, 4 * total);
    tap_ok(formula == solved, "reg 1e-2 .. 1e-8: residual of z against the unregularized LCP = eps max z "
           "(|dev| %.2g <= 1e-12 (1 + |z|)) in %d of %d solved", worst_formula, formula, solved);
    tap_ok(small == solved8, "reg 1e-8: z solves the unregularized LCP to %.2g <= 1e-7 (1 + |z|) in %d of %d solved",
           worst_small, small, solved8);
}

int main(void)
{
    clab_lemke_work W;
    clab_lemke_work_init(&W);
    against_brute(&W, 1e-2, 1);
    against_brute(&W, 1e-6, 0);
    eps_to_zero(&W);
    clab_lemke_work_free(&W);
    return tap_done();
}
