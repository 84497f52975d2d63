/* grid.c: the uniform-grid broad phase, with coarser levels for wider bodies (clab_broadphase's
 * pairs; the general path of the kept list, pairlist.c).
 *
 * 1. bounds: every body's world box, grown by margin/2 (clab_collide_bounds);
 * 2. levels: the level-0 cell is c = CLAB_GRID_CELL_SCALE x the median width of the bounded
 *    bodies (robust to a few huge boxes and to a tail of small grains); a body of width W
 *    goes to the first level l with W <= c 2^l, so it covers at most 2 cells a side there;
 *    a level holding fewer than CLAB_GRID_MIN_LEVEL bodies, and bodies wider than the
 *    coarsest cell, are kept out ("large" bodies, tested against every bounded body, which
 *    for a handful of floor slabs and walls is cheaper than a sparse level); planes too;
 * 3. cells to buckets: row-major per level (a dense grid) when the boxes of occupied cells
 *    are small next to the entry count, else hashed into a power-of-two table;
 * 4. slots: the grid bodies are renumbered by the bucket of their low cell (a counting sort)
 *    and their bounds copied in that order, so that in a dense grid bodies near in space are
 *    near in memory and the loops below walk memory mostly in order;
 * 5. entries: each slot goes into the cells its box covers on its level; the entries are
 *    counting-sorted by bucket;
 * 6. pairs on one level: two bodies sharing a cell are a candidate when their boxes overlap,
 *    reported only from the cell holding the low corner of the overlap (the max of the two
 *    low cells), so each pair appears once without a set;
 *    pairs across levels: each slot looks up the cells its box covers on every coarser level
 *    in use (at most 8 per level), deduplicated the same way;
 *    large bodies and planes: against every bounded body;
 * 7. order: pairs counting-sorted by (i, j).
 * Each step is a function of its own below (grid_bounds .. grid_order), called in that order
 * by clab_grid_pairs. All arrays grow to the largest scene seen and are reused, so a steady
 * simulation does not allocate. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "broadphase.h"

#define NO_BUCKET ((size_t)-1)
enum { FLAG_FIXED = 1, FLAG_PLANE = 2 };

/* cell -> bucket: dense (row-major per level) or hashed */
typedef struct {
    int dense;
    size_t mask;                            /* hashed: buckets - 1 */
    int32_t base[CLAB_GRID_LEVELS][3];      /* dense: lowest cell on each level */
    int32_t dim[CLAB_GRID_LEVELS][3];       /* dense: cells a side on each level */
    size_t off[CLAB_GRID_LEVELS];           /* dense: first bucket of each level */
} bucket_map;

void clab_grid_free(clab_grid *gd)
{
    void *arrays[] = {gd->lo,   gd->hi,    gd->clo,     gd->chi,   gd->level,  gd->width, gd->grid,
                      gd->large, gd->planes, gd->pm,    gd->flag,  gd->owner,  gd->key,   gd->count,
                      gd->slo,  gd->shi,   gd->sclo,    gd->schi,  gd->sbody,  gd->slevel, gd->sfixed,
                      gd->ent,  gd->sorted, gd->ebucket, gd->start, gd->pairs, gd->tmp};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) free(arrays[k]);
}

static int reserve_bodies(clab_grid *gd, size_t n)
{
    if (n <= gd->cap_bodies) return 0;
    size_t cap = n + n / 2 + 16;
    if (clab_bp_resize(&gd->lo, 3 * cap, sizeof(double)) || clab_bp_resize(&gd->hi, 3 * cap, sizeof(double)) ||
        clab_bp_resize(&gd->clo, 3 * cap, sizeof(int32_t)) || clab_bp_resize(&gd->chi, 3 * cap, sizeof(int32_t)) ||
        clab_bp_resize(&gd->level, cap, sizeof(int32_t)) || clab_bp_resize(&gd->width, cap, sizeof(double)) ||
        clab_bp_resize(&gd->grid, cap, sizeof(int)) || clab_bp_resize(&gd->large, cap, sizeof(int)) ||
        clab_bp_resize(&gd->planes, cap, sizeof(int)) || clab_bp_resize(&gd->pm, 3 * cap, sizeof(double)) ||
        clab_bp_resize(&gd->owner, cap, sizeof(int)) ||
        clab_bp_resize(&gd->flag, cap, 1) ||
        clab_bp_resize(&gd->key, cap, sizeof(size_t)) || clab_bp_resize(&gd->count, cap + 1, sizeof(size_t)) ||
        clab_bp_resize(&gd->slo, 3 * cap, sizeof(double)) || clab_bp_resize(&gd->shi, 3 * cap, sizeof(double)) ||
        clab_bp_resize(&gd->sclo, 3 * cap, sizeof(int32_t)) || clab_bp_resize(&gd->schi, 3 * cap, sizeof(int32_t)) ||
        clab_bp_resize(&gd->sbody, cap, sizeof(int)) || clab_bp_resize(&gd->slevel, cap, sizeof(int32_t)) ||
        clab_bp_resize(&gd->sfixed, cap, 1))
        return 1;
    gd->cap_bodies = cap;
    return 0;
}

