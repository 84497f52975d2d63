/* run_mpi.h: the checkpoints and the stop of `mpirun -np P contactlab run` (run_mpi_ckpt.c,
 * doc/mpi.md). Collective over the domain's communicator. */
#ifndef CLAB_RUN_MPI_H
#define CLAB_RUN_MPI_H

#include <stddef.h>
#include <stdint.h>

#include "clab_mpi.h"
#include "xp.h"

#define CLAB_RUN_MPI_TAG "contactlab run 1: bodies, steps" /* the one-process run's checkpoint tag */

/* the run's output bookkeeping at a checkpoint */
typedef struct clab_run_mpi_book {
    int64_t bytes[2], rows[2]; /* the bodies and steps CSVs' lengths and data rows (rank 0's files) */
    int64_t nout;              /* output steps written (numbers the VTK frames) */
    int64_t every;             /* the output interval [steps] */
    double h;                  /* the step [s] */
} clab_run_mpi_book;

/* One checkpoint file at path: the decomposition's (any P restarts from it) and b (rank 0's),
 * through "<path>.tmp" renamed into place; rank 0 gathers the states and records by chunks of
 * `chunk` bodies (0: CLAB_MPI_CHUNK; rank 0's value counts). */
int clab_run_mpi_checkpoint_write(clab_mpi_sim *ms, const char *path, const clab_run_mpi_book *b, size_t chunk,
                                  clab_error *err);
/* Restart from such a file right after clab_mpi_sim_create: the state on every rank and b (every
 * rank). A one-process checkpoint of contactlab run (CLABCKPT; *one_process = 1) is read into a
 * one-rank domain on rank 0 (opt: the sim's options) and continued alike. A file without the
 * run's trailer (contactlab bench --checkpoint) is refused, named. */
int clab_run_mpi_checkpoint_read(clab_mpi_sim *ms, const char *path, clab_options *opt, clab_run_mpi_book *b,
                                 int *one_process, clab_error *err);
/* The stop signal any rank caught (xp_stop_signal: SIGINT, SIGTERM), 0 when none: the maximum
 * over the ranks, so all stop at the same step boundary. */
int clab_run_mpi_stop_signal(clab_mpi_domain *d);

#endif
