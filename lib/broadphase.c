/* broadphase.c: the uniform-grid broad phase.
 *
 * 1. bounds: every body's world box, grown by margin/2 (clab_collide_bounds);
 * 2. classes: planes (infinite), large bodies (wider than CLAB_GRID_LARGE_CELLS cells) and
 *    grid bodies; the cell size is CLAB_GRID_CELL_SCALE x the median width of the bounded
 *    bodies (robust to a few huge boxes and to a tail of small grains);
 * 3. grid: each grid body goes into every cell its box covers; cells are hashed into a
 *    power-of-two table and the (body, cell) entries are counting-sorted by bucket;
 * 4. pairs: two bodies sharing a cell are a candidate when their boxes overlap, reported
 *    only from the cell holding the low corner of the overlap (max of the two low cells),
 *    so each pair appears once without a set; large bodies query the cells they cover,
 *    deduplicated the same way, or scan all grid bodies when those are fewer; planes are
 *    tested against every bounded body;
 * 5. order: pairs counting-sorted by (i, j).
 * All arrays grow to the largest scene seen and are reused, so a steady simulation does not
 * allocate. */
#include <stdint.h>
#include <stdlib.h>

#include <gsl/gsl_statistics_double.h>

#include "collide_internal.h"

/* one (body, cell) entry of the grid */
typedef struct {
    int body;
    int32_t c[3]; /* cell coordinates */
} grid_entry;

struct clab_collider {
    /* per body, [cap_bodies] (x, y, z triples: [3 cap_bodies]) */
    size_t cap_bodies;
    double *lo, *hi;            /* bounds grown by margin/2 [m] */
    int32_t *clo, *chi;         /* cell range of grid and large bodies */
    double *width;              /* scratch for the median width */
    int *grid, *large, *planes; /* body lists */
    double *pm;                 /* outward normals of the planes, per plane list slot */
    size_t *count;              /* [cap_bodies + 1] counting sort of the pairs */
    /* grid entries [cap_entries] */
    size_t cap_entries;
    grid_entry *ent, *sorted;
    size_t *bucket_of; /* bucket of each entry */
    /* hash table [cap_buckets + 1]: bucket b holds sorted[start[b] .. start[b+1]) */
    size_t cap_buckets;
    size_t *start;
    /* pairs [cap_pairs] */
    size_t cap_pairs;
    clab_pair *pairs, *tmp;
    clab_broadphase_stats st;
};

clab_collider *clab_collider_create(void) { return calloc(1, sizeof(clab_collider)); }

void clab_collider_destroy(clab_collider *cd)
{
    if (!cd) return;
    free(cd->lo);
    free(cd->hi);
    free(cd->clo);
    free(cd->chi);
    free(cd->width);
    free(cd->grid);
    free(cd->large);
    free(cd->planes);
    free(cd->pm);
    free(cd->count);
    free(cd->ent);
    free(cd->sorted);
    free(cd->bucket_of);
    free(cd->start);
    free(cd->pairs);
    free(cd->tmp);
    free(cd);
}

void clab_broadphase_stats_get(const clab_collider *cd, clab_broadphase_stats *st) { *st = cd->st; }

/* realloc *p to n elements of size sz; 0 on success */
static int resize(void *pp, size_t n, size_t sz)
{
    void **p = pp;
    void *q = realloc(*p, (n ? n : 1) * sz);
    if (!q) return 1;
    *p = q;
    return 0;
}

static int reserve_bodies(clab_collider *cd, size_t n)
{
    if (n <= cd->cap_bodies) return 0;
    size_t cap = n + n / 2 + 16;
    if (resize(&cd->lo, 3 * cap, sizeof(double)) || resize(&cd->hi, 3 * cap, sizeof(double)) ||
        resize(&cd->clo, 3 * cap, sizeof(int32_t)) || resize(&cd->chi, 3 * cap, sizeof(int32_t)) ||
        resize(&cd->width, cap, sizeof(double)) || resize(&cd->grid, cap, sizeof(int)) ||
        resize(&cd->large, cap, sizeof(int)) || resize(&cd->planes, cap, sizeof(int)) ||
        resize(&cd->pm, 3 * cap, sizeof(double)) || resize(&cd->count, cap + 1, sizeof(size_t)))
        return 1;
    cd->cap_bodies = cap;
    return 0;
}

