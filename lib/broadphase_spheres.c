/* broadphase_spheres.c: the kept pair list of an all-sphere scene from one cell list.
 *
 * pairlist.c builds the kept list as the grid's pairs (grid.c, bounds grown by M/2,
 * M = margin + skin + slack) followed by the distance filter of two spheres,
 * |d| <= R_i + R_j + M with the narrow phase's factor (1 + 2e-10) on the squares (d the
 * minimum image of r_j - r_i), and the sphere-triangle filter (clab_sphere_tri_far). When
 * every bounded body is a sphere, or a fixed triangle of a mesh wall placed after every
 * sphere in a world that is not periodic, and the spheres' 2R + M are within a factor
 * SL_SIZE_RATIO of each other (the granular benchmarks, between planes or mesh walls), the
 * same list comes from one uniform cell list here:
 *
 * 1. scan: each sphere's bounds exactly as clab_broadphase computes them (r -+ (R + M/2),
 *    moved to the image whose center lies in the period), a copy of its center, radius and
 *    fixed flag; the half-spaces (at most SL_MAX_PLANES) apart; the triangles' bounds by
 *    clab_collide_bounds, as the general path makes them (tri_scan);
 * 2. cells of side c >= (2R + M)_max (1 + 1e-6) plus a few ulps of the coordinates: a whole
 *    number of cells, at least 3, along a periodic axis; the spheres counting-sorted by the
 *    cell of their bounds' center; each triangle binned into the cells whose spheres its
 *    bounds may meet (tri_bins);
 * 3. pairs: each sphere i against the spheres j > i of its cell and the 26 around it (the
 *    neighbours wrap along periodic axes). A pair passing the distance test has every
 *    |d_k| <= c, so its spheres are in neighbouring cells and it is looked at; it is kept
 *    when it passes both tests of the general path, the distance test and the overlap of the
 *    bounds (with the periodic images clab_broadphase gives a body whose bounds cross a face:
 *    the same arithmetic, so the same verdict bit for bit). Half-spaces: a sphere's bounds
 *    against each of them as in clab_broadphase. Triangles: those of the sphere's bin whose
 *    bounds meet its bounds and that pass the filter (all of higher index: no triangle row
 *    holds a sphere). Each sphere's partners j > i are sorted
 *    (insertion sort: about 7) into its thread's buffer;
 * 4. order: the blocks are copied out in index order as the rows of the list (clab_pair_list:
 *    row[i], then the partners j > i of body i), a half-space's row (the spheres of higher
 *    index that reach it) gathered from the spheres' bit masks; a row with a half-space
 *    marked in rows->gen (a triangle's row is empty; a row with a triangle marked too).
 * So the set is the general path's and the rows are sorted by (i, j): the same list. The
 * pair loop runs on all threads (cells handed out dynamically: a block lands in whichever
 * thread's buffer, and step 4 puts it in its place), steps 1 and 4 on contiguous ranges of
 * bodies, so the list is the same for any thread count. Step 3 is sphere_pairs.c's; the
 * rest is here, one function a step (scan_all and tri_scan, make_grid, tri_bins and
 * sort_cells, write_rows). */
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "sphere_list.h"

#define SL_SIZE_RATIO 2.0 /* largest 2R + M over the smallest, else the general path */
#define SL_PAR_MIN 4096   /* fewer spheres: one thread */
#define SL_ROOM_PAIRS 8 /* partners a body the borrowed room is made for (borrow) */

