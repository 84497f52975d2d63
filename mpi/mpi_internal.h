/* mpi_internal.h: what the files of mpi/ share beyond clab_mpi.h */
#ifndef CLAB_MPI_INTERNAL_H
#define CLAB_MPI_INTERNAL_H

#include "clab_mpi.h"

/* the doubles of a body's state on the wire: r (3), e (4), rdot (3), wbar (3) */
#define CLAB_MPI_STATE 13

static inline void clab_mpi_pack(const clab_body *b, double *s)
{
    const double v[CLAB_MPI_STATE] = {b->r.x,    b->r.y,    b->r.z,    b->e.e0,   b->e.e1,   b->e.e2, b->e.e3,
                                      b->rdot.x, b->rdot.y, b->rdot.z, b->wbar.x, b->wbar.y, b->wbar.z};
    for (int k = 0; k < CLAB_MPI_STATE; k++) s[k] = v[k];
}

static inline void clab_mpi_unpack(clab_body *b, const double *s)
{
    b->r = clab_v3(s[0], s[1], s[2]);
    b->e.e0 = s[3];
    b->e.e1 = s[4];
    b->e.e2 = s[5];
    b->e.e3 = s[6];
    b->rdot = clab_v3(s[7], s[8], s[9]);
    b->wbar = clab_v3(s[10], s[11], s[12]);
}

/* the first j in [0, n) with a[j] >= g (n when none): a's entries increasing (global or local
 * indices) */
static inline size_t clab_mpi_lower(const size_t *a, size_t n, uint64_t g)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        const size_t m = lo + (hi - lo) / 2;
        if (a[m] < g) lo = m + 1;
        else hi = m;
    }
    return lo;
}

/* the rank whose brick holds r (not collective) */
int clab_mpi_owner_of(const clab_mpi_domain *d, clab_vec3 r);
/* 1 when body b's bounding sphere comes within d->reach of rank q's brick (periodic images
 * included) */
int clab_mpi_in_reach(const clab_mpi_domain *d, int q, const clab_body *b);
/* the ranks q (increasing) with clab_mpi_in_reach(d, q, b), into q[] (room for d->size): found
 * among the bricks within reach along each axis, not by testing all; returns their number. The
 * owner's brick is among them. Not collective. */
int clab_mpi_dest(const clab_mpi_domain *d, const clab_body *b, int *q);

/* a moving body of the new local world: global index, body, name */
typedef struct clab_mpi_body {
    uint64_t gid;
    const clab_body *b;
    const char *name;
} clab_mpi_body;
/* the local world anew: the n moving bodies mv (increasing gid) merged with the replicated fixed
 * ones in global order, the maps, r0, the owners (clab_mpi_owner_of at these states) and the
 * forward exchange's lists (not collective: the send list of p to q and q's receive list from p
 * are computed from the same states by the same test) */
int clab_mpi_set_local(clab_mpi_domain *d, const clab_mpi_body *mv, size_t n, clab_error *err);
/* the first local worlds (mpi/scatter.c), after the cuts: rank 0's whole world w (NULL on the
 * other ranks, not read there) sent by MPI_Bcast, its shell (gravity, t, step, periodic axes,
 * materials, meshes, the replicated fixed bodies with names and global indices) then its moving
 * bodies in chunks, each rank keeping those it owns or holds within reach (clab_mpi_set_local);
 * with d->balance, a first pass of the chunks gives each rank its share of the centers for
 * clab_mpi_balance and a second one the local world. A rank other than 0 needs O(chunk) besides
 * its local world (collective) */
int clab_mpi_scatter(clab_mpi_domain *d, const clab_world *w, clab_error *err);
/* rank 0's options (keys, values, where, in their order, the getters' marks) to every rank of
 * comm: o is replaced there (collective; CLAB_ENOMEM on a rank is that rank's, not agreed) */
int clab_mpi_bcast_options(clab_options *o, MPI_Comm comm);
/* the local index of global body g, SIZE_MAX when absent (binary search on d->gid) */
size_t clab_mpi_local_index(const clab_mpi_domain *d, uint64_t g);
/* --balance: the inner cuts at the quantiles of the moving bodies' centers, x[0 .. n) this rank's
 * share of them (every moving body on exactly one rank), by a search on counts in bins (collective) */
int clab_mpi_balance(clab_mpi_domain *d, const clab_vec3 *x, size_t n, clab_error *err);
/* the rebuild (mpi/migrate.c): each owned body and the keyed records of its contacts to the
 * ranks of its new local worlds, the local world, its lists and the backend's state anew
 * (collective) */
int clab_mpi_migrate(clab_mpi_sim *ms, clab_error *err);

/* the backend's keyed records of every rank (global keys), sorted, one of each key (a contact
 * between bodies of two ranks comes from both, the same bits: both computed it), on rank root
 * (collective) */
int clab_mpi_gather_keyed(clab_mpi_sim *ms, int root, char **all, size_t *nall, clab_error *err);
/* of such records (global keys, increasing), those whose two bodies are in the local world,
 * their keys renumbered to local indices (the map is increasing: the order stays), to the
 * backend (not collective; all is overwritten) */
int clab_mpi_import_keyed(clab_mpi_sim *ms, char *all, size_t nall, clab_error *err);
/* the records' keys in global indices, sorted, one of each key (not collective) */
size_t clab_mpi_sort_keyed(char *rec, size_t n, size_t size);

/* ---- the outputs chunk by chunk (mpi/gather.c): rank 0 holds O(chunk + P) bodies, never N ---- */

