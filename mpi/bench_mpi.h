/* bench_mpi.h: `contactlab bench --mpi` (mpi/bench_mpi.c; built with --with-mpi) */
#ifndef CLAB_BENCH_MPI_H
#define CLAB_BENCH_MPI_H

/* run outside mpirun: the strong-scaling runs of the OpenMP build, the decomposition (mpirun) and
 * LAMMPS on each rank count, the traffic and the projection (doc/mpi.md, "Traffic and time");
 * argv[0] is "bench", --mpi among the options. The exit status. */
int clab_bench_mpi_launch(int argc, char **argv);

#endif