static int reserve(clab_spheres *sp, size_t n, size_t ncells, int nt)
{
    if (n > sp->cap_sl) {
        size_t cap = n + n / 2 + 16;
        if (clab_bp_resize(&sp->sl_lo, 3 * cap, sizeof(double)) || clab_bp_resize(&sp->sl_hi, 3 * cap, sizeof(double)) ||
            clab_bp_resize(&sp->sl_cell, cap, sizeof(int32_t)) || clab_bp_resize(&sp->sl_cnt, cap, sizeof(uint32_t)) ||
            clab_bp_resize(&sp->sl_pmask, cap, sizeof(uint32_t)) || clab_bp_resize(&sp->sl_src, cap, sizeof(size_t)) ||
            clab_bp_resize(&sp->sl_thr, cap, 1) || clab_bp_resize(&sp->sl_slot, cap, sizeof(sphere_slot)) ||
            clab_bp_resize(&sp->sl_slotof, cap, sizeof(uint32_t)) ||
            clab_bp_resize(&sp->sl_stage, cap, sizeof(sphere_slot)))
            return 1;
        sp->cap_sl = cap;
    }
    if (ncells > sp->cap_cells || nt > sp->sl_ncount || !sp->sl_cstart) {
        size_t cap = ncells + ncells / 2 + 16;
        if (cap < sp->cap_cells) cap = sp->cap_cells;
        if (clab_bp_resize(&sp->sl_cstart, cap + 1, sizeof(uint32_t)) ||
            clab_bp_resize(&sp->sl_ccount, cap * (size_t)nt, sizeof(uint32_t)))
            return 1;
        sp->cap_cells = cap;
        sp->sl_ncount = nt;
    }
    if (nt > sp->sl_nbuf) {
        int32_t **b = realloc(sp->sl_buf, (size_t)nt * sizeof *b);
        if (!b) return 1;
        sp->sl_buf = b;
        size_t *c = realloc(sp->sl_bufcap, (size_t)nt * sizeof *c);
        if (!c) return 1;
        sp->sl_bufcap = c;
        for (int t = sp->sl_nbuf; t < nt; t++) {
            b[t] = NULL;
            c[t] = 0;
        }
        sp->sl_nbuf = nt;
    }
    return 0;
}

/* what one thread's share of step 1 found */
typedef struct {
    int bad;               /* a body the cell list does not take */
    int nplanes;           /* its half-spaces (body indices in plane[]) */
    int plane[SL_MAX_PLANES];
    size_t ns;             /* spheres */
    double dmin, dmax;     /* range of 2R + M */
    double Rmax;           /* largest radius */
    double big;            /* largest |x| + |y| + |z| + R */
    double clo[3], chi[3]; /* range of the bounds' centers */
    size_t ntri;           /* triangles */
} scan_part;

/* step 1 over the bodies [a, b) */
static void scan(clab_spheres *sp, const clab_world *w, double M, size_t a, size_t b, scan_part *pt)
{
    const clab_periodic *per = &w->periodic;
    const int periodic = per->on[0] || per->on[1] || per->on[2];
    const double g = 0.5 * M;
    double halfL[3]; /* 0.5 L as clab_broadphase computes it; infinite along the other axes */
    clab_world_half_periods(per, halfL);
    memset(pt, 0, sizeof *pt);
    pt->dmin = INFINITY;
    for (int k = 0; k < 3; k++) {
        pt->clo[k] = INFINITY;
        pt->chi[k] = -INFINITY;
    }
    for (size_t i = a; i < b; i++) {
        const clab_body *bd = &w->bodies[i];
        if (bd->shape.type == CLAB_SHAPE_PLANE) {
            if (pt->nplanes == SL_MAX_PLANES) {
                pt->bad = 1;
                return;
            }
            pt->plane[pt->nplanes++] = (int)i;
            sp->sl_cell[i] = SL_CELL_PLANE;
            continue;
        }
        double R = bd->shape.radius;
        if (bd->shape.type != CLAB_SHAPE_SPHERE || !(R > 0.0 && R < 1e300) || !clab_v3_isfinite(bd->r)) {
            if (bd->shape.type == CLAB_SHAPE_TRIANGLE && bd->fixed && !periodic) { /* tri_scan, tri_bins */
                pt->ntri++;
                sp->sl_cell[i] = SL_CELL_TRI;
                continue;
            }
            pt->bad = 1;
            return;
        }
        /* clab_collide_bounds of a sphere: r -+ (R + margin/2) */
        double e = R + g, lv[3], hv[3], r[3] = {bd->r.x, bd->r.y, bd->r.z};
        for (int k = 0; k < 3; k++) {
            lv[k] = r[k] - e;
            hv[k] = r[k] + e;
            if (!(hv[k] - lv[k] < halfL[k])) {
                pt->bad = 1; /* the general path reports it */
                return;
            }
        }
        if (periodic) clab_wrap_bounds(per, lv, hv);
        double D = 2.0 * R + M, a1 = fabs(r[0]) + fabs(r[1]) + fabs(r[2]) + R; /* all finite: plain compares */
        if (D < pt->dmin) pt->dmin = D;
        if (D > pt->dmax) pt->dmax = D;
        if (R > pt->Rmax) pt->Rmax = R;
        if (a1 > pt->big) pt->big = a1;
        sphere_slot *st = &sp->sl_stage[i];
        for (int k = 0; k < 3; k++) {
            sp->sl_lo[3 * i + k] = lv[k];
            sp->sl_hi[3 * i + k] = hv[k];
            double c = 0.5 * (lv[k] + hv[k]);
            if (c < pt->clo[k]) pt->clo[k] = c;
            if (c > pt->chi[k]) pt->chi[k] = c;
            st->r[k] = r[k];
        }
        st->R = R;
        st->body = (int32_t)i;
        sp->sl_cell[i] = 0; /* a sphere: its cell comes in step 2 */
        st->fixed = bd->fixed != 0;
        pt->ns++;
    }
}

