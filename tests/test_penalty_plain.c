/* test_penalty_plain.c: the penalty backend's plain step (fast=off, penalty/step.c: one contact at
 * a time, single-threaded) and its fast path (fast=on, the default: penalty/fast_step.c, with
 * the gather in the collider's pass, the scatter, the SSE2 two-contact lanes, the fused wrap and
 * state screen, OpenMP threads) give the same bits: after every run the bodies (memcmp of the
 * whole records: positions, orientations, velocities) and the last step's contact forces
 * (clab_sim_forces, memcmp) must be identical, no tolerance. The fast path runs on one thread
 * and, where OpenMP is on, on two (its split scatter and the collider's partition).
 *
 * Scenes: a compressed periodic packing of 2,000 spheres and boxes with random velocities and
 * spins (tests/packing.h: contacts start, slide, stick and end; every 40th body frozen); a pile
 * of spheres and boxes of three materials on a fixed plane, with renumbering (option sort); a
 * box resting on a plane (levers of a side other than a sphere); the pile on a plane that
 * slides and turns (a driven body), with a driven spinning sphere and two loaded bodies. Options: the defaults
 * (Hertz-Mindlin from the materials), Hooke with an explicit k_n (the lanes' case) and with a
 * derived one, LAMMPS's set (cap=lammps, lever=surface, history_turn=project,
 * history_start=zero, velocity Verlet, sphere_orientation=off), rolling resistance with
 * clamp=on and cap=spring, and two materials (the pair looked up a contact).
 *
 * No mode of the fast path is missing from the plain one: every option runs on both. What
 * only the fast path has is speed: threads, lanes, the gather and the fused passes. The sums
 * agree to the bit for contacts that run by body a, as clab_collide writes them (the plain
 * step adds each body's terms in contact order). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "add_body.h"
#include "clab_motion.h"
#include "clab_sim.h"
#include "packing.h"
#include "tap.h"

typedef clab_world *(*scene_fn)(void);

/* the packing, every 40th body frozen, rolling resistance in its material */
static clab_world *packing(void)
{
    clab_world *w = packing_world(2000, 13, 7);
    w->materials[0].mu_roll = 1e-3;
    for (size_t i = 3; i < w->nbodies; i += 40) {
        w->bodies[i].fixed = 1;
        w->bodies[i].rdot = w->bodies[i].wbar = clab_v3(0.0, 0.0, 0.0);
    }
    return w;
}

/* the packing with body 0 of a second material (every contact's pair looked up) */
static clab_world *packing_mixed(void)
{
    clab_world *w = packing();
    clab_error err;
    clab_material m = clab_default_material();
    snprintf(m.name, sizeof m.name, "stiff");
    m.mu = 0.7;
    m.E = 2.0 * m.E;
    const int k = clab_world_add_material(w, &m, &err);
    for (size_t i = 0; k >= 0 && i < w->nbodies; i += 3) w->bodies[i].material = k;
    return w;
}

/* spheres and boxes of three materials in columns of four on a fixed plane, some touching at
 * the start, with random velocities and spins, falling onto each other */
static clab_world *pile(void)
{
    clab_world_def wd = clab_default_world_def();
    wd.gravity = clab_v3(0.0, 0.0, -9.81);
    clab_world *w = clab_world_create(&wd);
    clab_error err;
    const double mus[] = {0.2, 0.5, 0.9};
    for (int k = 0; k < 3; k++) {
        clab_material m = clab_default_material();
        snprintf(m.name, sizeof m.name, "m%d", k);
        m.mu = mus[k];
        m.mu_roll = 1e-3 * k;
        clab_world_add_material(w, &m, &err);
    }
    add(w, clab_plane(), clab_v3(0.0, 0.0, 0.0), clab_q_identity(), 1);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    for (int i = 0; i < 40; i++) {
        const double R = 0.09 + 0.01 * gsl_rng_uniform(r);
        const clab_shape s = i % 3 == 2 ? clab_box(0.9 * R, 0.9 * R, 0.9 * R) : clab_sphere(R);
        const clab_vec3 c = clab_v3((i % 2) * 0.195 + 0.01 * gsl_rng_uniform(r), ((i / 2) % 2) * 0.195,
                                    0.095 + 0.19 * (i / 4) + 0.002 * gsl_rng_uniform(r));
        const int k = add(w, s, c, clab_q_axis_angle(clab_v3(1.0, 0.5, 0.2), gsl_rng_uniform(r)), 0);
        w->bodies[k].rdot = clab_v3(0.1 * gsl_rng_uniform(r) - 0.05, 0.1 * gsl_rng_uniform(r) - 0.05, 0.0);
        w->bodies[k].wbar = clab_v3(gsl_rng_uniform(r), -0.5, gsl_rng_uniform(r));
        w->bodies[k].material = i % 3;
    }
    gsl_rng_free(r);
    return w;
}

