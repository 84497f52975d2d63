/* world.c: bodies, materials and joints of a world, built from definition structs */
#include "clab_world.h"
#include "motion_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

clab_world_def clab_default_world_def(void)
{
    clab_world_def d = {{0.0, 0.0, -9.81}};
    return d;
}

clab_body_def clab_default_body_def(void)
{
    clab_body_def d;
    memset(&d, 0, sizeof d);
    d.shape = clab_sphere(0.1);
    d.density = 1000.0;
    d.e = clab_q_identity();
    return d;
}

/* grow *p (n used, *cap allocated, elements of size sz) to hold one more */
static int grow(void **p, size_t n, size_t *cap, size_t sz)
{
    if (n < *cap) return CLAB_OK;
    size_t c = *cap ? 2 * *cap : 16;
    void *q = realloc(*p, c * sz);
    if (!q) return CLAB_ENOMEM;
    *p = q;
    *cap = c;
    return CLAB_OK;
}

clab_world *clab_world_create(const clab_world_def *def)
{
    clab_world *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    clab_world_def d = def ? *def : clab_default_world_def();
    w->gravity = d.gravity;
    clab_material m = clab_default_material();
    if (clab_world_add_material(w, &m, NULL) < 0) {
        clab_world_destroy(w);
        return NULL;
    }
    return w;
}

void clab_world_destroy(clab_world *w)
{
    if (!w) return;
    free(w->bodies);
    free(w->name_pool);
    free(w->name_off);
    free(w->materials);
    free(w->joints);
    for (size_t k = 0; k < w->ndriven; k++) free((double *)w->driven[k].m.table);
    free(w->driven);
    free(w->loads);
    free(w);
}

int clab_world_find_material(const clab_world *w, const char *name)
{
    for (size_t i = 0; i < w->nmaterials; i++)
        if (strcmp(w->materials[i].name, name) == 0) return (int)i;
    return -1;
}

int clab_world_add_material(clab_world *w, const clab_material *m, clab_error *err)
{
    if (clab_material_validate(m, err) != CLAB_OK) return -1;
    int old = clab_world_find_material(w, m->name);
    if (old == 0 && w->nmaterials == 1 && w->nbodies == 0) { /* replace the built-in default */
        w->materials[0] = *m;
        return 0;
    }
    if (old >= 0) {
        clab_error_set(err, CLAB_EINVAL, "material '%s' is defined twice", m->name);
        return -1;
    }
    if (grow((void **)&w->materials, w->nmaterials, &w->cap_materials, sizeof *w->materials)) {
        clab_error_set(err, CLAB_ENOMEM, "out of memory adding material '%s'", m->name);
        return -1;
    }
    w->materials[w->nmaterials] = *m;
    return (int)w->nmaterials++;
}

int clab_world_find_body(const clab_world *w, const char *name)
{
    for (size_t i = 0; i < w->nbodies; i++)
        if (strcmp(w->name_pool + w->name_off[i], name) == 0) return (int)i;
    return -1;
}

static int bad_vec(clab_vec3 v) { return !clab_v3_isfinite(v); }

