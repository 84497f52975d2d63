/* shear.h: the direct shear test (`contactlab shear`, shear.c) and its split box
 * (shear_box.c).
 *
 * The box: a sample of spheres in a square box of inner width L (x, the shear direction) by
 * W (y), floor at z = 0, split at height z_s (half the prepared sample's height):
 *   - the floor: a fixed half-space z < 0, rough (the particles' friction mu);
 *   - the lower half: four fixed boxes, the walls x = +-L/2 and y = +-W/2 from z = 0 to z_s;
 *   - the upper half: four driven boxes, the same walls from z_s to the frame's top, moving
 *     along +x at the shear speed v once the sample is consolidated;
 *   - the loading plate: a free box inside the upper frame (a clearance of a twentieth of a
 *     diameter on each side, less than any sphere can pass), rough, on the sample's top, loaded
 *     with the force that makes its weight and the load sigma_n A (clab_world_set_load), its
 *     rotation blocked (inertia SH_PLATE_J times its own: a cap guided by the frame); the
 *     frame's walls push it along x (frictionless contacts: mu = min(mu, mu_wall) = 0).
 *     A load, not a servo: it is the same boundary for rigid and compliant contacts (a servo
 *     on rigid contacts sees a stress that jumps between zero and the solver's limit).
 * The frame walls are smooth (mu_wall, default 0: the side walls of a shear box are polished;
 * the floor and the plate carry the shear), and thick: T = the largest shear displacement
 * plus two diameters, so the top face of the lower wall at x = +L/2 holds the spheres the upper
 * frame carries past it and the bottom face of the upper wall at x = -L/2 covers the lower
 * spheres it uncovers. Walls touching walls make no contacts (pairs of fixed bodies).
 *
 * Measured at every step and averaged over each output interval: the shear force
 * F_s = -(the contact force along x on the upper frame, the plate's push on it included), the normal force on
 * the plate N (its contact force along z), the plate's height (dilation). The normal stress on
 * the shear plane adds the weight of the spheres above it (their centers above z_s at the
 * start of shearing) to N: sigma_n = (N + W_upper)/A, tau = F_s/A, A = L W (the ratio
 * tau/sigma_n does not depend on the area). */
#ifndef CLAB_SHEAR_H
#define CLAB_SHEAR_H

#include "granular.h"
#include "xp.h"

typedef struct sh_geom {
    double L, W;      /* inner width along x (shear) and y [m] */
    double zs;        /* split height [m] */
    double ztop;      /* top of the upper frame [m] */
    double T;         /* wall thickness [m] */
    double plate_t;   /* plate thickness [m] */
    double clearance; /* between plate and frame, each side [m] */
    size_t floor, lower[4], upper[4], plate; /* body indices */
    size_t first;     /* the first sphere */
    size_t n;         /* spheres */
    double plate_weight; /* [N] */
} sh_geom;

#define SH_PLATE_J 1e9 /* the plate's moments of inertia over a box's of its mass */

/* The world: the sample's spheres (material 0: rough), the box of the header (floor and plate
 * rough, frame walls material 1: mu_wall), the plate on the sample's top loaded to sigma_n.
 * NULL with err set on failure (sigma_n below the plate's own weight over the area). */
clab_world *sh_build(const gr_sample *smp, const gr_material *mat, double mu_wall, double max_shift, double sigma_n,
                     sh_geom *g, clab_error *err);

/* Set the upper frame moving along x at v (0: at rest). */
int sh_set_shear_speed(clab_sim *s, const sh_geom *g, double v, clab_error *err);

/* What one step's contacts put on the box. */
typedef struct sh_load {
    double shear;   /* F_s: the resistance of the sample to the upper half's motion [N] */
    double normal;  /* N: the sample's push on the plate, upward [N] */
} sh_load;

/* The load of the last step (F scratch of nbodies vectors). */
int sh_measure(clab_sim *s, const sh_geom *g, clab_vec3 *F, sh_load *ld, clab_error *err);

/* The weight of the spheres whose centers are above z_s [N]. */
double sh_upper_weight(const clab_world *w, const sh_geom *g);

#endif
