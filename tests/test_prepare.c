/* test_prepare.c: clab_sim_prepare does the next step's setup ahead of it and changes
 * nothing the steps compute (clab_sim.h promises the same bits).
 *
 * The periodic packing of packing.h (5,000 bodies: every parallel loop runs parallel on two
 * threads) is stepped 12 times by one sim, and by a second sim that calls clab_sim_prepare
 * before its first step, twice before its 7th (the history of the penalty backend and the
 * warm start of DVI must survive it) and once more at the end; on 1 and 2 threads, under the
 * penalty backend (Hooke with rolling resistance: its per-contact couples too) and DVI (a fixed
 * number of Jacobi sweeps). The two runs' bodies after the 12 steps, and the last step's
 * contacts and forces, must be identical bit for bit (memcmp: no tolerance, the promise is
 * exact). And: right after clab_sim_prepare the contact list is empty and the collider has
 * built its pair list once; the first step keeps that list (no rebuild: no body has moved);
 * a due sort is done by clab_sim_prepare and not again by the step. */
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "clab_sim.h"
#include "packing.h"
#include "fixed_jacobi.h"
#include "tap.h"

#define STEPS 12
#define PREPARE_AT 6 /* clab_sim_prepare (twice) before the 7th step */

static clab_sim *make_sim(clab_world *w, const char *backend, clab_error *err)
{
    clab_options o;
    clab_options_init(&o);
    clab_options_set(&o, "sort", "5", NULL);
    if (strcmp(backend, "dvi") == 0) { /* a fixed number of Jacobi sweeps: the same work in both runs */
        fixed_jacobi_options(&o, "20");
    } else {
        clab_options_set(&o, "kn", "1e5", NULL);
        clab_options_set(&o, "model", "hooke", NULL);
        clab_options_set(&o, "rolling", "cdt", NULL);
    }
    clab_sim *s = clab_sim_create(w, backend, strcmp(backend, "dvi") ? 1e-4 : 1e-3, &o, err);
    clab_options_free(&o);
    return s;
}

typedef struct {
    clab_world *w;
    clab_sim *s;
    clab_vec3 *f; /* the last step's forces */
} run_t;

/* STEPS steps; prepare: with clab_sim_prepare before the first and the 7th step and after the
 * last (its checks go to the TAP output) */
static int run(run_t *R, const char *backend, int prepare, const char *tag)
{
    clab_error err;
    R->w = packing_world(5000, 18, 7);
    for (size_t k = 0; k < R->w->nmaterials; k++) R->w->materials[k].mu_roll = 1e-3; /* rolling couples on */
    R->s = make_sim(R->w, backend, &err);
    R->f = NULL;
    if (!R->s) {
        tap_diag("%s: %s", tag, err.msg);
        return 1;
    }
    clab_sim *s = R->s;
    int rc = CLAB_OK;
    for (int k = 0; k < STEPS && !rc; k++) {
        if (prepare && k == 0) {
            rc = clab_sim_prepare(s, &err);
            clab_broadphase_stats st;
            clab_broadphase_stats_get(s->collider, &st);
            tap_ok(!rc && s->contacts.n == 0 && st.calls == 1 && st.rebuilds == 1 && s->sorts == 1,
                   "%s: after clab_sim_prepare: no contacts (%zu), the pair list built once (%zu calls, %zu builds), "
                   "the due sort done (%zu sorts)",
                   tag, s->contacts.n, st.calls, st.rebuilds, s->sorts);
        }
        if (prepare && k == PREPARE_AT) {
            rc = clab_sim_prepare(s, &err);
            if (!rc) rc = clab_sim_prepare(s, &err);
        }
        if (!rc) rc = clab_sim_step(s, &err);
        if (prepare && k == 0 && !rc) {
            clab_broadphase_stats st;
            clab_broadphase_stats_get(s->collider, &st);
            tap_ok(st.calls == 2 && st.rebuilds == 1 && s->sorts == 1 && s->contacts.n > 1000,
                   "%s: the first step keeps the prepared list (%zu calls, %zu builds), sorts no more (%zu sorts), "
                   "%zu contacts",
                   tag, st.calls, st.rebuilds, s->sorts, s->contacts.n);
        }
    }
    if (!rc) {
        R->f = malloc((s->contacts.n + 1) * sizeof *R->f);
        if (R->f) clab_sim_forces(s, R->f);
    }
    if (rc) tap_diag("%s: %s", tag, err.msg);
    return rc;
}

static void run_free(run_t *R)
{
    clab_sim_destroy(R->s);
    clab_world_destroy(R->w);
    free(R->f);
}

static void compare(const char *backend, int threads)
{
#ifdef _OPENMP
    omp_set_num_threads(threads);
#endif
    char tag[64];
    snprintf(tag, sizeof tag, "%s, %d thread(s)", backend, threads);
    run_t A, B;
    int ra = run(&A, backend, 0, tag), rb = run(&B, backend, 1, tag);
    tap_ok(!ra && !rb, "%s: both runs step %d times", tag, STEPS);
    if (!ra && !rb) {
        const clab_contacts *ca = &A.s->contacts, *cb = &B.s->contacts;
        int same_bodies = A.w->nbodies == B.w->nbodies &&
                          memcmp(A.w->bodies, B.w->bodies, A.w->nbodies * sizeof *A.w->bodies) == 0;
        int same_contacts = ca->n == cb->n && ca->nlv == cb->nlv && memcmp(ca->c, cb->c, ca->n * sizeof *ca->c) == 0 &&
                            (ca->nlv == 0 || memcmp(ca->lv, cb->lv, ca->nlv * sizeof *ca->lv) == 0);
        int same_forces = A.f && B.f && ca->n == cb->n && memcmp(A.f, B.f, ca->n * sizeof *A.f) == 0;
        tap_ok(same_bodies && same_contacts && same_forces,
               "%s: with clab_sim_prepare the same bits as without: bodies %s, last step's %zu contacts %s, forces %s",
               tag, same_bodies ? "same" : "DIFFER", ca->n, same_contacts ? "same" : "DIFFER",
               same_forces ? "same" : "DIFFER");
        /* once more after the last step: the contact list emptied, the forces of none asked */
        int rc = clab_sim_prepare(B.s, NULL);
        clab_sim_forces(B.s, B.f);
        tap_ok(rc == CLAB_OK && B.s->contacts.n == 0, "%s: clab_sim_prepare after the last step: no contacts (%zu)", tag,
               B.s->contacts.n);
    }
    run_free(&A);
    run_free(&B);
}

int main(void)
{
    const char *backends[] = {"penalty", "dvi"};
    for (int b = 0; b < 2; b++) {
        compare(backends[b], 1);
#ifdef _OPENMP
        compare(backends[b], 2);
#endif
    }
    return tap_done();
}
