/* scaling.c: cost per step against body count for both backends.
 *
 * For each N a pile is deposited (pile_scene.h, --packing deposit: dense at once, so the
 * contact network is there from the first steps), run untimed for a short warm-up, then a
 * fixed number of steps is timed. One step is the whole of clab_sim_step: collision (grid
 * broad phase + narrow phase), then the backend (penalty: forces and explicit update; DVI:
 * CCP assembly, solve, update). The cost per step is fitted to c N^b by least squares on
 * (ln N, ln cost) (gsl_fit_linear); b is the exponent in the figure. The time is the CPU
 * time of the process (the library is single-threaded), so other load on the machine does
 * not inflate it; the wall-clock time is written too. */
#include "config.h"

#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clab_csv.h"
#include "pile_scene.h"

#define MAXN 16

typedef struct scal_opts {
    xp_common c;
    xp_pile_def def;
    double n[MAXN];
    int nn;
    double hpen, hdvi;     /* steps [s]; hpen 0 = xp_pile_penalty_step */
    double t_warm;         /* untimed warm-up [s] */
    long steps_pen, steps_dvi; /* timed steps */
} scal_opts;

typedef struct scal_result {
    double h, contacts, iterations, cpu, wall, hits;
    long warm, steps;
} scal_result;

static const char *const series_cols[] = {"step", "t_s", "contacts", "iterations", "cpu_s", "wall_s"};
enum { NCOLS = sizeof series_cols / sizeof series_cols[0] };

