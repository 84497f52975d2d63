/* world_order.c: renumbering the bodies of a world (clab_world_permute) and the cell order
 * that puts bodies near in space near in memory (clab_world_cell_order), as LAMMPS's atom
 * sort does every 1000 steps by default: the narrow phase's reads of a pair's second body,
 * the penalty sums' reads of a body's contacts and, on two threads, the share of bodies each
 * thread touches stay local; and the order of adding (clab_world_add_order), which outputs
 * of a sorted run keep. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clab_world.h"

int clab_world_permute(clab_world *w, const size_t *perm, clab_error *err)
{
    const size_t n = w->nbodies;
    if (n == 0) return CLAB_OK;
    /* every old index exactly once (a bit a body), then the moves in place along the cycles
     * of perm: no second copy of the bodies (184 bytes a body) */
    uint64_t *done = calloc((n + 63) / 64, sizeof *done);
    const int need_inv = w->njoints || w->ndriven; /* joints and driven bodies name bodies */
    size_t *inv = need_inv ? malloc(n * sizeof *inv) : NULL;
    if (!done || (need_inv && !inv)) {
        free(done);
        free(inv);
        return clab_error_set(err, CLAB_ENOMEM, "renumbering %zu bodies: out of memory", n);
    }
    for (size_t k = 0; k < n; k++) {
        size_t o = perm[k];
        if (o >= n || (done[o / 64] >> (o % 64) & 1u)) {
            free(done);
            free(inv);
            return clab_error_set(err, CLAB_EINVAL,
                                  "renumbering bodies: entry %zu of the order is %zu, %s (a permutation of 0..%zu "
                                  "is needed); the world is unchanged",
                                  k, o, o >= n ? "out of range" : "given twice", n - 1);
        }
        done[o / 64] |= UINT64_C(1) << (o % 64);
        if (inv) inv[o] = k;
    }
    memset(done, 0, (n + 63) / 64 * sizeof *done);
    for (size_t k0 = 0; k0 < n; k0++) {
        if (done[k0 / 64] >> (k0 % 64) & 1u) continue;
        /* the cycle k0 <- perm[k0] <- perm[perm[k0]] ... back to k0 */
        clab_body first = w->bodies[k0];
        size_t first_off = w->name_off[k0]; /* names stay with their bodies ("body<i>" included) */
        clab_load first_load = w->loads ? w->loads[k0] : (clab_load){{0, 0, 0}, {0, 0, 0}};
        size_t k = k0;
        for (;;) {
            done[k / 64] |= UINT64_C(1) << (k % 64);
            size_t o = perm[k];
            if (o == k0) {
                w->bodies[k] = first;
                w->name_off[k] = first_off;
                if (w->loads) w->loads[k] = first_load;
                break;
            }
            w->bodies[k] = w->bodies[o];
            w->name_off[k] = w->name_off[o];
            if (w->loads) w->loads[k] = w->loads[o];
            k = o;
        }
    }
    for (size_t j = 0; j < w->njoints; j++) {
        clab_joint *jt = &w->joints[j];
        if (jt->a >= 0 && (size_t)jt->a < n) jt->a = (int)inv[jt->a];
        if (jt->b >= 0 && (size_t)jt->b < n) jt->b = (int)inv[jt->b];
    }
    for (size_t k = 0; k < w->ndriven; k++) w->driven[k].body = inv[w->driven[k].body];
    free(done);
    free(inv);
    return CLAB_OK;
}

/* the bits of x (< 2^21) spread to every third bit */
static uint64_t spread3(uint64_t x)
{
    x &= 0x1fffff;
    x = (x | x << 32) & UINT64_C(0x1f00000000ffff);
    x = (x | x << 16) & UINT64_C(0x1f0000ff0000ff);
    x = (x | x << 8) & UINT64_C(0x100f00f00f00f00f);
    x = (x | x << 4) & UINT64_C(0x10c30c30c30c30c3);
    x = (x | x << 2) & UINT64_C(0x1249249249249249);
    return x;
}

typedef struct order_item {
    uint64_t code; /* Morton code of the cell (UINT64_MAX: a non-finite center, last) */
    size_t index;  /* old index: ties keep the old order */
} order_item;

