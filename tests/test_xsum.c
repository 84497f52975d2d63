/* test_xsum: the superaccumulator (lib/xsum.c) against exact references: sums whose exact
 * value is known in closed form or as an integer, IEEE round-to-nearest-even ties, the
 * subnormal and overflow ends, non-finite terms, and the independence of the result from
 * the order and the split of the terms (what makes MPI reductions match one process). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/clab_xsum.h"
#include "tap.h"

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* a small reproducible generator (xorshift64*) */
static uint64_t rng(uint64_t *st)
{
    *st ^= *st >> 12, *st ^= *st << 25, *st ^= *st >> 27;
    return *st * 2685821657736338717ull;
}

static void closed_forms(void)
{
    double a[] = {1e100, 1.0, -1e100};
    tap_ok(clab_xsum_array(a, 3) == 1.0, "1e100 + 1 - 1e100 = 1 (a sequential sum gives 0)");
    double tenth[10];
    for (int k = 0; k < 10; k++) tenth[k] = 0.1;
    /* 0.1 = 3602879701896397 2^-55; ten of them = 1 + 2^-54 exactly, nearest double 1 */
    tap_ok(clab_xsum_array(tenth, 10) == 1.0, "ten times the double 0.1 rounds to 1 (sequential: %.17g)",
           0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1);
    double t1[] = {1.0, ldexp(1.0, -53)};
    tap_ok(clab_xsum_array(t1, 2) == 1.0, "1 + 2^-53 is a tie: to even, 1");
    double t2[] = {1.0, ldexp(1.0, -53), ldexp(1.0, -200)};
    tap_ok(clab_xsum_array(t2, 3) == 1.0 + ldexp(1.0, -52), "1 + 2^-53 + 2^-200 is above the tie: 1 + 2^-52");
    double t3[] = {1.0 + ldexp(1.0, -52), ldexp(1.0, -53)};
    tap_ok(clab_xsum_array(t3, 2) == 1.0 + ldexp(1.0, -51), "(1 + 2^-52) + 2^-53 is a tie: to even, 1 + 2^-51");
    double t4[] = {-1.0, -ldexp(1.0, -53), -ldexp(1.0, -200)};
    tap_ok(clab_xsum_array(t4, 3) == -1.0 - ldexp(1.0, -52), "negative sums round symmetrically");
    double sub[] = {DBL_TRUE_MIN, DBL_TRUE_MIN, DBL_TRUE_MIN};
    tap_ok(clab_xsum_array(sub, 3) == 3.0 * DBL_TRUE_MIN, "three smallest subnormals: 3 2^-1074");
    double sub2[] = {DBL_MIN, -DBL_TRUE_MIN};
    tap_ok(clab_xsum_array(sub2, 2) == DBL_MIN - DBL_TRUE_MIN, "2^-1022 - 2^-1074: the largest subnormal");
    double big[] = {DBL_MAX, DBL_MAX, -DBL_MAX};
    tap_ok(clab_xsum_array(big, 3) == DBL_MAX, "DBL_MAX + DBL_MAX - DBL_MAX = DBL_MAX (sequential: inf)");
    double over[] = {DBL_MAX, DBL_MAX};
    tap_ok(isinf(clab_xsum_array(over, 2)) && clab_xsum_array(over, 2) > 0, "DBL_MAX + DBL_MAX: +inf");
    double ninf[] = {-DBL_MAX, -DBL_MAX};
    tap_ok(isinf(clab_xsum_array(ninf, 2)) && clab_xsum_array(ninf, 2) < 0, "-DBL_MAX - DBL_MAX: -inf");
    double sp1[] = {1.0, INFINITY, -3.0};
    tap_ok(clab_xsum_array(sp1, 3) == INFINITY, "1 + inf - 3 = inf");
    double sp2[] = {INFINITY, 2.0, -INFINITY};
    tap_ok(isnan(clab_xsum_array(sp2, 3)), "inf - inf: NaN");
    double sp3[] = {NAN, 2.0};
    tap_ok(isnan(clab_xsum_array(sp3, 2)), "a NaN term: NaN");
    double z[] = {0.0, -0.0};
    tap_ok(clab_xsum_array(z, 2) == 0.0 && clab_xsum_array(z, 0) == 0.0, "zeros and the empty sum: 0");
}

