/* history.c: storage, the in-place alignment to the step's contacts, the hash table and
 * checkpoints of the tangential history (see history.h) */
#include "history.h"

#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* below this many contacts the alignment runs on one thread */
#define HIST_PAR_MIN 4096

void clab_history_init(clab_history *h) { memset(h, 0, sizeof *h); }

void clab_history_free(clab_history *h)
{
    free(h->key);
    free(h->delta_t);
    free(h->hit);
    free(h->used);
    free(h->akey);
    free(h->adelta_t);
    free(h->at);
    free(h->tkey);
    free(h->tdelta_t);
    free(h->slot_key);
    free(h->slot_index);
    clab_history_init(h);
}

/* grow *p to n elements of size sz (contents kept) */
static int regrow(void **p, size_t n, size_t sz)
{
    void *q = realloc(*p, n * sz);
    if (!q) return CLAB_ENOMEM;
    *p = q;
    return CLAB_OK;
}

/* 64-bit words for n bits */
static size_t words(size_t n) { return (n + 63) / 64; }

/* the index of the lowest (highest) set bit of x != 0 */
static inline unsigned low_bit(uint64_t x)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned b = 0;
    while (!(x & 1u)) x >>= 1, b++;
    return b;
#endif
}
static inline unsigned high_bit(uint64_t x)
{
#if defined(__GNUC__)
    return 63u - (unsigned)__builtin_clzll(x);
#else
    unsigned b = 63;
    while (!(x >> 63)) x <<= 1, b--;
    return b;
#endif
}

/* the number of set bits of x */
static inline unsigned pop_count(uint64_t x)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_popcountll(x);
#else
    unsigned n = 0;
    for (; x; x &= x - 1) n++;
    return n;
#endif
}

/* the set bits of words [0, w) of the bit set b */
static size_t bits_before(const uint64_t *b, size_t w)
{
    size_t r = 0;
    for (size_t k = 0; k < w; k++) r += pop_count(b[k]);
    return r;
}

/* A walk over the set bits of a bit set, up (bit_up_at, bit_up) or down (bit_down_at,
 * bit_down), from the bit of rank r (the (r+1)-th set bit from the lowest); the caller
 * takes no more bits than the set holds. */
typedef struct bit_walk {
    const uint64_t *b;
    size_t w;      /* the word under way */
    uint64_t left; /* its bits still to take */
} bit_walk;

/* the word of the bit of rank r, and that word with the r' lower set bits of it cleared */
static void bit_find(const uint64_t *b, size_t r, size_t *w, uint64_t *x)
{
    size_t k = 0;
    unsigned n;
    while ((n = pop_count(b[k])) <= r) {
        r -= n;
        k++;
    }
    uint64_t y = b[k];
    while (r--) y &= y - 1;
    *w = k;
    *x = y;
}
static void bit_up_at(bit_walk *it, const uint64_t *b, size_t r)
{
    it->b = b;
    bit_find(b, r, &it->w, &it->left);
}
static inline size_t bit_up(bit_walk *it)
{
    while (!it->left) it->left = it->b[++it->w];
    size_t f = 64 * it->w + low_bit(it->left);
    it->left &= it->left - 1;
    return f;
}
static void bit_down_at(bit_walk *it, const uint64_t *b, size_t r)
{
    uint64_t x;
    it->b = b;
    bit_find(b, r, &it->w, &x);
    unsigned k = low_bit(x); /* the bit of rank r: it and the bits below it are left */
    it->left = b[it->w] & (k == 63 ? ~UINT64_C(0) : (UINT64_C(1) << (k + 1)) - 1);
}
static inline size_t bit_down(bit_walk *it)
{
    while (!it->left) it->left = it->b[--it->w];
    unsigned k = high_bit(it->left);
    it->left &= ~(UINT64_C(1) << k);
    return 64 * it->w + k;
}

/* a capacity of at least n, growing by half (1.5x) from cap */
static size_t grown(size_t cap, size_t n)
{
    size_t c = cap ? cap : 64;
    while (c < n) c += c / 2;
    return c;
}

