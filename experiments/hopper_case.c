/* hopper_case.c: the cases of contactlab hopper (hopper_xp.h): the fill of a geometry
 * (settled with the Hertz-Mindlin penalty method, or loaded from a saved fill) and one
 * discharge through an orifice, each checkpointed and restartable (xp.h, "checkpoint and
 * restart of an experiment").
 *
 * A discharge's running values are the experiment's (hp_state), the time spent before a
 * restart, the counter's (count, mass, exit times per sphere and in exit order, cumulated mass)
 * and the time of the last exit. A sphere discharged before the checkpoint is fixed (frozen:
 * hp_counter_step); the checkpoint's scene fingerprint includes the fixed flags, so a restart
 * freezes the same spheres of the fresh world (those with an exit time) before restoring it. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clab_checkpoint.h"
#include "clab_sim.h"
#include "hopper_xp.h"
#include "pile_scene.h"

#define HP_RECOVERY "0"   /* the dvi backend's recovery_speed [m/s] */
#define HP_FILL_TAG "hopper fill" /* the saved fill's checkpoint tag, then the geometry */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const char *geom_name(int g) { return g == HP_CONE ? "cone" : "flat"; }

/* ---- the fill ---- */

static void fill_file(const hp_opts *o, const char *dir, char *buf, size_t n)
{
    if ((size_t)snprintf(buf, n, "%s/hopper-%s-fill.ckpt", dir, geom_name(o->def.geometry)) >= n) buf[0] = '\0';
}

/* The settled state in s (step nsettle) from the saved fill at path: same scene (the fill's
 * parameters), same penalty parameters and step, settled as long. -1 printed. */
static int fill_load(const hp_opts *o, clab_sim *s, long nsettle, const char *path)
{
    clab_error err;
    clab_checkpoint_info info;
    memset(&info, 0, sizeof info);
    char tag[CLAB_CHECKPOINT_TAG_LEN];
    snprintf(tag, sizeof tag, "%s %s", HP_FILL_TAG, geom_name(o->def.geometry));
    int rc = 0;
    if (clab_checkpoint_read(s, path, &info, &err)) {
        fprintf(stderr, "contactlab hopper: cannot use the saved fill: %s (a fill of other spheres or another "
                        "container)\n", err.msg);
        rc = -1;
    } else if (strcmp(info.out.tag, tag) != 0) {
        fprintf(stderr, "contactlab hopper: %s is not a saved fill of the %s hopper (its tag: '%s')\n", path,
                geom_name(o->def.geometry), info.out.tag);
        rc = -1;
    } else if (!info.same_parameters || info.step != nsettle) {
        fprintf(stderr, "contactlab hopper: the saved fill %s was settled with other penalty parameters, step or "
                        "--t-settle (%ld steps of %g s; this run: %ld of %g s)\n",
                path, info.step, info.h, nsettle, s->h);
        rc = -1;
    }
    clab_checkpoint_info_free(&info);
    return rc;
}

