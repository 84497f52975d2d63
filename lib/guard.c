/* guard.c: the physics guard of the step driver (clab_sim_guard in clab_sim.h: what is
 * checked, the bounds and why). It reads the world and the contacts and writes only its own
 * running values, so a run computes the same bits with it as without it. */
#include "guard.h"

#include <math.h>
#include <stdlib.h>

void clab_guard_init(clab_sim_guard *g)
{
    *g = (clab_sim_guard){0};
    g->energy = 0.5;
    g->penetration = 0.5;
    g->every = 10;
    g->crowded_step = -1;
}

/* the radius an overlap is measured against: a sphere's radius, a box's smallest half extent
 * (a plane: none, INFINITY) */
static double body_size(const clab_body *b)
{
    switch (b->shape.type) {
    case CLAB_SHAPE_SPHERE: return b->shape.radius;
    case CLAB_SHAPE_BOX: return fmin(b->shape.half.x, fmin(b->shape.half.y, b->shape.half.z));
    default: return INFINITY;
    }
}

static int moving_sphere(const clab_body *b) { return !b->fixed && b->shape.type == CLAB_SHAPE_SPHERE; }

/* One pass over the contacts: the largest overlap ratio -Phi / (smaller radius) and its
 * contact, how many are above `limit` (none counted when limit <= 0), and the contact ends on
 * moving spheres (the crowding). */
typedef struct overlap_scan {
    size_t worst, over, ends;
    double ratio; /* of the worst (0: no overlap) */
} overlap_scan;

static overlap_scan scan_contacts(const clab_world *w, const clab_contacts *c, double limit)
{
    overlap_scan r = {(size_t)-1, 0, 0, 0.0};
    const clab_body *B = w->bodies;
    for (size_t i = 0; i < c->n; i++) {
        const clab_contact *ct = &c->c[i];
        const clab_body *a = &B[ct->a], *b = &B[ct->b];
        r.ends += (size_t)(moving_sphere(a) + moving_sphere(b));
        if (ct->phi < 0.0) {
            double q = -ct->phi / fmin(body_size(a), body_size(b));
            r.over += limit > 0.0 && q > limit;
            if (q > r.ratio) r.ratio = q, r.worst = i;
        }
    }
    return r;
}

/* the crowding: contact ends on moving spheres over their number (spheres: the count) */
static void crowding(clab_sim_guard *g, const clab_world *w, size_t ends, size_t spheres)
{
    g->crowding = spheres ? (double)ends / (double)spheres : 0.0;
    if (g->crowding > CLAB_GUARD_CROWDED && g->crowded_step < 0) g->crowded_step = w->step;
}

static size_t count_moving_spheres(const clab_world *w)
{
    size_t n = 0;
    for (size_t i = 0; i < w->nbodies; i++) n += (size_t)moving_sphere(&w->bodies[i]);
    return n;
}

int clab_guard_placement(clab_sim_guard *g, const clab_world *w, const clab_contacts *c, clab_error *err)
{
    overlap_scan r = scan_contacts(w, c, g->allow_overlap ? 0.0 : CLAB_GUARD_OVERLAP0);
    crowding(g, w, r.ends, count_moving_spheres(w));
    g->placed = 1;
    if (!r.over) return CLAB_OK;
    const clab_contact *ct = &c->c[r.worst];
    const double R = fmin(body_size(&w->bodies[ct->a]), body_size(&w->bodies[ct->b]));
    g->placed = 0;
    return clab_error_set(err, CLAB_EINVAL,
                          "%s and %s overlap by %g m at the start, %.3g x the smaller radius %g m (%zu pair%s beyond "
                          "the tolerance %g x the smaller radius; %.1f contacts per moving sphere): separate the "
                          "bodies, or allow it (option allow_overlap=1; contactlab run --allow-overlap)",
                          clab_world_body_name(w, (size_t)ct->a), clab_world_body_name(w, (size_t)ct->b), -ct->phi,
                          r.ratio, R, r.over, r.over == 1 ? "" : "s", CLAB_GUARD_OVERLAP0, g->crowding);
}

