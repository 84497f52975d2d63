/* sphere_pairs.c: step 3 of the sphere cell list (broadphase_spheres.c describes the steps):
 * each sphere i against the spheres j > i of its cell and the 26 around it, kept when they
 * pass the general path's two tests (the distance filter of pairlist.c and the overlap of
 * the bounds, periodic images included), against the half-spaces, and against the triangles
 * of mesh walls binned in its cell (the bounds, then the sphere-triangle distance filter);
 * each sphere's partners sorted into its thread's buffer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "sphere_list.h"

/* the bounds of spheres i and j overlap directly or through the periodic images the general
 * path makes: along a periodic axis a body whose bounds cross lo (hi) has an image a period
 * up (down), lo + L and hi + L computed as there; the images of a body combine the axes
 * freely, so the test is per axis */
static inline int bounds_meet(const double *li, const double *hi, const double *lj, const double *hj,
                              const clab_periodic *per)
{
    for (int k = 0; k < 3; k++) {
        if (li[k] <= hj[k] && lj[k] <= hi[k]) continue;
        if (!per->on[k]) return 0;
        double L = per->hi[k] - per->lo[k];
        double si = li[k] < per->lo[k] ? L : hi[k] >= per->hi[k] ? -L : 0.0;
        double sj = lj[k] < per->lo[k] ? L : hj[k] >= per->hi[k] ? -L : 0.0;
        if (si != 0.0 && li[k] + si <= hj[k] && lj[k] <= hi[k] + si) continue;
        if (sj != 0.0 && li[k] <= hj[k] + sj && lj[k] + sj <= hi[k]) continue;
        if (si != 0.0 && sj != 0.0 && li[k] + si <= hj[k] + sj && lj[k] + sj <= hi[k] + si) continue;
        return 0;
    }
    return 1;
}

static int cmp_int32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

#if defined(__GNUC__)
__attribute__((always_inline)) /* in each of cell_pairs and cell_pairs_tri, as in one */
#endif
static inline void sort_partners(int32_t *a, size_t n)
{
    if (n > 48) {
        qsort(a, n, sizeof *a, cmp_int32);
        return;
    }
    for (size_t k = 1; k < n; k++) {
        int32_t v = a[k];
        size_t m = k;
        for (; m > 0 && a[m - 1] > v; m--) a[m] = a[m - 1];
        a[m] = v;
    }
}

/* a thread's partner buffer while the list is built: a stretch of the dead records
 * (borrowed, never reallocated) or the thread's own growable array */
typedef struct {
    int32_t *p;       /* the partners [cap], len used */
    size_t cap, len;
    int borrowed;     /* p points into the scratch records */
    int32_t **own;    /* the thread's own array (sp->sl_buf[t]) and its capacity */
    size_t *owncap;
} pbuf;

/* append j to a thread's buffer (its own array grown by doubling; a borrowed stretch that is
 * full moves into it); 0 on success */
static inline int push(pbuf *b, int32_t j)
{
    if (b->len == b->cap) {
        size_t c = b->cap ? 2 * b->cap : 4096;
        int32_t *q = *b->own;
        if (*b->owncap < c) {
            q = realloc(*b->own, c * sizeof *q);
            if (!q) return 1;
            *b->own = q;
            *b->owncap = c;
        }
        if (b->borrowed && b->len) memcpy(q, b->p, b->len * sizeof *q);
        b->borrowed = 0;
        b->p = q;
        b->cap = *b->owncap;
    }
    b->p[b->len++] = j;
    return 0;
}

/* the candidate buffer of cell_pairs (on the stack), emptied whenever it fills */
#define SL_CAND 512

/* sphere B, of higher index than sphere i (center xi yi zi, radius Ri, fixed fi, bounds li
 * hi_), with |d|^2 <= far2 or > hmin2 (d = r_B - r_i): whether the pair is kept. keep_near_spheres:
 * d = r_j - r_i at its minimum image, |d|^2 against S^2. Within S the image is d itself
 * (|d_k| <= S < c <= L/3); beyond S, d moves only when some |d_k| > L/2, so only when |d| > hmin,
 * the smallest half period. Then the general path's tests: not both fixed, the bounds meet */
static inline int sl_pair_kept(const sphere_slot *B, double xi, double yi, double zi, double Ri, int fi,
                               const double *li, const double *hi_, const double *lo, const double *hi, double M,
                               double far2, double hmin2, const double half[3], const clab_periodic *per)
{
    clab_vec3 d = clab_v3(B->r[0] - xi, B->r[1] - yi, B->r[2] - zi);
    const double d2 = clab_v3_dot(d, d);
    const double S = Ri + B->R + M;
    if (d2 > far2 || d2 > S * S * (1.0 + 2e-10)) {
        if (!(d2 > hmin2)) return 0;
        if (!((fabs(d.x) > half[0]) | (fabs(d.y) > half[1]) | (fabs(d.z) > half[2]))) return 0;
        if (clab_image_far(per, half, d, S)) return 0;
        d = clab_world_min_image(per, d);
        if (clab_v3_dot(d, d) > S * S * (1.0 + 2e-10)) return 0;
    }
    if (fi && B->fixed) return 0;
    /* clab_broadphase: the bounds overlap */
    return bounds_meet(li, hi_, lo + 3 * (size_t)B->body, hi + 3 * (size_t)B->body, per);
}

