/* bowling.c: the headline experiment. A bowling ball (R = 0.1085 m, m = 7 kg, solid) is
 * launched sliding without spin at v0 on a plane with friction mu.
 *
 * Analytic reference (rigid ball, Coulomb friction, ball stays on the plane): friction
 * mu m g decelerates the center, vx = v0 - mu g t, and spins the ball up,
 * omega = (5/2) mu g t / R, so the slip speed vx - R omega = v0 - (7/2) mu g t vanishes at
 * t* = 2 v0 / (7 mu g), after which the ball rolls at 5 v0 / 7.
 *
 * The CCP relaxation of seed 000 (Eq. (5d)) replaces the gap condition Phi/h + v_n >= 0 by
 * Phi/h + v_n - mu v_T >= 0: a ball sliding at v_T leaves every contact step with
 * separating normal velocity mu v_T (the "numerical gap" mu h v_T per step, end of
 * Sect. 2), so it hops while it slips. The penalty method has no such term, and neither has
 * the DVI backend with exact Coulomb friction (method dvi-exact: friction=exact, De Saxce's
 * fixed point, dvi/friction_exact.h), which keeps the ball on the plane. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clab_analytic.h"
#include "clab_csv.h"
#include "xp.h"

#define BOWL_R 0.1085 /* ball radius [m] */
#define BOWL_M 7.0    /* ball mass [kg] */
#define MAXC 8

typedef struct bowl_opts {
    xp_common c;
    double v0[MAXC];    int nv0;   /* launch speeds [m/s] */
    double mu[MAXC];    int nmu;   /* friction coefficients */
    double hdvi[MAXC];  int nhdvi; /* DVI step sizes [s] */
    double hpen;                   /* penalty step [s]; 0 = a fraction of the stable step */
    double E;                      /* Young's modulus of ball and lane for the penalty law [Pa] */
    double nu;                     /* Poisson ratio */
    double cor;                    /* restitution coefficient */
    double sample_dt;              /* output interval [s] */
    double slip_tol;               /* slip counted as ended below slip_tol * v0 */
    double settle;                 /* rest on the plane for this long before the launch [s] */
    double k_reg;                  /* dvi-regularized: contact stiffness [N/m]; 0 = Hertz tangent at m g */
} bowl_opts;

/* one row of bowling-summary.csv */
typedef struct bowl_result {
    double max_height, max_vz, vz_first, vT_first, slip_end, final_speed, max_pen, max_fn, steps, wall;
    double outer_mean, outer_max, fp_failures; /* De Saxce fixed point (dvi-exact), 0 otherwise */
} bowl_result;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* the scene: a fixed half-space z <= 0 and the ball resting on it (Phi = 0), sliding at v0 */
static clab_world *bowl_world(const bowl_opts *o, double v0, double mu, clab_error *err)
{
    clab_world *w = clab_world_create(NULL);
    if (!w) return NULL;
    clab_material m = clab_default_material();
    m.mu = mu;
    m.E = o->E;
    m.nu = o->nu;
    m.cor = o->cor;
    if (clab_world_add_material(w, &m, err) < 0) goto fail;
    clab_body_def d = clab_default_body_def();
    snprintf(d.name, sizeof d.name, "lane");
    d.shape = clab_plane();
    d.fixed = 1;
    if (clab_world_add_body(w, &d, err) < 0) goto fail;
    d = clab_default_body_def();
    snprintf(d.name, sizeof d.name, "ball");
    d.shape = clab_sphere(BOWL_R);
    d.mass = BOWL_M;
    d.r = clab_v3(0.0, 0.0, BOWL_R);
    (void)v0; /* launched after settling, see settle() */
    if (clab_world_add_body(w, &d, err) < 0) goto fail;
    return w;
fail:
    clab_world_destroy(w);
    return NULL;
}

/* Let the ball come to rest on the plane (a penalty contact reaches its static overlap,
 * a DVI contact stays at Phi = 0), then launch it: rdot = (v0, 0, 0), no spin, t = 0. */
