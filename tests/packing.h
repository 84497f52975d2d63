/* packing.h: a compressed periodic packing for the tests of the parallel paths: n bodies
 * (spheres and every fifth a box, radii 0.05 +- 10 %) on a cubic lattice of m^3 sites of
 * spacing 0.095 m with random offsets, periodic on all three axes, random orientations,
 * velocities and spins, gravity -1 m/s^2 along z. With n in the thousands every parallel
 * loop of the collision layer and the penalty step runs parallel. Header-only test helper. */
#ifndef CLAB_TEST_PACKING_H
#define CLAB_TEST_PACKING_H

#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "clab_world.h"
#include "tap.h"

static clab_world *packing_world(int n, int m, unsigned long seed)
{
    clab_world_def wd = clab_default_world_def();
    wd.gravity = clab_v3(0.0, 0.0, -1.0);
    clab_world *w = clab_world_create(&wd);
    clab_error err;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    const double a = 0.095;
    for (int k = 0; k < 3; k++) clab_world_set_periodic(w, k, 0.0, m * a, &err);
    for (int i = 0; i < n; i++) {
        clab_body_def d = clab_default_body_def();
        int x = i % m, y = (i / m) % m, z = i / (m * m);
        double R = 0.05 * (0.9 + 0.2 * gsl_rng_uniform(r));
        d.shape = i % 5 == 4 ? clab_box(0.8 * R, 0.7 * R, 0.6 * R) : clab_sphere(R);
        d.r = clab_v3((x + 0.1 * gsl_rng_uniform(r)) * a, (y + 0.1 * gsl_rng_uniform(r)) * a,
                      (z + 0.1 * gsl_rng_uniform(r)) * a);
        d.e = clab_q_normalize(clab_q(gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1),
                                      gsl_ran_gaussian(r, 1)));
        d.rdot = clab_v3(gsl_ran_gaussian(r, 0.1), gsl_ran_gaussian(r, 0.1), gsl_ran_gaussian(r, 0.1));
        d.omega = clab_v3(gsl_ran_gaussian(r, 1.0), gsl_ran_gaussian(r, 1.0), gsl_ran_gaussian(r, 1.0));
        if (clab_world_add_body(w, &d, &err) < 0) {
            tap_diag("add_body: %s", err.msg);
            exit(99);
        }
    }
    gsl_rng_free(r);
    return w;
}

#endif