/* bodies a chunk of the outputs and checkpoints */
#define CLAB_MPI_CHUNK 4096

/* The bodies of global indices [g0, g1) into out[0 .. g1 - g0) on root (out: NULL elsewhere):
 * the moving ones from their owners (MPI_Gatherv), the fixed ones from root's replica.
 * Collective; the status is this rank's (the caller agrees). */
int clab_mpi_gather_range(clab_mpi_domain *d, int root, uint64_t g0, uint64_t g1, clab_body *out, clab_error *err);

/* A session of such gathers driven by root: root asks for ranges (clab_mpi_chunks_get, each
 * broadcast to the others) and ends the session (clab_mpi_chunks_end); every other rank answers
 * in clab_mpi_chunks_serve until the end. Between the init and the end root calls no other
 * collective; after it, the ranks agree on the statuses (clab_mpi_agree). */
typedef struct clab_mpi_chunks {
    clab_mpi_domain *d;
    int root;
    size_t chunk; /* the most bodies a range */
    clab_body *buf; /* [chunk] on root: the range asked for last */
    int rc;         /* root: the first failed gather's status */
} clab_mpi_chunks;
/* chunk 0: CLAB_MPI_CHUNK; the buffer on root (CLAB_ENOMEM; not collective) */
int clab_mpi_chunks_init(clab_mpi_chunks *c, clab_mpi_domain *d, int root, size_t chunk, clab_error *err);
void clab_mpi_chunks_free(clab_mpi_chunks *c);
/* root: *b = the bodies [g0, g1) (g1 - g0 <= chunk) in global order, valid until the next call */
int clab_mpi_chunks_get(clab_mpi_chunks *c, uint64_t g0, uint64_t g1, const clab_body **b, clab_error *err);
/* root: the end of the session; returns the first failed gather's status */
int clab_mpi_chunks_end(clab_mpi_chunks *c);
/* every rank but root: answers root's ranges until the end; this rank's status */
int clab_mpi_chunks_serve(clab_mpi_chunks *c, clab_error *err);

/* clab_mpi_checkpoint_write with chunks of `chunk` bodies (0: CLAB_MPI_CHUNK): the same file */
int clab_mpi_checkpoint_write_chunked(clab_mpi_sim *ms, const char *path, size_t chunk, clab_error *err);

/* the backend's keyed records of this rank (global keys), sorted, one of each key (not
 * collective; *rec malloc'd) */
int clab_mpi_keyed_export(clab_mpi_sim *ms, char **rec, size_t *n, clab_error *err);
/* of every rank's such records (rec, n), those whose body a (key >> 38) is in [g0, g1), on root:
 * sorted, one of each key (*all malloc'd there). Collective; this rank's status */
int clab_mpi_keyed_range(clab_mpi_sim *ms, int root, const char *rec, size_t n, uint64_t g0, uint64_t g1, char **all,
                         size_t *nall, clab_error *err);

/* root's writer of records in key order: n records, sorted, of a round; a status */
typedef int (*clab_mpi_put_fn)(void *ctx, const char *rec, size_t n, clab_error *err);
/* Every rank's records rec[0 .. n) of `size` bytes, each beginning with a uint64_t key, sorted
 * by key, the keys distinct over all ranks, to root in key order, about `chunk` at a time:
 * each round the ranks agree (an MPI_Allreduce MIN) on T, the key of the m-th next record
 * (m = ceil(chunk / P)) of the rank where it is lowest, and each sends its next records with
 * key <= T (at most m: chunk + P on root); root merges them (qsort by key) and calls put. The
 * key ranges go by the records' counts, not by fixed ranges of keys: a wall (body a of a
 * contact whose other body is a moving one) can hold O(N^(2/3)) keys of one body a.
 * Collective; this rank's status (root: put's too). */
int clab_mpi_stream_sorted(clab_mpi_domain *d, int root, const char *rec, size_t n, size_t size, size_t chunk,
                           clab_mpi_put_fn put, void *ctx, clab_error *err);

/* the rank's part for a backend whose step couples the ranks (set_ranks): the local bodies'
 * owners renewed, after each assignment (not collective) */
int clab_mpi_sim_parts(clab_mpi_sim *ms, clab_error *err);

/* ---- driven bodies and loads (mpi/drive.c) ---- */

/* rank 0's world's driven bodies (motions and tables, by global index) and loads to every rank
 * (global: rank 0's, unread on the others; collective) */
int clab_mpi_drives_init(clab_mpi_domain *d, const clab_world *global, clab_error *err);
/* the local world's driven array and loads anew at its local indices (after every
 * clab_mpi_set_local; not collective) */
int clab_mpi_drives_apply(clab_mpi_domain *d, clab_error *err);
/* after clab_sim_step (rc its status): each servo's velocity from the force on it summed over
 * the ranks in the one-process contact order; the driven bodies' replicas in d->fixed brought
 * up to date (collective, on failure too) */
int clab_mpi_drives_step(clab_mpi_sim *ms, int rc, clab_error *err);
void clab_mpi_drives_free(clab_mpi_domain *d);

/* the DVI split solver's communication over the domain (mpi/ccp_comm.c): *comm, a
 * clab_split_comm, filled; CLAB_ENOMEM */
struct clab_split_comm;
int clab_mpi_ccp_comm_create(clab_mpi_ccp_comm **out, clab_mpi_domain *d, struct clab_split_comm *comm);
void clab_mpi_ccp_comm_destroy(clab_mpi_ccp_comm *c);

#endif
