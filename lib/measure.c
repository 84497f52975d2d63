/* measure.c: the stress, solid fraction and coordination numbers of a granular sample from its
 * contacts (clab_measure.h; the formulas and their sources: doc/measure.md). */
#include "clab_measure.h"
#include "clab_sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

clab_measure_opts clab_measure_default_opts(void)
{
    clab_measure_opts o;
    memset(&o, 0, sizeof o);
    o.rattler_min = 2;
    return o;
}

/* the box's extent for the volumes: a periodic axis the box spans is cut nowhere (a sphere's
 * part beyond one end is the part of its image that comes in at the other) */
static void volume_box(const clab_world *w, const clab_measure_box *box, clab_measure_box *vb, int spanned[3])
{
    *vb = *box;
    for (int k = 0; k < 3; k++) {
        const clab_periodic *p = &w->periodic;
        spanned[k] = p->on[k] && box->lo[k] <= p->lo[k] && box->hi[k] >= p->hi[k];
        if (spanned[k]) vb->lo[k] = -INFINITY, vb->hi[k] = INFINITY;
    }
}

/* the default sample: moving spheres with their center in the box (any, without one) */
static int in_sample(const clab_body *b, const clab_measure_box *box, const int spanned[3])
{
    if (b->fixed || b->shape.type != CLAB_SHAPE_SPHERE) return 0;
    if (!box) return 1;
    const double x[3] = {b->r.x, b->r.y, b->r.z};
    for (int k = 0; k < 3; k++)
        if (!spanned[k] && !(x[k] >= box->lo[k] && x[k] <= box->hi[k])) return 0;
    return 1;
}

/* sigma += f l^T, f_i l_j */
static void add_dyad(double s[3][3], clab_vec3 f, clab_vec3 l)
{
    const double fv[3] = {f.x, f.y, f.z}, lv[3] = {l.x, l.y, l.z};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) s[i][j] += fv[i] * lv[j];
}

/* The iterative rattler rule: particles with fewer than kmin force-carrying contacts are
 * removed, their contacts with other particles taken from those, until none is left to remove.
 * cnt[i] (contacts of body i) is updated; out[i] = 1 marks the rattlers; returns their number.
 * ends[2 k], ends[2 k + 1]: the bodies of force-carrying contact k between two particles. */
static size_t remove_rattlers(size_t nb, const unsigned char *part, int *cnt, int *ends, size_t npp, int kmin,
                              unsigned char *out)
{
    size_t removed = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < nb; i++)
            if (part[i] && !out[i] && cnt[i] < kmin) out[i] = 1, removed++, changed = 1;
        if (!changed) break;
        /* recount the contacts of the particles left: their boundaries' and the others' */
        for (size_t k = 0; k < npp; k++) {
            const int a = ends[2 * k], b = ends[2 * k + 1];
            if (a < 0) continue;
            if (out[a] || out[b]) {
                if (!out[a]) cnt[a]--;
                if (!out[b]) cnt[b]--;
                ends[2 * k] = -1; /* counted out once */
            }
        }
    }
    return removed;
}

