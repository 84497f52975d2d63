/* clab_mpi.h: one simulation across MPI ranks by spatial domain decomposition, in the manner
 * of LAMMPS (doc/mpi.md). Built only with ./configure --with-mpi.
 *
 * The box is cut along the axes into a grid of bricks, one a rank (clab_mpi_grid). A rank
 * owns the moving bodies whose centers lie in its brick; fixed bodies (planes, walls, mesh
 * triangles, frozen particles) are replicated on every rank. Each rank steps a LOCAL world:
 * its owned bodies, the replicated ones and ghost copies of the moving bodies of other ranks
 * whose bounding spheres come within `reach` of its brick (periodic images included), all in
 * the order of their GLOBAL index and with their true (wrapped) coordinates. The collider then
 * finds, for the local world, the global contact list restricted to its bodies, in the same
 * (a, b) order, so each owned body's force is the same sum in the same order as on one rank
 * (a contact between an owned body and a ghost is computed on both ranks: "newton off"), and
 * its state after the step is the same to the bit. After each step the owners send their
 * bodies' states (r, e, rdot, wbar) to the ranks that hold them as ghosts (clab_mpi_forward).
 * Ownership, ghosts and the local world are rebuilt when some body has moved more than
 * skin/2 since the last rebuild, decided over all ranks (MPI_Allreduce): each owner sends its
 * bodies, and the backend's keyed state of their contacts (the penalty history, the DVI warm
 * start: lib/clab_backend_keyed.h, keys in global indices), to the ranks of their new local
 * worlds, point to point (mpi/migrate.c); no rank holds or sends every body: rank 0 writes the
 * outputs and checkpoints from chunks of the global order (mpi/gather.c). The DVI step couples the ranks in its
 * solve: the backend steps the rank's part (set_ranks) with the split solver's communication over
 * MPI (mpi/ccp_comm.c), giving one process's bits for projected Jacobi and APGD with
 * fast=off sums=exact (doc/mpi.md).
 *
 * No global state: the communicator, the grid and the local world live in clab_mpi_domain,
 * which the caller owns. Every function here is collective over the domain's communicator
 * unless it says otherwise; an error on one rank is reported on every rank (CLAB_EINVAL
 * naming the rank) so that none waits for the others. */
#ifndef CLAB_MPI_H
#define CLAB_MPI_H

#include <mpi.h>
#include <stdint.h>

#include "clab_sim.h"

/* the exchange layer's counts: messages and bytes this rank sent */
typedef struct clab_mpi_traffic {
    long fwd_messages;    /* per-step forward exchange of ghost states */
    double fwd_bytes;
    long re_messages;     /* rebuilds: the counts (MPI_Alltoall) and the migrating bodies, ghosts and
                           * keyed records (point to point) */
    double re_bytes;
    long steps, rebuilds; /* steps taken and rebuilds done after the first build (a restart's included) */
    long ccp_exchanges;   /* the DVI split solver's (mpi/ccp_comm.c): exchanges of ghost velocities, */
    long ccp_messages;    /* their messages and bytes sent, */
    double ccp_bytes;
    long ccp_reductions;  /* its all-reduces (exact sums, maxima) and the bytes this rank gave them */
    double ccp_reduce_bytes;
    double t_exchange;    /* wall time in the exchanges and collectives [s] */
} clab_mpi_traffic;

