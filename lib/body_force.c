/* body_force.c: the contact force and torque on a body over the last step's contacts
 * (clab_sim_body_force): what a servo wall, a shear box or a triaxial cell measures. */
#include <stdlib.h>

#include "clab_sim.h"

/* the backend's forces of the last step, (n, u, w) per contact, into the sim's scratch (NULL
 * only when out of memory: the scratch has room for one force at least) */
static const clab_vec3 *last_forces(clab_sim *s, clab_error *err)
{
    const size_t nc = s->contacts.n;
    if (nc > s->fbuf_cap || !s->fbuf) {
        size_t cap = nc + nc / 2 + 16;
        clab_vec3 *p = realloc(s->fbuf, cap * sizeof *p);
        if (!p) {
            clab_error_set(err, CLAB_ENOMEM, "body force: out of memory for %zu contact forces", nc);
            return NULL;
        }
        s->fbuf = p;
        s->fbuf_cap = cap;
    }
    if (nc) clab_sim_forces(s, s->fbuf);
    return s->fbuf;
}

/* contact k's force on b in the world frame, F = F_n n + F_u u + F_w w, and the world levers
 * l_a = A(e_a) sbar_A, l_b = A(e_b) sbar_B of its point from the two centres */
static clab_vec3 world_force(const clab_sim *s, size_t k, const clab_vec3 *f, clab_vec3 *la, clab_vec3 *lb)
{
    const clab_contact *ct = &s->contacts.c[k];
    const clab_body *bodies = s->world->bodies;
    clab_vec3 u, w, sa, sb;
    clab_contact_frame(ct, &u, &w);
    clab_contact_levers(ct, s->contacts.lv, bodies, &sa, &sb);
    *la = clab_q_rotate(bodies[ct->a].e, sa);
    *lb = clab_q_rotate(bodies[ct->b].e, sb);
    return clab_v3_madd(clab_v3_madd(clab_v3_scale(ct->n, f[k].x), f[k].y, u), f[k].z, w);
}

int clab_sim_body_force(clab_sim *s, size_t i, clab_vec3 *F, clab_vec3 *T, clab_error *err)
{
    *F = *T = clab_v3(0.0, 0.0, 0.0);
    if (i >= s->world->nbodies)
        return clab_error_set(err, CLAB_EINVAL, "body force: body %zu does not exist (%zu bodies)", i,
                              s->world->nbodies);
    const clab_vec3 *f = last_forces(s, err);
    if (!f) return CLAB_ENOMEM;
    for (size_t k = 0; k < s->contacts.n; k++) {
        const clab_contact *ct = &s->contacts.c[k];
        if ((size_t)ct->a != i && (size_t)ct->b != i) continue;
        clab_vec3 la, lb;
        const clab_vec3 Fb = world_force(s, k, f, &la, &lb);
        if ((size_t)ct->b == i) { /* +F on b, torque l_b x F */
            *F = clab_v3_add(*F, Fb);
            *T = clab_v3_add(*T, clab_v3_cross(lb, Fb));
        } else { /* -F on a, torque -l_a x F */
            *F = clab_v3_sub(*F, Fb);
            *T = clab_v3_sub(*T, clab_v3_cross(la, Fb));
        }
    }
    return CLAB_OK;
}

int clab_sim_body_force_terms(clab_sim *s, size_t i, clab_vec3 *term, size_t *k, size_t *n, clab_error *err)
{
    *n = 0;
    if (i >= s->world->nbodies)
        return clab_error_set(err, CLAB_EINVAL, "body force: body %zu does not exist (%zu bodies)", i,
                              s->world->nbodies);
    const clab_vec3 *f = last_forces(s, err);
    if (!f) return CLAB_ENOMEM;
    for (size_t c = 0; c < s->contacts.n; c++) {
        const clab_contact *ct = &s->contacts.c[c];
        if ((size_t)ct->a != i && (size_t)ct->b != i) continue;
        clab_vec3 la, lb;
        const clab_vec3 Fb = world_force(s, c, f, &la, &lb);
        term[*n] = (size_t)ct->b == i ? Fb : clab_v3_neg(Fb);
        k[(*n)++] = c;
    }
    return CLAB_OK;
}

int clab_sim_body_forces(clab_sim *s, clab_vec3 *F, clab_vec3 *T, clab_error *err)
{
    const size_t nb = s->world->nbodies;
    for (size_t j = 0; j < nb; j++) {
        F[j] = clab_v3(0.0, 0.0, 0.0);
        if (T) T[j] = F[j];
    }
    const clab_vec3 *f = last_forces(s, err);
    if (!f) return CLAB_ENOMEM;
    for (size_t k = 0; k < s->contacts.n; k++) {
        const clab_contact *ct = &s->contacts.c[k];
        clab_vec3 la, lb;
        const clab_vec3 Fb = world_force(s, k, f, &la, &lb);
        F[ct->b] = clab_v3_add(F[ct->b], Fb);
        F[ct->a] = clab_v3_sub(F[ct->a], Fb);
        if (T) {
            T[ct->b] = clab_v3_add(T[ct->b], clab_v3_cross(lb, Fb));
            T[ct->a] = clab_v3_sub(T[ct->a], clab_v3_cross(la, Fb));
        }
    }
    return CLAB_OK;
}