int clab_world_add_body(clab_world *w, const clab_body_def *d, clab_error *err)
{
    char label[CLAB_NAME_LEN + 16];
    if (d->name[0]) snprintf(label, sizeof label, "body '%s'", d->name);
    else snprintf(label, sizeof label, "body %zu", w->nbodies);

    /* shape */
    const clab_shape *s = &d->shape;
    if (s->type == CLAB_SHAPE_SPHERE && !(isfinite(s->radius) && s->radius > 0.0)) {
        clab_error_set(err, CLAB_EINVAL, "%s: sphere radius = %g m must be finite and > 0", label, s->radius);
        return -1;
    }
    if (s->type == CLAB_SHAPE_BOX && !(isfinite(s->half.x) && isfinite(s->half.y) && isfinite(s->half.z) &&
                                       s->half.x > 0.0 && s->half.y > 0.0 && s->half.z > 0.0)) {
        clab_error_set(err, CLAB_EINVAL, "%s: box half extents (%g, %g, %g) m must be finite and > 0", label,
                       s->half.x, s->half.y, s->half.z);
        return -1;
    }
    if (s->type < 0 || s->type >= CLAB_SHAPE_COUNT) {
        clab_error_set(err, CLAB_EINVAL, "%s: unknown shape type %d", label, (int)s->type);
        return -1;
    }
    if (s->type == CLAB_SHAPE_PLANE && !d->fixed) {
        clab_error_set(err, CLAB_EINVAL, "%s: a plane (half-space) must be fixed", label);
        return -1;
    }
    /* state */
    if (bad_vec(d->r) || bad_vec(d->rdot) || bad_vec(d->omega)) {
        clab_error_set(err, CLAB_EINVAL, "%s: position, velocity and angular velocity must be finite", label);
        return -1;
    }
    double en = clab_q_norm(d->e);
    if (!(isfinite(en) && en > 0.0)) {
        clab_error_set(err, CLAB_EINVAL, "%s: orientation (Euler parameters) must be finite and non-zero", label);
        return -1;
    }
    if (d->material < 0 || (size_t)d->material >= w->nmaterials) {
        clab_error_set(err, CLAB_EINVAL, "%s: material index %d does not exist (%zu materials)", label, d->material,
                       w->nmaterials);
        return -1;
    }
    if (d->name[0] && clab_world_find_body(w, d->name) >= 0) {
        clab_error_set(err, CLAB_EINVAL, "%s is defined twice", label);
        return -1;
    }
    /* mass: given, or density times volume */
    double m = d->mass;
    if (m == 0.0 && s->type != CLAB_SHAPE_PLANE) {
        if (!(isfinite(d->density) && d->density > 0.0)) {
            clab_error_set(err, CLAB_EINVAL, "%s: density = %g kg/m^3 must be finite and > 0 when no mass is given",
                           label, d->density);
            return -1;
        }
        m = d->density * clab_shape_volume(s);
    }
    if (s->type == CLAB_SHAPE_PLANE && m == 0.0) m = 1.0;
    if (!(isfinite(m) && m > 0.0)) {
        clab_error_set(err, CLAB_EINVAL, "%s: mass = %g kg must be finite and > 0", label, m);
        return -1;
    }

    size_t old_cap = w->cap_bodies;
    if (grow((void **)&w->bodies, w->nbodies, &w->cap_bodies, sizeof *w->bodies)) {
        clab_error_set(err, CLAB_ENOMEM, "out of memory adding %s", label);
        return -1;
    }
    /* name offsets grow with the bodies (only then: a realloc per body is quadratic under ASan
     * and valgrind), the pool by doubling */
    if (w->cap_bodies != old_cap || !w->name_off) {
        size_t *off = realloc(w->name_off, w->cap_bodies * sizeof *off);
        if (!off) {
            w->cap_bodies = old_cap; /* retried at the next add */
            clab_error_set(err, CLAB_ENOMEM, "out of memory adding %s", label);
            return -1;
        }
        w->name_off = off;
        if (w->loads) { /* the loads grow with the bodies too */
            clab_load *ld = realloc(w->loads, w->cap_bodies * sizeof *ld);
            if (!ld) {
                clab_error_set(err, CLAB_ENOMEM, "out of memory adding %s", label);
                return -1;
            }
            w->loads = ld;
        }
    }
    char name[CLAB_NAME_LEN];
    if (d->name[0]) snprintf(name, sizeof name, "%s", d->name);
    else snprintf(name, sizeof name, "body%zu", w->nbodies);
    size_t len = strlen(name) + 1;
    if (w->name_len + len > w->name_cap) {
        size_t cap = w->name_cap ? 2 * w->name_cap : 1024;
        while (cap < w->name_len + len) cap *= 2;
        char *pool = realloc(w->name_pool, cap);
        if (!pool) {
            clab_error_set(err, CLAB_ENOMEM, "out of memory adding %s", label);
            return -1;
        }
        w->name_pool = pool;
        w->name_cap = cap;
    }

    clab_body *b = &w->bodies[w->nbodies];
    memset(b, 0, sizeof *b);
    if (w->loads) w->loads[w->nbodies] = (clab_load){clab_v3(0, 0, 0), clab_v3(0, 0, 0)};
    b->m = m;
    b->J = clab_v3_scale(clab_shape_unit_inertia(s), m);
    b->r = d->r;
    b->e = clab_q_normalize(d->e);
    b->rdot = d->rdot;
    b->wbar = clab_q_rotate_inv(b->e, d->omega);
    b->fixed = d->fixed ? 1 : 0;
    b->material = d->material;
    b->shape = *s;
    memcpy(w->name_pool + w->name_len, name, len);
    w->name_off[w->nbodies] = w->name_len;
    w->name_len += len;
    return (int)w->nbodies++;
}

const char *clab_joint_name(clab_joint_type t)
{
    static const char *const names[CLAB_JOINT_COUNT] = {"spherical", "distance"};
    return (t >= 0 && t < CLAB_JOINT_COUNT) ? names[t] : "unknown";
}

int clab_joint_from_name(const char *name)
{
    for (int t = 0; t < CLAB_JOINT_COUNT; t++)
        if (strcmp(name, clab_joint_name((clab_joint_type)t)) == 0) return t;
    return -1;
}

