/* pairlist.c: the kept pair list of clab_collide, by rows (clab_pair_list): the skin test
 * (skin.c) keeps the last build's list; else a rebuild, from the sphere cell list
 * (broadphase_spheres.c) when the scene is one for it, else from the general grid (grid.c)
 * and the distance filter below. The top of the broad phase: it calls those three, they call
 * none of each other. */
#include <stdlib.h>

#include "broadphase.h"
#include "clab_clock.h"

void clab_broad_free(clab_broad *bp)
{
    clab_grid_free(&bp->grid);
    clab_spheres_free(&bp->spheres);
    clab_skin_free(&bp->skin);
    free(bp->rows.row);
    free(bp->rows.gen);
    free(bp->rows.nbr);
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
 * A sphere and a triangle of a mesh wall (not in a periodic world) are dropped alike when a
 * lower bound of their distance exceeds R + M (clab_sphere_tri_far, collide_common.h).
 * The np pairs (sorted by (i, j)) that pass go to the rows, order kept, a row with a body
 * other than a plain sphere marked in rows->gen, Rmax the largest radius of the plain
 * spheres; returns the pairs kept, or (size_t)-1 when out of memory. */
static size_t keep_near_spheres(clab_rows *rows, const clab_world *w, double M, const clab_pair *pairs, size_t np)
{
    const clab_periodic *per = &w->periodic;
    const int periodic = per->on[0] || per->on[1] || per->on[2];
    const clab_body *bodies = w->bodies;
    const size_t n = w->nbodies;
    if (clab_rows_reserve(rows, n, np)) return (size_t)-1;
    size_t kept = 0, k = 0;
    double Rmax = 0.0;
    for (size_t i = 0; i < n; i++) {
        const clab_body *A = &bodies[i];
        int gen = !plain_sphere(A);
        if (!gen && A->shape.radius > Rmax) Rmax = A->shape.radius;
        rows->row[i] = kept;
        for (; k < np && (size_t)pairs[k].i == i; k++) {
            const clab_body *B = &bodies[pairs[k].j];
            if (A->shape.type == CLAB_SHAPE_SPHERE && B->shape.type == CLAB_SHAPE_SPHERE) {
                clab_vec3 d = clab_v3_sub(B->r, A->r);
                if (periodic) d = clab_world_min_image(per, d);
                double S = A->shape.radius + B->shape.radius + M;
                if (S > 0.0 && clab_v3_dot(d, d) > S * S * (1.0 + 2e-10)) continue;
            } else if (!periodic && A->shape.type == CLAB_SHAPE_SPHERE && B->shape.type == CLAB_SHAPE_TRIANGLE) {
                if (clab_sphere_tri_far(w, A, B, M)) continue;
            } else if (!periodic && A->shape.type == CLAB_SHAPE_TRIANGLE && B->shape.type == CLAB_SHAPE_SPHERE) {
                if (clab_sphere_tri_far(w, B, A, M)) continue;
            }
            if (!plain_sphere(B)) gen = 1;
            rows->nbr[kept++] = (uint32_t)pairs[k].j;
        }
        rows->gen[i] = (unsigned char)gen;
    }
    rows->row[n] = kept;
    for (size_t u = 0; u < CLAB_PREFETCH_AHEAD; u++) rows->nbr[kept + u] = 0;
    rows->Rmax = Rmax;
    return kept;
}

/* a new list for bounds grown by M/2 into the rows, *np pairs: the sphere cell list when the
 * scene is one for it, else the grid and the distance filter */
static int build(clab_broad *bp, const clab_world *w, double M, int general_only, clab_contacts *scratch, size_t *np,
                 clab_error *err)
{
    int fast = general_only ? 1 : clab_sphere_list(&bp->spheres, &bp->rows, &bp->st, w, M, scratch, np);
    if (fast < 0) return clab_error_set(err, CLAB_ENOMEM, "out of memory in the broad phase");
    if (fast == 0) return CLAB_OK;
    int rc = clab_grid_pairs(&bp->grid, w, M, &bp->st, np, err);
    if (rc) return rc;
    *np = keep_near_spheres(&bp->rows, w, M, bp->grid.pairs, *np);
    if (*np == (size_t)-1) return clab_error_set(err, CLAB_ENOMEM, "out of memory in the broad phase");
    return CLAB_OK;
}

static void list_of(const clab_broad *bp, const clab_world *w, size_t np, clab_pair_list *list)
{
    list->n = w->nbodies;
    list->row = bp->rows.row;
    list->gen = bp->rows.gen;
    list->nbr = bp->rows.nbr;
    list->Rmax = bp->rows.Rmax;
    list->np = np;
}

int clab_broad_list(clab_broad *bp, const clab_world *w, double margin, int general_only, clab_contacts *scratch,
                    const clab_skin_visit *visit, clab_pair_list *list, clab_error *err)
{
    bp->st.calls++;
    bp->skin.hot_ok = 0;
    const double t0 = clab_clock();
    const int keep = bp->kept && clab_skin_holds(&bp->skin, w, margin, visit);
    const double t1 = clab_clock();
    bp->st.t_skin += t1 - t0;
    if (keep) {
        list_of(bp, w, bp->kept_np, list);
        return CLAB_OK;
    }
    double skin = 0.0, slack = 0.0;
    bp->kept = 0; /* until this build is complete: a failed one leaves no list to keep */
    if (bp->skin.skin != 0.0 && clab_skin_remember(&bp->skin, w, margin, scratch, &skin, &slack))
        return clab_error_set(err, CLAB_ENOMEM, "out of memory in the broad phase");
    size_t np = 0;
    int rc = build(bp, w, margin + skin + slack, general_only, scratch, &np, err);
    if (rc) return rc;
    list_of(bp, w, np, list);
    bp->st.pairs = np;
    bp->st.rebuilds++;
    bp->st.t_build += clab_clock() - t1;
    bp->builds++;
    bp->st.skin = skin;
    bp->kept = bp->skin.skin != 0.0;
    bp->kept_np = np;
    return CLAB_OK;
}
