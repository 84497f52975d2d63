/* test_balance.c: the cuts of the parallel loops by the threads' times (lib/clab_balance.h).
 *
 * 1. The update moves each share halfway toward the shares of equal times: threads of speeds
 *    v_t (fraction of the loop a second) end with shares v_t / sum v (T = 2: speeds 1 and 3
 *    give 1/4 and 3/4; T = 3: 2, 1, 1 give 1/2, 1/4, 1/4) to 1e-9 after 40 calls (the error
 *    halves each call: 2^-40 ~ 1e-12).
 * 2. No share falls below a fifth of an even one (speeds 1 and 10^6: thread 0 keeps 0.1 to
 *    0.12 of the loop: 0.125 / 1.125), the cut stays increasing, from 0 to 1.
 * 3. A call with an empty share or no time leaves the cut; a cut for 2 threads is not used
 *    for 3 (even: t / T).
 * 4. clab_balance_range: contiguous ranges covering [0, n), cut at multiples of the alignment.
 * 5. The cut changes only which thread takes an item: the narrow phase on 2 threads with its
 *    rows cut at 3 % and 97 % of their cost, alternately, gives every step's contact array
 *    to the bit as on 1 thread, and the end states of a 6,000-body packing are the same bits
 *    (the penalty backend's own cuts move with the times meanwhile; test_threads). */
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "clab_balance.h"
#include "clab_sim.h"
#include "collide_internal.h"
#include "packing.h"
#include "tap.h"

/* calls of a loop whose thread t runs at v[t] (fraction of the loop a second) */
static void simulate(clab_balance *b, const double *v, int T, int calls)
{
    for (int k = 0; k < calls; k++) {
        for (int t = 0; t < T; t++) {
            const double u0 = clab_balance_at(b, t, T), u1 = clab_balance_at(b, t + 1, T);
            clab_balance_note(b, t, u0, (u1 - u0) / v[t]);
        }
        clab_balance_update(b, T);
    }
}

static void pure_checks(void)
{
    clab_balance b;
    clab_balance_init(&b);
    tap_ok(clab_balance_at(&b, 1, 2) == 0.5 && clab_balance_at(&b, 2, 2) == 1.0, "before any call: even (t / T)");
    const double v2[2] = {1.0, 3.0};
    simulate(&b, v2, 2, 40);
    tap_close(clab_balance_at(&b, 1, 2), 0.25, 1e-9, "speeds 1, 3: thread 1 starts at 1/4 (equal times)");
    tap_ok(clab_balance_at(&b, 1, 3) == 1.0 / 3.0, "the cut of 2 threads is not used for 3: even (%.17g)",
           clab_balance_at(&b, 1, 3));
    clab_balance b3;
    clab_balance_init(&b3);
    const double v3[3] = {2.0, 1.0, 1.0};
    simulate(&b3, v3, 3, 40);
    tap_close(clab_balance_at(&b3, 1, 3), 0.5, 1e-9, "speeds 2, 1, 1: thread 1 starts at 1/2");
    tap_close(clab_balance_at(&b3, 2, 3), 0.75, 1e-9, "speeds 2, 1, 1: thread 2 starts at 3/4");

    /* a very slow thread keeps a fifth of an even share */
    clab_balance c;
    clab_balance_init(&c);
    const double vs[2] = {1.0, 1e6};
    simulate(&c, vs, 2, 60);
    const double f1 = clab_balance_at(&c, 1, 2);
    tap_ok(f1 >= 0.1 - 1e-12 && f1 < 0.12, "speeds 1, 1e6: thread 0 keeps a fifth of an even share (%.6f >= 0.1)", f1);
    tap_ok(c.f[0] == 0.0 && c.f[2] == 1.0 && c.f[1] > 0.0 && c.f[1] < 1.0, "the cut runs from 0 to 1, increasing");

    /* no speed, no change */
    const double before = clab_balance_at(&b, 1, 2);
    clab_balance_note(&b, 0, 0.0, 0.0); /* thread 0 took no time */
    clab_balance_note(&b, 1, 0.3, 1.0);
    clab_balance_update(&b, 2);
    tap_ok(clab_balance_at(&b, 1, 2) == before, "a call with a thread's time 0 leaves the cut");
    clab_balance_note(&b, 0, 0.0, 1.0);
    clab_balance_note(&b, 1, 1.0, 1.0); /* thread 1 had nothing */
    clab_balance_update(&b, 2);
    tap_ok(clab_balance_at(&b, 1, 2) == before, "a call with an empty share leaves the cut");

    /* ranges: contiguous, covering, aligned */
    const size_t n = 1000, align = 256;
    size_t end = 0;
    int ok = 1;
    for (int t = 0; t < 3; t++) {
        size_t i0, i1;
        clab_balance_range(&b3, n, align, t, 3, &i0, &i1);
        ok &= i0 == end && i1 >= i0 && (i0 % align == 0 || i0 == n);
        end = i1;
    }
    tap_ok(ok && end == n, "clab_balance_range: 3 ranges of 1,000 items cut at multiples of 256, covering [0, 1000)");
}

