/* lemke.c: Lemke's complementary pivoting method with the lexicographic minimum ratio test
 * (Cottle, Pang and Stone, Sect. 4.4 and 4.9), dense. The tableau holds B^-1 [I  -M  -d  q]
 * for the current basis B: columns 0..n-1 belong to w (their block is B^-1), n..2n-1 to z, 2n
 * to z0, 2n+1 the basic values B^-1 q; a warm start (clab_lemke_solve_from) keeps n more,
 * B^-1 B_0. The lexicographic rule reads B^-1 (cold start, B_0 = I) or B^-1 B_0. Every basis
 * visited is recorded by its hash, so a basis that comes back (rounding can break the
 * lexicographic rule on long degenerate paths) ends the method with CLAB_LEMKE_CYCLE. */
#include "lemke.h"

#include <math.h>
#include <stdlib.h>

#define PIVOT_EPS 1e-11 /* an entry of the entering column is positive when > PIVOT_EPS max(1, |column|) */
#define RATIO_EPS 1e-12 /* relative tolerance of a tie in the ratio test */
#define CRASH_EPS 1e-6  /* warm start: a guessed column is dependent when its pivot is below CRASH_EPS max(1, |M_ii|) */
#define Z0_EPS 1e3   /* at a ray, z0 <= Z0_EPS eps_q (1e-11 max |q|) counts as zero: the basis solves the LCP */
#define SEEN_MAX (1u << 20) /* slots of the basis-hash table at most (8 MB) */

void clab_lemke_work_init(clab_lemke_work *W)
{
    W->T = NULL;
    W->basic = NULL;
    W->cap = 0;
    W->seen = NULL;
    W->cap_seen = 0;
    W->crash_dropped = 0;
}

void clab_lemke_work_free(clab_lemke_work *W)
{
    free(W->T);
    free(W->basic);
    free(W->seen);
    clab_lemke_work_init(W);
}

const char *clab_lemke_status_name(int status)
{
    switch (status) {
    case CLAB_LEMKE_SOLVED: return "solved";
    case CLAB_LEMKE_RAY: return "ray termination";
    case CLAB_LEMKE_MAXPIVOT: return "pivot limit";
    case CLAB_LEMKE_CYCLE: return "cycling (a basis repeated)";
    default: return "out of memory";
    }
}

/* room for n rows of 3n + 2 columns */
static int reserve(clab_lemke_work *W, size_t n)
{
    if (n <= W->cap && W->T) return 0;
    free(W->T);
    free(W->basic);
    W->T = malloc(n * (3 * n + 2) * sizeof *W->T);
    W->basic = malloc(n * sizeof *W->basic);
    W->cap = W->T && W->basic ? n : 0;
    return W->cap ? 0 : -1;
}

