/* sim.c: the step driver shared by every backend */
#include "clab_sim.h"
#include "clab_backend_fast.h"
#include "clab_clock.h"
#include "guard.h"

#include <float.h>
#include <math.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The problems of an option list, every one reported: at most CLAB_SIM_MAX_SHOWN lines, the
 * rest counted; whole lines only, within the room of the message. */
#define CLAB_SIM_MAX_SHOWN 20
typedef struct problems {
    clab_error all;
    int n, hidden;
} problems;

static void problem(problems *p, const char *line)
{
    p->n++;
    size_t used = strlen(p->all.msg), need = strlen(line) + 2;
    if (p->n - p->hidden > CLAB_SIM_MAX_SHOWN || (used > 0 && used + need > sizeof p->all.msg - 160)) {
        p->hidden++;
        return;
    }
    clab_error_append(&p->all, CLAB_EINVAL, "%s", line);
}

/* each line of a message (the unknown-key check writes one per key) */
static void problem_lines(problems *p, const char *msg)
{
    char line[CLAB_ERROR_LEN];
    while (*msg) {
        size_t k = strcspn(msg, "\n");
        snprintf(line, sizeof line, "%.*s", (int)k, msg);
        if (k) problem(p, line);
        msg += k + (msg[k] == '\n');
    }
}

/* a sim option through its getter: a refused value is reported and set aside */
static void sim_option(clab_options *o, const char *key, double lo, double hi, double *out, problems *p)
{
    clab_error e;
    clab_error_clear(&e);
    if (clab_options_double(o, key, lo, hi, out, &e)) {
        problem(p, e.msg);
        clab_options_set_aside(o);
    }
}

/* the same for an integer option */
static void sim_int_option(clab_options *o, const char *key, long lo, long hi, long *out, problems *p)
{
    clab_error e;
    clab_error_clear(&e);
    if (clab_options_int(o, key, lo, hi, out, &e)) {
        problem(p, e.msg);
        clab_options_set_aside(o);
    }
}

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
    problems *p = calloc(1, sizeof *p);
    if (!s || !p) {
        free(s);
        free(p);
        clab_error_set(err, CLAB_ENOMEM, "out of memory");
        return NULL;
    }
    s->world = w;
    s->type = type;
    s->h = h;
    s->envelope = type->default_envelope;
    s->vmax = 1e4;
    clab_guard_init(&s->guard);
    s->sorted_at = -1;
    clab_contacts_init(&s->contacts);
    clab_options empty;
    clab_options_init(&empty);
    clab_options *o = opt ? opt : &empty;
    o->last_bad = -1;
    clab_error_clear(&p->all);
    /* every problem of the options is reported, not the first: a value a getter refuses is
     * set aside and the reading goes on (the sim's options, then the backend's create again
     * until it reads them all), then the keys nobody asked for */
    double skin = -1.0; /* automatic unless given */
    sim_option(o, "envelope", 0.0, 1e3, &s->envelope, p); /* < 0 would drop touching contacts */
    sim_option(o, "vmax", 0.0, 1e300, &s->vmax, p);            /* 0: no speed bound */
    sim_option(o, "guard_energy", 0.0, 1e6, &s->guard.energy, p);
    sim_option(o, "guard_penetration", 0.0, 1e3, &s->guard.penetration, p);
    sim_int_option(o, "guard_every", 1, 1000000000L, &s->guard.every, p);
    sim_int_option(o, "allow_overlap", 0, 1, &s->guard.allow_overlap, p);
    sim_option(o, "skin", 0.0, 1e3, &skin, p);
    if (clab_options_get(o, "sort")) sim_int_option(o, "sort", 0, LONG_MAX, &s->sort_every, p);
    sim_option(o, "sort_cell", 0.0, 1e6, &s->sort_cell, p);
    int rc;
    clab_error e;
    for (;;) {
        clab_error_clear(&e);
        rc = type->create(w, o, &s->self, &e);
        if (rc == CLAB_OK) break;
        problem_lines(p, e.msg);
        if (rc != CLAB_EINVAL || clab_options_set_aside(o)) break; /* not an option's value: stop there */
    }
    char owner[96];
    snprintf(owner, sizeof owner, "%s backend", type->name);
    clab_error_clear(&e);
    if (rc == CLAB_OK && clab_options_check_unused(o, owner, &e)) problem_lines(p, e.msg);
    if (p->n > 0) {
        if (p->n > 1 && p->hidden > 0)
            clab_error_append(&p->all, CLAB_EINVAL, "%d problems with the options of the %s (%d more not shown)", p->n,
                              owner, p->hidden);
        else if (p->n > 1)
            clab_error_append(&p->all, CLAB_EINVAL, "%d problems with the options of the %s", p->n, owner);
        clab_error_set(err, rc != CLAB_OK ? rc : CLAB_EINVAL, "%s", p->all.msg);
        goto fail;
    }
    s->collider = clab_collider_create();
    if (!s->collider) {
        clab_error_set(err, CLAB_ENOMEM, "out of memory");
        goto fail;
    }
    clab_collider_set_skin(s->collider, skin);
    s->fast = clab_backend_fast_of(type, s->self);
    clab_options_free(&empty);
    free(p);
    return s;