/* The energy sums of the moving bodies: K, U = -sum m g_o.r (g_o: gravity along the open
 * axes), P = sum m g_p.rdot (g_p: along the periodic axes) plus the applied loads' power. One pass, K written out (as
 * clab_body_kinetic_energy: 1/2 m |rdot|^2 + 1/2 wbar . J wbar) so the loop has no call. */
typedef struct energy_sums {
    double K, U, P;
} energy_sums;

static energy_sums energy_of(const clab_world *w)
{
    const clab_periodic *p = &w->periodic;
    const clab_vec3 g = w->gravity;
    const clab_vec3 gp = clab_v3(p->on[0] ? g.x : 0.0, p->on[1] ? g.y : 0.0, p->on[2] ? g.z : 0.0);
    const clab_vec3 go = clab_v3_sub(g, gp);
    double K2 = 0.0, U = 0.0, P = 0.0;
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        if (b->fixed) continue;
        const clab_vec3 v = b->rdot, o = b->wbar;
        K2 += b->m * clab_v3_dot(v, v) + (b->J.x * o.x * o.x + b->J.y * o.y * o.y + b->J.z * o.z * o.z);
        U -= b->m * clab_v3_dot(go, b->r);
        P += b->m * clab_v3_dot(gp, v);
    }
    if (w->loads) /* the power of the applied loads, F . rdot + T . omega (clab_world_set_load) */
        for (size_t i = 0; i < w->nbodies; i++) {
            const clab_body *b = &w->bodies[i];
            if (!b->fixed) P += clab_v3_dot(w->loads[i].F, b->rdot) + clab_v3_dot(w->loads[i].T, clab_body_omega_world(b));
        }
    return (energy_sums){0.5 * K2, U, P};
}

/* the body of the largest kinetic energy (a NaN the largest), for the message */
static size_t fastest(const clab_world *w, double *kmax)
{
    size_t best = 0;
    *kmax = -1.0;
    for (size_t i = 0; i < w->nbodies; i++) {
        if (w->bodies[i].fixed) continue;
        double k = clab_body_kinetic_energy(&w->bodies[i]);
        if (!(k <= *kmax)) *kmax = k, best = i;
    }
    return best;
}

void clab_guard_begin(clab_sim_guard *g, const clab_world *w, const clab_contacts *c)
{
    g->pen0 = scan_contacts(w, c, 0.0).ratio;
    energy_sums e = energy_of(w);
    const double gn = clab_v3_norm(w->gravity);
    double lift = 0.0;
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        if (!b->fixed) lift += b->m * gn * clab_shape_bound_radius(&b->shape);
    }
    g->E0 = e.K + e.U;
    g->K_max = e.K;
    g->lift = lift;
    g->W = g->W_abs = 0.0;
    g->P_last = e.P;
    g->t_last = w->t;
    g->E_el = 0.0;
    g->spheres = count_moving_spheres(w);
    g->rmin = INFINITY;
    for (size_t i = 0; i < w->nbodies; i++) g->rmin = fmin(g->rmin, body_size(&w->bodies[i]));
    g->started = 1;
    g->elastic = 0;
}

int clab_guard_elastic(clab_sim *s, clab_error *err)
{
    clab_sim_guard *g = &s->guard;
    const clab_contacts *c = &s->contacts;
    g->elastic = 1;
    size_t over = 0;
    for (size_t i = 0; i < c->n; i++) over += c->c[i].phi < 0.0;
    if (!over) return CLAB_OK;
    clab_vec3 *f = malloc(c->n * sizeof *f);
    if (!f) return clab_error_set(err, CLAB_ENOMEM, "guard: out of memory for %zu contact forces", c->n);
    clab_sim_forces(s, f);
    /* E_el = 2 sum |F_n| (-Phi): the energy an initial overlap can release, bounded */
    double e = 0.0;
    for (size_t i = 0; i < c->n; i++)
        if (c->c[i].phi < 0.0) e += fabs(f[i].x) * -c->c[i].phi;
    free(f);
    g->E_el = isfinite(e) ? 2.0 * e : INFINITY;
    return CLAB_OK;
}

