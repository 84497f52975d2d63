/* sim.c: the step driver shared by every backend */
#include "clab_sim.h"

#include <stdio.h>
#include <stdlib.h>

clab_sim *clab_sim_create(clab_world *w, const char *backend, double h, clab_options *opt, clab_error *err)
{
    const clab_backend_type *type = clab_backend_lookup(backend);
    if (!type) {
        char list[256] = "";
        const clab_backend_type *const *all = clab_backend_all();
        for (size_t i = 0; all[i]; i++) {
            size_t len = 0;
            while (list[len]) len++;
            snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", all[i]->name);
        }
        clab_error_set(err, CLAB_ENOTFOUND, "unknown backend '%s' (available: %s)", backend, list);
        return NULL;
    }
    if (!(h > 0.0 && h < 1e3)) {
        clab_error_set(err, CLAB_EINVAL, "time step h = %g s: out of range; allowed: 0 < h < 1000 [s]", h);
        return NULL;
    }
    clab_sim *s = calloc(1, sizeof *s);
    if (!s) {
        clab_error_set(err, CLAB_ENOMEM, "out of memory");
        return NULL;
    }
    s->world = w;
    s->type = type;
    s->h = h;
    s->envelope = type->default_envelope;
    s->vmax = 1e4;
    clab_contacts_init(&s->contacts);
    clab_options empty;
    clab_options_init(&empty);
    clab_options *o = opt ? opt : &empty;
    double skin = -1.0; /* automatic unless given */
    if (clab_options_double(o, "envelope", -1.0, 1e3, &s->envelope, err) ||
        clab_options_double(o, "vmax", 0.0, 1e300, &s->vmax, err) ||
        clab_options_double(o, "skin", 0.0, 1e3, &skin, err))
        goto fail;
    if (type->create(w, o, &s->self, err)) goto fail;
    char owner[96];
    snprintf(owner, sizeof owner, "%s backend", type->name);
    if (clab_options_check_unused(o, owner, err)) goto fail;
    s->collider = clab_collider_create();
    if (!s->collider) {
        clab_error_set(err, CLAB_ENOMEM, "out of memory");
        goto fail;
    }
    clab_collider_set_skin(s->collider, skin);
    clab_options_free(&empty);
    return s;
fail:
    clab_options_free(&empty);
    clab_sim_destroy(s);
    return NULL;
}

void clab_sim_destroy(clab_sim *s)
{
    if (!s) return;
    if (s->self) s->type->destroy(s->self);
    clab_collider_destroy(s->collider);
    clab_contacts_free(&s->contacts);
    free(s);
}

int clab_sim_step(clab_sim *s, clab_error *err)
{
    clab_world *w = s->world;
    int rc = clab_collide(s->collider, w, s->envelope, &s->contacts, err);
    if (rc) return rc;
    rc = s->type->step(s->self, w, &s->contacts, s->h, err);
    if (rc) return rc;
    clab_world_wrap(w); /* periodic axes: centers back into [lo, hi) */
    w->t += s->h;
    w->step++;
    return clab_world_check_state(w, s->vmax, err);
}

void clab_sim_forces(const clab_sim *s, clab_vec3 *f_nuw) { s->type->forces(s->self, &s->contacts, f_nuw); }

void clab_sim_meta(const clab_sim *s, clab_options *m)
{
    char v[64];
    clab_options_set(m, "backend", s->type->name, NULL);
    snprintf(v, sizeof v, "%.17g", s->h);
    clab_options_set(m, "h_s", v, NULL);
    snprintf(v, sizeof v, "%.17g", s->envelope);
    clab_options_set(m, "envelope_m", v, NULL);
    snprintf(v, sizeof v, "%.17g", s->vmax);
    clab_options_set(m, "vmax_m_s", v, NULL);
    if (s->type->meta) s->type->meta(s->self, m);
}
