/* chute_data.h: the chute of LAMMPS's granular benchmark (bench/in.chute): its physics as
 * contactlab options, and a packing of its kind that contactlab makes itself, written as a
 * LAMMPS data file (data.chute) with the matching input (in.chute), so that `contactlab bench
 * chute` runs where LAMMPS's own data file is not at hand (chute_data.c). */
#ifndef CLAB_CHUTE_DATA_H
#define CLAB_CHUTE_DATA_H

#include <stddef.h>

#include "clab_options.h"
#include "clab_world.h"

/* the physics of in.chute (reduced, Lennard-Jones units) */
#define CHUTE_KN 2.0e5         /* k_n [reduced force/length] */
#define CHUTE_GN 50.0          /* gamma_n [1/time]: damping coefficient m_eff gamma_n */
#define CHUTE_MU 0.5           /* Coulomb coefficient */
#define CHUTE_H 1.0e-4         /* time step */
#define CHUTE_G 1.0            /* gravity magnitude */
#define CHUTE_ANGLE_DEG 26.0   /* tilt from -z toward +x (fix gravity ... chute 26.0) */

/* An empty world with the chute's tilted gravity and its material (mu = 0.5), whose index is
 * put in *material; NULL on failure (err set). */
clab_world *chute_world_create(int *material, clab_error *err);

/* in.chute's pair style gran/hooke/history 2e5 NULL 50 NULL 0.5 0 as penalty options (the
 * law only: model, integrator, stiffnesses, damping, and the LAMMPS-compatibility options) */
void chute_law_options(clab_options *o);

/* Make the packing and write dir/data.chute and dir/in.chute (dir is created). quick: a floor
 * of 10 x 5 and 2,000 spheres instead of 40 x 20 and 32,000. Prints what it does. 0, or -1
 * after printing what went wrong. */
int chute_make_data(const char *dir, int quick);

/* The default data of `bench chute`: out/chute-data (quick: out/chute-data-quick), made there
 * by chute_make_data on first use and reused when its data.chute carries this generator's
 * title line. The folder's path goes to dir (n bytes). 0, or -1 after printing why not. */
int chute_default_data(const char *out, int quick, char *dir, size_t n);

#endif
