/* clab_backend_keyed.h: private: a backend's state kept between steps (a history, a warm
 * start) as keyed records that can move between processes, for the MPI domain decomposition
 * (mpi/, doc/mpi.md), which moves them with the bodies of their contacts. Beside the type
 * object, as the fast hooks are (clab_backend_fast.h), so the public type stays as it is. */
#ifndef CLAB_BACKEND_KEYED_H
#define CLAB_BACKEND_KEYED_H

#include "clab_backend.h"

/* A rank's part of the local world, for a backend whose step couples bodies of several ranks
 * (the DVI's global solve): the owner rank of each local body and the communication its step
 * calls (every rank at the same points). Owned by the caller, kept alive and current (owner
 * renewed at each rebuild) while attached. */
typedef struct clab_backend_ranks {
    int rank, size;
    const int *owner;  /* [nbodies] owner rank of each body of the local world, -1 for a fixed one */
    size_t nbodies;
    const void *comm;  /* the backend's communication (the dvi backend: a clab_split_comm, dvi/split.h) */
} clab_backend_ranks;

typedef struct clab_backend_keyed {
    const clab_backend_type *type; /* the backend these hooks belong to */
    size_t size;                   /* bytes of a record; each starts with its contact key (uint64_t) */
    /* The records of the contacts touching a body i with mark[i] != 0 (nbodies entries), their
     * keys' bodies renumbered through map[i] (map strictly increasing, so no pair changes
     * order), in the state's order into *rec (malloc'd, *n records, NULL when none; the caller
     * frees). CLAB_ENOMEM on failure. */
    int (*export_state)(const void *self, const size_t *map, const unsigned char *mark, size_t nbodies, void **rec,
                        size_t *n, clab_error *err);
    /* The state becomes these n records (keys in the world's numbering, strictly increasing).
     * CLAB_ENOMEM on failure, the state unchanged. */
    int (*import_state)(void *self, const void *rec, size_t n, clab_error *err);
    /* The rest of the state kept between steps (counters, a first-step flag: what the type's
     * save writes beside the keyed records), head_size bytes, for checkpoints of a run across
     * ranks: get_head into buf, set_head from it. */
    size_t head_size;
    void (*get_head)(const void *self, void *buf);
    void (*set_head)(void *self, const void *buf);
    /* Options the backend runs across ranks with (key, value pairs, NULL-terminated; NULL:
     * none): set when not given, a different value given refused. */
    const char *const *rank_options;
    /* Across ranks: the step works on the rank's part (ranks NULL: detached, the whole world);
     * NULL when the step is local to each body's contacts (penalty). CLAB_EINVAL naming what
     * of the backend's options does not run across ranks. */
    int (*set_ranks)(void *self, const clab_backend_ranks *ranks, clab_error *err);
} clab_backend_keyed;

/* the penalty backend's (penalty/penalty_backend.c: the tangential history) */
extern const clab_backend_keyed clab_backend_penalty_keyed;
/* the dvi backend's (dvi/dvi_backend.c: the warm start; its step across ranks dvi/split_step.c) */
extern const clab_backend_keyed clab_backend_dvi_keyed;

/* The keyed hooks of a backend, NULL when it has none (its state cannot move between ranks). */
const clab_backend_keyed *clab_backend_keyed_of(const clab_backend_type *type);

#endif
