/* lemke.c: Lemke's complementary pivoting method with the lexicographic minimum ratio test
 * (Cottle, Pang and Stone, Sect. 4.4 and 4.9), dense. The tableau holds B^-1 [I  -M  -e  q]
 * for the current basis B: columns 0..n-1 belong to w (their block is B^-1, which the
 * lexicographic rule reads), n..2n-1 to z, 2n to z0, 2n+1 the basic values B^-1 q. */
#include "lemke.h"

#include <math.h>
#include <stdlib.h>

#define PIVOT_EPS 1e-11 /* an entry of the entering column is positive when > PIVOT_EPS max(1, |column|) */
#define RATIO_EPS 1e-12 /* relative tolerance of a tie in the ratio test */

void clab_lemke_work_init(clab_lemke_work *W)
{
    W->T = NULL;
    W->basic = NULL;
    W->cap = 0;
}

void clab_lemke_work_free(clab_lemke_work *W)
{
    free(W->T);
    free(W->basic);
    clab_lemke_work_init(W);
}

const char *clab_lemke_status_name(int status)
{
    switch (status) {
    case CLAB_LEMKE_SOLVED: return "solved";
    case CLAB_LEMKE_RAY: return "ray termination";
    case CLAB_LEMKE_MAXPIVOT: return "pivot limit";
    default: return "out of memory";
    }
}

static int reserve(clab_lemke_work *W, size_t n)
{
    if (n <= W->cap && W->T) return 0;
    free(W->T);
    free(W->basic);
    W->T = malloc(n * (2 * n + 2) * sizeof *W->T);
    W->basic = malloc(n * sizeof *W->basic);
    W->cap = W->T && W->basic ? n : 0;
    return W->cap ? 0 : -1;
}

/* Gauss-Jordan pivot on entry (r, c) of the n x m tableau */
static void pivot(double *T, size_t n, size_t m, size_t r, size_t c)
{
    double *pr = &T[r * m];
    const double inv = 1.0 / pr[c];
    for (size_t j = 0; j < m; j++) pr[j] *= inv;
    pr[c] = 1.0;
    for (size_t i = 0; i < n; i++) {
        if (i == r) continue;
        double *ti = &T[i * m];
        const double f = ti[c];
        if (f == 0.0) continue;
        for (size_t j = 0; j < m; j++) ti[j] -= f * pr[j];
        ti[c] = 0.0;
    }
}

/* Row i against row j (both candidates, a_i, a_j > 0): -1 when row i's vector
 * (rhs_i, B^-1_i) / a_i is lexicographically smaller, +1 when larger (never 0 for two rows of
 * a nonsingular B^-1). eps_q: basic values below it count as zero. */
static int lex_compare(const double *T, size_t n, size_t m, size_t i, size_t j, size_t c, double eps_q)
{
    const double *ti = &T[i * m], *tj = &T[j * m];
    const double ai = ti[c], aj = tj[c];
    /* basic values below eps_q are zero (degenerate rows): their ratios tie exactly */
    const double xi = fabs(ti[m - 1]) <= eps_q ? 0.0 : ti[m - 1], xj = fabs(tj[m - 1]) <= eps_q ? 0.0 : tj[m - 1];
    const double qi = xi / ai, qj = xj / aj;
    if (qi < qj) return -1;
    if (qi > qj) return 1;
    for (size_t k = 0; k < n; k++) {
        const double x = ti[k] / ai, y = tj[k] / aj;
        if (x < y) return -1;
        if (x > y) return 1;
    }
    return i < j ? -1 : 1; /* equal rows (a singular B^-1 to rounding): a fixed order */
}

/* The row leaving when column c enters: the lexicographic minimum ratio over rows with a
 * positive entry, z0's row when it ties for the minimum ratio; -1 when there is none (ray). */
static long ratio_test(const double *T, const int *basic, size_t n, size_t m, size_t c, double eps_q)
{
    double cmax = 0.0;
    for (size_t i = 0; i < n; i++) cmax = fmax(cmax, fabs(T[i * m + c]));
    const double eps = PIVOT_EPS * fmax(1.0, cmax);
    long best = -1;
    for (size_t i = 0; i < n; i++) {
        if (T[i * m + c] <= eps) continue;
        if (best < 0 || lex_compare(T, n, m, i, (size_t)best, c, eps_q) < 0) best = (long)i;
    }
    if (best < 0) return -1;
    /* z0 leaving at the same ratio ends the method: prefer it */
    const double *tb = &T[(size_t)best * m];
    const double xb = fabs(tb[m - 1]) <= eps_q ? 0.0 : tb[m - 1], qb = xb / tb[c];
    for (size_t i = 0; i < n; i++) {
        const double a = T[i * m + c];
        if (basic[i] != (int)(2 * n) || a <= eps) continue;
        const double xi = fabs(T[i * m + m - 1]) <= eps_q ? 0.0 : T[i * m + m - 1];
        if (xi / a <= qb * (1.0 + RATIO_EPS)) best = (long)i;
    }
    return best;
}

int clab_lemke_solve(size_t n, const double *M, const double *q, double *z, long max_pivots, clab_lemke_work *W,
                     long *pivots)
{
    *pivots = 0;
    for (size_t i = 0; i < n; i++) z[i] = 0.0;
    size_t r = 0;
    double qmax = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (q[i] < q[r]) r = i;
        qmax = fmax(qmax, fabs(q[i]));
    }
    if (n == 0 || q[r] >= 0.0) return CLAB_LEMKE_SOLVED; /* z = 0: w = q >= 0 */
    if (reserve(W, n)) return -1;
    if (max_pivots <= 0) max_pivots = 50 * (long)n + 100;
    const size_t m = 2 * n + 2;
    double *T = W->T;
    int *basic = W->basic;
    const double eps_q = 1e-14 * qmax;
    /* [I  -M  -e  q], basis w */
    for (size_t i = 0; i < n; i++) {
        double *ti = &T[i * m];
        for (size_t j = 0; j < n; j++) {
            ti[j] = i == j ? 1.0 : 0.0;
            ti[n + j] = -M[i * n + j];
        }
        ti[2 * n] = -1.0;
        ti[m - 1] = q[i];
        basic[i] = (int)i;
    }
    /* z0 enters at the most negative q_i (ties: lexicographically, the last such row); the
     * basic values become q - q_r e >= 0 */
    for (size_t i = 0; i < n; i++)
        if (q[i] <= q[r] + RATIO_EPS * fabs(q[r]) && i > r) r = i;
    pivot(T, n, m, r, 2 * n);
    basic[r] = (int)(2 * n);
    size_t enter = n + r; /* the complement of w_r */
    int status = CLAB_LEMKE_MAXPIVOT;
    *pivots = 1;
    while (*pivots < max_pivots) {
        const long row = ratio_test(T, basic, n, m, enter, eps_q);
        if (row < 0) {
            status = CLAB_LEMKE_RAY;
            break;
        }
        const int leave = basic[row];
        pivot(T, n, m, (size_t)row, enter);
        basic[row] = (int)enter;
        ++*pivots;
        if (leave == (int)(2 * n)) {
            status = CLAB_LEMKE_SOLVED;
            break;
        }
        enter = leave < (int)n ? n + (size_t)leave : (size_t)leave - n; /* the complement */
    }
    for (size_t i = 0; i < n; i++)
        if (basic[i] >= (int)n && basic[i] < (int)(2 * n)) z[basic[i] - (int)n] = fmax(T[i * m + m - 1], 0.0);
    return status;
}
