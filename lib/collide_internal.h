/* collide_internal.h: the narrow-phase table shared by the collide_*.c files. */
#ifndef CLAB_COLLIDE_INTERNAL_H
#define CLAB_COLLIDE_INTERNAL_H

#include <stdint.h>

#include "clab_balance.h"
#include "clab_collide.h"
#include "clab_simd.h"

/* loops over pairs ask for body b (CLAB_PREFETCH, clab_math.h) this many pairs ahead */
#define CLAB_PREFETCH_AHEAD 16
/* blocks of bodies whose record counts cut the narrow phase's rows (collide.c: row_cut) */
#define CLAB_CUT_BLOCKS 64

/* What the sphere-sphere distance test of the narrow phase reads of a body: 32 bytes, two a
 * cache line. It is all a record of two spheres needs too: the record stores no levers
 * (clab_contact_levers derives them), so the orientation is never read there. */
typedef struct clab_hot_body {
    double r[3]; /* center [m] */
    double R;    /* sphere radius [m]; < 0: not a sphere */
} clab_hot_body;

/* one (slot, cell) entry of the grid */
typedef struct {
    int32_t slot;  /* grid slot of the body */
    int32_t level; /* grid level: cells of size c 2^level */
    int32_t c[3];  /* cell coordinates on that level */
} grid_entry;

/* one sphere of the sphere cell list (broadphase_spheres.c), in cell order */
typedef struct {
    double r[3];   /* center as in the world (not wrapped) [m] */
    double R;      /* radius [m] */
    int32_t body;  /* body index */
    int32_t fixed; /* fixed flag */
} sphere_slot;

/* cell -> bucket: dense (row-major per level) or hashed */
typedef struct {
    int dense;
    size_t mask;                            /* hashed: buckets - 1 */
    int32_t base[CLAB_GRID_LEVELS][3];      /* dense: lowest cell on each level */
    int32_t dim[CLAB_GRID_LEVELS][3];       /* dense: cells a side on each level */
    size_t off[CLAB_GRID_LEVELS];           /* dense: first bucket of each level */
} bucket_map;

struct clab_collider {
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
    /* pairs [cap_pairs] (clab_broadphase's list, and the general path's build) */
    size_t cap_pairs;
    clab_pair *pairs, *tmp;
    /* the kept list of clab_broadphase_kept by rows (clab_pair_list) */
    size_t cap_rows, cap_nbr;
    size_t *row;                /* [cap_rows]: row i is nbr[row[i] .. row[i + 1]) */
    unsigned char *gen;         /* [cap_rows]: 1 when row i has a body other than a sphere */
    uint32_t *nbr;              /* [cap_nbr]: partners j > i; CLAB_PREFETCH_AHEAD zeros past the last */
    double list_Rmax;           /* largest sphere radius at the build [m] */
    uint32_t *prow;             /* [cap_prow]: the row of each pair of the kept list (collide.c: pair_rows),
                                 * for prow_np pairs of the list of build number prow_build */
    size_t cap_prow, prow_np, prow_build;
    clab_broadphase_stats st;
    /* Verlet skin: the state of the last build of the kept pair list [cap_ref] */
    double skin;                /* option: [m]; < 0: automatic (CLAB_SKIN_AUTO x median bound radius) */
    int kept;                   /* 1: cd->row, cd->nbr hold the list of the last build */
    size_t cap_ref, nref;       /* bodies at the last build */
    double *ref_r;              /* centers (triples) at the last build [m] */
    clab_quat *ref_e;           /* orientations at the last build (not written for spheres) */
    double *ref_R;              /* bound radii at the last build, not written for spheres [m] */
    size_t hot_ref;             /* hot records holding the last call's state (their R: the spheres' radii
                                 * at the last build, see broadphase.c) */
    double *ref_tmp;            /* scratch for their median when clab_collide's output cannot lend it [cap_tmp] */
    size_t cap_tmp;
    unsigned char *ref_kind;    /* shape type x 2 + fixed at the last build */
    double ref_margin;          /* envelope margin of the last build [m] */
    double ref_skin;            /* skin of the last build [m] */
    clab_periodic ref_periodic; /* periodic settings of the last build */
    size_t kept_np;             /* pairs in the kept list */
    /* the sphere cell list (broadphase_spheres.c) */
    int general_only;           /* tests: 1 = clab_broadphase_kept always takes the general path */
    size_t cap_sl;              /* per body [cap_sl] */
    clab_contacts *scratch;     /* clab_collide's output while it runs the broad phase (its records
                                 * are dead until the narrow phase writes them): the per-body arrays
                                 * below are carved from its storage then, not allocated */
    int sl_borrowed;            /* 1: the per-body arrays below point into scratch (this call only) */
    clab_body_pass *pass;       /* clab_collide_with's pass, run in the skin test's (this call only) */
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
    /* narrow phase (collide.c): the bodies' hot data, gathered every call [cap_hot] */
    size_t cap_hot;
    clab_hot_body *hot;
    int hot_ok;                 /* 1: the skin test of this call gathered them (clab_collide resets it) */
    /* clab_contacts.low of the kept list [cap_low]: for low_n bodies, made from the list of
     * build number low_build (builds: the lists built so far) */
    uint32_t *low;
    size_t cap_low, low_n, low_build, builds;
    /* narrow phase with OpenMP: the contacts of threads 1.. [ntbuf], and where each thread's
     * records start in the output [ntbuf + 1] (clab_contacts.part) */
    size_t *part;
    clab_contacts *tbuf;
    size_t ntbuf;
    /* the last call's records of the bodies [0, n b / CLAB_CUT_BLOCKS), b = 0 .. CLAB_CUT_BLOCKS,
     * for n = cut_n bodies (0: none known): where the threads' rows are cut (collide.c) */
    size_t cut_rec[CLAB_CUT_BLOCKS + 1];
    clab_balance narrow_bal; /* the narrow phase's cut of the rows, in cost (row_cut) */
    size_t cut_n;
};

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
    const uint32_t *pi;       /* [np]: the row i of each pair (the narrow phase's, collide.c: pair_rows) */
    double Rmax;              /* [m] */
} clab_pair_list;