static int reserve_grid(clab_grid *gd, size_t nent, size_t nbuckets)
{
    if (nent > gd->cap_entries) {
        size_t cap = nent + nent / 2 + 64;
        if (clab_bp_resize(&gd->ent, cap, sizeof(grid_entry)) || clab_bp_resize(&gd->sorted, cap, sizeof(grid_entry)) ||
            clab_bp_resize(&gd->ebucket, cap, sizeof(size_t)))
            return 1;
        gd->cap_entries = cap;
    }
    if (nbuckets > gd->cap_buckets || !gd->start) {
        size_t cap = nbuckets + nbuckets / 2;
        if (clab_bp_resize(&gd->start, cap + 1, sizeof(size_t))) return 1;
        gd->cap_buckets = cap;
    }
    return 0;
}

/* append the pair (i, j) of virtual indices as the bodies (min, max); a body against its own
 * periodic image is no pair */
static inline int push_pair(clab_grid *gd, size_t *np, int i, int j)
{
    if ((size_t)i >= gd->nreal) i = gd->owner[(size_t)i - gd->nreal];
    if ((size_t)j >= gd->nreal) j = gd->owner[(size_t)j - gd->nreal];
    if (i == j) return 0;
    if (*np == gd->cap_pairs) {
        size_t cap = gd->cap_pairs ? 2 * gd->cap_pairs : 1024;
        if (clab_bp_resize(&gd->pairs, cap, sizeof(clab_pair)) || clab_bp_resize(&gd->tmp, cap, sizeof(clab_pair))) return 1;
        gd->cap_pairs = cap;
    }
    gd->pairs[*np].i = i < j ? i : j;
    gd->pairs[*np].j = i < j ? j : i;
    (*np)++;
    return 0;
}

void clab_collide_bounds(const clab_body *b, double margin, clab_vec3 *lo, clab_vec3 *hi)
{
    clab_vec3 ext;
    switch (b->shape.type) {
    case CLAB_SHAPE_SPHERE: {
        double R = b->shape.radius;
        ext = clab_v3(R, R, R);
        break;
    }
    case CLAB_SHAPE_BOX:
    case CLAB_SHAPE_TRIANGLE: { /* a triangle: the bounding box of its vertices, half extents h */
        /* extent along world axis k: sum_j |A_kj| h_j */
        clab_mat33 A = clab_q_to_A(b->e);
        clab_vec3 h = b->shape.half;
        ext = clab_v3(fabs(A.a[0][0]) * h.x + fabs(A.a[0][1]) * h.y + fabs(A.a[0][2]) * h.z,
                      fabs(A.a[1][0]) * h.x + fabs(A.a[1][1]) * h.y + fabs(A.a[1][2]) * h.z,
                      fabs(A.a[2][0]) * h.x + fabs(A.a[2][1]) * h.y + fabs(A.a[2][2]) * h.z);
        break;
    }
    default:
        *lo = clab_v3(-INFINITY, -INFINITY, -INFINITY);
        *hi = clab_v3(INFINITY, INFINITY, INFINITY);
        return;
    }
    double g = 0.5 * margin;
    ext = clab_v3(ext.x + g, ext.y + g, ext.z + g);
    *lo = clab_v3_sub(b->r, ext);
    *hi = clab_v3_add(b->r, ext);
}