typedef struct clab_mpi_domain {
    MPI_Comm comm;
    int rank, size;
    int grid[3];            /* ranks along x, y, z (product = size) */
    int cell[3];            /* this rank's brick in the grid */
    double cut[3][65];      /* cut[k][0 .. grid[k]]: the bricks' faces along k (open axes: -inf, +inf
                             * at the ends); a rank's brick is [cut[k][cell[k]], cut[k][cell[k]+1]) */
    int balance;            /* 1: at every rebuild the inner cuts move to the quantiles of the
                             * moving bodies' centers along each axis (equal counts a slab); 0:
                             * even cuts */
    double envelope;        /* the largest envelope a sim of the domain may use [m] */
    double reach;           /* a ghost's bounding sphere comes within reach of the brick [m] */
    double skin;            /* rebuild when a body has moved more than skin/2 [m] */
    size_t nglobal;         /* bodies of the whole world */
    clab_world *global;     /* the whole world in the global order (names, materials, every body),
                             * its moving bodies' states as of the last clab_mpi_gather: on rank 0
                             * only (NULL on the others), and not even there after
                             * clab_mpi_domain_release (clab_mpi_gather makes it anew) */
    clab_world *local;      /* the local world (owned, replicated and ghost bodies, global order) */
    size_t *gid;            /* [local->nbodies] global index of local body k, increasing */
    unsigned char *mine;    /* [local->nbodies] 1: owned here (replicated and ghost bodies: 0) */
    int *lowner;            /* [local->nbodies] owner rank of a local moving body, -1 for a fixed one */
    clab_vec3 *r0;          /* [local->nbodies] positions at the last rebuild */
    size_t cap;             /* allocated length of gid, mine, lowner, r0 */
    /* the replicated fixed bodies (every rank): their global indices, bodies and names */
    size_t nfixed;
    size_t *fixed_gid;
    clab_body *fixed;
    char *fixed_names;      /* nfixed '\0'-terminated names, one after the other */
    /* the driven bodies and the loads (mpi/drive.c), alike on every rank */
    size_t ndrive;
    uint64_t *drive_gid;    /* [ndrive] the driven bodies' global indices, increasing */
    clab_motion *drive_m;   /* [ndrive] their motions (the tables owned here) */
    size_t nload;
    uint64_t *load_gid;     /* [nload] the loaded bodies' global indices, increasing */
    clab_load *load;        /* [nload] their loads */
    /* the forward exchange: for rank q, send[sdispl[q] .. sdispl[q+1]) are the local indices of
     * the owned bodies rank q holds as ghosts; recv[rdispl[q] .. rdispl[q+1]) the local indices of
     * the ghosts rank q owns, both in global order */
    size_t *send, *recv;
    int *sdispl, *rdispl;   /* [size + 1] */
    double *sbuf, *rbuf;
    clab_mpi_traffic traffic;
} clab_mpi_domain;

typedef struct clab_mpi_ccp_comm clab_mpi_ccp_comm;

/* a simulation across the ranks: the local world's clab_sim and its domain */
typedef struct clab_mpi_sim {
    clab_mpi_domain *d;
    clab_sim *sim;          /* the sim of d->local */
    int rebuild;            /* the next step rebuilds first */
    /* a backend whose step couples the ranks (dvi: clab_backend_keyed's set_ranks) */
    struct clab_backend_ranks *ranks; /* the rank's part: owners of the local bodies, the communication */
    clab_mpi_ccp_comm *ccp; /* the DVI split solver's communication (mpi/ccp_comm.c) */
    void *split_comm;       /* its clab_split_comm (dvi/split.h) */
} clab_mpi_sim;

/* The options a backend runs across ranks with (clab_backend_keyed.h's rank_options: the dvi
 * backend's fast=off sums=exact) set in opt where not given; CLAB_EINVAL naming a different value
 * given. Not collective. */
int clab_mpi_rank_options(const char *backend, clab_options *opt, clab_error *err);

/* The processor grid for `size` ranks over a box of extents L[3] [m]: the factorization
 * px py pz = size with the least brick surface (L_x/p_x)(L_y/p_y) + ... (LAMMPS's choice),
 * ties to the smaller p_x, then p_y. Not collective. */
void clab_mpi_grid(int size, const double L[3], int grid[3]);

/* The domain of a world over the ranks of comm: `global` is the whole world on rank 0 (taken:
 * the domain keeps it there for the output as d->global) and NULL on the other ranks (a world
 * given there is freed unread), so that no rank but 0 ever holds the whole world. Rank 0 makes
 * the refusals (CLAB_EINVAL naming the feature: joints, a moving body without a bound (a free
 * plane), skin <= 0) and the box, which every rank gets with rank 0's
 * status (its refusal is an error on every rank, as clab_mpi_agree gives it); then rank 0 sends
 * the world's shell and its moving bodies in chunks (mpi/scatter.c) and each rank keeps its
 * local world's: memory O(chunk) beyond that world on a rank other than 0. Driven bodies and loads
 * go to every rank alike (mpi/drive.c). The box is cut into
 * bricks: grid NULL or {0, 0, 0}: clab_mpi_grid's (more than 64 ranks along an axis refused);
 * balance: d->balance (the cuts at the bodies' quantiles, from the first build on). skin [m] >
 * 0: the displacement between rebuilds; envelope [m]: the backend's. The command's process gets
 * glibc's mmap threshold fixed (mpi/domain.c). */
int clab_mpi_domain_create(clab_mpi_domain **out, MPI_Comm comm, clab_world *global, const int *grid, int balance,
                           double skin, double envelope, clab_error *err);
