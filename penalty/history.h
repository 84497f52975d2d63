/* history.h: the tangential displacement history delta_t of seed 002, one vector per
 * persisting contact, keyed by the contact key (a, b, feature) of clab_contact.h.
 *
 * One generation, stored once: entries (key, delta_t) of last step's touching contacts, in
 * contact order. The penalty step re-indexes it by this step's contacts in place
 * (clab_history_align: entry i becomes contact i's history, clab_history_at), overwrites
 * entry i with the new delta_t (clab_history_put_at), then keeps the touching ones in order
 * (clab_history_keep, in place) and closes the step (clab_history_end). The contacts of
 * clab_collide come sorted by key, so the generation is too: the alignment is a merge of two
 * sorted lists. On one thread it works in place, in one forward merge: an entry whose new
 * index is above its old one (contacts gained before it) is set aside in a ring just before
 * its position is overwritten, and read from there when the merge reaches it (the ring holds
 * as many entries as the largest such shift, found first by a merge over the keys alone; a
 * monotone map never needs more). On more than one thread each thread merges its own range
 * of contacts (the range its narrow phase wrote, when the caller passes the shares) from the
 * generation into a second pair of arrays, which then becomes the generation: one pass,
 * nothing to order, nothing copied, for a second pair of the generation's size (32 bytes an
 * entry). After the
 * alignment entry i's key is contact i's when it has a history, CLAB_HISTORY_EMPTY when not:
 * the key is the mark, no index a contact is kept. Input out of key order is
 * looked up through a copy of the generation (binary search, or an open-addressing hash table
 * with linear probing, load <= 1/2, Fibonacci hashing, when the generation is out of order).
 *
 * The keyed interface (clab_history_begin, clab_history_find, clab_history_put,
 * clab_history_end: checkpoints, tests) puts a new generation while finding in the last one,
 * which it copies aside at begin. Storage grows only when a step has more contacts than any
 * before it; in steady state a step allocates nothing. */
#ifndef CLAB_PENALTY_HISTORY_H
#define CLAB_PENALTY_HISTORY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "clab_contact.h"
#include "clab_error.h"
#include "clab_math.h"

typedef struct clab_history {
    /* the generation */
    uint64_t *key;       /* [cap] contact keys */
    clab_vec3 *delta_t;  /* [cap] tangential displacement history [m] */
    size_t n;            /* entries in use */
    size_t cap;          /* entries allocated */
    int sorted;          /* the generation's keys increase strictly (merge or binary search, no table) */
    /* the last generation set aside while a new one is put (keyed interface, or contacts out
     * of key order), or the second pair clab_history_align merges into on more than one thread
     * (the two pairs then change roles), or its ring of the entries set aside on one thread
     * [tcap] */
    uint64_t *tkey;
    clab_vec3 *tdelta_t;
    size_t tn, tcap;
    int tsorted;
    int pending;         /* between clab_history_begin and clab_history_end: finds look aside */
    /* hash table over the generation looked up by key when it is not sorted */
    uint64_t *slot_key;   /* [nslots] key, CLAB_HISTORY_EMPTY when free */
    uint32_t *slot_index; /* [nslots] index into the looked-up generation */
    size_t nslots;        /* power of two, >= 2 * entries */
    unsigned shift;       /* 64 - log2(nslots) */
    size_t grows;         /* reallocations so far (tests check the steady state) */
} clab_history;

/* no contact has this key: it would need a >= b */
#define CLAB_HISTORY_EMPTY UINT64_MAX

void clab_history_init(clab_history *h);
void clab_history_free(clab_history *h);

/* ---- the step of the penalty backend ---- */

/* Entry i becomes the history of contact c[i] (i < nc): clab_history_at(h, i) is last step's
 * delta_t of the contact with key c[i].key, or NULL when it is new (its key then reads
 * CLAB_HISTORY_EMPTY). increasing: 1 when the caller knows that the keys increase strictly
 * (clab_contacts.increasing), else they are checked here (a pass over the records). part:
 * NULL, or [nparts + 1] the shares of the records (clab_contacts.part): on nparts threads,
 * thread t aligns contacts part[t] .. part[t + 1] (the same entries whatever the shares).
 * CLAB_ENOMEM on failure, the generation left intact. */
int clab_history_align(clab_history *h, const clab_contact *c, size_t nc, int increasing, const size_t *part,
                       int nparts, clab_error *err);

