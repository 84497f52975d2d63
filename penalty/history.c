/* history.c: storage, the hash table rebuild and checkpoints of the tangential history
 * (see history.h) */
#include "history.h"

#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

void clab_history_init(clab_history *h) { memset(h, 0, sizeof *h); }

void clab_history_free(clab_history *h)
{
    free(h->slot_key);
    free(h->slot_index);
    for (int g = 0; g < 2; g++) {
        free(h->key[g]);
        free(h->delta_t[g]);
    }
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

/* insert every entry of the current generation into the (cleared) table */
static void rebuild(clab_history *h)
{
    if (h->nslots == 0) return;
    size_t mask = h->nslots - 1;
    for (size_t s = 0; s < h->nslots; s++) h->slot_key[s] = CLAB_HISTORY_EMPTY;
    const uint64_t *key = h->key[h->cur];
    for (size_t i = 0; i < h->n[h->cur]; i++) {
        size_t s = (size_t)((key[i] * UINT64_C(0x9E3779B97F4A7C15)) >> h->shift);
        while (h->slot_key[s] != CLAB_HISTORY_EMPTY && h->slot_key[s] != key[i]) s = (s + 1) & mask;
        h->slot_key[s] = key[i]; /* a repeated key keeps its last value */
        h->slot_index[s] = (uint32_t)i;
    }
}

/* the hash table for 2 cap slots (contents rebuilt); 0 on success */
static int grow_table(clab_history *h)
{
    size_t nslots = 2 * h->cap;
    unsigned bits = 0;
    while (((size_t)1 << bits) < nslots) bits++;
    if (regrow((void **)&h->slot_key, nslots, sizeof(uint64_t)) ||
        regrow((void **)&h->slot_index, nslots, sizeof(uint32_t)))
        return CLAB_ENOMEM;
    h->nslots = nslots;
    h->shift = 64u - bits;
    rebuild(h);
    return CLAB_OK;
}

int clab_history_begin(clab_history *h, size_t nmax, clab_error *err)
{
    if (nmax > UINT32_MAX / 2)
        return clab_error_set(err, CLAB_ENOMEM, "penalty history: %zu contacts is more than the table holds", nmax);
    if (nmax > h->cap) {
        size_t cap = h->cap ? h->cap : 64;
        while (cap < nmax) cap *= 2;
        for (int g = 0; g < 2; g++)
            if (regrow((void **)&h->key[g], cap, sizeof(uint64_t)) ||
                regrow((void **)&h->delta_t[g], cap, sizeof(clab_vec3)))
                return clab_error_set(err, CLAB_ENOMEM, "penalty history: out of memory for %zu contacts", nmax);
        h->cap = cap;
        h->grows++;
        /* a table in use grows with the generations (the current one in the larger table) */
        if (h->nslots && grow_table(h))
            return clab_error_set(err, CLAB_ENOMEM, "penalty history: out of memory for %zu contacts", nmax);
    }
    h->n[1 - h->cur] = 0;
    return CLAB_OK;
}

/* Out of place into the current generation's arrays (last step's entries, no longer read
 * once this step's forces are done), then the two swapped: with OpenMP each thread copies its
 * range to the offset of the entries kept before it, the same result for any thread count. */
void clab_history_keep(clab_history *h, const unsigned char *keep, size_t n)
{
    int nx = 1 - h->cur, cu = h->cur;
    const uint64_t *key = h->key[nx];
    const clab_vec3 *dt = h->delta_t[nx];
    uint64_t *okey = h->key[cu];
    clab_vec3 *odt = h->delta_t[cu];
    size_t m = 0;
    enum { MAXT = 256 };
    size_t start[MAXT + 1];
    int nt = 1;
#ifdef _OPENMP
    if (n > 4096) nt = omp_get_max_threads() < MAXT ? omp_get_max_threads() : MAXT;
#endif
    if (nt <= 1) {
        for (size_t i = 0; i < n; i++)
            if (keep[i]) {
                okey[m] = key[i];
                odt[m] = dt[i];
                m++;
            }
    } else {
#pragma omp parallel num_threads(nt)
        {
#ifdef _OPENMP
            int t = omp_get_thread_num(), T = omp_get_num_threads();
#else
            int t = 0, T = 1;
#endif
            size_t k0 = n * (size_t)t / (size_t)T, k1 = n * (size_t)(t + 1) / (size_t)T, c = 0;
            for (size_t i = k0; i < k1; i++) c += keep[i] != 0;
            start[t + 1] = c;
#pragma omp barrier
#pragma omp single
            {
                start[0] = 0;
                for (int k = 0; k < T; k++) start[k + 1] += start[k];
                m = start[T];
            }
            size_t o = start[t];
            for (size_t i = k0; i < k1; i++)
                if (keep[i]) {
                    okey[o] = key[i];
                    odt[o] = dt[i];
                    o++;
                }
        }
    }
    /* the compacted entries become the next generation */
    uint64_t *tk = h->key[nx];
    h->key[nx] = h->key[cu];
    h->key[cu] = tk;
    clab_vec3 *td = h->delta_t[nx];
    h->delta_t[nx] = h->delta_t[cu];
    h->delta_t[cu] = td;
    h->n[nx] = m;
}

void clab_history_end(clab_history *h)
{
    h->cur = 1 - h->cur;
    /* sorted (strictly increasing keys): lookups by merge or binary search, no table */
    const uint64_t *k = h->key[h->cur];
    size_t n = h->n[h->cur];
    int sorted = 1;
    for (size_t i = 1; i < n && sorted; i++) sorted = k[i - 1] < k[i];
    h->sorted = sorted;
    if (sorted) return;
    if (h->nslots < 2 * h->cap) {
        h->grows++;
        if (grow_table(h) == CLAB_OK) return;
        /* out of memory for the table: fall back to the binary search on a sorted copy is not
         * possible here, so keep the entries unfindable rather than wrong */
        h->n[h->cur] = 0;
        h->sorted = 1;
        return;
    }
    rebuild(h);
}

static const char magic[8] = {'C', 'L', 'A', 'B', 'H', 'I', 'S', 'T'};

int clab_history_save(const clab_history *h, FILE *f, clab_error *err)
{
    uint32_t version = 1;
    uint64_t n = h->n[h->cur];
    if (fwrite(magic, 1, 8, f) != 8 || fwrite(&version, sizeof version, 1, f) != 1 || fwrite(&n, sizeof n, 1, f) != 1)
        return clab_error_set(err, CLAB_EIO, "penalty history: write failed");
    for (size_t i = 0; i < n; i++) {
        const clab_vec3 *d = &h->delta_t[h->cur][i];
        double v[3] = {d->x, d->y, d->z};
        if (fwrite(&h->key[h->cur][i], sizeof(uint64_t), 1, f) != 1 || fwrite(v, sizeof(double), 3, f) != 3)
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
        if (fread(&key, sizeof key, 1, f) != 1 || fread(v, sizeof(double), 3, f) != 3)
            return clab_error_set(err, CLAB_EIO, "penalty history: truncated at record %zu of %zu", (size_t)i,
                                  (size_t)n);
        clab_history_put(h, key, clab_v3(v[0], v[1], v[2]));
    }
    clab_history_end(h);
    return CLAB_OK;
}
