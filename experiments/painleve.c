/* painleve.c: contactlab painleve: Painleve's rod, a uniform thin box with one end on a rough
 * plane, sliding towards that end, run under every method at points (theta, mu) inside and
 * outside the region where the classical problem fails.
 *
 * The classical (acceleration-level) problem (Stewart 2000, SIAM Review 42(1), Sect. 1.3): the
 * end's normal acceleration is a_n = A + B lambda_n while it slides, with (clab_analytic.h)
 *     A = -g + l theta'^2 sin theta,   m B = 1 + 3 cos^2 theta - 3 mu sin theta cos theta
 * for the uniform rod (J = m l^2/3). B < 0 needs mu > mu*(theta) = (1 + 3 cos^2)/(3 sin cos),
 * whose minimum is 4/3 at tan theta = 2; there the complementarity lambda_n >= 0, a_n >= 0,
 * lambda_n a_n = 0 has no solution when A < 0 (inconsistent) and two when A > 0
 * (indeterminate). The velocity-level time steppers resolve it by an impulse: a tangential
 * impact stops the sliding at once, with the sticking impulse P_n = 3/4 m v0 sin cos (in the
 * friction cone exactly inside the region). A penalty contact cannot stop the end at once: the
 * end digs in, its normal force grows (B < 0: the force pushes the end further in) until
 * friction stops the sliding, a spike whose height grows with the stiffness while its impulse
 * tends to the rigid one.
 *
 * The box's own corner (the bottom edge of half-thickness w) sits a little off the rod's axis,
 * so the driver's A, B and mu* are the box's (clab_analytic_painleve_AB with
 * clab_analytic_painleve_box_corner and J = m (l^2 + w^2)/3); the region figure draws both.
 * The end's bottom edge holds two box corners (--end edge, the default); --end corner rolls the
 * rod 45 deg about its axis so that one corner, w sqrt 2 below the axis, touches (pl_corner). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clab_analytic.h"
#include "painleve.h"

static void pl_help(const xp_common *c)
{
    printf("usage: contactlab painleve [options]\n\n"
           "Painleve's rod: a uniform thin box (half extents l, w, w) with one end on a rough plane, turned up\n"
           "by theta, its end sliding at v0 towards the end's side (the end leads). Sliding, the end's normal\n"
           "acceleration is a_n = A + B lambda_n with A = -g + l theta'^2 sin theta and\n"
           "m B = 1 + 3 cos^2 theta - 3 mu sin theta cos theta (J = m l^2/3; Stewart 2000, Sect. 1.3): for\n"
           "mu > mu*(theta) = (1 + 3 cos^2)/(3 sin cos) (at least 4/3, at tan theta = 2) B < 0 and the\n"
           "classical problem has no solution (A < 0) or two (A > 0). Every method runs at every point;\n"
           "the summary says whether the sliding stops by a tangential impact (the end's speed falls below\n"
           "1 %% of v0 during or right after a normal force above --big m g), when, and its impulse, beside\n"
           "the rigid sticking impulse P_n = 3/4 m v0 sin cos. Force-law methods run once per --E.\n"
           "Writes painleve-region.csv (mu*(theta)), one series per (point, method[, E]), painleve-summary.csv\n"
           "and figures.\n\n"
           "Experiment options:\n"
           "  --points LIST     run points THETA_DEG:MU, comma-separated (default 60:2,60:0.3: inside, outside)\n"
           "  --v0 V            the end's sliding speed at t = 0 [m/s] (default 1)\n"
           "  --thetadot W      the rod's angular velocity at t = 0 [rad/s] (default 0; theta grows when > 0);\n"
           "                    the center's vertical velocity keeps the end's normal velocity 0\n"
           "  --l M, --w M      half-length and half-thickness of the rod [m] (default 0.5, 0.01)\n"
           "  --end edge|corner the rod's end on the plane: its bottom edge (default; two box corners touch,\n"
           "                    so the rigid problem has a one-corner and a shared solution), or one corner\n"
           "                    (the rod rolled 45 deg about its axis: the corner w sqrt 2 below the axis)\n"
           "  --mass KG         rod mass [kg] (default 1)\n"
           "  --E LIST          Young's moduli of the force-law runs [Pa] (default 1e7,1e8,1e9)\n"
           "  --nu X, --cor X   Poisson ratio (default 0.3) and restitution (default 0.3) of the penalty law\n"
           "  --h-penalty S     step of the force-law methods [s] (default: a tenth of the stable step,\n"
           "                    1-2-5 rounded)\n"
           "  --h-dvi S         step of the rigid-contact methods [s] (default 1e-3)\n"
           "  --sample-dt S     output interval [s] (default 1e-3; every step while F_n > big m g)\n"
           "  --big X           an impulsive normal force exceeds X m g (default 3)\n"
           "  --lift-tol M      the end lifts off when it rises above M [m] (default 1e-3)\n"
           "  --region-thetadot W  theta' of the region figure's second panel [rad/s] (default 5)\n"
           "  --quick           t_end 0.05 s and the first two --E only (a smoke run)\n"
           "  --t-end S         simulated time [s] (default 0.4)\n\n"
           "Default methods: all.\n\n");
    xp_common_help(c);
}

/* "THETA:MU,THETA:MU" */
static int parse_points(const char *arg, pl_opts *o)
{
    if (xp_list_check("points", arg)) return -1;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", arg);
    o->npoint = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(tok, ':');
        if (!colon) {
            xp_option_error("contactlab painleve: --points '%s': '%s' is not THETA_DEG:MU (e.g. 60:2)\n", arg, tok);
            return -1;
        }
        if (o->npoint == PL_MAXP) {
            xp_option_error("contactlab painleve: --points takes at most %d points\n", PL_MAXP);
            return -1;
        }
        *colon = '\0';
        double th, mu;
        if (xp_parse_double("points (theta in degrees)", tok, 1.0, 89.0, &th) ||
            xp_parse_double("points (mu)", colon + 1, 1e-6, 100.0, &mu))
            return -1;
        o->theta[o->npoint] = th * M_PI / 180.0;
        o->mu[o->npoint++] = mu;
    }
    return 0;
}

