/* chain.c: a row of N touching equal spheres (no gravity) struck at one end by an equal
 * sphere with speed v: how far and how fast does the blow travel?
 *
 * Penalty contacts are springs, so the blow travels as a wave at a finite speed and reaches
 * sphere i at a time that grows linearly with its position x_i = (i - 1) a (a = 2R):
 *   Hertz, F = K delta^(3/2), K = 4/3 E* sqrt(R/2): a chain without precompression carries
 *     Nesterenko's solitary wave (Nesterenko, Dynamics of Heterogeneous Materials, 2001,
 *     Ch. 1; long-wave limit of m u_i'' = F_(i-1,i) - F_(i,i+1)):
 *         u_tt = -c^2 [(-u_x)^(3/2)]_x,  c^2 = K a^(5/2) / m,
 *         V_s = (2/sqrt 5) c xi_m^(1/4) = (16/25)^(1/5) c^(4/5) v_m^(1/5)
 *     with xi_m the peak strain and v_m = V_s xi_m the peak particle speed (measured here).
 *   Hooke, F = k delta: the linear chain's long-wave (sound) speed c_0 = a sqrt(k/m), the
 *     fastest group speed of its dispersion relation omega = 2 sqrt(k/m) sin(q a / 2). The
 *     head of the pulse is an Airy front that widens like i^(1/3), so a fixed threshold is
 *     crossed ever earlier relative to x/c_0 and the fitted speed exceeds c_0 by a few
 *     percent, an excess that shrinks like N^(-2/3).
 * DVI (seed 000, Eq. (5)) has rigid contacts: one CCP couples every touching pair, so the
 * impulse reaches the whole row in the first step (all spheres move with v/(N+1), a
 * perfectly plastic collision) and the arrival time is h for every sphere.
 *
 * Arrival time of sphere i: the first time its speed exceeds --threshold x v, interpolated
 * linearly between steps. The wave speed is the inverse slope of a least-squares line of
 * arrival time against position over spheres fit_from .. N-1 (the wave has formed; the last
 * sphere, a free end, is left out). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clab_analytic.h"
#include "clab_csv.h"
#include "force_law.h"
#include "xp.h"

#define MAXN 1000
#define MAXL 4

typedef struct chain_opts {
    xp_common c;
    int n;                 /* spheres in the row (the striker comes in addition) */
    double v;              /* striker speed [m/s] */
    double R, rho;         /* sphere radius [m], density [kg/m^3] */
    double E, nu, cor;     /* material */
    int law[MAXL], nlaw;   /* penalty force laws run as cases (CLAB_PENALTY_HERTZ/HOOKE) */
    double hpen;           /* penalty step [s]; 0 = contact time / 200, 1-2-5 rounded */
    double hdvi;           /* DVI step [s] */
    double threshold;      /* arrival when speed > threshold v */
    int fit_from;          /* first sphere of the wave-speed fit (1-based) */
    int samples;           /* rows of the velocity series */
} chain_opts;

typedef struct chain_result {
    double *arrival;  /* [n] arrival time of sphere i (index i - 1) [s], nan if never */
    double *vmax;     /* [n] largest speed of each sphere [m/s] */
    double speed;     /* fitted wave speed [m/s] (inf: every arrival at the same time) */
    double t0;        /* intercept of the fit [s] */
    double v_wave;    /* mean peak speed of the fitted spheres [m/s] */
    double theory;    /* theoretical wave speed [m/s] */
    double steps, wall;
} chain_result;

static const char *const law_names[] = {"hooke", "hertz"}; /* indexed by clab_penalty_model */

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