/* one (method, N): warm up, then time the steps one by one */
static int scal_case(scal_opts *o, const xp_method *sm, int n, scal_result *res, char *file, size_t filelen)
{
    clab_error err;
    xp_pile_info info;
    xp_pile_def d = o->def;
    d.n = n;
    clab_world *w;
    const char *method = sm->name;
    const int ccp = sm->kind == XP_KIND_CCP;
    clab_sim *s = xp_pile_sim(&o->c, &d, sm, xp_method_h(sm, o->hpen, o->hdvi), &w, &info);
    if (!s) return 1;
    double h = s->h;
    memset(res, 0, sizeof *res);
    res->h = h;
    res->warm = (long)ceil(o->t_warm / h - 1e-9);
    res->steps = ccp ? o->steps_dvi : o->steps_pen;
    snprintf(file, filelen, "scaling-n_%d-%s.csv", n, method);
    char path[2048], v[64];
    xp_path(&o->c, file, path, sizeof path);
    clab_options meta;
    clab_options_init(&meta);
    clab_options_set(&meta, "experiment", "scaling", NULL);
    xp_method_meta(sm, &meta);
    xp_pile_meta(&d, &info, &meta);
#define META(k, val) (snprintf(v, sizeof v, "%.17g", (double)(val)), clab_options_set(&meta, k, v, NULL))
    META("h_s", h);
    META("warmup_s", o->t_warm);
    META("warmup_steps", res->warm);
    META("timed_steps", res->steps);
    META("bodies", w->nbodies);
#undef META
    clab_options_set(&meta, "cpu_s", "CPU time of the step (clab_sim_step: collision + backend), single thread", NULL);
    clab_sim_meta(s, &meta);
    clab_csv *csv = clab_csv_open(path, o->c.force ? CLAB_CSV_OVERWRITE : 0, &err);
    int rc = 1;
    if (!csv || clab_csv_meta(csv, &meta, o->c.argc, o->c.argv, &err) ||
        clab_csv_header(csv, series_cols, NCOLS, &err)) {
        fprintf(stderr, "contactlab scaling: %s\n", err.msg);
        goto done;
    }
    clab_csv_set_flush_every(csv, 1024);
    xp_progress pb;
    char label[128];
    snprintf(label, sizeof label, "scaling %s n=%d", method, n);
    xp_progress_begin(&pb, &o->c, label);
    long total = res->warm + res->steps;
    long hits0 = 0;
    for (long k = 0; k < total; k++) {
        if (k == res->warm && s->type->stats) {
            clab_solver_stats ss;
            memset(&ss, 0, sizeof ss);
            s->type->stats(s->self, &ss);
            hits0 = ss.maxiter_hits;
        }
        double c0 = xp_pile_cpu(), w0 = xp_pile_now();
        if (clab_sim_step(s, &err)) {
            fprintf(stderr, "contactlab scaling: %s: %s\n", file, err.msg);
            goto done_loop;
        }
        double cpu = xp_pile_cpu() - c0, wall = xp_pile_now() - w0;
        clab_solver_stats ss;
        memset(&ss, 0, sizeof ss);
        if (s->type->stats) s->type->stats(s->self, &ss);
        if (k >= res->warm) {
            res->cpu += cpu;
            res->wall += wall;
            res->contacts += (double)s->contacts.n;
            res->iterations += (double)ss.iterations;
            res->hits = (double)(ss.maxiter_hits - hits0);
            double row[NCOLS] = {(double)(k - res->warm + 1), w->t, (double)s->contacts.n, (double)ss.iterations,
                                 cpu, wall};
            if (clab_csv_row(csv, row, NCOLS, &err)) {
                fprintf(stderr, "contactlab scaling: %s\n", err.msg);
                goto done_loop;
            }
        }
        xp_progress_update(&pb, (double)(k + 1) / (double)total);
    }
    res->contacts /= (double)res->steps;
    res->iterations /= (double)res->steps;
    rc = 0;
done_loop:
    xp_progress_end(&pb);
done:
    if (csv && clab_csv_close(csv, &err) && rc == 0) {
        fprintf(stderr, "contactlab scaling: %s\n", err.msg);
        rc = 1;
    }
    clab_options_free(&meta);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

static void scal_help(const xp_common *c)
{
    printf("usage: contactlab scaling [options]\n\n"
           "Cost per step against body count: for each N a pile is deposited (dense at once), run for\n"
           "an untimed warm-up, then a number of steps is timed (CPU time of clab_sim_step: collision\n"
           "and backend; single thread). The cost is fitted to c N^b on log-log axes. Writes\n"
           "scaling-n_<N>-<method>.csv (cost of every timed step), scaling-summary.csv (one row per\n"
           "(method, N)), scaling-fit.csv (b and c per method) and figures.\n\n"
           "Experiment options:\n"
           "  --n LIST         sphere counts (default 250,500,1000,2000,4000)\n"
           "  --steps-penalty K timed steps per N of the force-law methods (default 500)\n"
           "  --steps-dvi K    timed steps per N of the rigid-contact (CCP) methods (default 10)\n"
           "  --t-end S        untimed warm-up before the timed steps [s] (default 0.01)\n"
           "  --h-dvi S        step [s] of the rigid-contact (CCP) methods (default 1e-3)\n"
           "  --h-penalty S    step [s] of the force-law methods (default: half the stable step,\n"
           "                   1-2-5 rounded)\n\n"
           "--h sets the step of every method at once. The pile defaults to --packing deposit here.\n"
           "Rigid-contact methods run with tol=" XP_PILE_DVI_TOL " m/s unless --opt dvi:tol=X says otherwise.\n\n%s\n",
           xp_pile_help);
    xp_common_help(c);
}

int xp_scaling(int argc, char **argv)
{
    static const struct option longopts[] = {
        XP_COMMON_LONGOPTS,
        XP_PILE_LONGOPTS,
        {"n", required_argument, 0, 1000},
        {"steps-penalty", required_argument, 0, 1001},
        {"steps-dvi", required_argument, 0, 1002},
        {"h-dvi", required_argument, 0, 1003},
        {"h-penalty", required_argument, 0, 1004},
        {0, 0, 0, 0}};
    scal_opts o;
    memset(&o, 0, sizeof o);
    xp_common_init(&o.c, "scaling", argc, argv);
    o.def = xp_pile_default();
    o.def.packing = XP_PILE_DEPOSIT;
    const double ndef[] = {250, 500, 1000, 2000, 4000};
    o.nn = 5;
    memcpy(o.n, ndef, sizeof ndef);
    o.hdvi = 1e-3;
    o.steps_pen = 500;
    o.steps_dvi = 10;
    int rc = 2, opt;
    double x;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        int r = xp_common_option(&o.c, opt, optarg);
        if (r == 0) r = xp_pile_option(&o.def, opt, optarg);
        if (r < 0) goto out;
        if (r > 0) continue;
        int bad = 0;
        switch (opt) {
        case '?' + 256: scal_help(&o.c); rc = 0; goto out;
        case 1000: bad = xp_parse_list("n", optarg, 1, 1e7, o.n, MAXN, &o.nn); break;
        case 1001: if (!(bad = xp_parse_double("steps-penalty", optarg, 1, 1e9, &x))) o.steps_pen = (long)x; break;
        case 1002: if (!(bad = xp_parse_double("steps-dvi", optarg, 1, 1e9, &x))) o.steps_dvi = (long)x; break;
        case 1003: bad = xp_parse_double("h-dvi", optarg, 1e-9, 0.1, &o.hdvi); break;
        case 1004: bad = xp_parse_double("h-penalty", optarg, 1e-12, 0.1, &o.hpen); break;
        default: xp_option_unknown(); break;
        }
        (void)bad; /* reported and counted: go on with the next option */
    }
    for (int i = optind; i < argc; i++) xp_option_error("contactlab scaling: unexpected argument '%s'\n", argv[i]);
    if (xp_option_errors("contactlab scaling")) goto out;
    if (o.c.h > 0.0) o.hpen = o.hdvi = o.c.h;
    o.t_warm = o.c.t_end > 0.0 ? o.c.t_end : 0.01;
    if (xp_out_prepare(&o.c)) {
        rc = 1;
        goto out;
    }
    char spath[2048], fpath[2048];
    clab_error err;
    xp_path(&o.c, "scaling-summary.csv", spath, sizeof spath);
    xp_path(&o.c, "scaling-fit.csv", fpath, sizeof fpath);
    static const char *const scols[] = {
        "method", "n", "bodies", "h_s", "warmup_steps", "steps", "contacts_mean", "iterations_mean", "maxiter_hits",
        "cpu_s_per_step", "wall_s_per_step", "cpu_s_per_simulated_s", "cpu_s_per_iteration", "series_file"};
    enum { NS = sizeof scols / sizeof scols[0] };
    static const char *const fcols[] = {"method", "exponent_b", "exponent_b_err", "prefactor_c_s", "points",
                                        "n_min", "n_max"};
    clab_options meta;
    clab_options_init(&meta);
    clab_options_set(&meta, "experiment", "scaling", NULL);
    clab_options_set(&meta, "cpu_s_per_step", "mean CPU time of a timed step (collision + backend), single thread",
                     NULL);
    clab_options_set(&meta, "cpu_s_per_iteration", "DVI: cpu_s_per_step / iterations_mean (includes collision)",
                     NULL);
    clab_options_set(&meta, "fit", "cpu_s_per_step = prefactor_c_s * n^exponent_b, least squares on the logs", NULL);
    clab_csv *sum = clab_csv_open(spath, o.c.force ? CLAB_CSV_OVERWRITE : 0, &err);
    clab_csv *fit = NULL;
    if (sum) fit = clab_csv_open(fpath, o.c.force ? CLAB_CSV_OVERWRITE : 0, &err);
    if (!sum || !fit || clab_csv_meta(sum, &meta, o.c.argc, o.c.argv, &err) || clab_csv_header(sum, scols, NS, &err) ||
        clab_csv_meta(fit, &meta, o.c.argc, o.c.argv, &err) || clab_csv_header(fit, fcols, 7, &err)) {
        fprintf(stderr, "contactlab scaling: %s\n", err.msg);
        clab_options_free(&meta);
        clab_csv_close(sum, NULL);
        clab_csv_close(fit, NULL);
        rc = 1;
        goto out;
    }
    clab_options_free(&meta);

    printf("%-8s %6s %8s %9s %10s %11s %11s %12s\n", "method", "n", "h_s", "contacts", "iterations", "cpu_s/step",
           "wall_s/step", "cpu_s/sim_s");
    rc = 0;
    for (int mi = 0; mi < o.c.nmethod && rc == 0; mi++) {
        const xp_method *sm = o.c.method[mi];
        const char *method = sm->name;
        double lx[MAXN], ly[MAXN];
        int np = 0;
        double nmin = INFINITY, nmax = 0.0;
        for (int i = 0; i < o.nn && rc == 0; i++) {
            int n = (int)o.n[i];
            scal_result r;
            char file[512];
            if (scal_case(&o, sm, n, &r, file, sizeof file)) {
                rc = 1;
                break;
            }
            double cps = r.cpu / (double)r.steps;
            double vals[NS - 2] = {n, n + XP_PILE_FIRST, r.h, (double)r.warm, (double)r.steps, r.contacts,
                                   r.iterations, r.hits, cps, r.wall / (double)r.steps, cps / r.h,
                                   r.iterations > 0 ? cps / r.iterations : NAN};
            const char *cells[NS];
            char buf[NS][64];
            cells[0] = method;
            for (int q = 0; q < NS - 2; q++) {
                if (isnan(vals[q])) buf[q][0] = '\0';
                else snprintf(buf[q], sizeof buf[q], "%.17g", vals[q]);
                cells[q + 1] = buf[q];
            }
            cells[NS - 1] = file;
            if (clab_csv_text_row(sum, cells, NS, &err)) {
                fprintf(stderr, "contactlab scaling: %s\n", err.msg);
                rc = 1;
                break;
            }
            printf("%-8s %6d %8.1e %9.0f %10.1f %11.3e %11.3e %12.3e\n", method, n, r.h, r.contacts, r.iterations, cps,
                   r.wall / (double)r.steps, cps / r.h);
            lx[np] = log((double)n);
            ly[np] = log(cps);
            np++;
            nmin = fmin(nmin, n);
            nmax = fmax(nmax, n);
        }
        if (rc || np < 2) continue;
        /* cost = c N^b: ln cost = ln c + b ln N */
        double c0, c1, cov00, cov01, cov11, sumsq;
        gsl_fit_linear(lx, 1, ly, 1, (size_t)np, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
        /* standard error of b from the residual scatter (np > 2) */
        double berr = np > 2 ? sqrt(cov11 * sumsq / (double)(np - 2)) : NAN;
        char b[4][64];
        snprintf(b[0], 64, "%.17g", c1);
        if (isnan(berr)) b[1][0] = '\0';
        else snprintf(b[1], 64, "%.17g", berr);
        snprintf(b[2], 64, "%.17g", exp(c0));
        snprintf(b[3], 64, "%d", np);
        char s1[64], s2[64];
        snprintf(s1, sizeof s1, "%.17g", nmin);
        snprintf(s2, sizeof s2, "%.17g", nmax);
        const char *cells[7] = {method, b[0], b[1], b[2], b[3], s1, s2};
        if (clab_csv_text_row(fit, cells, 7, &err)) {
            fprintf(stderr, "contactlab scaling: %s\n", err.msg);
            rc = 1;
        }
        if (isnan(berr)) printf("%-8s fit: cpu_s/step = %.3e N^%.3f\n", method, exp(c0), c1);
        else printf("%-8s fit: cpu_s/step = %.3e N^%.3f (+- %.3f)\n", method, exp(c0), c1, berr);
    }
    if (clab_csv_close(sum, &err) && rc == 0) {
        fprintf(stderr, "contactlab scaling: %s\n", err.msg);
        rc = 1;
    }
    if (clab_csv_close(fit, &err) && rc == 0) {
        fprintf(stderr, "contactlab scaling: %s\n", err.msg);
        rc = 1;
    }
    if (rc == 0) {
        printf("\nCSVs: %s/scaling-n_*.csv (summary: %s, fit: %s)\n", o.c.out, spath, fpath);
        if (xp_plot(&o.c, "scaling.gp") == 0 && o.c.plot) printf("figures: %s/scaling.png (and .pdf)\n", o.c.out);
    }
out:
    xp_common_free(&o.c);
    return rc;
}
