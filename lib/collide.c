/* collide.c: the narrow-phase dispatch table and the collision driver */
#include <stdlib.h>

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

struct clab_collider {
    clab_pair *pairs;
    size_t npairs, cap;
};

clab_collider *clab_collider_create(void) { return calloc(1, sizeof(clab_collider)); }

void clab_collider_destroy(clab_collider *cd)
{
    if (!cd) return;
    free(cd->pairs);
    free(cd);
}

/* placeholder broad phase: every pair (to be replaced by the uniform grid) */
int clab_broadphase(clab_collider *cd, const clab_world *w, double margin, const clab_pair **pairs, size_t *npairs,
                    clab_error *err)
{
    (void)margin;
    cd->npairs = 0;
    for (size_t i = 0; i < w->nbodies; i++)
        for (size_t j = i + 1; j < w->nbodies; j++) {
            if (w->bodies[i].fixed && w->bodies[j].fixed) continue;
            if (cd->npairs == cd->cap) {
                size_t cap = cd->cap ? 2 * cd->cap : 256;
                clab_pair *p = realloc(cd->pairs, cap * sizeof *p);
                if (!p) return clab_error_set(err, CLAB_ENOMEM, "out of memory in the broad phase");
                cd->pairs = p;
                cd->cap = cap;
            }
            cd->pairs[cd->npairs].i = (int)i;
            cd->pairs[cd->npairs].j = (int)j;
            cd->npairs++;
        }
    *pairs = cd->pairs;
    *npairs = cd->npairs;
    return CLAB_OK;
}

int clab_collide(clab_collider *cd, const clab_world *w, double envelope, clab_contacts *out, clab_error *err)
{
    const clab_pair *pairs;
    size_t np;
    clab_contacts_clear(out);
    int rc = clab_broadphase(cd, w, envelope > 0.0 ? envelope : 0.0, &pairs, &np, err);
    if (rc) return rc;
    for (size_t k = 0; k < np; k++)
        if (clab_collide_pair(w, pairs[k].i, pairs[k].j, envelope, out))
            return clab_error_set(err, CLAB_ENOMEM, "out of memory storing contacts");
    return CLAB_OK;
}