#ifdef _OPENMP
#define STEPS 10

/* K steps of the packing on `threads` threads; skew: the narrow phase's rows cut at 3 % or 97 %
 * of their cost (alternately) before each step. Every step's contacts into c[], the world
 * returned */
static clab_world *run(int threads, int skew, clab_contacts *c)
{
    omp_set_num_threads(threads);
    clab_error err;
    clab_options o;
    clab_options_init(&o);
    clab_options_set(&o, "kn", "1e5", NULL);
    clab_options_set(&o, "model", "hooke", NULL);
    clab_world *w = packing_world(6000, 18, 3);
    clab_sim *s = clab_sim_create(w, "penalty", 1e-4, &o, &err);
    clab_options_free(&o);
    int rc = s ? CLAB_OK : 1;
    for (int k = 0; k < STEPS && rc == CLAB_OK; k++) {
        if (skew) {
            clab_balance *nb = &s->collider->narrow.bal;
            nb->T = 2;
            nb->f[0] = 0.0;
            nb->f[1] = k % 2 ? 0.97 : 0.03;
            nb->f[2] = 1.0;
        }
        rc = clab_sim_step(s, &err);
        clab_contacts_init(&c[k]);
        if (rc == CLAB_OK) rc = clab_contacts_reserve(&c[k], s->contacts.n, s->contacts.nlv);
        if (rc == CLAB_OK) {
            memcpy(c[k].c, s->contacts.c, s->contacts.n * sizeof *c[k].c);
            if (s->contacts.nlv) memcpy(c[k].lv, s->contacts.lv, s->contacts.nlv * sizeof *c[k].lv);
            c[k].n = s->contacts.n;
            c[k].nlv = s->contacts.nlv;
        }
    }
    if (rc) tap_diag("%d threads: %s", threads, s ? err.msg : "create failed");
    clab_sim_destroy(s);
    if (rc) {
        clab_world_destroy(w);
        return NULL;
    }
    return w;
}
#endif

int main(void)
{
    pure_checks();
#ifdef _OPENMP
    static clab_contacts c1[STEPS], c2[STEPS];
    clab_world *w1 = run(1, 0, c1), *w2 = run(2, 1, c2);
    int same = w1 && w2, records = 0;
    for (int k = 0; k < STEPS && same; k++) {
        same = c1[k].n == c2[k].n && c1[k].nlv == c2[k].nlv &&
               memcmp(c1[k].c, c2[k].c, c1[k].n * sizeof *c1[k].c) == 0 &&
               (c1[k].nlv == 0 || memcmp(c1[k].lv, c2[k].lv, c1[k].nlv * sizeof *c1[k].lv) == 0);
        records += (int)c1[k].n;
    }
    tap_ok(same && records > STEPS * 8000,
           "narrow phase cut at 3 %% / 97 %% on 2 threads: every step's contacts as on 1 thread, to the bit (%d "
           "records)", records);
    int bodies = w1 && w2 && w1->nbodies == w2->nbodies;
    for (size_t i = 0; bodies && i < w1->nbodies; i++) {
        const clab_body *a = &w1->bodies[i], *b = &w2->bodies[i];
        bodies = memcmp(&a->r, &b->r, sizeof a->r) == 0 && memcmp(&a->rdot, &b->rdot, sizeof a->rdot) == 0 &&
                 memcmp(&a->e, &b->e, sizeof a->e) == 0 && memcmp(&a->wbar, &b->wbar, sizeof a->wbar) == 0;
    }
    tap_ok(bodies, "the end states after %d steps: the same bits", STEPS);
    for (int k = 0; k < STEPS; k++) {
        clab_contacts_free(&c1[k]);
        clab_contacts_free(&c2[k]);
    }
    clab_world_destroy(w1);
    clab_world_destroy(w2);
#else
    tap_diag("built without OpenMP: the parallel checks are skipped");
#endif
    return tap_done();
}
