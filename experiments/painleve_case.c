/* painleve_case.c: one run of contactlab painleve: the rod (a thin box of half extents
 * (l, w, w)) turned up by theta about -y with its lower end's bottom edge on the plane z = 0,
 * its end sliding towards -x at v0, under one method; the series of the end and its contact
 * forces, and the detector of a tangential impact (Stewart 2000, Sect. 1.3: "impact without
 * collision"): the end's sliding stops during, or right after, an impulsive normal force.
 *
 * Geometry (the planar picture of clab_analytic.h, y of the plane out of the page): the rod's
 * axis is a = (cos theta, 0, sin theta), the end's edge midpoint is p = (-l, 0, -w) of the body
 * frame; the center sits at height l sin theta + w cos theta, so the edge touches z = 0
 * (Phi = 0). omega = -theta' e_y; the center's velocity v_c = v_P - omega x p makes the end's
 * velocity v_P = (-v0, 0, 0): sliding towards -x, the end leading, no normal velocity.
 *
 * --end corner: the box is first rolled by 45 deg about its own axis (body x), so the end's
 * corner (-l, -w, -w) lies in the plane of the motion at w sqrt 2 below the axis and is the only
 * point on the plane (the end's next corners are w sqrt 2 cos theta higher). The square section's
 * inertia is isotropic about the axis, so J = m (l^2 + w^2)/3 about y is unchanged by the roll and
 * the planar closed form holds with the corner at (-l, -w sqrt 2) (pl_corner). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clab_analytic.h"
#include "painleve.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void pl_corner(const pl_opts *o, double theta, double *px, double *pz)
{
    clab_analytic_painleve_box_corner(o->l, o->corner ? o->w * sqrt(2.0) : o->w, theta, px, pz);
}

clab_vec3 pl_end_point(const pl_opts *o)
{
    return clab_v3(-o->l, o->corner ? -o->w : 0.0, -o->w);
}

static clab_world *pl_world(const pl_opts *o, int p, double E, clab_error *err)
{
    const double th = o->theta[p];
    clab_world *w = clab_world_create(NULL);
    if (!w) return NULL;
    clab_material mat = clab_default_material();
    mat.mu = o->mu[p];
    if (E > 0.0) mat.E = E;
    mat.nu = o->nu;
    mat.cor = o->cor;
    if (clab_world_add_material(w, &mat, err) < 0) goto fail;
    clab_body_def d = clab_default_body_def();
    snprintf(d.name, sizeof d.name, "plane");
    d.shape = clab_plane();
    d.fixed = 1;
    if (clab_world_add_body(w, &d, err) < 0) goto fail;
    double px, pz;
    pl_corner(o, th, &px, &pz);
    d = clab_default_body_def();
    snprintf(d.name, sizeof d.name, "rod");
    d.shape = clab_box(o->l, o->w, o->w);
    d.mass = o->mass;
    d.e = clab_q_axis_angle(clab_v3(0.0, 1.0, 0.0), -th);
    if (o->corner) /* roll 45 deg about the body's x (its own axis) first: (y, z) -> ((y - z), (y + z))/sqrt 2 */
        d.e = clab_q_mul(d.e, clab_q_axis_angle(clab_v3(1.0, 0.0, 0.0), M_PI / 4));
    d.r = clab_v3(0.0, 0.0, -pz);
    /* v_c = v_P - omega x p, omega x p = -theta' (pz, 0, -px) */
    d.rdot = clab_v3(-o->v0 + o->thetadot * pz, 0.0, -o->thetadot * px);
    d.omega = clab_v3(0.0, -o->thetadot, 0.0);
    if (clab_world_add_body(w, &d, err) < 0) goto fail;
    return w;
fail:
    clab_world_destroy(w);
    return NULL;
}

/* 1-2-5 rounding down, for default step sizes */
static double round125(double x)
{
    double dec = pow(10.0, floor(log10(x)));
    return x >= 5 * dec ? 5 * dec : (x >= 2 * dec ? 2 * dec : dec);
}

static const char *const series_cols[] = {"t_s",   "theta_deg", "end_height_m",   "end_vn_m_s", "end_vt_m_s",
                                          "fn_N",  "ft_N",      "fn_step_max_N", "contacts"};