/* The candidate pairs for clab_collide: the kept list of the last build while no body has
 * moved more than skin/2 since (see clab_collider_set_skin), else a new build with bounds
 * grown by margin + skin. *list points into the collider, valid until the next broad-phase
 * call. */
int clab_broadphase_kept(clab_collider *cd, const clab_world *w, double margin, clab_pair_list *list,
                         clab_error *err);

/* cd->row, cd->gen with room for n + 1 entries and cd->nbr for np pairs and the zeros behind
 * them; 0 on success */
int clab_pair_list_reserve(clab_collider *cd, size_t n, size_t np);

/* the hot record of body b (the skin test's pass and clab_collide's own gather) */
static inline void clab_hot_fill(clab_hot_body *h, const clab_body *b)
{
    h->r[0] = b->r.x;
    h->r[1] = b->r.y;
    h->r[2] = b->r.z;
    h->R = b->shape.type == CLAB_SHAPE_SPHERE ? b->shape.radius : -1.0;
}

/* cd->hot with room for n records; NULL when out of memory */
clab_hot_body *clab_collider_hot(clab_collider *cd, size_t n);

/* The kept list of clab_broadphase_kept for bounds grown by M/2 (M = margin + skin + slack)
 * from the sphere cell list, when every bounded body is a sphere and their 2R + M are within
 * a factor 2 of each other (broadphase_spheres.c): the same pairs, in the same order, as
 * clab_broadphase followed by the distance filter. Writes cd->row, cd->gen, cd->nbr,
 * cd->list_Rmax and *npairs;
 * returns 0, 1 when the scene is not one for it (nothing written: take the general path),
 * or -1 when out of memory. */
int clab_sphere_list(clab_collider *cd, const clab_world *w, double M, size_t *npairs);

/* realloc *pp to n elements of size sz (n = 0: one); 0 on success */
int clab_bp_resize(void *pp, size_t n, size_t sz);

/* closed overlap of two boxes given by their low and high corners */
static inline int clab_boxes_overlap(const double *la, const double *ha, const double *lb, const double *hb)
{
    return la[0] <= hb[0] && lb[0] <= ha[0] && la[1] <= hb[1] && lb[1] <= ha[1] && la[2] <= hb[2] && lb[2] <= ha[2];
}

/* the box [lo, hi] reaches the half-space m . (x - r) <= margin/2: its lowest point along m,
 * m . (c - r) - sum_k |m_k| e_k (c center, e half widths), is at most margin/2 */
static inline int clab_box_meets_plane(const double *lo, const double *hi, const double *m, clab_vec3 r,
                                       double margin)
{
    double d = 0.0;
    for (int k = 0; k < 3; k++) {
        double c = 0.5 * (lo[k] + hi[k]), e = 0.5 * (hi[k] - lo[k]);
        d += m[k] * (c - clab_v3_get(r, k)) - fabs(m[k]) * e;
    }
    return d <= 0.5 * margin;
}

/* bounds [lv, hv] moved along each periodic axis to the image whose center lies in [lo, hi)
 * (the broad phase's bounds of a body, before its images) */
static inline void clab_wrap_bounds(const clab_periodic *per, double *lv, double *hv)
{
    for (int k = 0; k < 3; k++) {
        if (!per->on[k]) continue;
        double L = per->hi[k] - per->lo[k], c = 0.5 * (lv[k] + hv[k]), q = (c - per->lo[k]) / L;
        if (q >= 0.0 && q < 1.0) continue; /* t = L floor(q) = 0: inside already (no libm call) */
        double t = L * floor(q);
        lv[k] -= t;
        hv[k] -= t;
    }
}

/* A narrow-phase function: contacts between body a (shape type ta) and body b (type tb),
 * ta <= tb in the table's order; the caller orders the record as a < b afterwards. */
typedef int (*clab_narrow_fn)(const clab_body *A, const clab_body *B, int ia, int ib, double envelope,
                              clab_contacts *out);

