/* broadphase.h: the broad phase's private header, the lowest layer of the collision above
 * collide_common.h. It makes the candidate pairs of clab_collide as rows (clab_pair_list)
 * and knows nothing of the narrow phase or the driver above it:
 *   grid.c                the general uniform grid over any bounded shapes (clab_broadphase's
 *                         pairs, sorted by (i, j));
 *   broadphase_spheres.c  the cell list of a scene of spheres (with planes and mesh
 *                         walls' triangles after them): the kept rows at once
 *                         (its step 3, the pairs cell by cell: sphere_pairs.c, below it;
 *                         sphere_list.h, the two files' shared types);
 *   skin.c                the Verlet skin: the reference state of a build, the motion test,
 *                         and the bodies' hot records it gathers on the way;
 *   pairlist.c            the kept list: the skin test, else a rebuild (the sphere list, or
 *                         the grid and the distance filter), into the rows.
 * pairlist.c calls the three others; they call none of each other. */
#ifndef CLAB_BROADPHASE_H
#define CLAB_BROADPHASE_H

#include <stdint.h>

#include "clab_collide.h"
#include "collide_common.h"

/* ---- the rows of the kept pair list (pairlist.c) ---- */

/* The kept pair list by rows (compressed sparse rows): the pairs (i, j), i < j, in (i, j)
 * order are row i = nbr[row[i] .. row[i + 1]) for i = 0 .. n - 1; gen[i] = 1 when body i or
 * one of its partners is not a sphere (the narrow phase's general path, clab_collide_pair,
 * then checks each pair's shapes), so a row of spheres needs no shape test. 4 bytes a pair
 * (clab_pair: 8) and 9 a body; the narrow phase reads body i's data once a row. nbr holds
 * CLAB_PREFETCH_AHEAD zeros past the last pair, so a loop may read that far ahead. Rmax: the
 * largest sphere radius at the build (radii do not change while the list is kept). */
typedef struct clab_pair_list {
    size_t n;                 /* rows: the bodies */
    size_t np;                /* pairs: row[n] */
    const size_t *row;        /* [n + 1] */
    const unsigned char *gen; /* [n] */
    const uint32_t *nbr;      /* [np + CLAB_PREFETCH_AHEAD] */
    const uint32_t *pi;       /* [np]: the row i of each pair (set by the narrow phase, narrow.c: pair_rows) */
    double Rmax;              /* [m] */
} clab_pair_list;

/* the storage of the rows, written by a build (broadphase_spheres.c or pairlist.c's filter) */
typedef struct clab_rows {
    size_t cap_rows, cap_nbr;
    size_t *row;        /* [cap_rows]: row i is nbr[row[i] .. row[i + 1]) */
    unsigned char *gen; /* [cap_rows]: 1 when row i has a body other than a sphere */
    uint32_t *nbr;      /* [cap_nbr]: partners j > i; CLAB_PREFETCH_AHEAD zeros past the last */
    double Rmax;        /* largest sphere radius at the build [m] */
} clab_rows;

/* rows->row, rows->gen with room for n + 1 entries and rows->nbr for np pairs and the zeros
 * behind them; 0 on success (here, so that both builders reach it without calling each other) */
static inline int clab_rows_reserve(clab_rows *rows, size_t n, size_t np)
{
    if (n + 1 > rows->cap_rows || !rows->row) {
        size_t cap = n + n / 2 + 16;
        if (clab_bp_resize(&rows->row, cap, sizeof(size_t)) || clab_bp_resize(&rows->gen, cap, 1)) return 1;
        rows->cap_rows = cap;
    }
    if (np + CLAB_PREFETCH_AHEAD > rows->cap_nbr || !rows->nbr) {
        size_t cap = np + np / 4 + 1024;
        if (clab_bp_resize(&rows->nbr, cap, sizeof(uint32_t))) return 1;
        rows->cap_nbr = cap;
    }
    return 0;
}

/* ---- the general grid (grid.c) ---- */

/* one (slot, cell) entry of the grid */
typedef struct {
    int32_t slot;  /* grid slot of the body */
    int32_t level; /* grid level: cells of size c 2^level */
    int32_t c[3];  /* cell coordinates on that level */
} grid_entry;