enum { NCOLS = sizeof series_cols / sizeof series_cols[0] };

/* an interval of steps with an impulsive normal force (F_n > big m g) */
typedef struct pl_run {
    double start, end, imp_n, imp_t;
} pl_run;

/* the end's contact forces of the last step, on the rod in world axes: *fn along z, *ft along
 * +x (against the sliding); contacts at the other end (a flat landing) are left out */
static int end_forces(const clab_sim *s, clab_vec3 **f, size_t *cap, double *fn, double *ft, int *n)
{
    const clab_world *w = s->world;
    const clab_body *rod = &w->bodies[1];
    if (xp_forces(s, f, cap)) return -1;
    *fn = *ft = 0.0;
    *n = 0;
    for (size_t i = 0; i < s->contacts.n; i++) {
        const clab_contact *c = &s->contacts.c[i];
        clab_vec3 P = clab_contact_point(&s->contacts, i, w->bodies);
        if (clab_q_rotate_inv(rod->e, clab_v3_sub(P, rod->r)).x > 0.0) continue; /* the upper end */
        clab_vec3 tu, tw;
        clab_contact_frame(c, &tu, &tw);
        const clab_vec3 fc = (*f)[i];
        clab_vec3 F = clab_v3_add(clab_v3_scale(c->n, fc.x), clab_v3_add(clab_v3_scale(tu, fc.y), clab_v3_scale(tw, fc.z)));
        if (c->a == 1) F = clab_v3_neg(F); /* the rod as body a */
        *fn += F.z;
        *ft += F.x;
        (*n)++;
    }
    return 0;
}

static void put_meta(clab_options *meta, const char *k, double v)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", v);
    clab_options_set(meta, k, buf, NULL);
}

/* the case's metadata: the point, its classical problem, the rod, the run */
static void case_meta(const pl_opts *o, const xp_method *m, int p, double E, double t_end, clab_options *meta)
{
    const double th = o->theta[p], mu = o->mu[p], g = 9.81, k2 = (o->l * o->l + o->w * o->w) / 3.0;
    double px, pz, A, B, lam[2], Pt, Pn;
    pl_corner(o, th, &px, &pz);
    clab_analytic_painleve_AB(o->mass, k2, px, pz, mu, g, o->thetadot, &A, &B);
    int ns = clab_analytic_painleve_solutions(A, B, lam);
    clab_analytic_painleve_stick_impulse(o->mass, k2, px, pz, -o->v0, 0.0, &Pt, &Pn);
    clab_options_set(meta, "experiment", "painleve", NULL);
    xp_method_meta(m, meta);
    put_meta(meta, "theta_deg", th * 180.0 / M_PI);
    put_meta(meta, "mu", mu);
    put_meta(meta, "mu_star", clab_analytic_painleve_mu_star(k2, px, pz));
    put_meta(meta, "A_m_s2", A);
    put_meta(meta, "B_1_kg", B);
    clab_options_set(meta, "classical_problem", ns == 0 ? "inconsistent (no solution)" : ns == 2 ? "indeterminate (two solutions)" : "consistent (one solution)", NULL);
    put_meta(meta, "stick_impulse_n_Ns", Pn);
    put_meta(meta, "stick_impulse_t_Ns", Pt);
    put_meta(meta, "v0_m_s", o->v0);
    put_meta(meta, "thetadot_rad_s", o->thetadot);
    char v[96];
    snprintf(v, sizeof v, "%g %g %g", o->l, o->w, o->w);
    clab_options_set(meta, "rod_half_extents_m", v, NULL);
    put_meta(meta, "m_kg", o->mass);
    clab_options_set(meta, "rod_end", o->corner ? "corner: rolled 45 deg about its axis, one corner on the plane at w sqrt 2 below the axis" : "edge: the end's bottom edge on the plane (two box corners)", NULL);
    if (E > 0.0) put_meta(meta, "E_Pa", E);
    put_meta(meta, "g_m_s2", g);
    put_meta(meta, "t_end_s", t_end);
    put_meta(meta, "sample_dt_s", o->sample_dt);
    clab_options_set(meta, "a_n", "a_n = A + B lambda_n, A = -g - pz theta'^2, B = 1/m + (px^2 - mu px pz)/J; rod: m B = 1 + 3 cos^2 - 3 mu sin cos (Stewart 2000, Sect. 1.3)", NULL);
    clab_options_set(meta, "end_height_m", o->corner ? "height of the sliding end's lowest corner (body point (-l, -w, -w)) above the plane; negative: penetration" : "height of the sliding end's bottom edge (body point (-l, 0, -w)) above the plane; negative: penetration", NULL);
    clab_options_set(meta, "end_vt_m_s", "the end's velocity along x; it slides towards -x (negative while sliding)", NULL);
    clab_options_set(meta, "fn_N", "normal contact force on the rod's sliding end, mean over the output interval (rigid methods: impulse per step / h)", NULL);
    clab_options_set(meta, "ft_N", "tangential contact force on the sliding end along +x (against the sliding), mean over the interval", NULL);
    clab_options_set(meta, "fn_step_max_N", "largest normal force of a step in the interval; rows come every step while it exceeds big m g", NULL);
}