/* cell of a point x (the center of a sphere's bounds), clamped into the grid */
static inline long cell_index(const sl_grid *gr, const double *x)
{
    long c[3];
    for (int k = 0; k < 3; k++) {
        double t = (x[k] - gr->base[k]) * gr->inv[k]; /* floor(t) = (long)t for t >= 1 */
        c[k] = t < 1.0 ? 0 : t >= (double)gr->nc[k] ? gr->nc[k] - 1 : (long)t;
    }
    return c[0] + gr->nc[0] * (c[1] + gr->nc[1] * c[2]);
}

/* the cell coordinate of x along axis k, clamped into the grid (cell_index's, one axis) */
static inline long cell_coord(const sl_grid *gr, double x, int k)
{
    double t = (x - gr->base[k]) * gr->inv[k];
    return t < 1.0 ? 0 : t >= (double)gr->nc[k] ? gr->nc[k] - 1 : (long)t;
}

/* the cells [r[k][0], r[k][1]] along each axis whose spheres may meet the bounds of triangle
 * slot q: a sphere's bounds meet them only when the center of its bounds, whose cell it is
 * in, lies within half their width (at most half a cell side) of them, so within one cell of
 * the cells of their corners; the count of those cells */
static double tri_cells(const clab_spheres *sp, const sl_grid *gr, size_t q, long r[3][2])
{
    double cells = 1.0;
    for (int k = 0; k < 3; k++) {
        long a = cell_coord(gr, sp->sl_tlo[3 * q + k], k) - 1, b = cell_coord(gr, sp->sl_thi[3 * q + k], k) + 1;
        r[k][0] = a < 0 ? 0 : a;
        r[k][1] = b > gr->nc[k] - 1 ? gr->nc[k] - 1 : b;
        cells *= (double)(r[k][1] - r[k][0] + 1);
    }
    return cells;
}

/* Step 2 for the triangles: the bin of each cell, the triangles its spheres may meet (a
 * counting sort by cell, triangles in slot order within a cell). 1 when the bins would be
 * far larger than the grid (triangles wide next to the spheres: the general path), -1 when
 * out of memory */
static int tri_bins(clab_spheres *sp, const sl_grid *gr, long nc, const sl_scene *sc)
{
    const size_t nt = sc->ntri;
    long r[3][2];
    double total = 0.0;
    for (size_t q = 0; q < nt; q++) total += tri_cells(sp, gr, q, r);
    if (total > 8.0 * ((double)sc->ns + (double)nc) + 65536.0) return 1;
    if ((size_t)nc + 1 > sp->cap_tstart || !sp->sl_tstart) {
        if (clab_bp_resize(&sp->sl_tstart, (size_t)nc + 1, sizeof(uint32_t))) return -1;
        sp->cap_tstart = (size_t)nc + 1;
    }
    if ((size_t)total > sp->cap_tbin || !sp->sl_tbin) {
        size_t cap = (size_t)total + (size_t)total / 2 + 64;
        if (clab_bp_resize(&sp->sl_tbin, cap, sizeof(uint32_t))) return -1;
        sp->cap_tbin = cap;
    }
    uint32_t *start = sp->sl_tstart;
    memset(start, 0, ((size_t)nc + 1) * sizeof *start);
    const long nx = gr->nc[0], ny = gr->nc[1];
    for (int pass = 0; pass < 2; pass++) { /* 0: count a cell's triangles in start[c], 1: place them */
        for (size_t q = 0; q < nt; q++) {
            tri_cells(sp, gr, q, r);
            for (long z = r[2][0]; z <= r[2][1]; z++)
                for (long y = r[1][0]; y <= r[1][1]; y++)
                    for (long x = r[0][0]; x <= r[0][1]; x++) {
                        const long c = x + nx * (y + ny * z);
                        if (pass) sp->sl_tbin[start[c]++] = (uint32_t)q;
                        else start[c]++;
                    }
        }
        if (pass == 0) { /* the starts (exclusive sums) */
            uint32_t run = 0;
            for (long c = 0; c < nc; c++) {
                const uint32_t k = start[c];
                start[c] = run;
                run += k;
            }
            start[nc] = run;
        }
    }
    for (long c = nc; c > 0; c--) start[c] = start[c - 1]; /* each start moved to its cell's end: back */
    start[0] = 0;
    return 0;
}