int clab_measure_contacts(const clab_world *w, const clab_contacts *c, const clab_vec3 *f_nuw,
                          const clab_measure_opts *o, clab_measure *m, clab_error *err)
{
    clab_measure_opts def = clab_measure_default_opts();
    if (!o) o = &def;
    clab_measure_box vb;
    int spanned[3] = {0, 0, 0};
    double V = o->volume;
    if (o->box) {
        volume_box(w, o->box, &vb, spanned);
        if (!(V > 0.0)) {
            V = 1.0;
            for (int k = 0; k < 3; k++) V *= o->box->hi[k] - o->box->lo[k];
        }
    }
    if (!(V > 0.0) || !isfinite(V))
        return clab_error_set(err, CLAB_EINVAL,
                              "measure: no volume: give a box with hi > lo on every axis, or a volume > 0 (got %g m^3)",
                              V);
    const size_t nb = w->nbodies;
    unsigned char *part = calloc(nb ? nb : 1, 2);
    int *cnt = calloc(nb ? nb : 1, sizeof *cnt);
    int *ends = malloc((c->n ? c->n : 1) * 2 * sizeof *ends);
    if (!part || !cnt || !ends) {
        free(part), free(cnt), free(ends);
        return clab_error_set(err, CLAB_ENOMEM, "measure: out of memory for %zu bodies, %zu contacts", nb, c->n);
    }
    unsigned char *rattler = part + nb;
    clab_measure r;
    memset(&r, 0, sizeof r);
    r.volume = V;
    for (size_t i = 0; i < nb; i++) {
        const clab_body *b = &w->bodies[i];
        part[i] = o->sample ? o->sample[i] != 0 : (unsigned char)in_sample(b, o->box, spanned);
        if (!part[i]) continue;
        r.particles++;
        if (b->shape.type == CLAB_SHAPE_SPHERE)
            r.solid_volume += o->box ? clab_measure_sphere_in_box(b->r, b->shape.radius, &vb)
                                     : clab_shape_volume(&b->shape);
        else r.solid_volume += clab_shape_volume(&b->shape); /* (a marked non-sphere: counted whole) */
    }
    size_t npp = 0;
    for (size_t i = 0; i < c->n; i++) {
        const clab_contact *k = &c->c[i];
        const int pa = part[k->a], pb = part[k->b];
        if (!pa && !pb) continue;
        clab_vec3 u, v;
        clab_contact_frame(k, &u, &v);
        /* the force on b, world: F_n n + F_u u + F_w w */
        const clab_vec3 F = clab_v3_add(clab_v3_scale(k->n, f_nuw[i].x),
                                        clab_v3_add(clab_v3_scale(u, f_nuw[i].y), clab_v3_scale(v, f_nuw[i].z)));
        const clab_body *A = &w->bodies[k->a], *B = &w->bodies[k->b];
        if (pa && pb) { /* f_i l_j, l = x_b - x_a (minimum image) */
            add_dyad(r.sigma, F, clab_world_min_image(&w->periodic, clab_v3_sub(B->r, A->r)));
        } else {
            clab_vec3 sa, sb;
            clab_contact_levers(k, c->lv, w->bodies, &sa, &sb);
            if (pa) /* the force on a is -F, x_a - P = -A(e_a) sbar_A: F_i (A(e_a) sbar_A)_j */
                add_dyad(r.sigma, F, clab_q_rotate(A->e, sa));
            else /* x_b - P = -A(e_b) sbar_B */
                add_dyad(r.sigma, F, clab_v3_neg(clab_q_rotate(B->e, sb)));
        }
        if (!(f_nuw[i].x > o->f_min)) continue; /* carries no force: not a contact for Z */
        cnt[k->a] += pa;
        cnt[k->b] += pb;
        if (pa && pb) {
            r.contacts_pp++;
            ends[2 * npp] = k->a, ends[2 * npp + 1] = k->b, npp++;
        } else r.contacts_pb++;
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r.sigma[i][j] /= V;
    r.p = (r.sigma[0][0] + r.sigma[1][1] + r.sigma[2][2]) / 3.0;
    double ss = 0.0; /* s:s of s = sym(sigma) - p I */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0.5 * (r.sigma[i][j] + r.sigma[j][i]) - (i == j ? r.p : 0.0);
            ss += s * s;
        }
    r.q = sqrt(1.5 * ss);
    r.solid_fraction = r.solid_volume / V;
    r.void_ratio = r.solid_volume > 0.0 ? (V - r.solid_volume) / r.solid_volume : INFINITY;
    r.Z = r.particles ? (2.0 * (double)r.contacts_pp + (double)r.contacts_pb) / (double)r.particles : 0.0;
    r.rattlers = remove_rattlers(nb, part, cnt, ends, npp, o->rattler_min, rattler);
    long sum = 0;
    for (size_t i = 0; i < nb; i++)
        if (part[i] && !rattler[i]) sum += cnt[i];
    const size_t left = r.particles - r.rattlers;
    r.Z_m = left ? (double)sum / (double)left : 0.0;
    free(part), free(cnt), free(ends);
    *m = r;
    return CLAB_OK;
}

int clab_measure_sim(const clab_sim *s, const clab_measure_opts *o, clab_measure *m, clab_error *err)
{
    const size_t n = s->contacts.n;
    clab_vec3 *f = malloc((n ? n : 1) * sizeof *f);
    if (!f) return clab_error_set(err, CLAB_ENOMEM, "measure: out of memory for %zu contact forces", n);
    if (n) clab_sim_forces(s, f);
    int rc = clab_measure_contacts(s->world, &s->contacts, f, o, m, err);
    free(f);
    return rc;
}

int clab_measure_box_from_walls(const clab_world *w, clab_measure_box *box, clab_error *err)
{
    static const char axis_name[3] = {'x', 'y', 'z'};
    clab_measure_box b;
    for (int k = 0; k < 3; k++) b.lo[k] = -INFINITY, b.hi[k] = INFINITY;
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *p = &w->bodies[i];
        if (p->shape.type != CLAB_SHAPE_PLANE) continue;
        const clab_vec3 n = clab_q_rotate(p->e, clab_v3(0.0, 0.0, 1.0)); /* outward normal */
        const double nv[3] = {n.x, n.y, n.z}, rv[3] = {p->r.x, p->r.y, p->r.z};
        for (int k = 0; k < 3; k++) {
            if (nv[k] > 1.0 - 1e-9) b.lo[k] = fmax(b.lo[k], rv[k]); /* facing +e_k: below the sample */
            else if (nv[k] < -1.0 + 1e-9) b.hi[k] = fmin(b.hi[k], rv[k]);
        }
    }
    for (int k = 0; k < 3; k++) {
        if (w->periodic.on[k]) {
            b.lo[k] = w->periodic.lo[k];
            b.hi[k] = w->periodic.hi[k];
            continue;
        }
        if (!isfinite(b.lo[k]) || !isfinite(b.hi[k]))
            return clab_error_set(err, CLAB_EINVAL,
                                  "measure: no box from the walls: axis %c has %s (a plane with outward normal %se%c); "
                                  "give the box by hand",
                                  axis_name[k], !isfinite(b.lo[k]) ? "no wall below the sample" : "no wall above it",
                                  !isfinite(b.lo[k]) ? "+" : "-", axis_name[k]);
        if (!(b.lo[k] < b.hi[k]))
            return clab_error_set(err, CLAB_EINVAL, "measure: the walls along %c cross: lo %g m >= hi %g m",
                                  axis_name[k], b.lo[k], b.hi[k]);
    }
    *box = b;
    return CLAB_OK;
}
