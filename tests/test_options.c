/* test_options.c: the key = value option list (lib/options.c): lookups through its hash table
 * at scale (a scene with 400 materials has 80,200 pair keys in its metadata), the order the
 * keys were first set kept (metadata lines and checkpoint fingerprints follow it), replacing
 * a value in place, and the typed getters' checks. */
#include <stdio.h>
#include <string.h>

#include "clab_options.h"
#include "tap.h"

int main(void)
{
    clab_options o;
    clab_options_init(&o);
    tap_ok(clab_options_get(&o, "absent") == NULL, "an empty list has no keys");

    /* 100,000 keys: every one found with its own value, in insertion order */
    enum { N = 100000 };
    char k[64], v[64];
    int rc = 0;
    for (int i = 0; i < N; i++) {
        snprintf(k, sizeof k, "pair.m%d.m%d.k_n", i / 400, i % 400);
        snprintf(v, sizeof v, "%d", 7 * i);
        rc |= clab_options_set(&o, k, v, NULL);
    }
    tap_ok(rc == CLAB_OK && o.n == N, "%d keys set (n = %zu)", N, o.n);
    int found = 0, ordered = 0;
    for (int i = 0; i < N; i++) {
        snprintf(k, sizeof k, "pair.m%d.m%d.k_n", i / 400, i % 400);
        snprintf(v, sizeof v, "%d", 7 * i);
        const char *got = clab_options_get(&o, k);
        found += got && strcmp(got, v) == 0;
        ordered += strcmp(o.o[i].key, k) == 0;
    }
    tap_ok(found == N, "every key found with its value (%d of %d)", found, N);
    tap_ok(ordered == N, "the entries keep the order they were set in (%d of %d)", ordered, N);

    /* replacing keeps the entry's place and count */
    rc = clab_options_set(&o, "pair.m3.m5.k_n", "replaced", "--opt");
    tap_ok(rc == CLAB_OK && o.n == N && strcmp(o.o[3 * 400 + 5].val, "replaced") == 0 &&
               strcmp(clab_options_where(&o, "pair.m3.m5.k_n"), "--opt") == 0,
           "a second set replaces the value in place");
    tap_ok(clab_options_get(&o, "pair.m999.m0.k_n") == NULL, "a key never set is absent");
    clab_options_free(&o);

    /* the getters on a list built by parse, and a copy by merge */
    clab_options a, b;
    clab_options_init(&a);
    clab_options_init(&b);
    clab_error err;
    clab_error_clear(&err);
    rc = clab_options_parse(&a, "h=1e-3", "--opt", &err) | clab_options_parse(&a, "solver=gs", "--opt", &err) |
         clab_options_merge(&b, &a);
    double h = 0.0;
    int choice = -1;
    const char *const solvers[] = {"jacobi", "gs", NULL};
    rc |= clab_options_double(&b, "h", 0.0, 1.0, &h, &err) | clab_options_choice(&b, "solver", solvers, &choice, &err);
    tap_ok(rc == CLAB_OK && h == 1e-3 && choice == 1, "merged copy: h = %g, solver index %d", h, choice);
    rc = clab_options_parse(&b, "h=2", "--opt", &err);
    tap_ok(clab_options_double(&b, "h", 0.0, 1.0, &h, &err) == CLAB_EINVAL && strstr(err.msg, "outside the allowed range"),
           "out-of-range value refused: '%s'", err.msg);
    clab_options_free(&a);
    clab_options_free(&b);
    return tap_done();
}