/* a box resting on a plane, a little tilted and sliding */
static clab_world *box_on_plane(void)
{
    clab_world_def wd = clab_default_world_def();
    wd.gravity = clab_v3(0.0, 0.0, -9.81);
    clab_world *w = clab_world_create(&wd);
    add(w, clab_plane(), clab_v3(0.0, 0.0, 0.0), clab_q_identity(), 1);
    const int k = add(w, clab_box(0.1, 0.07, 0.05), clab_v3(0.0, 0.0, 0.0499),
                      clab_q_axis_angle(clab_v3(1.0, 0.3, 0.0), 0.02), 0);
    w->bodies[k].rdot = clab_v3(0.3, 0.1, 0.0);
    return w;
}

/* the pile on a plane that slides and turns about z (driven), body 5 spinning and moving
 * (driven), bodies 2 and 7 loaded (clab_motion.h) */
static clab_world *pile_driven(void)
{
    clab_world *w = pile();
    clab_error err;
    clab_motion belt = clab_motion_constant(clab_v3(0.3, 0.1, 0.0), clab_v3(0.0, 0.0, 1.0));
    clab_motion spin = clab_motion_constant(clab_v3(0.1, 0.0, 0.0), clab_v3(0.0, 2.0, 0.5));
    if (clab_world_set_motion(w, 0, &belt, &err) || clab_world_set_motion(w, 5, &spin, &err) ||
        clab_world_set_load(w, 2, clab_v3(1.0, 0.0, -2.0), clab_v3(0.0, 0.01, 0.0), &err) ||
        clab_world_set_load(w, 7, clab_v3(0.0, -1.0, 0.0), clab_v3(0.0, 0.0, 0.0), &err))
        tap_diag("%s", err.msg);
    return w;
}

/* the world of scene after steps steps with options opts (key, value pairs, NULL-terminated)
 * and fast (on, off), on threads threads; the last step's forces into *f (malloc'd), their
 * count *nf. NULL on failure */
static clab_world *run(scene_fn scene, const char *const *opts, const char *fast, int threads, int steps,
                       clab_vec3 **f, size_t *nf)
{
#ifdef _OPENMP
    omp_set_num_threads(threads);
#else
    (void)threads;
#endif
    clab_error err;
    clab_world *w = scene();
    clab_options o;
    clab_options_init(&o);
    for (int k = 0; opts[k]; k += 2) clab_options_set(&o, opts[k], opts[k + 1], NULL);
    clab_options_set(&o, "fast", fast, NULL);
    clab_sim *s = w ? clab_sim_create(w, "penalty", 1e-4, &o, &err) : NULL;
    clab_options_free(&o);
    if (!s) tap_diag("create: %s", err.msg);
    for (int k = 0; s && k < steps; k++)
        if (clab_sim_step(s, &err)) {
            tap_diag("step %d: %s", k, err.msg);
            clab_sim_destroy(s);
            s = NULL;
        }
    *f = NULL;
    *nf = 0;
    if (!s) {
        clab_world_destroy(w);
        return NULL;
    }
    *nf = s->contacts.n;
    *f = malloc((*nf ? *nf : 1) * sizeof **f);
    clab_sim_forces(s, *f);
    clab_sim_destroy(s);
    return w;
}

/* scene under opts, fast=on (1 thread, and 2 with OpenMP) against fast=off: the same bits */
/* bodies a and b of n, field by field to the bit (not the struct's bytes: clab_shape has 4
 * bytes of padding after its type, which hold whatever the allocator left) */
