/* skin.c: the Verlet skin of the kept pair list, and the bodies' hot records it gathers.
 *
 * The kept list was built with bounds grown by (margin + skin)/2 at the state (r0, e0). Every
 * point of a body moved since by at most d = |r - r0| + 2 R sin(theta/2), theta the rotation
 * from e0 to e (sin(theta/2) = sqrt(1 - (e0 . e)^2), no trig; spheres: d = |r - r0|, their
 * bounds do not turn), so its current box grown by margin/2 lies inside its box of the build
 * while d <= skin/2, and every pair the broad phase would report now is in the kept list.
 *
 * The reference state of a build: centers, shape kind (type x 2 + fixed), and for other
 * bodies than spheres the orientation and bound radius. A sphere's radius at the build is
 * its hot record's (clab_hot_body.R): the build (clab_skin_remember) and every kept call
 * (max_motion) write the hot records of all bodies from that call's state, after max_motion
 * has compared them, so at the start of a kept call they hold the last call's radii, which
 * are the build's (a change would have rebuilt). s->hot_ref counts the records that do (0
 * once they are reallocated: no reference, a rebuild). */
#include <float.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <gsl/gsl_statistics_double.h>

#include "broadphase.h"

/* below this many bodies the gather runs on one thread */
#define GATHER_PAR_MIN 4096

void clab_skin_free(clab_skin *s)
{
    void *arrays[] = {s->ref_r, s->ref_e, s->ref_R, s->ref_kind, s->ref_tmp, s->hot};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) free(arrays[k]);
}

clab_hot_body *clab_skin_hot(clab_skin *s, size_t n)
{
    if (n > s->cap_hot || !s->hot) { /* never NULL unless out of memory, even for n = 0 */
        /* 64-byte aligned: two 32-byte records a cache line, none straddling two (malloc gives
         * 16-byte alignment, and where the records fall then depends on the other allocations);
         * an even count, so the size is a multiple of the alignment; the records are refilled
         * every call, so nothing is copied */
        size_t cap = (n + n / 2 + 16) & ~(size_t)1;
        clab_hot_body *h = aligned_alloc(64, cap * sizeof *h);
        if (!h) return NULL;
        free(s->hot);
        s->hot = h;
        s->cap_hot = cap;
        s->hot_ref = 0; /* they no longer hold the skin's reference radii */
    }
    return s->hot;
}

clab_hot_body *clab_skin_gathered(clab_skin *s, const clab_world *w)
{
    const size_t n = w->nbodies;
    clab_hot_body *hot = clab_skin_hot(s, n);
    if (!hot || s->hot_ok) return hot; /* the skin test gathered them in its pass (max_motion) */
#pragma omp parallel for schedule(static) if (n > GATHER_PAR_MIN)
    for (size_t i = 0; i < n; i++) clab_hot_fill(&hot[i], &w->bodies[i]);
    return hot;
}

/* the motion of bodies [i0, i1) since the last build, into the maxima *dmax (any body's
 * largest point motion) and *d2max (a sphere's |r - r0|^2), *changed = 1 when something else
 * changed; their hot records refilled on the way. hmin2: the square of the smallest half
 * period (infinite when nothing is periodic); |d|^2 < hmin2 means every |d_k| < L_k/2 (the
 * argument of narrow.c's narrow_rows), so the minimum image would leave d as it is */