/* the candidates cand[0..m) of sphere i that pass sl_pair_kept, in order, into buf; 1 when
 * out of memory */
static int sl_take(const sphere_slot *slot, const uint32_t *cand, size_t m, double xi, double yi, double zi, double Ri,
                   int fi, const double *li, const double *hi_, const double *lo, const double *hi, double M,
                   double far2, double hmin2, const double half[3], const clab_periodic *per, pbuf *buf)
{
    for (size_t q = 0; q < m; q++) {
        const sphere_slot *B = &slot[cand[q]];
        if (sl_pair_kept(B, xi, yi, zi, Ri, fi, li, hi_, lo, hi, M, far2, hmin2, half, per) && push(buf, B->body))
            return 1;
    }
    return 0;
}

/* step 3 for the spheres of cell c: their partners into the thread's buffer; with_tri (a
 * constant: cell_pairs and cell_pairs_tri below) tests the triangles of the cell's bin too */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int cell_pairs_of(clab_spheres *sp, const clab_world *w, const sl_grid *gr, long c, const sl_plane *pl,
                                int nplanes, double M, double Rmax, int t, pbuf *buf, const int with_tri)
{
    const clab_periodic *per = &w->periodic;
    double half[3];
    clab_world_half_periods(per, half);
    double hmin = half[0] < half[1] ? half[0] : half[1];
    hmin = hmin < half[2] ? hmin : half[2];
    const double hmin2 = hmin * hmin;
    const uint32_t *cstart = sp->sl_cstart;
    const sphere_slot *slot = sp->sl_slot;
    const double *lo = sp->sl_lo, *hi = sp->sl_hi;
    /* the cells around c (itself included) as runs of slots: a row of up to 3 cells along x
     * is one run; along a periodic axis the neighbours wrap (at least 3 cells a period, so no
     * cell comes twice), else the grid's edge cuts them */
    const long nx = gr->nc[0], ny = gr->nc[1], nz = gr->nc[2];
    long cx = c % nx, cy = (c / nx) % ny, cz = c / (nx * ny);
    uint32_t rs[18], re[18];
    int nr = 0;
    if (cx > 0 && cx < nx - 1 && cy > 0 && cy < ny - 1 && cz > 0 && cz < nz - 1) { /* inside: no edge, no wrap */
        for (int dz = -1; dz <= 1; dz++)
            for (int dy = -1; dy <= 1; dy++) {
                long row = c + nx * (dy + ny * dz);
                rs[nr] = cstart[row - 1];
                re[nr++] = cstart[row + 2];
            }
    } else {
        for (int dz = -1; dz <= 1; dz++) {
            long z = cz + dz;
            if (z < 0 || z >= nz) {
                if (!per->on[2]) continue;
                z = z < 0 ? z + nz : z - nz;
            }
            for (int dy = -1; dy <= 1; dy++) {
                long y = cy + dy;
                if (y < 0 || y >= ny) {
                    if (!per->on[1]) continue;
                    y = y < 0 ? y + ny : y - ny;
                }
                long row = nx * (y + ny * z), x0 = cx > 0 ? cx - 1 : 0, x1 = cx + 1 < nx ? cx + 1 : nx - 1;
                rs[nr] = cstart[row + x0];
                re[nr++] = cstart[row + x1 + 1];
                if (per->on[0] && cx == 0) {
                    rs[nr] = cstart[row + nx - 1];
                    re[nr++] = cstart[row + nx];
                }
                if (per->on[0] && cx == nx - 1) {
                    rs[nr] = cstart[row];
                    re[nr++] = cstart[row + 1];
                }
            }
        }
    }
    for (uint32_t s = cstart[c]; s < cstart[c + 1]; s++) {
        const sphere_slot *A = &slot[s];
        const int32_t i = A->body;
        const double xi = A->r[0], yi = A->r[1], zi = A->r[2], Ri = A->R;
        const int fi = A->fixed;
        const double *li = lo + 3 * (size_t)i, *hi_ = hi + 3 * (size_t)i;
        /* S = R_i + R_j + M <= Smax (rounding is monotone): beyond Smax no pair */
        const double Smax = Ri + Rmax + M, far2 = Smax * Smax * (1.0 + 2e-10);
        size_t first = buf->len;
        /* the candidates by a pass without a branch on the index test or the distance test
         * (both coin tosses: half the slots are of lower index), noted in order, then the rest
         * of the tests for those only (sl_pair_kept): the same pairs. The buffer is emptied
         * whenever it fills (more than SL_CAND candidates around one sphere) */
        uint32_t cand[SL_CAND];
        size_t m = 0;
        for (int q = 0; q < nr; q++)
            for (uint32_t u = rs[q], e = re[q]; u < e; u++) {
                const sphere_slot *B = &slot[u];
                const double dx = B->r[0] - xi, dy = B->r[1] - yi, dz = B->r[2] - zi;
                const double d2 = dx * dx + dy * dy + dz * dz;
                cand[m] = u;
                m += (size_t)((B->body > i) & ((d2 <= far2) | (d2 > hmin2)));
                if (m == SL_CAND) {
                    if (sl_take(slot, cand, m, xi, yi, zi, Ri, fi, li, hi_, lo, hi, M, far2, hmin2, half, per, buf))
                        return 1;
                    m = 0;
                }
            }
        if (sl_take(slot, cand, m, xi, yi, zi, Ri, fi, li, hi_, lo, hi, M, far2, hmin2, half, per, buf)) return 1;
        uint32_t mask = 0;
        for (int q = 0; q < nplanes; q++) {
            if ((pl[q].fixed && fi) || !clab_box_meets_plane(li, hi_, pl[q].m, pl[q].r, M)) continue;
            if (pl[q].body > i) {
                if (push(buf, pl[q].body)) return 1;
            } else {
                mask |= 1u << q;
            }
        }
        /* the triangles of the cell's bin (fixed, of higher index): the general path's tests,
         * not both fixed and the bounds meet, then the distance filter of pairlist.c */
        if (with_tri && !fi)
            for (uint32_t u = sp->sl_tstart[c], e = sp->sl_tstart[c + 1]; u < e; u++) {
                const uint32_t q = sp->sl_tbin[u];
                const int32_t tb = sp->sl_tri[q];
                if (clab_boxes_overlap(li, hi_, sp->sl_tlo + 3 * (size_t)q, sp->sl_thi + 3 * (size_t)q) &&
                    !clab_sphere_tri_far(w, &w->bodies[i], &w->bodies[tb], M) && push(buf, tb))
                    return 1;
            }
        /* by slot: a thread's cells are its own stretch of slots (by body index, the threads'
         * writes would share cache lines) */
        sp->sl_pmask[s] = mask;
        if (buf->len > first) sort_partners(buf->p + first, buf->len - first); /* p may still be NULL when empty */
        sp->sl_cnt[s] = (uint32_t)(buf->len - first);
        sp->sl_src[s] = first;
        sp->sl_thr[s] = (unsigned char)t;
    }
    return 0;
}