/* the generation's storage for at least n entries (contents kept) */
static int reserve(clab_history *h, size_t n)
{
    if (n <= h->cap) return CLAB_OK;
    size_t cap = grown(h->cap, n);
    if (regrow((void **)&h->key, cap, sizeof(uint64_t)) || regrow((void **)&h->delta_t, cap, sizeof(clab_vec3)) ||
        regrow((void **)&h->hit, words(cap), sizeof(uint64_t)) || regrow((void **)&h->used, words(cap), sizeof(uint64_t)))
        return CLAB_ENOMEM;
    h->cap = cap;
    h->grows++;
    return CLAB_OK;
}

int clab_history_prepare(clab_history *h, size_t n)
{
    if (reserve(h, n)) return CLAB_ENOMEM;
    /* past the entries in use: nothing kept there (align writes them before it reads them) */
    memset(h->key + h->n, 0, (h->cap - h->n) * sizeof *h->key);
    memset(h->delta_t + h->n, 0, (h->cap - h->n) * sizeof *h->delta_t);
    memset(h->hit, 0, words(h->cap) * sizeof *h->hit); /* align's scratch */
    memset(h->used, 0, words(h->cap) * sizeof *h->used);
    return CLAB_OK;
}

/* keys k[0..n) increase strictly */
static int increasing(const uint64_t *k, size_t n)
{
    int inc = 1;
#pragma omp parallel for schedule(static) reduction(&& : inc) if (n > HIST_PAR_MIN)
    for (size_t i = 1; i < n; i++) inc = inc && k[i - 1] < k[i];
    return inc;
}

/* the hash table over the keys k[0..n) (a repeated key keeps its last index); 0 on success */
static int table(clab_history *h, const uint64_t *k, size_t n)
{
    if (h->nslots < 2 * n || h->nslots == 0) {
        size_t nslots = 1;
        unsigned bits = 0;
        while (nslots < 2 * n || nslots < 64) {
            nslots *= 2;
            bits++;
        }
        if (regrow((void **)&h->slot_key, nslots, sizeof(uint64_t)) ||
            regrow((void **)&h->slot_index, nslots, sizeof(uint32_t))) {
            h->nslots = 0;
            return CLAB_ENOMEM;
        }
        h->nslots = nslots;
        h->shift = 64u - bits;
        h->grows++;
    }
    size_t mask = h->nslots - 1;
    for (size_t s = 0; s < h->nslots; s++) h->slot_key[s] = CLAB_HISTORY_EMPTY;
    for (size_t i = 0; i < n; i++) {
        size_t s = (size_t)((k[i] * UINT64_C(0x9E3779B97F4A7C15)) >> h->shift);
        while (h->slot_key[s] != CLAB_HISTORY_EMPTY && h->slot_key[s] != k[i]) s = (s + 1) & mask;
        h->slot_key[s] = k[i];
        h->slot_index[s] = (uint32_t)i;
    }
    return CLAB_OK;
}

/* the generation copied aside (tkey, tdelta_t), looked up by clab_history_find while pending */
static int set_aside(clab_history *h)
{
    size_t n = h->n;
    if (n > h->tcap) {
        size_t cap = grown(h->tcap, n);
        if (regrow((void **)&h->tkey, cap, sizeof(uint64_t)) || regrow((void **)&h->tdelta_t, cap, sizeof(clab_vec3)))
            return CLAB_ENOMEM;
        h->tcap = cap;
    }
    if (n) {
        memcpy(h->tkey, h->key, n * sizeof(uint64_t));
        memcpy(h->tdelta_t, h->delta_t, n * sizeof(clab_vec3));
    }
    h->tn = n;
    h->tsorted = h->sorted || n < 2;
    if (!h->tsorted && table(h, h->tkey, n)) return CLAB_ENOMEM;
    return CLAB_OK;
}