static int fill_save(const hp_opts *o, const clab_sim *s, const char *path)
{
    clab_checkpoint_output out;
    memset(&out, 0, sizeof out);
    snprintf(out.tag, sizeof out.tag, "%s %s", HP_FILL_TAG, geom_name(o->def.geometry));
    clab_error err;
    if (clab_checkpoint_write(s, &out, path, &err)) {
        fprintf(stderr, "contactlab hopper: saving the fill: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* settle s from its step to nsettle under the case's guard; 0, 1 failed, 2 stopped */
static int settle_steps(hp_opts *o, hp_state *x, clab_csv *sum, clab_sim *s, long nsettle, int *status)
{
    clab_error err;
    double *vals = malloc(HP_NX * sizeof *vals);
    if (!vals) return 1;
    memcpy(vals, x, sizeof *x);
    xp_guard g;
    int rc = 0, resumed = xp_case_begin(&o->c, &g, s, sum, 1, vals, HP_NX);
    if (resumed < 0) rc = 1;
    if (resumed == 1) memcpy(x, vals, sizeof *x);
    xp_progress pb;
    char label[128];
    snprintf(label, sizeof label, "hopper %s: settling %d spheres (penalty)", geom_name(o->def.geometry), o->def.n);
    xp_progress_begin(&pb, &o->c, label);
    const long k0 = s->world->step;
    for (long k = k0; k <= nsettle && !rc; k++) {
        if (k % 200 == 0 || k == nsettle) { /* the last good state, for a failed step */
            xp_progress_update(&pb, (double)k / (double)nsettle);
            if (xp_guard_snapshot(&g, s, &err)) {
                fprintf(stderr, "contactlab hopper: %s\n", err.msg);
                rc = 1;
            }
        }
        if (k == nsettle || rc) break;
        if (k > k0 && xp_case_due(&o->c, k)) {
            int r = xp_case_poll(&o->c, &g, s, k);
            if (r) {
                if (pb.on) fprintf(stderr, "\n");
                if (r > 0) *status = xp_case_stopped(&o->c, s);
                rc = r > 0 ? 2 : 1;
                break;
            }
        }
        if (clab_sim_step(s, &err)) {
            if (pb.on) fprintf(stderr, "\n");
            xp_case_fail(&o->c, &g, &err);
            rc = 1;
        }
    }
    if (!rc) xp_progress_end(&pb);
    rc = xp_case_end(&o->c, &g, NULL, rc);
    free(vals);
    return rc;
}

int hp_fill_case(hp_opts *o, hp_state *x, clab_csv *sum, hp_fill *f, int *status)
{
    clab_error err;
    char label[64];
    snprintf(label, sizeof label, "fill %s", geom_name(o->def.geometry));
    const int skip = xp_case_skip(&o->c, label); /* a restart past the fill: load it from <out> */
    f->w = hp_build(&o->def, 0.0, HP_GATE, NULL, 0, &f->info, &err);
    if (!f->w) {
        fprintf(stderr, "contactlab hopper: %s\n", err.msg);
        return 1;
    }
    const xp_method *pm = xp_method_find(&o->c, "penalty");
    clab_sim *s = pm ? xp_sim(&o->c, f->w, pm, o->hpen > 0.0 ? o->hpen : 1e-5, NULL) : NULL;
    if (!s) return 1;
    if (o->hpen <= 0.0) s->h = xp_pile_penalty_step(s);
    const long nsettle = xp_steps(&o->c, o->t_settle, s->h);
    char own[2048];
    fill_file(o, o->c.out, own, sizeof own);
    int rc = nsettle < 0;
    const double t0 = now_s();
    f->source = "settled";
    f->wall = 0.0;
    if (!rc && (skip || o->fill_from[0])) {
        fill_file(o, skip ? o->c.out : o->fill_from, f->path, sizeof f->path);
        f->source = f->path;
        rc = fill_load(o, s, nsettle, f->path) ? 1 : 0;
        if (!rc && !skip && strcmp(f->path, own) != 0) rc = fill_save(o, s, own) ? 1 : 0; /* for a restart */
    } else if (!rc) {
        rc = settle_steps(o, x, sum, s, nsettle, status);
        if (!rc) rc = fill_save(o, s, own) ? 1 : 0;
        f->wall = now_s() - t0;
    }
    f->ke = clab_world_kinetic_energy(f->w);
    clab_sim_destroy(s);
    if (rc) return rc;
    /* at rest: the velocities the fill keeps are the settling's residue */
    for (size_t i = f->info.first; i < f->w->nbodies; i++) {
        f->w->bodies[i].rdot = clab_v3(0.0, 0.0, 0.0);
        f->w->bodies[i].wbar = clab_v3(0.0, 0.0, 0.0);
    }
    f->w->t = 0.0;
    f->w->step = 0;
    f->rho_b = hp_bulk_density(&o->def, f->w, f->info.first, &f->phi);
    return 0;
}

/* ---- a discharge ---- */

static const char *const series_cols[] = {"t_s", "discharged", "discharged_mass_kg", "remaining", "kinetic_energy_J",
                                          "contacts", "iterations"};
enum { NCOLS = sizeof series_cols / sizeof series_cols[0] };
enum { HP_NRUN = 4 }; /* after hp_state: wall before a restart, count, mass, time of the last exit */

/* the running values: hp_state, HP_NRUN scalars, t_out[n], t_cum[n], m_cum[n] */
static void pack(double *v, const hp_state *x, const hp_counter *k, double wall, double t_change)
{
    memcpy(v, x, sizeof *x);
    double *r = v + HP_NX;
    r[0] = wall, r[1] = (double)k->count, r[2] = k->mass, r[3] = t_change;
    memcpy(r + HP_NRUN, k->t_out, k->n * sizeof(double));
    memcpy(r + HP_NRUN + k->n, k->t_cum, k->n * sizeof(double));
    memcpy(r + HP_NRUN + 2 * k->n, k->m_cum, k->n * sizeof(double));
}

static void unpack(const double *v, hp_state *x, hp_counter *k, double *wall, double *t_change)
{
    memcpy(x, v, sizeof *x);
    const double *r = v + HP_NX;
    *wall = r[0], k->count = (size_t)r[1], k->mass = r[2], *t_change = r[3];
    memcpy(k->t_out, r + HP_NRUN, k->n * sizeof(double));
    memcpy(k->t_cum, r + HP_NRUN + k->n, k->n * sizeof(double));
    memcpy(k->m_cum, r + HP_NRUN + 2 * k->n, k->n * sizeof(double));
}

/* a restart of this case: freeze the spheres the checkpoint has discharged (its scene has
 * them fixed); -1 when the checkpoint's values are not a discharge of n spheres */
static int refreeze(const hp_opts *o, clab_world *w, size_t first, size_t n)
{
    const clab_checkpoint_output *out = &o->c.resume.out;
    if (out->nvalues != HP_NX + HP_NRUN + 3 * n || !out->values) {
        fprintf(stderr, "contactlab hopper: cannot restart: %s holds %zu running values, not a discharge of %zu "
                        "spheres\n", o->c.restart, out->nvalues, n);
        return -1;
    }
    const double *t_out = out->values + HP_NX + HP_NRUN;
    for (size_t i = 0; i < n; i++)
        if (t_out[i] >= 0.0) w->bodies[first + i].fixed = 1;
    return 0;
}

/* the discharge's sim on w: the method's, the rigid ones with recovery_speed = 0 */
static clab_sim *discharge_sim(hp_opts *o, clab_world *w, const xp_method *m)
{
    clab_options extra;
    clab_options_init(&extra);
    if (m->kind == XP_KIND_CCP) xp_pile_dvi_defaults(&extra);
    /* the fill is the penalty method's, with its overlaps (about 2 % of d at the floor): the
     * CCP's stabilization asks every overlapping contact to separate (Phi/h capped at
     * recovery_speed), which a bed wedged between the walls cannot do at once: the CCP has no
     * solution, its iterate pumps energy in and the bed blows up within ten steps (measured
     * with recovery_speed = 0.02 and 1 m/s, APGD and Gauss-Seidel alike). HP_RECOVERY = 0 keeps
     * the fill's overlaps as they are (v_n >= 0 on them) and corrects no new one by more than
     * the step's own gap term (override with --opt dvi:recovery_speed=X) */
    if (strcmp(m->backend, "dvi") == 0) clab_options_set(&extra, "recovery_speed", HP_RECOVERY, "hopper default");
    const double h = xp_method_h(m, o->hpen, o->hdvi);
    clab_sim *s = xp_sim(&o->c, w, m, h > 0.0 ? h : 1e-5, &extra);
    clab_options_free(&extra);
    if (s && h <= 0.0) s->h = xp_pile_penalty_step(s);
    return s;
}

/* the step loop of a discharge from the state's step (0, or the checkpoint's) */
typedef struct hp_loop {
    hp_opts *o;
    clab_sim *s;
    hp_counter *k;
    xp_guard *g;
    clab_csv *csv;
    hp_state *x;
    double *vals;
    double wall0, t0, t_change;
    int resumed;
} hp_loop;

/* 0 stopped by the count (res->outcome) or t_end, 1 failed, 2 stopped (*status) */
static int discharge_steps(hp_loop *L, hp_result *res, xp_progress *pb, double pb0, double pbspan, int *status)
{
    hp_opts *o = L->o;
    clab_sim *s = L->s;
    clab_world *w = s->world;
    hp_counter *k = L->k;
    clab_error err;
    const size_t n = k->n;
    const long nsteps = xp_steps(&o->c, o->c.t_end, s->h), every = (long)fmax(1.0, floor(o->sample_dt / s->h + 0.5));
    if (nsteps < 0) return 1;
    const long k0 = w->step;
    res->outcome = "t_end";
    for (long kstep = k0;; kstep++) {
        const int done_before = L->resumed && kstep == k0; /* its row is written */
        const int drained = k->count == n || (double)k->count >= o->stop_fraction * (double)n;
        const int stalled = w->t - L->t_change >= o->t_stall && (k->count > 0 || w->t >= 2.0 * o->t_stall);
        if (!done_before && (kstep % every == 0 || kstep == nsteps || drained || stalled)) {
            clab_solver_stats st = {0};
            if (s->type->stats) s->type->stats(s->self, &st);
            double row[NCOLS] = {w->t, (double)k->count, k->mass, (double)(n - k->count), clab_world_kinetic_energy(w),
                                 (double)s->contacts.n, (double)st.iterations};
            pack(L->vals, L->x, k, L->wall0 + now_s() - L->t0, L->t_change);
            if (clab_csv_row(L->csv, row, NCOLS, &err) || xp_guard_snapshot(L->g, s, &err)) {
                fprintf(stderr, "contactlab hopper: %s\n", err.msg);
                return 1;
            }
            xp_progress_update(pb, pb0 + pbspan * w->t / o->c.t_end);
        }
        if (drained || stalled) {
            /* a stall before a tenth of the stop fraction left: an arch over the orifice */
            res->outcome = k->count == n                                          ? "drained"
                           : drained                                              ? "stop fraction"
                           : (double)k->count >= 0.1 * o->stop_fraction * (double)n ? "stopped flowing"
                                                                                  : "clogged";
            break;
        }
        if (kstep >= nsteps) break;
        if (kstep > k0 && xp_case_due(&o->c, kstep)) {
            pack(L->vals, L->x, k, L->wall0 + now_s() - L->t0, L->t_change);
            int r = xp_case_poll(&o->c, L->g, s, kstep);
            if (r) {
                if (pb->on) fprintf(stderr, "\n");
                if (r > 0) *status = xp_case_stopped(&o->c, s);
                return r > 0 ? 2 : 1;
            }
        }
        if (clab_sim_step(s, &err)) {
            if (pb->on) fprintf(stderr, "\n");
            xp_case_fail(&o->c, L->g, &err);
            return 1;
        }
        if (hp_counter_step(k, w, w->t)) L->t_change = w->t;
    }
    res->steps = (double)w->step;
    return 0;
}

int hp_discharge_case(hp_opts *o, hp_state *x, const hp_fill *f, const xp_method *m, double Dod, const char *path,
                      clab_options *meta, clab_csv *sum, hp_result *res, xp_progress *pb, double pb0, double pbspan,
                      int *status)
{
    clab_error err;
    hp_info info;
    const double d = f->info.d_mean;
    clab_world *w = hp_build(&o->def, Dod * d, HP_OPEN, f->w, f->info.first, &info, &err);
    if (!w) {
        fprintf(stderr, "contactlab hopper: %s\n", err.msg);
        return 1;
    }
    const size_t n = w->nbodies - info.first;
    const int resuming = o->c.restart[0] && o->c.resume_case == o->c.ncase - 1;
    clab_sim *s = resuming && refreeze(o, w, info.first, n) ? NULL : discharge_sim(o, w, m);
    hp_counter k;
    double *vals = malloc((HP_NX + HP_NRUN + 3 * n) * sizeof *vals);
    if (!s || !vals || hp_counter_init(&k, info.first, n, -2.0 * d, 2.5 * d)) {
        if (s && vals) fprintf(stderr, "contactlab hopper: out of memory\n");
        free(vals);
        clab_sim_destroy(s);
        clab_world_destroy(w);
        return 1;
    }
    clab_sim_meta(s, meta);
    xp_guard g;
    int rc = 1;
    clab_csv *csv = NULL;
    pack(vals, x, &k, 0.0, 0.0);
    const int resumed = xp_case_begin(&o->c, &g, s, sum, 2, vals, HP_NX + HP_NRUN + 3 * n);
    if (resumed >= 0)
        csv = xp_series_open(&o->c, &g, resumed, path, o->c.force || o->c.restart[0] ? CLAB_CSV_OVERWRITE : 0, meta,
                             series_cols, NCOLS);
    if (csv) {
        hp_loop L = {o, s, &k, &g, csv, x, vals, 0.0, now_s(), 0.0, resumed == 1};
        if (resumed == 1) unpack(vals, x, &k, &L.wall0, &L.t_change);
        rc = discharge_steps(&L, res, pb, pb0, pbspan, status);
        res->wall = L.wall0 + now_s() - L.t0;
    }
    rc = xp_case_end(&o->c, &g, csv, rc);
    if (rc == 0) {
        res->t = w->t;
        res->h = s->h;
        res->discharged = k.count;
        res->t_first = k.count ? k.t_cum[0] : NAN;
        res->t_last = k.count ? k.t_cum[k.count - 1] : NAN;
        if (hp_flow_rate(k.t_cum, k.m_cum, k.count, 0.2, 0.8, &res->W, &res->r2)) res->W = NAN;
    }
    free(vals);
    hp_counter_free(&k);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}