fail:
    clab_options_free(&empty);
    free(p);
    clab_sim_destroy(s);
    return NULL;
}

void clab_sim_destroy(clab_sim *s)
{
    if (!s) return;
    if (s->self) s->type->destroy(s->self);
    clab_collider_destroy(s->collider);
    clab_contacts_free(&s->contacts);
    free(s->fbuf);
    free(s);
}

int clab_sim_sort(clab_sim *s, clab_error *err)
{
    clab_world *w = s->world;
    const size_t n = w->nbodies;
    if (!s->type->permute)
        return clab_error_set(err, CLAB_EINVAL, "sort: the %s backend cannot renumber its bodies", s->type->name);
    if (n == 0) {
        s->sorted_at = w->step;
        return CLAB_OK;
    }
    size_t *perm = malloc(n * sizeof *perm), *inv = NULL, moved = 0;
    if (!perm) return clab_error_set(err, CLAB_ENOMEM, "sort: out of memory for %zu bodies", n);
    int rc = clab_world_cell_order(w, s->sort_cell, perm, &moved, err);
    if (!rc && moved > 0 && !(inv = malloc(n * sizeof *inv)))
        rc = clab_error_set(err, CLAB_ENOMEM, "sort: out of memory for %zu bodies", n);
    if (!rc && moved > 0) {
        for (size_t k = 0; k < n; k++) inv[perm[k]] = k;
        rc = s->type->permute(s->self, inv, n, err);
        if (!rc && (rc = clab_world_permute(w, perm, err))) { /* (perm was checked: cannot fail) */
            for (size_t k = 0; k < n; k++) inv[k] = perm[k]; /* map the backend back */
            s->type->permute(s->self, inv, n, NULL);
        }
        if (!rc) clab_collider_invalidate(s->collider);
    }
    if (!rc) {
        s->sorts += moved > 0;
        s->sorted_at = w->step;
    }
    free(perm);
    free(inv);
    return rc;
}

/* clab_body_pass's function: the fast path's gather of bodies [i0, i1) */
static void gather_range(void *ctx, const clab_world *w, size_t i0, size_t i1)
{
    const clab_sim *s = ctx;
    s->fast->gather(s->self, w, i0, i1);
}

int clab_sim_prepare(clab_sim *s, clab_error *err)
{
    clab_world *w = s->world;
    int rc;
    if (clab_sim_sort_due(s) && (rc = clab_sim_sort(s, err))) return rc;
    /* without the backend's gather: the step gathers at its own start */
    if ((rc = clab_collide_with(s->collider, w, s->envelope, &s->contacts, NULL, err))) return rc;
    if (s->fast && s->fast->prepare && (rc = s->fast->prepare(s->self, w, &s->contacts, err))) return rc;
    clab_contacts_clear(&s->contacts); /* the last step's forces no longer match them */
    return CLAB_OK;
}

/* each servo wall's velocity for the next step: its base velocity plus clab_servo_speed of
 * the contact force this step put on it, along its axis */
static int servo_update(clab_sim *s, clab_error *err)
{
    clab_world *w = s->world;
    for (size_t k = 0; k < w->ndriven; k++) {
        const clab_driven *d = &w->driven[k];
        if (d->m.kind != CLAB_MOTION_SERVO) continue;
        clab_vec3 F, T;
        int rc = clab_sim_body_force(s, d->body, &F, &T, err);
        if (rc) return rc;
        clab_body *b = &w->bodies[d->body];
        b->rdot = clab_v3_madd(d->m.v, clab_servo_speed(&d->m.servo, F), d->m.servo.axis);
    }
    return CLAB_OK;
}

int clab_sim_set_body_velocity(clab_sim *s, size_t i, clab_vec3 v, clab_vec3 omega, clab_error *err)
{
    return clab_world_set_body_velocity(s->world, i, v, omega, err);
}

