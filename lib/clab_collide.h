/* clab_collide.h: collision detection, producing the contact records of clab_contact.h.
 * Broad phase: a uniform grid over the bounded shapes (spheres, boxes), with planes and
 * shapes much larger than the cell kept out of the grid and tested against everything.
 * Narrow phase: one function per shape pair, dispatched through a table indexed by the
 * two shape types; contacts are reported while Phi < envelope (delta_K of seed 000). */
#ifndef CLAB_COLLIDE_H
#define CLAB_COLLIDE_H

#include "clab_contact.h"
#include "clab_world.h"

/* Candidate pair of the broad phase, i < j. */
typedef struct clab_pair { int i, j; } clab_pair;

typedef struct clab_collider clab_collider;

clab_collider *clab_collider_create(void);
void clab_collider_destroy(clab_collider *cd);

/* All contacts of the world with Phi < envelope, in a deterministic order (by body a,
 * then b, then feature). Pairs of two fixed bodies are skipped. */
int clab_collide(clab_collider *cd, const clab_world *w, double envelope, clab_contacts *out, clab_error *err);

/* Broad phase only: the candidate pairs whose bounds, grown by margin, overlap;
 * *pairs points into the collider's storage, valid until the next call. */
int clab_broadphase(clab_collider *cd, const clab_world *w, double margin, const clab_pair **pairs, size_t *npairs,
                    clab_error *err);

/* Narrow phase of one pair (any order of i, j): appends its contacts with Phi < envelope. */
int clab_collide_pair(const clab_world *w, int i, int j, double envelope, clab_contacts *out);

#endif
