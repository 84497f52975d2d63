/* broadphase.c: the uniform-grid broad phase, with coarser levels for wider bodies.
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
 * All arrays grow to the largest scene seen and are reused, so a steady simulation does not
 * allocate. */
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <gsl/gsl_statistics_double.h>

#include "clab_clock.h"
#include "collide_internal.h"

#define NO_BUCKET ((size_t)-1)
enum { FLAG_FIXED = 1, FLAG_PLANE = 2 };

clab_collider *clab_collider_create(void)
{
    clab_collider *cd = calloc(1, sizeof(clab_collider));
    if (cd) cd->skin = -1.0;
    return cd;
}

void clab_collider_set_skin(clab_collider *cd, double skin)
{
    cd->skin = skin;
    cd->kept = 0;
}

void clab_collider_invalidate(clab_collider *cd) { cd->kept = 0; }

void clab_collider_destroy(clab_collider *cd)
{
    if (!cd) return;
    for (size_t k = 0; k < cd->ntbuf; k++) clab_contacts_free(&cd->tbuf[k]);
    free(cd->tbuf);
    free(cd->part);
    for (int t = 0; t < cd->sl_nbuf; t++) free(cd->sl_buf[t]);
    free(cd->sl_buf);
    free(cd->sl_bufcap);
    void *arrays[] = {cd->lo,    cd->hi,     cd->clo,   cd->chi,    cd->level,  cd->width,  cd->grid,
                      cd->large, cd->planes, cd->pm,    cd->flag, cd->owner, cd->key,    cd->count,  cd->slo,    cd->shi,
                      cd->sclo,  cd->schi,   cd->sbody, cd->slevel, cd->sfixed, cd->ent,    cd->sorted,
                      cd->ebucket, cd->start, cd->pairs, cd->tmp, cd->row, cd->gen, cd->nbr, cd->ref_r, cd->ref_e,
                      cd->ref_R, cd->ref_kind, cd->ref_tmp, cd->hot,
                      cd->sl_lo, cd->sl_hi, cd->sl_cell, cd->sl_cnt, cd->sl_pmask, cd->sl_src, cd->sl_thr, cd->sl_slot,
                      cd->sl_cstart, cd->sl_ccount, cd->sl_stage, cd->sl_slotof, cd->low, cd->prow};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) free(arrays[k]);
    free(cd);
}

void clab_broadphase_stats_get(const clab_collider *cd, clab_broadphase_stats *st) { *st = cd->st; }

int clab_bp_resize(void *pp, size_t n, size_t sz)
{
    void **p = pp;
    void *q = realloc(*p, (n ? n : 1) * sz);
    if (!q) return 1;
    *p = q;
    return 0;
}

int clab_pair_list_reserve(clab_collider *cd, size_t n, size_t np)
{
    if (n + 1 > cd->cap_rows || !cd->row) {
        size_t cap = n + n / 2 + 16;
        if (clab_bp_resize(&cd->row, cap, sizeof(size_t)) || clab_bp_resize(&cd->gen, cap, 1)) return 1;
        cd->cap_rows = cap;
    }
    if (np + CLAB_PREFETCH_AHEAD > cd->cap_nbr || !cd->nbr) {
        size_t cap = np + np / 4 + 1024;
        if (clab_bp_resize(&cd->nbr, cap, sizeof(uint32_t))) return 1;
        cd->cap_nbr = cap;
    }
    return 0;
}

static int reserve_bodies(clab_collider *cd, size_t n)
{
    if (n <= cd->cap_bodies) return 0;
    size_t cap = n + n / 2 + 16;
    if (clab_bp_resize(&cd->lo, 3 * cap, sizeof(double)) || clab_bp_resize(&cd->hi, 3 * cap, sizeof(double)) ||
        clab_bp_resize(&cd->clo, 3 * cap, sizeof(int32_t)) || clab_bp_resize(&cd->chi, 3 * cap, sizeof(int32_t)) ||
        clab_bp_resize(&cd->level, cap, sizeof(int32_t)) || clab_bp_resize(&cd->width, cap, sizeof(double)) ||
        clab_bp_resize(&cd->grid, cap, sizeof(int)) || clab_bp_resize(&cd->large, cap, sizeof(int)) ||
        clab_bp_resize(&cd->planes, cap, sizeof(int)) || clab_bp_resize(&cd->pm, 3 * cap, sizeof(double)) ||
        clab_bp_resize(&cd->owner, cap, sizeof(int)) ||
        clab_bp_resize(&cd->flag, cap, 1) ||
        clab_bp_resize(&cd->key, cap, sizeof(size_t)) || clab_bp_resize(&cd->count, cap + 1, sizeof(size_t)) ||
        clab_bp_resize(&cd->slo, 3 * cap, sizeof(double)) || clab_bp_resize(&cd->shi, 3 * cap, sizeof(double)) ||
        clab_bp_resize(&cd->sclo, 3 * cap, sizeof(int32_t)) || clab_bp_resize(&cd->schi, 3 * cap, sizeof(int32_t)) ||
        clab_bp_resize(&cd->sbody, cap, sizeof(int)) || clab_bp_resize(&cd->slevel, cap, sizeof(int32_t)) ||
        clab_bp_resize(&cd->sfixed, cap, 1))
        return 1;
    cd->cap_bodies = cap;
    return 0;
}