int clab_history_begin(clab_history *h, size_t nmax, clab_error *err)
{
    if (nmax > UINT32_MAX / 2)
        return clab_error_set(err, CLAB_ENOMEM, "penalty history: %zu contacts is more than the table holds", nmax);
    if (set_aside(h) || reserve(h, nmax))
        return clab_error_set(err, CLAB_ENOMEM, "penalty history: out of memory for %zu contacts", nmax);
    h->pending = 1;
    h->n = 0;
    return CLAB_OK;
}

/* contacts [i0, i1) against the sorted generation (i0 a multiple of 64; i1 too, or nc): bit i
 * of hit when contact i's key is some entry's, and bit j of used for that entry j (a merge
 * from a binary search for the first key). The hit words of the range are this call's alone;
 * a used word can be shared with the neighbouring ranges (a thread's entries are a run of
 * indices): OR-ed in atomically, once a word, into words zeroed before. */
static void match_range(clab_history *h, const clab_contact *c, size_t i0, size_t i1)
{
    const uint64_t *key = h->key;
    const size_t nold = h->n;
    uint64_t *hit = h->hit, *used = h->used;
    if (i0 >= i1) return;
    size_t lo = 0, hi = nold;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key[mid] < c[i0].key) lo = mid + 1;
        else hi = mid;
    }
    size_t j = lo, uw = SIZE_MAX;
    uint64_t hbits = 0, ubits = 0;
    for (size_t i = i0; i < i1; i++) {
        uint64_t k = c[i].key;
        while (j < nold && key[j] < k) j++;
        if (j < nold && key[j] == k) {
            hbits |= UINT64_C(1) << (i & 63);
            if (j / 64 != uw) {
                if (uw != SIZE_MAX) {
#pragma omp atomic
                    used[uw] |= ubits;
                }
                uw = j / 64;
                ubits = 0;
            }
            ubits |= UINT64_C(1) << (j & 63);
        }
        if ((i & 63) == 63 || i + 1 == i1) {
            hit[i / 64] = hbits;
            hbits = 0;
        }
    }
    if (uw != SIZE_MAX) {
#pragma omp atomic
        used[uw] |= ubits;
    }
}

/* One thread's share of the parallel moves: the contacts [i0, i1) (i0 = 64 w0; i1 = 64 w1, or
 * nc for the last share), whose nh marked contacts (hit) take the entries of rank r0 ..
 * r0 + nh - 1 among the marked ones (used). */
typedef struct move_share {
    size_t i0, i1, w0, w1, r0, nh;
} move_share;

/* The sources the share reads outside its own positions: its first hits whose entries lie
 * below i0 (*nlo of them) and its last hits whose entries lie at or above i1 (*nhi), other
 * shares' positions. f is monotone, so they are a run at each end of the share, as long as
 * the entries shifted across its bounds. With copy: copied to the buffer from index off on
 * (akey, adelta_t; an index, not a pointer: the buffer is NULL while nothing was ever set
 * aside), the low ones in increasing order, then the high ones in decreasing order. */
static void aside_share(clab_history *h, const move_share *g, size_t *nlo, size_t *nhi, int copy, size_t off)
{
    size_t lo = 0, hi = 0;
    bit_walk uw;
    if (g->nh) {
        bit_up_at(&uw, h->used, g->r0);
        for (; lo < g->nh; lo++) {
            size_t f = bit_up(&uw);
            if (f >= g->i0) break;
            if (copy) {
                h->akey[off + lo] = h->key[f];
                h->adelta_t[off + lo] = h->delta_t[f];
            }
        }
        bit_down_at(&uw, h->used, g->r0 + g->nh - 1);
        for (; lo + hi < g->nh; hi++) {
            size_t f = bit_down(&uw);
            if (f < g->i1) break;
            if (copy) {
                h->akey[off + lo + hi] = h->key[f];
                h->adelta_t[off + lo + hi] = h->delta_t[f];
            }
        }
    }
    *nlo = lo;
    *nhi = hi;
}