static inline void block_motion(const clab_skin *s, const clab_world *w, clab_hot_body *hot, double hmin2, long i0,
                                long i1, double *dmax, double *d2max, int *changed)
{
    const clab_periodic *per = &w->periodic;
    for (long i = i0; i < i1; i++) {
        const clab_body *b = &w->bodies[i];
        unsigned char kind = (unsigned char)(2 * b->shape.type + (b->fixed != 0));
        int sphere = b->shape.type == CLAB_SHAPE_SPHERE;
        /* the build's radius: a sphere's in its hot record (read before the refill), else ref_R */
        double R = sphere ? b->shape.radius : clab_shape_bound_radius(&b->shape), R0 = sphere ? hot[i].R : s->ref_R[i];
        clab_hot_fill(&hot[i], b);
        if (kind != s->ref_kind[i] || R != R0) {
            *changed = 1;
            continue;
        }
        clab_vec3 d = clab_v3(b->r.x - s->ref_r[3 * i], b->r.y - s->ref_r[3 * i + 1], b->r.z - s->ref_r[3 * i + 2]);
        double d2 = clab_v3_norm2(d), dm;
        if (!(d2 < hmin2)) { /* (NaN too: the minimum image leaves it NaN) */
            d = clab_world_min_image(per, d);
            d2 = clab_v3_norm2(d);
        }
        if (sphere) { /* sqrt is monotonic: max sqrt = sqrt max */
            if (!(d2 <= *d2max)) *d2max = isnan(d2) ? INFINITY : d2;
            continue;
        }
        const clab_quat *e0 = &s->ref_e[i];
        if (b->shape.type == CLAB_SHAPE_PLANE) {
            /* a half-space that turned: rebuild; one that slid (a driven wall) moved its points
             * by |d|, the motion of any body */
            if (b->e.e0 != e0->e0 || b->e.e1 != e0->e1 || b->e.e2 != e0->e2 || b->e.e3 != e0->e3) *changed = 1;
            else if (d2 != 0.0 && !(sqrt(d2) <= *dmax)) *dmax = isnan(d2) ? INFINITY : sqrt(d2);
            continue;
        }
        double c = b->e.e0 * e0->e0 + b->e.e1 * e0->e1 + b->e.e2 * e0->e2 + b->e.e3 * e0->e3;
        double s2 = 1.0 - c * c;
        dm = sqrt(d2) + 2.0 * s->ref_R[i] * sqrt(s2 > 0.0 ? s2 : 0.0);
        if (!(dm <= *dmax)) *dmax = isnan(dm) ? INFINITY : dm; /* a NaN forces a rebuild (which reports it) */
    }
}

/* the largest motion d of a body since the last build, INFINITY when something else changed
 * (a parallel max: the same for any thread count). By blocks of CLAB_BODY_BLOCK bodies, each
 * handed to visit (NULL: none) while its bodies are still in the cache; thread t takes the
 * blocks of clab_thread_bodies */
static double max_motion(clab_skin *s, const clab_world *w, const clab_skin_visit *visit)
{
    double dmax = 0.0, d2max = 0.0; /* spheres: the largest |r - r0|^2, one square root at the end */
    int changed = 0;
    /* the narrow phase's hot records are gathered in the same pass (one read of the bodies a
     * step instead of two; clab_skin_gathered skips its own gather then) */
    clab_hot_body *hot = clab_skin_hot(s, w->nbodies);
    if (!hot || s->hot_ref != w->nbodies) return INFINITY; /* no sphere radii of the build: rebuild */
    double half[3]; /* the minimum image only past the smallest half period */
    clab_world_half_periods(&w->periodic, half);
    const double hmin = fmin(half[0], fmin(half[1], half[2])), hmin2 = hmin * hmin;
    const size_t n = w->nbodies;
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
            block_motion(s, w, hot, hmin2, (long)i0, (long)i1, &dmax, &d2max, &changed);
            if (visit) visit->fn(visit->ctx, w, i0, i1);
        }
    }
    dmax = fmax(dmax, sqrt(d2max));
    s->hot_ok = 1;
    return changed ? INFINITY : dmax;
}

int clab_skin_holds(clab_skin *s, const clab_world *w, double margin, const clab_skin_visit *visit)
{
    return s->skin != 0.0 && s->nref == w->nbodies && s->ref_margin == margin &&
           memcmp(&s->ref_periodic, &w->periodic, sizeof w->periodic) == 0 &&
           max_motion(s, w, visit) <= 0.5 * s->ref_skin;
}

/* Scratch for the median of n radii: the storage of clab_collide's output while the broad
 * phase runs (scratch: its records are dead until the narrow phase writes them, and a dense
 * world's is far larger than 8 bytes a body; grown when smaller, as the sphere list grows it
 * for its own scratch, broadphase_spheres.c), else the skin's own array (written only then,
 * so its pages cost nothing when it is not used). NULL when out of memory. */
