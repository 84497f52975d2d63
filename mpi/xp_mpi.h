/* xp_mpi.h: the contactlab command under mpirun (mpi/xp_mpi.c; built with --with-mpi) */
#ifndef CLAB_XP_MPI_H
#define CLAB_XP_MPI_H

/* 1 when the process was started by an MPI launcher (mpirun, mpiexec) on more than one rank, or
 * on any number of ranks for `bench`: main then hands the command to clab_xp_mpi_main */
int clab_xp_mpi_wanted(int argc, char **argv);
/* MPI_Init, the command across the ranks (or its refusal, naming it), MPI_Finalize; the exit status */
int clab_xp_mpi_main(int argc, char **argv);
/* `contactlab run SCENE.cfg` across the ranks (mpi/run_mpi.c); argv[0] is "run" */
int clab_xp_mpi_run(int argc, char **argv);

#endif
