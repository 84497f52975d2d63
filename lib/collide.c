/* collide.c: the narrow-phase dispatch table and the collision driver */
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
    clab_v3_frame(n, &c.u, &c.w);
    c.p = clab_v3_scale(clab_v3_add(pA, pB), 0.5);
    c.phi = phi;
    c.sa = clab_q_rotate_inv(A->e, clab_v3_sub(c.p, A->r));
    c.sb = clab_q_rotate_inv(B->e, clab_v3_sub(c.p, B->r));
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

/* broad phase (broadphase.c), then the narrow phase of each candidate pair in (i, j) order;
 * each pair's records come out sorted by feature, so the array is ordered by (a, b, feature) */
int clab_collide(clab_collider *cd, const clab_world *w, double envelope, clab_contacts *out, clab_error *err)
{
    const clab_pair *pairs;
    size_t np;
    clab_contacts_clear(out);
    int rc = clab_broadphase_kept(cd, w, envelope > 0.0 ? envelope : 0.0, &pairs, &np, err);
    if (rc) return rc;
    for (size_t k = 0; k < np; k++)
        if (clab_collide_pair(w, pairs[k].i, pairs[k].j, envelope, out))
            return clab_error_set(err, CLAB_ENOMEM, "out of memory storing contacts");
    return CLAB_OK;
}