/* The moves of one share onto its own positions, once every share has set aside what it reads
 * of the others (aside_share, from index off of the buffer on): the entries from inside the share move down in
 * increasing order, then up in decreasing order, where the entries set aside are put and the
 * contacts without an entry marked (the order of align_merge's two passes, within the share:
 * no position is written before it is read). */
static void move_share_run(clab_history *h, const move_share *g, size_t nc, size_t nlo, size_t nhi, size_t off)
{
    uint64_t *key = h->key;
    clab_vec3 *dt = h->delta_t;
    const uint64_t *hit = h->hit;
    bit_walk hw, uw;
    if (g->nh > nlo + nhi) { /* down: the hits of rank nlo .. nh - nhi - 1 in the share */
        bit_up_at(&hw, hit, g->r0 + nlo);
        bit_up_at(&uw, h->used, g->r0 + nlo);
        for (size_t k = nlo; k < g->nh - nhi; k++) {
            size_t i = bit_up(&hw), f = bit_up(&uw);
            if (f > i) {
                key[i] = key[f];
                dt[i] = dt[f];
            }
        }
    }
    /* up, the entries set aside and the marks, in decreasing order */
    size_t k = g->nh; /* hits of the share not yet passed */
    if (g->nh) bit_down_at(&uw, h->used, g->r0 + g->nh - 1);
    for (size_t wi = g->w1; wi-- > g->w0;) {
        const uint64_t bi = hit[wi];
        for (size_t i = 64 * wi + 63 < nc ? 64 * wi + 63 : nc - 1;; i--) {
            if (bi >> (i & 63) & 1u) {
                size_t f = bit_down(&uw);
                k--;
                if (k < nlo) {
                    key[i] = h->akey[off + k];
                    dt[i] = h->adelta_t[off + k];
                } else if (k >= g->nh - nhi) {
                    key[i] = h->akey[off + nlo + (g->nh - 1 - k)];
                    dt[i] = h->adelta_t[off + nlo + (g->nh - 1 - k)];
                } else if (f < i) {
                    key[i] = key[f];
                    dt[i] = dt[f];
                }
            } else {
                key[i] = CLAB_HISTORY_EMPTY;
            }
            if (i == 64 * wi) break;
        }
    }
}

/* room for n entries set aside; 0 on success */
static int aside_reserve(clab_history *h, size_t n)
{
    if (n <= h->acap) return CLAB_OK;
    size_t cap = grown(h->acap, n);
    if (regrow((void **)&h->akey, cap, sizeof(uint64_t)) || regrow((void **)&h->adelta_t, cap, sizeof(clab_vec3)))
        return CLAB_ENOMEM;
    h->acap = cap;
    return CLAB_OK;
}

/* Re-index the sorted generation by the sorted contacts in place: contact i's history is
 * entry f(i), the i-th contact marked in hit taking the i-th entry marked in used (f increases
 * with i). The entries with f(i) > i move down in increasing i: position i is no later
 * contact's source, since f(i') > f(i) > i for i' > i. Those with f(i) < i move up in
 * decreasing i, by the same argument mirrored; and no position the first pass wrote is one of
 * their sources (f(i') = i with f(i) > i and f(i') < i' would need i' < i and f(i') > f(i), or
 * i' > i and f(i') < f(i): f is monotone). The second pass also marks the contacts without an
 * entry (key CLAB_HISTORY_EMPTY), after every move that reads their position. An entry moves
 * with its key, which is its contact's. On one thread the merge itself makes the first pass
 * (no walk over the bit sets). On more, each thread makes both passes on its own range of
 * contacts (move_share_run), after every thread has copied aside the few entries it reads
 * from the others' ranges (aside_share; a barrier between): the same moves, in parallel, with
 * a buffer the size of the shifts across the ranges' bounds, not of the contacts. */