/* Room for n entries (a step with n contacts then allocates nothing), the storage past the
 * entries in use written once so that the step faults none of its pages in; the entries kept.
 * threads > 1: the second pair the alignment merges into on threads too. CLAB_OK or CLAB_ENOMEM. */
int clab_history_prepare(clab_history *h, size_t n, int threads);

/* after clab_history_align: contact i's last delta_t, NULL when it has none */
static inline const clab_vec3 *clab_history_at(const clab_history *h, size_t i)
{
    return h->key[i] != CLAB_HISTORY_EMPTY ? &h->delta_t[i] : NULL;
}

/* after clab_history_align: contact i's new entry (read clab_history_at(h, i) first) */
static inline void clab_history_put_at(clab_history *h, size_t i, uint64_t key, clab_vec3 delta_t)
{
    h->key[i] = key;
    h->delta_t[i] = delta_t;
}

/* after clab_history_align: contact i keeps no history (read clab_history_at(h, i) first) */
static inline void clab_history_drop_at(clab_history *h, size_t i) { h->key[i] = CLAB_HISTORY_EMPTY; }

/* after the puts: of the entries i < n, those put (clab_history_put_at) stay, in order (in
 * place), and those neither put nor dropped that had a history; then clab_history_end. A
 * contact that stops touching is dropped with clab_history_drop_at (the caller needs no flag
 * a contact); a new one not put has no entry. */
void clab_history_keep(clab_history *h, size_t n);

/* clab_history_keep(h, n) then clab_history_end(h), without the passes over the keys whose
 * answer the caller already has: all_put, every entry i < n was put (none dropped: all stay
 * where they are); increasing, the contacts' keys increase strictly (clab_contacts.increasing:
 * the entries that stay, a subsequence of them, are sorted). A hint given as 0 leaves its pass
 * to run. */
void clab_history_close(clab_history *h, size_t n, int all_put, int increasing);

/* ---- the keyed interface ---- */

/* Start the next generation, for at most nmax contacts; clab_history_find looks up the last
 * one until clab_history_end. CLAB_ENOMEM on failure, the current generation left intact. */
int clab_history_begin(clab_history *h, size_t nmax, clab_error *err);

/* Last step's delta_t of the contact with this key, NULL when it is new. */
static inline const clab_vec3 *clab_history_find(const clab_history *h, uint64_t key)
{
    const uint64_t *k = h->pending ? h->tkey : h->key;
    const clab_vec3 *d = h->pending ? h->tdelta_t : h->delta_t;
    size_t n = h->pending ? h->tn : h->n;
    if (h->pending ? h->tsorted : h->sorted) { /* binary search */
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (k[mid] < key) lo = mid + 1;
            else hi = mid;
        }
        return lo < n && k[lo] == key ? &d[lo] : NULL;
    }
    if (h->nslots == 0) return NULL;
    size_t mask = h->nslots - 1;
    size_t s = (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> h->shift);
    while (h->slot_key[s] != CLAB_HISTORY_EMPTY) {
        if (h->slot_key[s] == key) return &d[h->slot_index[s]];
        s = (s + 1) & mask;
    }
    return NULL;
}

/* Keep delta_t for this key into the next generation (at most nmax puts per begin). */
static inline void clab_history_put(clab_history *h, uint64_t key, clab_vec3 delta_t)
{
    size_t i = h->n++;
    h->key[i] = key;
    h->delta_t[i] = delta_t;
}

/* The step's generation is complete: contacts not put (or not kept) are dropped. */
void clab_history_end(clab_history *h);

/* Entries of the current generation. */
static inline size_t clab_history_size(const clab_history *h) { return h->n; }

/* The bodies are renumbered, old body i becoming inv[i] (nbodies entries): every entry's key
 * maps (clab_contact_key_permute), delta_t changes sign where a and b swap order (it is the
 * displacement of b relative to a), and the generation is sorted by the new keys. Not
 * between clab_history_begin and clab_history_end. CLAB_EINVAL when a key names a body
 * >= nbodies, CLAB_ENOMEM; the generation unchanged on failure. */
int clab_history_permute(clab_history *h, const size_t *inv, size_t nbodies, clab_error *err);

/* Binary checkpoint of the current generation: "CLABHIST", a version, the count, then
 * (key, delta_t) records in native byte order (for restarts on the same machine). */
int clab_history_save(const clab_history *h, FILE *f, clab_error *err);
int clab_history_load(clab_history *h, FILE *f, clab_error *err);

#endif