/* painleve-region.csv: mu*(theta) of the rod and of the box, A at the runs' theta' and at the
 * figure's second theta' */
static int write_region(const pl_opts *o)
{
    char path[2048];
    xp_path(&o->c, "painleve-region.csv", path, sizeof path);
    clab_error err;
    clab_options meta;
    clab_options_init(&meta);
    char v[64];
    const double g = 9.81, k2 = (o->l * o->l + o->w * o->w) / 3.0;
    clab_options_set(&meta, "experiment", "painleve", NULL);
#define META(k, val) (snprintf(v, sizeof v, "%.17g", (double)(val)), clab_options_set(&meta, k, v, NULL))
    META("l_m", o->l);
    META("w_m", o->w);
    META("g_m_s2", g);
    META("thetadot_rad_s", o->thetadot);
    META("region_thetadot_rad_s", o->region_thetadot);
    META("mu_star_min", 4.0 / 3.0);
    META("theta_mu_star_min_deg", atan(2.0) * 180.0 / M_PI);
#undef META
    clab_options_set(&meta, "mu_star_rod", "(1 + 3 cos^2 theta)/(3 sin theta cos theta): B < 0 above it (uniform rod, w = 0)", NULL);
    clab_options_set(&meta, "mu_star_box", "(k2 + px^2)/(px pz) of the box's corner, k2 = (l^2 + w^2)/3", NULL);
    clab_options_set(&meta, "A_run_m_s2", "A = -g - pz theta'^2 of the box at the runs' theta' (A < 0 with B < 0: inconsistent)", NULL);
    clab_options_set(&meta, "A_region_m_s2", "A at region_thetadot (A > 0 with B < 0: indeterminate)", NULL);
    static const char *const cols[] = {"theta_deg", "mu_star_rod", "mu_star_box", "A_run_m_s2", "A_region_m_s2"};
    clab_csv *f = clab_csv_open(path, o->c.force ? CLAB_CSV_OVERWRITE : 0, &err);
    int rc = !f || clab_csv_meta(f, &meta, o->c.argc, o->c.argv, &err) || clab_csv_header(f, cols, 5, &err);
    for (int i = 1; i < 180 && !rc; i++) { /* every half degree */
        double th = 0.5 * i * M_PI / 180.0, px, pz, A1, A2, B;
        pl_corner(o, th, &px, &pz);
        clab_analytic_painleve_AB(o->mass, k2, px, pz, 0.0, g, o->thetadot, &A1, &B);
        clab_analytic_painleve_AB(o->mass, k2, px, pz, 0.0, g, o->region_thetadot, &A2, &B);
        double row[5] = {0.5 * i, clab_analytic_painleve_rod_mu_star(th), clab_analytic_painleve_mu_star(k2, px, pz),
                         A1, A2};
        rc = clab_csv_row(f, row, 5, &err) != 0;
    }
    if (f && clab_csv_close(f, rc ? NULL : &err)) rc = 1;
    if (rc) fprintf(stderr, "contactlab painleve: %s\n", err.msg);
    clab_options_free(&meta);
    return rc;
}

