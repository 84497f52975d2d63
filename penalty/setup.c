/* setup.c: what the penalty backend needs of a world before a step (penalty.h): the checks of
 * its joints, materials and bodies, the material pair table, the contact radius, the
 * recommended step */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "penalty.h"

double clab_penalty_contact_radius(const clab_shape *s)
{
    /* a box touches with corners and edges, which we treat as rounded with its smallest half
     * extent */
    switch (s->type) {
    case CLAB_SHAPE_SPHERE: return s->radius;
    case CLAB_SHAPE_BOX: return fmin(s->half.x, fmin(s->half.y, s->half.z));
    default: return INFINITY;
    }
}

int clab_penalty_check_world(penalty *p, const clab_world *w, clab_error *err)
{
    if (w->njoints)
        return clab_error_set(err, CLAB_EINVAL,
                              "penalty backend: the world has %zu joint(s) (bilateral constraints), which the penalty "
                              "backend does not handle; use the dvi backend or remove the joints",
                              w->njoints);
    for (size_t i = 0; i < w->nmaterials; i++)
        if (clab_material_validate(&w->materials[i], err)) return err ? err->status : CLAB_EINVAL;
    for (size_t i = p->nchecked; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        const char *nm = clab_world_body_name(w, i);
        if (b->material < 0 || (size_t)b->material >= w->nmaterials)
            return clab_error_set(err, CLAB_EINVAL, "penalty backend: body '%s': material index %d does not exist", nm,
                                  b->material);
        if (b->fixed) continue;
        if (!(isfinite(b->m) && b->m > 0.0))
            return clab_error_set(err, CLAB_EINVAL, "penalty backend: body '%s': mass m = %g kg must be finite and > 0",
                                  nm, b->m);
        if (!(isfinite(b->J.x) && isfinite(b->J.y) && isfinite(b->J.z) && b->J.x > 0.0 && b->J.y > 0.0 &&
              b->J.z > 0.0))
            return clab_error_set(err, CLAB_EINVAL,
                                  "penalty backend: body '%s': inertia J = (%g, %g, %g) kg m^2 must be finite and > 0",
                                  nm, b->J.x, b->J.y, b->J.z);
    }
    p->nchecked = w->nbodies;
    return CLAB_OK;
}

/* CRC-32 (zlib) of the pair table's numbers, every pair a <= b in order, each field as its
 * 8 bytes: any change of a pair's parameter changes it (the metadata's pair_table_crc32, and
 * with it the checkpoint's fingerprint of the run's parameters) */
static uint32_t pairs_crc(const clab_penalty_pair *pairs, size_t n)
{
    uLong c = crc32(0L, Z_NULL, 0);
    for (size_t a = 0; a < n; a++)
        for (size_t b = a; b < n; b++) {
            const clab_penalty_pair *pp = &pairs[a * n + b];
            const double v[] = {pp->mu, pp->mu_roll, pp->cor, pp->beta, pp->Estar, pp->Gstar,
                                pp->kn, pp->kt,      pp->gn,  pp->gt,   pp->st_sn};
            c = crc32(c, (const Bytef *)v, (uInt)sizeof v);
        }
    return (uint32_t)c;
}

int clab_penalty_build_pairs(penalty *p, const clab_world *w, clab_error *err)
{
    size_t n = w->nmaterials;
    clab_penalty_pair *pairs = malloc((n ? n * n : 1) * sizeof *pairs);
    clab_material *mat = malloc((n ? n : 1) * sizeof *mat);
    if (!pairs || !mat) {
        free(pairs);
        free(mat);
        return clab_error_set(err, CLAB_ENOMEM, "penalty backend: out of memory for %zu materials", n);
    }
    const clab_penalty_def *d = &p->def;
    for (size_t a = 0; a < n; a++) {
        mat[a] = w->materials[a];
        for (size_t b = 0; b < n; b++) {
            clab_material_pair mp = clab_material_mix(&w->materials[a], &w->materials[b]);
            pairs[a * n + b] = clab_penalty_pair_make(&mp, d->kn, d->kt, d->gn, d->gt);
        }
    }
    free(p->pairs);
    free(p->mat);
    p->pairs = pairs;
    p->mat = mat;
    p->nmat = n;
    p->pairs_crc = pairs_crc(pairs, n);
    return CLAB_OK;
}

