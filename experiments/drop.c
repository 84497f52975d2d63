/* drop.c: a sphere dropped on a plane from rest at height H: impact against Hertz theory
 * (penalty) and the inelastic landing of DVI.
 *
 * Hertz theory of the elastic impact (Johnson, Contact Mechanics, 1985, Sect. 11.4) of a
 * sphere of mass m on a rigid-backed flat at speed v, F = K delta^(3/2), K = 4/3 E* sqrt(R):
 *   energy 1/2 m v^2 = 2/5 K delta_max^(5/2)  ->  delta_max = (5 m v^2 / (4 K))^(2/5),
 *   F_max = K delta_max^(3/2),
 *   t_c = 2 delta_max/v int_0^1 (1 - x^(5/2))^(-1/2) dx = 2.9432 delta_max / v.
 * The penalty law adds a dashpot chosen so that the restitution is the material's cor
 * (force_law.h); a linear spring-dashpot (model=hooke) has exactly
 *   t_c = pi / omega_d,  omega_d = omega_0 sqrt(1 - zeta^2),  e = exp(-pi zeta / sqrt(1 - zeta^2)).
 * Between impacts the ball flies freely: v = sqrt(2 g H) at the first impact, and a rigid
 * ball with restitution e rebounds to e^2 H.
 *
 * DVI (seed 000, Eq. (5)) has no restitution term: the impact is perfectly inelastic and the
 * ball stays on the plane. It stops within two steps: in the step in which it enters the
 * envelope at gap Phi > 0, the stabilized constraint Phi/h + v_n >= 0 lets it close the gap
 * exactly (v_n = -Phi/h), and the next step's impulse stops it; together m v.
 *
 * The force series hold the mean force over each output interval (impulse / interval, as in
 * bowling.c), so a DVI impulse of one step shows at its true height gamma/h. Output rows are
 * written every --sample-dt, and every --sample-dt-contact near and during each impact. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clab_analytic.h"
#include "clab_csv.h"
#include "force_law.h"
#include "xp.h"

#define MAXC 8

typedef struct drop_opts {
    xp_common c;
    double H[MAXC];     int nH;    /* drop heights of the lowest point [m] */
    double hdvi[MAXC];  int nhdvi; /* DVI step sizes [s] */
    double hpen;                   /* penalty step [s]; 0 = t_c/500 of each case, 1-2-5 rounded */
    double R, rho;                 /* sphere radius [m] and density [kg/m^3] */
    double E, nu;                  /* material of sphere and plane */
    double cor[MAXC];   int ncor;  /* restitution coefficients of the material (cases) */
    double sample_dt;              /* output interval in flight [s] */
    double sample_dt_contact;      /* output interval near impacts [s]; 0 = t_c/200 */
} drop_opts;

/* the impact model of one penalty run: elastic Hertz, or a linear spring-dashpot */
typedef struct drop_theory {
    int hooke;   /* 1: linear spring-dashpot */
    double K;    /* Hertz: F = K delta^(3/2) [N/m^1.5]; Hooke: k [N/m] */
    double c;    /* Hooke: dashpot [N s/m] */
    double m;    /* sphere mass [kg] (the plane is fixed: m_eff = m) */
} drop_theory;

/* first impact, measured */
typedef struct drop_result {
    double v_in, t_in, t_out, contact_time, max_overlap, max_force, v_out, e, rebound_height, steps, wall;
} drop_result;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double round125(double x)
{
    double dec = pow(10.0, floor(log10(x)));
    return x >= 5 * dec ? 5 * dec : (x >= 2 * dec ? 2 * dec : dec);
}

/* Hertz (elastic) or damped linear impact at speed v (clab_analytic.h): contact time [s],
 * max overlap [m], max force [N], restitution (Hertz: 1, the elastic theory) */
static void drop_predict(const drop_theory *th, double v, double *tc, double *dmax, double *Fmax, double *e)
{
    clab_analytic_impact r = th->hooke ? clab_analytic_hooke_impact(th->K, th->c, th->m, v)
                                       : clab_analytic_hertz_impact(th->K, th->m, v);
    *tc = r.contact_time;
    *dmax = r.max_overlap;
    *Fmax = r.max_force;
    *e = r.restitution;
}