static void align_merge(clab_history *h, const clab_contact *c, size_t nc)
{
    const size_t nw = words(nc), nu = words(h->n);
    uint64_t *hit = h->hit, *used = h->used, *key = h->key;
    clab_vec3 *dt = h->delta_t;
    int nt = 1;
#ifdef _OPENMP
    if (nc > HIST_PAR_MIN) nt = omp_get_max_threads();
#endif
    if (nt > 1 && h->nat < (size_t)nt + 1) { /* the offsets of the threads' entries set aside */
        if (regrow((void **)&h->at, (size_t)nt + 1, sizeof(size_t))) nt = 1;
        else h->nat = (size_t)nt + 1;
    }
    if (nu) memset(used, 0, nu * sizeof *used);
    int up = 0;
    if (nt <= 1) {
        /* one thread: the merge moves the entries down as it finds them (the positions it
         * writes, i < f(i), lie behind its read position f(i), which only advances) */
        const size_t nold = h->n;
        if (nw) memset(hit, 0, nw * sizeof *hit);
        for (size_t i = 0, j = 0; i < nc; i++) {
            uint64_t k = c[i].key;
            while (j < nold && key[j] < k) j++;
            if (j < nold && key[j] == k) {
                hit[i / 64] |= UINT64_C(1) << (i & 63);
                used[j / 64] |= UINT64_C(1) << (j & 63);
                if (j > i) {
                    key[i] = k;
                    dt[i] = dt[j];
                } else if (j < i) {
                    up = 1;
                }
            }
        }
    } else {
        size_t *at = h->at;
        int fail = 0;
#pragma omp parallel num_threads(nt)
        {
#ifdef _OPENMP
            size_t t = (size_t)omp_get_thread_num(), T = (size_t)omp_get_num_threads();
#else
            size_t t = 0, T = 1;
#endif
            move_share g;
            g.w0 = nw * t / T;
            g.w1 = nw * (t + 1) / T;
            g.i0 = 64 * g.w0;
            g.i1 = 64 * g.w1 < nc ? 64 * g.w1 : nc;
            match_range(h, c, g.i0, g.i1);
#pragma omp barrier
            g.r0 = bits_before(hit, g.w0);
            g.nh = bits_before(hit + g.w0, g.w1 - g.w0);
            size_t nlo, nhi;
            aside_share(h, &g, &nlo, &nhi, 0, 0);
            at[t + 1] = nlo + nhi;
#pragma omp barrier
#pragma omp single
            {
                at[0] = 0;
                for (size_t u = 0; u < T; u++) at[u + 1] += at[u];
                fail = aside_reserve(h, at[T]) != CLAB_OK;
            }
            if (!fail) aside_share(h, &g, &nlo, &nhi, 1, at[t]);
#pragma omp barrier
            if (!fail) move_share_run(h, &g, nc, nlo, nhi, at[t]);
        }
        if (!fail) return;
        /* no room to set entries aside: the moves on one thread. Down, in increasing order;
         * the lowest marks first */
        size_t wj = 0;
        uint64_t bj = nu ? used[0] : 0;
        for (size_t wi = 0; wi < nw; wi++)
            for (uint64_t bi = hit[wi]; bi; bi &= bi - 1) {
                while (!bj) bj = used[++wj];
                size_t i = 64 * wi + low_bit(bi), f = 64 * wj + low_bit(bj);
                bj &= bj - 1;
                if (f > i) {
                    key[i] = key[f];
                    dt[i] = dt[f];
                } else if (f < i) {
                    up = 1;
                }
            }
    }
    if (!up) { /* nothing reads an entry any more: the contacts without one marked, in parallel */
#pragma omp parallel for schedule(static) if (nc > HIST_PAR_MIN)
        for (size_t wi = 0; wi < nw; wi++)
            for (uint64_t miss = ~hit[wi] & (wi + 1 < nw || nc % 64 == 0 ? ~UINT64_C(0) : (UINT64_C(1) << (nc % 64)) - 1);
                 miss; miss &= miss - 1)
                key[64 * wi + low_bit(miss)] = CLAB_HISTORY_EMPTY;
        return;
    }
    /* up and the marks of the contacts without an entry, in decreasing order */
    size_t wj = nu - 1;
    uint64_t bj = used[wj];
    for (size_t wi = nw; wi-- > 0;) {
        uint64_t bi = hit[wi];
        for (size_t i = 64 * wi + 63 < nc ? 64 * wi + 63 : nc - 1;; i--) {
            if (bi >> (i & 63) & 1u) {
                while (!bj) bj = used[--wj];
                unsigned b = high_bit(bj);
                size_t f = 64 * wj + b;
                bj &= ~(UINT64_C(1) << b);
                if (f < i) {
                    key[i] = key[f];
                    dt[i] = dt[f];
                }
            } else {
                key[i] = CLAB_HISTORY_EMPTY;
            }
            if (i == 64 * wi) break;
        }
    }
}