void clab_mpi_domain_destroy(clab_mpi_domain *d);
/* Frees the whole world on rank 0 too (not collective): no rank holds O(N) between outputs;
 * clab_mpi_gather makes it anew on its root (without the bodies' names). */
void clab_mpi_domain_release(clab_mpi_domain *d);

/* The sim of the domain's local world under a backend with keyed hooks
 * (clab_backend_keyed_of; else refused, naming it), options as clab_sim_create's but for `sort` (refused: the bodies
 * keep their global order), the physics guard's energy bound (off: a local world's energy
 * changes as bodies come and go; the state and penetration checks stay) and the backend's rank
 * options (clab_mpi_rank_options). A backend whose step couples the ranks (set_ranks: dvi) is
 * attached to the rank's part, and refuses what of its options does not run across ranks. */
int clab_mpi_sim_create(clab_mpi_sim **out, clab_mpi_domain *d, const char *backend, double h, clab_options *opt,
                        clab_error *err);
void clab_mpi_sim_destroy(clab_mpi_sim *ms);

/* One step on every rank: the rebuild when due, clab_sim_step on the local world, the forward
 * exchange of the owned states, the rebuild test. */
int clab_mpi_sim_step(clab_mpi_sim *ms, clab_error *err);

/* The states of every moving body into d->global on rank root (the others unchanged); when root
 * holds no whole world, one is made there (the bodies gathered from their owners, without
 * names): O(N) on the root, deliberately: bench's --check and --state compare and write the
 * whole end state. The outputs of run and the checkpoints go by chunks instead (mpi/gather.c). */
int clab_mpi_gather(clab_mpi_domain *d, int root, clab_error *err);

/* ---- checkpoints (mpi/checkpoint.c) ---- */

/* One file (written by rank 0) that a run on any number of ranks restarts from: every body's
 * state in the global order, the time and step, the backend's keyed records (global keys) and
 * the rest of its state. Between steps. */
int clab_mpi_checkpoint_write(clab_mpi_sim *ms, const char *path, clab_error *err);
/* Restart from such a file: right after clab_mpi_sim_create, on a domain of the same world (the
 * same bodies and materials; any P, any grid); the next steps compute what the run that wrote
 * it would have, to the bit. CLAB_EIO / CLAB_EINVAL naming the file and what does not fit. */
int clab_mpi_checkpoint_read(clab_mpi_sim *ms, const char *path, clab_error *err);

/* ---- the exchange layer (mpi/exchange.c) ---- */

/* rebuild traffic: sbuf[sdispl[q] .. sdispl[q+1]) bytes to rank q (own part copied), counts agreed
 * by one MPI_Alltoall, then point to point; *rbuf (malloc'd) the received bytes in rank order,
 * rdispl[0 .. size] their offsets (caller's array of size + 1) */
int clab_mpi_exchange(clab_mpi_domain *d, const char *sbuf, const size_t *sdispl, char **rbuf, size_t *rdispl,
                      clab_error *err);
/* n records of size bytes of every rank to rank root: *all (malloc'd on root), *nall, in rank order */
int clab_mpi_gather_root(clab_mpi_domain *d, int root, const void *rec, size_t n, size_t size, void **all,
                         size_t *nall, clab_error *err);
/* the owned bodies' states to the ranks holding them as ghosts (d->send / d->recv) */
int clab_mpi_forward(clab_mpi_domain *d, clab_error *err);
/* an error flag and a rebuild flag over every rank (maximum of each); rc the local status */
int clab_mpi_agree(clab_mpi_domain *d, int rc, int *rebuild, clab_error *err);

/* ---- state fingerprints (not collective) ---- */

/* FNV-1a 64 of the bytes of r, e, rdot, wbar of every body of w, in index order */
uint64_t clab_mpi_state_hash(const clab_world *w);

/* ---- memory (mpi/migrate.c) ---- */

/* the resident set of this process [bytes] (VmRSS; 0 where unknown). Not collective. */
double clab_mpi_rss(void);
/* the peak resident set of this process so far [bytes] (VmHWM; 0 where unknown). Not collective. */
double clab_mpi_peak_rss(void);
/* rank 0 prints each rank's resident set above rss0 (clab_mpi_rss before the world was built)
 * per local body (owned, replicated and ghosts) and per owned body, and its peak resident set
 * above rss0 (the start-up's included: on rank 0, the whole world it built) */
void clab_mpi_print_memory(clab_mpi_domain *d, double rss0);

#endif
