/* mesh.c: triangle-mesh walls (clab_mesh.h): the triangle store, the welding of vertices, the
 * owner of every edge and vertex and its region vectors, one fixed body a triangle */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_mesh.h"

clab_mesh_def clab_default_mesh_def(void)
{
    clab_mesh_def d;
    memset(&d, 0, sizeof d);
    d.scale = 1.0;
    d.e = clab_q(1.0, 0.0, 0.0, 0.0);
    return d;
}

int clab_tri_degenerate(const double *p)
{
    const clab_vec3 a = clab_v3(p[0], p[1], p[2]), b = clab_v3(p[3], p[4], p[5]), c = clab_v3(p[6], p[7], p[8]);
    const clab_vec3 ab = clab_v3_sub(b, a), ac = clab_v3_sub(c, a), bc = clab_v3_sub(c, b);
    const double L2 = fmax(clab_v3_dot(ab, ab), fmax(clab_v3_dot(ac, ac), clab_v3_dot(bc, bc)));
    const double twice_area = clab_v3_norm(clab_v3_cross(ab, ac));
    return !(isfinite(twice_area) && isfinite(L2) && twice_area > 1e-12 * L2);
}

const clab_tri *clab_mesh_tri(const clab_world *w, const clab_body *b)
{
    if (b->shape.type != CLAB_SHAPE_TRIANGLE || !w->meshes || b->shape.tri < 0 || (size_t)b->shape.tri >= w->meshes->n)
        return NULL;
    return &w->meshes->t[b->shape.tri];
}

void clab_meshes_free(clab_meshes *m)
{
    if (!m) return;
    free(m->t);
    free(m->g);
    free(m->name);
    free(m);
}

clab_meshes *clab_meshes_clone(const clab_meshes *m)
{
    if (!m) return NULL;
    clab_meshes *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->t = malloc((m->n ? m->n : 1) * sizeof *c->t);
    c->g = malloc((m->ng ? m->ng : 1) * sizeof *c->g);
    c->name = malloc((m->nmesh ? m->nmesh : 1) * sizeof *c->name);
    if (!c->t || !c->g || !c->name) {
        clab_meshes_free(c);
        return NULL;
    }
    if (m->n) memcpy(c->t, m->t, m->n * sizeof *c->t);
    if (m->ng) memcpy(c->g, m->g, m->ng * sizeof *c->g);
    if (m->nmesh) memcpy(c->name, m->name, m->nmesh * sizeof *c->name);
    c->n = c->cap = m->n;
    c->ng = c->capg = m->ng;
    c->nmesh = c->capm = m->nmesh;
    return c;
}

/* ---- welding and edges ---- */

typedef struct vref {
    double x[3];
    size_t ref; /* 3 t + k */
} vref;

static int cmp_vref(const void *pa, const void *pb)
{
    const vref *a = pa, *b = pb;
    for (int k = 0; k < 3; k++)
        if (a->x[k] != b->x[k]) return a->x[k] < b->x[k] ? -1 : 1;
    return (a->ref > b->ref) - (a->ref < b->ref);
}

typedef struct edge_ref {
    size_t lo, hi, tri; /* welded vertex ids lo < hi, triangle */
    int k;              /* edge k of the triangle: v_k v_k+1 */
} edge_ref;

static int cmp_edge(const void *pa, const void *pb)
{
    const edge_ref *a = pa, *b = pb;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    if (a->tri != b->tri) return a->tri < b->tri ? -1 : 1;
    return a->k - b->k;
}

/* the placed vertices of triangle t: x = r + A(e) (scale x_file) */
static clab_vec3 placed(const clab_mesh_def *d, clab_quat e, size_t ref)
{
    const double *p = d->xyz + 3 * ref;
    return clab_v3_add(d->r, clab_q_rotate(e, clab_v3(d->scale * p[0], d->scale * p[1], d->scale * p[2])));
}

/* the in-plane outward normal b of a triangle at its edge P Q, O the third vertex: the part of
 * P - O normal to the edge (pointing from the triangle across the edge) */
static clab_vec3 edge_outward(clab_vec3 P, clab_vec3 Q, clab_vec3 O)
{
    const clab_vec3 e = clab_v3_sub(Q, P), po = clab_v3_sub(P, O);
    return clab_v3_madd(po, -clab_v3_dot(po, e) / clab_v3_dot(e, e), e);
}

static int push_g(clab_meshes *m, clab_vec3 g)
{
    if (m->ng == m->capg) {
        size_t cap = m->capg ? 2 * m->capg : 64;
        clab_vec3 *p = realloc(m->g, cap * sizeof *p);
        if (!p) return 1;
        m->g = p;
        m->capg = cap;
    }
    m->g[m->ng++] = g;
    return 0;
}