/* the penalty run's impact model, from the material and the backend's options in force */
static drop_theory drop_theory_of(const drop_opts *o, const clab_sim *s)
{
    const clab_world *w = s->world;
    drop_theory th = {0, 0.0, 0.0, w->bodies[1].m};
    clab_options m;
    clab_options_init(&m);
    clab_sim_meta(s, &m);
    const char *model = clab_options_get(&m, "model"), *kn = clab_options_get(&m, "kn");
    const char *gn = clab_options_get(&m, "gn"), *vchar = clab_options_get(&m, "vchar");
    clab_penalty_law law = {CLAB_PENALTY_HERTZ, CLAB_PENALTY_CAP_CONE, CLAB_PENALTY_ROLL_OFF, 0, 1.0, 0};
    if (model && strcmp(model, "hooke") == 0) law.model = CLAB_PENALTY_HOOKE;
    if (vchar) law.vchar = strtod(vchar, NULL);
    double knv = kn && strcmp(kn, "material") != 0 ? strtod(kn, NULL) : -1.0;
    double gnv = gn && strcmp(gn, "material") != 0 ? strtod(gn, NULL) : -1.0;
    clab_material_pair mp = clab_material_mix(&w->materials[0], &w->materials[0]);
    clab_penalty_pair pp = clab_penalty_pair_make(&mp, knv, -1.0, gnv, -1.0);
    th.hooke = law.model == CLAB_PENALTY_HOOKE;
    if (th.hooke) {
        clab_penalty_coef k = clab_penalty_coefficients(&law, &pp, 1.0, th.m, o->R);
        th.K = k.kn;
        th.c = k.cn;
    } else {
        th.K = pp.kn > 0.0 ? pp.kn : clab_analytic_hertz_K(pp.Estar, o->R);
    }
    clab_options_free(&m);
    return th;
}

/* the scene: a fixed half-space z <= 0 and the sphere at rest with its lowest point at H */
static clab_world *drop_world(const drop_opts *o, double H, double cor, clab_error *err)
{
    clab_world *w = clab_world_create(NULL);
    if (!w) return NULL;
    clab_material m = clab_default_material();
    m.E = o->E;
    m.nu = o->nu;
    m.cor = cor;
    if (clab_world_add_material(w, &m, err) < 0) goto fail;
    clab_body_def d = clab_default_body_def();
    snprintf(d.name, sizeof d.name, "plane");
    d.shape = clab_plane();
    d.fixed = 1;
    if (clab_world_add_body(w, &d, err) < 0) goto fail;
    d = clab_default_body_def();
    snprintf(d.name, sizeof d.name, "ball");
    d.shape = clab_sphere(o->R);
    d.density = o->rho;
    d.r = clab_v3(0.0, 0.0, H + o->R);
    if (clab_world_add_body(w, &d, err) < 0) goto fail;
    return w;
fail:
    clab_world_destroy(w);
    return NULL;
}

/* height of the lowest point of a rigid ball dropped from H with restitution e and
 * instantaneous impacts (the reference line of the height figure) */
static double bounce_height(double H, double e, double g, double t)
{
    double v = sqrt(2.0 * g * H), tt = sqrt(2.0 * H / g);
    if (t <= tt) return H - 0.5 * g * t * t;
    t -= tt;
    for (int n = 0; n < 200; n++) {
        v *= e;
        double flight = 2.0 * v / g;
        if (v < 1e-9) return 0.0;
        if (t <= flight) return v * t - 0.5 * g * t * t;
        t -= flight;
    }
    return 0.0;
}

static const char *const series_cols[] = {"t_s",   "height_m", "vz_m_s",     "fn_N",      "height_reference_m",
                                          "contacts", "iterations"};
enum { NCOLS = sizeof series_cols / sizeof series_cols[0] };

