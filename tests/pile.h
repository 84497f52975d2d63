/* pile.h: a small random pile for the CCP tests: n bodies (spheres and boxes, random sizes,
 * orientations and velocities, several materials) jittered around a compact column on a
 * fixed floor, so that many contacts overlap or lie inside the envelope. Header-only test
 * helper (static functions). */
#ifndef CLAB_TEST_PILE_H
#define CLAB_TEST_PILE_H

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>

#include "clab_collide.h"
#include "clab_world.h"
#include "ccp.h"

static inline double pile_unif(gsl_rng *r, double a, double b) { return a + (b - a) * gsl_rng_uniform(r); }

/* The world, or NULL. boxes: also add boxes (every third body). */
static inline clab_world *pile_world(gsl_rng *r, int n, int boxes)
{
    clab_error err;
    clab_world *w = clab_world_create(NULL);
    if (!w) return NULL;
    const double mus[] = {0.0, 0.3, 0.8};
    for (int k = 0; k < 3; k++) {
        clab_material m = clab_default_material();
        snprintf(m.name, sizeof m.name, "m%d", k);
        m.mu = mus[k];
        if (clab_world_add_material(w, &m, &err) < 0) goto fail;
    }
    clab_body_def g = clab_default_body_def();
    g.shape = clab_plane();
    g.fixed = 1;
    g.material = 2;
    if (clab_world_add_body(w, &g, &err) < 0) goto fail;
    for (int i = 0; i < n; i++) {
        clab_body_def d = clab_default_body_def();
        double R = pile_unif(r, 0.08, 0.12);
        int is_box = boxes && i % 3 == 2;
        d.shape = is_box ? clab_box(R * 0.8, R * 0.9, R * 0.7) : clab_sphere(R);
        /* a column of 2 x 2 per layer, spacing a little less than two radii: overlaps */
        int layer = i / 4, slot = i % 4;
        d.r = clab_v3((slot % 2) * 0.19 + pile_unif(r, -0.01, 0.01), (slot / 2) * 0.19 + pile_unif(r, -0.01, 0.01),
                      0.1 + 0.185 * layer + pile_unif(r, -0.01, 0.005));
        d.e = clab_q_axis_angle(clab_v3(pile_unif(r, -1, 1), pile_unif(r, -1, 1), pile_unif(r, -1, 1) + 1e-3),
                                pile_unif(r, 0, M_PI));
        d.rdot = clab_v3(pile_unif(r, -1, 1), pile_unif(r, -1, 1), pile_unif(r, -1, 1));
        d.omega = clab_v3(pile_unif(r, -5, 5), pile_unif(r, -5, 5), pile_unif(r, -5, 5));
        d.density = pile_unif(r, 500.0, 3000.0);
        d.material = 1 + (int)gsl_rng_uniform_int(r, 3);
        if (clab_world_add_body(w, &d, &err) < 0) goto fail;
    }
    return w;
fail:
    fprintf(stderr, "pile_world: %s\n", err.msg);
    clab_world_destroy(w);
    return NULL;
}

/* Two joints consistent with the configuration (violation 0 at the start): a spherical joint
 * between bodies sa and sb at their midpoint, and a distance joint between the centers of da
 * and db at their present distance. Pick bodies of different layers that do not touch (a joint
 * between touching, overlapping bodies would ask for separation and for none at once). */
static inline void pile_add_joints(clab_world *w, int sa, int sb, int da, int db)
{
    clab_error err;
    clab_vec3 mid = clab_v3_scale(clab_v3_add(w->bodies[sa].r, w->bodies[sb].r), 0.5);
    clab_joint js = {CLAB_JOINT_SPHERICAL, sa, sb, clab_q_rotate_inv(w->bodies[sa].e, clab_v3_sub(mid, w->bodies[sa].r)),
                     clab_q_rotate_inv(w->bodies[sb].e, clab_v3_sub(mid, w->bodies[sb].r)), 0.0};
    clab_joint jd = {CLAB_JOINT_DISTANCE, da, db, clab_v3(0, 0, 0), clab_v3(0, 0, 0),
                     clab_v3_norm(clab_v3_sub(w->bodies[db].r, w->bodies[da].r))};
    if (clab_world_add_joint(w, &js, &err) < 0 || clab_world_add_joint(w, &jd, &err) < 0)
        fprintf(stderr, "pile_add_joints: %s\n", err.msg);
}

/* A pile's CCP for the solver tests: the world w (owned from here on) collided with envelope
 * 0.02, its bodies kicked by their applied forces over h (the step's velocity update before
 * the impulses), and the CCP built; pile_ccp_free releases all of it. */
typedef struct pile_ccp {
    clab_world *w;
    clab_collider *cd;
    clab_contacts c;
    clab_ccp P;
} pile_ccp;

static inline void pile_ccp_make(pile_ccp *pc, clab_world *w, double h)
{
    clab_error err;
    pc->w = w;
    pc->cd = clab_collider_create();
    clab_contacts_init(&pc->c);
    clab_ccp_init(&pc->P);
    if (clab_collide(pc->cd, w, 0.02, &pc->c, &err)) fprintf(stderr, "pile_ccp_make: %s\n", err.msg);
    for (size_t k = 0; k < w->nbodies; k++) {
        clab_vec3 F, tau;
        clab_world_applied(w, k, &F, &tau);
        clab_body_kick(&w->bodies[k], F, tau, h);
    }
    if (clab_ccp_build(&pc->P, w, &pc->c, h, 1.0, &err)) fprintf(stderr, "pile_ccp_make: build: %s\n", err.msg);
}

static inline void pile_ccp_free(pile_ccp *pc)
{
    clab_ccp_free(&pc->P);
    clab_contacts_free(&pc->c);
    clab_collider_destroy(pc->cd);
    clab_world_destroy(pc->w);
}

#endif