static int settle(clab_sim *s, double t_settle, double v0, clab_error *err)
{
    clab_world *w = s->world;
    long n = 0;
    if (clab_sim_step_count(t_settle, s->h, &n, err)) return 1;
    for (long k = 0; k < n; k++)
        if (clab_sim_step(s, err)) return 1;
    clab_body *ball = &w->bodies[1];
    ball->rdot = clab_v3(v0, 0.0, 0.0);
    ball->wbar = clab_v3(0.0, 0.0, 0.0);
    w->t = 0.0;
    w->step = 0;
    return 0;
}

static const char *const series_cols[] = {
    "t_s", "x_m", "height_m", "vx_m_s", "vz_m_s", "omega_y_rad_s", "slip_m_s", "fn_N", "ft_N",
    "vx_analytic_m_s", "slip_analytic_m_s", "contacts", "iterations", "outer_iterations"};
enum { NCOLS = sizeof series_cols / sizeof series_cols[0] };

static void fmt_num(char *buf, size_t n, double v)
{
    snprintf(buf, n, "%g", v);
}

/* dvi-regularized (Lacoursiere-Servin): the dvi backend with stiffness k and restitution cor. Default k:
 * the tangent stiffness of the Hertz contact (E*, R) under the ball's weight,
 * k = 3/2 K sqrt(delta_s), K = 4/3 E* sqrt(R), delta_s = (m g / K)^(2/3), 1/E* = 2 (1 - nu^2)/E */
static double bowl_k_reg(const bowl_opts *o)
{
    if (o->k_reg > 0.0) return o->k_reg;
    double Estar = o->E / (2.0 * (1.0 - o->nu * o->nu)), K = 4.0 / 3.0 * Estar * sqrt(BOWL_R);
    return 1.5 * K * sqrt(pow(BOWL_M * 9.81 / K, 2.0 / 3.0));
}

/* the extra backend options of a regularized method (dvi-regularized): stiffness=, cor= */
static void bowl_reg_options(const bowl_opts *o, const xp_method *bm, clab_options *extra)
{
    char v[64];
    if (!bm->regularized) return;
    snprintf(v, sizeof v, "%.17g", bowl_k_reg(o));
    clab_options_set(extra, "stiffness", v, "bowling");
    snprintf(v, sizeof v, "%.17g", o->cor);
    clab_options_set(extra, "cor", v, "bowling");
}