/* Fill a record from the two surface points pA (on A) and pB (on B), the unit normal n
 * pointing from A to B and the gap phi; orients it so that a < b (flipping n if needed),
 * builds the body-frame points, and appends it (u, w follow from n: clab_contact_frame). */
int clab_emit_contact(const clab_body *A, const clab_body *B, int ia, int ib, clab_vec3 pA, clab_vec3 pB, clab_vec3 n,
                      double phi, unsigned feature, clab_contacts *out);

/* collide_sphere.c */
int clab_collide_sphere_sphere(const clab_body *A, const clab_body *B, int ia, int ib, double env, clab_contacts *out);
int clab_collide_sphere_plane(const clab_body *A, const clab_body *B, int ia, int ib, double env, clab_contacts *out);
/* collide_box.c: A is the sphere or the plane, B the box */
int clab_collide_sphere_box(const clab_body *A, const clab_body *B, int ia, int ib, double env, clab_contacts *out);
int clab_collide_plane_box(const clab_body *A, const clab_body *B, int ia, int ib, double env, clab_contacts *out);
/* collide_box_box.c */
int clab_collide_box_box(const clab_body *A, const clab_body *B, int ia, int ib, double env, clab_contacts *out);

/* ---- box features: ids of vertices and edges, stable for the contact keys ----
 * vertex k of a box with half extents h: body-frame point (+-h_x, +-h_y, +-h_z), the sign of
 * coordinate c positive when bit c of k is set (k = 0..7).
 * edge along axis c (0..2) whose other coordinates c1 = c+1, c2 = c+2 (mod 3) have signs
 * s1, s2: id 4 c + [s1 > 0] + 2 [s2 > 0] (0..11). */
static inline clab_vec3 clab_box_vertex(clab_vec3 h, unsigned k)
{
    return clab_v3(k & 1u ? h.x : -h.x, k & 2u ? h.y : -h.y, k & 4u ? h.z : -h.z);
}
static inline unsigned clab_box_edge_id(int c, double s1, double s2)
{
    return 4u * (unsigned)c + (s1 > 0.0 ? 1u : 0u) + (s2 > 0.0 ? 2u : 0u);
}

/* box-box feature ids (12 bits, see clab_contact_key): kind in bits 11..10;
 *   kind 0: incident box vertex,       detail = vertex id (0..7)
 *   kind 1: incident edge x side plane, detail = 4 edge id + side (0..47)
 *   kind 2: reference face corner,      detail = corner (0..3)
 * face kinds also carry the reference box (bit 9: 1 when it is b) and its face
 * (bits 8..6: 2 axis + [outward normal along +axis]), detail in bits 5..0;
 *   kind 3: edge-edge, edge of a in bits 7..4, edge of b in bits 3..0. */
enum { CLAB_BB_VERTEX = 0, CLAB_BB_CLIP = 1, CLAB_BB_CORNER = 2, CLAB_BB_EDGE = 3 };
static inline unsigned clab_bb_face_feature(unsigned kind, int ref_is_b, unsigned face, unsigned detail)
{
    return (kind << 10) | ((unsigned)ref_is_b << 9) | (face << 6) | (detail & 63u);
}
static inline unsigned clab_bb_edge_feature(unsigned edge_a, unsigned edge_b)
{
    return ((unsigned)CLAB_BB_EDGE << 10) | (edge_a << 4) | edge_b;
}

/* nearbyint(x) in the default rounding (to nearest, ties to even), without the libm call:
 * for |x| < 2^51, x + 1.5 2^52 lies in [2^52, 2^53), where the doubles are the integers, so
 * the sum is rounded to C + nearbyint(x) (C = 1.5 2^52 is even: the same ties) and the
 * subtraction is exact. One difference: a result 0 comes out +0 where nearbyint gives -0
 * for x in (-0.5, 0); the callers' v - L (+-0) is v either way (v != 0 there). */
static inline double clab_near_int(double x)
{
    const double C = 6755399441055744.0; /* 1.5 2^52 */
    return fabs(x) < 2251799813685248.0 ? (x + C) - C : nearbyint(x);
}

/* The minimum image of d is surely farther than S (a pair across a periodic face that is not
 * one: the sphere list's and the narrow phase's shortcut): clab_world_min_image's
 * d - L nearbyint(d/L), half[k] = L_k/2 (infinite off the periodic axes), with nearbyint as
 * clab_near_int, and a margin of 1e-9 on the comparison; 0 sends the pair to the exact test */
static inline int clab_image_far(const clab_periodic *per, const double *half, clab_vec3 d, double S)
{
    double v[3] = {d.x, d.y, d.z}, d2 = 0.0;
    for (int k = 0; k < 3; k++) {
        if (fabs(v[k]) > half[k]) {
            double L = per->hi[k] - per->lo[k], x = v[k] / L;
            if (!(fabs(x) < 1e15)) return 0;
            v[k] -= L * clab_near_int(x);
        }
        d2 += v[k] * v[k];
    }
    return d2 > S * S * (1.0 + 1e-9);
}

#endif