int clab_penalty_ready(penalty *p, const clab_world *w, size_t nc, clab_error *err)
{
    /* the world may have grown since the last step */
    int rc = clab_penalty_check_world(p, w, err);
    if (rc) return rc;
    if (w->nmaterials != p->nmat && (rc = clab_penalty_build_pairs(p, w, err))) return rc;
    const size_t nb = w->nbodies;
    if (nc > UINT32_MAX / 2 || nb > UINT32_MAX / 2)
        return clab_error_set(err, CLAB_EINVAL, "penalty backend: %zu bodies, %zu contacts: more than 2^31", nb, nc);
    return CLAB_OK;
}

int clab_penalty_grow(void *pa, size_t *cap, size_t n, size_t sz)
{
    if (n <= *cap) return 0;
    size_t c = *cap ? *cap : 64;
    while (c < n) c *= 2;
    void **a = pa;
    void *q = realloc(*a, c * sz);
    if (!q) return 1;
    *a = q;
    *cap = c;
    return 0;
}

/* The recommended largest step [s]: a tenth of the shortest collision the world's bodies can
 * have (clab_penalty_contact_time at vchar), over every free body and, for each material, its
 * lightest free partner and any fixed body, with the largest radius that material has (the
 * stiffest contact). Symplectic Euler's limit for an undamped contact is 2/omega = 0.64 T_c. */
double clab_penalty_stable_step(const penalty *p, const clab_world *w)
{
    size_t nm = w->nmaterials;
    if (nm != p->nmat || nm == 0) return 0.0;
    const clab_penalty_law *law = &p->def.law;
    /* per material: the two lightest free bodies (m1 at body i1, then m2), the largest radius,
     * whether a fixed body has it */
    double *m1 = malloc(nm * sizeof *m1), *m2 = malloc(nm * sizeof *m2), *rmax = malloc(nm * sizeof *rmax);
    size_t *i1 = malloc(nm * sizeof *i1);
    int *used = calloc(nm, sizeof *used), *hasfixed = calloc(nm, sizeof *hasfixed);
    double tmin = INFINITY;
    if (!m1 || !m2 || !rmax || !i1 || !used || !hasfixed) goto done;
    for (size_t m = 0; m < nm; m++) {
        m1[m] = m2[m] = INFINITY;
        rmax[m] = 0.0;
        i1[m] = SIZE_MAX;
    }
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        size_t m = (size_t)b->material;
        if (m >= nm) continue;
        used[m] = 1;
        rmax[m] = fmax(rmax[m], clab_penalty_contact_radius(&b->shape));
        if (b->fixed) {
            hasfixed[m] = 1;
        } else if (b->m < m1[m]) {
            m2[m] = m1[m];
            m1[m] = b->m;
            i1[m] = i;
        } else if (b->m < m2[m]) {
            m2[m] = b->m;
        }
    }
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        if (b->fixed || (size_t)b->material >= nm) continue;
        double Ri = clab_penalty_contact_radius(&b->shape);
        for (size_t m = 0; m < nm; m++) {
            if (!used[m]) continue;
            const clab_penalty_pair *pp = &p->pairs[(size_t)b->material * nm + m];
            double R_eff = clab_penalty_reff(Ri, rmax[m]);
            double mp = i1[m] == i ? m2[m] : m1[m]; /* lightest free partner other than b */
            if (isfinite(mp))
                tmin = fmin(tmin, clab_penalty_contact_time(law, pp, clab_penalty_meff(b->m, 0, mp, 0), R_eff,
                                                            law->vchar));
            if (hasfixed[m]) tmin = fmin(tmin, clab_penalty_contact_time(law, pp, b->m, R_eff, law->vchar));
        }
    }
done:
    free(m1);
    free(m2);
    free(rmax);
    free(i1);
    free(used);
    free(hasfixed);
    return isfinite(tmin) ? tmin / 10.0 : 0.0;
}
