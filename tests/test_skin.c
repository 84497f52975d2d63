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
 * exactly; the skinned runs rebuild less often than every step. The automatic skin is
 * CLAB_SKIN_AUTO x the median bound radius of the bounded bodies exactly (the median from GSL
 * on a copy of the radii: the collider takes its scratch for it from clab_collide's output);
 * and a sphere that grows between two steps of a kept list is seen (a rebuild; its contacts
 * are those of a collider without skin). */
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

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

/* the automatic skin's value, and a sphere growing under a kept list */
static void auto_skin_and_growth(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    clab_world *w = pile_world(r, 161, 1); /* spheres and boxes of several sizes, a floor */
    gsl_rng_free(r);
    if (!w) exit(99);
    double *R = malloc(w->nbodies * sizeof *R);
    size_t nb = 0;
    for (size_t i = 0; i < w->nbodies; i++)
        if (w->bodies[i].shape.type != CLAB_SHAPE_PLANE) R[nb++] = clab_shape_bound_radius(&w->bodies[i].shape);
    double want = CLAB_SKIN_AUTO * gsl_stats_median(R, 1, nb);
    free(R);
    clab_collider *cd = clab_collider_create(), *ref = clab_collider_create();
    clab_collider_set_skin(ref, 0.0);
    clab_contacts cs, cr;
    clab_contacts_init(&cs);
    clab_contacts_init(&cr);
    clab_error err;
    int rc = clab_collide(cd, w, 0.0, &cs, &err);
    clab_broadphase_stats st;
    clab_broadphase_stats_get(cd, &st);
    tap_ok(rc == CLAB_OK && st.skin == want, "automatic skin %.17g m: CLAB_SKIN_AUTO x GSL's median of %zu bound radii (%.17g)",
           st.skin, nb, want);
    /* grow the last free sphere to three times its radius (it then touches more bodies): the kept
     * list must not be kept for it */
    size_t g = 0;
    for (size_t i = 0; i < w->nbodies; i++)
        if (w->bodies[i].shape.type == CLAB_SHAPE_SPHERE && !w->bodies[i].fixed) g = i;
    size_t before = st.rebuilds, n0 = cs.n;
    w->bodies[g].shape.radius *= 3.0;
    rc = clab_collide(cd, w, 0.0, &cs, &err) || clab_collide(ref, w, 0.0, &cr, &err);
    clab_broadphase_stats_get(cd, &st);
    int eq = cs.n == cr.n && (cs.n == 0 || memcmp(cs.c, cr.c, cs.n * sizeof *cs.c) == 0);
    tap_ok(rc == CLAB_OK && st.rebuilds == before + 1 && eq && cs.n > n0,
           "a sphere grown to 3 times its radius: rebuilt (%zu -> %zu), the contacts of no skin (%zu, %zu; %zu before)",
           before, st.rebuilds, cs.n, cr.n, n0);
    clab_contacts_free(&cs);
    clab_contacts_free(&cr);
    clab_collider_destroy(cd);
    clab_collider_destroy(ref);
    clab_world_destroy(w);
}

int main(void)
{
    auto_skin_and_growth();
    run("penalty", 160, 1200, 0);
    run("dvi", 60, 150, 0);
    run("penalty", 120, 800, 1);
    return tap_done();
}
