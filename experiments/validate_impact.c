/* validate_impact.c: one impact of contactlab validate under any method of the experiment
 * table: body 0 a fixed plane z = 0 or a free sphere at the origin, body 1 a sphere touching
 * it from above (a gap of 1e-9 of its radius), no gravity; the run goes on for t_max after
 * the first touch. What it measures (validate.h, val_impact): the overlap's duration with the
 * crossings of the gap interpolated, the largest overlap and normal force, the impulse of the
 * compressive normal force and the velocities after. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

/* the gap between the two bodies [m] */
static double gap_of(const clab_world *w)
{
    const clab_body *a = &w->bodies[0], *b = &w->bodies[1];
    if (a->shape.type == CLAB_SHAPE_PLANE) return b->r.z - b->shape.radius;
    return clab_v3_norm(clab_v3_sub(b->r, a->r)) - a->shape.radius - b->shape.radius;
}

static clab_world *impact_world(const val_impact_def *d, clab_error *err)
{
    clab_world_def wd = clab_default_world_def();
    wd.gravity = clab_v3(0.0, 0.0, 0.0);
    clab_world *w = clab_world_create(&wd);
    if (!w) return NULL;
    clab_material m0 = d->mat0, m1 = d->mat1;
    snprintf(m0.name, sizeof m0.name, "lower");
    snprintf(m1.name, sizeof m1.name, "upper");
    const int k0 = clab_world_add_material(w, &m0, err), k1 = k0 < 0 ? -1 : clab_world_add_material(w, &m1, err);
    clab_body_def b = clab_default_body_def();
    if (k1 < 0) goto fail;
    if (d->R0 > 0.0) {
        b.shape = clab_sphere(d->R0);
        b.density = d->rho0;
        b.rdot = d->v0;
        b.omega = d->w0;
    } else {
        b.shape = clab_plane();
        b.fixed = 1;
    }
    b.material = k0;
    snprintf(b.name, sizeof b.name, "lower");
    if (clab_world_add_body(w, &b, err) < 0) goto fail;
    b = clab_default_body_def();
    b.shape = clab_sphere(d->R1);
    b.density = d->rho1;
    b.r = clab_v3(0.0, 0.0, d->R0 + d->R1 * (1.0 + 1e-9));
    b.rdot = d->v1;
    b.omega = d->w1;
    b.material = k1;
    snprintf(b.name, sizeof b.name, "upper");
    if (clab_world_add_body(w, &b, err) < 0) goto fail;
    return w;
fail:
    clab_world_destroy(w);
    return NULL;
}

int val_impact_run(const xp_common *c, const xp_method *m, const val_impact_def *d, const char *const *extra,
                   val_impact *out)
{
    memset(out, 0, sizeof *out);
    clab_error err;
    clab_world *w = impact_world(d, &err);
    if (!w) {
        fprintf(stderr, "contactlab validate: %s\n", err.msg);
        return -1;
    }
    clab_options ex;
    clab_options_init(&ex);
    for (int i = 0; extra && extra[i]; i++)
        if (clab_options_parse(&ex, extra[i], "validate", &err)) {
            fprintf(stderr, "contactlab validate: %s\n", err.msg);
            clab_options_free(&ex);
            clab_world_destroy(w);
            return -1;
        }
    clab_sim *s = xp_sim(c, w, m, d->h, &ex);
    clab_options_free(&ex);
    if (!s) {
        clab_world_destroy(w);
        return -1;
    }
    clab_vec3 *f = NULL;
    size_t fcap = 0;
    double t_touch = -1.0, t_in = NAN, t_out = NAN, g_prev = gap_of(w);
    int rc = 0;
    out->m0 = w->bodies[0].fixed ? INFINITY : w->bodies[0].m;
    out->m1 = w->bodies[1].m;
    const long max_steps = (long)(1e7);
    for (long k = 0; k < max_steps; k++) {
        if (clab_sim_step(s, &err)) {
            fprintf(stderr, "contactlab validate: %s\n", err.msg);
            rc = -1;
            break;
        }
        out->steps++;
        const double g = gap_of(w), t = w->t;
        /* the gap linear over the step: zero at t - h + h g_prev/(g_prev - g) */
        if (g_prev > 0.0 && g <= 0.0 && isnan(t_in)) t_in = t - d->h + d->h * g_prev / (g_prev - g);
        if (g_prev <= 0.0 && g > 0.0) t_out = t - d->h + d->h * g_prev / (g_prev - g);
        if (-g > out->max_overlap) out->max_overlap = -g;
        g_prev = g;
        if (xp_forces(s, &f, &fcap)) {
            rc = -1;
            break;
        }
        for (size_t i = 0; i < s->contacts.n; i++) {
            const double Fn = f[i].x;
            if (Fn > out->max_force) out->max_force = Fn;
            if (Fn > 0.0) out->Jn_plus += d->h * Fn;
            if (Fn != 0.0 && t_touch < 0.0) t_touch = t;
        }
        if (t_touch >= 0.0 && t - t_touch > d->t_max) break;
    }
    /* the overlap's duration: from the interpolated entry to the interpolated exit (a rigid
     * contact never overlaps: NAN) */
    out->t_contact = isnan(t_in) || isnan(t_out) ? NAN : t_out - t_in;
    out->v0 = w->bodies[0].rdot;
    out->w0 = clab_body_omega_world(&w->bodies[0]);
    out->v1 = w->bodies[1].rdot;
    out->w1 = clab_body_omega_world(&w->bodies[1]);
    out->ok = rc == 0 && t_touch >= 0.0;
    free(f);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

int val_sim_relaxed(const clab_sim *s)
{
    clab_options meta;
    clab_options_init(&meta);
    clab_sim_meta(s, &meta);
    const char *f = clab_options_get(&meta, "dvi_friction");
    if (!f) f = clab_options_get(&meta, "friction");
    const int r = f && strcmp(f, "relaxed") == 0;
    clab_options_free(&meta);
    return r;
}

int val_method_relaxed(const xp_common *c, const xp_method *m)
{
    val_impact_def d;
    memset(&d, 0, sizeof d);
    d.mat0 = d.mat1 = clab_default_material();
    d.R1 = 0.01, d.rho1 = 1000.0;
    clab_error err;
    clab_world *w = impact_world(&d, &err);
    if (!w) return 0;
    clab_sim *s = xp_sim(c, w, m, 1e-4, NULL);
    const int r = s ? val_sim_relaxed(s) : 0;
    if (s) clab_sim_destroy(s);
    clab_world_destroy(w);
    return r;
}
