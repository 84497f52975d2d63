/* collide.c: the collision driver. clab_collide runs the broad phase (pairlist.c: the kept
 * list of the Verlet skin, or a rebuild, by rows: clab_pair_list), then the narrow phase of
 * each candidate pair in (i, j) order (narrow.c); each pair's records come out sorted by
 * feature, so the array is ordered by (a, b, feature). Sphere pairs take the fast path over
 * the bodies' hot data (center and radius, 32 bytes a body; a record of two spheres reads
 * nothing else: it stores no levers, clab_contact_levers) gathered first (by the skin test's
 * pass over the bodies when it runs, else by clab_skin_gathered). Records with a side other
 * than a sphere keep their levers in out's side array (clab_contact.h). The layers below call
 * nothing here (collide_internal.h draws the flow). */
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "clab_clock.h"
#include "clab_partition.h"
#include "collide_internal.h"

clab_collider *clab_collider_create(void)
{
    clab_collider *cd = calloc(1, sizeof(clab_collider));
    if (cd) cd->broad.skin.skin = -1.0;
    return cd;
}

void clab_collider_set_skin(clab_collider *cd, double skin)
{
    cd->broad.skin.skin = skin;
    cd->broad.kept = 0;
}

void clab_collider_invalidate(clab_collider *cd) { cd->broad.kept = 0; }

void clab_collider_destroy(clab_collider *cd)
{
    if (!cd) return;
    clab_broad_free(&cd->broad);
    clab_narrow_free(&cd->narrow);
    free(cd->low);
    free(cd);
}

void clab_broadphase_stats_get(const clab_collider *cd, clab_broadphase_stats *st) { *st = cd->broad.st; }

int clab_broadphase(clab_collider *cd, const clab_world *w, double margin, const clab_pair **pairs, size_t *npairs,
                    clab_error *err)
{
    cd->broad.kept = 0; /* the next clab_collide rebuilds its list (this call leaves the rows as
                         * they are, but the grid's pairs and statistics are this call's) */
    *pairs = NULL;
    int rc = clab_grid_pairs(&cd->broad.grid, w, margin, &cd->broad.st, npairs, err);
    if (rc == CLAB_OK) *pairs = cd->broad.grid.pairs;
    return rc;
}

int clab_broadphase_kept(clab_collider *cd, const clab_world *w, double margin, clab_pair_list *list,
                         clab_error *err)
{
    return clab_broad_list(&cd->broad, w, margin, cd->general_only, NULL, NULL, list, err);
}

/* clab_contacts.low for the list L of n bodies: low[j] the lowest body that shares a pair of the
 * list with j (j when none), made once a build (the list is kept between builds); NULL when
 * out of memory. Every record comes from a pair of the list, so low[b] <= a for each */
static const uint32_t *pair_low(clab_collider *cd, const clab_pair_list *L)
{
    const size_t n = L->n;
    if (cd->low && cd->low_n == n && cd->low_build == cd->broad.builds) return cd->low;
    if (n > cd->cap_low || !cd->low) {
        uint32_t *low = realloc(cd->low, (n ? n : 1) * sizeof *low);
        if (!low) return NULL;
        cd->low = low;
        cd->cap_low = n;
    }
    uint32_t *low = cd->low;
    for (size_t j = 0; j < n; j++) low[j] = (uint32_t)j;
    for (size_t i = 0; i < n; i++)
        for (size_t k = L->row[i]; k < L->row[i + 1]; k++) {
            const uint32_t j = L->nbr[k], lo = j < i ? j : (uint32_t)i, hi = j < i ? (uint32_t)i : j;
            if (low[hi] > lo) low[hi] = lo;
        }
    cd->low_n = n;
    cd->low_build = cd->broad.builds;
    return low;
}

/* What clab_collide_with exchanges with the layer above besides the records, in one place:
 * the caller's body pass handed to the skin test (which runs it on each range of bodies it
 * has read), and the threads' partition of the records written into out (part, nparts: the
 * narrow phase's, when it ran on several threads; low: the lowest partner of each body, when
 * more than one thread may run, 4 bytes a body and a pass over the pairs a build otherwise
 * spent for nothing). */
static clab_skin_visit body_pass_visit(const clab_body_pass *pass)
{
    clab_skin_visit v = {NULL, NULL};
    if (pass) {
        v.fn = pass->fn;
        v.ctx = pass->ctx;
    }
    return v;
}

static void contacts_partition(clab_collider *cd, const clab_pair_list *L, int nparts, clab_contacts *out)
{
    if (nparts > 0) clab_contacts_set_parts(out, cd->narrow.part, nparts);
#ifdef _OPENMP
    if (omp_get_max_threads() > 1 && L->n <= UINT32_MAX) clab_contacts_set_low(out, pair_low(cd, L));
#else
    (void)cd;
    (void)L;
#endif
}

int clab_collide(clab_collider *cd, const clab_world *w, double envelope, clab_contacts *out, clab_error *err)
{
    return clab_collide_with(cd, w, envelope, out, NULL, err);
}

int clab_collide_with(clab_collider *cd, const clab_world *w, double envelope, clab_contacts *out,
                      clab_body_pass *pass, clab_error *err)
{
    clab_pair_list list;
#ifdef _OPENMP
    if (omp_get_max_threads() > 1) clab_narrow_note_records(&cd->narrow, out, w->nbodies); /* before out is lent */
#endif
    clab_contacts_clear(out);
    /* a rebuild's per-sphere scratch lives in out's storage (dead until the narrow phase) */
    const clab_skin_visit visit = body_pass_visit(pass);
    int rc = clab_broad_list(&cd->broad, w, envelope > 0.0 ? envelope : 0.0, cd->general_only, out,
                             visit.fn ? &visit : NULL, &list, err);
    if (rc) return rc;
    const double t0 = clab_clock();
    const clab_hot_body *hot = clab_skin_gathered(&cd->broad.skin, w);
    if (!hot) return clab_error_set(err, CLAB_ENOMEM, "out of memory in the narrow phase");
    int nparts = 0;
    rc = clab_narrow_rows(&cd->narrow, w, hot, &list, cd->broad.builds, envelope, out, &nparts, err);
    if (rc) return rc;
    contacts_partition(cd, &list, nparts, out);
    cd->broad.st.t_narrow += clab_clock() - t0;
    return CLAB_OK;
}