/* the scene: striker (body 0) at x = 0 touching sphere 1 at x = a, ..., sphere N at N a */
static clab_world *chain_world(const chain_opts *o, clab_error *err)
{
    clab_world_def wd = clab_default_world_def();
    wd.gravity = clab_v3(0.0, 0.0, 0.0);
    clab_world *w = clab_world_create(&wd);
    if (!w) return NULL;
    clab_material m = clab_default_material();
    m.E = o->E;
    m.nu = o->nu;
    m.cor = o->cor;
    m.mu = 0.0; /* a straight row: no tangential forces */
    if (clab_world_add_material(w, &m, err) < 0) goto fail;
    for (int i = 0; i <= o->n; i++) {
        clab_body_def d = clab_default_body_def();
        if (i == 0) snprintf(d.name, sizeof d.name, "striker");
        else snprintf(d.name, sizeof d.name, "sphere%d", i);
        d.shape = clab_sphere(o->R);
        d.density = o->rho;
        d.r = clab_v3(2.0 * o->R * i, 0.0, 0.0);
        d.rdot = clab_v3(i == 0 ? o->v : 0.0, 0.0, 0.0);
        if (clab_world_add_body(w, &d, err) < 0) goto fail;
    }
    return w;
fail:
    clab_world_destroy(w);
    return NULL;
}

/* the penalty model of a run (from the backend's options in force): the Hertz constant K
 * [N/m^1.5] or Hooke's k [N/m], and the duration of one sphere-sphere collision at v [s] */
static void chain_model(const chain_opts *o, const clab_sim *s, int *hooke, double *K, double *tc)
{
    const clab_world *w = s->world;
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
    double meff = 0.5 * w->bodies[0].m, Reff = 0.5 * o->R;
    *hooke = law.model == CLAB_PENALTY_HOOKE;
    if (*hooke) *K = clab_penalty_coefficients(&law, &pp, 1.0, meff, Reff).kn;
    else *K = pp.kn > 0.0 ? pp.kn : clab_analytic_hertz_K(pp.Estar, Reff);
    *tc = clab_penalty_contact_time(&law, &pp, meff, Reff, o->v);
    clab_options_free(&m);
}

/* Nesterenko's solitary-wave speed for peak particle speed vm, or the linear chain's sound
 * speed (see the top of this file) */
static double chain_theory(int hooke, double K, double m, double a, double vm)
{
    return hooke ? clab_analytic_chain_sound_speed(K, m, a) : clab_analytic_nesterenko_speed(K, m, a, vm);
}

/* the running quantities of a case, as the checkpoint keeps them: every sphere's arrival
 * time, peak speed and last speed, and the time spent [s] */
static void chain_pack(double *v, int n, const chain_result *res, const double *vprev, double wall)
{
    memcpy(v, res->arrival, (size_t)n * sizeof *v);
    memcpy(v + n, res->vmax, (size_t)n * sizeof *v);
    memcpy(v + 2 * n, vprev, (size_t)n * sizeof *v);
    v[3 * n] = wall;
}

/* a case while it runs: what xp_case_run's chain_at and chain_pack_run keep */
typedef struct chain_run {
    const chain_opts *o;
    clab_sim *s;
    chain_result *res;
    double *vprev;     /* [n] every sphere's speed at the last step */
    double *vals;      /* [3 n + 1] the checkpoint's running values */
    double h, vth;     /* step [s], arrival threshold [m/s] */
    int compliant;     /* a force law: arrivals interpolated within the step */
    long nsteps, every;
    double t0, wall0;  /* wall clock at the start, time spent before a restart [s] */
} chain_run;

static void chain_pack_run(void *ctx)
{
    chain_run *r = ctx;
    chain_pack(r->vals, r->o->n, r->res, r->vprev, r->wall0 + now_s() - r->t0);
}

/* step k of a case: arrivals and peak speeds, the row of velocities when due */
static int chain_at(void *ctx, long k, int done_before, double *row)
{
    chain_run *r = ctx;
    const clab_world *w = r->s->world;
    chain_result *res = r->res;
    const int n = r->o->n;
    for (int i = 0; i < n && !done_before; i++) {
        double vi = fabs(w->bodies[i + 1].rdot.x);
        res->vmax[i] = fmax(res->vmax[i], vi);
        /* arrival: first crossing of the threshold, interpolated within the step */
        if (k > 0 && isnan(res->arrival[i]) && vi > r->vth) {
            double x = (r->vth - r->vprev[i]) / (vi - r->vprev[i]);
            res->arrival[i] = r->compliant ? w->t - r->h + fmin(fmax(x, 0.0), 1.0) * r->h : w->t;
        }
        r->vprev[i] = vi;
    }
    if (done_before || !(k % r->every == 0 || k == r->nsteps)) return 0;
    row[0] = w->t;
    for (int i = 0; i <= n; i++) row[i + 1] = w->bodies[i].rdot.x;
    return 1;
}

