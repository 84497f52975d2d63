/* test_threads.c: results do not depend on the OpenMP thread count (doc/penalty.md promises
 * it for the collision layer and the penalty backend).
 *
 * A compressed packing of 6,000 bodies (spheres and every fifth a box, radii 0.05 +- 10 %, on a
 * cubic lattice of spacing 0.095 m with random offsets, periodic on all three axes, random
 * velocities and spins; enough pairs, contacts and bodies that every parallel loop runs
 * parallel) is stepped 25 times under the penalty backend with 1 thread and with 2 (and 3)
 * threads: the contact arrays of every step, the reported forces and the final body states
 * must be identical bit for bit (memcmp; no tolerance: the promise is exact). Skipped when
 * the library is built without OpenMP. Also: the same packing stepped with its contacts in
 * reverse order (the backend's fallback for contacts not sorted by key and body a), with
 * rolling resistance on, stays within 1e-12 of the speeds of the run in order (only the
 * summation order differs). And: on 2 threads, contacts whose bounds low (clab_partition.h)
 * are wrong (each body claimed to meet no lower body) are caught by the split scatter, which
 * falls back to the lists by b: the same bits as the run with the collider's bounds. And the
 * collider's hints as clab_partition.h states them: on 2 threads low[b] <= a for every record and
 * low[j] <= j, part[0] = 0 <= part[1] <= part[2] = n with no body a on both sides of part[1];
 * neither on 1 thread, nor after clab_contacts_push. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "clab_partition.h"
#include "clab_sim.h"
#include "packing.h"
#include "tap.h"

#define STEPS 25

/* 18 x 18 x 18 sites, 6,000 used */
static clab_world *packing(void) { return packing_world(6000, 18, 3); }

typedef struct {
    clab_world *w;
    clab_contacts c[STEPS];   /* every step's contacts */
    clab_vec3 *f[STEPS];      /* every step's forces */
    size_t contacts;
} run_t;

static int run(run_t *R, int threads, int rolling)
{
#ifdef _OPENMP
    omp_set_num_threads(threads);
#else
    (void)threads;
#endif
    clab_error err;
    clab_options o;
    clab_options_init(&o);
    clab_options_set(&o, "kn", "1e5", NULL);
    clab_options_set(&o, "model", "hooke", NULL);
    if (rolling) clab_options_set(&o, "rolling", "cdt", NULL);
    R->w = packing();
    clab_sim *s = clab_sim_create(R->w, "penalty", 1e-4, &o, &err);
    clab_options_free(&o);
    int rc = s ? CLAB_OK : 1;
    R->contacts = 0;
    for (int k = 0; k < STEPS && rc == CLAB_OK; k++) {
        rc = clab_sim_step(s, &err);
        clab_contacts_init(&R->c[k]);
        /* the array as it is: records (their lever indices too) and the side array */
        const clab_contacts *sc = &s->contacts;
        if (rc == CLAB_OK) rc = clab_contacts_reserve(&R->c[k], sc->n, sc->nlv);
        if (rc == CLAB_OK) {
            if (sc->n) memcpy(R->c[k].c, sc->c, sc->n * sizeof *sc->c);
            if (sc->nlv) memcpy(R->c[k].lv, sc->lv, sc->nlv * sizeof *sc->lv);
            R->c[k].n = sc->n;
            R->c[k].nlv = sc->nlv;
            R->c[k].increasing = sc->increasing;
        }
        R->f[k] = malloc((s->contacts.n + 1) * sizeof(clab_vec3));
        if (R->f[k]) clab_sim_forces(s, R->f[k]);
        R->contacts += s->contacts.n;
    }
    if (rc) tap_diag("run with %d threads: %s", threads, s ? err.msg : "create failed");
    clab_sim_destroy(s);
    return rc;
}

static void run_free(run_t *R)
{
    for (int k = 0; k < STEPS; k++) {
        clab_contacts_free(&R->c[k]);
        free(R->f[k]);
    }
    clab_world_destroy(R->w);
}

