/* collide.c: the narrow-phase dispatch table and the collision driver */
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "collide_internal.h"

int clab_emit_contact(const clab_body *A, const clab_body *B, int ia, int ib, clab_vec3 pA, clab_vec3 pB, clab_vec3 n,
                      double phi, unsigned feature, clab_contacts *out)
{
    clab_contact c;
    if (ia > ib) { /* seed 000: n points from the lower body index to the higher */
        const clab_body *tb = A; A = B; B = tb;
        int ti = ia; ia = ib; ib = ti;
        n = clab_v3_neg(n);
    }
    c.a = ia;
    c.b = ib;
    c.n = n;
    clab_vec3 p = clab_v3_scale(clab_v3_add(pA, pB), 0.5); /* P, midway: kept as sa, sb only */
    c.phi = phi;
    c.sa = clab_q_rotate_inv(A->e, clab_v3_sub(p, A->r));
    c.sb = clab_q_rotate_inv(B->e, clab_v3_sub(p, B->r));
    c.key = clab_contact_key(ia, ib, feature);
    return clab_contacts_push(out, &c);
}

/* narrow[ta][tb] for ta <= tb (sphere < plane < box); NULL: no contact between these shapes
 * (two half-spaces are both fixed) */
static const clab_narrow_fn narrow[CLAB_SHAPE_COUNT][CLAB_SHAPE_COUNT] = {
    /*              sphere                      plane                       box  */
    /* sphere */ {clab_collide_sphere_sphere, clab_collide_sphere_plane, clab_collide_sphere_box},
    /* plane  */ {NULL, NULL, clab_collide_plane_box},
    /* box    */ {NULL, NULL, clab_collide_box_box},
};

int clab_collide_pair(const clab_world *w, int i, int j, double envelope, clab_contacts *out)
{
    const clab_body *A = &w->bodies[i], *B = &w->bodies[j];
    /* periodic axes: the higher-index body's image nearest the lower one's (minimum image),
     * so P lies near body a; half-spaces contain the periodic directions and need none */
    clab_body image;
    const clab_periodic *per = &w->periodic;
    if ((per->on[0] || per->on[1] || per->on[2]) && A->shape.type != CLAB_SHAPE_PLANE &&
        B->shape.type != CLAB_SHAPE_PLANE) {
        int lo = i < j ? i : j, hi = i < j ? j : i;
        const clab_body *Bl = &w->bodies[lo], *Bh = &w->bodies[hi];
        clab_vec3 d = clab_v3_sub(Bh->r, Bl->r), dm = clab_world_min_image(per, d);
        if (dm.x != d.x || dm.y != d.y || dm.z != d.z) {
            image = *Bh;
            image.r = clab_v3_add(Bh->r, clab_v3_sub(dm, d)); /* r_hi shifted by whole periods */
            if (hi == i) A = &image;
            else B = &image;
        }
    }
    if (A->shape.type > B->shape.type) {
        const clab_body *t = A; A = B; B = t;
        int k = i; i = j; j = k;
    }
    clab_narrow_fn f = narrow[A->shape.type][B->shape.type];
    if (!f) return CLAB_OK;
    size_t first = out->n;
    int rc = f(A, B, i, j, envelope, out);
    if (rc) return rc;

    /* this pair's records by feature (insertion sort: 4 or fewer in practice) */
    for (size_t k = first + 1; k < out->n; k++) {
        clab_contact c = out->c[k];
        size_t p = k;
        while (p > first && out->c[p - 1].key > c.key) {
            out->c[p] = out->c[p - 1];
            p--;
        }
        out->c[p] = c;
    }
    return CLAB_OK;
}

/* the record of sphere i touching sphere j > i (rb: j's minimum image, d = rb - ra): the
 * operations of clab_collide_sphere_sphere and clab_emit_contact in the same order, so the
 * record is the same to the bit */
#if defined(__GNUC__)
__attribute__((noinline)) /* the rare path (1 candidate pair in 7 on the chute): inlined, it made
                           * the compiler spill registers in every pair's distance test */