typedef struct clab_grid {
    /* per body [cap_bodies] (x, y, z triples: [3 cap_bodies]) */
    size_t cap_bodies;
    double *lo, *hi;            /* bounds grown by margin/2 [m] */
    int32_t *clo, *chi;         /* cell range of grid bodies on their level */
    int32_t *level;             /* grid level of grid bodies */
    double *width;              /* scratch for the median width */
    int *grid, *large, *planes; /* body lists (grid, large: virtual indices, see owner) */
    int *owner;                 /* periodic images: virtual index n + g is an image of body owner[g] */
    size_t nreal;               /* bodies of the world in this call (virtual indices below are bodies) */
    double *pm;                 /* outward normals of the planes, per plane list slot */
    unsigned char *flag;        /* FLAG_FIXED | FLAG_PLANE */
    size_t *key;                /* bucket of each grid body's low cell, per grid list slot */
    size_t *count;              /* [cap_bodies + 1] counting sort of the pairs */
    /* per grid slot [cap_bodies]: the grid bodies in bucket order */
    double *slo, *shi;          /* bounds (triples) */
    int32_t *sclo, *schi;       /* cell ranges (triples) */
    int *sbody;                 /* body index */
    int32_t *slevel;            /* level */
    unsigned char *sfixed;      /* fixed flag */
    /* grid entries [cap_entries] */
    size_t cap_entries;
    grid_entry *ent, *sorted;
    size_t *ebucket;            /* bucket of each entry */
    /* buckets [cap_buckets + 1]: bucket b holds sorted[start[b] .. start[b+1]) */
    size_t cap_buckets;
    size_t *start;
    /* pairs [cap_pairs], sorted by (i, j) at the end of a call */
    size_t cap_pairs;
    clab_pair *pairs, *tmp;
} clab_grid;

/* The candidate pairs of clab_broadphase (clab_collide.h) into g->pairs, *npairs of them;
 * fills the grid's part of *st. CLAB_ENUMERIC / CLAB_EINVAL for a body the broad phase cannot
 * take, CLAB_ENOMEM. */
int clab_grid_pairs(clab_grid *g, const clab_world *w, double margin, clab_broadphase_stats *st, size_t *npairs,
                    clab_error *err);
void clab_grid_free(clab_grid *g);

/* ---- the sphere cell list (broadphase_spheres.c) ---- */

/* one sphere of the sphere cell list, in cell order */
typedef struct {
    double r[3];   /* center as in the world (not wrapped) [m] */
    double R;      /* radius [m] */
    int32_t body;  /* body index */
    int32_t fixed; /* fixed flag */
} sphere_slot;

typedef struct clab_spheres {
    size_t cap_sl;              /* per body [cap_sl] */
    clab_contacts *scratch;     /* clab_collide's output while it runs the broad phase (its records
                                 * are dead until the narrow phase writes them): the per-body arrays
                                 * below are carved from its storage then, not allocated (this call only) */
    int sl_borrowed;            /* 1: the per-body arrays below point into scratch (this call only) */
    double *sl_lo, *sl_hi;      /* bounds grown by M/2, wrapped as in clab_broadphase (triples) */
    int32_t *sl_cell;           /* cell of each sphere (-1: plane) */
    uint32_t *sl_slotof;        /* slot of each sphere */
    /* per slot: */
    uint32_t *sl_cnt;           /* partners j > i of the sphere i */
    uint32_t *sl_pmask;         /* planes of lower index whose half-space its bounds reach (bit q: plane slot q) */
    size_t *sl_src;             /* where its partners start in its thread's buffer */
    unsigned char *sl_thr;      /* the thread whose buffer holds them */
    sphere_slot *sl_stage;      /* the spheres in index order (planes: unused) */
    sphere_slot *sl_slot;       /* the spheres in cell order */
    size_t cap_cells;           /* [cap_cells + 1] */
    uint32_t *sl_cstart;        /* cell c holds sl_slot[sl_cstart[c] .. sl_cstart[c + 1]) */
    uint32_t *sl_ccount;        /* [cap_cells x sl_ncount] counting sort by cell, per thread range */
    int sl_ncount;
    int32_t *sl_proom;          /* room for the partner lists in the borrowed storage [sl_pcap]
                                 * (0: none), shared out among the threads */
    size_t sl_pcap;
    int32_t **sl_buf;           /* per thread: partner lists when sl_proom is short or absent [sl_bufcap[t]] */
    size_t *sl_bufcap;
    int sl_nbuf;
    /* the triangles of mesh walls (fixed, after every sphere), per triangle slot [cap_tri]: */
    size_t cap_tri;
    int32_t *sl_tri;            /* body index, in index order */
    double *sl_tlo, *sl_thi;    /* bounds grown by M/2, as clab_collide_bounds (triples) */
    uint32_t *sl_tstart;        /* [cap_cells + 1]: the triangles whose bounds the spheres of cell c
                                 * may meet are sl_tbin[sl_tstart[c] .. sl_tstart[c + 1]) */
    uint32_t *sl_tbin;          /* [cap_tbin] triangle slots */
    size_t cap_tbin, cap_tstart;
} clab_spheres;

