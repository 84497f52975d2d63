/* incline.c: a box on an inclined plane, swept through the stick/slip threshold tan theta = mu.
 *
 * Analytic reference (rigid box, Coulomb friction, no tipping since tan theta < h_x/h_z):
 * along the slope, gravity pulls with m g sin theta and friction holds with at most
 * mu m g cos theta, so the box stays put while tan theta <= mu and otherwise slides down with
 *
 *     a = g (sin theta - mu cos theta),    s(t) = a t^2 / 2,
 *
 * with normal force m g cos theta and friction min(m g sin theta, mu m g cos theta).
 *
 * The plane is the half-space of a fixed body turned about y by theta: outward normal
 * n = A(e) (0, 0, 1) = (sin theta, 0, cos theta), downhill direction d = (cos theta, 0,
 * -sin theta). The box (same orientation) first rests on it under the normal part of gravity
 * alone, -g cos theta n, so that a penalty contact reaches its static overlap without any
 * load along the slope; at t = 0 full gravity is switched on and the box is released.
 *
 * Under DVI the CCP relaxation (seed 000, Eq. (5d)) lets a sliding box leave every step with
 * normal speed mu v_T, so it hovers at a gap mu h v_T (column gap_m) while its acceleration
 * along the slope stays the Coulomb one.
 *
 * A penalty box's friction is a tangential spring (force_law.h): at the release it slips at
 * nearly g sin theta for the ~ms its springs need to load up to mu F_n, so a sliding box
 * keeps a small constant velocity lead over a t (1-2 mm/s with the defaults) and a box at
 * exactly tan theta = mu creeps a few mm before it holds. The fitted acceleration is not
 * affected. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clab_analytic.h"
#include "clab_csv.h"
#include "xp.h"

#define INC_HX 0.1  /* box half extent along the slope [m] */
#define INC_HY 0.1  /* box half extent across the slope [m] */
#define INC_HZ 0.05 /* box half height [m] */
#define MAXR 64

typedef struct inc_opts {
    xp_common c;
    double mu;           /* friction coefficient of box and plane */
    double ratio[MAXR];  /* the cases: tan theta / mu */
    int nratio;
    double hpen;         /* penalty step [s]; 0 = a tenth of the stable step, 1-2-5 rounded */
    double hdvi;         /* DVI step [s] */
    double mass;         /* box mass [kg] */
    double E, nu, cor;   /* penalty material of box and plane */
    double sample_dt;    /* output interval [s] */
    double settle;       /* rest under the normal part of gravity before the release [s] */
    double fit_from;     /* the acceleration is fitted to v(t) on [fit_from, t_end] [s] */
} inc_opts;

/* one row of incline-summary.csv */
typedef struct inc_result {
    double s_final, v_final, accel, fn_mean, ft_mean, max_gap, min_gap, steps, wall;
} inc_result;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* the scene: the plane through the origin turned by theta about y, the box resting on it
 * (Phi = 0) with its center 0.05 m above the origin along n */