int clab_broadphase_test(const clab_world *w, int i, int j, double margin)
{
    const clab_body *A = &w->bodies[i], *B = &w->bodies[j];
    if ((A->fixed && B->fixed) || i == j) return 0;
    int pa = A->shape.type == CLAB_SHAPE_PLANE, pb = B->shape.type == CLAB_SHAPE_PLANE;
    if (pa && pb) return 0;
    clab_vec3 l, h;
    double la[3], ha[3], lb[3], hb[3];
    clab_collide_bounds(A, margin, &l, &h);
    la[0] = l.x; la[1] = l.y; la[2] = l.z;
    ha[0] = h.x; ha[1] = h.y; ha[2] = h.z;
    clab_collide_bounds(B, margin, &l, &h);
    if (!pa && !pb) { /* periodic axes: B's bounds at the minimum image of its center */
        clab_vec3 d = clab_v3_sub(B->r, A->r), s = clab_v3_sub(clab_world_min_image(&w->periodic, d), d);
        l = clab_v3_add(l, s);
        h = clab_v3_add(h, s);
    }
    lb[0] = l.x; lb[1] = l.y; lb[2] = l.z;
    hb[0] = h.x; hb[1] = h.y; hb[2] = h.z;
    if (pa || pb) {
        const clab_body *P = pa ? A : B;
        clab_vec3 mv = clab_q_rotate(P->e, clab_v3(0.0, 0.0, 1.0));
        double m[3] = {mv.x, mv.y, mv.z};
        return pa ? clab_box_meets_plane(lb, hb, m, P->r, margin) : clab_box_meets_plane(la, ha, m, P->r, margin);
    }
    return clab_boxes_overlap(la, ha, lb, hb);
}

/* cell coordinate of x: floor((x - origin) / cell), clamped to [-2^30, 2^30] (monotone, so
 * the clamp only merges far cells, e.g. of a body flying off; the exact box test keeps the
 * result right) */
static inline int32_t cell_of(double x, double origin, double inv_cell)
{
    double t = floor((x - origin) * inv_cell);
    if (!(t > -1073741824.0)) return -1073741824;
    if (t > 1073741824.0) return 1073741824;
    return (int32_t)t;
}

/* bucket of a (level, cell); NO_BUCKET for a cell outside a dense level's box */
static inline size_t bucket(const bucket_map *m, int32_t level, const int32_t *c)
{
    if (m->dense) {
        const int32_t *d = m->dim[level], *b = m->base[level];
        int64_t x = (int64_t)c[0] - b[0], y = (int64_t)c[1] - b[1], z = (int64_t)c[2] - b[2];
        if (x < 0 || y < 0 || z < 0 || x >= d[0] || y >= d[1] || z >= d[2]) return NO_BUCKET;
        return m->off[level] + (size_t)x + (size_t)d[0] * ((size_t)y + (size_t)d[1] * (size_t)z);
    }
    /* a multiply-xorshift mix of the four integers */
    uint64_t h = (uint64_t)(uint32_t)c[0] * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(uint32_t)c[1] * 0xC2B2AE3D27D4EB4Full;
    h ^= (uint64_t)(uint32_t)c[2] * 0x165667B19E3779F9ull;
    h ^= (uint64_t)(uint32_t)level * 0x27D4EB2F165667C5ull;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return (size_t)h & m->mask;
}

static inline int same_cell(const grid_entry *e, int32_t level, const int32_t *c)
{
    return e->c[0] == c[0] && e->c[1] == c[1] && e->c[2] == c[2] && e->level == level;
}

/* the cell c is the low corner of the overlap of the cell ranges starting at a and b */
static inline int owns_pair(const int32_t *a, const int32_t *b, const int32_t *c)
{
    for (int k = 0; k < 3; k++)
        if ((a[k] > b[k] ? a[k] : b[k]) != c[k]) return 0;
    return 1;
}

/* counting sort of the pairs by (i, j): by j, then stably by i */
static void sort_pairs(clab_grid *gd, size_t np, size_t nbodies)
{
    if (np < 2) return;
    size_t *count = gd->count;
    clab_pair *a = gd->pairs, *b = gd->tmp;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t k = 0; k <= nbodies; k++) count[k] = 0;
        for (size_t p = 0; p < np; p++) count[(pass ? a[p].i : a[p].j) + 1]++;
        for (size_t k = 0; k < nbodies; k++) count[k + 1] += count[k];
        for (size_t p = 0; p < np; p++) b[count[pass ? a[p].i : a[p].j]++] = a[p];
        clab_pair *t = a; a = b; b = t;
    }
    /* two passes: the result is back in gd->pairs */
}

/* counting sort by bucket, in two halves around the caller's placing loop: bucket_starts
 * sets start[b] to the first position of bucket b for the keys key[0..n) < nb (start has
 * nb + 1 entries); the caller places item k at start[key[k]]++; bucket_unshift then turns
 * the advanced starts (now the ends) back into starts */
static void bucket_starts(size_t *start, size_t nb, const size_t *key, size_t n)
{
    for (size_t b = 0; b <= nb; b++) start[b] = 0;
    for (size_t k = 0; k < n; k++) start[key[k] + 1]++;
    for (size_t b = 0; b < nb; b++) start[b + 1] += start[b];
}
static void bucket_unshift(size_t *start, size_t nb)
{
    for (size_t b = nb; b > 0; b--) start[b] = start[b - 1];
    start[0] = 0;
}