/* painleve-files.gp: the series of the figures (every run at the first inside point, and the
 * run points), loaded by painleve.gp */
typedef struct pl_trace {
    char file[512], title[160];
    int force_law;
} pl_trace;

static int write_files_gp(const pl_opts *o, const pl_trace *tr, int ntr, int inside)
{
    char path[2048];
    xp_path(&o->c, "painleve-files.gp", path, sizeof path);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "contactlab painleve: cannot write %s\n", path);
        return 1;
    }
    fprintf(f, "# painleve-files.gp: written by contactlab painleve for painleve.gp: the traces at the\n"
               "# first point inside the region and the run points\n");
    fprintf(f, "ntr = %d\narray trfile[%d]\narray trtitle[%d]\narray trforce[%d]\n", ntr, ntr > 0 ? ntr : 1,
            ntr > 0 ? ntr : 1, ntr > 0 ? ntr : 1);
    for (int i = 0; i < ntr; i++)
        fprintf(f, "trfile[%d] = '%s'\ntrtitle[%d] = '%s'\ntrforce[%d] = %d\n", i + 1, tr[i].file, i + 1, tr[i].title,
                i + 1, tr[i].force_law);
    fprintf(f, "rod_end = '%s'\n", o->corner ? "corner" : "edge");
    fprintf(f, "inside_theta = %.17g\ninside_mu = %.17g\n", inside >= 0 ? o->theta[inside] * 180.0 / M_PI : 0.0,
            inside >= 0 ? o->mu[inside] : 0.0);
    fprintf(f, "npt = %d\narray ptheta[%d]\narray pmu[%d]\n", o->npoint, o->npoint, o->npoint);
    for (int i = 0; i < o->npoint; i++)
        fprintf(f, "ptheta[%d] = %.17g\npmu[%d] = %.17g\n", i + 1, o->theta[i] * 180.0 / M_PI, i + 1, o->mu[i]);
    return fclose(f) ? 1 : 0;
}

static const char *const scols[] = {
    "method",        "theta_deg",          "mu",           "mu_star",         "B_times_m",        "A_m_s2",
    "E_Pa",          "h_s",                "t_stop_s",     "t_event_s",       "event_dt_s",       "impulse_n_Ns",
    "impulse_t_Ns",  "stick_impulse_n_Ns", "stick_impulse_t_Ns", "fn_peak_N", "t_peak_s",         "max_height_m",
    "min_height_m",  "vt_final_m_s",       "steps",        "wall_s",          "classical_problem", "outcome",
    "series_file"};