static int reserve_grid(clab_collider *cd, size_t nent, size_t nbuckets)
{
    if (nent > cd->cap_entries) {
        size_t cap = nent + nent / 2 + 64;
        if (clab_bp_resize(&cd->ent, cap, sizeof(grid_entry)) || clab_bp_resize(&cd->sorted, cap, sizeof(grid_entry)) ||
            clab_bp_resize(&cd->ebucket, cap, sizeof(size_t)))
            return 1;
        cd->cap_entries = cap;
    }
    if (nbuckets > cd->cap_buckets || !cd->start) {
        size_t cap = nbuckets + nbuckets / 2;
        if (clab_bp_resize(&cd->start, cap + 1, sizeof(size_t))) return 1;
        cd->cap_buckets = cap;
    }
    return 0;
}

/* append the pair (i, j) of virtual indices as the bodies (min, max); a body against its own
 * periodic image is no pair */
static inline int push_pair(clab_collider *cd, size_t *np, int i, int j)
{
    if ((size_t)i >= cd->nreal) i = cd->owner[(size_t)i - cd->nreal];
    if ((size_t)j >= cd->nreal) j = cd->owner[(size_t)j - cd->nreal];
    if (i == j) return 0;
    if (*np == cd->cap_pairs) {
        size_t cap = cd->cap_pairs ? 2 * cd->cap_pairs : 1024;
        if (clab_bp_resize(&cd->pairs, cap, sizeof(clab_pair)) || clab_bp_resize(&cd->tmp, cap, sizeof(clab_pair))) return 1;
        cd->cap_pairs = cap;
    }
    cd->pairs[*np].i = i < j ? i : j;
    cd->pairs[*np].j = i < j ? j : i;
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
    case CLAB_SHAPE_BOX: {
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
static void sort_pairs(clab_collider *cd, size_t np, size_t nbodies)
{
    if (np < 2) return;
    size_t *count = cd->count;
    clab_pair *a = cd->pairs, *b = cd->tmp;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t k = 0; k <= nbodies; k++) count[k] = 0;
        for (size_t p = 0; p < np; p++) count[(pass ? a[p].i : a[p].j) + 1]++;
        for (size_t k = 0; k < nbodies; k++) count[k + 1] += count[k];
        for (size_t p = 0; p < np; p++) b[count[pass ? a[p].i : a[p].j]++] = a[p];
        clab_pair *t = a; a = b; b = t;
    }
    /* two passes: the result is back in cd->pairs */
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

int clab_broadphase(clab_collider *cd, const clab_world *w, double margin, const clab_pair **pairs, size_t *npairs,
                    clab_error *err)
{
    size_t n = w->nbodies, np = 0;
    cd->kept = 0; /* the next clab_collide rebuilds its list, as before the list had rows of its own
                   * (cd->row, cd->nbr, which this call does not write) */
    const clab_body *bodies = w->bodies;
    *pairs = NULL;
    *npairs = 0;
    if (reserve_bodies(cd, n)) return clab_error_set(err, CLAB_ENOMEM, "out of memory in the broad phase");
    cd->nreal = n;
    const clab_periodic *per = &w->periodic;
    const int periodic = per->on[0] || per->on[1] || per->on[2];

    /* 1. bounds, widths and flags; planes apart */
    size_t nb = 0, ngrid = 0, nlarge = 0, nplanes = 0, nv = n;
    for (size_t i = 0; i < n; i++) {
        const clab_body *b = &bodies[i];
        if (!(clab_v3_isfinite(b->r) && isfinite(b->e.e0) && isfinite(b->e.e1) && isfinite(b->e.e2) &&
              isfinite(b->e.e3)))
            return clab_error_set(err, CLAB_ENUMERIC,
                                  "broad phase: body %zu (%s) has a non-finite position or orientation at t = %g s", i,
                                  clab_world_body_name(w, i), w->t);
        cd->flag[i] =
            (unsigned char)((b->fixed ? FLAG_FIXED : 0) | (b->shape.type == CLAB_SHAPE_PLANE ? FLAG_PLANE : 0));
        if (cd->flag[i] & FLAG_PLANE) {
            clab_vec3 m = clab_q_rotate(b->e, clab_v3(0.0, 0.0, 1.0));
            cd->pm[3 * nplanes] = m.x;
            cd->pm[3 * nplanes + 1] = m.y;
            cd->pm[3 * nplanes + 2] = m.z;
            cd->planes[nplanes++] = (int)i;
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
            cd->lo[3 * i + k] = lv[k];
            cd->hi[3 * i + k] = hv[k];
        }
    }
    /* periodic images: a body whose bounds cross lo (hi) of a periodic axis gets an image a
     * period up (down), and one for every combination of such axes (at most 7); two bodies
     * that overlap through a shift s then have images (or themselves) that overlap directly,
     * per axis either body carrying that axis's part of s (the pairs map back to the bodies
     * and repeats are removed after the sort) */
    if (periodic) {
        size_t ng = 0;
        for (int pass = 0; pass < 2; pass++) {
            for (size_t i = 0; i < n; i++) {
                if (cd->flag[i] & FLAG_PLANE) continue;
                double shift[3] = {0.0, 0.0, 0.0};
                unsigned axes = 0;
                for (int k = 0; k < 3; k++) {
                    if (!per->on[k]) continue;
                    double L = per->hi[k] - per->lo[k];
                    if (cd->lo[3 * i + k] < per->lo[k]) shift[k] = L;
                    else if (cd->hi[3 * i + k] >= per->hi[k]) shift[k] = -L;
                    if (shift[k] != 0.0) axes |= 1u << k;
                }
                for (unsigned sub = axes; sub; sub = (sub - 1) & axes) {
                    if (pass == 1) {
                        size_t v = n + ng;
                        cd->owner[ng] = (int)i;
                        cd->flag[v] = cd->flag[i];
                        for (int k = 0; k < 3; k++) {
                            double t = (sub >> k) & 1u ? shift[k] : 0.0;
                            cd->lo[3 * v + k] = cd->lo[3 * i + k] + t;
                            cd->hi[3 * v + k] = cd->hi[3 * i + k] + t;
                        }
                    }
                    ng++;
                }
            }
            if (pass == 0) {
                if (reserve_bodies(cd, n + ng))
                    return clab_error_set(err, CLAB_ENOMEM, "out of memory in the broad phase");
                ng = 0;
            }
        }
        nv = n + ng;
    }
    double *lo = cd->lo, *hi = cd->hi;
    int32_t *clo = cd->clo, *chi = cd->chi, *level = cd->level;
    unsigned char *flag = cd->flag;
    for (size_t i = 0; i < nv; i++) {
        if (flag[i] & FLAG_PLANE) continue;
        const double *l = lo + 3 * i, *h = hi + 3 * i;
        cd->width[nb++] = fmax(h[0] - l[0], fmax(h[1] - l[1], h[2] - l[2]));
    }

    /* 2. level-0 cell from the median width (gsl_stats_median reorders the scratch copy),
     * levels: the first whose cell holds the width */
    double cell = nb ? CLAB_GRID_CELL_SCALE * gsl_stats_median(cd->width, 1, nb) : 1.0;
    if (!(cell > 0.0) || !isfinite(cell)) cell = 1.0;
    double lcell[CLAB_GRID_LEVELS], inv_cell[CLAB_GRID_LEVELS];
    for (int l = 0; l < CLAB_GRID_LEVELS; l++) {
        lcell[l] = l ? 2.0 * lcell[l - 1] : cell;
        inv_cell[l] = 1.0 / lcell[l];
    }
    size_t on_level[CLAB_GRID_LEVELS] = {0};
    for (size_t i = 0; i < nv; i++) {
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
    for (size_t i = 0; i < nv; i++) {
        if (flag[i] & FLAG_PLANE) continue;
        if (level[i] == CLAB_GRID_LEVELS || !on_level[level[i]]) cd->large[nlarge++] = (int)i;
        else cd->grid[ngrid++] = (int)i;
    }

    /* grid origin: the median center of up to 255 grid bodies spread over the list, so a few
     * bodies far away (flying off) do not stretch the cell coordinates of the rest */
    double origin[3] = {0.0, 0.0, 0.0};
    size_t stride = ngrid / 255 + 1, ns = 0;
    for (int k = 0; k < 3 && ngrid; k++) {
        ns = 0;
        for (size_t g = 0; g < ngrid; g += stride) {
            int i = cd->grid[g];
            cd->width[ns++] = 0.5 * (lo[3 * i + k] + hi[3 * i + k]);
        }
        origin[k] = gsl_stats_median(cd->width, 1, ns);
    }

    /* 3. cell ranges (at most 2 cells a side), the entry count and each level's cell box */
    size_t nent = 0;
    int32_t bot[CLAB_GRID_LEVELS][3], top[CLAB_GRID_LEVELS][3]; /* occupied cell box: [bot, top) */
    for (int l = 0; l < CLAB_GRID_LEVELS; l++)
        for (int k = 0; k < 3; k++) {
            bot[l][k] = INT32_MAX;
            top[l][k] = INT32_MIN;
        }
    for (size_t g = 0; g < ngrid; g++) {
        int i = cd->grid[g], lv = level[i];
        size_t cells = 1;
        for (int k = 0; k < 3; k++) {
            clo[3 * i + k] = cell_of(lo[3 * i + k], origin[k], inv_cell[lv]);
            chi[3 * i + k] = cell_of(hi[3 * i + k], origin[k], inv_cell[lv]);
            if (clo[3 * i + k] < bot[lv][k]) bot[lv][k] = clo[3 * i + k];
            if (chi[3 * i + k] + 1 > top[lv][k]) top[lv][k] = chi[3 * i + k] + 1;
            cells *= (size_t)(chi[3 * i + k] - clo[3 * i + k] + 1);
        }
        nent += cells;
    }

    /* 4. buckets: dense when the occupied cell boxes hold at most 8 cells an entry, else hashed */
    bucket_map map;
    double dense_cells = 0.0;
    for (int l = 0; l < CLAB_GRID_LEVELS; l++)
        if (on_level[l])
            dense_cells += ((double)top[l][0] - bot[l][0]) * ((double)top[l][1] - bot[l][1]) *
                           ((double)top[l][2] - bot[l][2]);
    size_t nbuckets;
    map.dense = dense_cells <= 8.0 * (double)nent + 4096.0;
    if (map.dense) {
        nbuckets = 0;
        for (int l = 0; l < CLAB_GRID_LEVELS; l++) {
            map.off[l] = nbuckets;
            for (int k = 0; k < 3; k++) {
                map.base[l][k] = on_level[l] ? bot[l][k] : 0;
                map.dim[l][k] = on_level[l] ? top[l][k] - bot[l][k] : 0;
            }
            nbuckets += (size_t)map.dim[l][0] * (size_t)map.dim[l][1] * (size_t)map.dim[l][2];
        }
        map.mask = 0;
    } else {
        nbuckets = 16;
        while (nbuckets < 2 * nent) nbuckets *= 2;
        map.mask = nbuckets - 1;
    }
    if (reserve_grid(cd, nent, nbuckets)) return clab_error_set(err, CLAB_ENOMEM, "out of memory in the broad phase");
    size_t *start = cd->start, *key = cd->key, *ebucket = cd->ebucket;
    grid_entry *ent = cd->ent, *sorted = cd->sorted;

    /* 5. slots: grid bodies counting-sorted by the bucket of their low cell */
    for (size_t g = 0; g < ngrid; g++) {
        int i = cd->grid[g];
        key[g] = bucket(&map, level[i], clo + 3 * i);
    }
    bucket_starts(start, nbuckets, key, ngrid);
    for (size_t g = 0; g < ngrid; g++) {
        int i = cd->grid[g];
        size_t s = start[key[g]]++;
        for (int k = 0; k < 3; k++) {
            cd->slo[3 * s + k] = lo[3 * i + k];
            cd->shi[3 * s + k] = hi[3 * i + k];
            cd->sclo[3 * s + k] = clo[3 * i + k];
            cd->schi[3 * s + k] = chi[3 * i + k];
        }
        cd->sbody[s] = i;
        cd->slevel[s] = level[i];
        cd->sfixed[s] = flag[i] & FLAG_FIXED;
    }
    const double *slo = cd->slo, *shi = cd->shi;
    const int32_t *sclo = cd->sclo, *schi = cd->schi, *slevel = cd->slevel;
    const int *sbody = cd->sbody;
    const unsigned char *sfixed = cd->sfixed;

    /* 6. entries in slot order, counting-sorted by bucket */
    size_t e = 0;
    for (size_t s = 0; s < ngrid; s++) {
        grid_entry t;
        t.slot = (int32_t)s;
        t.level = slevel[s];
        for (t.c[2] = sclo[3 * s + 2]; t.c[2] <= schi[3 * s + 2]; t.c[2]++)
            for (t.c[1] = sclo[3 * s + 1]; t.c[1] <= schi[3 * s + 1]; t.c[1]++)
                for (t.c[0] = sclo[3 * s]; t.c[0] <= schi[3 * s]; t.c[0]++) {
                    ebucket[e] = bucket(&map, t.level, t.c);
                    ent[e++] = t;
                }
    }
    bucket_starts(start, nbuckets, ebucket, nent);
    for (size_t k = 0; k < nent; k++) sorted[start[ebucket[k]]++] = ent[k];
    bucket_unshift(start, nbuckets);

    /* 7. pairs on one level: bodies sharing a cell, reported from the low corner of their
     * overlap (a dense map has one cell a bucket, so the cell test is only needed when hashed;
     * the overlap test first: it rejects most pairs, and the tests have no side effects) */
    const int hashed = !map.dense;
    for (size_t b = 0; b < nbuckets; b++)
        for (size_t p = start[b]; p < start[b + 1]; p++) {
            const grid_entry *E = &sorted[p];
            int32_t si = E->slot;
            for (size_t q = p + 1; q < start[b + 1]; q++) {
                int32_t sj = sorted[q].slot;
                if ((sfixed[si] && sfixed[sj]) || (hashed && !same_cell(&sorted[q], E->level, E->c))) continue;
                if (!clab_boxes_overlap(slo + 3 * si, shi + 3 * si, slo + 3 * sj, shi + 3 * sj)) continue;
                if (!owns_pair(sclo + 3 * si, sclo + 3 * sj, E->c)) continue;
                if (push_pair(cd, &np, sbody[si], sbody[sj])) goto nomem;
            }
        }

    /* pairs across levels: each slot looks up its cells on every coarser level in use */
    for (size_t s = 0; s < ngrid; s++) {
        for (int L = slevel[s] + 1; L < CLAB_GRID_LEVELS; L++) {
            if (!on_level[L]) continue;
            int32_t a[3], z[3], c[3];
            for (int k = 0; k < 3; k++) {
                a[k] = cell_of(slo[3 * s + k], origin[k], inv_cell[L]);
                z[k] = cell_of(shi[3 * s + k], origin[k], inv_cell[L]);
            }
            for (c[2] = a[2]; c[2] <= z[2]; c[2]++)
                for (c[1] = a[1]; c[1] <= z[1]; c[1]++)
                    for (c[0] = a[0]; c[0] <= z[0]; c[0]++) {
                        size_t b = bucket(&map, L, c);
                        if (b == NO_BUCKET) continue;
                        for (size_t p = start[b]; p < start[b + 1]; p++) {
                            int32_t sj = sorted[p].slot;
                            if ((sfixed[s] && sfixed[sj]) || !same_cell(&sorted[p], L, c)) continue;
                            if (!owns_pair(a, sclo + 3 * sj, c)) continue;
                            if (!clab_boxes_overlap(slo + 3 * s, shi + 3 * s, slo + 3 * sj, shi + 3 * sj)) continue;
                            if (push_pair(cd, &np, sbody[s], sbody[sj])) goto nomem;
                        }
                    }
        }
    }

    /* large bodies against every other bounded body (grid slots, then the later large ones) */
    for (size_t g = 0; g < nlarge; g++) {
        int i = cd->large[g];
        const double *li = lo + 3 * i, *hi_ = hi + 3 * i;
        int fi = flag[i] & FLAG_FIXED;
        for (size_t s = 0; s < ngrid; s++) {
            if ((fi && sfixed[s]) || !clab_boxes_overlap(li, hi_, slo + 3 * s, shi + 3 * s)) continue;
            if (push_pair(cd, &np, i, sbody[s])) goto nomem;
        }
        for (size_t h = g + 1; h < nlarge; h++) {
            int j = cd->large[h];
            if ((fi && (flag[j] & FLAG_FIXED)) || !clab_boxes_overlap(li, hi_, lo + 3 * j, hi + 3 * j)) continue;
            if (push_pair(cd, &np, i, j)) goto nomem;
        }
    }

    /* planes against every bounded body */
    for (size_t g = 0; g < nplanes; g++) {
        int i = cd->planes[g];
        const double *m = cd->pm + 3 * g;
        clab_vec3 r = bodies[i].r;
        unsigned char skip = (flag[i] & FLAG_FIXED) ? FLAG_PLANE | FLAG_FIXED : FLAG_PLANE;
        for (size_t j = 0; j < n; j++) {
            if (flag[j] & skip) continue;
            if (!clab_box_meets_plane(lo + 3 * j, hi + 3 * j, m, r, margin)) continue;
            if (push_pair(cd, &np, i, (int)j)) goto nomem;
        }
    }

    /* 8. order; with periodic images, a pair can be found more than once */
    sort_pairs(cd, np, n);
    if (nv > n && np > 1) {
        size_t m = 1;
        for (size_t k = 1; k < np; k++)
            if (cd->pairs[k].i != cd->pairs[m - 1].i || cd->pairs[k].j != cd->pairs[m - 1].j)
                cd->pairs[m++] = cd->pairs[k];
        np = m;
    }
    cd->st.cell = cell;
    cd->st.levels = 0;
    for (int l = 0; l < CLAB_GRID_LEVELS; l++) cd->st.levels += on_level[l] > 0;
    cd->st.grid_bodies = ngrid;
    cd->st.coarse_bodies = ngrid - on_level[0];
    cd->st.large_bodies = nlarge;
    cd->st.planes = nplanes;
    cd->st.entries = nent;
    cd->st.buckets = nbuckets;
    cd->st.dense = map.dense;
    cd->st.pairs = np;
    cd->st.sphere_list = 0;
    *pairs = cd->pairs;
    *npairs = np;
    return CLAB_OK;
nomem:
    return clab_error_set(err, CLAB_ENOMEM, "out of memory in the broad phase (%zu pairs)", np);
}

/* ---- Verlet skin ----
 * The kept list was built with bounds grown by (margin + skin)/2 at the state (r0, e0). Every
 * point of a body moved since by at most d = |r - r0| + 2 R sin(theta/2), theta the rotation
 * from e0 to e (sin(theta/2) = sqrt(1 - (e0 . e)^2), no trig; spheres: d = |r - r0|, their
 * bounds do not turn), so its current box grown by margin/2 lies inside its box of the build
 * while d <= skin/2, and every pair the broad phase would report now is in the kept list.
 *
 * The reference state of a build: centers, shape kind (type x 2 + fixed), and for other
 * bodies than spheres the orientation and bound radius. A sphere's radius at the build is
 * its hot record's (clab_hot_body.R): the build (remember) and every kept call (max_motion)
 * write the hot records of all bodies from that call's state, after max_motion has compared
 * them, so at the start of a kept call they hold the last call's radii, which are the build's
 * (a change would have rebuilt). cd->hot_ref counts the records that do (0 once they are
 * reallocated: no reference, a rebuild). */


/* the motion of bodies [i0, i1) since the last build, into the maxima *dmax (any body's
 * largest point motion) and *d2max (a sphere's |r - r0|^2), *changed = 1 when something else
 * changed; their hot records refilled on the way. hmin2: the square of the smallest half
 * period (infinite when nothing is periodic); |d|^2 < hmin2 means every |d_k| < L_k/2 (the
 * argument of collide.c's narrow_rows), so the minimum image would leave d as it is */
static inline void block_motion(clab_collider *cd, const clab_world *w, clab_hot_body *hot, double hmin2, long i0,
                                long i1, double *dmax, double *d2max, int *changed)
{
    const clab_periodic *per = &w->periodic;
    for (long i = i0; i < i1; i++) {
        const clab_body *b = &w->bodies[i];
        unsigned char kind = (unsigned char)(2 * b->shape.type + (b->fixed != 0));
        int sphere = b->shape.type == CLAB_SHAPE_SPHERE;
        /* the build's radius: a sphere's in its hot record (read before the refill), else ref_R */
        double R = sphere ? b->shape.radius : clab_shape_bound_radius(&b->shape), R0 = sphere ? hot[i].R : cd->ref_R[i];
        clab_hot_fill(&hot[i], b);
        if (kind != cd->ref_kind[i] || R != R0) {
            *changed = 1;
            continue;
        }
        clab_vec3 d = clab_v3(b->r.x - cd->ref_r[3 * i], b->r.y - cd->ref_r[3 * i + 1], b->r.z - cd->ref_r[3 * i + 2]);
        double d2 = clab_v3_norm2(d), dm;
        if (!(d2 < hmin2)) { /* (NaN too: the minimum image leaves it NaN) */
            d = clab_world_min_image(per, d);
            d2 = clab_v3_norm2(d);
        }
        if (sphere) { /* sqrt is monotonic: max sqrt = sqrt max */
            if (!(d2 <= *d2max)) *d2max = isnan(d2) ? INFINITY : d2;
            continue;
        }
        const clab_quat *e0 = &cd->ref_e[i];
        if (b->shape.type == CLAB_SHAPE_PLANE) {
            if (d2 != 0.0 || b->e.e0 != e0->e0 || b->e.e1 != e0->e1 || b->e.e2 != e0->e2 || b->e.e3 != e0->e3)
                *changed = 1;
            continue;
        }
        double c = b->e.e0 * e0->e0 + b->e.e1 * e0->e1 + b->e.e2 * e0->e2 + b->e.e3 * e0->e3;
        double s2 = 1.0 - c * c;
        dm = sqrt(d2) + 2.0 * cd->ref_R[i] * sqrt(s2 > 0.0 ? s2 : 0.0);
        if (!(dm <= *dmax)) *dmax = isnan(dm) ? INFINITY : dm; /* a NaN forces a rebuild (which reports it) */
    }
}

/* the largest motion d of a body since the last build, INFINITY when something else changed
 * (a parallel max: the same for any thread count). By blocks of CLAB_BODY_BLOCK bodies, each
 * handed to cd->pass (clab_collide_with) while its bodies are still in the cache; thread t
 * takes the blocks of clab_thread_bodies */
static double max_motion(clab_collider *cd, const clab_world *w)
{
    double dmax = 0.0, d2max = 0.0; /* spheres: the largest |r - r0|^2, one square root at the end */
    int changed = 0;
    /* the narrow phase's hot records are gathered in the same pass (one read of the bodies a
     * step instead of two; clab_collide skips its own gather then) */
    clab_hot_body *hot = clab_collider_hot(cd, w->nbodies);
    if (!hot || cd->hot_ref != w->nbodies) return INFINITY; /* no sphere radii of the build: rebuild */
    double half[3]; /* the minimum image only past the smallest half period */
    clab_world_half_periods(&w->periodic, half);
    const double hmin = fmin(half[0], fmin(half[1], half[2])), hmin2 = hmin * hmin;
    const size_t n = w->nbodies;
    clab_body_pass *pass = cd->pass;
#pragma omp parallel reduction(max : dmax, d2max) reduction(| : changed) if (n > 4096)
    {
        int t = 0, T = 1;
#ifdef _OPENMP
        t = omp_get_thread_num();
        T = omp_get_num_threads();
#endif
        size_t b0, b1;
        clab_thread_bodies(n, t, T, &b0, &b1);
        for (size_t i0 = b0; i0 < b1; i0 += CLAB_BODY_BLOCK) {
            const size_t i1 = i0 + CLAB_BODY_BLOCK < b1 ? i0 + CLAB_BODY_BLOCK : b1;
            block_motion(cd, w, hot, hmin2, (long)i0, (long)i1, &dmax, &d2max, &changed);
            if (pass) pass->fn(pass->ctx, w, i0, i1);
        }
    }
    dmax = fmax(dmax, sqrt(d2max));
    cd->hot_ok = 1;
    return changed ? INFINITY : dmax;
}

clab_hot_body *clab_collider_hot(clab_collider *cd, size_t n)
{
    if (n > cd->cap_hot || !cd->hot) { /* never NULL unless out of memory, even for n = 0 */
        /* 64-byte aligned: two 32-byte records a cache line, none straddling two (malloc gives
         * 16-byte alignment, and where the records fall then depends on the other allocations);
         * an even count, so the size is a multiple of the alignment; the records are refilled
         * every call, so nothing is copied */
        size_t cap = (n + n / 2 + 16) & ~(size_t)1;
        clab_hot_body *h = aligned_alloc(64, cap * sizeof *h);
        if (!h) return NULL;
        free(cd->hot);
        cd->hot = h;
        cd->cap_hot = cap;
        cd->hot_ref = 0; /* they no longer hold the skin's reference radii */
    }
    return cd->hot;
}

/* Scratch for the median of n radii: the storage of clab_collide's output while the broad
 * phase runs (its records are dead until the narrow phase writes them, and a dense world's
 * is far larger than 8 bytes a body; grown when smaller, as the sphere list grows it for its
 * own scratch, broadphase_spheres.c), else the collider's own array (written only then, so
 * its pages cost nothing when it is not used). NULL when out of memory. */
static double *median_scratch(clab_collider *cd, size_t n)
{
    clab_contacts *s = cd->scratch;
    if (s && n) {
        size_t need = (n * sizeof(double) + sizeof(clab_contact) - 1) / sizeof(clab_contact);
        if (need > s->cap) {
            clab_contact *c = realloc(s->c, need * sizeof *c); /* the records are dead: nothing to keep */
            if (c) {
                s->c = c;
                s->cap = need;
            }
        }
        if (need <= s->cap) return (double *)(void *)s->c;
    }
    if (n > cd->cap_tmp) {
        if (clab_bp_resize(&cd->ref_tmp, n, sizeof(double))) return NULL;
        cd->cap_tmp = n;
    }
    return cd->ref_tmp;
}

/* remember the state of a build; returns the skin for it (automatic: a fraction of the median
 * bound radius of the bounded bodies) and the rounding allowance of the build's bounds */
static int remember(clab_collider *cd, const clab_world *w, double margin, double *skin, double *slack)
{
    size_t n = w->nbodies;
    if (n > cd->cap_ref) {
        size_t cap = n + n / 2 + 16;
        if (clab_bp_resize(&cd->ref_r, 3 * cap, sizeof(double)) || clab_bp_resize(&cd->ref_e, cap, sizeof(clab_quat)) ||
            clab_bp_resize(&cd->ref_R, cap, sizeof(double)) || clab_bp_resize(&cd->ref_kind, cap, 1))
            return 1;
        cd->cap_ref = cap;
    }
    /* the hot records hold the build's sphere radii (and serve this call's narrow phase) */
    clab_hot_body *hot = clab_collider_hot(cd, n);
    if (!hot) return 1;
    /* the reference state, and the scale of the coordinates (a parallel max: the same for any
     * thread count) */
    double big = 0.0;
    const long nl = (long)n;
#pragma omp parallel for schedule(static) reduction(max : big) if (nl > 4096)
    for (long i = 0; i < nl; i++) {
        const clab_body *b = &w->bodies[i];
        double R = b->shape.type == CLAB_SHAPE_SPHERE ? b->shape.radius : clab_shape_bound_radius(&b->shape);
        cd->ref_r[3 * i] = b->r.x;
        cd->ref_r[3 * i + 1] = b->r.y;
        cd->ref_r[3 * i + 2] = b->r.z;
        /* the orientation and bound radius only where max_motion reads them: a turning sphere
         * does not move its bounds, and its radius is in its hot record, so the spheres'
         * entries are never written, and a world of spheres never touches (never makes
         * resident) the pages of ref_e and ref_R */
        if (b->shape.type != CLAB_SHAPE_SPHERE) {
            cd->ref_e[i] = b->e;
            cd->ref_R[i] = R;
        }
        clab_hot_fill(&hot[i], b);
        cd->ref_kind[i] = (unsigned char)(2 * b->shape.type + (b->fixed != 0));
        if (b->shape.type != CLAB_SHAPE_PLANE) big = fmax(big, fabs(b->r.x) + fabs(b->r.y) + fabs(b->r.z) + R);
    }
    cd->hot_ref = n;
    cd->hot_ok = 1;
    *skin = cd->skin;
    if (!(cd->skin >= 0.0)) { /* automatic: the median bound radius of the bounded bodies */
        double *tmp = n ? median_scratch(cd, n) : NULL;
        if (n && !tmp) return 1;
        size_t nb = 0;
        for (size_t i = 0; i < n; i++)
            if (cd->ref_kind[i] >> 1 != CLAB_SHAPE_PLANE)
                tmp[nb++] = cd->ref_kind[i] >> 1 == CLAB_SHAPE_SPHERE ? hot[i].R : cd->ref_R[i];
        *skin = nb ? CLAB_SKIN_AUTO * gsl_stats_median(tmp, 1, nb) : 0.0;
    }
    if (!isfinite(*skin)) *skin = 0.0;
    for (int k = 0; k < 3; k++)
        if (w->periodic.on[k]) big = fmax(big, fabs(w->periodic.lo[k]) + fabs(w->periodic.hi[k]));
    /* the bounds are rounded at the scale of the coordinates: grow the build by a few ulps of
     * it, so the containment above holds in floating point too */
    *slack = isfinite(big) ? 16.0 * DBL_EPSILON * (big + margin + *skin) : 0.0;
    cd->nref = n;
    cd->ref_margin = margin;
    cd->ref_skin = *skin;
    cd->ref_periodic = w->periodic;
    return 0;
}

/* a sphere whose radius is a finite number >= 0 (the narrow phase's sphere rows bound the partners'
 * radii by the list's Rmax) */
static inline int plain_sphere(const clab_body *b)
{
    return b->shape.type == CLAB_SHAPE_SPHERE && b->shape.radius >= 0.0 && b->shape.radius < INFINITY;
}

/* The kept list keeps a pair of two spheres only while their centers (minimum image) are
 * within R_i + R_j + M, M = margin + skin + slack, like a distance-based Verlet list: boxes
 * grown by M/2 also pair spheres that are up to sqrt(3) farther apart along a diagonal (about
 * 1.6x as many pairs on a dense packing). A dropped pair cannot come within the margin before
 * the next rebuild: each body moves at most skin/2 until then, so the gap stays above
 * margin + slack. The factor (1 + 2e-10) on the squares is the narrow phase's allowance.
 * The np pairs of cd->pairs (sorted by (i, j)) that pass go to the rows cd->row, cd->nbr,
 * order kept, a row with a body other than a plain sphere marked in cd->gen, Rmax the largest
 * radius of the plain spheres; returns the pairs kept, or (size_t)-1 when out of memory. */
static size_t keep_near_spheres(clab_collider *cd, const clab_world *w, double M, size_t np)
{
    const clab_periodic *per = &w->periodic;
    const int periodic = per->on[0] || per->on[1] || per->on[2];
    const clab_body *bodies = w->bodies;
    const clab_pair *pairs = cd->pairs;
    const size_t n = w->nbodies;
    if (clab_pair_list_reserve(cd, n, np)) return (size_t)-1;
    size_t kept = 0, k = 0;
    double Rmax = 0.0;
    for (size_t i = 0; i < n; i++) {
        const clab_body *A = &bodies[i];
        int gen = !plain_sphere(A);
        if (!gen && A->shape.radius > Rmax) Rmax = A->shape.radius;
        cd->row[i] = kept;
        for (; k < np && (size_t)pairs[k].i == i; k++) {
            const clab_body *B = &bodies[pairs[k].j];
            if (A->shape.type == CLAB_SHAPE_SPHERE && B->shape.type == CLAB_SHAPE_SPHERE) {
                clab_vec3 d = clab_v3_sub(B->r, A->r);
                if (periodic) d = clab_world_min_image(per, d);
                double S = A->shape.radius + B->shape.radius + M;
                if (S > 0.0 && clab_v3_dot(d, d) > S * S * (1.0 + 2e-10)) continue;
            }
            if (!plain_sphere(B)) gen = 1;
            cd->nbr[kept++] = (uint32_t)pairs[k].j;
        }
        cd->gen[i] = (unsigned char)gen;
    }
    cd->row[n] = kept;
    for (size_t u = 0; u < CLAB_PREFETCH_AHEAD; u++) cd->nbr[kept + u] = 0;
    cd->list_Rmax = Rmax;
    return kept;
}

int clab_broadphase_kept(clab_collider *cd, const clab_world *w, double margin, clab_pair_list *list,
                         clab_error *err)
{
    cd->st.calls++;
    list->n = w->nbodies;
    list->row = cd->row;
    list->gen = cd->gen;
    list->nbr = cd->nbr;
    list->Rmax = cd->list_Rmax;
    const double t0 = clab_clock();
    const int keep = cd->kept && cd->skin != 0.0 && cd->nref == w->nbodies && cd->ref_margin == margin &&
                     memcmp(&cd->ref_periodic, &w->periodic, sizeof w->periodic) == 0 &&
                     max_motion(cd, w) <= 0.5 * cd->ref_skin;
    const double t1 = clab_clock();
    cd->st.t_skin += t1 - t0;
    if (keep) {
        list->np = cd->kept_np;
        return CLAB_OK;
    }
    cd->kept = 0;
    double skin = 0.0, slack = 0.0;
    cd->kept = 0; /* until this build is complete: a failed one leaves no list to keep */
    if (cd->skin != 0.0 && remember(cd, w, margin, &skin, &slack))
        return clab_error_set(err, CLAB_ENOMEM, "out of memory in the broad phase");
    /* all spheres of similar size: the cell list gives the same list at once
     * (broadphase_spheres.c); else the general grid, then the distance filter */
    size_t np = 0;
    int fast = clab_sphere_list(cd, w, margin + skin + slack, &np);
    if (fast < 0) return clab_error_set(err, CLAB_ENOMEM, "out of memory in the broad phase");
    if (fast != 0) {
        const clab_pair *pairs;
        int rc = clab_broadphase(cd, w, margin + skin + slack, &pairs, &np, err);
        if (rc) return rc;
        np = keep_near_spheres(cd, w, margin + skin + slack, np);
        if (np == (size_t)-1) return clab_error_set(err, CLAB_ENOMEM, "out of memory in the broad phase");
    }
    list->row = cd->row;
    list->gen = cd->gen;
    list->nbr = cd->nbr;
    list->Rmax = cd->list_Rmax;
    list->np = np;
    cd->st.pairs = np;
    cd->st.rebuilds++;
    cd->st.t_build += clab_clock() - t1;
    cd->builds++;
    cd->st.skin = skin;
    cd->kept = cd->skin != 0.0;
    cd->kept_np = np;
    return CLAB_OK;
}