#endif
static int sphere_record(const clab_body *bodies, const clab_hot_body *hi, const clab_hot_body *hj, int i, int j,
                         clab_vec3 ra, clab_vec3 rb, clab_vec3 d, double d2, double env, clab_contacts *out)
{
    double dist = sqrt(d2);
    double phi = dist - hi->R - hj->R;
    if (phi >= env) return CLAB_OK;
    if (out->n == out->cap) {
        clab_contact dummy;
        memset(&dummy, 0, sizeof dummy);
        if (clab_contacts_push(out, &dummy)) return CLAB_ENOMEM;
        out->n--;
    }
    clab_contact *c = &out->c[out->n++];
    clab_vec3 n = dist > 0.0 ? clab_v3_scale(d, 1.0 / dist) : clab_v3(0.0, 0.0, 1.0);
    clab_vec3 pA = clab_v3_madd(ra, hi->R, n);
    clab_vec3 pB = clab_v3_madd(rb, -hj->R, n);
    c->a = i;
    c->b = j;
    c->n = n;
    clab_vec3 p = clab_v3_scale(clab_v3_add(pA, pB), 0.5); /* P, midway: kept as sa, sb only */
    c->phi = phi;
    c->sa = clab_q_rotate_inv(bodies[i].e, clab_v3_sub(p, ra));
    c->sb = clab_q_rotate_inv(bodies[j].e, clab_v3_sub(p, rb));
    c->key = clab_contact_key(i, j, 0);
    return CLAB_OK;
}

/* sphere i against sphere j > i from the gathered hot data: the minimum image of
 * clab_collide_pair (half[k]: half the period of a periodic axis k, else infinite, so the
 * common case of no shift costs three compares), then a pair farther apart than
 * (R_i + R_j + envelope)(1 + 1e-10) is dropped before the square root (a margin far above the
 * rounding of Phi); the rest goes to sphere_record */
static inline int sphere_pair(const clab_body *bodies, const clab_hot_body *hi, const clab_hot_body *hj, int i, int j,
                              double env, const clab_periodic *per, const double half[3], clab_contacts *out)
{
    clab_vec3 ra = clab_v3(hi->r[0], hi->r[1], hi->r[2]), rb = clab_v3(hj->r[0], hj->r[1], hj->r[2]);
    clab_vec3 d = clab_v3_sub(rb, ra);
    if ((fabs(d.x) > half[0]) | (fabs(d.y) > half[1]) | (fabs(d.z) > half[2])) {
        clab_vec3 dm = clab_world_min_image(per, d);
        if (dm.x != d.x || dm.y != d.y || dm.z != d.z) {
            rb = clab_v3_add(rb, clab_v3_sub(dm, d));
            d = clab_v3_sub(rb, ra);
        }
    }
    double d2 = clab_v3_dot(d, d), S = hi->R + hj->R + env;
    if (S > 0.0 && d2 > S * S * (1.0 + 2e-10)) return CLAB_OK;
    return sphere_record(bodies, hi, hj, i, j, ra, rb, d, d2, env, out);
}

/* room for n records in cs (contents kept); 0 on success */
static int reserve_contacts(clab_contacts *cs, size_t n)
{
    if (n <= cs->cap) return 0;
    size_t cap = cs->cap ? cs->cap : 64;
    while (cap < n) cap *= 2;
    clab_contact *c = realloc(cs->c, cap * sizeof *c);
    if (!c) return 1;
    cs->c = c;
    cs->cap = cap;
    return 0;
}

/* the narrow phase of pairs [k0, k1) appended to out */
static int narrow_range(const clab_world *w, const clab_hot_body *hot, const clab_pair *pairs, size_t k0, size_t k1,
                        double envelope, clab_contacts *out)
{
    const clab_periodic *per = &w->periodic;
    int rc = CLAB_OK;
    double half[3];
    clab_world_half_periods(per, half);
    for (size_t k = k0; k < k1 && rc == CLAB_OK; k++) {
        int i = pairs[k].i, j = pairs[k].j;
        /* the pairs are in (i, j) order, so hot[j] is a random read: asked for a few pairs ahead,
         * the reads overlap instead of waiting one after the other */
        if (k + CLAB_PREFETCH_AHEAD < k1) CLAB_PREFETCH(&hot[pairs[k + CLAB_PREFETCH_AHEAD].j]);
        if (hot[i].R >= 0.0 && hot[j].R >= 0.0) rc = sphere_pair(w->bodies, &hot[i], &hot[j], i, j, envelope, per, half, out);
        else rc = clab_collide_pair(w, i, j, envelope, out);
    }
    return rc;
}