/* inside a parallel region: this thread's contiguous share [*a, *b) of n items, the number of
 * threads *nt; returns the thread's number */
static inline int thread_range(size_t n, size_t *a, size_t *b, int *nt)
{
    int t = 0;
    *nt = 1;
#ifdef _OPENMP
    t = omp_get_thread_num();
    *nt = omp_get_num_threads();
#endif
    *a = n * (size_t)t / (size_t)*nt;
    *b = n * (size_t)(t + 1) / (size_t)*nt;
    return t;
}

/* the per-body arrays of the list for n bodies carved from the storage of sp->scratch (grown
 * when smaller): 153 bytes a body that then cost no memory of their own; 0 on success, else
 * the collider's own arrays are used */
static int borrow(clab_spheres *sp, size_t n)
{
    clab_contacts *s = sp->scratch;
    const size_t per = 6 * sizeof(double) + 2 * sizeof(sphere_slot) + sizeof(size_t) + 4 * sizeof(uint32_t) + 1;
    if (!s || n == 0 || n > SIZE_MAX / (per + SL_ROOM_PAIRS * sizeof(int32_t)) / 2) return 1;
    /* room for SL_ROOM_PAIRS partners a body behind the arrays (a dense pile has about 6) */
    size_t need = (n * (per + SL_ROOM_PAIRS * sizeof(int32_t)) + sizeof(clab_contact) - 1) / sizeof(clab_contact);
    if (need > s->cap) {
        clab_contact *c = realloc(s->c, need * sizeof *c); /* the records are dead: nothing to keep */
        if (!c) return 1;
        s->c = c;
        s->cap = need;
    }
    /* 8-byte items first, then 4-byte, then bytes: each array aligned */
    char *p = (char *)s->c;
    sp->sl_lo = (double *)p;
    p += 3 * n * sizeof(double);
    sp->sl_hi = (double *)p;
    p += 3 * n * sizeof(double);
    sp->sl_stage = (sphere_slot *)p;
    p += n * sizeof(sphere_slot);
    sp->sl_slot = (sphere_slot *)p;
    p += n * sizeof(sphere_slot);
    sp->sl_src = (size_t *)p;
    p += n * sizeof(size_t);
    sp->sl_cell = (int32_t *)p;
    p += n * sizeof(int32_t);
    sp->sl_slotof = (uint32_t *)p;
    p += n * sizeof(uint32_t);
    sp->sl_cnt = (uint32_t *)p;
    p += n * sizeof(uint32_t);
    sp->sl_pmask = (uint32_t *)p;
    p += n * sizeof(uint32_t);
    sp->sl_thr = (unsigned char *)p;
    p += n;
    /* the rest, from the next 4-byte boundary: the partners (all of it, as the records may
     * hold far more than asked for) */
    const size_t used = ((size_t)(p - (char *)s->c) + 3) & ~(size_t)3;
    sp->sl_proom = (int32_t *)(void *)((char *)s->c + used);
    sp->sl_pcap = (s->cap * sizeof(clab_contact) - used) / sizeof(int32_t);
    sp->sl_borrowed = 1;
    sp->cap_sl = n;
    return 0;
}