/* what the steps of one call of clab_grid_pairs share */
typedef struct {
    size_t n, nv;                      /* bodies; with their periodic images (virtual indices) */
    size_t ngrid, nlarge, nplanes;     /* grid bodies, large bodies, half-spaces */
    size_t nent, nbuckets;             /* grid entries, buckets */
    size_t on_level[CLAB_GRID_LEVELS]; /* grid bodies a level (0: the level is not built) */
    double cell;                       /* level-0 cell [m] */
    double inv_cell[CLAB_GRID_LEVELS]; /* 1 / cell of each level */
    double origin[3];                  /* grid origin [m] */
    bucket_map map;
} grid_call;

/* step 1: bounds, widths and flags of the n bodies, bounds wrapped into the period; planes
 * apart (their outward normals in gd->pm) */
static int grid_bounds(clab_grid *gd, const clab_world *w, double margin, grid_call *c, clab_error *err)
{
    const clab_periodic *per = &w->periodic;
    const int periodic = per->on[0] || per->on[1] || per->on[2];
    for (size_t i = 0; i < c->n; i++) {
        const clab_body *b = &w->bodies[i];
        if (!(clab_v3_isfinite(b->r) && isfinite(b->e.e0) && isfinite(b->e.e1) && isfinite(b->e.e2) &&
              isfinite(b->e.e3)))
            return clab_error_set(err, CLAB_ENUMERIC,
                                  "broad phase: body %zu (%s) has a non-finite position or orientation at t = %g s", i,
                                  clab_world_body_name(w, i), w->t);
        gd->flag[i] =
            (unsigned char)((b->fixed ? FLAG_FIXED : 0) | (b->shape.type == CLAB_SHAPE_PLANE ? FLAG_PLANE : 0));
        if (gd->flag[i] & FLAG_PLANE) {
            clab_vec3 m = clab_q_rotate(b->e, clab_v3(0.0, 0.0, 1.0));
            gd->pm[3 * c->nplanes] = m.x;
            gd->pm[3 * c->nplanes + 1] = m.y;
            gd->pm[3 * c->nplanes + 2] = m.z;
            gd->planes[c->nplanes++] = (int)i;
            for (int k = 0; k < 3; k++)
                if (per->on[k] && fabs(clab_v3_get(m, k)) > 1e-12)
                    return clab_error_set(err, CLAB_EINVAL,
                                          "broad phase: half-space %zu (%s) has normal (%g, %g, %g) with a component "
                                          "along the periodic axis %c; allowed: half-spaces that contain every "
                                          "periodic direction (normal 0 along it)",
                                          i, clab_world_body_name(w, i), m.x, m.y, m.z, "xyz"[k]);
            continue;
        }
        clab_vec3 l, h;
        clab_collide_bounds(b, margin, &l, &h);
        if (!(clab_v3_isfinite(l) && clab_v3_isfinite(h)))
            return clab_error_set(err, CLAB_ENUMERIC, "broad phase: body %zu (%s) has non-finite bounds (size %g m)", i,
                                  clab_world_body_name(w, i), clab_shape_bound_radius(&b->shape));
        double lv[3] = {l.x, l.y, l.z}, hv[3] = {h.x, h.y, h.z};
        if (periodic) /* narrower than half the period; then the image whose center lies in [lo, hi) */
            for (int k = 0; k < 3; k++) {
                if (!per->on[k]) continue;
                double L = per->hi[k] - per->lo[k];
                if (!(hv[k] - lv[k] < 0.5 * L))
                    return clab_error_set(err, CLAB_EINVAL,
                                          "broad phase: body %zu (%s) spans %g m along the periodic axis %c (bounds "
                                          "grown by the margin %g m); allowed: less than half the period, L/2 = %g m",
                                          i, clab_world_body_name(w, i), hv[k] - lv[k], "xyz"[k], margin, 0.5 * L);
            }
        if (periodic) clab_wrap_bounds(per, lv, hv);
        for (int k = 0; k < 3; k++) {
            gd->lo[3 * i + k] = lv[k];
            gd->hi[3 * i + k] = hv[k];
        }
    }
    return CLAB_OK;
}

/* periodic images: a body whose bounds cross lo (hi) of a periodic axis gets an image a
 * period up (down), and one for every combination of such axes (at most 7); two bodies
 * that overlap through a shift s then have images (or themselves) that overlap directly,
 * per axis either body carrying that axis's part of s (the pairs map back to the bodies
 * and repeats are removed after the sort). Sets c->nv. */