/* The kept list of pairlist.c for bounds grown by M/2 (M = margin + skin + slack) from the
 * sphere cell list, when every bounded body is a sphere or a fixed triangle of a mesh wall
 * placed after every sphere (in a world that is not periodic), and the spheres' 2R + M are
 * within a factor 2 of each other: the same pairs, in the same order, as clab_grid_pairs
 * followed by the distance filters. scratch (NULL: none) lends its dead records' storage for this call.
 * Writes *rows and *npairs and the list's part of *st; returns 0, 1 when the scene is not one
 * for it (nothing written: take the general path), or -1 when out of memory. */
int clab_sphere_list(clab_spheres *sp, clab_rows *rows, clab_broadphase_stats *st, const clab_world *w, double M,
                     clab_contacts *scratch, size_t *npairs);
void clab_spheres_free(clab_spheres *sp);

/* ---- the Verlet skin and the hot records (skin.c) ---- */

/* A visit of the bodies the skin test makes range by range, from several threads at once:
 * fn(ctx, w, i0, i1) right after the test has read bodies [i0, i1) (clab_collide_with hands
 * its clab_body_pass down as one) */
typedef struct clab_skin_visit {
    void (*fn)(void *ctx, const clab_world *w, size_t i0, size_t i1);
    void *ctx;
} clab_skin_visit;

typedef struct clab_skin {
    double skin;                /* option: [m]; < 0: automatic (CLAB_SKIN_AUTO x median bound radius) */
    size_t cap_ref, nref;       /* bodies at the last build */
    double *ref_r;              /* centers (triples) at the last build [m] */
    clab_quat *ref_e;           /* orientations at the last build (not written for spheres) */
    double *ref_R;              /* bound radii at the last build, not written for spheres [m] */
    unsigned char *ref_kind;    /* shape type x 2 + fixed at the last build */
    double ref_margin;          /* envelope margin of the last build [m] */
    double ref_skin;            /* skin of the last build [m] */
    clab_periodic ref_periodic; /* periodic settings of the last build */
    double *ref_tmp;            /* scratch for their median when no scratch records are lent [cap_tmp] */
    size_t cap_tmp;
    /* the bodies' hot data of the narrow phase, gathered every call [cap_hot] */
    size_t cap_hot;
    clab_hot_body *hot;
    size_t hot_ref;             /* hot records holding the last call's state (their R: the spheres' radii
                                 * at the last build, see skin.c) */
    int hot_ok;                 /* 1: this call's records are gathered (pairlist.c resets it) */
} clab_skin;

/* s->hot with room for n records; NULL when out of memory */
clab_hot_body *clab_skin_hot(clab_skin *s, size_t n);

/* The hot records of this call's bodies: the skin test's (it gathers them) or gathered here;
 * NULL when out of memory */
clab_hot_body *clab_skin_gathered(clab_skin *s, const clab_world *w);

/* Whether a list built at the reference state still holds for w and margin: the skin is on,
 * the bodies, their kinds, the margin and the periodic settings are the build's, and no body
 * moved more than skin/2. visit (NULL: none) sees every body range the motion test reads. */
int clab_skin_holds(clab_skin *s, const clab_world *w, double margin, const clab_skin_visit *visit);

/* Remember w as the state of a build; *skin the skin for it (automatic: CLAB_SKIN_AUTO x the
 * median bound radius of the bounded bodies), *slack the rounding allowance of its bounds.
 * scratch (NULL: none) lends its dead records for the median. 0 on success, 1 out of memory. */
int clab_skin_remember(clab_skin *s, const clab_world *w, double margin, clab_contacts *scratch, double *skin,
                       double *slack);
void clab_skin_free(clab_skin *s);

/* ---- the kept list (pairlist.c) ---- */

typedef struct clab_broad {
    clab_grid grid;
    clab_spheres spheres;
    clab_skin skin;
    clab_rows rows;
    int kept;          /* 1: rows hold the list of the last build */
    size_t kept_np;    /* pairs in the kept list */
    size_t builds;     /* lists built so far (the narrow phase's per-build caches key on it) */
    clab_broadphase_stats st;
} clab_broad;

/* The candidate pairs for clab_collide: the kept list of the last build while no body has
 * moved more than skin/2 since (see clab_collider_set_skin), else a new build with bounds
 * grown by margin + skin (general_only: never the sphere list). scratch, visit: as for
 * clab_sphere_list, clab_skin_holds (NULL: none). *list points into bp, valid until the next
 * call. */
int clab_broad_list(clab_broad *bp, const clab_world *w, double margin, int general_only, clab_contacts *scratch,
                    const clab_skin_visit *visit, clab_pair_list *list, clab_error *err);
void clab_broad_free(clab_broad *bp);

#endif