/* the collider's own per-body arrays, for a call without scratch: the borrowed pointers forgotten */
static void unborrow(clab_spheres *sp)
{
    sp->sl_lo = sp->sl_hi = NULL;
    sp->sl_stage = sp->sl_slot = NULL;
    sp->sl_src = NULL;
    sp->sl_cell = NULL;
    sp->sl_slotof = sp->sl_cnt = sp->sl_pmask = NULL;
    sp->sl_thr = NULL;
    sp->sl_proom = NULL;
    sp->sl_pcap = 0;
    sp->sl_borrowed = 0;
    sp->cap_sl = 0;
}

void clab_spheres_free(clab_spheres *sp)
{
    for (int t = 0; t < sp->sl_nbuf; t++) free(sp->sl_buf[t]);
    free(sp->sl_buf);
    free(sp->sl_bufcap);
    void *arrays[] = {sp->sl_lo,   sp->sl_hi,    sp->sl_cell,   sp->sl_cnt,    sp->sl_pmask,
                      sp->sl_src,  sp->sl_thr,   sp->sl_slot,   sp->sl_cstart, sp->sl_ccount,
                      sp->sl_stage, sp->sl_slotof, sp->sl_tri,    sp->sl_tlo,    sp->sl_thi,
                      sp->sl_tstart, sp->sl_tbin};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) free(arrays[k]);
}

/* step 1, on contiguous ranges of bodies (the half-spaces come out in index order), the
 * threads' findings merged; 1 when the scene is not one for the list */
static int scan_all(clab_spheres *sp, const clab_world *w, double M, int T, sl_scene *sc)
{
    const size_t n = w->nbodies;
    const clab_periodic *per = &w->periodic;
    scan_part part[SL_MAX_THREADS];
    int nparts = 1;
#ifdef _OPENMP
#pragma omp parallel num_threads(T) if (T > 1)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
#pragma omp single
        nparts = nt;
        scan(sp, w, M, n * (size_t)t / (size_t)nt, n * (size_t)(t + 1) / (size_t)nt, &part[t]);
    }
#else
    (void)T;
    scan(sp, w, M, 0, n, &part[0]);
#endif
    sc->nplanes = 0;
    sc->ns = 0;
    sc->ntri = 0;
    sc->dmin = INFINITY;
    sc->dmax = sc->Rmax = sc->big = 0.0;
    for (int k = 0; k < 3; k++) {
        sc->clo[k] = INFINITY;
        sc->chi[k] = -INFINITY;
    }
    for (int t = 0; t < nparts; t++) {
        const scan_part *pt = &part[t];
        if (pt->bad || sc->nplanes + pt->nplanes > SL_MAX_PLANES) return 1;
        for (int q = 0; q < pt->nplanes; q++) {
            const clab_body *b = &w->bodies[pt->plane[q]];
            if (!(clab_v3_isfinite(b->r) && isfinite(b->e.e0) && isfinite(b->e.e1) && isfinite(b->e.e2) &&
                  isfinite(b->e.e3)))
                return 1;
            clab_vec3 m = clab_q_rotate(b->e, clab_v3(0.0, 0.0, 1.0));
            for (int k = 0; k < 3; k++)
                if (per->on[k] && fabs(clab_v3_get(m, k)) > 1e-12) return 1; /* the general path reports it */
            sl_plane *p = &sc->pl[sc->nplanes++];
            p->body = pt->plane[q];
            p->fixed = b->fixed != 0;
            p->m[0] = m.x;
            p->m[1] = m.y;
            p->m[2] = m.z;
            p->r = b->r;
        }
        sc->ns += pt->ns;
        sc->ntri += pt->ntri;
        sc->dmin = fmin(sc->dmin, pt->dmin);
        sc->dmax = fmax(sc->dmax, pt->dmax);
        sc->Rmax = fmax(sc->Rmax, pt->Rmax);
        sc->big = fmax(sc->big, pt->big);
        for (int k = 0; k < 3; k++) {
            sc->clo[k] = fmin(sc->clo[k], pt->clo[k]);
            sc->chi[k] = fmax(sc->chi[k], pt->chi[k]);
        }
    }
    return sc->ns == 0 || !(sc->dmax <= SL_SIZE_RATIO * sc->dmin);
}

