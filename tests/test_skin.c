/* test_skin.c: the Verlet skin of the collider (clab_collider_set_skin, option skin of
 * clab_sim).
 *
 * The skin only decides when the candidate pairs are rebuilt; the contacts must be the same
 * records in the same order for every skin, so runs with and without a skin must be
 * identical bit for bit. Checked on a collapsing pile of spheres and boxes (random spins up
 * to 5 rad/s, so the rotation part of the rebuild criterion matters), under the penalty
 * backend (1200 steps) and the DVI backend (envelope > 0, 150 steps), and on a periodic
 * pile: every step's contact array (memcmp) and the final body states (memcmp) of skin 0
 * (rebuild every step), the automatic skin and a large skin (half the median radius) agree
 * exactly; the skinned runs rebuild less often than every step. */
#include <stdlib.h>
#include <string.h>

#include "clab_sim.h"
#include "pile.h"
#include "tap.h"

#define NSKIN 3

static void run(const char *backend, int n, int steps, int periodic)
{
    static const char *const skins[NSKIN] = {"0", NULL, "0.05"}; /* NULL: automatic */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 42);
    clab_world *base = pile_world(r, n, 1);
    gsl_rng_free(r);
    if (!base) exit(99);
    clab_error err;
    if (periodic) { /* the 2 x 2 column in a period of 0.8 m along x and y */
        clab_world_set_periodic(base, 0, -0.3, 0.5, &err);
        clab_world_set_periodic(base, 1, -0.3, 0.5, &err);
    }
    clab_world *w[NSKIN];
    clab_sim *s[NSKIN];
    for (int k = 0; k < NSKIN; k++) {
        w[k] = clab_world_clone(base);
        clab_options o;
        clab_options_init(&o);
        if (skins[k]) clab_options_set(&o, "skin", skins[k], NULL);
        s[k] = clab_sim_create(w[k], backend, strcmp(backend, "dvi") ? 2e-5 : 1e-3, &o, &err);
        clab_options_free(&o);
        if (!s[k]) {
            tap_diag("sim: %s", err.msg);
            exit(99);
        }
    }
    int same = 1, rc = CLAB_OK;
    size_t contacts = 0;
    long first_diff = -1;
    for (int step = 0; step < steps && rc == CLAB_OK; step++) {
        for (int k = 0; k < NSKIN && rc == CLAB_OK; k++) rc = clab_sim_step(s[k], &err);
        for (int k = 1; k < NSKIN && rc == CLAB_OK; k++) {
            const clab_contacts *a = &s[0]->contacts, *b = &s[k]->contacts;
            int eq = a->n == b->n && (a->n == 0 || memcmp(a->c, b->c, a->n * sizeof *a->c) == 0);
            if (!eq && first_diff < 0) first_diff = step;
            same &= eq;
        }
        contacts += s[0]->contacts.n;
    }
    int states = rc == CLAB_OK;
    for (int k = 1; k < NSKIN && states; k++)
        states = memcmp(w[0]->bodies, w[k]->bodies, w[0]->nbodies * sizeof(clab_body)) == 0;
    clab_broadphase_stats st[NSKIN];
    for (int k = 0; k < NSKIN; k++) clab_broadphase_stats_get(s[k]->collider, &st[k]);
    const char *what = periodic ? "periodic pile" : "pile";
    tap_ok(rc == CLAB_OK, "%s, %s, %d bodies: %d steps run (%s)", backend, what, n, steps, rc ? err.msg : "ok");
    tap_ok(same && contacts > (size_t)steps,
           "%s, %s: every step's contacts identical for skin 0, automatic (%.3g m) and 0.05 m (%zu contacts in all; "
           "first difference at step %ld)",
           backend, what, st[1].skin, contacts, first_diff);
    tap_ok(states, "%s, %s: final body states identical bit for bit", backend, what);
    /* (the DVI pile is pushed apart at several m/s by the stabilization of its initial
     * overlaps: the automatic skin may rebuild every step there) */
    tap_ok(st[0].rebuilds == (size_t)steps && st[1].rebuilds <= (size_t)steps && st[2].rebuilds < (size_t)steps &&
               st[2].rebuilds <= st[1].rebuilds && st[2].rebuilds >= 1,
           "%s, %s: rebuilds: %zu (skin 0), %zu (automatic), %zu (0.05 m) of %d steps", backend, what, st[0].rebuilds,
           st[1].rebuilds, st[2].rebuilds, steps);
    for (int k = 0; k < NSKIN; k++) {
        clab_sim_destroy(s[k]);
        clab_world_destroy(w[k]);
    }
    clab_world_destroy(base);
}

int main(void)
{
    run("penalty", 160, 1200, 0);
    run("dvi", 60, 150, 0);
    run("penalty", 120, 800, 1);
    return tap_done();
}
