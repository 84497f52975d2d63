/* wave.h: what `contactlab wave` shares between its driver (wave.c), its columns (wave_column.c)
 * and its random dense column (wave_random.c): the options, the Hertz column's theory at a
 * pressure, the column's body layout. */
#ifndef CLAB_WAVE_H
#define CLAB_WAVE_H

#include "xp.h"

#define MAXP 8
#define MAXL 400
#define NPULSE 18 /* rows of the pulse's table: rest, then the half sine */

/* the packings */
enum { WAVE_CUBIC = 0, WAVE_RANDOM = 1, WAVE_NPACK = 2 };

typedef struct wave_opts {
    xp_common c;
    int nx, nz;
    double R, rho, E, nu, mu, cor;
    double p[MAXP]; int np;         /* pressures [Pa] */
    double iters[MAXP]; int niters; /* rigid: iterations per step */
    double hdvi[MAXP]; int nhdvi;   /* rigid: steps [s] */
    double hpen;                    /* force laws: step [s]; 0 = T0/50 at the highest pressure */
    double pulse_strain, threshold;
    double pulse_width;             /* the pulse's duration in a / c (a diameter over the Hertz chain's speed) */
    int fit_from;
    int preload;                    /* rigid: steps under the load before the pulse */
    int quick;
    int packing[WAVE_NPACK];        /* 1: run this packing (--packing) */
    int rnx;                        /* random column: side in sphere diameters */
    double rphi;                    /* random column: the growth's target solid fraction */
    double rcor;                    /* random column: restitution while it is pressed */
    double rtransits;               /* random column: pressing time at most, in transits H/c */
    unsigned long seed;             /* random column: the growth's seed */
} wave_opts;

/* the Hertz column at pressure p (the theory and the pulse) */
typedef struct wave_theory {
    double m, a, K, Kw, Kt, F0, delta0, deltaw, deltat, kt, spacing, c, vp, T0;
} wave_theory;

wave_theory wave_theory_at(const wave_opts *o, double p);

/* The column's bodies: 0 the bottom plate (driven), 1..4 the side walls, 5 the top plate (a
 * box of half height R, loaded), then the spheres. */
#define WAVE_FIRST 6
/* the material, the plates and walls of a column of side L whose top plate's underside is at
 * ztop (frictionless_walls: the side walls without friction); the spheres are the caller's */
clab_world *wave_frame(const wave_opts *o, double L, double ztop, int frictionless_walls, clab_error *err);
/* the simple-cubic column at pressure t's: compliant, at the Hertz equilibrium (overlaps
 * delta0, deltaw, deltat); else touching (wave_column.c) */
clab_world *wave_world(const wave_opts *o, const wave_theory *t, int compliant, clab_error *err);

/* The random dense column (wave_random.c): nxr x nxr sphere diameters wide, nz high, its
 * spheres grown frictionless (xp_pack_grow, dense) between the column's walls (frictionless)
 * and plates, then pressed by the loaded top plate at the highest pressure and unloaded to each
 * lower one in turn, with a frictionless Hertz-Mindlin penalty law (restitution rcor) until at
 * rest; each state then held without a pulse under the wave's material (the hold check). */
typedef struct wave_random {
    long n;                 /* spheres */
    double L;               /* side [m] */
    double phi_grown;       /* solid fraction after the growth */
    double *pos[MAXP];      /* [n] centers at rest under pressure p[k] */
    double ztop[MAXP];      /* underside of the top plate there [m] */
    double phi[MAXP];       /* solid fraction there: n v / (L^2 ztop) */
    double Z[MAXP];         /* force-carrying contacts per sphere there (walls and plates count) */
    double rest[MAXP];      /* largest |mean vertical velocity of a depth bin| at the end [m/s] */
    clab_vec3 plate_r[MAXP]; /* the top plate's pose there: centre [m] */
    clab_quat plate_e[MAXP]; /* and orientation (it tilts on the random column's uneven top) */
    double szz0[MAXP];      /* the hold check (wave_random.c): sigma_zz measured at its start [Pa] */
    double hold_v[MAXP];    /* largest |mean vertical velocity of a depth bin| over it [m/s] */
    double hold_dz[MAXP];   /* the top plate's displacement over it [m] */
    double wall;            /* wall time of the growth and pressing [s] */
} wave_random;

/* grow and press; 0, or -1 (printed) */
int wave_random_make(const wave_opts *o, wave_random *r);
void wave_random_free(wave_random *r);
/* the random column at pressure index k as a world (spheres from WAVE_FIRST on) */
clab_world *wave_random_world(const wave_opts *o, const wave_random *r, int k, clab_error *err);
/* the pressed column (np pressures) as running values of a checkpoint: their count, written
 * into v, read back from v (nv of them; -1: not a column's) */
size_t wave_random_nvalues(const wave_random *r, int np);
void wave_random_pack(const wave_random *r, int np, double *v);
int wave_random_unpack(wave_random *r, int np, const double *v, size_t nv);

#endif
