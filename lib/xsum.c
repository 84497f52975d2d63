/* xsum.c: the superaccumulator of clab_xsum.h (exact, order-independent sums of doubles) */
#include "clab_xsum.h"

#include <math.h>
#include <string.h>

#define DIGIT_BITS 32
#define DIGIT_MASK 0xffffffffu
#define BIAS 1074 /* bit position 0 is 2^-1074, the smallest subnormal */
/* carry after this many additions: each adds less than 2^32 in magnitude to a digit, so a
 * digit stays below 2^(32 + 20) in magnitude, far from int64's range */
#define CARRY_EVERY (1 << 20)

void clab_xsum_init(clab_xsum *s)
{
    memset(s->digit, 0, sizeof s->digit);
    s->pending = 0;
    s->nonfinite = 0;
    s->special = 0.0;
}

void clab_xsum_carry(clab_xsum *s)
{
    for (int j = 0; j < CLAB_XSUM_DIGITS - 1; j++) {
        /* digit = low + 2^32 carry with low in [0, 2^32): exact for negative digits too */
        int64_t low = (int64_t)((uint64_t)s->digit[j] & DIGIT_MASK);
        int64_t carry = (s->digit[j] - low) / ((int64_t)1 << DIGIT_BITS);
        s->digit[j] = low;
        s->digit[j + 1] += carry;
    }
    s->pending = 0;
}

void clab_xsum_add(clab_xsum *s, double x)
{
    if (x == 0.0) return;
    if (!isfinite(x)) {
        s->special = s->nonfinite ? s->special + x : x;
        s->nonfinite = 1;
        return;
    }
    /* x = m 2^(p - BIAS), m an integer below 2^53 in magnitude, p >= 0 */
    int e;
    double f = frexp(x, &e); /* x = f 2^e, 0.5 <= |f| < 1 */
    int64_t m = (int64_t)ldexp(f, 53);
    int p = e - 53 + BIAS;
    if (p < 0) { /* a subnormal: m has at least -p trailing zero bits */
        m /= (int64_t)1 << -p;
        p = 0;
    }
    uint64_t u = (uint64_t)(m < 0 ? -m : m);
    int j = p / DIGIT_BITS, sh = p % DIGIT_BITS;
    /* u 2^sh in three 32-bit pieces: bits 0-31, 32-63, 64-95 */
    int64_t d0 = (int64_t)((u << sh) & DIGIT_MASK);
    int64_t d1 = (int64_t)((sh ? u >> (DIGIT_BITS - sh) : u >> DIGIT_BITS) & DIGIT_MASK);
    int64_t d2 = (int64_t)(sh ? u >> (2 * DIGIT_BITS - sh) : 0);
    if (m < 0) d0 = -d0, d1 = -d1, d2 = -d2;
    s->digit[j] += d0;
    s->digit[j + 1] += d1;
    s->digit[j + 2] += d2;
    if (++s->pending >= CARRY_EVERY) clab_xsum_carry(s);
}

void clab_xsum_merge(clab_xsum *s, const clab_xsum *t)
{
    clab_xsum c = *t;
    clab_xsum_carry(&c);
    clab_xsum_carry(s);
    for (int j = 0; j < CLAB_XSUM_DIGITS; j++) s->digit[j] += c.digit[j];
    s->pending = 2; /* each digit below 2^33: as after two additions */
    if (c.nonfinite) {
        s->special = s->nonfinite ? s->special + c.special : c.special;
        s->nonfinite = 1;
    }
}

/* the number of the highest set bit of v > 0 (0 for v = 1) */
static int top_bit(uint64_t v)
{
    int b = 0;
    while (v >>= 1) b++;
    return b;
}

/* a magnitude (carried, every digit in [0, 2^32), the top one too) to the nearest double */
static double round_magnitude(const int64_t *d)
{
    int j = CLAB_XSUM_DIGITS - 1;
    while (j >= 0 && d[j] == 0) j--;
    if (j < 0) return 0.0;
    if (DIGIT_BITS * j - BIAS >= 1024) return HUGE_VAL; /* at least 2^1038 */
    if (j <= 1) { /* below 2^64 units of 2^-1074 */
        uint64_t n = (uint64_t)d[0] | (j == 1 ? (uint64_t)d[1] << DIGIT_BITS : 0);
        if (n < ((uint64_t)1 << 53)) return ldexp((double)n, -BIAS); /* exact: a subnormal or 2^-1022 .. 2^-1021 */
    }
    /* the top 64 bits of the window d[j], d[j-1], d[j-2], then a sticky bit for the rest */
    uint64_t w2 = (uint64_t)d[j], w1 = j >= 1 ? (uint64_t)d[j - 1] : 0, w0 = j >= 2 ? (uint64_t)d[j - 2] : 0;
    int L = top_bit(w2); /* 0..31 */
    uint64_t top = (w2 << (63 - L)) | (w1 << (31 - L)) | (w0 >> (L + 1));
    int sticky = (w0 & (((uint64_t)1 << (L + 1)) - 1)) != 0;
    for (int k = j - 3; k >= 0 && !sticky; k--) sticky = d[k] != 0;
    uint64_t mant = top >> 11, rest = top & 0x7ff;
    int exp2 = DIGIT_BITS * j + L - 52 - BIAS; /* value = mant 2^exp2 before rounding */
    /* round to nearest, ties to even: rest's bit 10 is half an ulp */
    if (rest > 0x400 || (rest == 0x400 && (sticky || (mant & 1)))) mant++;
    if (mant == ((uint64_t)1 << 53)) mant >>= 1, exp2++;
    return ldexp((double)mant, exp2); /* exact, or an infinity beyond the largest double */
}

double clab_xsum_round(const clab_xsum *s)
{
    if (s->nonfinite) return s->special;
    clab_xsum c = *s;
    clab_xsum_carry(&c);
    int negative = c.digit[CLAB_XSUM_DIGITS - 1] < 0;
    if (negative) { /* negate: every digit, then carry again */
        for (int j = 0; j < CLAB_XSUM_DIGITS; j++) c.digit[j] = -c.digit[j];
        clab_xsum_carry(&c);
    }
    double r = round_magnitude(c.digit);
    return negative ? -r : r;
}

double clab_xsum_array(const double *x, long n)
{
    clab_xsum s;
    clab_xsum_init(&s);
    for (long k = 0; k < n; k++) clab_xsum_add(&s, x[k]);
    return clab_xsum_round(&s);
}

double clab_xsum_dot(const double *x, const double *y, long n)
{
    clab_xsum s;
    clab_xsum_init(&s);
    for (long k = 0; k < n; k++) clab_xsum_add(&s, x[k] * y[k]);
    return clab_xsum_round(&s);
}