/* the contacts' keys increase strictly */
static int contacts_increasing(const clab_contact *c, size_t nc)
{
    int inc = 1;
#pragma omp parallel for schedule(static) reduction(&& : inc) if (nc > HIST_PAR_MIN)
    for (size_t i = 1; i < nc; i++) inc = inc && c[i - 1].key < c[i].key;
    return inc;
}

int clab_history_align(clab_history *h, const clab_contact *c, size_t nc, int increasing, clab_error *err)
{
    if (nc > UINT32_MAX / 2)
        return clab_error_set(err, CLAB_ENOMEM, "penalty history: %zu contacts is more than the table holds", nc);
    if (reserve(h, nc)) return clab_error_set(err, CLAB_ENOMEM, "penalty history: out of memory for %zu contacts", nc);
    if (h->sorted && (increasing || contacts_increasing(c, nc))) {
        align_merge(h, c, nc);
    } else {
        /* out of key order: look each contact up in a copy of the generation */
        if (set_aside(h))
            return clab_error_set(err, CLAB_ENOMEM, "penalty history: out of memory for %zu contacts", nc);
        h->pending = 1;
        for (size_t i = 0; i < nc; i++) {
            const clab_vec3 *old = clab_history_find(h, c[i].key);
            h->key[i] = old ? c[i].key : CLAB_HISTORY_EMPTY;
            if (old) h->delta_t[i] = *old;
        }
        h->pending = 0;
    }
    h->n = nc;
    return CLAB_OK;
}

/* entry i stays: its key is a contact's (put, or kept from the alignment and not dropped) */
static inline int stays(const clab_history *h, size_t i) { return h->key[i] != CLAB_HISTORY_EMPTY; }