static double *median_scratch(clab_skin *sk, clab_contacts *s, size_t n)
{
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
    if (n > sk->cap_tmp) {
        if (clab_bp_resize(&sk->ref_tmp, n, sizeof(double))) return NULL;
        sk->cap_tmp = n;
    }
    return sk->ref_tmp;
}

int clab_skin_remember(clab_skin *s, const clab_world *w, double margin, clab_contacts *scratch, double *skin,
                       double *slack)
{
    size_t n = w->nbodies;
    if (n > s->cap_ref) {
        size_t cap = n + n / 2 + 16;
        if (clab_bp_resize(&s->ref_r, 3 * cap, sizeof(double)) || clab_bp_resize(&s->ref_e, cap, sizeof(clab_quat)) ||
            clab_bp_resize(&s->ref_R, cap, sizeof(double)) || clab_bp_resize(&s->ref_kind, cap, 1))
            return 1;
        s->cap_ref = cap;
    }
    /* the hot records hold the build's sphere radii (and serve this call's narrow phase) */
    clab_hot_body *hot = clab_skin_hot(s, n);
    if (!hot) return 1;
    /* the reference state, and the scale of the coordinates (a parallel max: the same for any
     * thread count) */
    double big = 0.0;
    const long nl = (long)n;
#pragma omp parallel for schedule(static) reduction(max : big) if (nl > 4096)
    for (long i = 0; i < nl; i++) {
        const clab_body *b = &w->bodies[i];
        double R = b->shape.type == CLAB_SHAPE_SPHERE ? b->shape.radius : clab_shape_bound_radius(&b->shape);
        s->ref_r[3 * i] = b->r.x;
        s->ref_r[3 * i + 1] = b->r.y;
        s->ref_r[3 * i + 2] = b->r.z;
        /* the orientation and bound radius only where max_motion reads them: a turning sphere
         * does not move its bounds, and its radius is in its hot record, so the spheres'
         * entries are never written, and a world of spheres never touches (never makes
         * resident) the pages of ref_e and ref_R */
        if (b->shape.type != CLAB_SHAPE_SPHERE) {
            s->ref_e[i] = b->e;
            s->ref_R[i] = R;
        }
        clab_hot_fill(&hot[i], b);
        s->ref_kind[i] = (unsigned char)(2 * b->shape.type + (b->fixed != 0));
        if (b->shape.type != CLAB_SHAPE_PLANE) big = fmax(big, fabs(b->r.x) + fabs(b->r.y) + fabs(b->r.z) + R);
    }
    s->hot_ref = n;
    s->hot_ok = 1;
    *skin = s->skin;
    if (!(s->skin >= 0.0)) { /* automatic: the median bound radius of the bounded bodies */
        double *tmp = n ? median_scratch(s, scratch, n) : NULL;
        if (n && !tmp) return 1;
        size_t nb = 0;
        for (size_t i = 0; i < n; i++)
            if (s->ref_kind[i] >> 1 != CLAB_SHAPE_PLANE)
                tmp[nb++] = s->ref_kind[i] >> 1 == CLAB_SHAPE_SPHERE ? hot[i].R : s->ref_R[i];
        *skin = nb ? CLAB_SKIN_AUTO * gsl_stats_median(tmp, 1, nb) : 0.0;
    }
    if (!isfinite(*skin)) *skin = 0.0;
    for (int k = 0; k < 3; k++)
        if (w->periodic.on[k]) big = fmax(big, fabs(w->periodic.lo[k]) + fabs(w->periodic.hi[k]));
    /* the bounds are rounded at the scale of the coordinates: grow the build by a few ulps of
     * it, so the containment above holds in floating point too */
    *slack = isfinite(big) ? 16.0 * DBL_EPSILON * (big + margin + *skin) : 0.0;
    s->nref = n;
    s->ref_margin = margin;
    s->ref_skin = *skin;
    s->ref_periodic = w->periodic;
    return 0;
}
