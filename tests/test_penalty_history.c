/* test_penalty_history: the tangential-history table (penalty/history.h).
 * Exact checks (no tolerance: values are stored, not computed): every stored key is found with
 * its value, absent keys are not, a key not put in a step is dropped, storage stops growing once
 * the contact count is steady, growth keeps the entries, and a checkpoint reads back the same;
 * the in-place alignment to a step's contacts (clab_history_align) gives every contact the
 * entry a plain reference list says it has, for keys in and out of order, contacts that stop
 * touching dropped with clab_history_drop_at, on one thread and (above the alignment's
 * parallel threshold, 4096 contacts) on two and three (each thread merging its range of
 * contacts into the second pair of arrays: even ranges, or the uneven shares of the records
 * passed as clab_contacts.part would be), and after the bodies are renumbered
 * (clab_history_permute); and clab_history_close with its hints against keep and end. */
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "clab_contact.h"
#include "history.h"
#include "tap.h"

static clab_vec3 val(uint64_t k) { return clab_v3((double)(k % 1000), (double)(k >> 12), -(double)k); }

static int same(const clab_vec3 *a, clab_vec3 b) { return a && a->x == b.x && a->y == b.y && a->z == b.z; }

/* n keys: pairs (p, p + 1 + p % 5) for p = first, first + stride, ... below first + stride * count,
 * increasing */
static void gen_keys(uint64_t *k, size_t *n, size_t first, size_t stride, size_t count)
{
    *n = 0;
    for (size_t q = 0; q < count; q++) {
        size_t p = first + q * stride;
        k[(*n)++] = clab_contact_key((int)p, (int)(p + 1 + p % 5), 0);
    }
}

/* the contacts with keys k[0..n) (only the key is read) */
static clab_contact *contacts(const uint64_t *k, size_t n)
{
    clab_contact *c = calloc(n ? n : 1, sizeof *c);
    for (size_t i = 0; i < n; i++) c[i].key = k[i];
    return c;
}

/* the reference's entries sorted by key, for a binary search (its keys are distinct) */
typedef struct {
    uint64_t key;
    clab_vec3 v;
} ref_entry;

static int cmp_ref(const void *a, const void *b)
{
    uint64_t x = ((const ref_entry *)a)->key, y = ((const ref_entry *)b)->key;
    return x < y ? -1 : x > y;
}

/* One penalty step on the history with the contacts of keys k[0..n): every contact with
 * index i % drop != 0 touches and stores old + val(key) (val(key) when new); one that had a
 * history and does not touch is dropped with clab_history_drop_at, one without a history is
 * left alone (the alignment marked its entry empty). Returns how many contacts found the
 * history the reference (a plain list of the last step's kept entries, looked up by key) says
 * they have, with the same value. */
static size_t step_shares(clab_history *h, const uint64_t *k, size_t n, size_t drop, uint64_t *rk, clab_vec3 *rv,
                          size_t *rn, int shares, clab_error *err)
{
    clab_contact *c = contacts(k, n);
    /* shares > 0: the records cut into that many shares of uneven sizes, part[t] = n t^2 /
     * shares^2 (as clab_contacts.part would give them to the alignment's threads) */
    size_t part[9];
    for (int t = 0; shares > 0 && t <= shares && t < 9; t++) part[t] = n * (size_t)(t * t) / (size_t)(shares * shares);
    uint64_t *nk = malloc((n ? n : 1) * sizeof *nk);
    clab_vec3 *nv = malloc((n ? n : 1) * sizeof *nv);
    ref_entry *ref = malloc((*rn ? *rn : 1) * sizeof *ref);
    for (size_t q = 0; q < *rn; q++) ref[q] = (ref_entry){rk[q], rv[q]};
    qsort(ref, *rn, sizeof *ref, cmp_ref);
    size_t ok = 0, m = 0;
    int aligned = clab_history_align(h, c, n, 0, shares > 0 ? part : NULL, shares, err) == CLAB_OK; /* else: none found */
    for (size_t i = 0; i < n && aligned; i++) {
        ref_entry want_key = {k[i], clab_v3(0.0, 0.0, 0.0)};
        const ref_entry *r = bsearch(&want_key, ref, *rn, sizeof *ref, cmp_ref);
        const clab_vec3 *want = r ? &r->v : NULL;
        const clab_vec3 *got = clab_history_at(h, i);
        ok += want ? same(got, *want) : got == NULL;
        clab_vec3 v = clab_v3_add(got ? *got : clab_v3(0.0, 0.0, 0.0), val(k[i]));
        if (drop == 0 || i % drop != 0) {
            clab_history_put_at(h, i, k[i], v);
            nk[m] = k[i];
            nv[m++] = v;
        } else if (got) {
            clab_history_drop_at(h, i);
        }
    }
    if (aligned) {
        /* every other step closes through clab_history_close with the hints it can give (none
         * dropped: drop == 0; the keys increasing), the others through keep and end: the
         * checks of the next step's lookups then cover both */
        static int hinted = 0;
        if ((hinted ^= 1)) {
            int inc = 1;
            for (size_t i = 1; i < n; i++) inc &= k[i - 1] < k[i];
            clab_history_close(h, n, drop == 0, inc);
        } else {
            clab_history_keep(h, n);
            clab_history_end(h);
        }
        memcpy(rk, nk, m * sizeof *nk);
        memcpy(rv, nv, m * sizeof *nv);
        *rn = m;
    }
    free(c);
    free(nk);
    free(nv);
    free(ref);
    return ok;
}