static int grid_images(clab_grid *gd, const clab_periodic *per, grid_call *c, clab_error *err)
{
    const size_t n = c->n;
    size_t ng = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < n; i++) {
            if (gd->flag[i] & FLAG_PLANE) continue;
            double shift[3] = {0.0, 0.0, 0.0};
            unsigned axes = 0;
            for (int k = 0; k < 3; k++) {
                if (!per->on[k]) continue;
                double L = per->hi[k] - per->lo[k];
                if (gd->lo[3 * i + k] < per->lo[k]) shift[k] = L;
                else if (gd->hi[3 * i + k] >= per->hi[k]) shift[k] = -L;
                if (shift[k] != 0.0) axes |= 1u << k;
            }
            for (unsigned sub = axes; sub; sub = (sub - 1) & axes) {
                if (pass == 1) {
                    size_t v = n + ng;
                    gd->owner[ng] = (int)i;
                    gd->flag[v] = gd->flag[i];
                    for (int k = 0; k < 3; k++) {
                        double t = (sub >> k) & 1u ? shift[k] : 0.0;
                        gd->lo[3 * v + k] = gd->lo[3 * i + k] + t;
                        gd->hi[3 * v + k] = gd->hi[3 * i + k] + t;
                    }
                }
                ng++;
            }
        }
        if (pass == 0) {
            if (reserve_bodies(gd, n + ng)) return clab_error_set(err, CLAB_ENOMEM, "out of memory in the broad phase");
            ng = 0;
        }
    }
    c->nv = n + ng;
    return CLAB_OK;
}

/* step 2: the level-0 cell from the median width (gsl_stats_median reorders the scratch
 * copy), each body's level (the first whose cell holds its width), the grid and large lists,
 * and the grid origin */
static void grid_levels(clab_grid *gd, grid_call *c)
{
    const double *lo = gd->lo, *hi = gd->hi;
    const unsigned char *flag = gd->flag;
    int32_t *level = gd->level;
    size_t nb = 0;
    for (size_t i = 0; i < c->nv; i++) {
        if (flag[i] & FLAG_PLANE) continue;
        const double *l = lo + 3 * i, *h = hi + 3 * i;
        gd->width[nb++] = fmax(h[0] - l[0], fmax(h[1] - l[1], h[2] - l[2]));
    }
    double cell = nb ? CLAB_GRID_CELL_SCALE * gsl_stats_median(gd->width, 1, nb) : 1.0;
    if (!(cell > 0.0) || !isfinite(cell)) cell = 1.0;
    double lcell[CLAB_GRID_LEVELS];
    for (int l = 0; l < CLAB_GRID_LEVELS; l++) {
        lcell[l] = l ? 2.0 * lcell[l - 1] : cell;
        c->inv_cell[l] = 1.0 / lcell[l];
    }
    c->cell = cell;
    size_t *on_level = c->on_level;
    for (int l = 0; l < CLAB_GRID_LEVELS; l++) on_level[l] = 0;
    for (size_t i = 0; i < c->nv; i++) {
        if (flag[i] & FLAG_PLANE) continue;
        const double *l = lo + 3 * i, *h = hi + 3 * i;
        double wd = fmax(h[0] - l[0], fmax(h[1] - l[1], h[2] - l[2]));
        int lv = 0;
        while (lv < CLAB_GRID_LEVELS && wd > lcell[lv]) lv++;
        level[i] = lv;
        if (lv < CLAB_GRID_LEVELS) on_level[lv]++;
    }
    /* sparse coarse levels and the widest bodies are kept out */
    for (int l = 1; l < CLAB_GRID_LEVELS; l++)
        if (on_level[l] < CLAB_GRID_MIN_LEVEL) on_level[l] = 0;
    for (size_t i = 0; i < c->nv; i++) {
        if (flag[i] & FLAG_PLANE) continue;
        if (level[i] == CLAB_GRID_LEVELS || !on_level[level[i]]) gd->large[c->nlarge++] = (int)i;
        else gd->grid[c->ngrid++] = (int)i;
    }
    /* grid origin: the median center of up to 255 grid bodies spread over the list, so a few
     * bodies far away (flying off) do not stretch the cell coordinates of the rest */
    const size_t ngrid = c->ngrid, stride = ngrid / 255 + 1;
    for (int k = 0; k < 3; k++) c->origin[k] = 0.0;
    for (int k = 0; k < 3 && ngrid; k++) {
        size_t ns = 0;
        for (size_t g = 0; g < ngrid; g += stride) {
            int i = gd->grid[g];
            gd->width[ns++] = 0.5 * (lo[3 * i + k] + hi[3 * i + k]);
        }
        c->origin[k] = gsl_stats_median(gd->width, 1, ns);
    }
}