int main(void)
{
#ifndef _OPENMP
    printf("1..0 # SKIP built without OpenMP\n");
    return 0;
#else
    static run_t one, more;
    for (int rolling = 0; rolling <= 1; rolling++) {
    /* one thread sums the forces by scattering them onto the bodies (penalty/fast_scatter.h:
     * contact_scatter), more threads by lists a body: the sums must still be the same */
    int rc = run(&one, 1, rolling);
    tap_ok(rc == CLAB_OK && one.contacts > STEPS * 8000,
           "1 thread%s: %d steps of 6,000 bodies (%zu contacts in all, more than 8,000 a step)",
           rolling ? ", rolling=cdt" : "", STEPS, one.contacts);
    for (int threads = 2; threads <= 3 - rolling; threads++) {
        rc |= run(&more, threads, rolling);
        int same_c = rc == CLAB_OK, same_f = same_c;
        for (int k = 0; k < STEPS && same_c; k++) {
            same_c = one.c[k].n == more.c[k].n &&
                     memcmp(one.c[k].c, more.c[k].c, one.c[k].n * sizeof(clab_contact)) == 0 &&
                     one.c[k].nlv == more.c[k].nlv && one.c[k].nlv > 0 &&
                     memcmp(one.c[k].lv, more.c[k].lv, one.c[k].nlv * sizeof(clab_lever)) == 0;
            same_f = same_f && same_c && memcmp(one.f[k], more.f[k], one.c[k].n * sizeof(clab_vec3)) == 0;
        }
        tap_ok(same_c, "%d threads: every step's contact array and its side array of levers identical to 1 thread's "
                       "(memcmp)", threads);
        tap_ok(same_f, "%d threads: every step's contact forces identical (memcmp)", threads);
        tap_ok(rc == CLAB_OK && memcmp(one.w->bodies, more.w->bodies, one.w->nbodies * sizeof(clab_body)) == 0,
               "%d threads: final body states identical bit for bit", threads);
        run_free(&more);
    }
    run_free(&one);
    }

    /* contacts in another order (the fallback without merge lookups and runs by body a; on
     * one thread also without the scatter): a pile's step with its contact array reversed
     * gives the same states up to the rounding of the sums in another order (1e-12 relative
     * to the largest speed) */
    for (int threads = 1; threads <= 2; threads++) {
        omp_set_num_threads(threads);
        clab_error err;
        clab_world *w1 = packing(), *w2 = packing();
        clab_options o;
        clab_options_init(&o);
        clab_options_set(&o, "kn", "1e5", NULL);
        clab_options_set(&o, "rolling", "cdt", NULL);
        clab_sim *s1 = clab_sim_create(w1, "penalty", 1e-4, &o, &err);
        clab_sim *s2 = clab_sim_create(w2, "penalty", 1e-4, &o, &err);
        clab_options_free(&o);
        clab_contacts rev;
        clab_contacts_init(&rev);
        double worst = 0.0, vmax = 0.0;
        int ok = s1 && s2;
        for (int k = 0; k < 5 && ok; k++) {
            ok = clab_sim_step(s1, &err) == CLAB_OK && clab_collide(s2->collider, w2, s2->envelope, &s2->contacts, &err) == CLAB_OK;
            clab_contacts_clear(&rev);
            for (size_t i = s2->contacts.n; i-- > 0 && ok;)
                ok = clab_contacts_push(&rev, &s2->contacts.c[i], clab_contacts_lever_of(&s2->contacts, i)) == CLAB_OK;
            ok = ok && s2->type->step(s2->self, w2, &rev, 1e-4, &err) == CLAB_OK;
            clab_world_wrap(w2);
        }
        for (size_t i = 0; ok && i < w1->nbodies; i++) {
            const clab_body *a = &w1->bodies[i], *b = &w2->bodies[i];
            vmax = fmax(vmax, fmax(clab_v3_norm(a->rdot), clab_v3_norm(a->wbar) * 0.05));
            worst = fmax(worst, fmax(clab_v3_norm(clab_v3_sub(a->rdot, b->rdot)),
                                     0.05 * clab_v3_norm(clab_v3_sub(a->wbar, b->wbar))));
        }
        tap_ok(ok && worst <= 1e-12 * vmax,
               "%d thread(s): 5 steps with the contacts reversed (rolling=cdt) = in order: velocities within %.3g "
               "(1e-12 x %.3g)",
               threads, worst, vmax);
        clab_contacts_free(&rev);
        clab_sim_destroy(s1);
        clab_sim_destroy(s2);
        clab_world_destroy(w1);
        clab_world_destroy(w2);
    }

    /* the collider's hints low and part (clab_partition.h) */
    for (int threads = 1; threads <= 2; threads++) {
        omp_set_num_threads(threads);
        clab_error err;
        clab_world *w = packing();
        clab_collider *cd = clab_collider_create();
        clab_contacts cs;
        clab_contacts_init(&cs);
        int ok = cd && clab_collide(cd, w, 0.0, &cs, &err) == CLAB_OK && cs.n > 4096;
        if (threads == 1) {
            const clab_partition cp = clab_contacts_partition(&cs);
            tap_ok(ok && cp.low == NULL && cp.part == NULL && cp.nparts == 0, "1 thread: no bounds, no parts");
        } else {
            clab_partition cp = clab_contacts_partition(&cs);
            ok = ok && cp.low;
            for (size_t i = 0; ok && i < cs.n; i++) ok = cp.low[cs.c[i].b] <= (uint32_t)cs.c[i].a;
            for (size_t j = 0; ok && j < w->nbodies; j++) ok = cp.low[j] <= j;
            tap_ok(ok, "2 threads: low[b] <= a for all %zu records, low[j] <= j for every body", cs.n);
            int pk = ok && cp.part && cp.nparts == 2 && cp.part[0] == 0 && cp.part[2] == cs.n &&
                     cp.part[1] <= cs.n && cp.part[1] > 0 && cp.part[1] < cs.n &&
                     cs.c[cp.part[1] - 1].a < cs.c[cp.part[1]].a;
            tap_ok(pk, "2 threads: parts 0 <= %zu <= %zu, no body a on both sides", pk ? cp.part[1] : 0, cs.n);
            clab_contact c0 = cs.c[0];
            c0.key = UINT64_MAX;
            int pushed = clab_contacts_push(&cs, &c0, NULL) == CLAB_OK;
            cp = clab_contacts_partition(&cs);
            tap_ok(pushed && cp.low == NULL && cp.part == NULL && cp.nparts == 0, "clab_contacts_push: low and part cleared");
        }
        clab_contacts_free(&cs);
        clab_collider_destroy(cd);
        clab_world_destroy(w);
    }

    /* the split scatter's check of low: identity bounds claim that no body meets a lower one,
     * so a thread adds at once terms that belong behind another thread's; the step must see it
     * and give the same bits as with the true bounds */
    {
        omp_set_num_threads(2);
        clab_error err;
        clab_world *w1 = packing(), *w2 = packing();
        clab_options o;
        clab_options_init(&o);
        clab_options_set(&o, "kn", "1e5", NULL);
        clab_sim *s1 = clab_sim_create(w1, "penalty", 1e-4, &o, &err);
        clab_sim *s2 = clab_sim_create(w2, "penalty", 1e-4, &o, &err);
        clab_options_free(&o);
        uint32_t *fake = malloc(w2->nbodies * sizeof *fake);
        int ok = s1 && s2 && fake, lowered = 0;
        for (size_t j = 0; fake && j < w2->nbodies; j++) fake[j] = (uint32_t)j;
        for (int k = 0; k < 5 && ok; k++) {
            ok = clab_sim_step(s1, &err) == CLAB_OK &&
                 clab_collide(s2->collider, w2, s2->envelope, &s2->contacts, &err) == CLAB_OK;
            const uint32_t *low = clab_contacts_partition(&s2->contacts).low;
            for (size_t i = 0; ok && low && i < s2->contacts.n; i++)
                lowered |= low[s2->contacts.c[i].b] < (uint32_t)s2->contacts.c[i].b;
            clab_contacts_set_low(&s2->contacts, fake);
            ok = ok && s2->type->step(s2->self, w2, &s2->contacts, 1e-4, &err) == CLAB_OK;
            clab_world_wrap(w2);
        }
        tap_ok(ok && lowered && memcmp(w1->bodies, w2->bodies, w1->nbodies * sizeof(clab_body)) == 0,
               "2 threads: 5 steps with wrong bounds low (identity) = with the collider's, bit for bit "
               "(the collider's bounds were lower for some body: %d)", lowered);
        free(fake);
        clab_sim_destroy(s1);
        clab_sim_destroy(s2);
        clab_world_destroy(w1);
        clab_world_destroy(w2);
    }
    return tap_done();
#endif
}