static int reserve_entries(clab_collider *cd, size_t n, size_t nbuckets)
{
    if (n > cd->cap_entries) {
        size_t cap = n + n / 2 + 64;
        if (resize(&cd->ent, cap, sizeof(grid_entry)) || resize(&cd->sorted, cap, sizeof(grid_entry)) ||
            resize(&cd->bucket_of, cap, sizeof(size_t)))
            return 1;
        cd->cap_entries = cap;
    }
    if (nbuckets > cd->cap_buckets) {
        if (resize(&cd->start, nbuckets + 1, sizeof(size_t))) return 1;
        cd->cap_buckets = nbuckets;
    }
    return 0;
}

/* append the pair (i, j) as (min, max) */
static int push_pair(clab_collider *cd, size_t *np, int i, int j)
{
    if (*np == cd->cap_pairs) {
        size_t cap = cd->cap_pairs ? 2 * cd->cap_pairs : 1024;
        if (resize(&cd->pairs, cap, sizeof(clab_pair)) || resize(&cd->tmp, cap, sizeof(clab_pair))) return 1;
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

/* closed overlap of the boxes of bodies i and j */
static inline int boxes_overlap(const double *lo, const double *hi, int i, int j)
{
    const double *li = lo + 3 * i, *hi_ = hi + 3 * i, *lj = lo + 3 * j, *hj = hi + 3 * j;
    return li[0] <= hj[0] && lj[0] <= hi_[0] && li[1] <= hj[1] && lj[1] <= hi_[1] && li[2] <= hj[2] &&
           lj[2] <= hi_[2];
}

/* the box [lo, hi] reaches the half-space m . (x - r) <= margin/2: its lowest point along m,
 * m . (c - r) - sum_k |m_k| e_k (c center, e half widths), is at most margin/2 */
static inline int box_meets_plane(const double *lo, const double *hi, const double *m, clab_vec3 r, double margin)
{
    double d = 0.0;
    for (int k = 0; k < 3; k++) {
        double c = 0.5 * (lo[k] + hi[k]), e = 0.5 * (hi[k] - lo[k]);
        d += m[k] * (c - clab_v3_get(r, k)) - fabs(m[k]) * e;
    }
    return d <= 0.5 * margin;
}

int clab_broadphase_test(const clab_world *w, int i, int j, double margin)
{
    const clab_body *A = &w->bodies[i], *B = &w->bodies[j];
    if ((A->fixed && B->fixed) || i == j) return 0;
    int pa = A->shape.type == CLAB_SHAPE_PLANE, pb = B->shape.type == CLAB_SHAPE_PLANE;
    if (pa && pb) return 0;
    double lo[6], hi[6];
    clab_vec3 l, h;
    clab_collide_bounds(A, margin, &l, &h);
    lo[0] = l.x; lo[1] = l.y; lo[2] = l.z;
    hi[0] = h.x; hi[1] = h.y; hi[2] = h.z;
    clab_collide_bounds(B, margin, &l, &h);
    lo[3] = l.x; lo[4] = l.y; lo[5] = l.z;
    hi[3] = h.x; hi[4] = h.y; hi[5] = h.z;
    if (pa || pb) {
        const clab_body *P = pa ? A : B;
        clab_vec3 mv = clab_q_rotate(P->e, clab_v3(0.0, 0.0, 1.0));
        double m[3] = {mv.x, mv.y, mv.z};
        return box_meets_plane(lo + (pa ? 3 : 0), hi + (pa ? 3 : 0), m, P->r, margin);
    }
    return boxes_overlap(lo, hi, 0, 1);
}

/* cell coordinate of x: floor((x - origin) / cell), clamped to [0, 2^30] (monotone, so the
 * clamp only merges far cells; the exact box test keeps the result right) */
static inline int32_t cell_of(double x, double origin, double inv_cell)
{
    double t = floor((x - origin) * inv_cell);
    if (!(t > 0.0)) return 0;
    if (t > 1073741824.0) return 1073741824;
    return (int32_t)t;
}

/* hash of a cell (a multiply-xorshift mix of the three coordinates) */
static inline size_t cell_hash(const int32_t *c, size_t mask)
{
    uint64_t h = (uint64_t)(uint32_t)c[0] * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(uint32_t)c[1] * 0xC2B2AE3D27D4EB4Full;
    h ^= (uint64_t)(uint32_t)c[2] * 0x165667B19E3779F9ull;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    return (size_t)h & mask;
}

static inline int same_cell(const int32_t *a, const int32_t *b) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; }

/* the cell c is the low corner of the overlap of the cell ranges of bodies i and j */
static inline int owns_pair(const int32_t *clo, int i, int j, const int32_t *c)
{
    for (int k = 0; k < 3; k++) {
        int32_t m = clo[3 * i + k] > clo[3 * j + k] ? clo[3 * i + k] : clo[3 * j + k];
        if (m != c[k]) return 0;
    }
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

int clab_broadphase(clab_collider *cd, const clab_world *w, double margin, const clab_pair **pairs, size_t *npairs,
                    clab_error *err)
{
    size_t n = w->nbodies, np = 0;
    const clab_body *bodies = w->bodies;
    *pairs = NULL;
    *npairs = 0;
    if (reserve_bodies(cd, n)) return clab_error_set(err, CLAB_ENOMEM, "out of memory in the broad phase");
    double *lo = cd->lo, *hi = cd->hi;
    int32_t *clo = cd->clo, *chi = cd->chi;

    /* bounds, classes (planes apart) and widths */
    size_t nb = 0, ngrid = 0, nlarge = 0, nplanes = 0;
    for (size_t i = 0; i < n; i++) {
        const clab_body *b = &bodies[i];
        if (!(clab_v3_isfinite(b->r) && isfinite(b->e.e0) && isfinite(b->e.e1) && isfinite(b->e.e2) &&
              isfinite(b->e.e3)))
            return clab_error_set(err, CLAB_ENUMERIC,
                                  "broad phase: body %zu (%s) has a non-finite position or orientation at t = %g s", i,
                                  clab_world_body_name(w, i), w->t);
        if (b->shape.type == CLAB_SHAPE_PLANE) {
            clab_vec3 m = clab_q_rotate(b->e, clab_v3(0.0, 0.0, 1.0));
            cd->pm[3 * nplanes] = m.x;
            cd->pm[3 * nplanes + 1] = m.y;
            cd->pm[3 * nplanes + 2] = m.z;
            cd->planes[nplanes++] = (int)i;
            continue;
        }
        clab_vec3 l, h;
        clab_collide_bounds(b, margin, &l, &h);
        lo[3 * i] = l.x; lo[3 * i + 1] = l.y; lo[3 * i + 2] = l.z;
        hi[3 * i] = h.x; hi[3 * i + 1] = h.y; hi[3 * i + 2] = h.z;
        if (!(clab_v3_isfinite(l) && clab_v3_isfinite(h)))
            return clab_error_set(err, CLAB_ENUMERIC, "broad phase: body %zu (%s) has non-finite bounds (size %g m)", i,
                                  clab_world_body_name(w, i), clab_shape_bound_radius(&b->shape));
        cd->width[nb++] = fmax(h.x - l.x, fmax(h.y - l.y, h.z - l.z));
    }

    /* cell size from the median width (gsl_stats_median reorders the scratch copy) */
    double cell = nb ? CLAB_GRID_CELL_SCALE * gsl_stats_median(cd->width, 1, nb) : 1.0;
    if (!(cell > 0.0) || !isfinite(cell)) cell = 1.0;
    double inv_cell = 1.0 / cell, large_width = CLAB_GRID_LARGE_CELLS * cell;

    /* grid and large lists; the grid's origin is the low corner of the grid bodies */
    double origin[3] = {INFINITY, INFINITY, INFINITY};
    for (size_t i = 0; i < n; i++) {
        if (bodies[i].shape.type == CLAB_SHAPE_PLANE) continue;
        const double *l = lo + 3 * i, *h = hi + 3 * i;
        if (h[0] - l[0] > large_width || h[1] - l[1] > large_width || h[2] - l[2] > large_width) {
            cd->large[nlarge++] = (int)i;
            continue;
        }
        cd->grid[ngrid++] = (int)i;
        for (int k = 0; k < 3; k++) origin[k] = fmin(origin[k], l[k]);
    }
    if (!ngrid) origin[0] = origin[1] = origin[2] = 0.0;

    /* cell ranges and the entry count */
    size_t nent = 0;
    int32_t gmax[3] = {0, 0, 0};
    for (size_t g = 0; g < ngrid; g++) {
        int i = cd->grid[g];
        size_t cells = 1;
        for (int k = 0; k < 3; k++) {
            clo[3 * i + k] = cell_of(lo[3 * i + k], origin[k], inv_cell);
            chi[3 * i + k] = cell_of(hi[3 * i + k], origin[k], inv_cell);
            if (chi[3 * i + k] > gmax[k]) gmax[k] = chi[3 * i + k];
            cells *= (size_t)(chi[3 * i + k] - clo[3 * i + k] + 1);
        }
        nent += cells;
    }
    for (size_t g = 0; g < nlarge; g++) {
        int i = cd->large[g];
        for (int k = 0; k < 3; k++) {
            clo[3 * i + k] = cell_of(lo[3 * i + k], origin[k], inv_cell);
            chi[3 * i + k] = cell_of(hi[3 * i + k], origin[k], inv_cell);
        }
    }

    /* hash table of at least 2 nent buckets */
    size_t nbuckets = 16;
    while (nbuckets < 2 * nent) nbuckets *= 2;
    size_t mask = nbuckets - 1;
    if (reserve_entries(cd, nent, nbuckets)) return clab_error_set(err, CLAB_ENOMEM, "out of memory in the broad phase");
    grid_entry *ent = cd->ent, *sorted = cd->sorted;
    size_t *start = cd->start, *bucket_of = cd->bucket_of;

    /* entries, then counting sort by bucket */
    size_t e = 0;
    for (size_t g = 0; g < ngrid; g++) {
        int i = cd->grid[g];
        grid_entry t;
        t.body = i;
        for (t.c[2] = clo[3 * i + 2]; t.c[2] <= chi[3 * i + 2]; t.c[2]++)
            for (t.c[1] = clo[3 * i + 1]; t.c[1] <= chi[3 * i + 1]; t.c[1]++)
                for (t.c[0] = clo[3 * i]; t.c[0] <= chi[3 * i]; t.c[0]++) {
                    bucket_of[e] = cell_hash(t.c, mask);
                    ent[e++] = t;
                }
    }
    for (size_t b = 0; b <= nbuckets; b++) start[b] = 0;
    for (size_t k = 0; k < nent; k++) start[bucket_of[k] + 1]++;
    for (size_t b = 0; b < nbuckets; b++) start[b + 1] += start[b];
    for (size_t k = 0; k < nent; k++) sorted[start[bucket_of[k]]++] = ent[k];
    for (size_t b = nbuckets; b > 0; b--) start[b] = start[b - 1]; /* back to bucket starts */
    start[0] = 0;

    /* grid pairs: bodies sharing a cell, reported from the low corner of their overlap */
    for (size_t b = 0; b < nbuckets; b++)
        for (size_t p = start[b]; p < start[b + 1]; p++) {
            int i = sorted[p].body;
            for (size_t q = p + 1; q < start[b + 1]; q++) {
                int j = sorted[q].body;
                if (!same_cell(sorted[p].c, sorted[q].c)) continue; /* another cell, same bucket */
                if (bodies[i].fixed && bodies[j].fixed) continue;
                if (!owns_pair(clo, i, j, sorted[p].c) || !boxes_overlap(lo, hi, i, j)) continue;
                if (push_pair(cd, &np, i, j)) goto nomem;
            }
        }

    /* large bodies against the grid: through the cells they cover, or all grid bodies */
    for (size_t g = 0; g < nlarge; g++) {
        int i = cd->large[g];
        int32_t a[3], z[3];
        double cells = 1.0;
        for (int k = 0; k < 3; k++) {
            a[k] = clo[3 * i + k];
            z[k] = chi[3 * i + k] < gmax[k] ? chi[3 * i + k] : gmax[k];
            cells *= (double)(z[k] - a[k] + 1);
        }
        if (!ngrid || z[0] < a[0] || z[1] < a[1] || z[2] < a[2]) continue; /* beyond every grid body */
        if (cells <= (double)ngrid) {
            int32_t c[3];
            for (c[2] = a[2]; c[2] <= z[2]; c[2]++)
                for (c[1] = a[1]; c[1] <= z[1]; c[1]++)
                    for (c[0] = a[0]; c[0] <= z[0]; c[0]++) {
                        size_t b = cell_hash(c, mask);
                        for (size_t p = start[b]; p < start[b + 1]; p++) {
                            int j = sorted[p].body;
                            if (!same_cell(sorted[p].c, c) || (bodies[i].fixed && bodies[j].fixed)) continue;
                            if (!owns_pair(clo, i, j, c) || !boxes_overlap(lo, hi, i, j)) continue;
                            if (push_pair(cd, &np, i, j)) goto nomem;
                        }
                    }
        } else {
            for (size_t h = 0; h < ngrid; h++) {
                int j = cd->grid[h];
                if ((bodies[i].fixed && bodies[j].fixed) || !boxes_overlap(lo, hi, i, j)) continue;
                if (push_pair(cd, &np, i, j)) goto nomem;
            }
        }
    }

    /* large bodies against each other */
    for (size_t g = 0; g < nlarge; g++)
        for (size_t h = g + 1; h < nlarge; h++) {
            int i = cd->large[g], j = cd->large[h];
            if ((bodies[i].fixed && bodies[j].fixed) || !boxes_overlap(lo, hi, i, j)) continue;
            if (push_pair(cd, &np, i, j)) goto nomem;
        }

    /* planes against every bounded body */
    for (size_t g = 0; g < nplanes; g++) {
        int i = cd->planes[g];
        const double *m = cd->pm + 3 * g;
        for (size_t j = 0; j < n; j++) {
            if (bodies[j].shape.type == CLAB_SHAPE_PLANE || (bodies[i].fixed && bodies[j].fixed)) continue;
            if (!box_meets_plane(lo + 3 * j, hi + 3 * j, m, bodies[i].r, margin)) continue;
            if (push_pair(cd, &np, i, (int)j)) goto nomem;
        }
    }

    sort_pairs(cd, np, n);
    cd->st.cell = cell;
    cd->st.grid_bodies = ngrid;
    cd->st.large_bodies = nlarge;
    cd->st.planes = nplanes;
    cd->st.entries = nent;
    cd->st.buckets = nbuckets;
    cd->st.pairs = np;
    *pairs = cd->pairs;
    *npairs = np;
    return CLAB_OK;
nomem:
    return clab_error_set(err, CLAB_ENOMEM, "out of memory in the broad phase (%zu pairs)", np);
}