/* step 3: each grid body's cell range (at most 2 cells a side), the entry count, and the map
 * of cells to buckets: dense when the occupied cell boxes hold at most 8 cells an entry, else
 * hashed */
static void grid_cells(clab_grid *gd, grid_call *c)
{
    const double *lo = gd->lo, *hi = gd->hi;
    int32_t *clo = gd->clo, *chi = gd->chi;
    const int32_t *level = gd->level;
    size_t nent = 0;
    int32_t bot[CLAB_GRID_LEVELS][3], top[CLAB_GRID_LEVELS][3]; /* occupied cell box: [bot, top) */
    for (int l = 0; l < CLAB_GRID_LEVELS; l++)
        for (int k = 0; k < 3; k++) {
            bot[l][k] = INT32_MAX;
            top[l][k] = INT32_MIN;
        }
    for (size_t g = 0; g < c->ngrid; g++) {
        int i = gd->grid[g], lv = level[i];
        size_t cells = 1;
        for (int k = 0; k < 3; k++) {
            clo[3 * i + k] = cell_of(lo[3 * i + k], c->origin[k], c->inv_cell[lv]);
            chi[3 * i + k] = cell_of(hi[3 * i + k], c->origin[k], c->inv_cell[lv]);
            if (clo[3 * i + k] < bot[lv][k]) bot[lv][k] = clo[3 * i + k];
            if (chi[3 * i + k] + 1 > top[lv][k]) top[lv][k] = chi[3 * i + k] + 1;
            cells *= (size_t)(chi[3 * i + k] - clo[3 * i + k] + 1);
        }
        nent += cells;
    }
    bucket_map *map = &c->map;
    const size_t *on_level = c->on_level;
    double dense_cells = 0.0;
    for (int l = 0; l < CLAB_GRID_LEVELS; l++)
        if (on_level[l])
            dense_cells += ((double)top[l][0] - bot[l][0]) * ((double)top[l][1] - bot[l][1]) *
                           ((double)top[l][2] - bot[l][2]);
    size_t nbuckets;
    map->dense = dense_cells <= 8.0 * (double)nent + 4096.0;
    if (map->dense) {
        nbuckets = 0;
        for (int l = 0; l < CLAB_GRID_LEVELS; l++) {
            map->off[l] = nbuckets;
            for (int k = 0; k < 3; k++) {
                map->base[l][k] = on_level[l] ? bot[l][k] : 0;
                map->dim[l][k] = on_level[l] ? top[l][k] - bot[l][k] : 0;
            }
            nbuckets += (size_t)map->dim[l][0] * (size_t)map->dim[l][1] * (size_t)map->dim[l][2];
        }
        map->mask = 0;
    } else {
        nbuckets = 16;
        while (nbuckets < 2 * nent) nbuckets *= 2;
        map->mask = nbuckets - 1;
    }
    c->nent = nent;
    c->nbuckets = nbuckets;
}

/* steps 4 and 5: the slots (grid bodies counting-sorted by the bucket of their low cell, their
 * bounds copied in that order), then the entries in slot order, counting-sorted by bucket */
static void grid_fill(clab_grid *gd, const grid_call *c)
{
    const size_t ngrid = c->ngrid, nbuckets = c->nbuckets;
    const bucket_map *map = &c->map;
    size_t *start = gd->start, *key = gd->key, *ebucket = gd->ebucket;
    grid_entry *ent = gd->ent, *sorted = gd->sorted;
    for (size_t g = 0; g < ngrid; g++) {
        int i = gd->grid[g];
        key[g] = bucket(map, gd->level[i], gd->clo + 3 * i);
    }
    bucket_starts(start, nbuckets, key, ngrid);
    for (size_t g = 0; g < ngrid; g++) {
        int i = gd->grid[g];
        size_t s = start[key[g]]++;
        for (int k = 0; k < 3; k++) {
            gd->slo[3 * s + k] = gd->lo[3 * i + k];
            gd->shi[3 * s + k] = gd->hi[3 * i + k];
            gd->sclo[3 * s + k] = gd->clo[3 * i + k];
            gd->schi[3 * s + k] = gd->chi[3 * i + k];
        }
        gd->sbody[s] = i;
        gd->slevel[s] = gd->level[i];
        gd->sfixed[s] = gd->flag[i] & FLAG_FIXED;
    }
    const int32_t *sclo = gd->sclo, *schi = gd->schi;
    size_t e = 0;
    for (size_t s = 0; s < ngrid; s++) {
        grid_entry t;
        t.slot = (int32_t)s;
        t.level = gd->slevel[s];
        for (t.c[2] = sclo[3 * s + 2]; t.c[2] <= schi[3 * s + 2]; t.c[2]++)
            for (t.c[1] = sclo[3 * s + 1]; t.c[1] <= schi[3 * s + 1]; t.c[1]++)
                for (t.c[0] = sclo[3 * s]; t.c[0] <= schi[3 * s]; t.c[0]++) {
                    ebucket[e] = bucket(map, t.level, t.c);
                    ent[e++] = t;
                }
    }
    bucket_starts(start, nbuckets, ebucket, c->nent);
    for (size_t k = 0; k < c->nent; k++) sorted[start[ebucket[k]]++] = ent[k];
    bucket_unshift(start, nbuckets);
}

