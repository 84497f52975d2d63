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

/* a capacity of at least n, growing by half (1.5x) from cap */
static size_t grown(size_t cap, size_t n)
{
    size_t c = cap > 64 ? cap : 64; /* (not below 64: c / 2 = 0 would never grow; the ring's cap may be 1) */
    while (c < n) c += c / 2;
    return c;
}

/* room for n entries in a pair of arrays of keys and delta_t of capacity *cap (contents kept,
 * grows counted); 0 on success */
static int entries_room(uint64_t **key, clab_vec3 **dt, size_t *cap, size_t *grows, size_t n)
{
    if (n <= *cap) return CLAB_OK;
    size_t c = grown(*cap, n);
    if (regrow((void **)key, c, sizeof(uint64_t)) || regrow((void **)dt, c, sizeof(clab_vec3))) return CLAB_ENOMEM;
    *cap = c;
    (*grows)++;
    return CLAB_OK;
}

/* the generation's storage for at least n entries */
static int reserve(clab_history *h, size_t n) { return entries_room(&h->key, &h->delta_t, &h->cap, &h->grows, n); }

/* room for n entries aside (tkey, tdelta_t: the keyed interface's copy of the generation, the
 * pair the alignment merges into on threads or its ring on one) */
static int aside_room(clab_history *h, size_t n) { return entries_room(&h->tkey, &h->tdelta_t, &h->tcap, &h->grows, n); }

int clab_history_prepare(clab_history *h, size_t n, int threads)
{
    if (reserve(h, n)) return CLAB_ENOMEM;
    if (threads > 1 && n > HIST_PAR_MIN && n > h->tcap) { /* align_swap's other pair, written once too */
        if (aside_room(h, n)) return CLAB_ENOMEM;
        memset(h->tkey, 0, h->tcap * sizeof *h->tkey);
        memset(h->tdelta_t, 0, h->tcap * sizeof *h->tdelta_t);
    }
    /* past the entries in use: nothing kept there (align writes them before it reads them);
     * no storage at all while nothing was ever reserved (n = 0) */
    if (h->cap > h->n) {
        memset(h->key + h->n, 0, (h->cap - h->n) * sizeof *h->key);
        memset(h->delta_t + h->n, 0, (h->cap - h->n) * sizeof *h->delta_t);
    }
    return CLAB_OK;
}