int clab_guard_check(clab_sim_guard *g, const clab_world *w, const clab_contacts *c, clab_error *err)
{
    /* deeper than the bound and than the start's deepest overlap (a placement the driver
     * accepted, clab_sim_check and allow_overlap, is not the run's doing) */
    const double bound = g->penetration > 0.0 ? fmax(g->penetration, g->pen0) : 0.0;
    /* the scan reads both bodies of every contact; first a look at the gaps alone: with no
     * overlap beyond bound x the smallest body's radius, and too few contacts for any
     * crowding (each has two ends), no contact can fail and nobody is crowded */
    double phimin = 0.0;
    for (size_t i = 0; i < c->n; i++) phimin = c->c[i].phi < phimin ? c->c[i].phi : phimin;
    const int deep = bound > 0.0 && !(-phimin <= bound * g->rmin);
    const int crowd = 2.0 * (double)c->n > CLAB_GUARD_CROWDED * (double)g->spheres;
    overlap_scan r = {(size_t)-1, 0, 0, 0.0};
    if (deep || crowd) r = scan_contacts(w, c, bound);
    if (crowd) crowding(g, w, r.ends, g->spheres);
    if (r.over) {
        const clab_contact *ct = &c->c[r.worst];
        const double R = fmin(body_size(&w->bodies[ct->a]), body_size(&w->bodies[ct->b]));
        return clab_error_set(err, CLAB_ENUMERIC,
                              "%s and %s: penetration %g m is %.3g x the smaller radius %g m, beyond the bound %g "
                              "(%zu contact%s beyond it) at step %ld, t = %.9g s (exploding state? reduce the step "
                              "size; option guard_penetration)",
                              clab_world_body_name(w, (size_t)ct->a), clab_world_body_name(w, (size_t)ct->b),
                              -ct->phi, r.ratio, R, bound, r.over, r.over == 1 ? "" : "s", w->step, w->t);
    }
    energy_sums e = energy_of(w);
    /* the work of gravity along periodic axes, trapezoid rule between checks */
    const double dt = w->t - g->t_last;
    g->W += 0.5 * (e.P + g->P_last) * dt;
    g->W_abs += 0.5 * (fabs(e.P) + fabs(g->P_last)) * dt;
    g->P_last = e.P;
    g->t_last = w->t;
    const double E = e.K + e.U;
    const double allow = g->E_el + g->energy * (g->K_max + g->lift + g->W_abs);
    /* a driven body does work on the others that nothing here measures: no energy bound then
     * (the state and penetration checks stay) */
    if (g->energy > 0.0 && w->ndriven == 0 && !(E - g->E0 - g->W <= allow)) {
        double kmax;
        size_t i = fastest(w, &kmax);
        const char *who = kmax >= 0.0 ? clab_world_body_name(w, i) : "no body";
        return clab_error_set(err, CLAB_ENUMERIC,
                              "%s (kinetic energy %g J, the largest): the energy K + U = %g J rose by %g J above "
                              "its start %g J%s, beyond the allowance %g J (no work done on the bodies can supply it) "
                              "at step %ld, t = %.9g s (exploding state? reduce the step size; option guard_energy)",
                              who, kmax, E, E - g->E0, g->E0, g->W != 0.0 ? " plus the work of gravity along the periodic axes and of the loads" : "",
                              allow, w->step, w->t);
    }
    g->K_max = fmax(g->K_max, e.K);
    return CLAB_OK;
}

int clab_sim_check(clab_sim *s, clab_error *err)
{
    clab_world *w = s->world;
    clab_sim_guard *g = &s->guard;
    int rc = clab_world_check_state(w, s->vmax, err);
    if (rc) return rc;
    if (!g->placed && w->step == 0) {
        /* the initial placement, on a collision pass of its own (the run's collider and
         * contacts untouched) */
        clab_collider *cd = clab_collider_create();
        if (!cd) return clab_error_set(err, CLAB_ENOMEM, "guard: out of memory");
        clab_contacts c;
        clab_contacts_init(&c);
        rc = clab_collide(cd, w, s->envelope, &c, err);
        if (!rc) rc = clab_guard_placement(g, w, &c, err);
        clab_contacts_free(&c);
        clab_collider_destroy(cd);
        return rc;
    }
    return g->started ? clab_guard_check(g, w, &s->contacts, err) : CLAB_OK;
}