/* the state of a run between steps */
typedef struct pl_state {
    pl_run cur, ev;    /* the impulsive interval going on; the one that stopped the sliding */
    int in_run, ev_set, ev_open; /* ev_open: the stopping interval still goes on */
    pl_run last;       /* the last finished interval */
    int have_last;
} pl_state;

/* one step's force fn (impulse fn h, tangential ft h) over (t - h, t]: the impulsive intervals */
static void track_events(pl_state *st, double t, double h, double fn, double ft, double big)
{
    if (fn > big) {
        if (!st->in_run) st->cur = (pl_run){t - h, t, 0.0, 0.0};
        st->in_run = 1;
        st->cur.end = t;
        st->cur.imp_n += fn * h;
        st->cur.imp_t += ft * h;
        if (st->ev_open) st->ev = st->cur;
    } else if (st->in_run) {
        st->in_run = 0;
        st->last = st->cur;
        st->have_last = 1;
        st->ev_open = 0;
    }
}

int pl_case(const pl_opts *o, const xp_method *m, int p, double E, double t_end, char *file, size_t filelen,
            pl_result *res, xp_progress *pb, double pb0, double pbspan)
{
    clab_error err;
    clab_world *w = pl_world(o, p, E, &err);
    if (!w) {
        fprintf(stderr, "contactlab painleve: %s\n", err.msg);
        return 1;
    }
    double h = xp_method_h(m, o->hpen, o->hdvi);
    clab_sim *s = xp_sim(&o->c, w, m, h > 0.0 ? h : 1e-5, NULL);
    if (!s) {
        clab_world_destroy(w);
        return 1;
    }
    if (h <= 0.0) { /* force laws: a tenth of the backend's stable step, 1-2-5 rounded */
        double hs = s->type->stable_step ? s->type->stable_step(s->self, w) : 0.0;
        h = round125(hs > 0.0 ? 0.1 * hs : 1e-5);
        s->h = h;
    }
    char pt[64], es[32] = "";
    snprintf(pt, sizeof pt, "theta_%g-mu_%g", o->theta[p] * 180.0 / M_PI, o->mu[p]);
    if (E > 0.0) snprintf(es, sizeof es, "-E_%g", E);
    snprintf(file, filelen, "painleve-%s-%s%s.csv", pt, m->name, es);
    char path[2048];
    xp_path(&o->c, file, path, sizeof path);
    clab_options meta;
    clab_options_init(&meta);
    case_meta(o, m, p, E, t_end, &meta);
    clab_sim_meta(s, &meta);
    int rc = 1;
    clab_vec3 *f = NULL;
    size_t fcap = 0;
    clab_csv *csv = clab_csv_open(path, o->c.force ? CLAB_CSV_OVERWRITE : 0, &err);
    if (!csv || clab_csv_meta(csv, &meta, o->c.argc, o->c.argv, &err) ||
        clab_csv_header(csv, series_cols, NCOLS, &err)) {
        fprintf(stderr, "contactlab painleve: %s\n", err.msg);
        goto done;
    }
    long nsteps = xp_steps(&o->c, t_end, h);
    if (nsteps < 0) goto done;
    const double big = o->big * o->mass * -w->gravity.z, vstop = 0.01 * o->v0;
    const clab_vec3 pend = pl_end_point(o);
    const clab_body *rod = &w->bodies[1];
    memset(res, 0, sizeof *res);
    res->h = h;
    res->t_stop = res->t_event = res->event_dt = res->imp_n = res->imp_t = NAN;
    res->max_height = -INFINITY;
    res->min_height = INFINITY;
    pl_state st = {0};
    double imp_n = 0.0, imp_t = 0.0, t_row = 0.0, fn_max = 0.0, next_row = 0.0;
    int nc = 0, prev_big = 0;
    const double t0 = now_s();
    for (long k = 0;; k++) {
        double fn = 0.0, ft = 0.0;
        if (k > 0) {
            if (end_forces(s, &f, &fcap, &fn, &ft, &nc)) {
                fprintf(stderr, "contactlab painleve: out of memory\n");
                goto done;
            }
            imp_n += fn * h;
            imp_t += ft * h;
            fn_max = fmax(fn_max, fn);
            if (fn > res->fn_peak) res->fn_peak = fn, res->t_peak = w->t;
            track_events(&st, w->t, h, fn, ft, big);
        }
        const clab_vec3 P = clab_body_point(rod, pend), vP = clab_body_point_velocity(rod, pend);
        res->max_height = fmax(res->max_height, P.z);
        res->min_height = fmin(res->min_height, P.z);
        if (k > 0 && isnan(res->t_stop) && -vP.x <= vstop) { /* the sliding stops */
            res->t_stop = w->t;
            if (st.in_run) st.ev = st.cur, st.ev_set = st.ev_open = 1;
            else if (st.have_last && w->t - st.last.end <= fmax(10.0 * h + 1e-3, st.last.end - st.last.start))
                st.ev = st.last, st.ev_set = 1; /* right after it: within its own length */
        }
        /* a row every sample_dt, and every step while (or right after) the force is impulsive */
        int is_big = fn > big;
        if (k == 0 || k == nsteps || w->t >= next_row - 1e-12 || is_big || prev_big) {
            const clab_vec3 ax = clab_q_rotate(rod->e, clab_v3(1.0, 0.0, 0.0));
            double span = w->t - t_row;
            double row[NCOLS] = {w->t, atan2(ax.z, ax.x) * 180.0 / M_PI, P.z, vP.z, vP.x,
                                 span > 0.0 ? imp_n / span : 0.0, span > 0.0 ? imp_t / span : 0.0, fn_max, nc};
            if (clab_csv_row(csv, row, NCOLS, &err)) {
                fprintf(stderr, "contactlab painleve: %s\n", err.msg);
                goto done;
            }
            imp_n = imp_t = fn_max = 0.0;
            t_row = w->t;
            while (next_row <= w->t + 1e-12) next_row += o->sample_dt;
        }
        prev_big = is_big;
        if (k == nsteps) break;
        if ((k & 1023) == 0) xp_progress_update(pb, pb0 + pbspan * (double)k / (double)nsteps);
        if (clab_sim_step(s, &err)) {
            fprintf(stderr, "contactlab painleve: %s at t = %g s: %s\n", file, w->t, err.msg);
            goto done;
        }
    }
    res->vt_final = clab_body_point_velocity(rod, pend).x;
    res->steps = (double)nsteps;
    res->wall = now_s() - t0;
    if (st.ev_set) {
        res->t_event = st.ev.start;
        res->event_dt = st.ev.end - st.ev.start;
        res->imp_n = st.ev.imp_n;
        res->imp_t = st.ev.imp_t;
    }
    int lifts = res->max_height > o->lift_tol;
    res->outcome = !isnan(res->t_stop) ? (st.ev_set ? (lifts ? "tangential impact, lifts off" : "tangential impact")
                                                    : (lifts ? "stops, lifts off" : "stops"))
                                       : (lifts ? "lifts off" : "slides");
    rc = 0;
done:
    if (csv && clab_csv_close(csv, &err) && rc == 0) {
        fprintf(stderr, "contactlab painleve: %s\n", err.msg);
        rc = 1;
    }
    free(f);
    clab_options_free(&meta);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}