/* step 6, pairs on one level: bodies sharing a cell, reported from the low corner of their
 * overlap (a dense map has one cell a bucket, so the cell test is only needed when hashed;
 * the overlap test first: it rejects most pairs, and the tests have no side effects).
 * 1 when out of memory */
static int grid_pairs_level(clab_grid *gd, const grid_call *c, size_t *np)
{
    const size_t *start = gd->start;
    const grid_entry *sorted = gd->sorted;
    const double *slo = gd->slo, *shi = gd->shi;
    const int32_t *sclo = gd->sclo;
    const int *sbody = gd->sbody;
    const unsigned char *sfixed = gd->sfixed;
    const int hashed = !c->map.dense;
    for (size_t b = 0; b < c->nbuckets; b++)
        for (size_t p = start[b]; p < start[b + 1]; p++) {
            const grid_entry *E = &sorted[p];
            int32_t si = E->slot;
            for (size_t q = p + 1; q < start[b + 1]; q++) {
                int32_t sj = sorted[q].slot;
                if ((sfixed[si] && sfixed[sj]) || (hashed && !same_cell(&sorted[q], E->level, E->c))) continue;
                if (!clab_boxes_overlap(slo + 3 * si, shi + 3 * si, slo + 3 * sj, shi + 3 * sj)) continue;
                if (!owns_pair(sclo + 3 * si, sclo + 3 * sj, E->c)) continue;
                if (push_pair(gd, np, sbody[si], sbody[sj])) return 1;
            }
        }
    return 0;
}

/* step 6, pairs across levels: each slot looks up its cells on every coarser level in use.
 * 1 when out of memory */
static int grid_pairs_across(clab_grid *gd, const grid_call *c, size_t *np)
{
    const size_t *start = gd->start;
    const grid_entry *sorted = gd->sorted;
    const double *slo = gd->slo, *shi = gd->shi;
    const int32_t *sclo = gd->sclo, *slevel = gd->slevel;
    const int *sbody = gd->sbody;
    const unsigned char *sfixed = gd->sfixed;
    for (size_t s = 0; s < c->ngrid; s++) {
        for (int L = slevel[s] + 1; L < CLAB_GRID_LEVELS; L++) {
            if (!c->on_level[L]) continue;
            int32_t a[3], z[3], cc[3];
            for (int k = 0; k < 3; k++) {
                a[k] = cell_of(slo[3 * s + k], c->origin[k], c->inv_cell[L]);
                z[k] = cell_of(shi[3 * s + k], c->origin[k], c->inv_cell[L]);
            }
            for (cc[2] = a[2]; cc[2] <= z[2]; cc[2]++)
                for (cc[1] = a[1]; cc[1] <= z[1]; cc[1]++)
                    for (cc[0] = a[0]; cc[0] <= z[0]; cc[0]++) {
                        size_t b = bucket(&c->map, L, cc);
                        if (b == NO_BUCKET) continue;
                        for (size_t p = start[b]; p < start[b + 1]; p++) {
                            int32_t sj = sorted[p].slot;
                            if ((sfixed[s] && sfixed[sj]) || !same_cell(&sorted[p], L, cc)) continue;
                            if (!owns_pair(a, sclo + 3 * sj, cc)) continue;
                            if (!clab_boxes_overlap(slo + 3 * s, shi + 3 * s, slo + 3 * sj, shi + 3 * sj)) continue;
                            if (push_pair(gd, np, sbody[s], sbody[sj])) return 1;
                        }
                    }
        }
    }
    return 0;
}

