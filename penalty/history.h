/* history.h: the tangential displacement history delta_t of seed 002, one vector per
 * persisting contact, keyed by the contact key (a, b, feature) of clab_contact.h.
 *
 * Two generations: the current one (last step's contacts, looked up with
 * clab_history_find) and the next one (this step's, filled with clab_history_put);
 * clab_history_end makes the next one current, so a contact that was not put this step
 * is dropped. The contacts of clab_collide come sorted by key, so a generation put in
 * contact order is sorted: lookups in increasing key order then walk it with a cursor
 * (clab_history_find_next: a merge, O(1) per contact, memory read in order, no table), and
 * clab_history_find binary-searches it. A generation put out of order gets an open-addressing
 * hash table (linear probing, load <= 1/2, Fibonacci hashing), built in clab_history_end.
 * Storage grows only when a step has more contacts than any before it (the table the first
 * time a generation is out of order); in steady state a step allocates nothing. */
#ifndef CLAB_PENALTY_HISTORY_H
#define CLAB_PENALTY_HISTORY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "clab_error.h"
#include "clab_math.h"

typedef struct clab_history {
    /* hash table over the current generation */
    uint64_t *slot_key;   /* [nslots] key, CLAB_HISTORY_EMPTY when free */
    uint32_t *slot_index; /* [nslots] index into key[cur], delta_t[cur] */
    size_t nslots;        /* power of two, >= 2 * cap */
    unsigned shift;       /* 64 - log2(nslots) */
    /* the two generations */
    uint64_t *key[2];      /* [cap] contact keys */
    clab_vec3 *delta_t[2]; /* [cap] tangential displacement history [m] */
    size_t n[2];           /* entries in use */
    size_t cap;            /* entries allocated per generation */
    int cur;               /* current generation: 0 or 1 */
    int sorted;            /* the current generation's keys increase strictly (no table needed) */
    size_t grows;          /* reallocations so far (tests check the steady state) */
} clab_history;

/* no contact has this key: it would need a >= b */
#define CLAB_HISTORY_EMPTY UINT64_MAX

void clab_history_init(clab_history *h);
void clab_history_free(clab_history *h);

/* Start the next generation, for at most nmax contacts (allocates only when nmax exceeds
 * every earlier step). CLAB_ENOMEM on failure, the current generation left intact. */
int clab_history_begin(clab_history *h, size_t nmax, clab_error *err);

/* Last step's delta_t of the contact with this key, NULL when it is new. */
static inline const clab_vec3 *clab_history_find(const clab_history *h, uint64_t key)
{
    if (h->sorted) { /* binary search */
        const uint64_t *k = h->key[h->cur];
        size_t lo = 0, hi = h->n[h->cur];
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (k[mid] < key) lo = mid + 1;
            else hi = mid;
        }
        return lo < h->n[h->cur] && k[lo] == key ? &h->delta_t[h->cur][lo] : NULL;
    }
    if (h->nslots == 0) return NULL;
    size_t mask = h->nslots - 1;
    size_t s = (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> h->shift);
    while (h->slot_key[s] != CLAB_HISTORY_EMPTY) {
        if (h->slot_key[s] == key) return &h->delta_t[h->cur][h->slot_index[s]];
        s = (s + 1) & mask;
    }
    return NULL;
}

/* The same for keys asked in increasing order: *cursor (0 before the first call, or the
 * clab_history_lower_bound of the first key) walks the sorted generation. */
static inline const clab_vec3 *clab_history_find_next(const clab_history *h, uint64_t key, size_t *cursor)
{
    if (!h->sorted) return clab_history_find(h, key);
    const uint64_t *k = h->key[h->cur];
    size_t i = *cursor, n = h->n[h->cur];
    while (i < n && k[i] < key) i++;
    *cursor = i;
    return i < n && k[i] == key ? &h->delta_t[h->cur][i] : NULL;
}

/* First position of the sorted generation with a key >= key (a cursor to start from). */
static inline size_t clab_history_lower_bound(const clab_history *h, uint64_t key)
{
    if (!h->sorted) return 0;
    const uint64_t *k = h->key[h->cur];
    size_t lo = 0, hi = h->n[h->cur];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Keep delta_t for this key into the next generation (at most nmax puts per begin). */
static inline void clab_history_put(clab_history *h, uint64_t key, clab_vec3 delta_t)
{
    int nx = 1 - h->cur;
    size_t i = h->n[nx]++;
    h->key[nx][i] = key;
    h->delta_t[nx][i] = delta_t;
}

/* The parallel form of put: entry i (< nmax of begin) of the next generation, for contact i;
 * then clab_history_keep keeps the entries i < n with keep[i] != 0, in order, as if put
 * (using the current generation's storage: call clab_history_end right after it). */
static inline void clab_history_put_at(clab_history *h, size_t i, uint64_t key, clab_vec3 delta_t)
{
    int nx = 1 - h->cur;
    h->key[nx][i] = key;
    h->delta_t[nx][i] = delta_t;
}
void clab_history_keep(clab_history *h, const unsigned char *keep, size_t n);

/* The next generation becomes current; contacts not put since begin are dropped. */
void clab_history_end(clab_history *h);

/* Entries of the current generation. */
static inline size_t clab_history_size(const clab_history *h) { return h->n[h->cur]; }

/* Binary checkpoint of the current generation: "CLABHIST", a version, the count, then
 * (key, delta_t) records in native byte order (for restarts on the same machine). */
int clab_history_save(const clab_history *h, FILE *f, clab_error *err);
int clab_history_load(clab_history *h, FILE *f, clab_error *err);

#endif
