/* bench_pile_lammps.h: the settled pile of `bench pile` written for LAMMPS and run beside it
 * (bench_pile_lammps.c). */
#ifndef CLAB_BENCH_PILE_LAMMPS_H
#define CLAB_BENCH_PILE_LAMMPS_H

#include "bench.h"
#include "clab_world.h"

/* Write dir/data.pile (the spheres of w: radius R, density rho, at rest or moving as they
 * are) and dir/in.pile (gran/hertz/history matching contactlab's Hertz law for w's material
 * 0, the floor z = 0 a wall/gran plane, w's gravity, time step h, Verlet skin); dir is
 * created. 0, or -1 after printing what went wrong. */
int pile_lammps_write(const char *dir, const clab_world *w, double R, double rho, double h, double skin);

/* Run contactlab (LAMMPS's law) and LAMMPS on dir/data.pile, N steps each (quick 20, else
 * 100; best of --repeat), on the first thread count; print the rate ratio and the kinetic
 * energies, append rows to bench-summary.csv and pile-physics.csv. w0 gives the material and
 * gravity. Without lmp (or with --no-lammps) only says where the files are. 0, or 1. */
int pile_lammps_compare(const bench_ctx *c, const char *dir, const clab_world *w0, double R, double rho, double h);

#endif
