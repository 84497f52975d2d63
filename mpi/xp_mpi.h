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

/* The world of `bench chute|pile` as the ranks run it (the chute's packing found or made as
 * bench chute does, c->data_dir and c->out; the pile of nx x nx x 20 fcc cells), sorted into cell
 * order once; its backend options into opt and its step into h (backend: the pile's step is the
 * penalty's stable one, 1e-3 s for the others). Not collective (mpi/xp_mpi.c). NULL with err. */
struct bench_ctx;
struct clab_options;
struct clab_error;
struct clab_world *clab_xp_mpi_bench_world(const struct bench_ctx *c, const char *which, int nx, const char *backend,
                                           struct clab_options *opt, double *h, struct clab_error *err);

#endif