/* room for nt triangles; 0 on success */
static int reserve_tri(clab_spheres *sp, size_t nt)
{
    if (nt <= sp->cap_tri && sp->sl_tri) return 0;
    size_t cap = nt + nt / 2 + 16;
    if (clab_bp_resize(&sp->sl_tri, cap, sizeof(int32_t)) || clab_bp_resize(&sp->sl_tlo, 3 * cap, sizeof(double)) ||
        clab_bp_resize(&sp->sl_thi, 3 * cap, sizeof(double)))
        return 1;
    sp->cap_tri = cap;
    return 0;
}

/* step 1 for the triangles: their body indices in order and their bounds grown by M/2, by
 * clab_collide_bounds as the general path makes them. 1 when the scene is not for the list:
 * a sphere after the first triangle (the triangle's row would hold spheres), or a triangle
 * not in the world's store or not finite (the general path reports it); -1 out of memory */
static int tri_scan(clab_spheres *sp, const clab_world *w, double M, size_t nt)
{
    if (reserve_tri(sp, nt)) return -1;
    size_t q = nt; /* the triangles follow every sphere: from the end, slots nt - 1 down to 0 */
    for (size_t i = w->nbodies; i-- > 0 && q > 0;) {
        if (sp->sl_cell[i] >= 0) return 1;
        if (sp->sl_cell[i] != SL_CELL_TRI) continue;
        const clab_body *b = &w->bodies[i];
        if (!w->meshes || b->shape.tri < 0 || (size_t)b->shape.tri >= w->meshes->n) return 1;
        clab_vec3 l, h;
        clab_collide_bounds(b, M, &l, &h);
        const double lv[3] = {l.x, l.y, l.z}, hv[3] = {h.x, h.y, h.z};
        q--;
        sp->sl_tri[q] = (int32_t)i;
        for (int k = 0; k < 3; k++) {
            if (!(isfinite(lv[k]) && isfinite(hv[k]))) return 1;
            sp->sl_tlo[3 * q + k] = lv[k];
            sp->sl_thi[3 * q + k] = hv[k];
        }
    }
    return 0;
}

/* step 2, the grid: side at least the largest 2R + M, with room for rounding at the scale of
 * the coordinates; *nc cells. 1 when the scene is not one for the list */
static int make_grid(const clab_periodic *per, const sl_scene *sc, double M, sl_grid *gr, long *nc)
{
    double big = sc->big;
    for (int k = 0; k < 3; k++)
        if (per->on[k]) big = fmax(big, fabs(per->lo[k]) + fabs(per->hi[k]));
    double side = sc->dmax * (1.0 + 1e-6) + 64.0 * DBL_EPSILON * (big + M);
    double ncells = 1.0;
    gr->side = INFINITY;
    for (int k = 0; k < 3; k++) {
        if (per->on[k]) {
            double L = per->hi[k] - per->lo[k], q = floor(L / side);
            if (!(q >= 3.0 && q <= 1e7)) return 1;
            gr->nc[k] = (long)q;
            gr->base[k] = per->lo[k];
            gr->inv[k] = q / L;
            gr->side = fmin(gr->side, L / q);
        } else {
            double q = floor((sc->chi[k] - sc->clo[k]) / side) + 1.0;
            if (!(q <= 1e7)) return 1;
            gr->nc[k] = (long)q;
            gr->base[k] = sc->clo[k];
            gr->inv[k] = 1.0 / side;
            gr->side = fmin(gr->side, side);
        }
        ncells *= (double)gr->nc[k];
    }
    if (ncells > 8.0 * (double)sc->ns + 4096.0) return 1; /* sparse: the general path hashes */
    *nc = (long)ncells;
    return 0;
}

/* step 2, the cells, and a counting sort by cell on contiguous ranges of bodies: each range
 * counts its spheres a cell, the starts run cell by cell and range by range, so a cell's
 * spheres come in index order (the same slots for any thread count) */
