/* run_mpi_contacts.h: `mpirun -np P contactlab run SCENE --contacts N` (run_mpi_contacts.c,
 * doc/mpi.md): rank 0 writes the one-process run's contacts CSV from rows gathered in key order. */
#ifndef CLAB_RUN_MPI_CONTACTS_H
#define CLAB_RUN_MPI_CONTACTS_H

#include "clab_mpi.h"
#include "run_contacts.h"
#include "xp.h"

/* rank 0: <out>/<prefix>-contacts.csv opened (flags: clab_csv_open's) with meta (the run's,
 * mpi_ranks and mpi_grid among it), the command line keep[0 .. nkeep) and the option's lines,
 * as the one-process run opens it (xp_run_extra_open); x->contacts_every set. -1 with err set. */
int clab_run_mpi_contacts_open(xp_run_extra *x, const char *out, const char *prefix, const clab_options *meta,
                               int nkeep, char **keep, int flags, size_t chunk, clab_error *err);
/* An output row's contacts (every rank; x is rank 0's, unread elsewhere): each contact of the
 * last step counted once, by the owner of its body a (of b when a is fixed), its row computed
 * there (xp_run_contact_row) with the bodies' global indices, the rows streamed to rank 0 in
 * key order by chunks of `chunk` rows (clab_mpi_stream_sorted) and written there. Collective;
 * this rank's status. */
int clab_run_mpi_contacts_rows(clab_mpi_sim *ms, xp_run_extra *x, size_t chunk, clab_error *err);

#endif
