/* test_penalty_history: the tangential-history table (penalty/history.h).
 * Exact checks (no tolerance: values are stored, not computed): every stored key is found with
 * its value, absent keys are not, a key not put in a step is dropped, storage stops growing once
 * the contact count is steady, growth keeps the entries, and a checkpoint reads back the same. */
#include <stdlib.h>
#include <string.h>

#include "clab_contact.h"
#include "history.h"
#include "tap.h"

static clab_vec3 val(uint64_t k) { return clab_v3((double)(k % 1000), (double)(k >> 12), -(double)k); }

static int same(const clab_vec3 *a, clab_vec3 b) { return a && a->x == b.x && a->y == b.y && a->z == b.z; }

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
    size_t grows = h.grows;
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

    /* steady state: 200 steps with the same contact count allocate nothing */
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
    return tap_done();
}