int clab_world_add_joint(clab_world *w, const clab_joint *j, clab_error *err)
{
    if (j->type < 0 || j->type >= CLAB_JOINT_COUNT) {
        clab_error_set(err, CLAB_EINVAL, "joint %zu: unknown type %d", w->njoints, (int)j->type);
        return -1;
    }
    if (j->a < 0 || j->b < 0 || (size_t)j->a >= w->nbodies || (size_t)j->b >= w->nbodies || j->a == j->b) {
        clab_error_set(err, CLAB_EINVAL, "joint %zu (%s): bodies %d and %d must be two different existing bodies",
                       w->njoints, clab_joint_name(j->type), j->a, j->b);
        return -1;
    }
    if (!clab_v3_isfinite(j->sa) || !clab_v3_isfinite(j->sb) || !isfinite(j->length) ||
        (j->type == CLAB_JOINT_DISTANCE && !(j->length > 0.0))) {
        clab_error_set(err, CLAB_EINVAL, "joint %zu (%s): attachment points must be finite and a distance length > 0",
                       w->njoints, clab_joint_name(j->type));
        return -1;
    }
    if (grow((void **)&w->joints, w->njoints, &w->cap_joints, sizeof *w->joints)) {
        clab_error_set(err, CLAB_ENOMEM, "out of memory adding a joint");
        return -1;
    }
    w->joints[w->njoints] = *j;
    return (int)w->njoints++;
}

const char *clab_world_body_name(const clab_world *w, size_t i) { return w->name_pool + w->name_off[i]; }

double clab_world_kinetic_energy(const clab_world *w)
{
    double k = 0.0;
    for (size_t i = 0; i < w->nbodies; i++) k += clab_body_kinetic_energy(&w->bodies[i]);
    return k;
}

int clab_world_check_state(const clab_world *w, double vmax, clab_error *err)
{
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        if (!clab_v3_isfinite(b->r) || !clab_v3_isfinite(b->rdot) || !clab_v3_isfinite(b->wbar) ||
            !isfinite(b->e.e0 + b->e.e1 + b->e.e2 + b->e.e3))
            return clab_error_set(err, CLAB_ENUMERIC, "%s: non-finite state at step %ld, t = %.9g s",
                                  clab_world_body_name(w, i), w->step, w->t);
        if (vmax > 0.0 && clab_v3_norm(b->rdot) > vmax) /* (the message's speed without overflow) */
            return clab_error_set(err, CLAB_ENUMERIC,
                                  "%s: speed %g m/s exceeds the bound %g m/s at step %ld, t = %.9g s (exploding state? "
                                  "reduce the step size or raise the bound)",
                                  clab_world_body_name(w, i), hypot(hypot(b->rdot.x, b->rdot.y), b->rdot.z), vmax,
                                  w->step, w->t);
    }
    return CLAB_OK;
}

clab_world *clab_world_clone(const clab_world *w)
{
    clab_world *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    *c = *w;
    c->bodies = NULL; c->name_pool = NULL; c->name_off = NULL; c->materials = NULL; c->joints = NULL;
    c->driven = NULL; c->ndriven = c->cap_driven = 0; c->loads = NULL;
    c->bodies = malloc((w->cap_bodies ? w->cap_bodies : 1) * sizeof *c->bodies);
    c->name_pool = malloc(w->name_cap ? w->name_cap : 1);
    c->name_off = malloc((w->cap_bodies ? w->cap_bodies : 1) * sizeof *c->name_off);
    c->materials = malloc((w->cap_materials ? w->cap_materials : 1) * sizeof *c->materials);
    c->joints = malloc((w->cap_joints ? w->cap_joints : 1) * sizeof *c->joints);
    if (!c->bodies || !c->name_pool || !c->name_off || !c->materials || !c->joints) {
        clab_world_destroy(c);
        return NULL;
    }
    if (w->nbodies) {
        memcpy(c->bodies, w->bodies, w->nbodies * sizeof *c->bodies);
        memcpy(c->name_pool, w->name_pool, w->name_len);
        memcpy(c->name_off, w->name_off, w->nbodies * sizeof *c->name_off);
    }
    if (w->nmaterials) memcpy(c->materials, w->materials, w->nmaterials * sizeof *c->materials);
    if (w->njoints) memcpy(c->joints, w->joints, w->njoints * sizeof *c->joints);
    if (clab_drives_copy(c, w)) {
        clab_world_destroy(c);
        return NULL;
    }
    return c;
}

int clab_world_set_periodic(clab_world *w, int axis, double lo, double hi, clab_error *err)
{
    static const char axes[] = "xyz";
    if (axis < 0 || axis > 2)
        return clab_error_set(err, CLAB_EINVAL, "periodic axis %d: allowed: 0 (x), 1 (y) or 2 (z)", axis);
    if (!(isfinite(lo) && isfinite(hi) && lo < hi))
        return clab_error_set(err, CLAB_EINVAL, "periodic %c = [%g, %g] m: allowed: finite lo < hi", axes[axis], lo,
                              hi);
    w->periodic.on[axis] = 1;
    w->periodic.lo[axis] = lo;
    w->periodic.hi[axis] = hi;
    return CLAB_OK;
}

void clab_world_wrap(clab_world *w)
{
    const clab_periodic *p = &w->periodic;
    if (!(p->on[0] || p->on[1] || p->on[2])) return;
    const long n = (long)w->nbodies;
#pragma omp parallel for schedule(static) if (n > 4096)
    for (long i = 0; i < n; i++) clab_world_wrap_body(p, &w->bodies[i]);
}