/* a scene without triangles, with triangles */
typedef int (*cell_fn)(clab_spheres *sp, const clab_world *w, const sl_grid *gr, long c, const sl_plane *pl,
                       int nplanes, double M, double Rmax, int t, pbuf *buf);
static int cell_pairs(clab_spheres *sp, const clab_world *w, const sl_grid *gr, long c, const sl_plane *pl, int nplanes,
                      double M, double Rmax, int t, pbuf *buf)
{
    return cell_pairs_of(sp, w, gr, c, pl, nplanes, M, Rmax, t, buf, 0);
}
static int cell_pairs_tri(clab_spheres *sp, const clab_world *w, const sl_grid *gr, long c, const sl_plane *pl,
                          int nplanes, double M, double Rmax, int t, pbuf *buf)
{
    return cell_pairs_of(sp, w, gr, c, pl, nplanes, M, Rmax, t, buf, 1);
}

int clab_sphere_pairs(clab_spheres *sp, const clab_world *w, const sl_grid *gr, long nc, const sl_scene *sc, double M,
                      int T, const int32_t **tpart)
{
    int nomem = 0;
    const uint32_t *cstart = sp->sl_cstart;
    const cell_fn cell = sc->ntri ? cell_pairs_tri : cell_pairs;
#pragma omp parallel num_threads(T) if (T > 1) reduction(| : nomem)
    {
        int t = 0;
#ifdef _OPENMP
        t = omp_get_thread_num();
#endif
        /* the partners go to thread t's share of the dead records' room left after the
         * borrowed per-body arrays, else (or once it is full) to the thread's own array */
        pbuf buf = {sp->sl_buf[t], sp->sl_bufcap[t], 0, 0, &sp->sl_buf[t], &sp->sl_bufcap[t]};
        if (sp->sl_pcap) {
            const size_t p0 = sp->sl_pcap * (size_t)t / (size_t)T, p1 = sp->sl_pcap * (size_t)(t + 1) / (size_t)T;
            buf.p = sp->sl_proom + p0;
            buf.cap = p1 - p0;
            buf.borrowed = 1;
        }
#pragma omp for schedule(dynamic, 32)
        for (long c = 0; c < nc; c++) {
            if (nomem || cstart[c] == cstart[c + 1]) continue;
            nomem = cell(sp, w, gr, c, sc->pl, sc->nplanes, M, sc->Rmax, t, &buf);
        }
        tpart[t] = buf.p;
    }
    return nomem;
}

