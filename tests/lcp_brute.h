/* lcp_brute.h: the reference the Lemke tests hold Lemke's method to: every solution of a small
 * LCP  w = M z + q >= 0, z >= 0, z.w = 0  by enumerating the 2^n complementary bases (Gaussian
 * elimination on each), the violation measure it is judged by, and the tests' random numbers.
 * Shared by tests/test_lcp.c and tests/test_lcp_reg.c. */
#ifndef CLAB_TEST_LCP_BRUTE_H
#define CLAB_TEST_LCP_BRUTE_H

#include <math.h>
#include <string.h>

#define LCP_BRUTE_NMAX 16

/* xorshift64, uniform in [0, 1) */
static inline double lcp_urand(unsigned long long *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* solve the a x a system A x = b in place (partial pivoting); -1 when a pivot is below pivtol */
static inline int lcp_gauss(double *A, double *b, int a, double pivtol)
{
    for (int c = 0; c < a; c++) {
        int p = c;
        for (int r = c + 1; r < a; r++)
            if (fabs(A[r * a + c]) > fabs(A[p * a + c])) p = r;
        if (fabs(A[p * a + c]) < pivtol) return -1;
        for (int j = 0; j < a; j++) {
            const double t = A[c * a + j];
            A[c * a + j] = A[p * a + j];
            A[p * a + j] = t;
        }
        const double t = b[c];
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
static inline double lcp_violation(int n, const double *M, const double *q, const double *z)
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

/* every solution over the complementary bases, a basis counting when its violation is at most
 * 1e-9 (at most max kept in Z, n apart; n <= LCP_BRUTE_NMAX); the count */
static inline int lcp_brute(int n, const double *M, const double *q, double *Z, int max, double pivtol)
{
    int found = 0;
    for (unsigned mask = 0; mask < (1u << n); mask++) {
        int idx[LCP_BRUTE_NMAX], a = 0;
        for (int i = 0; i < n; i++)
            if (mask & (1u << i)) idx[a++] = i;
        double A[LCP_BRUTE_NMAX * LCP_BRUTE_NMAX], b[LCP_BRUTE_NMAX], x[LCP_BRUTE_NMAX] = {0};
        for (int r = 0; r < a; r++) {
            for (int c = 0; c < a; c++) A[r * a + c] = M[idx[r] * n + idx[c]];
            b[r] = -q[idx[r]];
        }
        if (a > 0 && lcp_gauss(A, b, a, pivtol)) continue;
        for (int r = 0; r < a; r++) x[idx[r]] = b[r];
        if (lcp_violation(n, M, q, x) <= 1e-9) {
            if (found < max) memcpy(&Z[found * n], x, (size_t)n * sizeof *x);
            found++;
        }
    }
    return found;
}

#endif
