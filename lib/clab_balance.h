/* clab_balance.h: where a parallel loop is cut into one contiguous share a thread, moved call
 * by call toward equal busy times.
 *
 * A static cut (equal items, or a cost model's equal cost) leaves threads waiting when the
 * items differ in cost in ways the model does not see: the floor's row of the narrow phase
 * (the general collision path), the terms one thread adds for the others' bodies, one
 * core's caches holding more of the data. Each call, every thread notes the fraction of the
 * loop it started at and the seconds it was busy; then one thread sets the next cut halfway
 * toward the shares that would have taken equal times at the speeds seen (share / seconds),
 * no share below a fifth of an even one (so that one slow spell of the host cannot starve
 * a thread). Which thread takes an item changes, never what is computed: the loops that use it
 * give the same results for any cut. */
#ifndef CLAB_BALANCE_H
#define CLAB_BALANCE_H

#include <stddef.h>

#define CLAB_BALANCE_MAX 16 /* threads the cut follows; more: an even cut */

typedef struct clab_balance {
    int T;                           /* threads of the cut f; 0: none yet (even) */
    double f[CLAB_BALANCE_MAX + 1];  /* thread t takes [f[t], f[t+1]) of the loop, f[0] = 0, f[T] = 1 */
    double u[CLAB_BALANCE_MAX + 1];  /* the last call's cut as the threads used it (clab_balance_note) */
    double s[CLAB_BALANCE_MAX];      /* the last call's busy seconds of each thread */
} clab_balance;

static inline void clab_balance_init(clab_balance *b) { b->T = 0; }

/* where thread t of T starts, a fraction of the loop (t = T: 1); even until a call on T
 * threads has been timed */
static inline double clab_balance_at(const clab_balance *b, int t, int T)
{
    if (t >= T) return 1.0;
    if (b->T != T || T > CLAB_BALANCE_MAX) return (double)t / (double)T;
    return b->f[t];
}

/* thread t (of this call's T) started at fraction u of the loop (its cut as it fell, e.g. on
 * a body's first contact) and was busy for `seconds` */
static inline void clab_balance_note(clab_balance *b, int t, double u, double seconds)
{
    if (t < CLAB_BALANCE_MAX) {
        b->u[t] = t == 0 ? 0.0 : u;
        b->s[t] = seconds;
    }
}

/* the next cut from the notes of a call on T threads (one thread, once they are all in). A
 * call whose notes give no speed (an empty share, no time) leaves the cut as it was */
static inline void clab_balance_update(clab_balance *b, int T)
{
    if (T < 2 || T > CLAB_BALANCE_MAX) return;
    double rate[CLAB_BALANCE_MAX], sum = 0.0;
    b->u[T] = 1.0;
    for (int t = 0; t < T; t++) {
        const double share = b->u[t + 1] - b->u[t];
        if (!(share > 0.0) || !(b->s[t] > 0.0)) return;
        rate[t] = share / b->s[t];
        sum += rate[t];
    }
    if (!(sum > 0.0) || !(sum < 1e300)) return;
    /* the shares of equal times, none below a quarter of 1/T, then scaled to sum to 1 (which
     * leaves each at least a fifth of 1/T: the sum is at most 1 + 1/4) */
    double total = 0.0;
    for (int t = 0; t < T; t++) {
        const double lo = 0.25 / (double)T;
        rate[t] = rate[t] / sum < lo ? lo : rate[t] / sum;
        total += rate[t];
    }
    double at = 0.0;
    for (int t = 0; t < T; t++) {
        const double was = b->T == T ? b->f[t] : b->u[t];
        b->f[t] = 0.5 * was + 0.5 * at;
        at += rate[t] / total;
    }
    b->f[0] = 0.0;
    b->f[T] = 1.0;
    b->T = T;
}

/* [*i0, *i1) of n items for thread t of T, cut at multiples of `align` items (1: anywhere) */
static inline void clab_balance_range(const clab_balance *b, size_t n, size_t align, int t, int T, size_t *i0,
                                      size_t *i1)
{
    const double a = clab_balance_at(b, t, T), e = clab_balance_at(b, t + 1, T);
    const size_t blocks = (n + align - 1) / align;
    const size_t b0 = t <= 0 ? 0 : (size_t)(a * (double)blocks + 0.5), b1 = t + 1 >= T ? blocks : (size_t)(e * (double)blocks + 0.5);
    *i0 = b0 * align < n ? b0 * align : n;
    *i1 = b1 * align < n ? b1 * align : n;
}

#endif
