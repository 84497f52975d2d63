/* prepare.h: sample preparation by radius growth (prepare_grow.c) and the command `contactlab
 * prepare` that saves the packing for every method to load (prepare.c; doc/measure.md). */
#ifndef CLAB_PREPARE_H
#define CLAB_PREPARE_H

#include <stdio.h>

#include "clab_measure.h"
#include "clab_world.h"
#include "xp.h"

typedef struct xp_pack_params {
    long n;               /* spheres */
    double rmin, rmax;    /* final radii, uniform in [rmin, rmax] [m] */
    double phi;           /* target solid fraction */
    double mu;            /* friction while growing (0: a dense sample; > 0: a loose one) */
    double density;       /* [kg/m^3] */
    double E;             /* Young's modulus [Pa] (nu 0.3, cor 0.3) */
    int periodic[3];      /* 1: axis periodic, else two walls (planes) */
    unsigned long seed;   /* gsl_rng_mt19937 seed */
    long stages;          /* growth stages */
    long relax_steps;     /* steps of each stage */
    long final_steps;     /* at most so many steps of the final relaxation */
    double vtol;          /* the final relaxation ends when the RMS speed < vtol [m/s] */
    double aspect;        /* the box's height (z) over its side (x, y): 1 a cube, > 1 a column */
} xp_pack_params;

typedef struct xp_pack_result {
    double L;             /* the cube's side [m] (a column's side in x and y; its height aspect L) */
    double phi;           /* solid fraction reached (clab_measure, walls' box) */
    double max_overlap;   /* largest -Phi of the final contacts [m] */
    double mean_radius;   /* [m] */
    double rms_speed;     /* at the end [m/s] */
    double p;             /* pressure at the end [Pa] (clab_measure) */
    double Z, Z_m;        /* coordination numbers (rattler_min 4 when mu = 0, else 2) */
    double h;             /* the last stage's step [s] */
    long steps;           /* steps taken */
    double wall;          /* wall time [s] */
} xp_pack_result;

void xp_pack_defaults(xp_pack_params *p);
/* Grow a packing: a new world (no gravity) of the walls (or periodic axes) and the spheres,
 * at rest; a progress bar on stderr when c asks. NULL with the problem printed ("contactlab prepare: ...") on failure. */
clab_world *xp_pack_grow(const xp_common *c, const xp_pack_params *p, xp_pack_result *r);

int xp_prepare(int argc, char **argv); /* prepare.c */

#endif
