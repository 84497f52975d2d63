/* clab_backend_keyed.h: private: a backend's state kept between steps (a history, a warm
 * start) as keyed records that can move between processes, for the MPI domain decomposition
 * (mpi/, doc/mpi.md), which moves them with the bodies of their contacts. Beside the type
 * object, as the fast hooks are (clab_backend_fast.h), so the public type stays as it is. */
#ifndef CLAB_BACKEND_KEYED_H
#define CLAB_BACKEND_KEYED_H

#include "clab_backend.h"

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
} clab_backend_keyed;

/* the penalty backend's (penalty/penalty_backend.c: the tangential history) */
extern const clab_backend_keyed clab_backend_penalty_keyed;

/* The keyed hooks of a backend, NULL when it has none (its state cannot move between ranks). */
const clab_backend_keyed *clab_backend_keyed_of(const clab_backend_type *type);

#endif