/* the checks before anything is added: name, material, triangles, free boxes */
static int check_def(const clab_world *w, const clab_mesh_def *d, clab_error *err)
{
    const size_t len = strnlen(d->name, CLAB_NAME_LEN);
    if (len == 0) return clab_error_set(err, CLAB_EINVAL, "mesh: a name is required");
    char digits[32];
    snprintf(digits, sizeof digits, "%zu", d->ntri ? d->ntri - 1 : 0);
    if (len + 1 + strlen(digits) >= CLAB_NAME_LEN)
        return clab_error_set(err, CLAB_EINVAL, "mesh '%.*s': name too long for its %zu triangle bodies "
                              "'<name>.<k>'; allowed: at most %zu characters", (int)len, d->name, d->ntri,
                              (size_t)CLAB_NAME_LEN - 2 - strlen(digits));
    if (w->meshes)
        for (size_t k = 0; k < w->meshes->nmesh; k++)
            if (strcmp(w->meshes->name[k], d->name) == 0)
                return clab_error_set(err, CLAB_EINVAL, "mesh '%s' is defined twice", d->name);
    if (d->ntri == 0 || !d->xyz) return clab_error_set(err, CLAB_EINVAL, "mesh '%s': no triangles", d->name);
    if (d->ntri > (size_t)INT32_MAX / 4)
        return clab_error_set(err, CLAB_EINVAL, "mesh '%s': %zu triangles; allowed: fewer than %d", d->name, d->ntri,
                              INT32_MAX / 4);
    if (!(isfinite(d->scale) && d->scale > 0.0))
        return clab_error_set(err, CLAB_EINVAL, "mesh '%s': scale = %g must be finite and > 0", d->name, d->scale);
    if (!clab_v3_isfinite(d->r))
        return clab_error_set(err, CLAB_EINVAL, "mesh '%s': position must be finite", d->name);
    const double en = clab_q_norm(d->e);
    if (!(isfinite(en) && en > 0.0))
        return clab_error_set(err, CLAB_EINVAL, "mesh '%s': orientation must be finite and non-zero", d->name);
    if (d->material < 0 || (size_t)d->material >= w->nmaterials)
        return clab_error_set(err, CLAB_EINVAL, "mesh '%s': material index %d does not exist (%zu materials)", d->name,
                              d->material, w->nmaterials);
    for (size_t t = 0; t < d->ntri; t++) {
        for (int k = 0; k < 9; k++)
            if (!isfinite(d->xyz[9 * t + (size_t)k]))
                return clab_error_set(err, CLAB_EINVAL, "mesh '%s': triangle %zu has a non-finite coordinate",
                                      d->name, t + 1);
        if (clab_tri_degenerate(d->xyz + 9 * t))
            return clab_error_set(err, CLAB_EINVAL, "mesh '%s': triangle %zu has zero area (its vertices are on "
                                  "a line); allowed: triangles of positive area", d->name, t + 1);
    }
    for (size_t i = 0; i < w->nbodies; i++)
        if (w->bodies[i].shape.type == CLAB_SHAPE_BOX && !w->bodies[i].fixed)
            return clab_error_set(err, CLAB_EINVAL, "mesh '%s' and box '%s': box-triangle contact is not supported; "
                                  "allowed: spheres against mesh walls (boxes against planes and boxes)", d->name,
                                  clab_world_body_name(w, i));
    return CLAB_OK;
}

/* the store's entries of the new triangles, their vertices welded to ids id[3 t + k]
 * (coordinates U[id]): vertices about the bounding-box centre r[t], normals, owners, region
 * vectors. 1 when out of memory */