/* the running quantities of a case, as the checkpoint keeps them: the result so far, the
 * largest upward speed after the first contact, the phase, the impulse and time of the last
 * row, the time spent [s] */
enum { DROP_NRES = sizeof(drop_result) / sizeof(double), DROP_NVAL = DROP_NRES + 5 };
_Static_assert(sizeof(drop_result) == DROP_NRES * sizeof(double), "drop_result holds only doubles");
static void drop_pack(double *v, const drop_result *res, double vmax_after, int phase, double imp_n, double t_row,
                      double wall)
{
    memcpy(v, res, sizeof *res);
    v[DROP_NRES] = vmax_after, v[DROP_NRES + 1] = phase, v[DROP_NRES + 2] = imp_n, v[DROP_NRES + 3] = t_row;
    v[DROP_NRES + 4] = wall;
}

/* a case while it runs: what xp_case_run's drop_at and drop_pack_run keep */
typedef struct drop_run {
    const drop_opts *o;
    clab_sim *s;
    drop_result *res;
    double H, cor, g, h, v_an, fine_dt;
    double vmax_after;        /* largest upward speed after the first contact began */
    int phase;                /* 0: falling, 1: first contact, 2: after it */
    double imp_n, t_row;      /* impulse since the last row [N s], the last row's time [s] */
    double gap_prev, vz_prev; /* the last step's gap [m] and vertical speed [m/s] */
    double t0, wall0;         /* wall clock at the start, time spent before a restart [s] */
    long nsteps;
    clab_vec3 *f;             /* the forces of the last step (xp_forces) */
    size_t fcap;
    double *vals;             /* [DROP_NVAL] the checkpoint's running values */
} drop_run;

static void drop_pack_run(void *ctx)
{
    drop_run *r = ctx;
    drop_pack(r->vals, r->res, r->vmax_after, r->phase, r->imp_n, r->t_row, r->wall0 + now_s() - r->t0);
}

/* step k of a case: the force on the ball, the first impact, the row when due */
static int drop_at(void *ctx, long k, int done_before, double *row)
{
    drop_run *r = ctx;
    clab_sim *s = r->s;
    const clab_world *w = s->world;
    const clab_body *ball = &w->bodies[1];
    drop_result *res = r->res;
    const double h = r->h, R = r->o->R;
    double fn = 0.0;
    if (k > 0 && !done_before) { /* the force of the step just taken (ball = body b, n up) */
        if (xp_forces(s, &r->f, &r->fcap)) {
            fprintf(stderr, "contactlab drop: out of memory\n");
            return -1;
        }
        for (size_t i = 0; i < s->contacts.n; i++) fn += r->f[i].x;
        r->imp_n += fn * h;
    }
    double gap = ball->r.z - R, vz = ball->rdot.z, gap_prev = r->gap_prev, vz_prev = r->vz_prev;
    /* the first impact: contact while overlapping or pushed; the overlap crossings are
     * interpolated within the step (penalty), a force of one step starts at its beginning (DVI) */
    int touching = gap < 0.0 || fn > 0.0;
    if (done_before) {
        /* measured before the checkpoint */
    } else if (k > 0 && r->phase == 0 && touching) {
        r->phase = 1;
        if (gap < 0.0 && gap_prev >= 0.0) {
            double x = gap_prev / (gap_prev - gap);
            res->t_in = w->t - h + x * h;
            res->v_in = -(vz_prev + x * (vz - vz_prev));
        } else {
            res->t_in = w->t - h;
            res->v_in = -vz_prev;
        }
    } else if (k > 0 && r->phase == 1 && !touching) {
        r->phase = 2;
        if (gap >= 0.0 && gap_prev < 0.0) {
            double x = -gap_prev / (gap - gap_prev);
            res->t_out = w->t - h + x * h;
            res->v_out = vz_prev + x * (vz - vz_prev);
        } else {
            res->t_out = w->t - h;
            res->v_out = vz_prev;
        }
    }
    if (r->phase == 1 && !done_before) {
        res->max_overlap = fmax(res->max_overlap, -gap);
        res->max_force = fmax(res->max_force, fn);
    }
    if (r->phase >= 1 && !done_before) {
        r->vmax_after = fmax(r->vmax_after, vz);
        if (r->phase == 2) res->rebound_height = fmax(res->rebound_height, gap);
    }
    r->gap_prev = gap;
    r->vz_prev = vz;
    /* rows: every sample_dt in flight, every fine_dt near and during an impact */
    /* (a ball at rest on the plane, |vz| < 1e-3 v, is in flight for this purpose) */
    int near = fabs(vz) > 1e-3 * r->v_an && (gap < 1.5 * fabs(vz) * r->o->sample_dt || fn != 0.0 || gap < 0.0);
    double span = w->t - r->t_row;
    if (done_before || !(k == 0 || k == r->nsteps || span >= (near ? r->fine_dt : r->o->sample_dt) - 0.5 * h))
        return 0;
    clab_solver_stats st = {0};
    if (s->type->stats) s->type->stats(s->self, &st);
    double v[NCOLS] = {w->t, gap, vz, span > 0.0 ? r->imp_n / span : 0.0, bounce_height(r->H, r->cor, r->g, w->t),
                       (double)s->contacts.n, (double)st.iterations};
    memcpy(row, v, sizeof v);
    r->imp_n = 0.0;
    r->t_row = w->t;
    return 1;
}