/* terms m_k 2^-20 with integer m_k below 2^40: the exact sum is (sum m_k) 2^-20, sum m_k an
 * int64, and its conversion to double rounds to nearest (C's default): the reference */
static void integer_reference(void)
{
    uint64_t st = 12345;
    int bad = 0;
    for (int trial = 0; trial < 200; trial++) {
        enum { N = 1000 };
        double x[N];
        int64_t msum = 0;
        for (int k = 0; k < N; k++) {
            int64_t m = (int64_t)(rng(&st) >> 24) - ((int64_t)1 << 39);
            if (k == N - 1) m = -msum + (int64_t)(rng(&st) >> 8); /* cancel nearly all, leave a 56-bit rest */
            x[k] = ldexp((double)m, -20); /* the last m (56 bits) rounds to 53: sum what is stored */
            msum += (int64_t)ldexp(x[k], 20);
        }
        double want = ldexp((double)msum, -20);
        if (!same_bits(clab_xsum_array(x, N), want)) bad++;
    }
    tap_ok(bad == 0, "200 sums of 1000 terms m 2^-20 with heavy cancellation: exactly rounded (%d wrong)", bad);
}

/* wide-range random terms: the same bits forward, backward, shuffled, split in 4 merged
 * partial sums, and past the carry interval (3 million terms) */
static void order_independence(void)
{
    enum { N = 20000 };
    static double x[N];
    uint64_t st = 987654321;
    for (int k = 0; k < N; k++) {
        double f = (double)(rng(&st) >> 11) * 0x1p-53; /* [0, 1) */
        int e = (int)(rng(&st) % 200) - 100;
        x[k] = (rng(&st) & 1 ? -1.0 : 1.0) * ldexp(f, e);
    }
    double fwd = clab_xsum_array(x, N);
    clab_xsum s;
    clab_xsum_init(&s);
    for (long k = N - 1; k >= 0; k--) clab_xsum_add(&s, x[k]);
    double bwd = clab_xsum_round(&s);
    for (int k = N - 1; k > 0; k--) { /* Fisher-Yates */
        int j = (int)(rng(&st) % (uint64_t)(k + 1));
        double t = x[k];
        x[k] = x[j], x[j] = t;
    }
    double shuf = clab_xsum_array(x, N);
    clab_xsum part[4], all;
    for (int r = 0; r < 4; r++) clab_xsum_init(&part[r]);
    for (int k = 0; k < N; k++) clab_xsum_add(&part[(k * 7) % 4], x[k]);
    clab_xsum_init(&all);
    for (int r = 3; r >= 0; r--) clab_xsum_merge(&all, &part[r]);
    double merged = clab_xsum_round(&all);
    double seq = 0.0;
    for (int k = 0; k < N; k++) seq += x[k];
    tap_ok(same_bits(fwd, bwd) && same_bits(fwd, shuf) && same_bits(fwd, merged),
           "20000 terms over 2^-100..2^100: forward, backward, shuffled, 4 merged parts the same bits (%.17g; sequential %.17g)",
           fwd, seq);
    /* 3e6 terms of 0.1 and -0.1 + 2^-60 alternately: carries run twice; exact 1.5e6 2^-60 plus
     * 1.5e6 (0.1 - 0.1) = 1.5e6 2^-60 */
    clab_xsum_init(&s);
    for (long k = 0; k < 3000000; k++) clab_xsum_add(&s, k & 1 ? -0.1 : 0.1), clab_xsum_add(&s, k & 1 ? ldexp(1.0, -60) : 0.0);
    tap_ok(clab_xsum_round(&s) == ldexp(1.5e6, -60), "3 million terms past the carry interval: 1.5e6 2^-60 exactly");
    double y[3] = {3.0, -1.0, 0.5}, w[3] = {2.0, 4.0, 8.0};
    tap_ok(clab_xsum_dot(y, w, 3) == 6.0, "dot product (3, -1, 0.5).(2, 4, 8) = 6");
}

int main(void)
{
    closed_forms();
    integer_reference();
    order_independence();
    return tap_done();
}