static int by_code(const void *pa, const void *pb)
{
    const order_item *a = pa, *b = pb;
    if (a->code != b->code) return a->code < b->code ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

int clab_world_cell_order(const clab_world *w, double cell, size_t *perm, size_t *moved, clab_error *err)
{
    const size_t n = w->nbodies;
    if (moved) *moved = 0;
    for (size_t i = 0; i < n; i++) perm[i] = i;
    double rmax = 0.0;
    for (size_t i = 0; i < n; i++)
        if (w->bodies[i].shape.type == CLAB_SHAPE_SPHERE && w->bodies[i].shape.radius > rmax)
            rmax = w->bodies[i].shape.radius;
    if (cell <= 0.0) cell = 2.0 * rmax; /* automatic: a sphere diameter */
    if (!(cell > 0.0 && isfinite(cell)))
        return n == 0 || rmax == 0.0 ? CLAB_OK
                                     : clab_error_set(err, CLAB_EINVAL, "cell order: cell size %g m must be finite and > 0",
                                                      cell);
    order_item *it = malloc((n ? n : 1) * sizeof *it);
    if (!it) return clab_error_set(err, CLAB_ENOMEM, "cell order of %zu bodies: out of memory", n);
    /* the lower corner of the cells: the period's lo on periodic axes, else the smallest
     * finite center among the spheres */
    double lo[3] = {INFINITY, INFINITY, INFINITY};
    for (size_t i = 0; i < n; i++) {
        const clab_body *b = &w->bodies[i];
        if (b->shape.type != CLAB_SHAPE_SPHERE) continue;
        const double r[3] = {b->r.x, b->r.y, b->r.z};
        for (int k = 0; k < 3; k++)
            if (isfinite(r[k]) && r[k] < lo[k]) lo[k] = r[k];
    }
    for (int k = 0; k < 3; k++)
        if (w->periodic.on[k]) lo[k] = w->periodic.lo[k];
    /* each maximal run of consecutive spheres is sorted within itself: no sphere passes a
     * body of another shape, so a pair (sphere, box) or (sphere, plane) keeps its order and
     * its contact key's meaning (features of boxes are numbered from a to b); pairs of two
     * spheres may swap, which backends map (clab_backend_type.permute) */
    size_t i = 0;
    while (i < n) {
        if (w->bodies[i].shape.type != CLAB_SHAPE_SPHERE) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < n && w->bodies[j].shape.type == CLAB_SHAPE_SPHERE) j++;
        for (size_t q = i; q < j; q++) {
            const clab_body *b = &w->bodies[q];
            const double r[3] = {b->r.x, b->r.y, b->r.z};
            uint64_t code = 0;
            int finite = 1;
            for (int k = 0; k < 3 && finite; k++) {
                double x = r[k];
                if (!isfinite(x)) {
                    finite = 0;
                    break;
                }
                if (w->periodic.on[k]) x = clab_world_wrap_coord(x, w->periodic.lo[k], w->periodic.hi[k]);
                double c = floor((x - lo[k]) / cell);
                uint64_t ci = c <= 0.0 ? 0 : c >= 2097151.0 ? 2097151 : (uint64_t)c;
                code |= spread3(ci) << k;
            }
            it[q - i].code = finite ? code : UINT64_MAX;
            it[q - i].index = q;
        }
        qsort(it, j - i, sizeof *it, by_code);
        for (size_t q = i; q < j; q++) {
            perm[q] = it[q - i].index;
            if (moved && perm[q] != q) (*moved)++;
        }
        i = j;
    }
    free(it);
    return CLAB_OK;
}

/* one body's name offset and index, sorted by the offset (clab_world_add_order) */
typedef struct {
    size_t off, index;
} added;

static int by_offset(const void *pa, const void *pb)
{
    const added *a = pa, *b = pb;
    return (a->off > b->off) - (a->off < b->off);
}

int clab_world_add_order(const clab_world *w, size_t *order, clab_error *err)
{
    const size_t n = w->nbodies;
    int identity = 1;
    for (size_t i = 1; i < n && identity; i++) identity = w->name_off[i - 1] < w->name_off[i];
    if (identity) {
        for (size_t i = 0; i < n; i++) order[i] = i;
        return 1;
    }
    added *a = malloc(n * sizeof *a);
    if (!a) {
        clab_error_set(err, CLAB_ENOMEM, "the order of adding %zu bodies: out of memory", n);
        return -1;
    }
    for (size_t i = 0; i < n; i++) a[i] = (added){w->name_off[i], i};
    qsort(a, n, sizeof *a, by_offset); /* the offsets differ: each name has its own */
    for (size_t k = 0; k < n; k++) order[k] = a[k].index;
    free(a);
    return 0;
}
