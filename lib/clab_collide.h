/* clab_collide.h: collision detection, producing the contact records of clab_contact.h.
 * Broad phase: a uniform grid over the bounded shapes (spheres, boxes) with cell size
 * c = CLAB_GRID_CELL_SCALE x the median bound width, hashed and filled by a counting sort
 * into storage reused from call to call. Bodies wider than c go to coarser levels of the
 * same grid (cells c 2^l, l < CLAB_GRID_LEVELS), so every body covers at most 8 cells of its
 * level and looks up at most 8 cells on each coarser level in use: linear in the body count
 * for any mix of sizes. Planes, bodies wider than the coarsest cell and the few bodies of a
 * sparse level (floor slabs, walls) are kept out of the grid and tested against every
 * bounded body. clab_collide's kept list (see clab_collider_set_skin) of a scene whose
 * bounded bodies are all spheres of similar size comes instead from one cell list with the
 * distance test in place: the same pairs in the same order.
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

/* Verlet skin [m] of clab_collide: the candidate pairs are built with bounds grown by the
 * skin and kept until some body has moved more than skin/2 since (a box: any point of it,
 * rotation included), or bodies, shapes, fixed flags, the envelope or the periodic settings
 * changed; between rebuilds only the narrow phase runs over the kept pairs. The contacts
 * are the same for every skin, in the same order. 0: rebuild every call; < 0 (the default):
 * CLAB_SKIN_AUTO x the median bound radius of the bounded bodies, chosen at each rebuild. */
void clab_collider_set_skin(clab_collider *cd, double skin);
#define CLAB_SKIN_AUTO 0.1

/* Forget the kept pair list: the next clab_collide rebuilds it (after the bodies were
 * renumbered, clab_sim_sort: the list and the skin's reference state are by body index). */
void clab_collider_invalidate(clab_collider *cd);

/* All contacts of the world with Phi < envelope, in a deterministic order (by body a,
 * then b, then feature). Pairs of two fixed bodies are skipped. */
int clab_collide(clab_collider *cd, const clab_world *w, double envelope, clab_contacts *out, clab_error *err);

/* A pass over the bodies that another layer (a backend's gather of what its step reads)
 * lets clab_collide_with run inside its own, range by range, so the bodies are read from
 * memory once for both: fn(ctx, w, i0, i1) for disjoint ranges covering [0, nbodies), from
 * several threads at once, each range right after the skin test has read it; or not at all
 * when the skin test does not run (the first call, a changed world, skin 0): fn's owner
 * counts what it saw and does the rest itself. */
typedef struct clab_body_pass {
    void (*fn)(void *ctx, const clab_world *w, size_t i0, size_t i1);
    void *ctx;
} clab_body_pass;

/* The bodies [*i0, *i1) of n that thread t of T takes in the skin test (and pass): blocks of
 * CLAB_BODY_BLOCK bodies (about 46 KB: they stay in the level-2 cache while pass reads them
 * again), as many blocks to each thread as can be, in order. A backend whose body loop takes
 * the same bodies on the same threads finds them in its own cache: on a machine where each
 * core has its own caches, a body read by another core than the one that last wrote it costs
 * two to three times as much (the penalty step's split scatter, doc/performance.md). */
#define CLAB_BODY_BLOCK 256
static inline void clab_thread_bodies(size_t n, int t, int T, size_t *i0, size_t *i1)
{
    const size_t nblocks = (n + CLAB_BODY_BLOCK - 1) / CLAB_BODY_BLOCK;
    const size_t b0 = nblocks * (size_t)t / (size_t)T, b1 = nblocks * (size_t)(t + 1) / (size_t)T;
    *i0 = b0 * CLAB_BODY_BLOCK < n ? b0 * CLAB_BODY_BLOCK : n;
    *i1 = b1 * CLAB_BODY_BLOCK < n ? b1 * CLAB_BODY_BLOCK : n;
}

/* clab_collide, with pass (NULL: none) run in its skin test's pass over the bodies. */
int clab_collide_with(clab_collider *cd, const clab_world *w, double envelope, clab_contacts *out,
                      clab_body_pass *pass, clab_error *err);

/* Broad phase only: the candidate pairs whose bounds, grown by margin, overlap (the
 * predicate of clab_broadphase_test), sorted by (i, j), i < j, pairs of two fixed bodies
 * left out; *pairs points into the collider's storage, valid until the next call.
 * Returns CLAB_ENUMERIC when a body's position or orientation is not finite. */
int clab_broadphase(clab_collider *cd, const clab_world *w, double margin, const clab_pair **pairs, size_t *npairs,
                    clab_error *err);

/* World-frame bounding box [lo, hi] of a body, each side moved out by margin/2, so the
 * bounds of two bodies overlap when the gap between their boxes is below margin
 * (sphere: r +- R; box: r +- |A(e)| h, exact for the rotated box; plane: all space). */
void clab_collide_bounds(const clab_body *b, double margin, clab_vec3 *lo, clab_vec3 *hi);

/* The broad-phase predicate for one pair i != j, as clab_broadphase applies it: 0 for two
 * fixed bodies or two planes; a plane and a body: the body's bounds reach the half-space
 * grown by margin/2; otherwise the two bounds overlap (closed intervals). For brute-force
 * references and tests. */
int clab_broadphase_test(const clab_world *w, int i, int j, double margin);

/* What the last broad phase did (for benchmarks and tuning). */
typedef struct clab_broadphase_stats {
    double cell;          /* level-0 cell size c [m]: CLAB_GRID_CELL_SCALE x the median bound width */
    int levels;           /* grid levels holding bodies */
    int dense;            /* 1: cells mapped row-major to buckets; 0: hashed */
    size_t grid_bodies;   /* bodies in the grid, all levels */
    size_t coarse_bodies; /* of which on levels >= 1 (wider than c) */
    size_t large_bodies;  /* bounded bodies kept out: wider than the coarsest cell or on a sparse level */
    size_t planes;        /* half-spaces, tested against every bounded body */
    size_t entries;       /* (body, cell) entries of the grid, at most 8 a body */
    size_t buckets;       /* buckets (dense cells or hash-table size) */
    size_t pairs;         /* candidate pairs found */
    int sphere_list;      /* 1: the last build of clab_collide's list took the sphere cell list (all
                             bounded bodies spheres of similar size; then levels = 1, entries = the
                             spheres, buckets = the cells, pairs = the kept list) */
    /* clab_collide with a Verlet skin (counts since the collider was created) */
    size_t calls;         /* clab_collide calls */
    size_t rebuilds;      /* of which rebuilt the pair list (the rest reused it) */
    double skin;          /* skin of the last build [m] */
    /* wall time in clab_collide since the collider was created [s] (clab_clock): the skin test
     * (with the clab_body_pass run in it), the builds of the pair list, the narrow phase */
    double t_skin, t_build, t_narrow;
} clab_broadphase_stats;
#define CLAB_GRID_CELL_SCALE 2.0 /* level-0 cell / median bound width */
#define CLAB_GRID_LEVELS 8       /* cells c 2^l, l = 0..7 */
#define CLAB_GRID_MIN_LEVEL 32   /* coarse levels with fewer bodies are not built */
void clab_broadphase_stats_get(const clab_collider *cd, clab_broadphase_stats *st);

/* Narrow phase of one pair (any order of i, j): appends its contacts with Phi < envelope. */
int clab_collide_pair(const clab_world *w, int i, int j, double envelope, clab_contacts *out);

#endif