/* Run one (method, law) case: the velocity series, the arrival file, *res. Returns 0, 1 on
 * failure, 2 when stopped (signal, --stop-after; *status: the exit status). */
static int chain_case(chain_opts *o, const xp_method *cm, int law, double h, double t_end, chain_result *res,
                      double *hused, char *sfile, char *afile, size_t flen, xp_progress *pb, double pb0, double pbspan,
                      clab_csv *sum, int *status)
{
    clab_error err;
    clab_world *w = chain_world(o, &err);
    if (!w) {
        fprintf(stderr, "contactlab chain: %s\n", err.msg);
        return 1;
    }
    /* pen: the force law of penalty/force_law.h, with its theory; compliant: any force law */
    const int pen = cm->kind == XP_KIND_PENALTY, compliant = cm->kind != XP_KIND_CCP, n = o->n;
    const char *method = cm->name;
    const double a = 2.0 * o->R, m = w->bodies[0].m;
    clab_options extra;
    clab_options_init(&extra);
    if (pen) clab_options_set(&extra, "model", law_names[law], "--laws");
    clab_sim *s = xp_sim(&o->c, w, cm, h > 0.0 ? h : 1e-7, &extra);
    clab_options_free(&extra);
    if (!s) {
        clab_world_destroy(w);
        return 1;
    }
    int hooke = 0;
    double K = 0.0, tc = 0.0;
    if (pen) chain_model(o, s, &hooke, &K, &tc);
    if (h <= 0.0) { /* penalty default: 200 steps per sphere-sphere collision; another force
                     * law's: a tenth of its stable step */
        double hs = !pen && s->type->stable_step ? s->type->stable_step(s->self, w) : 0.0;
        h = round125(pen ? tc / 200.0 : hs > 0.0 ? 0.1 * hs : 1e-7);
        s->h = h;
    }
    *hused = h;
    const char *cname = pen ? law_names[hooke ? 0 : 1] : compliant ? "own" : "rigid";
    snprintf(sfile, flen, "chain-series-%s-%s-h_%g.csv", cname, method, h);
    snprintf(afile, flen, "chain-arrival-%s-%s-h_%g.csv", cname, method, h);

    /* metadata shared by both files */
    clab_options meta;
    clab_options_init(&meta);
    char v[64];
    clab_options_set(&meta, "experiment", "chain", NULL);
    xp_method_meta(cm, &meta);
    clab_options_set(&meta, "contact_law", pen ? (hooke ? "hooke" : "hertz") : compliant ? "the backend's own" : "rigid (DVI)",
                     NULL);
#define META(k, val) (snprintf(v, sizeof v, "%.17g", (double)(val)), clab_options_set(&meta, k, v, NULL))
    META("n_spheres", n);
    META("v_striker_m_s", o->v);
    META("R_m", o->R);
    META("a_m", a);
    META("m_kg", m);
    META("t_end_s", t_end);
    META("threshold", o->threshold);
    META("fit_from", o->fit_from);
    if (pen) {
        META(hooke ? "k_N_m" : "K_N_m1.5", K);
        META("collision_time_s", tc);
    }
    clab_options_set(&meta, "theory", pen ? (hooke ? "linear chain: c0 = a sqrt(k/m)"
                                                   : "Nesterenko: V_s = (16/25)^(1/5) c^(4/5) v_m^(1/5), c^2 = K a^(5/2)/m")
                                          : "rigid contacts: every sphere moves after the first step",
                     NULL);
    clab_sim_meta(s, &meta);
#undef META

    /* the velocity series: t and every sphere's velocity along the row */
    char **cols = calloc((size_t)n + 2, sizeof *cols);
    double *row = calloc((size_t)n + 2, sizeof *row);
    res->arrival = malloc((size_t)n * sizeof *res->arrival);
    res->vmax = calloc((size_t)n, sizeof *res->vmax);
    double *vprev = calloc((size_t)n, sizeof *vprev);
    const size_t nvals = 3 * (size_t)n + 1;
    double *vals = calloc(nvals, sizeof *vals);
    int rc = 1;
    clab_csv *csv = NULL, *acsv = NULL;
    xp_guard guard;
    memset(&guard, 0, sizeof guard);
    const int flags = o->c.force || o->c.restart[0] ? CLAB_CSV_OVERWRITE : 0;
    if (!cols || !row || !res->arrival || !res->vmax || !vprev || !vals) {
        fprintf(stderr, "contactlab chain: out of memory\n");
        goto done;
    }
    for (int i = 0; i < n; i++) res->arrival[i] = NAN;
    for (int i = 0; i <= n + 1; i++) {
        cols[i] = malloc(32);
        if (!cols[i]) goto done;
        if (i == 0) snprintf(cols[i], 32, "t_s");
        else if (i == 1) snprintf(cols[i], 32, "v_striker_m_s");
        else snprintf(cols[i], 32, "v_%d_m_s", i - 1);
    }
    char path[2048];
    xp_path(&o->c, sfile, path, sizeof path);
    int resumed = xp_case_begin(&o->c, &guard, s, sum, 2, vals, nvals);
    if (resumed < 0) goto done;
    csv = xp_series_open(&o->c, &guard, resumed, path, flags, &meta, (const char *const *)cols, (size_t)n + 2);
    if (!csv) goto done;

    const long steps = xp_steps(&o->c, t_end, h);
    if (steps < 0) goto done;
    chain_run r = {o, s, res, vprev, vals, h, o->threshold * o->v, compliant, steps, 0,
                   now_s(), 0.0};
    r.every = (long)fmax(1.0, floor((double)r.nsteps / o->samples + 0.5));
    if (resumed) { /* the running quantities at the checkpoint */
        memcpy(res->arrival, vals, (size_t)n * sizeof *vals);
        memcpy(res->vmax, vals + n, (size_t)n * sizeof *vals);
        memcpy(vprev, vals + 2 * n, (size_t)n * sizeof *vals);
        r.wall0 = vals[3 * n];
    }
    const xp_case_loop loop = {&o->c, &guard, s, csv, row, (size_t)n + 2, r.nsteps, resumed, pb, pb0, pbspan,
                               chain_at, chain_pack_run, &r};
    rc = xp_case_run(&loop, status);
    if (rc) goto done;
    rc = 1;
    const long nsteps = r.nsteps;
    const double t0 = r.t0, wall0 = r.wall0;
    res->steps = (double)nsteps;
    res->wall = wall0 + now_s() - t0;

    /* the wave speed: least squares of arrival against position on spheres fit_from .. N-1 */
    double sn = 0, sx = 0, st = 0, sxx = 0, sxt = 0, svm = 0;
    for (int i = o->fit_from; i <= n - 1; i++) {
        double t = res->arrival[i - 1], x = (i - 1) * a;
        if (isnan(t)) continue;
        sn += 1;
        sx += x;
        st += t;
        sxx += x * x;
        sxt += x * t;
        svm += res->vmax[i - 1];
    }
    double den = sn * sxx - sx * sx;
    double slope = sn >= 2 && den > 0 ? (sn * sxt - sx * st) / den : NAN;
    /* arrivals that differ by less than half a step along the fitted spheres: all at once */
    if (!isnan(slope) && fabs(slope) * (double)(n - 1 - o->fit_from) * a < 0.5 * h) slope = 0.0;
    res->speed = slope > 0.0 ? 1.0 / slope : (slope <= 0.0 ? INFINITY : NAN);
    res->t0 = sn > 0 ? (st - (isnan(slope) ? 0.0 : slope) * sx) / sn : NAN;
    res->v_wave = sn > 0 ? svm / sn : NAN;
    res->theory = pen ? chain_theory(hooke, K, m, a, res->v_wave) : compliant ? NAN : INFINITY;

    /* the arrival file: one row per sphere, with the theoretical line through the fit's
     * centroid (penalty) or the first step (DVI) */
    xp_path(&o->c, afile, path, sizeof path);
    acsv = clab_csv_open(path, flags, &err);
    static const char *const acols[] = {"sphere", "x_m", "arrival_s", "arrival_theory_s", "max_speed_m_s"};
    char tv[64];
    snprintf(tv, sizeof tv, "%.17g", res->theory);
    if (!acsv || clab_csv_meta(acsv, &meta, o->c.argc, o->c.argv, &err) ||
        clab_csv_meta_kv(acsv, "wave_speed_theory_m_s", tv, &err) ||
        clab_csv_meta_kv(acsv, "arrival_theory_s", pen ? "t at the fit's centroid + (x - x_centroid) / V_theory" : "h (the first step)", &err) ||
        clab_csv_header(acsv, acols, 5, &err)) {
        fprintf(stderr, "contactlab chain: %s\n", err.msg);
        goto done;
    }
    double xc = sn > 0 ? sx / sn : 0.0, tcen = sn > 0 ? st / sn : 0.0;
    for (int i = 1; i <= n; i++) {
        double x = (i - 1) * a;
        double tth = pen ? tcen + (x - xc) / res->theory : h;
        double arow[5] = {i, x, res->arrival[i - 1], tth, res->vmax[i - 1]};
        if (clab_csv_row(acsv, arow, 5, &err)) {
            fprintf(stderr, "contactlab chain: %s\n", err.msg);
            goto done;
        }
    }
    rc = 0;
done:
    rc = xp_case_end(&o->c, &guard, csv, rc);
    if (acsv && clab_csv_close(acsv, &err) && rc == 0) {
        fprintf(stderr, "contactlab chain: %s\n", err.msg);
        rc = 1;
    }
    if (cols)
        for (int i = 0; i <= n + 1; i++) free(cols[i]);
    free(cols);
    free(row);
    free(vprev);
    free(vals);
    clab_options_free(&meta);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

static void chain_help(const xp_common *c)
{
    printf("usage: contactlab chain [options]\n\n"
           "A row of N touching equal spheres (steel by default, no gravity) struck at one end by an\n"
           "equal sphere with speed v. Penalty contacts carry a wave at finite speed: Nesterenko's\n"
           "solitary wave V_s = (16/25)^(1/5) c^(4/5) v_m^(1/5), c^2 = K a^(5/2)/m, for Hertz contacts,\n"
           "the sound speed a sqrt(k/m) for linear (Hooke) ones. The rigid contacts of the\n"
           "Tasora-Anitescu CCP move the whole row in the first step. Arrival time of a sphere: its\n"
           "speed first exceeds threshold x v.\n"
           "Writes chain-series-<law>-<method>-h_<h>.csv (velocities), chain-arrival-*.csv (arrival\n"
           "times), chain-summary.csv and figures.\n\n"
           "Experiment options:\n"
           "  --n N            spheres in the row, besides the striker (default 40)\n"
           "  --v S            striker speed [m/s] (default 1)\n"
           "  --laws LIST      penalty force laws run as cases: hertz, hooke (default hertz,hooke)\n"
           "  --R M            sphere radius [m] (default 0.005)\n"
           "  --rho KG_M3      density [kg/m^3] (default 7800)\n"
           "  --E PA           Young's modulus [Pa] (default 2e11)\n"
           "  --nu X           Poisson ratio (default 0.3)\n"
           "  --cor X          restitution coefficient (default 1: elastic, no dashpot)\n"
           "  --h-penalty S    step [s] of the force-law methods (default: 1/200 of a collision of two\n"
           "                   spheres at v, 1-2-5 rounded)\n"
           "  --h-dvi S        step [s] of the rigid-contact (CCP) methods (default 1e-5)\n"
           "  --threshold X    arrival when a sphere's speed exceeds X v (default 0.01; below\n"
           "                   1/(N+1), DVI's common speed)\n"
           "  --fit-from I     first sphere of the wave-speed fit (default 10; the fit ends at N-1)\n"
           "  --samples N      rows of the velocity series (default 1000)\n"
           "  --t-end S        simulated time [s] (default: 1.5 times the slower wave's transit)\n\n"
           "--h sets the step of every method at once. The force law is chosen with --laws, not\n"
           "--opt penalty:model=...\n\n");
    xp_common_help(c);
}

int xp_chain(int argc, char **argv)
{
    static const struct option longopts[] = {XP_COMMON_LONGOPTS,
                                             {"n", required_argument, 0, 1000},
                                             {"v", required_argument, 0, 1001},
                                             {"laws", required_argument, 0, 1002},
                                             {"R", required_argument, 0, 1003},
                                             {"rho", required_argument, 0, 1004},
                                             {"E", required_argument, 0, 1005},
                                             {"nu", required_argument, 0, 1006},
                                             {"cor", required_argument, 0, 1007},
                                             {"h-penalty", required_argument, 0, 1008},
                                             {"h-dvi", required_argument, 0, 1009},
                                             {"threshold", required_argument, 0, 1010},
                                             {"fit-from", required_argument, 0, 1011},
                                             {"samples", required_argument, 0, 1012},
                                             {0, 0, 0, 0}};
    chain_opts o;
    memset(&o, 0, sizeof o);
    xp_common_init(&o.c, "chain", argc, argv);
    o.n = 40;
    o.v = 1.0;
    o.R = 0.005;
    o.rho = 7800.0;
    o.E = 2e11;
    o.nu = 0.3;
    o.cor = 1.0;
    o.law[0] = CLAB_PENALTY_HERTZ;
    o.law[1] = CLAB_PENALTY_HOOKE;
    o.nlaw = 2;
    o.hdvi = 1e-5;
    o.threshold = 0.01;
    o.fit_from = 10;
    o.samples = 1000;
    int rc = 2, opt;
    double x;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        /* every problem of the command line is reported (xp_option_errors below) */
        int r = xp_common_option(&o.c, opt, optarg);
        if (r != 0) continue;
        int bad = 0;
        switch (opt) {
        case '?' + 256: chain_help(&o.c); rc = 0; goto out;
        case 1000: if (!(bad = xp_parse_double("n", optarg, 2, MAXN, &x))) o.n = (int)x; break;
        case 1001: bad = xp_parse_double("v", optarg, 1e-9, 1e4, &o.v); break;
        case 1002: {
            char buf[256];
            snprintf(buf, sizeof buf, "%s", optarg);
            o.nlaw = 0;
            if (xp_list_check("laws", optarg)) {
                bad = 1;
                break;
            }
            for (char *sv = NULL, *tok = strtok_r(buf, ",", &sv); tok; tok = strtok_r(NULL, ",", &sv)) {
                if (o.nlaw == MAXL) { bad = 1; break; }
                if (strcmp(tok, "hertz") == 0) o.law[o.nlaw++] = CLAB_PENALTY_HERTZ;
                else if (strcmp(tok, "hooke") == 0) o.law[o.nlaw++] = CLAB_PENALTY_HOOKE;
                else bad = 1;
            }
            if (bad || o.nlaw == 0) {
                xp_option_error("contactlab chain: --laws '%s' is not a list of: hertz, hooke\n", optarg);
                bad = 1;
            }
            break;
        }
        case 1003: bad = xp_parse_double("R", optarg, 1e-6, 100, &o.R); break;
        case 1004: bad = xp_parse_double("rho", optarg, 1e-3, 1e6, &o.rho); break;
        case 1005: bad = xp_parse_double("E", optarg, 1.0, 1e15, &o.E); break;
        case 1006: bad = xp_parse_double("nu", optarg, -0.999, 0.499, &o.nu); break;
        case 1007: bad = xp_parse_double("cor", optarg, 1e-6, 1.0, &o.cor); break;
        case 1008: bad = xp_parse_double("h-penalty", optarg, 1e-15, 0.1, &o.hpen); break;
        case 1009: bad = xp_parse_double("h-dvi", optarg, 1e-12, 0.1, &o.hdvi); break;
        case 1010: bad = xp_parse_double("threshold", optarg, 1e-9, 1.0, &o.threshold); break;
        case 1011: if (!(bad = xp_parse_double("fit-from", optarg, 1, MAXN, &x))) o.fit_from = (int)x; break;
        case 1012: if (!(bad = xp_parse_double("samples", optarg, 10, 1e7, &x))) o.samples = (int)x; break;
        default: xp_option_unknown(); break;
        }
        (void)bad; /* reported and counted: go on with the next option */
    }
    for (int i = optind; i < argc; i++) xp_option_error("contactlab chain: unexpected argument '%s'\n", argv[i]);
    if (xp_option_errors("contactlab chain")) goto out;
    const xp_method *penalty = xp_method_find(&o.c, "penalty");
    if (xp_user_option(&o.c, penalty, "model")) {
        fprintf(stderr, "contactlab chain: choose the force law with --laws, not --opt penalty:model=...\n");
        goto out;
    }
    if (o.fit_from > o.n - 2) o.fit_from = o.n / 2 > 1 ? o.n / 2 : 1;
    if (o.c.h > 0.0) o.hpen = o.hdvi = o.c.h;
    /* default end: 1.5 transits of the slower law's wave (speeds from a trial model at v) */
    double t_end = o.c.t_end;
    if (t_end <= 0.0) {
        double a = 2.0 * o.R, m = o.rho * 4.0 / 3.0 * M_PI * pow(o.R, 3.0), slowest = INFINITY;
        clab_error err;
        for (int l = 0; l < o.nlaw; l++) {
            clab_world *w = chain_world(&o, &err);
            clab_options extra;
            clab_options_init(&extra);
            clab_options_set(&extra, "model", law_names[o.law[l]], NULL);
            clab_sim *s = w ? xp_sim(&o.c, w, penalty, 1e-7, &extra) : NULL;
            clab_options_free(&extra);
            if (s) {
                int hooke;
                double K, tc;
                chain_model(&o, s, &hooke, &K, &tc);
                slowest = fmin(slowest, chain_theory(hooke, K, m, a, 0.6 * o.v));
                clab_sim_destroy(s);
            }
            clab_world_destroy(w);
            if (!s) goto out;
        }
        t_end = 1.5 * o.n * a / (isfinite(slowest) ? slowest : 1.0);
        int any_force = 0;
        for (int mi = 0; mi < o.c.nmethod; mi++) any_force |= o.c.method[mi]->kind != XP_KIND_CCP;
        if (!any_force) t_end = 20.0 * o.hdvi;
    }
    if (xp_out_prepare(&o.c)) {
        rc = 1;
        goto out;
    }

    char spath[2048];
    xp_path(&o.c, "chain-summary.csv", spath, sizeof spath);
    static const char *const scols[] = {"method",
                                        "contact_law",
                                        "n_spheres",
                                        "v_striker_m_s",
                                        "h_s",
                                        "wave_speed_m_s",
                                        "wave_speed_theory_m_s",
                                        "wave_speed_rel_err",
                                        "v_wave_m_s",
                                        "first_arrival_s",
                                        "last_arrival_s",
                                        "last_arrival_steps",
                                        "steps",
                                        "wall_s",
                                        "arrival_file",
                                        "series_file"};
    enum { NS = sizeof scols / sizeof scols[0] };
    clab_options meta;
    clab_options_init(&meta);
    clab_options_set(&meta, "experiment", "chain", NULL);
    clab_options_set(&meta, "wave_speed_m_s", "1 / slope of arrival time against position, spheres fit_from .. N-1 (inf: all at once)", NULL);
    clab_options_set(&meta, "wave_speed_theory_m_s", "hertz: Nesterenko (16/25)^(1/5) c^(4/5) v_wave^(1/5), c^2 = K a^(5/2)/m; hooke: a sqrt(k/m); DVI: inf", NULL);
    clab_options_set(&meta, "v_wave_m_s", "mean peak speed of the fitted spheres (the solitary wave's v_m)", NULL);
    clab_options_set(&meta, "last_arrival_steps", "arrival at the last sphere in steps of h", NULL);
    char sv[64];
    snprintf(sv, sizeof sv, "%.17g", o.threshold);
    clab_options_set(&meta, "threshold", sv, NULL);
    snprintf(sv, sizeof sv, "%d", o.fit_from);
    clab_options_set(&meta, "fit_from", sv, NULL);
    snprintf(sv, sizeof sv, "%.17g", t_end);
    clab_options_set(&meta, "t_end_s", sv, NULL);
    /* a restart continues the summary: the rows of the cases finished before stay */
    clab_csv *sum = xp_summary_begin(&o.c, spath, &meta, scols, NS);
    if (!sum) {
        rc = 1;
        goto out;
    }

    printf("%-8s %-6s %9s %11s %11s %10s %9s %12s %12s %7s\n", "method", "law", "h_s", "speed", "theory", "rel_err",
           "v_wave", "first_arr", "last_arr", "steps");
    rc = 0;
    int ncases = 0, icase = 0;
    for (int mi = 0; mi < o.c.nmethod; mi++) ncases += o.c.method[mi]->kind == XP_KIND_PENALTY ? o.nlaw : 1;
    xp_progress pb;
    char label[128];
    snprintf(label, sizeof label, "chain, %d runs", ncases);
    xp_progress_begin(&pb, &o.c, label);
    for (int mi = 0; mi < o.c.nmethod && rc == 0; mi++) {
        const xp_method *cm = o.c.method[mi];
        const char *method = cm->name;
        const int pen = cm->kind == XP_KIND_PENALTY; /* its force laws are cases */
        int nl = pen ? o.nlaw : 1;
        for (int l = 0; l < nl && rc == 0; l++, icase++) {
            chain_result r;
            memset(&r, 0, sizeof r);
            char sfile[512], afile[512];
            double hused = 0.0;
            char clabel[64];
            const char *law = pen ? law_names[o.law[l]] : cm->kind == XP_KIND_CCP ? "rigid" : "own";
            snprintf(clabel, sizeof clabel, "%s %s", method, law);
            if (xp_case_skip(&o.c, clabel)) continue; /* finished before the checkpoint */
            int st = chain_case(&o, cm, o.law[l], xp_method_h(cm, o.hpen, o.hdvi), t_end, &r, &hused,
                                sfile, afile, sizeof sfile, &pb, (double)icase / ncases, 1.0 / ncases, sum, &rc);
            if (st) {
                free(r.arrival);
                free(r.vmax);
                if (st != 2) rc = 1; /* 2: stopped, rc is the exit status */
                break;
            }
            double first = r.arrival[0], last = r.arrival[o.n - 1];
            double rel = pen ? (r.speed - r.theory) / r.theory : NAN;
            enum { NV = NS - 4 };
            double vals[NV] = {o.n, o.v, hused, r.speed, r.theory, rel, r.v_wave, first, last, last / hused,
                               r.steps, r.wall};
            const char *head[] = {method, law}, *tail[] = {afile, sfile};
            if (xp_summary_row(&o.c, sum, head, 2, vals, NV, tail, 2)) rc = 1;
            if (pb.on) fprintf(stderr, "\r%*s\r", 80, "");
            printf("%-8s %-6s %9.1e %11.5g %11.5g %10.2e %9.4f %12.4e %12.4e %7.4g\n", method, law, hused, r.speed,
                   r.theory, rel, r.v_wave, first, last, last / hused);
            fflush(stdout);
            free(r.arrival);
            free(r.vmax);
        }
    }
    if (rc == 0) xp_progress_end(&pb);
    rc = xp_finish(&o.c, rc, sum, spath, "chain-*.csv", "chain.gp", "chain-arrival.png, chain-velocity.png");
out:
    xp_common_free(&o.c);
    return rc;
}