/* run one (method, v0, mu, h) case, write its series, fill its summary row */
static int bowl_case(bowl_opts *o, const xp_method *bm, double v0, double mu, double h, double t_end,
                     bowl_result *res, char *file, size_t filelen)
{
    clab_error err;
    const char *method = bm->name;
    clab_world *w = bowl_world(o, v0, mu, &err);
    if (!w) {
        fprintf(stderr, "contactlab bowling: %s\n", err.msg);
        return 1;
    }
    clab_options extra;
    clab_options_init(&extra);
    bowl_reg_options(o, bm, &extra);
    clab_sim *s = xp_sim(&o->c, w, bm, h > 0.0 ? h : 1e-5, &extra);
    clab_options_free(&extra);
    if (!s) {
        clab_world_destroy(w);
        return 1;
    }
    if (h <= 0.0) { /* penalty default: a tenth of the backend's stable step, rounded down to 1-2-5 */
        double hs = s->type->stable_step ? s->type->stable_step(s->self, w) : 0.0;
        double target = hs > 0.0 ? 0.1 * hs : 1e-5;
        double dec = pow(10.0, floor(log10(target)));
        h = target >= 5 * dec ? 5 * dec : (target >= 2 * dec ? 2 * dec : dec);
        s->h = h;
    }
    char sv0[32], smu[32], sh[32];
    fmt_num(sv0, sizeof sv0, v0);
    fmt_num(smu, sizeof smu, mu);
    fmt_num(sh, sizeof sh, h);
    snprintf(file, filelen, "bowling-v0_%s-mu_%s-%s-h_%s.csv", sv0, smu, method, sh);
    char path[2048];
    xp_path(&o->c, file, path, sizeof path);

    /* metadata: the experiment's parameters, then the simulation's (backend and model) */
    clab_options meta;
    clab_options_init(&meta);
    char v[64];
    clab_options_set(&meta, "experiment", "bowling", NULL);
    xp_method_meta(bm, &meta);
    clab_options_set(&meta, "backend", bm->backend, NULL);
#define META(k, val) (snprintf(v, sizeof v, "%.17g", (double)(val)), clab_options_set(&meta, k, v, NULL))
    META("v0_m_s", v0);
    META("mu", mu);
    META("R_m", BOWL_R);
    META("m_kg", BOWL_M);
    META("g_m_s2", -w->gravity.z);
    META("t_end_s", t_end);
    META("sample_dt_s", o->sample_dt);
    clab_options_set(&meta, "fn_N", "mean normal force on the ball over the output interval (impulse / interval)", NULL);
    clab_options_set(&meta, "ft_N", "mean tangential force on the ball along x over the output interval", NULL);
    clab_options_set(&meta, "height_m", "height of the ball's lowest point above the plane (negative: penetration)", NULL);
    META("slip_end_analytic_s", clab_analytic_roll_time(v0, mu, 9.81));
    META("final_speed_analytic_m_s", clab_analytic_roll_speed(v0));
    clab_sim_meta(s, &meta);

    META("settle_s", o->settle);
#undef META
    clab_csv *csv = clab_csv_open(path, o->c.force ? CLAB_CSV_OVERWRITE : 0, &err);
    int rc = 1;
    /* the runtime guard: the last good state at each row, saved when a step fails */
    xp_guard guard;
    char ckpt[2100];
    snprintf(ckpt, sizeof ckpt, "%.*s.ckpt", (int)(strlen(path) - 4), path); /* path ends in .csv */
    xp_guard_init(&guard, ckpt, "contactlab bowling 1: series");
    if (csv) xp_guard_add(&guard, csv);
    if (!csv || clab_csv_meta(csv, &meta, o->c.argc, o->c.argv, &err) ||
        clab_csv_header(csv, series_cols, NCOLS, &err)) {
        fprintf(stderr, "contactlab bowling: %s\n", err.msg);
        goto done;
    }

    if (settle(s, o->settle, v0, &err)) {
        fprintf(stderr, "contactlab bowling: settling %s: %s\n", file, err.msg);
        goto done;
    }
    const double g = -w->gravity.z;
    long nsteps = xp_steps(&o->c, t_end, h);
    if (nsteps < 0) goto done;
    long every = (long)fmax(1.0, floor(o->sample_dt / h + 0.5));
    clab_body *ball = &w->bodies[1];
    memset(res, 0, sizeof *res);
    res->max_height = -INFINITY;
    res->max_vz = -INFINITY;
    double tol = o->slip_tol * v0;
    res->slip_end = -1.0; /* not yet ended */
    size_t fcap = 16;
    clab_vec3 *f = malloc(fcap * sizeof *f);
    xp_progress pb;
    char label[128];
    snprintf(label, sizeof label, "bowling %s v0=%s mu=%s h=%s", method, sv0, smu, sh);
    xp_progress_begin(&pb, &o->c, label);
    double t0 = now_s();
    double imp_n = 0.0, imp_t = 0.0, t_row = 0.0; /* impulses since the last row [N s] */
    long outer0 = 0, fail0 = 0; /* fixed-point counters at the launch (settling excluded) */

    for (long k = 0; k <= nsteps; k++) {
        /* contact forces on the ball from the last step (the ball is body b = 1, n points up),
         * accumulated as impulses until the next output row: the series hold the mean force
         * over each output interval, so a one-step DVI impulse is not lost between rows and
         * runs with different h compare directly */
        if (k > 0) {
            double fn = 0.0, ftx = 0.0;
            if (s->contacts.n > fcap) {
                fcap = 2 * s->contacts.n;
                clab_vec3 *nf = realloc(f, fcap * sizeof *f);
                if (!nf) { fprintf(stderr, "contactlab bowling: out of memory\n"); goto done_loop; }
                f = nf;
            }
            clab_sim_forces(s, f);
            for (size_t i = 0; i < s->contacts.n; i++) {
                const clab_contact *c = &s->contacts.c[i];
                fn += f[i].x;
                clab_vec3 tu, tw;
                clab_contact_frame(c, &tu, &tw);
                ftx += f[i].y * tu.x + f[i].z * tw.x;
            }
            imp_n += fn * h;
            imp_t += ftx * h;
            res->max_fn = fmax(res->max_fn, fn);
        }
        clab_vec3 om = clab_body_omega_world(ball);
        double height = ball->r.z - BOWL_R;
        double slip = ball->rdot.x - BOWL_R * om.y;
        if (k == 1) {
            res->vz_first = ball->rdot.z;
            res->vT_first = fabs(slip);
        }
        if (k > 0) {
            res->max_height = fmax(res->max_height, height);
            res->max_vz = fmax(res->max_vz, ball->rdot.z);
            res->max_pen = fmax(res->max_pen, -height);
            if (fabs(slip) < tol && res->slip_end < 0.0) res->slip_end = w->t;
        }
        if (k % every == 0 || k == nsteps) {
            double vxa, slipa;
            clab_solver_stats st = {0};
            if (s->type->stats) s->type->stats(s->self, &st);
            clab_analytic_slip_to_roll(v0, mu, g, w->t, &vxa, &slipa);
            double span = w->t - t_row;
            double fn = span > 0.0 ? imp_n / span : 0.0, ftx = span > 0.0 ? imp_t / span : 0.0;
            double row[NCOLS] = {w->t, ball->r.x, height, ball->rdot.x, ball->rdot.z, om.y, slip,
                                 fn, ftx, vxa, slipa, (double)s->contacts.n, (double)st.iterations,
                                 (double)st.outer_iterations};
            imp_n = imp_t = 0.0;
            t_row = w->t;
            if (clab_csv_row(csv, row, NCOLS, &err) || xp_guard_snapshot(&guard, s, &err)) {
                fprintf(stderr, "contactlab bowling: %s\n", err.msg);
                goto done_loop;
            }
            xp_progress_update(&pb, (double)k / (double)nsteps);
        }
        if (k == nsteps) break;
        if (clab_sim_step(s, &err)) {
            fprintf(stderr, "contactlab bowling: %s: %s\n", file, err.msg);
            xp_guard_fail(&guard, "contactlab bowling");
            goto done_loop;
        }
        clab_solver_stats so = {0};
        if (s->type->stats) s->type->stats(s->self, &so);
        res->outer_max = fmax(res->outer_max, (double)so.outer_iterations);
        if (k == 0) outer0 = so.total_outer_iterations - so.outer_iterations, fail0 = so.fixed_point_failures;
        res->outer_mean = (double)(so.total_outer_iterations - outer0) / (double)(k + 1);
        res->fp_failures = (double)(so.fixed_point_failures - fail0);
    }
    if (res->slip_end < 0.0) res->slip_end = NAN; /* never ended within t_end */
    res->final_speed = fabs(ball->rdot.x);
    res->steps = (double)nsteps;
    res->wall = now_s() - t0;
    rc = 0;
done_loop:
    xp_progress_end(&pb);
    free(f);
done:
    if (csv && clab_csv_close(csv, &err) && rc == 0) {
        fprintf(stderr, "contactlab bowling: %s\n", err.msg);
        rc = 1;
    }
    xp_guard_free(&guard);
    clab_options_free(&meta);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

static void bowl_help(const xp_common *c)
{
    printf("usage: contactlab bowling [options]\n\n"
           "A bowling ball (R = 0.1085 m, m = 7 kg, solid sphere) launched sliding without spin on a\n"
           "plane: slip ends at t* = 2 v0/(7 mu g), then it rolls at 5 v0/7. DVI's CCP relaxation makes\n"
           "it hop (separating speed mu v_T: Tasora-Anitescu's relaxed Coulomb cone, Eq. (5d)); the\n"
           "Hertz-Mindlin penalty method does not, nor does exact Coulomb friction (De Saxce's fixed\n"
           "point, dvi-exact). dvi-regularized (Lacoursiere-Servin) takes stiffness = --k-reg and\n"
           "cor = --cor. Writes one CSV per (v0, mu, method, h), bowling-summary.csv and figures.\n\n"
           "Experiment options:\n"
           "  --v0 LIST        launch speeds [m/s] (default 3,8)\n"
           "  --mu LIST        friction coefficients (default 0.2,0.5)\n"
           "  --h-dvi LIST     step sizes [s] of every rigid-contact (CCP) method (default 1e-3,1e-4)\n"
           "  --h-penalty S    step [s] of every force-law method (default: a tenth of its stable step,\n"
           "                   1-2-5 rounded)\n"
           "  --E PA           Young's modulus of ball and lane, penalty law [Pa] (default 1e9)\n"
           "  --nu X           Poisson ratio (default 0.3)\n"
           "  --cor X          restitution coefficient (default 0.5)\n"
           "  --sample-dt S    output interval [s] (default 1e-3)\n"
           "  --slip-tol X     slip has ended when |slip| first falls below X v0 (default 1e-3)\n"
           "  --settle S       the ball first rests on the plane for S [s] (default 0.1), so the\n"
           "                   penalty contact starts at its static overlap; t = 0 at the launch\n"
           "  --k-reg K        stiffness of dvi-regularized [N/m] (default: the Hertz tangent\n"
           "                   stiffness under the ball's weight, from --E and --nu)\n"
           "  --t-end S        simulated time [s] (default 1.5, or 1.3 t* of the slowest case)\n\n"
           "--h sets the step of every method at once.\n\n");
    xp_common_help(c);
}

int xp_bowling(int argc, char **argv)
{
    static const struct option longopts[] = {
        XP_COMMON_LONGOPTS,
        {"v0", required_argument, 0, 1000},
        {"mu", required_argument, 0, 1001},
        {"h-dvi", required_argument, 0, 1002},
        {"h-penalty", required_argument, 0, 1003},
        {"E", required_argument, 0, 1004},
        {"nu", required_argument, 0, 1005},
        {"cor", required_argument, 0, 1006},
        {"sample-dt", required_argument, 0, 1007},
        {"slip-tol", required_argument, 0, 1008},
        {"settle", required_argument, 0, 1009},
        {"k-reg", required_argument, 0, 1010},
        {0, 0, 0, 0}};
    bowl_opts o;
    memset(&o, 0, sizeof o);
    xp_common_init(&o.c, "bowling", argc, argv);
    o.c.gives_stiffness = 1; /* dvi-regularized: --k-reg, --cor */
    xp_methods_choose(&o.c, "all");
    snprintf(o.c.method_default, sizeof o.c.method_default, "all");
    o.v0[0] = 3; o.v0[1] = 8; o.nv0 = 2;
    o.mu[0] = 0.2; o.mu[1] = 0.5; o.nmu = 2;
    o.hdvi[0] = 1e-3; o.hdvi[1] = 1e-4; o.nhdvi = 2;
    o.E = 1e9; o.nu = 0.3; o.cor = 0.5;
    o.sample_dt = 1e-3;
    o.slip_tol = 1e-3;
    o.settle = 0.1;
    int rc = 2, opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        /* every problem of the command line is reported (xp_option_errors below) */
        int r = xp_common_option(&o.c, opt, optarg);
        if (r != 0) continue;
        int bad = 0;
        switch (opt) {
        case '?' + 256: bowl_help(&o.c); rc = 0; goto out;
        case 1000: bad = xp_parse_list("v0", optarg, 1e-6, 1e3, o.v0, MAXC, &o.nv0); break;
        case 1001: bad = xp_parse_list("mu", optarg, 1e-6, 10, o.mu, MAXC, &o.nmu); break;
        case 1002: bad = xp_parse_list("h-dvi", optarg, 1e-9, 0.1, o.hdvi, MAXC, &o.nhdvi); break;
        case 1003: bad = xp_parse_double("h-penalty", optarg, 1e-12, 0.1, &o.hpen); break;
        case 1004: bad = xp_parse_double("E", optarg, 1.0, 1e15, &o.E); break;
        case 1005: bad = xp_parse_double("nu", optarg, -0.999, 0.499, &o.nu); break;
        case 1006: bad = xp_parse_double("cor", optarg, 1e-6, 1.0, &o.cor); break;
        case 1007: bad = xp_parse_double("sample-dt", optarg, 1e-9, 10, &o.sample_dt); break;
        case 1008: bad = xp_parse_double("slip-tol", optarg, 1e-9, 0.5, &o.slip_tol); break;
        case 1009: bad = xp_parse_double("settle", optarg, 0.0, 100.0, &o.settle); break;
        case 1010: bad = xp_parse_double("k-reg", optarg, 1e-3, 1e15, &o.k_reg); break;
        default: xp_option_unknown(); break;
        }
        (void)bad; /* reported and counted: go on with the next option */
    }
    for (int i = optind; i < argc; i++) xp_option_error("contactlab bowling: unexpected argument '%s'\n", argv[i]);
    if (xp_option_errors("contactlab bowling")) goto out;
    if (o.c.h > 0.0) {
        o.hpen = o.c.h;
        o.hdvi[0] = o.c.h;
        o.nhdvi = 1;
    }
    double t_end = o.c.t_end;
    if (t_end <= 0.0) { /* long enough for the slowest case to roll for a while */
        t_end = 1.5;
        for (int i = 0; i < o.nv0; i++)
            for (int j = 0; j < o.nmu; j++) t_end = fmax(t_end, 1.3 * clab_analytic_roll_time(o.v0[i], o.mu[j], 9.81));
    }
    if (xp_out_prepare(&o.c)) {
        rc = 1;
        goto out;
    }

    /* summary: one row per (method, v0, mu, h) */
    char spath[2048];
    clab_error err;
    xp_path(&o.c, "bowling-summary.csv", spath, sizeof spath);
    static const char *const scols[] = {
        "method", "v0_m_s", "mu", "h_s", "max_height_m", "max_vz_m_s", "vz_first_step_m_s",
        "vz_relaxation_m_s", "slip_end_s", "slip_end_analytic_s", "slip_end_rel_err", "final_speed_m_s",
        "final_speed_analytic_m_s", "final_speed_rel_err", "max_penetration_m", "max_fn_N", "steps", "wall_s",
        "series_file", "outer_iterations_mean", "outer_iterations_max", "fixed_point_failures"};
    clab_options meta;
    clab_options_init(&meta);
    clab_options_set(&meta, "experiment", "bowling", NULL);
    clab_options_set(&meta, "vz_relaxation_m_s", "mu * v_T after the first step: the separating speed the relaxed "
                                                 "Coulomb cone predicts (Tasora-Anitescu CCP, Eq. (5d)); rigid-contact methods", NULL);
    clab_options_set(&meta, "outer_iterations_mean", "dvi-exact: CCP solves per step of the De Saxce fixed point "
                                                     "(mean over the steps after the launch; 0 for other methods)", NULL);
    clab_options_set(&meta, "fixed_point_failures", "dvi-exact: steps whose fixed point stopped at exact_max_outer",
                     NULL);
    clab_options_set(&meta, "slip_end_s", "first time |slip| < slip_tol * v0 (after it, a penalty contact only vibrates elastically about rolling)", NULL);
    char sv[64];
    snprintf(sv, sizeof sv, "%.17g", o.slip_tol);
    clab_options_set(&meta, "slip_tol", sv, NULL);
    clab_csv *sum = clab_csv_open(spath, o.c.force ? CLAB_CSV_OVERWRITE : 0, &err);
    if (!sum || clab_csv_meta(sum, &meta, o.c.argc, o.c.argv, &err) ||
        clab_csv_header(sum, scols, sizeof scols / sizeof scols[0], &err)) {
        fprintf(stderr, "contactlab bowling: %s\n", err.msg);
        clab_options_free(&meta);
        if (sum) clab_csv_close(sum, NULL);
        rc = 1;
        goto out;
    }
    clab_options_free(&meta);
    /* this run's series, one file name a line: the figures draw these and no other file */
    char lpath[2048];
    xp_path(&o.c, "bowling-series.txt", lpath, sizeof lpath);
    FILE *list = fopen(lpath, "w");
    if (!list) {
        fprintf(stderr, "contactlab bowling: cannot write %s\n", lpath);
        clab_csv_close(sum, NULL);
        rc = 1;
        goto out;
    }

    printf("%-15s %5s %5s %8s %11s %10s %10s %10s %10s %10s %10s %6s\n", "method", "v0", "mu", "h_s", "max_height",
           "max_vz", "mu*v_T", "slip_end", "t*", "v_final", "5v0/7", "outer");
    rc = 0;
    for (int mi = 0; mi < o.c.nmethod && rc == 0; mi++) {
        const xp_method *bm = o.c.method[mi];
        const char *method = bm->name;
        const int ccp = bm->kind == XP_KIND_CCP; /* rigid contacts: the --h-dvi list */
        int nh = ccp ? o.nhdvi : 1;
        for (int i = 0; i < o.nv0 && rc == 0; i++)
            for (int j = 0; j < o.nmu && rc == 0; j++)
                for (int k = 0; k < nh && rc == 0; k++) {
                    double h = xp_method_h(bm, o.hpen, o.hdvi[k]);
                    bowl_result r;
                    char file[512];
                    double v0 = o.v0[i], mu = o.mu[j];
                    if (bowl_case(&o, bm, v0, mu, h, t_end, &r, file, sizeof file)) {
                        rc = 1;
                        break;
                    }
                    /* the actual step (penalty's default is chosen inside) is in the file name */
                    const char *hp = strstr(file, "-h_");
                    double hused = hp ? strtod(hp + 3, NULL) : h;
                    double ts = clab_analytic_roll_time(v0, mu, 9.81), vf = clab_analytic_roll_speed(v0);
                    double vrel = ccp ? mu * r.vT_first : NAN;
                    enum { NV = 17, NX = 3 };
                    const char *cells[NV + NX + 2];
                    char buf[NV + NX][64];
                    double vals[NV + NX] = {v0, mu, hused, r.max_height, r.max_vz, r.vz_first, vrel, r.slip_end, ts,
                                            (r.slip_end - ts) / ts, r.final_speed, vf, (r.final_speed - vf) / vf,
                                            r.max_pen, r.max_fn, r.steps, r.wall,
                                            r.outer_mean, r.outer_max, r.fp_failures};
                    cells[0] = method;
                    for (int q = 0; q < NV + NX; q++) {
                        snprintf(buf[q], sizeof buf[q], "%.17g", vals[q]);
                        cells[q < NV ? q + 1 : q + 2] = buf[q];
                    }
                    cells[NV + 1] = file;
                    fprintf(list, "%s\n", file);
                    if (clab_csv_text_row(sum, cells, NV + NX + 2, &err)) {
                        fprintf(stderr, "contactlab bowling: %s\n", err.msg);
                        rc = 1;
                        break;
                    }
                    printf("%-15s %5g %5g %8.1e %11.4e %10.4f %10.4f %10.4f %10.4f %10.4f %10.4f %6.2f\n", method, v0,
                           mu, hused, r.max_height, r.max_vz, vrel, r.slip_end, ts, r.final_speed, vf, r.outer_mean);
                }
    }
    if (clab_csv_close(sum, &err)) {
        fprintf(stderr, "contactlab bowling: %s\n", err.msg);
        rc = 1;
    }
    if (fclose(list)) {
        fprintf(stderr, "contactlab bowling: cannot write %s\n", lpath);
        rc = 1;
    }
    if (rc == 0) {
        printf("\nCSVs: %s/bowling-*.csv (summary: %s)\n", o.c.out, spath);
        if (xp_plot(&o.c, "bowling.gp") == 0 && o.c.plot)
            printf("figures: %s/bowling-height.png, bowling-normal-force.png, bowling-slip.png (and .pdf)\n",
                   o.c.out);
    }
out:
    xp_common_free(&o.c);
    return rc;
}