static size_t step(clab_history *h, const uint64_t *k, size_t n, size_t drop, uint64_t *rk, clab_vec3 *rv, size_t *rn,
                   clab_error *err)
{
    return step_shares(h, k, n, drop, rk, rv, rn, 0, err);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The alignment of M contacts a step, 30 steps of shifted sparse windows (entries move down,
 * up and stay; some contacts stop touching), on `threads` threads (the records in `shares`
 * uneven shares, step_shares; 0: none given); then the bodies renumbered (a fixed pseudo-random permutation) and one more step
 * with the renumbered keys. Exact: every contact must find the reference's value. */
static void align_run(size_t M, int threads, int shares)
{
#ifdef _OPENMP
    int was = omp_get_max_threads();
    omp_set_num_threads(threads);
#endif
    clab_history h;
    clab_error err;
    clab_history_init(&h);
    uint64_t *rk = malloc(2 * M * sizeof *rk), *k = malloc(2 * M * sizeof *k);
    clab_vec3 *rv = malloc(2 * M * sizeof *rv);
    size_t rn = 0, n, bad = 0, total = 0;
    gen_keys(k, &n, 0, 1, M);
    bad += n - step_shares(&h, k, n, 0, rk, rv, &rn, shares, &err);
    total += n;
    for (int s = 1; s <= 30; s++) {
        gen_keys(k, &n, (size_t)(s * 37) % (M / 4), (size_t)1 + (size_t)(s % 3), M - (size_t)(s * 53) % (M / 2));
        bad += n - step_shares(&h, k, n, (size_t)(s % 5), rk, rv, &rn, shares, &err);
        total += n;
    }
    tap_ok(bad == 0, "align %zu contacts a step on %d thread(s), %d shares: every contact of %zu has the reference's history",
           M, threads, shares, total);
    /* renumber the bodies (every key's bodies below 4 M): inv[i] = (i * 7919 + 13) mod nb, a
     * permutation since 7919 is prime and does not divide nb */
    size_t nb = 4 * M;
    size_t *inv = malloc(nb * sizeof *inv);
    for (size_t i = 0; i < nb; i++) inv[i] = (i * 7919 + 13) % nb;
    int rc = clab_history_permute(&h, inv, nb, &err);
    for (size_t q = 0; q < rn; q++) { /* the reference renumbered alike */
        int swapped;
        rk[q] = clab_contact_key_permute(rk[q], inv, &swapped);
        if (swapped) rv[q] = clab_v3_scale(rv[q], -1.0);
    }
    for (size_t i = 0; i < n; i++) {
        int swapped;
        k[i] = clab_contact_key_permute(k[i], inv, &swapped);
    }
    qsort(k, n, sizeof *k, cmp_u64); /* the contacts of the next step come sorted by key */
    size_t ok = rc == CLAB_OK ? step(&h, k, n, 3, rk, rv, &rn, &err) : 0;
    tap_ok(ok == n, "after renumbering the bodies: %zu of %zu contacts have the reference's history", ok, n);
    clab_history_free(&h);
    free(inv);
    free(rk);
    free(rv);
    free(k);
#ifdef _OPENMP
    omp_set_num_threads(was);
#else
    (void)threads;
#endif
}

/* clab_history_align against a reference: contacts that persist, start and end in every
 * pattern (entries moving down, up and staying), keys out of order (the lookup by key), and
 * the steady state (nothing allocated) */
static void align_tests(void)
{
    enum { M = 2000 };
    clab_history h;
    clab_error err;
    clab_history_init(&h);
    uint64_t *rk = malloc(2 * M * sizeof *rk), *k = malloc(2 * M * sizeof *k);
    clab_vec3 *rv = malloc(2 * M * sizeof *rv);
    size_t rn = 0, n, ok;
    gen_keys(k, &n, 0, 1, M);
    ok = step(&h, k, n, 0, rk, rv, &rn, &err);
    tap_ok(ok == n && clab_history_size(&h) == n, "align: the first step of %zu contacts has no history (%zu)", n, ok);
    /* each step: a shifted window of a sparse key set (new keys before and after, old ones
     * gone), so entries move down and up; some contacts do not touch */
    size_t bad = 0, total = 0;
    for (int s = 1; s <= 30; s++) {
        gen_keys(k, &n, (size_t)(s * 37) % 500, (size_t)1 + (size_t)(s % 3), M - (size_t)(s * 53) % 900);
        size_t o = step(&h, k, n, (size_t)(s % 5), rk, rv, &rn, &err);
        bad += n - o;
        total += n;
    }
    tap_ok(bad == 0, "align in place (sorted keys): every contact of %zu has the reference's history", total);
    /* keys out of order: a reversed list is looked up by key */
    for (size_t i = 0; i < n / 2; i++) {
        uint64_t t = k[i];
        k[i] = k[n - 1 - i];
        k[n - 1 - i] = t;
    }
    ok = step(&h, k, n, 7, rk, rv, &rn, &err);
    tap_ok(ok == n, "align with keys out of order: %zu of %zu contacts have the reference's history", ok, n);
    gen_keys(k, &n, 100, 1, M);
    ok = step(&h, k, n, 0, rk, rv, &rn, &err);
    tap_ok(ok == n, "back in order after an unsorted generation: %zu of %zu", ok, n);
    size_t grows = h.grows;
    for (int s = 0; s < 20; s++) ok = step(&h, k, n, 0, rk, rv, &rn, &err);
    tap_ok(ok == n && h.grows == grows, "align: 20 steady steps allocate nothing (grows %zu -> %zu)", grows, h.grows);
    clab_history_free(&h);

    /* one new contact before three old ones: the one-thread alignment sets one entry aside (its
     * ring holds 1); the keyed interface then grows the same buffer for 3000 entries (it once
     * could not grow from a capacity of 1: found by the fuzzer through a checkpoint's load) */
    clab_history_init(&h);
    rn = 0;
    gen_keys(k, &n, 10, 1, 3);
    step(&h, k, n, 0, rk, rv, &rn, &err);
    gen_keys(k, &n, 9, 1, 4);
    ok = step(&h, k, n, 0, rk, rv, &rn, &err);
    int begun = clab_history_begin(&h, 3000, &err) == CLAB_OK;
    for (int i = 0; begun && i < 3000; i++) clab_history_put(&h, clab_contact_key(i, i + 1, 0), clab_v3(i, 0.0, 0.0));
    if (begun) clab_history_end(&h);
    tap_ok(ok == n && begun && clab_history_size(&h) == 3000,
           "a ring of one entry, then a generation of 3000 put through the keyed interface (%zu of %zu found)", ok, n);
    clab_history_free(&h);
    free(rk);
    free(rv);
    free(k);
}

int main(void)
{
    clab_history h;
    clab_error err;
    clab_history_init(&h);
    tap_ok(clab_history_find(&h, 12345) == NULL, "empty table: nothing found");

    /* a generation of 3000 contacts: pairs (a, b) with a few features each */
    enum { N = 3000 };
    uint64_t *keys = malloc(N * sizeof *keys);
    for (int i = 0; i < N; i++) keys[i] = clab_contact_key(i / 4, i / 4 + 1 + i % 7, (unsigned)(i % 4));
    tap_ok(clab_history_begin(&h, N, &err) == CLAB_OK, "begin a generation of %d contacts", N);
    for (int i = 0; i < N; i++) clab_history_put(&h, keys[i], val(keys[i]));
    clab_history_end(&h);
    tap_ok(clab_history_size(&h) == N, "all %d entries stored", N);
    int found = 0;
    for (int i = 0; i < N; i++) found += same(clab_history_find(&h, keys[i]), val(keys[i]));
    tap_ok(found == N, "every key found with its value (%d of %d)", found, N);
    int absent = 0;
    for (int i = 0; i < N; i++) absent += clab_history_find(&h, clab_contact_key(100000 + i, 100001 + i, 0)) == NULL;
    tap_ok(absent == N, "absent keys are not found (%d of %d)", absent, N);

    /* next step: only the even contacts persist, with new values; the odd ones end */
    clab_history_begin(&h, N, &err);
    for (int i = 0; i < N; i += 2) {
        const clab_vec3 *old = clab_history_find(&h, keys[i]);
        clab_history_put(&h, keys[i], clab_v3_scale(*old, 2.0));
    }
    clab_history_end(&h);
    int kept = 0, dropped = 0;
    for (int i = 0; i < N; i++) {
        const clab_vec3 *d = clab_history_find(&h, keys[i]);
        if (i % 2 == 0) kept += same(d, clab_v3_scale(val(keys[i]), 2.0));
        else dropped += d == NULL;
    }
    tap_ok(kept == N / 2 && dropped == N / 2, "persisting contacts carry their history (%d), ended ones are dropped (%d)",
           kept, dropped);

    /* steady state: 200 steps with the same contact count allocate nothing (counted from here:
     * the step above made the first copy aside, its buffer's first allocation) */
    size_t grows = h.grows;
    for (int step = 0; step < 200; step++) {
        clab_history_begin(&h, N, &err);
        for (int i = 0; i < N; i++) {
            const clab_vec3 *old = clab_history_find(&h, keys[i]);
            clab_history_put(&h, keys[i], old ? *old : val(keys[i]));
        }
        clab_history_end(&h);
    }
    tap_ok(h.grows == grows, "no reallocation in 200 steady steps (grows %zu -> %zu)", grows, h.grows);

    /* growth keeps the current generation findable */
    clab_history_begin(&h, 10 * N, &err);
    found = 0;
    for (int i = 0; i < N; i++) found += same(clab_history_find(&h, keys[i]), val(keys[i])) ||
                                         same(clab_history_find(&h, keys[i]), clab_v3_scale(val(keys[i]), 2.0));
    tap_ok(h.grows == grows + 1 && found == N, "growing the table keeps every entry findable (%d of %d)", found, N);
    clab_history_end(&h); /* an empty generation: everything ends */
    tap_ok(clab_history_size(&h) == 0 && clab_history_find(&h, keys[0]) == NULL,
           "a step without contacts drops every history");

    /* checkpoint round trip */
    clab_history_begin(&h, N, &err);
    for (int i = 0; i < N; i++) clab_history_put(&h, keys[i], val(keys[i]));
    clab_history_end(&h);
    FILE *f = tmpfile();
    tap_ok(f && clab_history_save(&h, f, &err) == CLAB_OK, "save a checkpoint");
    rewind(f);
    clab_history h2;
    clab_history_init(&h2);
    tap_ok(clab_history_load(&h2, f, &err) == CLAB_OK, "load it into a fresh table");
    found = 0;
    for (int i = 0; i < N; i++) found += same(clab_history_find(&h2, keys[i]), val(keys[i]));
    tap_ok(found == N && clab_history_size(&h2) == N, "the loaded table holds the same %d entries", found);
    rewind(f);
    fputs("garbage!", f);
    rewind(f);
    tap_ok(clab_history_load(&h2, f, &err) == CLAB_EIO && strstr(err.msg, "magic") != NULL,
           "a file that is not a checkpoint is refused: %s", err.msg);
    fclose(f);

    clab_history_free(&h2);
    clab_history_free(&h);
    free(keys);

    align_tests();
    /* small and above the parallel threshold, on one thread and two */
    align_run(2000, 1, 0);
    align_run(20000, 1, 0);
    align_run(20000, 2, 0);
    align_run(20000, 3, 0);
    align_run(20000, 2, 2); /* each thread the records of its uneven share (1/4, 3/4) */
    align_run(20000, 3, 3); /* 1/9, 3/9, 5/9 */
    align_run(20000, 2, 3); /* shares for another thread count: not taken */
    return tap_done();
}