static int same_bodies(const clab_body *a, const clab_body *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const clab_body *x = &a[i], *y = &b[i];
        if (memcmp(&x->m, &y->m, sizeof x->m) || memcmp(&x->J, &y->J, sizeof x->J) || memcmp(&x->r, &y->r, sizeof x->r) ||
            memcmp(&x->e, &y->e, sizeof x->e) || memcmp(&x->rdot, &y->rdot, sizeof x->rdot) ||
            memcmp(&x->wbar, &y->wbar, sizeof x->wbar) || x->fixed != y->fixed || x->material != y->material ||
            x->shape.type != y->shape.type || memcmp(&x->shape.radius, &y->shape.radius, sizeof x->shape.radius) ||
            memcmp(&x->shape.half, &y->shape.half, sizeof x->shape.half))
            return 0;
    }
    return 1;
}

static void same_bits(const char *label, scene_fn scene, const char *const *opts, int steps)
{
    clab_vec3 *fp, *ff;
    size_t np, nf;
    clab_world *plain = run(scene, opts, "off", 1, steps, &fp, &np);
    int T = 1;
#ifdef _OPENMP
    T = 2;
#endif
    for (int t = 1; t <= T; t++) {
        clab_world *fast = run(scene, opts, "on", t, steps, &ff, &nf);
        const int ok = plain && fast && plain->nbodies == fast->nbodies && np == nf;
        size_t touching = 0;
        for (size_t i = 0; ok && i < np; i++) touching += fp[i].x > 0.0;
        tap_ok(ok && same_bodies(plain->bodies, fast->bodies, plain->nbodies),
               "%s, %d steps: fast=on (%d thread%s) = fast=off, every body bit for bit", label, steps, t,
               t > 1 ? "s" : "");
        tap_ok(ok && touching > 0 && memcmp(fp, ff, np * sizeof *fp) == 0,
               "%s: the last step's %zu contact forces (%zu with F_n > 0) bit for bit", label, np, touching);
        clab_world_destroy(fast);
        free(ff);
    }
    clab_world_destroy(plain);
    free(fp);
}

int main(void)
{
    static const char *const defaults[] = {NULL};
    static const char *const hooke[] = {"model", "hooke", "kn", "2e4", NULL};
    static const char *const hooke_derived[] = {"model", "hooke", "vchar", "0.5", NULL};
    static const char *const lammps[] = {"model", "hooke", "kn", "2e4", "cap", "lammps", "lever", "surface",
                                         "history_turn", "project", "history_start", "zero", "integrator", "verlet",
                                         "sphere_orientation", "off", NULL};
    static const char *const rolling[] = {"rolling", "cdt", "clamp", "on", "cap", "spring", "lever", "surface", NULL};
    static const char *const sorted[] = {"sort", "250", NULL};
    static const char *const total[] = {"cap", "total", NULL};
    static const char *const no_history[] = {"history", "off", NULL};
    static const char *const verlet[] = {"integrator", "verlet", "rolling", "cdt", NULL};

    same_bits("packing, Hertz-Mindlin defaults", packing, defaults, 60);
    same_bits("packing, Hooke k_n = 2e4 N/m", packing, hooke, 60);
    same_bits("packing, LAMMPS's options", packing, lammps, 60);
    same_bits("packing, rolling=cdt clamp=on cap=spring lever=surface", packing, rolling, 60);
    same_bits("packing, two materials", packing_mixed, defaults, 60);
    same_bits("packing, cap=total", packing, total, 60);
    same_bits("packing, history=off", packing, no_history, 60);
    same_bits("pile on a plane, Hertz-Mindlin, sort every 250 steps", pile, sorted, 800);
    same_bits("pile on a plane, Hooke k_n from vchar", pile, hooke_derived, 3000);
    same_bits("pile on a plane, Verlet with rolling resistance", pile, verlet, 800);
    same_bits("box on a plane", box_on_plane, defaults, 2000);
    same_bits("pile on a sliding, turning plane, a driven sphere, loads", pile_driven, defaults, 6000);
    same_bits("the same, sort every 250 steps", pile_driven, sorted, 6000);
    return tap_done();
}