static void sort_cells(clab_spheres *sp, const sl_grid *gr, long nc, size_t n, int T)
{
    int32_t *cell = sp->sl_cell;
    uint32_t *cstart = sp->sl_cstart;
#pragma omp parallel num_threads(T) if (T > 1)
    {
        size_t a, b;
        int nt;
        const int t = thread_range(n, &a, &b, &nt);
        uint32_t *cnt = sp->sl_ccount + (size_t)t * (size_t)nc;
        memset(cnt, 0, (size_t)nc * sizeof *cnt);
        for (size_t i = a; i < b; i++) {
            if (cell[i] < 0) continue; /* a half-space */
            double x[3];
            for (int k = 0; k < 3; k++) x[k] = 0.5 * (sp->sl_lo[3 * i + k] + sp->sl_hi[3 * i + k]);
            cell[i] = (int32_t)cell_index(gr, x);
            cnt[cell[i]]++;
        }
#pragma omp barrier
#pragma omp single
        {
            uint32_t run = 0;
            for (long c = 0; c < nc; c++) {
                cstart[c] = run;
                for (int u = 0; u < nt; u++) {
                    uint32_t *q = sp->sl_ccount + (size_t)u * (size_t)nc + c, k = *q;
                    *q = run; /* range u's first slot in cell c */
                    run += k;
                }
            }
            cstart[nc] = run;
        }
        for (size_t i = a; i < b; i++)
            if (cell[i] >= 0) {
                uint32_t p = cnt[cell[i]]++;
                sp->sl_slot[p] = sp->sl_stage[i];
                sp->sl_slotof[i] = p;
            }
    }
}

/* Step 4, the order: the half-spaces' rows counted per thread range, the blocks' first pairs
 * by a scan over the bodies, then each range copies its blocks and its share of the rows.
 * *total pairs; 1 when out of memory. One parallel region whose barriers order its four
 * passes (kept whole: split, its per-range counts would go through memory between regions) */
static int write_rows(clab_spheres *sp, clab_rows *rows, size_t n, const sl_scene *sc, const int32_t *const *tpart,
                      int T, size_t *total)
{
    const sl_plane *pl = sc->pl;
    const int nplanes = sc->nplanes, mixed = nplanes || sc->ntri;
    size_t rowcnt[SL_MAX_THREADS][SL_MAX_PLANES], rowstart[SL_MAX_PLANES], rowtot[SL_MAX_PLANES],
        tsum[SL_MAX_THREADS + 1];
    int nomem = 0;
    *total = 0;
#pragma omp parallel num_threads(T) if (T > 1)
    {
        size_t a, b;
        int nt;
        const int t = thread_range(n, &a, &b, &nt);
        for (int q = 0; q < nplanes; q++) rowcnt[t][q] = 0;
        if (nplanes)
            for (size_t i = a; i < b; i++)
                if (sp->sl_cell[i] >= 0)
                    for (uint32_t m = sp->sl_pmask[sp->sl_slotof[i]]; m; m &= m - 1) rowcnt[t][__builtin_ctz(m)]++;
#pragma omp barrier
#pragma omp single
        for (int q = 0; q < nplanes; q++) {
            size_t s = 0;
            for (int u = 0; u < nt; u++) s += rowcnt[u][q];
            rowtot[q] = s;
        }
        size_t s = 0;
        for (size_t i = a; i < b; i++)
            s += sp->sl_cell[i] >= 0                 ? sp->sl_cnt[sp->sl_slotof[i]]
                 : sp->sl_cell[i] == SL_CELL_PLANE ? rowtot[plane_of(pl, (int)i)]
                                                   : 0; /* a triangle: no partner of higher index */
        tsum[t + 1] = s;
#pragma omp barrier
#pragma omp single
        {
            tsum[0] = 0;
            for (int u = 0; u < nt; u++) tsum[u + 1] += tsum[u];
            *total = tsum[nt];
            if (clab_rows_reserve(rows, n, *total)) {
                nomem = 1;
            } else {
                rows->row[n] = *total;
                for (size_t u = 0; u < CLAB_PREFETCH_AHEAD; u++) rows->nbr[*total + u] = 0;
            }
        }
        if (!nomem) {
            uint32_t *out = rows->nbr;
            size_t off = tsum[t];
            for (size_t i = a; i < b; i++) {
                rows->row[i] = off;
                rows->gen[i] = sp->sl_cell[i] < 0; /* a half-space's row: the general path */
                if (sp->sl_cell[i] >= 0) {
                    uint32_t sl = sp->sl_slotof[i];
                    size_t k = sp->sl_cnt[sl];
                    if (k == 0) continue; /* (a thread without partners has no buffer: no pointer arithmetic on NULL) */
                    const int32_t *src = tpart[sp->sl_thr[sl]] + sp->sl_src[sl];
                    for (size_t u = 0; u < k; u++) out[off + u] = (uint32_t)src[u];
                    if (mixed) /* a half-space or a triangle partner: the general path for the row */
                        for (size_t u = 0; u < k; u++)
                            if (sp->sl_cell[src[u]] < 0) rows->gen[i] = 1;
                    off += k;
                } else if (sp->sl_cell[i] == SL_CELL_PLANE) {
                    int q = plane_of(pl, (int)i);
                    rowstart[q] = off;
                    off += rowtot[q];
                }
            }
        }
#pragma omp barrier
        if (!nomem && nplanes) {
            size_t cur[SL_MAX_PLANES];
            for (int q = 0; q < nplanes; q++) {
                cur[q] = rowstart[q];
                for (int u = 0; u < t; u++) cur[q] += rowcnt[u][q];
            }
            for (size_t i = a; i < b; i++)
                for (uint32_t m = sp->sl_cell[i] >= 0 ? sp->sl_pmask[sp->sl_slotof[i]] : 0; m; m &= m - 1) {
                    int q = __builtin_ctz(m);
                    rows->nbr[cur[q]++] = (uint32_t)i;
                }
        }
    }
    return nomem;
}