static clab_world *inc_world(const inc_opts *o, double theta, clab_error *err)
{
    clab_world *w = clab_world_create(NULL);
    if (!w) return NULL;
    clab_material m = clab_default_material();
    m.mu = o->mu;
    m.E = o->E;
    m.nu = o->nu;
    m.cor = o->cor;
    if (clab_world_add_material(w, &m, err) < 0) goto fail;
    clab_quat e = clab_q_axis_angle(clab_v3(0.0, 1.0, 0.0), theta);
    clab_body_def d = clab_default_body_def();
    snprintf(d.name, sizeof d.name, "incline");
    d.shape = clab_plane();
    d.e = e;
    d.fixed = 1;
    if (clab_world_add_body(w, &d, err) < 0) goto fail;
    d = clab_default_body_def();
    snprintf(d.name, sizeof d.name, "box");
    d.shape = clab_box(INC_HX, INC_HY, INC_HZ);
    d.mass = o->mass;
    d.e = e;
    d.r = clab_v3_scale(clab_v3(sin(theta), 0.0, cos(theta)), INC_HZ);
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

static const char *const series_cols[] = {"t_s",   "s_m",  "v_m_s", "s_analytic_m", "v_analytic_m_s",
                                          "fn_N",  "ft_N", "gap_m", "contacts",     "iterations"};
enum { NCOLS = sizeof series_cols / sizeof series_cols[0] };

/* the running quantities of a case, as the checkpoint keeps them: the result so far, the
 * impulses and time of the last row, the fit's sums, the fit window's impulses, the release
 * position r0 and the time spent [s] */
enum { INC_NRES = sizeof(inc_result) / sizeof(double), INC_NVAL = INC_NRES + 15 };
_Static_assert(sizeof(inc_result) == INC_NRES * sizeof(double), "inc_result holds only doubles");

/* a case while it runs: what xp_case_run's inc_at and inc_pack keep */
typedef struct inc_run {
    const inc_opts *o;
    clab_sim *s;
    inc_result *res;
    clab_vec3 n, d, r0; /* the plane's normal, downhill, the box's center at the release */
    double h, a_an;
    long nsteps, every;
    struct {
        double imp_n, imp_t, t_row;                    /* impulses since the last row [N s], its time */
        double fit_n, fit_t, fit_v, fit_tt, fit_tv;    /* least squares of v(t) */
        double win_n, win_t, win_span;                 /* impulses in the fit window */
    } v;                                               /* running values, as the checkpoint keeps them */
    double t0, wall0;   /* wall clock at the start, time spent before a restart [s] */
    clab_vec3 *f;       /* the forces of the last step (xp_forces) */
    size_t fcap;
    double *vals;       /* [INC_NVAL] the checkpoint's running values */
} inc_run;
_Static_assert(INC_NRES + sizeof(((inc_run *)0)->v) / sizeof(double) == INC_NVAL - 4, "inc_run.v: 11 doubles");

static void inc_pack(void *ctx)
{
    inc_run *r = ctx;
    memcpy(r->vals, r->res, sizeof *r->res);
    memcpy(r->vals + INC_NRES, &r->v, sizeof r->v);
    r->vals[INC_NRES + 11] = r->r0.x, r->vals[INC_NRES + 12] = r->r0.y, r->vals[INC_NRES + 13] = r->r0.z;
    r->vals[INC_NRES + 14] = r->wall0 + now_s() - r->t0;
}

/* step k of a case: the forces on the box, the fit's sums, the row when due */
static int inc_at(void *ctx, long k, int done_before, double *row)
{
    inc_run *r = ctx;
    clab_sim *s = r->s;
    const clab_world *w = s->world;
    const clab_body *box = &w->bodies[1];
    inc_result *res = r->res;
    const double h = r->h;
    const clab_vec3 n = r->n, d = r->d;
    /* contact forces on the box from the last step (box = body b, n from plane to box),
     * accumulated as impulses until the next row: rows hold interval means */
    if (k > 0 && !done_before) {
        double fn = 0.0, ft = 0.0;
        if (xp_forces(s, &r->f, &r->fcap)) {
            fprintf(stderr, "contactlab incline: out of memory\n");
            return -1;
        }
        for (size_t i = 0; i < s->contacts.n; i++) {
            const clab_contact *c = &s->contacts.c[i];
            const clab_vec3 *f = &r->f[i];
            clab_vec3 tu, tw;
            clab_contact_frame(c, &tu, &tw);
            clab_vec3 F = clab_v3_add(clab_v3_scale(c->n, f->x),
                                      clab_v3_add(clab_v3_scale(tu, f->y), clab_v3_scale(tw, f->z)));
            if (c->a == 1) F = clab_v3_neg(F); /* the box as body a */
            fn += clab_v3_dot(F, n);
            ft -= clab_v3_dot(F, d);
        }
        r->v.imp_n += fn * h;
        r->v.imp_t += ft * h;
        if (w->t >= r->o->fit_from - 1e-12) {
            r->v.win_n += fn * h;
            r->v.win_t += ft * h;
            r->v.win_span += h;
        }
    }
    clab_vec3 dr = clab_v3_sub(box->r, r->r0);
    double sd = clab_v3_dot(dr, d), vd = clab_v3_dot(box->rdot, d);
    double gap = clab_v3_dot(box->r, n) - INC_HZ;
    if (k > 0 && !done_before) {
        res->max_gap = fmax(res->max_gap, gap);
        res->min_gap = fmin(res->min_gap, gap);
    }
    if (w->t >= r->o->fit_from - 1e-12 && !done_before) {
        r->v.fit_n += 1.0;
        r->v.fit_t += w->t;
        r->v.fit_v += vd;
        r->v.fit_tt += w->t * w->t;
        r->v.fit_tv += w->t * vd;
    }
    if (done_before || !(k % r->every == 0 || k == r->nsteps)) return 0;
    clab_solver_stats st = {0};
    if (s->type->stats) s->type->stats(s->self, &st);
    double span = w->t - r->v.t_row;
    double v[NCOLS] = {w->t,
                       sd,
                       vd,
                       0.5 * r->a_an * w->t * w->t,
                       r->a_an * w->t,
                       span > 0.0 ? r->v.imp_n / span : 0.0,
                       span > 0.0 ? r->v.imp_t / span : 0.0,
                       gap,
                       (double)s->contacts.n,
                       (double)st.iterations};
    memcpy(row, v, sizeof v);
    r->v.imp_n = r->v.imp_t = 0.0;
    r->v.t_row = w->t;
    return 1;
}

/* Run one (method, theta) case, write its series, fill its summary row; *hused is the step.
 * Returns 0, 1 on failure, 2 when stopped (signal, --stop-after; *status: exit status). */
static int inc_case(inc_opts *o, const xp_method *im, double ratio, double h, double t_end, inc_result *res,
                    double *hused, char *file, size_t filelen, xp_progress *pb, double pb0, double pbspan,
                    clab_csv *sum, int *status)
{
    const double mu = o->mu, theta = atan(ratio * mu);
    clab_error err;
    clab_world *w = inc_world(o, theta, &err);
    if (!w) {
        fprintf(stderr, "contactlab incline: %s\n", err.msg);
        return 1;
    }
    const char *method = im->name;
    clab_sim *s = xp_sim(&o->c, w, im, h > 0.0 ? h : 1e-5, NULL);
    if (!s) {
        clab_world_destroy(w);
        return 1;
    }
    if (h <= 0.0) { /* force laws' default: a tenth of the backend's stable step, 1-2-5 rounded */
        double hs = s->type->stable_step ? s->type->stable_step(s->self, w) : 0.0;
        h = round125(hs > 0.0 ? 0.1 * hs : 1e-5);
        s->h = h;
    }
    *hused = h;
    snprintf(file, filelen, "incline-tan_mu_%g-%s-h_%g.csv", ratio, method, h);
    char path[2048];
    xp_path(&o->c, file, path, sizeof path);

    const double g = -w->gravity.z;
    const clab_vec3 n = clab_v3(sin(theta), 0.0, cos(theta)), d = clab_v3(cos(theta), 0.0, -sin(theta));
    const double a_an = clab_analytic_incline_accel(g, theta, mu);

    /* metadata: the experiment's parameters, then the simulation's (backend and model) */
    clab_options meta;
    clab_options_init(&meta);
    char v[64];
    clab_options_set(&meta, "experiment", "incline", NULL);
    xp_method_meta(im, &meta);
#define META(k, val) (snprintf(v, sizeof v, "%.17g", (double)(val)), clab_options_set(&meta, k, v, NULL))
    META("mu", mu);
    META("tan_theta_over_mu", ratio);
    META("theta_deg", theta * 180.0 / M_PI);
    META("m_kg", o->mass);
    snprintf(v, sizeof v, "%g %g %g", INC_HX, INC_HY, INC_HZ);
    clab_options_set(&meta, "box_half_extents_m", v, NULL);
    META("g_m_s2", g);
    META("t_end_s", t_end);
    META("settle_s", o->settle);
    META("sample_dt_s", o->sample_dt);
    META("fit_from_s", o->fit_from);
    META("accel_analytic_m_s2", a_an);
    clab_options_set(&meta, "s_m", "displacement of the box center down the slope since the release at t = 0", NULL);
    clab_options_set(&meta, "v_m_s", "velocity of the box center down the slope", NULL);
    clab_options_set(&meta, "fn_N", "total normal contact force on the box, mean over the output interval", NULL);
    clab_options_set(&meta, "ft_N", "total friction force on the box along the slope, up-slope positive, mean over the output interval", NULL);
    clab_options_set(&meta, "gap_m", "distance of the box's bottom face above the plane (negative: penetration)", NULL);
    clab_options_set(&meta, "analytic", "a = g (sin theta - mu cos theta) if tan theta > mu else 0; s = a t^2/2", NULL);
    clab_sim_meta(s, &meta);
#undef META
    clab_csv *csv = NULL;
    int rc = 1;
    clab_vec3 *f = NULL;
    double vals[INC_NVAL] = {0};
    xp_guard guard;
    int resumed = xp_case_begin(&o->c, &guard, s, sum, 2, vals, INC_NVAL);
    if (resumed < 0) goto done;
    csv = xp_series_open(&o->c, &guard, resumed, path, o->c.force || o->c.restart[0] ? CLAB_CSV_OVERWRITE : 0, &meta, series_cols, NCOLS);
    if (!csv) goto done;

    /* settle under the normal part of gravity, then release: full gravity, t = 0 (a restart
     * continues after the release: the state and r0 come from the checkpoint) */
    clab_vec3 gfull = w->gravity;
    w->gravity = clab_v3_scale(n, clab_v3_dot(gfull, n));
    long nsettle = resumed ? 0 : xp_steps(&o->c, o->settle, h), steps = xp_steps(&o->c, t_end, h);
    if (nsettle < 0 || steps < 0) goto done;
    for (long k = 0; k < nsettle; k++)
        if (clab_sim_step(s, &err)) {
            fprintf(stderr, "contactlab incline: settling %s: %s\n", file, err.msg);
            goto done;
        }
    clab_body *box = &w->bodies[1];
    w->gravity = gfull;
    if (!resumed) {
        w->t = 0.0;
        w->step = 0;
    }
    const clab_vec3 r0 = resumed ? clab_v3(vals[INC_NRES + 11], vals[INC_NRES + 12], vals[INC_NRES + 13]) : box->r;

    inc_run r = {o, s, res, n, d, r0, h, a_an, steps,
                 (long)fmax(1.0, floor(o->sample_dt / h + 0.5)), {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, now_s(), 0.0,
                 NULL, 0, vals};
    memset(res, 0, sizeof *res);
    res->max_gap = -INFINITY;
    res->min_gap = INFINITY;
    if (resumed) { /* the running quantities at the checkpoint */
        memcpy(res, vals, sizeof *res);
        memcpy(&r.v, vals + INC_NRES, sizeof r.v);
        r.wall0 = vals[INC_NRES + 14];
    }
    double row[NCOLS];
    const xp_case_loop loop = {&o->c, &guard, s, csv, row, NCOLS, r.nsteps, resumed, pb, pb0, pbspan, inc_at,
                               inc_pack, &r};
    rc = xp_case_run(&loop, status);
    f = r.f;
    if (rc) goto done;
    const double fit_n = r.v.fit_n, fit_t = r.v.fit_t, fit_v = r.v.fit_v, fit_tt = r.v.fit_tt, fit_tv = r.v.fit_tv;
    const double win_n = r.v.win_n, win_t = r.v.win_t, win_span = r.v.win_span;
    const long nsteps = r.nsteps;
    const double t0 = r.t0, wall0 = r.wall0;
    res->s_final = clab_v3_dot(clab_v3_sub(box->r, r0), d);
    res->v_final = clab_v3_dot(box->rdot, d);
    double den = fit_n * fit_tt - fit_t * fit_t;
    res->accel = fit_n >= 2.0 && den > 0.0 ? (fit_n * fit_tv - fit_t * fit_v) / den : NAN;
    res->fn_mean = win_span > 0.0 ? win_n / win_span : NAN;
    res->ft_mean = win_span > 0.0 ? win_t / win_span : NAN;
    res->steps = (double)nsteps;
    res->wall = wall0 + now_s() - t0;
    rc = 0;
done:
    rc = xp_case_end(&o->c, &guard, csv, rc);
    free(f);
    clab_options_free(&meta);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

static void inc_help(const xp_common *c)
{
    printf("usage: contactlab incline [options]\n\n"
           "A box (0.2 x 0.2 x 0.1 m, 1 kg) on a plane inclined by theta, swept through the stick/slip\n"
           "threshold tan theta = mu. It stays put while tan theta <= mu and otherwise slides with\n"
           "a = g (sin theta - mu cos theta). The box first rests for --settle seconds under the normal\n"
           "part of gravity, then is released at t = 0. The acceleration is the least-squares slope of\n"
           "v(t) on [--fit-from, t_end]. Writes one CSV per (tan theta/mu, method), incline-summary.csv\n"
           "and figures.\n\n"
           "Experiment options:\n"
           "  --mu X           friction coefficient (default 0.3)\n"
           "  --ratios LIST    the cases as tan(theta)/mu (default: 16 values 0.5, 0.6, ..., 2.0)\n"
           "  --h-penalty S    step [s] of the force-law methods (default: a tenth of the stable step,\n"
           "                   1-2-5 rounded)\n"
           "  --h-dvi S        step [s] of the rigid-contact (CCP) methods (default 1e-3)\n"
           "  --mass KG        box mass [kg] (default 1)\n"
           "  --E PA           Young's modulus of box and plane, penalty law [Pa] (default 1e8)\n"
           "  --nu X           Poisson ratio (default 0.3)\n"
           "  --cor X          restitution coefficient (default 0.3)\n"
           "  --sample-dt S    output interval [s] (default 0.01)\n"
           "  --settle S       rest under the normal part of gravity before the release [s] (default 0.1)\n"
           "  --fit-from S     start of the acceleration fit window [s] (default 0.2, at most t_end/2)\n"
           "  --t-end S        simulated time after the release [s] (default 1)\n\n"
           "--h sets the step of every method at once.\n\n");
    xp_common_help(c);
}

int xp_incline(int argc, char **argv)
{
    static const struct option longopts[] = {XP_COMMON_LONGOPTS,
                                             {"mu", required_argument, 0, 1000},
                                             {"ratios", required_argument, 0, 1001},
                                             {"h-penalty", required_argument, 0, 1002},
                                             {"h-dvi", required_argument, 0, 1003},
                                             {"mass", required_argument, 0, 1004},
                                             {"E", required_argument, 0, 1005},
                                             {"nu", required_argument, 0, 1006},
                                             {"cor", required_argument, 0, 1007},
                                             {"sample-dt", required_argument, 0, 1008},
                                             {"settle", required_argument, 0, 1009},
                                             {"fit-from", required_argument, 0, 1010},
                                             {0, 0, 0, 0}};
    inc_opts o;
    memset(&o, 0, sizeof o);
    xp_common_init(&o.c, "incline", argc, argv);
    o.mu = 0.3;
    o.nratio = 16;
    for (int i = 0; i < o.nratio; i++) o.ratio[i] = 0.5 + 0.1 * i;
    o.hdvi = 1e-3;
    o.mass = 1.0;
    o.E = 1e8;
    o.nu = 0.3;
    o.cor = 0.3;
    o.sample_dt = 0.01;
    o.settle = 0.1;
    o.fit_from = 0.2;
    int rc = 2, opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        /* every problem of the command line is reported (xp_option_errors below) */
        int r = xp_common_option(&o.c, opt, optarg);
        if (r != 0) continue;
        int bad = 0;
        switch (opt) {
        case '?' + 256: inc_help(&o.c); rc = 0; goto out;
        case 1000: bad = xp_parse_double("mu", optarg, 1e-6, 10, &o.mu); break;
        case 1001: bad = xp_parse_list("ratios", optarg, 0.0, 1e3, o.ratio, MAXR, &o.nratio); break;
        case 1002: bad = xp_parse_double("h-penalty", optarg, 1e-12, 0.1, &o.hpen); break;
        case 1003: bad = xp_parse_double("h-dvi", optarg, 1e-9, 0.1, &o.hdvi); break;
        case 1004: bad = xp_parse_double("mass", optarg, 1e-9, 1e9, &o.mass); break;
        case 1005: bad = xp_parse_double("E", optarg, 1.0, 1e15, &o.E); break;
        case 1006: bad = xp_parse_double("nu", optarg, -0.999, 0.499, &o.nu); break;
        case 1007: bad = xp_parse_double("cor", optarg, 1e-6, 1.0, &o.cor); break;
        case 1008: bad = xp_parse_double("sample-dt", optarg, 1e-9, 10, &o.sample_dt); break;
        case 1009: bad = xp_parse_double("settle", optarg, 0.0, 100.0, &o.settle); break;
        case 1010: bad = xp_parse_double("fit-from", optarg, 0.0, 1e9, &o.fit_from); break;
        default: xp_option_unknown(); break;
        }
        (void)bad; /* reported and counted: go on with the next option */
    }
    for (int i = optind; i < argc; i++) xp_option_error("contactlab incline: unexpected argument '%s'\n", argv[i]);
    if (xp_option_errors("contactlab incline")) goto out;
    for (int i = 0; i < o.nratio; i++)
        if (atan(o.ratio[i] * o.mu) > atan(INC_HX / INC_HZ) - 1e-3) {
            fprintf(stderr, "contactlab incline: tan theta = %g would tip the box (tan theta < %g needed)\n",
                    o.ratio[i] * o.mu, INC_HX / INC_HZ);
            goto out;
        }
    if (o.c.h > 0.0) o.hpen = o.hdvi = o.c.h;
    double t_end = o.c.t_end > 0.0 ? o.c.t_end : 1.0;
    if (o.fit_from > 0.5 * t_end) o.fit_from = 0.5 * t_end;
    if (xp_out_prepare(&o.c)) {
        rc = 1;
        goto out;
    }

    /* summary: one row per (method, theta) */
    char spath[2048];
    xp_path(&o.c, "incline-summary.csv", spath, sizeof spath);
    static const char *const scols[] = {"method",
                                        "mu",
                                        "theta_deg",
                                        "tan_theta",
                                        "tan_theta_over_mu",
                                        "h_s",
                                        "final_displacement_m",
                                        "final_displacement_analytic_m",
                                        "accel_m_s2",
                                        "accel_analytic_m_s2",
                                        "accel_err_m_s2",
                                        "accel_rel_err",
                                        "fn_mean_N",
                                        "fn_analytic_N",
                                        "ft_mean_N",
                                        "ft_analytic_N",
                                        "min_gap_m",
                                        "max_gap_m",
                                        "gap_relaxation_m",
                                        "steps",
                                        "wall_s",
                                        "series_file"};
    enum { NS = sizeof scols / sizeof scols[0] };
    clab_options meta;
    clab_options_init(&meta);
    char sv[64];
    clab_options_set(&meta, "experiment", "incline", NULL);
    snprintf(sv, sizeof sv, "%.17g", o.mu);
    clab_options_set(&meta, "mu", sv, NULL);
    clab_options_set(&meta, "g_m_s2", "9.81", NULL);
    snprintf(sv, sizeof sv, "%.17g", t_end);
    clab_options_set(&meta, "t_end_s", sv, NULL);
    snprintf(sv, sizeof sv, "%.17g", o.fit_from);
    clab_options_set(&meta, "fit_from_s", sv, NULL);
    clab_options_set(&meta, "accel_m_s2", "least-squares slope of the velocity down the slope on [fit_from, t_end]", NULL);
    clab_options_set(&meta, "accel_rel_err", "(accel - analytic)/analytic; empty (nan) where the box should stick", NULL);
    clab_options_set(&meta, "fn_mean_N", "mean normal force on [fit_from, t_end]; analytic m g cos theta", NULL);
    clab_options_set(&meta, "ft_mean_N", "mean friction force up the slope on [fit_from, t_end]; analytic min(m g sin theta, mu m g cos theta)", NULL);
    clab_options_set(&meta, "gap_m", "box bottom above the plane; rigid contacts (Tasora-Anitescu CCP, relaxed Coulomb, Eq. (5d)) hover at mu h v_T while sliding", NULL);
    clab_options_set(&meta, "gap_relaxation_m", "rigid contacts: mu h v_T at t_end, the hover gap the relaxed Coulomb cone predicts", NULL);
    /* a restart continues the summary: the rows of the cases finished before stay */
    clab_csv *sum = xp_summary_begin(&o.c, spath, &meta, scols, NS);
    if (!sum) {
        rc = 1;
        goto out;
    }

    printf("%-8s %7s %7s %8s %11s %11s %10s %10s %10s\n", "method", "tan/mu", "theta", "h_s", "accel", "analytic",
           "rel_err", "s_final", "s_analytic");
    rc = 0;
    const double g = 9.81;
    for (int mi = 0; mi < o.c.nmethod && rc == 0; mi++) {
        const xp_method *im = o.c.method[mi];
        const char *method = im->name;
        xp_progress pb;
        char label[128];
        snprintf(label, sizeof label, "incline %s, %d angles", method, o.nratio);
        xp_progress_begin(&pb, &o.c, label);
        for (int i = 0; i < o.nratio && rc == 0; i++) {
            double ratio = o.ratio[i], theta = atan(ratio * o.mu);
            double h = xp_method_h(im, o.hpen, o.hdvi), hused = h;
            inc_result r;
            char file[512], clabel[64];
            snprintf(clabel, sizeof clabel, "%s tan/mu=%g", method, ratio);
            if (xp_case_skip(&o.c, clabel)) continue; /* finished before the checkpoint */
            int st = inc_case(&o, im, ratio, h, t_end, &r, &hused, file, sizeof file, &pb, (double)i / o.nratio,
                              1.0 / o.nratio, sum, &rc);
            if (st == 2) break; /* stopped: rc is the exit status */
            if (st) {
                rc = 1;
                break;
            }
            double a_an = clab_analytic_incline_accel(g, theta, o.mu);
            double s_an = 0.5 * a_an * t_end * t_end;
            double rel = a_an > 0.0 ? (r.accel - a_an) / a_an : NAN;
            /* rigid contacts: a sliding box hovers at mu h v_T (relaxed Coulomb cone, Eq. (5d)),
             * largest at the end */
            double gap_rel = im->kind == XP_KIND_CCP ? o.mu * hused * r.v_final : NAN;
            double fn_an = o.mass * g * cos(theta), ft_an = fmin(o.mass * g * sin(theta), o.mu * fn_an);
            enum { NV = NS - 2 };
            double vals[NV] = {o.mu,      theta * 180.0 / M_PI, tan(theta), ratio,     hused,     r.s_final, s_an,
                               r.accel,   a_an,                 r.accel - a_an, rel,   r.fn_mean, fn_an,     r.ft_mean,
                               ft_an,     r.min_gap,            r.max_gap, gap_rel,   r.steps,   r.wall};
            const char *tail[] = {file};
            if (xp_summary_row(&o.c, sum, &method, 1, vals, NV, tail, 1)) {
                rc = 1;
                break;
            }
            if (pb.on) fprintf(stderr, "\r%*s\r", 80, "");
            printf("%-8s %7.3g %7.3f %8.1e %11.5f %11.5f %10.2e %10.5f %10.5f\n", method, ratio,
                   theta * 180.0 / M_PI, hused, r.accel, a_an, rel, r.s_final, s_an);
            fflush(stdout);
        }
        if (rc == 0) xp_progress_end(&pb);
    }
    rc = xp_finish(&o.c, rc, sum, spath, "incline-*.csv", "incline.gp", "incline-acceleration.png, incline-displacement.png");
out:
    xp_common_free(&o.c);
    return rc;
}