/* below this many pairs (bodies) the narrow phase (the gather) runs on one thread */
#define PAR_MIN 4096

/* broad phase (broadphase.c: the kept list of the Verlet skin, or a rebuild), then the narrow
 * phase of each candidate pair in (i, j) order; each pair's records come out sorted by
 * feature, so the array is ordered by (a, b, feature). Sphere pairs take the fast path over
 * the bodies' hot data (center and radius, 32 bytes a body; a record reads the two bodies'
 * orientations from the world) gathered first (by the skin test's pass over the bodies when
 * it runs, else here).
 * With OpenMP the pairs are cut into one contiguous range a thread; thread 0 appends to out,
 * the others to buffers of their own that are then copied behind it in thread order, so the
 * array is the same for any thread count. */
int clab_collide(clab_collider *cd, const clab_world *w, double envelope, clab_contacts *out, clab_error *err)
{
    const clab_pair *pairs;
    size_t np, n = w->nbodies;
    clab_contacts_clear(out);
    cd->hot_ok = 0;
    cd->scratch = out; /* a rebuild's per-sphere scratch lives in out's storage (dead until the narrow phase) */
    int rc = clab_broadphase_kept(cd, w, envelope > 0.0 ? envelope : 0.0, &pairs, &np, err);
    cd->scratch = NULL;
    if (rc) return rc;
    clab_hot_body *hot = clab_collider_hot(cd, n);
    if (!hot) return clab_error_set(err, CLAB_ENOMEM, "out of memory in the narrow phase");
    if (!cd->hot_ok) { /* else the skin test gathered them in its pass (broadphase.c: max_motion) */
#pragma omp parallel for schedule(static) if (n > PAR_MIN)
        for (size_t i = 0; i < n; i++) clab_hot_fill(&hot[i], &w->bodies[i]);
    }
    int nt = 1;
#ifdef _OPENMP
    if (np > PAR_MIN) nt = omp_get_max_threads();
#endif
    if (nt > 1 && (size_t)nt > cd->ntbuf) {
        clab_contacts *t = realloc(cd->tbuf, (size_t)nt * sizeof *t);
        if (!t) return clab_error_set(err, CLAB_ENOMEM, "out of memory in the narrow phase");
        for (size_t k = cd->ntbuf; k < (size_t)nt; k++) clab_contacts_init(&t[k]);
        cd->tbuf = t;
        cd->ntbuf = (size_t)nt;
    }
    if (nt <= 1) {
        rc = narrow_range(w, hot, pairs, 0, np, envelope, out);
    } else {
        int failed = 0, nomem = 0;
        size_t total = 0;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt) reduction(| : failed)
        {
            int t = omp_get_thread_num(), T = omp_get_num_threads();
            size_t k0 = np * (size_t)t / (size_t)T, k1 = np * (size_t)(t + 1) / (size_t)T;
            clab_contacts *dst = t == 0 ? out : &cd->tbuf[t];
            clab_contacts_clear(dst);
            int myrc = narrow_range(w, hot, pairs, k0, k1, envelope, dst);
#pragma omp barrier
#pragma omp single
            {
                total = out->n;
                for (int k = 1; k < T; k++) total += cd->tbuf[k].n;
                nomem = reserve_contacts(out, total);
            }
            if (myrc || nomem) failed = 1;
            /* every thread copies a share of each buffer behind thread 0's records */
            size_t off = out->n;
            for (int k = 1; k < T; k++) {
                const clab_contacts *src = &cd->tbuf[k];
                if (!nomem) {
#pragma omp for schedule(static)
                    for (size_t q = 0; q < src->n; q++) out->c[off + q] = src->c[q];
                }
                off += src->n;
            }
        }
#endif
        if (failed) rc = CLAB_ENOMEM;
        else out->n = total;
    }
    if (rc) return clab_error_set(err, CLAB_ENOMEM, "out of memory storing contacts");
    return CLAB_OK;
}