/* step 6, large bodies against every other bounded body (grid slots, then the later large
 * ones), and planes against every bounded body. 1 when out of memory */
static int grid_pairs_large(clab_grid *gd, const clab_world *w, double margin, const grid_call *c, size_t *np)
{
    const double *lo = gd->lo, *hi = gd->hi, *slo = gd->slo, *shi = gd->shi;
    const unsigned char *flag = gd->flag, *sfixed = gd->sfixed;
    const int *sbody = gd->sbody;
    for (size_t g = 0; g < c->nlarge; g++) {
        int i = gd->large[g];
        const double *li = lo + 3 * i, *hi_ = hi + 3 * i;
        int fi = flag[i] & FLAG_FIXED;
        for (size_t s = 0; s < c->ngrid; s++) {
            if ((fi && sfixed[s]) || !clab_boxes_overlap(li, hi_, slo + 3 * s, shi + 3 * s)) continue;
            if (push_pair(gd, np, i, sbody[s])) return 1;
        }
        for (size_t h = g + 1; h < c->nlarge; h++) {
            int j = gd->large[h];
            if ((fi && (flag[j] & FLAG_FIXED)) || !clab_boxes_overlap(li, hi_, lo + 3 * j, hi + 3 * j)) continue;
            if (push_pair(gd, np, i, j)) return 1;
        }
    }
    for (size_t g = 0; g < c->nplanes; g++) {
        int i = gd->planes[g];
        const double *m = gd->pm + 3 * g;
        clab_vec3 r = w->bodies[i].r;
        unsigned char skip = (flag[i] & FLAG_FIXED) ? FLAG_PLANE | FLAG_FIXED : FLAG_PLANE;
        for (size_t j = 0; j < c->n; j++) {
            if (flag[j] & skip) continue;
            if (!clab_box_meets_plane(lo + 3 * j, hi + 3 * j, m, r, margin)) continue;
            if (push_pair(gd, np, i, (int)j)) return 1;
        }
    }
    return 0;
}

/* step 7: order; with periodic images, a pair can be found more than once. Returns the pairs
 * left */
static size_t grid_order(clab_grid *gd, const grid_call *c, size_t np)
{
    sort_pairs(gd, np, c->n);
    if (c->nv > c->n && np > 1) {
        size_t m = 1;
        for (size_t k = 1; k < np; k++)
            if (gd->pairs[k].i != gd->pairs[m - 1].i || gd->pairs[k].j != gd->pairs[m - 1].j)
                gd->pairs[m++] = gd->pairs[k];
        np = m;
    }
    return np;
}

int clab_grid_pairs(clab_grid *gd, const clab_world *w, double margin, clab_broadphase_stats *st, size_t *npairs,
                    clab_error *err)
{
    grid_call c;
    memset(&c, 0, sizeof c);
    c.n = c.nv = w->nbodies;
    *npairs = 0;
    if (reserve_bodies(gd, c.n)) return clab_error_set(err, CLAB_ENOMEM, "out of memory in the broad phase");
    gd->nreal = c.n;
    const clab_periodic *per = &w->periodic;
    int rc = grid_bounds(gd, w, margin, &c, err);
    if (rc == CLAB_OK && (per->on[0] || per->on[1] || per->on[2])) rc = grid_images(gd, per, &c, err);
    if (rc) return rc;
    grid_levels(gd, &c);
    grid_cells(gd, &c);
    if (reserve_grid(gd, c.nent, c.nbuckets))
        return clab_error_set(err, CLAB_ENOMEM, "out of memory in the broad phase");
    grid_fill(gd, &c);
    size_t np = 0;
    if (grid_pairs_level(gd, &c, &np) || grid_pairs_across(gd, &c, &np) || grid_pairs_large(gd, w, margin, &c, &np))
        return clab_error_set(err, CLAB_ENOMEM, "out of memory in the broad phase (%zu pairs)", np);
    np = grid_order(gd, &c, np);
    st->cell = c.cell;
    st->levels = 0;
    for (int l = 0; l < CLAB_GRID_LEVELS; l++) st->levels += c.on_level[l] > 0;
    st->grid_bodies = c.ngrid;
    st->coarse_bodies = c.ngrid - c.on_level[0];
    st->large_bodies = c.nlarge;
    st->planes = c.nplanes;
    st->entries = c.nent;
    st->buckets = c.nbuckets;
    st->dense = c.map.dense;
    st->pairs = np;
    st->sphere_list = 0;
    *npairs = np;
    return CLAB_OK;
}