/* steps 1 to 4 (the file's head), in order */
static int sphere_list(clab_spheres *sp, clab_rows *rows, clab_broadphase_stats *st, const clab_world *w, double M,
                       size_t *npairs)
{
    const size_t n = w->nbodies;
    if (n < 2 || n >= INT32_MAX || !(M >= 0.0 && M < 1e300)) return 1;
    int T = 1;
#ifdef _OPENMP
    if (n >= SL_PAR_MIN) T = omp_get_max_threads();
#endif
    if (T > SL_MAX_THREADS) T = SL_MAX_THREADS;
    if (reserve(sp, n, 0, T)) return -1;
    sl_scene sc;
    if (scan_all(sp, w, M, T, &sc)) return 1;
    int rc = sc.ntri ? tri_scan(sp, w, M, sc.ntri) : 0;
    if (rc) return rc;
    sl_grid gr;
    long nc = 0;
    if (make_grid(&w->periodic, &sc, M, &gr, &nc)) return 1;
    if (reserve(sp, n, (size_t)nc, T)) return -1;
    if (sc.ntri && (rc = tri_bins(sp, &gr, nc, &sc))) return rc;
    sort_cells(sp, &gr, nc, n, T);
    const int32_t *tpart[SL_MAX_THREADS] = {NULL};
    if (clab_sphere_pairs(sp, w, &gr, nc, &sc, M, T, tpart)) return -1;
    size_t total = 0;
    if (write_rows(sp, rows, n, &sc, tpart, T, &total)) return -1;
    rows->Rmax = sc.Rmax;
    st->cell = gr.side;
    st->levels = 1;
    st->dense = 1;
    st->grid_bodies = sc.ns;
    st->coarse_bodies = 0;
    st->large_bodies = 0;
    st->planes = (size_t)sc.nplanes;
    st->entries = sc.ns;
    st->buckets = (size_t)nc;
    st->pairs = total;
    st->sphere_list = 1;
    *npairs = total;
    return 0;
}

/* the list, with its per-body scratch borrowed from clab_collide's output when it can be
 * (the list's own arrays, freed first, otherwise) */
int clab_sphere_list(clab_spheres *sp, clab_rows *rows, clab_broadphase_stats *st, const clab_world *w, double M,
                     clab_contacts *scratch, size_t *npairs)
{
    sp->scratch = scratch;
    if (sp->scratch && !sp->sl_borrowed) {
        void *own[] = {sp->sl_lo, sp->sl_hi, sp->sl_stage, sp->sl_slot, sp->sl_src,
                       sp->sl_cell, sp->sl_slotof, sp->sl_cnt, sp->sl_pmask, sp->sl_thr};
        if (borrow(sp, w->nbodies) == 0)
            for (size_t k = 0; k < sizeof own / sizeof own[0]; k++) free(own[k]);
    }
    int rc = sphere_list(sp, rows, st, w, M, npairs);
    if (sp->sl_borrowed) unborrow(sp);
    sp->scratch = NULL;
    return rc;
}
