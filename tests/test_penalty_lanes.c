/* test_penalty_lanes.c: the penalty fast path's contacts two at a time (contact_force2 of
 * penalty/fast_contact.h: two touching sphere-sphere contacts in the two lanes of SSE2
 * registers) give the same bits as its one-contact code (contact_force), as they promise: each
 * lane does the one-contact operations in the same order.
 *
 * The one-contact code runs for every contact when the bodies have more than one material (the
 * pair is then looked up a contact), so the same compressed periodic packing (packing.h: 2,000
 * spheres and boxes, random velocities and spins, so that contacts slide and stick, start and
 * end; every 40th body frozen) is stepped twice: once with every body of one material
 * (spheres' contacts in pairs), once with body 0 of a second material of the same properties
 * (every contact alone; the pairs' parameters are the same numbers). Every body's position,
 * orientation and velocities after the steps must be the same bit for bit (memcmp, no
 * tolerance), under Hertz-Mindlin with the defaults and under LAMMPS's options (Hooke with an
 * explicit k_n, cap=lammps, lever=surface, history_turn=project, history_start=zero, velocity
 * Verlet). One thread, so that the pairs are the same in every run. Checked to fail: the lane
 * of body b's lever arm formed with 0.6 Phi for 0.5 Phi; the turned history's p2 > 0 written
 * p2 < 0; a contact with a frozen body given that body's (infinite) mass as m_eff. */
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "clab_sim.h"
#include "packing.h"
#include "tap.h"

#define STEPS 60

/* the packing after STEPS steps with options opts (key, value pairs, NULL-terminated); mixed:
 * body 0 of the second material */
static clab_world *run(const char *const *opts, int mixed, size_t *contacts)
{
    clab_error err;
    clab_world *w = packing_world(2000, 13, 7);
    clab_material twin = clab_default_material();
    snprintf(twin.name, sizeof twin.name, "twin");
    const int mt = clab_world_add_material(w, &twin, &err);
    if (mt < 0) {
        tap_diag("add_material: %s", err.msg);
        clab_world_destroy(w);
        return NULL;
    }
    if (mixed) w->bodies[0].material = mt;
    for (size_t i = 3; i < w->nbodies; i += 40) { /* frozen particles: m_eff is the other's mass */
        w->bodies[i].fixed = 1;
        w->bodies[i].rdot = w->bodies[i].wbar = clab_v3(0.0, 0.0, 0.0);
    }
    clab_options o;
    clab_options_init(&o);
    for (int k = 0; opts[k]; k += 2) clab_options_set(&o, opts[k], opts[k + 1], NULL);
    clab_sim *s = clab_sim_create(w, "penalty", 1e-4, &o, &err);
    clab_options_free(&o);
    *contacts = 0;
    for (int k = 0; s && k < STEPS; k++) {
        if (clab_sim_step(s, &err)) {
            tap_diag("step %d: %s", k, err.msg);
            clab_sim_destroy(s);
            s = NULL;
            break;
        }
        *contacts += s->contacts.n;
    }
    if (!s) {
        clab_world_destroy(w);
        return NULL;
    }
    clab_sim_destroy(s);
    return w;
}

static void compare(const char *name, const char *const *opts)
{
    size_t n1 = 0, n2 = 0;
    clab_world *a = run(opts, 0, &n1), *b = run(opts, 1, &n2);
    size_t differ = 0, moved = 0;
    if (a && b)
        for (size_t i = 0; i < a->nbodies; i++) {
            const clab_body *p = &a->bodies[i], *q = &b->bodies[i];
            differ += memcmp(&p->r, &q->r, sizeof p->r) || memcmp(&p->e, &q->e, sizeof p->e) ||
                      memcmp(&p->rdot, &q->rdot, sizeof p->rdot) || memcmp(&p->wbar, &q->wbar, sizeof p->wbar);
            moved += clab_v3_norm(p->rdot) > 0.0;
        }
    tap_ok(a && b && n1 == n2 && n1 > 0 && differ == 0,
           "%s: contacts two at a time = one at a time, bit for bit (%zu contacts in %d steps; %zu of %zu bodies differ)",
           name, n1, STEPS, differ, a ? a->nbodies : 0);
    clab_world_destroy(a);
    clab_world_destroy(b);
}

int main(void)
{
#ifdef _OPENMP
    omp_set_num_threads(1);
#endif
    static const char *const hertz[] = {NULL};
    static const char *const lammps[] = {"model", "hooke", "kn", "1e5", "cap", "lammps", "lever", "surface",
                                         "history_turn", "project", "history_start", "zero", "integrator",
                                         "verlet", NULL};
    compare("Hertz-Mindlin, the defaults", hertz);
    compare("Hooke, LAMMPS's options", lammps);
    return tap_done();
}