enum { NS = sizeof scols / sizeof scols[0], NV = NS - 4 };

/* the run of method m at point p (E for the force laws): its summary row and printed line */
static int run_one(pl_opts *o, const xp_method *m, int p, double E, double t_end, clab_csv *sum, xp_progress *pb,
                   double pb0, double pbspan, pl_trace *tr, int *ntr, int inside)
{
    char file[512];
    pl_result r;
    if (pl_case(o, m, p, E, t_end, file, sizeof file, &r, pb, pb0, pbspan)) return 1;
    const double g = 9.81, k2 = (o->l * o->l + o->w * o->w) / 3.0;
    double px, pz, A, B, Pt, Pn, lam[2];
    pl_corner(o, o->theta[p], &px, &pz);
    clab_analytic_painleve_AB(o->mass, k2, px, pz, o->mu[p], g, o->thetadot, &A, &B);
    clab_analytic_painleve_stick_impulse(o->mass, k2, px, pz, -o->v0, 0.0, &Pt, &Pn);
    int ns = clab_analytic_painleve_solutions(A, B, lam);
    const char *cls = ns == 0 ? "inconsistent" : ns == 2 ? "indeterminate" : "consistent";
    double vals[NV] = {o->theta[p] * 180.0 / M_PI, o->mu[p], clab_analytic_painleve_mu_star(k2, px, pz),
                       B * o->mass, A, E > 0.0 ? E : NAN, r.h, r.t_stop, r.t_event, r.event_dt, r.imp_n, r.imp_t,
                       Pn, Pt, r.fn_peak, r.t_peak, r.max_height, r.min_height, r.vt_final, r.steps, r.wall};
    const char *tail[] = {cls, r.outcome, file};
    if (xp_summary_row(&o->c, sum, &m->name, 1, vals, NV, tail, 3)) return 1;
    if (pb->on) fprintf(stderr, "\r%*s\r", 80, "");
    char name[48];
    snprintf(name, sizeof name, E > 0.0 ? "%s E=%.0e" : "%s", m->name, E);
    printf("%-22s %5.1f %5.2f %-13s %9.2e %9.4f %9.4f %9.4f %9.4f %10.4g %9.2e  %s\n", name, vals[0], o->mu[p], cls,
           r.h, r.t_stop, r.event_dt, r.imp_n, Pn, r.fn_peak, r.max_height, r.outcome);
    fflush(stdout);
    if (p == inside && *ntr < 2 * XP_MAX_METHODS + PL_MAXE) {
        pl_trace *t = &tr[(*ntr)++];
        snprintf(t->file, sizeof t->file, "%s", file);
        if (E > 0.0) snprintf(t->title, sizeof t->title, "%s, E = %.0e Pa", m->title, E);
        else snprintf(t->title, sizeof t->title, "%s", m->title);
        for (char *c = t->title; *c; c++)
            if (*c == '\'') *c = '`'; /* gnuplot's single-quoted string */
        t->force_law = E > 0.0;
    }
    return 0;
}