static int fill_store(clab_meshes *m, const size_t *id, const clab_vec3 *U, size_t nv, size_t ntri,
                      const clab_vec3 *r, int mesh)
{
    const size_t base = m->n, ne = 3 * ntri;
    int fail = 1;
    edge_ref *E = malloc(ne * sizeof *E);
    size_t *grp = malloc(ne * sizeof *grp), *gstart = malloc((ne + 1) * sizeof *gstart);
    size_t *vown = malloc(nv * sizeof *vown), *deg = calloc(nv + 1, sizeof *deg), *adj = malloc(2 * ne * sizeof *adj);
    if (!E || !grp || !gstart || !vown || !deg || !adj) goto out;
    for (size_t t = 0; t < ntri; t++)
        for (int k = 0; k < 3; k++) {
            size_t a = id[3 * t + (size_t)k], b = id[3 * t + (size_t)(k + 1) % 3];
            E[3 * t + (size_t)k] = (edge_ref){a < b ? a : b, a < b ? b : a, t, k};
        }
    qsort(E, ne, sizeof *E, cmp_edge);
    size_t ng = 0;
    for (size_t q = 0; q < ne; q++) {
        if (q == 0 || E[q].lo != E[q - 1].lo || E[q].hi != E[q - 1].hi) {
            gstart[ng++] = q;
            deg[E[q].lo]++; /* the vertex adjacency: each edge once, both ends */
            deg[E[q].hi]++;
        }
        grp[3 * E[q].tri + (size_t)E[q].k] = ng - 1;
    }
    gstart[ng] = ne;
    /* adjacency lists in CSR (deg[v] .. deg[v + 1]) */
    size_t s = 0;
    for (size_t v = 0; v <= nv; v++) {
        size_t c = deg[v];
        deg[v] = s;
        s += c;
    }
    size_t *fillp = malloc((nv + 1) * sizeof *fillp);
    if (!fillp) goto out;
    memcpy(fillp, deg, (nv + 1) * sizeof *fillp);
    for (size_t q = 0; q < ng; q++) {
        const edge_ref *e = &E[gstart[q]];
        adj[fillp[e->lo]++] = e->hi;
        adj[fillp[e->hi]++] = e->lo;
    }
    free(fillp);
    for (size_t v = 0; v < nv; v++) vown[v] = SIZE_MAX;
    for (size_t t = 0; t < ntri; t++)
        for (int k = 0; k < 3; k++)
            if (vown[id[3 * t + (size_t)k]] == SIZE_MAX) vown[id[3 * t + (size_t)k]] = t;

    /* the triangles' own data: vertices, normal, side normals, anchors */
    for (size_t t = 0; t < ntri; t++) {
        clab_tri *T = &m->t[base + t];
        memset(T, 0, sizeof *T);
        T->mesh = mesh;
        T->r0 = r[t];
        for (int k = 0; k < 3; k++) T->w[k] = U[id[3 * t + (size_t)k]];
        T->n = clab_v3_normalize(clab_v3_cross(clab_v3_sub(T->w[1], T->w[0]), clab_v3_sub(T->w[2], T->w[0])));
        for (int k = 0; k < 3; k++) {
            T->beta[k] = clab_v3_normalize(edge_outward(T->w[k], T->w[(k + 1) % 3], T->w[(k + 2) % 3]));
            T->anchor[k] = (unsigned char)(id[3 * t + (size_t)k] < id[3 * t + (size_t)(k + 1) % 3] ? k : (k + 1) % 3);
        }
    }
    /* a flat joint: the other triangles coplanar with the edge's owner take the negative of
     * its side normal, so their side tests are the owner's with the sign changed, bit for bit */
    for (size_t q = 0; q < ng; q++) {
        const clab_tri *O = &m->t[base + E[gstart[q]].tri];
        const clab_vec3 bo = O->beta[E[gstart[q]].k];
        for (size_t x = gstart[q] + 1; x < gstart[q + 1]; x++) {
            clab_tri *T = &m->t[base + E[x].tri];
            if (fabs(clab_v3_dot(T->n, O->n)) >= 1.0 - 1e-12 && clab_v3_dot(T->beta[E[x].k], bo) < 0.0)
                T->beta[E[x].k] = clab_v3_neg(bo);
        }
    }
    /* owners and region vectors */
    for (size_t t = 0; t < ntri; t++) {
        clab_tri *T = &m->t[base + t];
        for (int f = 0; f < 6; f++) {
            T->reg[f] = (uint32_t)m->ng;
            if (f < 3) { /* edge f: owned by the first triangle of its group; g = -beta' of the others */
                const size_t q = grp[3 * t + (size_t)f];
                if (E[gstart[q]].tri != t) continue;
                T->own |= 1u << f;
                for (size_t x = gstart[q] + 1; x < gstart[q + 1]; x++)
                    if (push_g(m, clab_v3_neg(m->t[base + E[x].tri].beta[E[x].k]))) goto out;
            } else { /* vertex f - 3: g = W - V for every edge V W */
                const size_t v = id[3 * t + (size_t)(f - 3)];
                if (vown[v] != t) continue;
                T->own |= 1u << f;
                for (size_t x = deg[v]; x < deg[v + 1]; x++)
                    if (push_g(m, clab_v3_sub(U[adj[x]], U[v]))) goto out;
            }
        }
        T->reg[6] = (uint32_t)m->ng;
    }
    fail = 0;
out:
    free(E);
    free(grp);
    free(gstart);
    free(vown);
    free(deg);
    free(adj);
    return fail;
}