/* the Zobrist key of variable v (splitmix64 of v): never 0 in practice, fixed across runs */
static unsigned long long key(int v)
{
    unsigned long long x = (unsigned long long)v * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

unsigned long long clab_lemke_basis_hash(size_t n, const int *basic)
{
    unsigned long long h = 0;
    for (size_t i = 0; i < n; i++) h ^= key(basic[i]);
    return h;
}

/* the visited-basis table, emptied; room for about 2 (max_pivots + 1) hashes (at most SEEN_MAX) */
static int seen_reset(clab_lemke_work *W, long max_pivots)
{
    size_t want = 64;
    while (want < SEEN_MAX && want < 2 * (size_t)max_pivots + 2) want *= 2;
    if (want > W->cap_seen) {
        free(W->seen);
        W->seen = malloc(want * sizeof *W->seen);
        W->cap_seen = W->seen ? want : 0;
        if (!W->seen) return -1;
    }
    for (size_t i = 0; i < W->cap_seen; i++) W->seen[i] = 0;
    return 0;
}

/* record h; 1 when it was there already (the basis repeats). *count: hashes held; past half
 * the table the hashes are only looked up, not added */
static int seen_insert(clab_lemke_work *W, unsigned long long h, size_t *count)
{
    const size_t mask = W->cap_seen - 1;
    if (h == 0) h = 1;
    for (size_t i = (size_t)(h ^ (h >> 32)) & mask;; i = (i + 1) & mask) {
        if (W->seen[i] == h) return 1;
        if (W->seen[i] == 0) {
            if (2 * *count < W->cap_seen) {
                W->seen[i] = h;
                ++*count;
            }
            return 0;
        }
    }
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
 * a nonsingular B^-1). lex: the first column of the n the rule reads. eps_q: basic values
 * below it count as zero. */
static int lex_compare(const double *T, size_t n, size_t m, size_t lex, size_t i, size_t j, size_t c, double eps_q)
{
    const double *ti = &T[i * m], *tj = &T[j * m];
    const double ai = ti[c], aj = tj[c];
    const size_t rhs = 2 * n + 1;
    /* basic values below eps_q are zero (degenerate rows): their ratios tie exactly */
    const double xi = fabs(ti[rhs]) <= eps_q ? 0.0 : ti[rhs], xj = fabs(tj[rhs]) <= eps_q ? 0.0 : tj[rhs];
    const double qi = xi / ai, qj = xj / aj;
    if (qi < qj) return -1;
    if (qi > qj) return 1;
    for (size_t k = lex; k < lex + n; k++) {
        const double x = ti[k] / ai, y = tj[k] / aj;
        if (x < y) return -1;
        if (x > y) return 1;
    }
    return i < j ? -1 : 1; /* equal rows (a singular B^-1 to rounding): a fixed order */
}

/* The row leaving when column c enters: the lexicographic minimum ratio over rows with a
 * positive entry, z0's row when it ties for the minimum ratio; -1 when there is none (ray). */
static long ratio_test(const double *T, const int *basic, size_t n, size_t m, size_t lex, size_t c, double eps_q)
{
    const size_t rhs = 2 * n + 1;
    double cmax = 0.0;
    for (size_t i = 0; i < n; i++) cmax = fmax(cmax, fabs(T[i * m + c]));
    const double eps = PIVOT_EPS * fmax(1.0, cmax);
    long best = -1;
    for (size_t i = 0; i < n; i++) {
        if (T[i * m + c] <= eps) continue;
        if (best < 0 || lex_compare(T, n, m, lex, i, (size_t)best, c, eps_q) < 0) best = (long)i;
    }
    if (best < 0) return -1;
    /* z0 leaving at the same ratio ends the method: prefer it */
    const double *tb = &T[(size_t)best * m];
    const double xb = fabs(tb[rhs]) <= eps_q ? 0.0 : tb[rhs], qb = xb / tb[c];
    for (size_t i = 0; i < n; i++) {
        const double a = T[i * m + c];
        if (basic[i] != (int)(2 * n) || a <= eps) continue;
        const double xi = fabs(T[i * m + rhs]) <= eps_q ? 0.0 : T[i * m + rhs];
        if (xi / a <= qb * (1.0 + RATIO_EPS)) best = (long)i;
    }
    return best;
}

/* 1 when z0 is basic at a value no larger than tol (zero to the rounding of a long path): the
 * basis with z0 dropped solves the LCP to tol (w = M z + q + e z0 >= 0 and complementary, so
 * M z + q >= -tol), reached on a tie the ratio test did not see */
static int z0_zero(const double *T, const int *basic, size_t n, size_t m, double eps_q)
{
    for (size_t i = 0; i < n; i++)
        if (basic[i] == (int)(2 * n)) return fabs(T[i * m + 2 * n + 1]) <= eps_q;
    return 0;
}

/* The pivots from the basis with z0 just entered, enter the first entering column, until z0
 * leaves, a ray, a repeated basis or the bound; z from the final basis. */
static int run(size_t n, size_t m, size_t lex, size_t enter, double eps_q, long max_pivots, clab_lemke_work *W,
               double *z, long *pivots)
{
    double *T = W->T;
    int *basic = W->basic;
    const size_t rhs = 2 * n + 1;
    size_t count = 0;
    unsigned long long hash = clab_lemke_basis_hash(n, basic);
    if (seen_reset(W, max_pivots)) return -1;
    seen_insert(W, hash, &count);
    int status = CLAB_LEMKE_MAXPIVOT;
    while (*pivots < max_pivots) {
        const long row = ratio_test(T, basic, n, m, lex, enter, eps_q);
        if (row < 0) {
            status = z0_zero(T, basic, n, m, Z0_EPS * eps_q) ? CLAB_LEMKE_SOLVED : CLAB_LEMKE_RAY;
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
        hash ^= key(leave) ^ key((int)enter);
        if (seen_insert(W, hash, &count)) {
            status = CLAB_LEMKE_CYCLE;
            break;
        }
        enter = leave < (int)n ? n + (size_t)leave : (size_t)leave - n; /* the complement */
    }
    for (size_t i = 0; i < n; i++) z[i] = 0.0;
    for (size_t i = 0; i < n; i++)
        if (basic[i] >= (int)n && basic[i] < (int)(2 * n)) z[basic[i] - (int)n] = fmax(T[i * m + rhs], 0.0);
    return status;
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
    *pivots = 1;
    return run(n, m, 0, n + r, eps_q, max_pivots, W, z, pivots); /* the complement of w_r enters */
}

int clab_lemke_solve_from(size_t n, const double *M, const double *q, const unsigned char *start, double *z,
                          long max_pivots, clab_lemke_work *W, long *pivots)
{
    *pivots = 0;
    W->crash_dropped = 0;
    for (size_t i = 0; i < n; i++) z[i] = 0.0;
    if (n == 0) return CLAB_LEMKE_SOLVED;
    if (reserve(W, n)) return -1;
    if (max_pivots <= 0) max_pivots = 50 * (long)n + 100;
    const size_t m = 3 * n + 2, rhs = 2 * n + 1, lex = 2 * n + 2;
    double *T = W->T;
    int *basic = W->basic;
    double qmax = 0.0;
    for (size_t i = 0; i < n; i++) qmax = fmax(qmax, fabs(q[i]));
    /* [I  -M  0  q  0], basis w; then the guessed z_i in, on their own rows (the crash) */
    for (size_t i = 0; i < n; i++) {
        double *ti = &T[i * m];
        for (size_t j = 0; j < n; j++) {
            ti[j] = i == j ? 1.0 : 0.0;
            ti[n + j] = -M[i * n + j];
            ti[lex + j] = 0.0;
        }
        ti[2 * n] = 0.0;
        ti[rhs] = q[i];
        basic[i] = (int)i;
    }
    for (size_t i = 0; i < n; i++) {
        if (!start[i]) continue;
        if (!(fabs(T[i * m + n + i]) > CRASH_EPS * fmax(1.0, fabs(M[i * n + i])))) {
            W->crash_dropped++;
            continue;
        }
        pivot(T, n, m, i, n + i);
        basic[i] = (int)(n + i);
    }
    /* d = B e: the z0 column -B^-1 d = -e; the lexicographic block B^-1 B_0 = I */
    size_t r = 0;
    for (size_t i = 0; i < n; i++) {
        T[i * m + 2 * n] = -1.0;
        T[i * m + lex + i] = 1.0;
        if (T[i * m + rhs] < T[r * m + rhs]) r = i;
    }
    if (T[r * m + rhs] >= 0.0) { /* the basis solves the LCP */
        for (size_t i = 0; i < n; i++)
            if (basic[i] >= (int)n) z[basic[i] - (int)n] = T[i * m + rhs];
        return CLAB_LEMKE_SOLVED;
    }
    const double xr = T[r * m + rhs];
    for (size_t i = 0; i < n; i++)
        if (T[i * m + rhs] <= xr + RATIO_EPS * fabs(xr) && i > r) r = i;
    const int leave = basic[r];
    pivot(T, n, m, r, 2 * n);
    basic[r] = (int)(2 * n);
    *pivots = 1;
    const size_t enter = leave < (int)n ? n + (size_t)leave : (size_t)leave - n;
    return run(n, m, lex, enter, 1e-14 * qmax, max_pivots, W, z, pivots);
}