/* Run one (method, H, h) case, write its series, fill *res (first impact). Returns 0, 1 on
 * failure, 2 when stopped (signal, --stop-after; *status: the exit status). */
static int drop_case(drop_opts *o, const xp_method *dm, double H, double cor, double h, double t_end, drop_result *res,
                     double *hused, drop_theory *thout, char *file, size_t filelen, xp_progress *pb, double pb0,
                     double pbspan, clab_csv *sum, int *status)
{
    clab_error err;
    clab_world *w = drop_world(o, H, cor, &err);
    if (!w) {
        fprintf(stderr, "contactlab drop: %s\n", err.msg);
        return 1;
    }
    const double g = -w->gravity.z, m = w->bodies[1].m, v_an = sqrt(2.0 * g * H);
    const char *method = dm->name;
    clab_sim *s = xp_sim(&o->c, w, dm, h > 0.0 ? h : 1e-6, NULL);
    if (!s) {
        clab_world_destroy(w);
        return 1;
    }
    const int pen = dm->kind == XP_KIND_PENALTY; /* the force law of penalty/force_law.h */
    drop_theory th = {0, 0.0, 0.0, m};
    if (pen) th = drop_theory_of(o, s);
    /* the impact the theory expects at the analytic speed (other methods: Hertz's, for scale) */
    double tc_an, dmax_an, F_an, e_an;
    if (!pen) th.K = clab_analytic_hertz_K(clab_material_mix(&w->materials[0], &w->materials[0]).Estar, o->R);
    drop_predict(&th, v_an, &tc_an, &dmax_an, &F_an, &e_an);
    if (h <= 0.0) { /* penalty default: 500 steps per contact, 1-2-5 rounded */
        h = round125(tc_an / 500.0);
        s->h = h;
    }
    *hused = h;
    *thout = th;
    double fine_dt = o->sample_dt_contact > 0.0 ? o->sample_dt_contact : round125(tc_an / 200.0);
    snprintf(file, filelen, "drop-H_%g-cor_%g-%s-h_%g.csv", H, cor, method, h);
    char path[2048];
    xp_path(&o->c, file, path, sizeof path);

    clab_options meta;
    clab_options_init(&meta);
    char v[64];
    clab_options_set(&meta, "experiment", "drop", NULL);
    xp_method_meta(dm, &meta);
#define META(k, val) (snprintf(v, sizeof v, "%.17g", (double)(val)), clab_options_set(&meta, k, v, NULL))
    META("H_m", H);
    META("cor", cor);
    META("R_m", o->R);
    META("m_kg", m);
    META("g_m_s2", g);
    META("t_end_s", t_end);
    META("sample_dt_s", o->sample_dt);
    META("sample_dt_contact_s", fine_dt);
    META("t_impact_analytic_s", sqrt(2.0 * H / g));
    META("v_impact_analytic_m_s", v_an);
    META("contact_time_hertz_analytic_s", tc_an);
    META("max_overlap_hertz_analytic_m", dmax_an);
    META("max_force_hertz_analytic_N", F_an);
    clab_options_set(&meta, "impact_model", th.hooke ? "linear spring-dashpot: t_c = pi/omega_d, e = exp(-pi zeta/sqrt(1-zeta^2))"
                                                     : "Hertz, elastic: delta_max = (5 m v^2/(4 K))^(2/5), F_max = K delta_max^1.5, t_c = 2.9432 delta_max/v, K = 4/3 E* sqrt(R)", NULL);
    clab_options_set(&meta, "height_m", "height of the ball's lowest point above the plane (negative: overlap)", NULL);
    clab_options_set(&meta, "fn_N", "normal contact force on the ball, mean over the output interval (impulse / interval)", NULL);
    clab_options_set(&meta, "height_reference_m", "rigid ball with restitution cor and instantaneous impacts", NULL);
    clab_sim_meta(s, &meta);
#undef META
    clab_csv *csv = NULL;
    int rc = 1;
    clab_vec3 *f = NULL;
    double vals[DROP_NVAL] = {0};
    xp_guard guard;
    int resumed = xp_case_begin(&o->c, &guard, s, sum, 2, vals, DROP_NVAL);
    if (resumed < 0) goto done;
    csv = xp_series_open(&o->c, &guard, resumed, path, o->c.force || o->c.restart[0] ? CLAB_CSV_OVERWRITE : 0, &meta, series_cols, NCOLS);
    if (!csv) goto done;

    const long steps = xp_steps(&o->c, t_end, h);
    if (steps < 0) goto done;
    drop_run r = {o, s, res, H, cor, g, h, v_an, fine_dt, -INFINITY, 0, 0.0, 0.0, 0.0, 0.0, now_s(), 0.0,
                  steps, NULL, 0, vals};
    memset(res, 0, sizeof *res);
    res->t_in = res->t_out = NAN;
    res->rebound_height = -INFINITY;
    if (resumed) { /* the running quantities at the checkpoint */
        memcpy(res, vals, sizeof *res);
        r.vmax_after = vals[DROP_NRES], r.phase = (int)vals[DROP_NRES + 1], r.imp_n = vals[DROP_NRES + 2];
        r.t_row = vals[DROP_NRES + 3], r.wall0 = vals[DROP_NRES + 4];
    }
    r.gap_prev = w->bodies[1].r.z - o->R, r.vz_prev = w->bodies[1].rdot.z;
    double row[NCOLS];
    const xp_case_loop loop = {&o->c, &guard, s, csv, row, NCOLS, r.nsteps, resumed, pb, pb0, pbspan, drop_at,
                               drop_pack_run, &r};
    rc = xp_case_run(&loop, status);
    f = r.f;
    if (rc) goto done;
    const int phase = r.phase;
    const long nsteps = r.nsteps;
    res->contact_time = res->t_out - res->t_in; /* nan while the ball stays on the plane */
    /* restitution: the speed leaving the first contact, or the largest upward speed after it
     * began when the ball never leaves (DVI: 0) */
    res->e = phase == 2 ? res->v_out / res->v_in : (phase == 1 ? fmax(r.vmax_after, 0.0) / res->v_in : NAN);
    if (phase < 2) res->rebound_height = NAN;
    res->steps = (double)nsteps;
    res->wall = r.wall0 + now_s() - r.t0;
    rc = 0;
done:
    rc = xp_case_end(&o->c, &guard, csv, rc);
    free(f);
    clab_options_free(&meta);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

static void drop_help(const xp_common *c)
{
    printf("usage: contactlab drop [options]\n\n"
           "A sphere (R = 0.02 m, 1000 kg/m^3) dropped from rest with its lowest point at height H on a\n"
           "plane of the same material. Hertz-Mindlin penalty: the first impact against Hertz theory\n"
           "(contact time t_c = 2.9432 delta_max/v, max overlap delta_max = (5 m v^2/(4 K))^(2/5),\n"
           "K = 4/3 E* sqrt(R)) and the restitution against the material's cor. Tasora-Anitescu CCP\n"
           "(rigid contacts): a perfectly inelastic landing within two steps.\n"
           "Writes one CSV per (H, cor, method, h), drop-summary.csv and figures.\n\n"
           "Experiment options:\n"
           "  --heights LIST   drop heights H of the lowest point [m] (default 0.05,0.2,0.8)\n"
           "  --h-penalty S    step [s] of the force-law methods (default: Hertz t_c/500 of each case,\n"
           "                   1-2-5 rounded)\n"
           "  --h-dvi LIST     step sizes [s] of the rigid-contact (CCP) methods (default 1e-3)\n"
           "  --R M            sphere radius [m] (default 0.02)\n"
           "  --rho KG_M3      sphere density [kg/m^3] (default 1000)\n"
           "  --E PA           Young's modulus of sphere and plane [Pa] (default 1e8)\n"
           "  --nu X           Poisson ratio (default 0.3)\n"
           "  --cor LIST       restitution coefficients of the material (default 1,0.8): cor = 1 is\n"
           "                   the elastic impact of Hertz theory; with cor < 1 the dashpot lengthens\n"
           "                   the contact and lowers the overlap a little (see the summary)\n"
           "  --sample-dt S    output interval in flight [s] (default 1e-3)\n"
           "  --sample-dt-contact S  output interval near impacts [s] (default: Hertz t_c/200, rounded)\n"
           "  --t-end S        simulated time [s] (default: 1.1 x the time of the second impact of the\n"
           "                   highest drop of a ball with restitution cor)\n\n"
           "--h sets the step of every method at once.\n\n");
    xp_common_help(c);
}

int xp_drop(int argc, char **argv)
{
    static const struct option longopts[] = {XP_COMMON_LONGOPTS,
                                             {"heights", required_argument, 0, 1000},
                                             {"h-penalty", required_argument, 0, 1001},
                                             {"h-dvi", required_argument, 0, 1002},
                                             {"R", required_argument, 0, 1003},
                                             {"rho", required_argument, 0, 1004},
                                             {"E", required_argument, 0, 1005},
                                             {"nu", required_argument, 0, 1006},
                                             {"cor", required_argument, 0, 1007},
                                             {"sample-dt", required_argument, 0, 1008},
                                             {"sample-dt-contact", required_argument, 0, 1009},
                                             {0, 0, 0, 0}};
    drop_opts o;
    memset(&o, 0, sizeof o);
    xp_common_init(&o.c, "drop", argc, argv);
    o.H[0] = 0.05; o.H[1] = 0.2; o.H[2] = 0.8; o.nH = 3;
    o.hdvi[0] = 1e-3; o.nhdvi = 1;
    o.R = 0.02; o.rho = 1000.0;
    o.E = 1e8; o.nu = 0.3;
    o.cor[0] = 1.0; o.cor[1] = 0.8; o.ncor = 2;
    o.sample_dt = 1e-3;
    int rc = 2, opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        /* every problem of the command line is reported (xp_option_errors below) */
        int r = xp_common_option(&o.c, opt, optarg);
        if (r != 0) continue;
        int bad = 0;
        switch (opt) {
        case '?' + 256: drop_help(&o.c); rc = 0; goto out;
        case 1000: bad = xp_parse_list("heights", optarg, 1e-6, 1e3, o.H, MAXC, &o.nH); break;
        case 1001: bad = xp_parse_double("h-penalty", optarg, 1e-12, 0.1, &o.hpen); break;
        case 1002: bad = xp_parse_list("h-dvi", optarg, 1e-9, 0.1, o.hdvi, MAXC, &o.nhdvi); break;
        case 1003: bad = xp_parse_double("R", optarg, 1e-6, 100, &o.R); break;
        case 1004: bad = xp_parse_double("rho", optarg, 1e-3, 1e6, &o.rho); break;
        case 1005: bad = xp_parse_double("E", optarg, 1.0, 1e15, &o.E); break;
        case 1006: bad = xp_parse_double("nu", optarg, -0.999, 0.499, &o.nu); break;
        case 1007: bad = xp_parse_list("cor", optarg, 1e-6, 1.0, o.cor, MAXC, &o.ncor); break;
        case 1008: bad = xp_parse_double("sample-dt", optarg, 1e-9, 10, &o.sample_dt); break;
        case 1009: bad = xp_parse_double("sample-dt-contact", optarg, 1e-12, 10, &o.sample_dt_contact); break;
        default: xp_option_unknown(); break;
        }
        (void)bad; /* reported and counted: go on with the next option */
    }
    for (int i = optind; i < argc; i++) xp_option_error("contactlab drop: unexpected argument '%s'\n", argv[i]);
    if (xp_option_errors("contactlab drop")) goto out;
    if (o.c.h > 0.0) {
        o.hpen = o.c.h;
        o.hdvi[0] = o.c.h;
        o.nhdvi = 1;
    }
    const double g = 9.81;
    double t_end = o.c.t_end;
    if (t_end <= 0.0) { /* the second impact of the highest drop, and a little more */
        double Hmax = 0.0, cmax = 0.0;
        for (int i = 0; i < o.nH; i++) Hmax = fmax(Hmax, o.H[i]);
        for (int i = 0; i < o.ncor; i++) cmax = fmax(cmax, o.cor[i]);
        t_end = 1.1 * (sqrt(2.0 * Hmax / g) + 2.0 * cmax * sqrt(2.0 * g * Hmax) / g);
    }
    if (xp_out_prepare(&o.c)) {
        rc = 1;
        goto out;
    }

    char spath[2048];
    xp_path(&o.c, "drop-summary.csv", spath, sizeof spath);
    static const char *const scols[] = {"method",
                                        "H_m",
                                        "h_s",
                                        "v_impact_m_s",
                                        "v_impact_analytic_m_s",
                                        "contact_start_s",
                                        "contact_time_s",
                                        "contact_time_hertz_s",
                                        "contact_time_rel_err",
                                        "max_overlap_m",
                                        "max_overlap_hertz_m",
                                        "max_overlap_rel_err",
                                        "max_force_N",
                                        "max_force_hertz_N",
                                        "restitution",
                                        "cor",
                                        "restitution_model",
                                        "rebound_height_m",
                                        "rebound_height_cor_m",
                                        "steps",
                                        "wall_s",
                                        "series_file"};
    enum { NS = sizeof scols / sizeof scols[0] };
    clab_options meta;
    clab_options_init(&meta);
    clab_options_set(&meta, "experiment", "drop", NULL);
    clab_options_set(&meta, "contact_time_hertz_s", "the penalty model's impact at the measured v_impact: Hertz (elastic) "
                                                    "2.9432 delta_max/v, or pi/omega_d for model=hooke", NULL);
    clab_options_set(&meta, "max_overlap_hertz_m", "Hertz (5 m v^2/(4 K))^(2/5) at the measured v_impact (hooke: damped oscillator)", NULL);
    clab_options_set(&meta, "restitution", "speed leaving the first contact / speed arriving (0: the ball stays on the plane)", NULL);
    clab_options_set(&meta, "restitution_model", "restitution of the impact model: Hertz elastic 1, hooke exp(-pi zeta/sqrt(1-zeta^2))", NULL);
    clab_options_set(&meta, "rebound_height_cor_m", "cor^2 H: a rigid ball with the material's restitution", NULL);
    char sv[64];
    snprintf(sv, sizeof sv, "%.17g", t_end);
    clab_options_set(&meta, "t_end_s", sv, NULL);
    /* a restart continues the summary: the rows of the cases finished before stay */
    clab_csv *sum = xp_summary_begin(&o.c, spath, &meta, scols, NS);
    if (!sum) {
        rc = 1;
        goto out;
    }

    printf("%-8s %6s %8s %8s %10s %10s %10s %10s %7s %7s %9s %9s\n", "method", "H", "h_s", "v_in", "t_c",
           "t_c_hertz", "overlap", "ovl_hertz", "e", "cor", "rebound", "cor^2 H");
    rc = 0;
    int ncases = 0;
    for (int mi = 0; mi < o.c.nmethod; mi++) ncases += o.nH * o.ncor * (o.c.method[mi]->kind == XP_KIND_CCP ? o.nhdvi : 1);
    xp_progress pb;
    char label[128];
    snprintf(label, sizeof label, "drop, %d runs", ncases);
    xp_progress_begin(&pb, &o.c, label);
    int icase = 0;
    for (int mi = 0; mi < o.c.nmethod && rc == 0; mi++) {
        const xp_method *dm = o.c.method[mi];
        const char *method = dm->name;
        int nh = dm->kind == XP_KIND_CCP ? o.nhdvi : 1;
        for (int j = 0; j < o.ncor && rc == 0; j++)
        for (int i = 0; i < o.nH && rc == 0; i++)
            for (int k = 0; k < nh && rc == 0; k++, icase++) {
                double H = o.H[i], cor = o.cor[j], h = xp_method_h(dm, o.hpen, o.hdvi[k]), hused = h;
                drop_result r;
                drop_theory th;
                char file[512], clabel[64];
                snprintf(clabel, sizeof clabel, "%s H=%g cor=%g", method, H, cor);
                if (nh > 1) snprintf(clabel + strlen(clabel), sizeof clabel - strlen(clabel), " h=%g", h);
                if (xp_case_skip(&o.c, clabel)) continue; /* finished before the checkpoint */
                int st = drop_case(&o, dm, H, cor, h, t_end, &r, &hused, &th, file, sizeof file, &pb,
                                   (double)icase / ncases, 1.0 / ncases, sum, &rc);
                if (st == 2) break; /* stopped: rc is the exit status */
                if (st) {
                    rc = 1;
                    break;
                }
                /* theory at the measured impact speed (the penalty force law); rigid contacts have
                 * no compliance to compare, and no restitution term: e = 0 */
                double tc = NAN, dmax = NAN, Fmax = NAN, e_model = NAN;
                if (dm->kind == XP_KIND_PENALTY && r.v_in > 0.0) drop_predict(&th, r.v_in, &tc, &dmax, &Fmax, &e_model);
                if (dm->kind == XP_KIND_CCP) e_model = 0.0;
                enum { NV = NS - 2 };
                double vals[NV] = {H,
                                   hused,
                                   r.v_in,
                                   sqrt(2.0 * g * H),
                                   r.t_in,
                                   r.contact_time,
                                   tc,
                                   (r.contact_time - tc) / tc,
                                   r.max_overlap,
                                   dmax,
                                   (r.max_overlap - dmax) / dmax,
                                   r.max_force,
                                   Fmax,
                                   r.e,
                                   cor,
                                   e_model,
                                   r.rebound_height,
                                   cor * cor * H,
                                   r.steps,
                                   r.wall};
                const char *tail[] = {file};
                if (xp_summary_row(&o.c, sum, &method, 1, vals, NV, tail, 1)) {
                    rc = 1;
                    break;
                }
                if (pb.on) fprintf(stderr, "\r%*s\r", 80, "");
                printf("%-8s %6g %8.1e %8.4f %10.4e %10.4e %10.4e %10.4e %7.4f %7.4f %9.4g %9.4g\n", method, H, hused,
                       r.v_in, r.contact_time, tc, r.max_overlap, dmax, r.e, cor, r.rebound_height,
                       cor * cor * H);
                fflush(stdout);
            }
    }
    if (rc == 0) xp_progress_end(&pb);
    rc = xp_finish(&o.c, rc, sum, spath, "drop-*.csv", "drop.gp",
                   "drop-height.png, drop-force.png, drop-hertz.png");
out:
    xp_common_free(&o.c);
    return rc;
}