/* room for ntri more triangles and one more mesh name; 1 when out of memory */
static int reserve(clab_world *w, size_t ntri)
{
    if (!w->meshes && !(w->meshes = calloc(1, sizeof *w->meshes))) return 1;
    clab_meshes *m = w->meshes;
    if (m->n + ntri > m->cap) {
        size_t cap = m->cap ? m->cap : 16;
        while (cap < m->n + ntri) cap *= 2;
        clab_tri *t = realloc(m->t, cap * sizeof *t);
        if (!t) return 1;
        m->t = t;
        m->cap = cap;
    }
    if (m->nmesh == m->capm) {
        size_t cap = m->capm ? 2 * m->capm : 4;
        char(*nm)[CLAB_NAME_LEN] = realloc(m->name, cap * sizeof *nm);
        if (!nm) return 1;
        m->name = nm;
        m->capm = cap;
    }
    return 0;
}

int clab_world_add_mesh(clab_world *w, const clab_mesh_def *d, clab_error *err)
{
    int rc = check_def(w, d, err);
    if (rc) return -1;
    const size_t ntri = d->ntri, nref = 3 * ntri;
    const clab_quat e = clab_q_normalize(d->e);
    clab_vec3 *P = malloc(nref * sizeof *P), *U = malloc(nref * sizeof *U), *r = malloc(ntri * sizeof *r),
              *half = malloc(ntri * sizeof *half);
    vref *V = malloc(nref * sizeof *V);
    size_t *id = malloc(nref * sizeof *id);
    int first = -1;
    if (!P || !U || !r || !half || !V || !id || reserve(w, ntri)) {
        clab_error_set(err, CLAB_ENOMEM, "mesh '%s': out of memory", d->name);
        goto out;
    }
    /* placed vertices, welded by exact equality */
    for (size_t q = 0; q < nref; q++) {
        P[q] = placed(d, e, q);
        V[q] = (vref){{P[q].x, P[q].y, P[q].z}, q};
    }
    qsort(V, nref, sizeof *V, cmp_vref);
    size_t nv = 0;
    for (size_t q = 0; q < nref; q++) {
        if (q == 0 || V[q].x[0] != V[q - 1].x[0] || V[q].x[1] != V[q - 1].x[1] || V[q].x[2] != V[q - 1].x[2])
            U[nv++] = P[V[q].ref];
        id[V[q].ref] = nv - 1;
    }
    /* body origins: the centres of the bounding boxes */
    for (size_t t = 0; t < ntri; t++) {
        clab_vec3 lo = P[3 * t], hi = P[3 * t];
        for (int k = 1; k < 3; k++) {
            const clab_vec3 p = P[3 * t + (size_t)k];
            lo = clab_v3(fmin(lo.x, p.x), fmin(lo.y, p.y), fmin(lo.z, p.z));
            hi = clab_v3(fmax(hi.x, p.x), fmax(hi.y, p.y), fmax(hi.z, p.z));
        }
        r[t] = clab_v3_scale(clab_v3_add(lo, hi), 0.5);
        half[t] = clab_v3_scale(clab_v3_sub(hi, lo), 0.5);
    }
    clab_meshes *m = w->meshes;
    const size_t base = m->n, ng0 = m->ng;
    if (fill_store(m, id, U, nv, ntri, r, (int)m->nmesh)) {
        m->ng = ng0;
        clab_error_set(err, CLAB_ENOMEM, "mesh '%s': out of memory", d->name);
        goto out;
    }
    m->n = base + ntri;
    snprintf(m->name[m->nmesh++], CLAB_NAME_LEN, "%s", d->name);
    for (size_t t = 0; t < ntri; t++) {
        clab_body_def b = clab_default_body_def();
        const size_t len = strlen(d->name); /* < CLAB_NAME_LEN - 1 - digits (check_def) */
        memcpy(b.name, d->name, len);
        snprintf(b.name + len, sizeof b.name - len, ".%zu", t);
        double R = 0.0;
        for (int k = 0; k < 3; k++) R = fmax(R, clab_v3_norm(clab_v3_sub(m->t[base + t].w[k], r[t])));
        b.shape = (clab_shape){.type = CLAB_SHAPE_TRIANGLE, .tri = (int)(base + t), .radius = R, .half = half[t]};
        b.r = r[t];
        b.e = clab_q(1.0, 0.0, 0.0, 0.0);
        b.fixed = 1;
        b.mass = 1.0; /* fixed: the mass is not used */
        b.material = d->material;
        int i = clab_world_add_body(w, &b, err);
        if (i < 0) goto out;
        if (t == 0) first = i;
    }
out:
    free(P);
    free(U);
    free(r);
    free(half);
    free(V);
    free(id);
    return first;
}