int xp_painleve(int argc, char **argv)
{
    static const struct option longopts[] = {
        XP_COMMON_LONGOPTS,          {"points", required_argument, 0, 1000}, {"v0", required_argument, 0, 1001},
        {"thetadot", required_argument, 0, 1002}, {"l", required_argument, 0, 1003},
        {"w", required_argument, 0, 1004},        {"mass", required_argument, 0, 1005},
        {"E", required_argument, 0, 1006},        {"nu", required_argument, 0, 1007},
        {"cor", required_argument, 0, 1008},      {"h-penalty", required_argument, 0, 1009},
        {"h-dvi", required_argument, 0, 1010},    {"sample-dt", required_argument, 0, 1011},
        {"big", required_argument, 0, 1012},      {"lift-tol", required_argument, 0, 1013},
        {"region-thetadot", required_argument, 0, 1014}, {"quick", no_argument, 0, 1015},
        {"end", required_argument, 0, 1016},
        {0, 0, 0, 0}};
    pl_opts o;
    memset(&o, 0, sizeof o);
    xp_common_init(&o.c, "painleve", argc, argv);
    xp_methods_choose(&o.c, "all");
    snprintf(o.c.method_default, sizeof o.c.method_default, "all");
    o.npoint = 2;
    o.theta[0] = o.theta[1] = M_PI / 3;
    o.mu[0] = 2.0;
    o.mu[1] = 0.3;
    o.v0 = 1.0;
    o.l = 0.5;
    o.w = 0.01;
    o.mass = 1.0;
    o.nE = 3;
    o.E[0] = 1e7, o.E[1] = 1e8, o.E[2] = 1e9;
    o.nu = 0.3;
    o.cor = 0.3;
    o.hdvi = 1e-3;
    o.sample_dt = 1e-3;
    o.big = 3.0;
    o.lift_tol = 1e-3;
    o.region_thetadot = 5.0;
    int rc = 2, opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        int r = xp_common_option(&o.c, opt, optarg);
        if (r != 0) continue;
        switch (opt) {
        case '?' + 256: pl_help(&o.c); rc = 0; goto out;
        case 1000: parse_points(optarg, &o); break;
        case 1001: xp_parse_double("v0", optarg, 1e-6, 100.0, &o.v0); break;
        case 1002: xp_parse_double("thetadot", optarg, -100.0, 100.0, &o.thetadot); break;
        case 1003: xp_parse_double("l", optarg, 1e-4, 100.0, &o.l); break;
        case 1004: xp_parse_double("w", optarg, 1e-6, 10.0, &o.w); break;
        case 1005: xp_parse_double("mass", optarg, 1e-9, 1e9, &o.mass); break;
        case 1006: xp_parse_list("E", optarg, 1.0, 1e15, o.E, PL_MAXE, &o.nE); break;
        case 1007: xp_parse_double("nu", optarg, -0.999, 0.499, &o.nu); break;
        case 1008: xp_parse_double("cor", optarg, 1e-6, 1.0, &o.cor); break;
        case 1009: xp_parse_double("h-penalty", optarg, 1e-12, 0.1, &o.hpen); break;
        case 1010: xp_parse_double("h-dvi", optarg, 1e-9, 0.1, &o.hdvi); break;
        case 1011: xp_parse_double("sample-dt", optarg, 1e-9, 10.0, &o.sample_dt); break;
        case 1012: xp_parse_double("big", optarg, 1.0, 1e9, &o.big); break;
        case 1013: xp_parse_double("lift-tol", optarg, 0.0, 10.0, &o.lift_tol); break;
        case 1014: xp_parse_double("region-thetadot", optarg, -100.0, 100.0, &o.region_thetadot); break;
        case 1015: o.quick = 1; break;
        case 1016:
            if (strcmp(optarg, "edge") == 0) o.corner = 0;
            else if (strcmp(optarg, "corner") == 0) o.corner = 1;
            else xp_option_error("contactlab painleve: --end '%s': expected edge or corner\n", optarg);
            break;
        default: xp_option_unknown(); break;
        }
    }
    for (int i = optind; i < argc; i++) xp_option_error("contactlab painleve: unexpected argument '%s'\n", argv[i]);
    if (o.w >= o.l) xp_option_error("contactlab painleve: --w %g must be smaller than --l %g (a thin rod)\n", o.w, o.l);
    if (xp_option_errors("contactlab painleve")) goto out;
    if (o.c.h > 0.0) o.hpen = o.hdvi = o.c.h;
    if (o.quick && o.nE > 2) o.nE = 2;
    const double t_end = o.c.t_end > 0.0 ? o.c.t_end : o.quick ? 0.05 : 0.4;
    if (xp_out_prepare(&o.c) || write_region(&o)) {
        rc = 1;
        goto out;
    }
    char spath[2048];
    xp_path(&o.c, "painleve-summary.csv", spath, sizeof spath);
    clab_options meta;
    clab_options_init(&meta);
    char sv[64];
    clab_options_set(&meta, "experiment", "painleve", NULL);
    snprintf(sv, sizeof sv, "%.17g", t_end);
    clab_options_set(&meta, "t_end_s", sv, NULL);
    snprintf(sv, sizeof sv, "%.17g", o.v0);
    clab_options_set(&meta, "v0_m_s", sv, NULL);
    snprintf(sv, sizeof sv, "%.17g", o.big);
    clab_options_set(&meta, "big", sv, NULL);
    clab_options_set(&meta, "rod_end", o.corner ? "corner (rolled 45 deg about its axis: one point on the plane)" : "edge (two box corners on the plane)", NULL);
    clab_options_set(&meta, "t_stop_s", "first time the end's sliding speed fell below 1 % of v0 (empty: never)", NULL);
    clab_options_set(&meta, "t_event_s", "start of the interval of normal force > big m g during or right after which (within its own duration, at least 10 steps + 1 ms) the sliding stopped: the tangential impact", NULL);
    clab_options_set(&meta, "impulse_n_Ns", "normal impulse over that interval (integral of F_n dt)", NULL);
    clab_options_set(&meta, "stick_impulse_n_Ns", "the rigid sticking impulse P = -W^-1 v of the end (rod: P_n = 3/4 m v0 sin cos); in the cone iff mu >= mu*", NULL);
    clab_options_set(&meta, "B_times_m", "m B of a_n = A + B lambda_n (box corner); < 0 inside the Painleve region", NULL);
    clab_options_set(&meta, "outcome", "tangential impact (stops during an impulsive force), stops (without), lifts off (end above lift_tol), slides", NULL);
    clab_csv *sum = xp_summary_begin(&o.c, spath, &meta, scols, NS);
    if (!sum) {
        rc = 1;
        goto out;
    }
    /* the first point inside the region (B < 0) gets the traces figure */
    int inside = -1;
    for (int p = 0; p < o.npoint && inside < 0; p++) {
        double px, pz, A, B;
        pl_corner(&o, o.theta[p], &px, &pz);
        clab_analytic_painleve_AB(o.mass, (o.l * o.l + o.w * o.w) / 3.0, px, pz, o.mu[p], 9.81, o.thetadot, &A, &B);
        if (B < 0.0) inside = p;
    }
    pl_trace tr[2 * XP_MAX_METHODS + PL_MAXE];
    int ntr = 0;
    printf("%-22s %5s %5s %-13s %9s %9s %9s %9s %9s %10s %9s  %s\n", "method", "theta", "mu", "classical", "h_s",
           "t_stop_s", "event_s", "P_n_Ns", "P_n_rigid", "Fn_peak_N", "max_z_m", "outcome");
    rc = 0;
    for (int mi = 0; mi < o.c.nmethod && rc == 0; mi++) {
        const xp_method *m = o.c.method[mi];
        const int force_law = m->kind != XP_KIND_CCP, nE = force_law ? o.nE : 1;
        xp_progress pb;
        char label[128];
        snprintf(label, sizeof label, "painleve %s", m->name);
        xp_progress_begin(&pb, &o.c, label);
        const int ncase = o.npoint * nE;
        for (int p = 0; p < o.npoint && rc == 0; p++)
            for (int e = 0; e < nE && rc == 0; e++) {
                int ic = p * nE + e;
                rc = run_one(&o, m, p, force_law ? o.E[e] : 0.0, t_end, sum, &pb, (double)ic / ncase, 1.0 / ncase, tr,
                             &ntr, inside);
            }
        if (rc == 0) xp_progress_end(&pb);
    }
    if (rc == 0) rc = write_files_gp(&o, tr, ntr, inside);
    rc = xp_finish(&o.c, rc, sum, spath, "painleve-*.csv", "painleve.gp", "painleve-region.png, painleve-traces.png, painleve-penalty.png");
out:
    xp_common_free(&o.c);
    return rc;
}
