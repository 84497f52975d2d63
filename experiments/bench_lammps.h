/* bench_lammps.h: what the benchmarks that run LAMMPS beside contactlab share: the kinetic
 * energies LAMMPS's thermo reports, running lmp and reading its screen log, and writing a
 * world's spheres as a LAMMPS data file both codes read. */
#ifndef CLAB_BENCH_LAMMPS_H
#define CLAB_BENCH_LAMMPS_H

#include "clab_sim.h"
#include "clab_world.h"

/* the kinetic energies of the moving bodies, as LAMMPS's thermo output has them */
typedef struct bench_ke {
    double trans; /* sum 1/2 m |v|^2 (LAMMPS thermo ke, norm no) */
    double rot;   /* sum 1/2 I |w|^2 with I = 2/5 m r^2 (compute erotate/sphere) */
} bench_ke;

/* one LAMMPS run's figures */
typedef struct bench_lammps_out {
    double loop;      /* "Loop time of T" [s] */
    int procs;        /* "on P procs" */
    bench_ke ke0, ke; /* thermo at step 0 and at the last step */
    int have_ke;
    long neighbors, builds; /* "Total # of neighbors = N", "Neighbor list builds = N" (-1: absent) */
    double cpu_use;         /* "P% CPU use with ..." / 100: the share of the loop the process was on a core */
    double part[6];         /* its timing breakdown, average over the processes [s]: Pair, Neigh, Comm,
                               Output, Modify, Other (-1: absent) */
} bench_lammps_out;

/* the parts of LAMMPS's "MPI task timing breakdown", in bench_lammps_out.part's order */
extern const char *const bench_lammps_parts[6];
/* what the installed lmp can do: found, OPENMP package (-sf omp), MPI (mpirun -np) */
typedef struct bench_lammps_caps {
    int found, omp, mpi;
    char version[128];
} bench_lammps_caps;

/* sum 1/2 m |v|^2 and sum 1/2 wbar . J wbar over the moving bodies, velocities as stored */
bench_ke bench_world_ke(const clab_world *w);
/* Kinetic energy at the full step N of a velocity-Verlet run (integrator=verlet): contactlab
 * keeps the half-step velocities v(N - 1/2) between steps, LAMMPS reports v(N). One more step
 * gives v(N + 1/2) = v(N - 1/2) + h a(N), so the mean of the two is v(N) exactly; the same for
 * wbar (body frame). Takes that step. */
int bench_ke_full_step(clab_sim *s, bench_ke *out, clab_error *err);

/* run argv in dir with stdout and stderr into log; the exit status, or -1 */
int bench_run_in(const char *dir, char *const argv[], const char *log);
/* what `lmp -h` says (run in tmp): found, version, OPENMP, MPI */
void bench_lammps_probe(const char *tmp, bench_lammps_caps *lc);
/* the input in with run and thermo set to steps, every digit of the thermo output (and, when
 * !periodic, boundary s s fs: shrink-wrapped x and y, no periodic images) written to out */
int bench_lammps_input(const char *in, const char *out, long steps, int periodic);
/* the figures of a LAMMPS screen log (thermo columns KinEng and c_1) */
int bench_lammps_parse(const char *log, long steps, bench_lammps_out *o);
/* one LAMMPS run of steps on nproc processes in tmp (input tmp/in.NAME-STEPS from in, log
 * tmp/lammps-STEPS-NPROC.log); messages name the benchmark */
int bench_lammps_run(const char *name, const char *tmp, const char *in, const bench_lammps_caps *lc, long steps,
                     int nproc, int periodic, bench_lammps_out *o);

/* Write the world's spheres as a LAMMPS data file of atom_style sphere (read_data; the format
 * clab_lammps_read_data reads): title, box lo..hi, atoms in body order with ids 1, 2, ..., type
 * 2 for a fixed sphere and 1 for a moving one (ntypes atom types in the header), diameter,
 * density (density > 0: that number for every atom, else m / (pi d^3 / 6)), the position
 * wrapped into [lo, hi) along the world's periodic axes, image flags 0; then Velocities: v and
 * the world-frame angular velocity A(e) wbar, as stored. Every number with 17 digits, so both
 * codes read the same doubles. Bodies other than spheres are left out. 0, or -1 with errno. */
int bench_write_lammps_data(const char *path, const char *title, const clab_world *w, int ntypes, double density,
                            const double lo[3], const double hi[3]);

/* (a - b) / |b|, or a - b when b = 0 */
double bench_rel(double a, double b);

#endif