void clab_history_keep(clab_history *h, size_t n)
{
    /* all kept (every contact touching: the penalty backend's zero envelope): nothing moves */
    int all = 1;
#pragma omp parallel for schedule(static) reduction(&& : all) if (n > HIST_PAR_MIN)
    for (size_t i = 0; i < n; i++) all = all && stays(h, i);
    if (all) {
        h->n = n;
        return;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (stays(h, i)) {
            if (m != i) {
                h->key[m] = h->key[i];
                h->delta_t[m] = h->delta_t[i];
            }
            m++;
        }
    h->n = m;
}

void clab_history_end(clab_history *h)
{
    h->pending = 0;
    h->sorted = increasing(h->key, h->n);
    if (h->sorted) return;
    if (table(h, h->key, h->n)) {
        /* out of memory for the table: keep the entries unfindable rather than wrong */
        h->n = 0;
        h->sorted = 1;
    }
}

/* entries i and j trade places */
static void swap_entries(clab_history *h, size_t i, size_t j)
{
    uint64_t k = h->key[i];
    clab_vec3 d = h->delta_t[i];
    h->key[i] = h->key[j];
    h->delta_t[i] = h->delta_t[j];
    h->key[j] = k;
    h->delta_t[j] = d;
}

/* heap sort of the entries by key, in place (no second copy of the generation) */
static void sort_entries(clab_history *h)
{
    const size_t n = h->n;
    for (size_t end = n, start = n / 2; end > 1;) {
        size_t root;
        if (start > 0) root = --start; /* building the heap */
        else { /* the largest to the end */
            swap_entries(h, 0, --end);
            root = 0;
        }
        for (;;) { /* sift down */
            size_t c = 2 * root + 1;
            if (c >= end) break;
            if (c + 1 < end && h->key[c + 1] > h->key[c]) c++;
            if (h->key[c] <= h->key[root]) break;
            swap_entries(h, root, c);
            root = c;
        }
    }
}

int clab_history_permute(clab_history *h, const size_t *inv, size_t nbodies, clab_error *err)
{
    if (h->pending) return clab_error_set(err, CLAB_EINVAL, "penalty history: renumbered in the middle of a step");
    const size_t n = h->n;
    for (size_t i = 0; i < n; i++)
        if ((h->key[i] >> 38) >= nbodies || ((h->key[i] >> 12) & 0x3ffffffu) >= nbodies)
            return clab_error_set(err, CLAB_EINVAL,
                                  "penalty history: contact key %zu names a body beyond the world's %zu bodies", i,
                                  nbodies);
    for (size_t i = 0; i < n; i++) {
        int swapped;
        h->key[i] = clab_contact_key_permute(h->key[i], inv, &swapped);
        if (swapped) h->delta_t[i] = clab_v3_scale(h->delta_t[i], -1.0);
    }
    sort_entries(h);
    h->sorted = 1; /* a permutation of distinct keys: distinct, now increasing */
    return CLAB_OK;
}

static const char magic[8] = {'C', 'L', 'A', 'B', 'H', 'I', 'S', 'T'};

int clab_history_save(const clab_history *h, FILE *f, clab_error *err)
{
    uint32_t version = 1;
    uint64_t n = h->n;
    if (fwrite(magic, 1, 8, f) != 8 || fwrite(&version, sizeof version, 1, f) != 1 || fwrite(&n, sizeof n, 1, f) != 1)
        return clab_error_set(err, CLAB_EIO, "penalty history: write failed");
    for (size_t i = 0; i < n; i++) {
        const clab_vec3 *d = &h->delta_t[i];
        double v[3] = {d->x, d->y, d->z};
        if (fwrite(&h->key[i], sizeof(uint64_t), 1, f) != 1 || fwrite(v, sizeof(double), 3, f) != 3)
            return clab_error_set(err, CLAB_EIO, "penalty history: write failed at record %zu of %zu", i, (size_t)n);
    }
    return CLAB_OK;
}

int clab_history_load(clab_history *h, FILE *f, clab_error *err)
{
    char m[8];
    uint32_t version;
    uint64_t n;
    if (fread(m, 1, 8, f) != 8 || memcmp(m, magic, 8) != 0)
        return clab_error_set(err, CLAB_EIO, "penalty history: not a contactlab history checkpoint (bad magic)");
    if (fread(&version, sizeof version, 1, f) != 1 || version != 1)
        return clab_error_set(err, CLAB_EIO, "penalty history: unsupported checkpoint version");
    if (fread(&n, sizeof n, 1, f) != 1 || n > UINT32_MAX / 2)
        return clab_error_set(err, CLAB_EIO, "penalty history: bad record count");
    int rc = clab_history_begin(h, (size_t)n, err);
    if (rc) return rc;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t key;
        double v[3];
        if (fread(&key, sizeof key, 1, f) != 1 || fread(v, sizeof(double), 3, f) != 3) {
            /* the generation before the load back (cap only grows: it holds tn entries) */
            if (h->tn) {
                memcpy(h->key, h->tkey, h->tn * sizeof(uint64_t));
                memcpy(h->delta_t, h->tdelta_t, h->tn * sizeof(clab_vec3));
            }
            h->n = h->tn;
            clab_history_end(h);
            return clab_error_set(err, CLAB_EIO, "penalty history: truncated at record %zu of %zu", (size_t)i,
                                  (size_t)n);
        }
        clab_history_put(h, key, clab_v3(v[0], v[1], v[2]));
    }
    clab_history_end(h);
    return CLAB_OK;
}