/* keys k[0..n) increase strictly */
static int increasing(const uint64_t *k, size_t n)
{
    int inc = 1;
#pragma omp parallel for schedule(static) reduction(& : inc) if (n > HIST_PAR_MIN)
    for (size_t i = 1; i < n; i++) inc &= k[i - 1] < k[i]; /* (no branch: & not &&) */
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
    if (aside_room(h, n)) return CLAB_ENOMEM;
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

/* More than one thread: each thread merges the range of contacts its narrow phase wrote from
 * the generation into the other pair of arrays (tkey, tdelta_t, the buffer of the keyed
 * interface; grown only when a step has more entries than any before), from a binary search
 * for its first key, and the two pairs then change roles: nothing is read after it is
 * written, one pass, nothing copied. (It used to copy the generation aside first, a share a
 * thread, and merge back in place: on the 32,000-sphere pile on two threads that copy cost as
 * much as the merge, and the alignment ran no faster than on one thread.) Thread t's range:
 * part[t] .. part[t + 1] when part holds nt shares (the records its narrow phase wrote),
 * else nc t / nt .. nc (t + 1) / nt. Entry i: contact i's key and last delta_t when
 * found, else CLAB_HISTORY_EMPTY (its delta_t is not read). CLAB_ENOMEM when the other pair
 * has no room, nothing changed then. */
static int align_swap(clab_history *h, const clab_contact *c, size_t nc, const size_t *part, int nparts, int nt)
{
    const size_t nold = h->n;
    if (aside_room(h, nc)) return CLAB_ENOMEM;
    if (!(part && nparts == nt && part[0] == 0 && part[nt] == nc)) part = NULL;
    const uint64_t *key = h->key;
    const clab_vec3 *dt = h->delta_t;
    uint64_t *nk = h->tkey;
    clab_vec3 *ndt = h->tdelta_t;
#pragma omp parallel num_threads(nt)
    {
#ifdef _OPENMP
        const size_t t = (size_t)omp_get_thread_num(), T = (size_t)omp_get_num_threads();
#else
        const size_t t = 0, T = 1;
#endif
        const size_t i0 = part && T == (size_t)nt ? part[t] : nc * t / T;
        const size_t i1 = part && T == (size_t)nt ? part[t + 1] : nc * (t + 1) / T;
        size_t j = 0, hi = nold;
        if (i0 < i1)
            while (j < hi) { /* the first entry with a key >= contact i0's */
                size_t mid = j + (hi - j) / 2;
                if (key[mid] < c[i0].key) j = mid + 1;
                else hi = mid;
            }
        for (size_t i = i0; i < i1; i++) {
            const uint64_t k = c[i].key;
            while (j < nold && key[j] < k) j++;
            if (j < nold && key[j] == k) {
                nk[i] = k;
                ndt[i] = dt[j];
            } else {
                nk[i] = CLAB_HISTORY_EMPTY;
            }
        }
    }
    uint64_t *tk = h->key;
    clab_vec3 *tdt = h->delta_t;
    const size_t tcap = h->cap;
    h->key = h->tkey, h->delta_t = h->tdelta_t, h->cap = h->tcap;
    h->tkey = tk, h->tdelta_t = tdt, h->tcap = tcap;
    return CLAB_OK;
}

/* The most old entries align_merge holds aside at once (its merge over the keys alone) */
static size_t aside_need(const uint64_t *key, size_t nold, const clab_contact *c, size_t nc)
{
    size_t need = 0;
    for (size_t i = 0, j = 0; i < nc && i < nold; i++) {
        const uint64_t k = c[i].key;
        while (j < nold && key[j] < k) j++;
        j += j < nold && key[j] == k;
        if (i >= j && i + 1 - j > need) need = i + 1 - j; /* entries j .. i aside */
    }
    return need;
}

/* One thread: re-index the sorted generation by the sorted contacts in place, in one forward
 * merge. Contact i's entry is old entry f(i), f increasing, read by a cursor j over the old
 * entries. Writing position i overwrites old entry i; when the merge has not read it yet
 * (i >= j: an entry moving up, after contacts gained before it), it is set aside first, in a
 * ring (the buffer tkey, tdelta_t, as many entries as aside_need finds), from which the cursor
 * reads the entries below i, in order: the ring holds old entries j .. i - 1. No position is
 * read after it is written. Entry i then holds contact i's key and last delta_t, or
 * CLAB_HISTORY_EMPTY (its delta_t is not read). CLAB_ENOMEM when the ring has no room, before
 * anything is written. On more than one thread (above HIST_PAR_MIN contacts): align_swap,
 * unless its pair finds no room. */
static int align_merge(clab_history *h, const clab_contact *c, size_t nc, const size_t *part, int nparts)
{
#ifdef _OPENMP
    if (nc > HIST_PAR_MIN && omp_get_max_threads() > 1 &&
        align_swap(h, c, nc, part, nparts, omp_get_max_threads()) == CLAB_OK)
        return CLAB_OK;
#else
    (void)part, (void)nparts;
#endif
    const size_t nold = h->n;
    uint64_t *key = h->key;
    clab_vec3 *dt = h->delta_t;
    const size_t need = aside_need(key, nold, c, nc);
    size_t ring = 1; /* a power of two, at least need */
    while (ring < need) ring *= 2;
    if (aside_room(h, ring)) return CLAB_ENOMEM;
    uint64_t *ak = h->tkey;
    clab_vec3 *ad = h->tdelta_t;
    const size_t mask = ring - 1;
    size_t j = 0, q0 = 0, q1 = 0; /* old entries j .. i - 1 at ring positions q0 .. q1 - 1 */
    for (size_t i = 0; i < nc; i++) {
        const uint64_t k = c[i].key;
        int found = 0;
        clab_vec3 d = {0.0, 0.0, 0.0};
        for (; j < nold; j++) {
            const int aside = j < i;
            const uint64_t kj = aside ? ak[q0 & mask] : key[j];
            if (kj >= k) {
                if (kj == k) {
                    found = 1;
                    d = aside ? ad[q0 & mask] : dt[j];
                    q0 += (size_t)aside;
                    j++;
                }
                break;
            }
            q0 += (size_t)aside;
        }
        if (i < nold && i >= j) { /* old entry i, still to be read */
            ak[q1 & mask] = key[i];
            ad[q1 & mask] = dt[i];
            q1++;
        }
        if (found) {
            key[i] = k;
            dt[i] = d;
        } else {
            key[i] = CLAB_HISTORY_EMPTY;
        }
    }
    return CLAB_OK;
}

/* the contacts' keys increase strictly */
static int contacts_increasing(const clab_contact *c, size_t nc)
{
    int inc = 1;
#pragma omp parallel for schedule(static) reduction(& : inc) if (nc > HIST_PAR_MIN)
    for (size_t i = 1; i < nc; i++) inc &= c[i - 1].key < c[i].key;
    return inc;
}

int clab_history_align(clab_history *h, const clab_contact *c, size_t nc, int increasing, const size_t *part,
                       int nparts, clab_error *err)
{
    if (nc > UINT32_MAX / 2)
        return clab_error_set(err, CLAB_ENOMEM, "penalty history: %zu contacts is more than the table holds", nc);
    if (reserve(h, nc)) return clab_error_set(err, CLAB_ENOMEM, "penalty history: out of memory for %zu contacts", nc);
    if (h->sorted && (increasing || contacts_increasing(c, nc))) {
        if (align_merge(h, c, nc, part, nparts))
            return clab_error_set(err, CLAB_ENOMEM, "penalty history: out of memory for %zu contacts", nc);
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
#pragma omp parallel for schedule(static) reduction(& : all) if (n > HIST_PAR_MIN)
    for (size_t i = 0; i < n; i++) all &= stays(h, i);
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

void clab_history_close(clab_history *h, size_t n, int all_put, int increasing)
{
    if (all_put) h->n = n;
    else clab_history_keep(h, n);
    if (!increasing) {
        clab_history_end(h);
        return;
    }
    h->pending = 0;
    h->sorted = 1;
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
