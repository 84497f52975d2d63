/* step.c: one step of the midpoint backend, Solfec's constrained midpoint scheme, Eq. (9)-(13)
 * of "Constraints" (seed 004; midpoint.h), from (q^t, u^t) and the contacts of q^t:
 *   1. q^{t+h/2} = q^t + (h/2) u^t                                              (9)
 *   2. the rows at q^{t+h/2}: frame, gap Phi^{t+h/2}, H (rows.c); a contact enters the local
 *      dynamics when Phi^{t+h/2} <= 0; U^t = H u^t for the impact law
 *   3. u_free = u^t + h M^-1 f(q^{t+h/2}, u^t) (gravity, gyroscopic term)      (10)
 *      B = H u_free + (e min(U_n^t, 0), 0, 0), W_ij = H_i M^-1 H_j^T (rows.c)
 *   4. R from U = W R + B, C(U, R) = 0 by Gauss-Seidel with the exact local law,
 *      warm-started by contact key (gauss_seidel.c)                             (11)-(12)
 *   5. u^{t+h} = u_free + M^-1 H^T R                                            (10)
 *   6. q^{t+h} = q^{t+h/2} + (h/2) u^{t+h}                                      (13)
 * Forces are reported as R/h [N] in each record's frame (n, u, w). */
#include <stdlib.h>
#include <string.h>

#include "midpoint.h"

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
    if (n <= *cap && *p) return 0;
    size_t c = n + n / 2 + 16;
    void *q = realloc(*p, c * size);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* R of the active rows from the last step's world impulses of the same keys */
static void warm_guess(clab_midpoint *s, const clab_contacts *c)
{
    if (!s->warm_start) return;
    for (size_t i = 0; i < s->nrow; i++) {
        clab_mp_row *r = &s->row[i];
        const clab_vec3 *F = r->active ? clab_warm_get(&s->warm, c->c[i].key) : NULL;
        if (!F) continue;
        r->R[0] = clab_v3_dot(*F, r->n);
        r->R[1] = clab_v3_dot(*F, r->u);
        r->R[2] = clab_v3_dot(*F, r->w);
    }
}

/* the forces R/h in each record's frame, and the world impulses for the next warm start */
static void store(clab_midpoint *s, const clab_contacts *c, double h)
{
    s->nf = c->n;
    for (size_t i = 0; i < c->n; i++) {
        const clab_mp_row *r = &s->row[i];
        if (!r->active) {
            s->fnuw[i] = clab_v3(0.0, 0.0, 0.0);
            continue;
        }
        const clab_vec3 F = clab_v3_add(clab_v3_add(clab_v3_scale(r->n, r->R[0]), clab_v3_scale(r->u, r->R[1])),
                                        clab_v3_scale(r->w, r->R[2]));
        clab_vec3 u, w;
        clab_contact_frame(&c->c[i], &u, &w);
        s->fnuw[i] = clab_v3(clab_v3_dot(F, c->c[i].n) / h, clab_v3_dot(F, u) / h, clab_v3_dot(F, w) / h);
        clab_warm_put(&s->warm_next, c->c[i].key, F);
    }
    /* the next step reads what this one stored */
    const clab_warmstart t = s->warm;
    s->warm = s->warm_next;
    s->warm_next = t;
}

int clab_mp_step(void *self, clab_world *w, const clab_contacts *c, double h, clab_error *err)
{
    clab_midpoint *s = self;
    const size_t nb = w->nbodies;
    if (grow((void **)&s->saved, &s->cap_saved, nb, sizeof *s->saved) ||
        grow((void **)&s->row, &s->cap_row, c->n, sizeof *s->row) ||
        grow((void **)&s->fnuw, &s->cap_f, c->n, sizeof *s->fnuw) || clab_warm_reset(&s->warm_next, c->n))
        return clab_error_set(err, CLAB_ENOMEM, "midpoint: out of memory (%zu bodies, %zu contacts)", nb, c->n);
    memcpy(s->saved, w->bodies, nb * sizeof *s->saved);
    s->h = h;
    /* 1. q^{t+h/2} = q^t + (h/2) u^t */
    for (size_t k = 0; k < nb; k++) clab_body_drift(&w->bodies[k], 0.5 * h);
    /* 2. the rows at the midpoint */
    clab_mp_rows(s, w, c, h);
    /* 3. u_free, B, W */
    for (size_t k = 0; k < nb; k++) {
        clab_vec3 F, taubar;
        clab_world_applied(w, k, &F, &taubar);
        clab_body_kick(&w->bodies[k], F, taubar, h);
    }
    clab_mp_free_velocity(s, w);
    int rc = clab_mp_delassus(s, w, err);
    if (rc) {
        memcpy(w->bodies, s->saved, nb * sizeof *s->saved);
        return rc;
    }
    /* 4. R */
    warm_guess(s, c);
    clab_mp_gauss_seidel(s);
    /* 5. u^{t+h} = u_free + M^-1 H^T R, 6. q^{t+h} = q^{t+h/2} + (h/2) u^{t+h} */
    clab_mp_apply_impulses(s, w);
    for (size_t k = 0; k < nb; k++) clab_body_drift(&w->bodies[k], 0.5 * h);
    store(s, c, h);
    return CLAB_OK;
}