int clab_sim_step(clab_sim *s, clab_error *err)
{
    clab_world *w = s->world;
    clab_sim_times *tm = &s->times;
    clab_sim_guard *g = &s->guard;
    int rc;
    const double t0 = clab_clock();
    /* the first step of this sim checks the state it starts from (a restored one included);
     * a step from step 0 starts the guard over (a driver that prepared the state, e.g. settled
     * and launched a body, and set the clock back: its run starts there) */
    const int first = !g->started || w->step == 0;
    if (first && (rc = clab_world_check_state(w, s->vmax, err))) return rc;
    if (clab_sim_sort_due(s) && (rc = clab_sim_sort(s, err))) return rc;
    if (w->ndriven) clab_world_motion_begin(w, s->h); /* tables: the mean velocity over [t, t + h] */
    const double t1 = clab_clock();
    tm->sort += t1 - t0;
    /* a fast path's gather inside the collider's skin test (one read of the bodies for both;
     * a gather_begin that fails leaves the gather to the step, which reports what it lacks) */
    const clab_backend_fast *fast = s->fast;
    clab_body_pass pass = {gather_range, s};
    const int gather = fast && fast->gather_begin && fast->gather && fast->gather_begin(s->self, w, NULL) == CLAB_OK;
    rc = clab_collide_with(s->collider, w, s->envelope, &s->contacts, gather ? &pass : NULL, err);
    if (rc) return rc;
    if (first) clab_guard_begin(g, w, &s->contacts); /* the energy and the overlaps it starts with */
    const double t2 = clab_clock();
    tm->collide += t2 - t1;
    int suspect = 1;
    if (fast && fast->step_wrap) { /* the fast path wraps and screens the bodies in its own body loop */
        rc = fast->step_wrap(s->self, w, &s->contacts, s->h, s->vmax, &suspect, err);
        if (rc) return rc;
    } else {
        rc = s->type->step(s->self, w, &s->contacts, s->h, err);
        if (rc) return rc;
        clab_world_wrap(w); /* periodic axes: centers back into [lo, hi) */
    }
    const double t3 = clab_clock();
    tm->backend += t3 - t2;
    if (w->ndriven) { /* the driven bodies advance with their velocity; servos set the next one */
        clab_world_motion_drift(w, s->h);
        if ((rc = servo_update(s, err))) return rc;
    }
    w->t += s->h;
    w->step++;
    rc = suspect ? clab_world_check_state(w, s->vmax, err) : CLAB_OK;
    if (!rc && !g->elastic) rc = clab_guard_elastic(s, err);
    if (!rc && (first || w->step % g->every == 0)) rc = clab_guard_check(g, w, &s->contacts, err);
    tm->rest += clab_clock() - t3;
    tm->steps++;
    return rc;
}

int clab_sim_step_count(double t_end, double h, long *n, clab_error *err)
{
    if (!(isfinite(h) && h > 0.0))
        return clab_error_set(err, CLAB_EINVAL, "step count: the step h = %g s must be finite and > 0", h);
    if (!(isfinite(t_end) && t_end >= 0.0))
        return clab_error_set(err, CLAB_EINVAL, "step count: t_end = %g s must be finite and >= 0", t_end);
    /* t_end/h with t_end and h each rounded to a double and the quotient rounded: within a
     * few ulps of the exact ratio; an integer that close is the count meant */
    const double q = t_end / h, r = nearbyint(q);
    const double steps = fabs(q - r) <= 8.0 * DBL_EPSILON * fmax(r, 1.0) ? r : ceil(q);
    if (!(steps <= CLAB_SIM_MAX_STEPS))
        return clab_error_set(err, CLAB_EINVAL,
                              "t_end = %g s at h = %g s is %.3g steps, more than the limit %.0e (a step count that "
                              "large is a mistake in t_end or h, and takes weeks)",
                              t_end, h, steps, CLAB_SIM_MAX_STEPS);
    *n = (long)steps;
    return CLAB_OK;
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
    /* the guard's options only when not the defaults: the outputs of runs with them stay as
     * they were */
    const clab_sim_guard *g = &s->guard;
    if (g->energy != 0.5 || g->penetration != 0.5 || g->every != 10 || g->allow_overlap) {
        char gv[160];
        snprintf(gv, sizeof gv, "energy %.17g, penetration %.17g, every %ld, allow_overlap %ld", g->energy,
                 g->penetration, g->every, g->allow_overlap);
        clab_options_set(m, "guard", gv, NULL);
    }
    if (s->sort_every > 0) { /* only when on: the outputs of runs without it stay as they were */
        snprintf(v, sizeof v, "%ld", s->sort_every);
        clab_options_set(m, "sort_steps", v, NULL);
    }
    if (s->type->meta) s->type->meta(s->self, m);
}

void clab_sim_backend_times(const clab_sim *s, double *t_contacts, double *t_bodies)
{
    *t_contacts = *t_bodies = 0.0;
    const clab_backend_fast *fast = clab_backend_fast_of(s->type, s->self);
    if (fast && fast->times) fast->times(s->self, t_contacts, t_bodies);
}
