/* clab_xsum.h: exact sums of doubles, the same bits in any order (a superaccumulator).
 *
 * A floating-point sum depends on the order of its terms; a sum split over threads or MPI
 * ranks is then not the one-process sum. clab_xsum keeps the exact sum of its terms as a
 * fixed-point integer covering the whole range of doubles (2^-1074 to 2^1024) in 32-bit
 * digits, so adding is exact and the result, rounded once to the nearest double (ties to
 * even), does not depend on the order of the additions nor on how the terms were split
 * between accumulators (clab_xsum_merge). Products are rounded before they are added: a dot
 * product sum_k x_k y_k is the exactly rounded sum of the rounded products fl(x_k y_k).
 *
 * The digits are plain int64 integers: accumulators of several processes combine by integer
 * addition (an MPI_SUM of CLAB_XSUM_DIGITS MPI_INT64_T, after clab_xsum_carry on each),
 * which is associative, hence independent of the reduction tree.
 *
 * Non-finite terms: the result is the IEEE sum of the non-finite terms alone (NaN if any is
 * NaN or both infinities occur, else the infinity), as a sequential sum would give. An exact
 * sum beyond the largest double rounds to an infinity; one that a sequential sum would
 * overflow on its way but that ends in range (DBL_MAX + DBL_MAX - DBL_MAX) is exact here. */
#ifndef CLAB_XSUM_H
#define CLAB_XSUM_H

#include <stdint.h>

/* value = sum_j digit[j] 2^(32 j - 1074); a double's 53 bits at bit position p = 0..2097 of
 * that scale span digits p/32 .. p/32 + 2, so 66 digits hold every double and 2 more the
 * carries of a sum of up to 2^64 of the largest */
#define CLAB_XSUM_DIGITS 68

typedef struct clab_xsum {
    int64_t digit[CLAB_XSUM_DIGITS];
    int64_t pending;  /* additions since the last carry propagation */
    int nonfinite;    /* 1 when a NaN or an infinity was added: the result is special */
    double special;   /* the IEEE sum of the non-finite terms */
} clab_xsum;

void clab_xsum_init(clab_xsum *s);
/* s += x, exactly */
void clab_xsum_add(clab_xsum *s, double x);
/* s += t, exactly (t unchanged): the sum of two partial sums */
void clab_xsum_merge(clab_xsum *s, const clab_xsum *t);
/* propagate the carries: every digit but the top one in [0, 2^32); the value is unchanged */
void clab_xsum_carry(clab_xsum *s);
/* the sum rounded to the nearest double, ties to even */
double clab_xsum_round(const clab_xsum *s);

/* the exactly rounded sum of x[0..n-1] and dot product sum fl(x_k y_k) */
double clab_xsum_array(const double *x, long n);
double clab_xsum_dot(const double *x, const double *y, long n);

#endif
