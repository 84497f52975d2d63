/* pile.c: granular settling. N spheres fall from a random loose packing into a box of fixed
 * half-spaces (pile_scene.h) and come to rest; the same initial packing (same seed) runs
 * under each method.
 *
 * Series: kinetic energy, contact count (records and load-carrying contacts), largest
 * penetration, load on the floor, solver iterations against time. At the end: the normal
 * contact forces between spheres, their distribution P(f/<f>) (a gsl_histogram normalised to
 * a probability density) and an exponential fit of its tail f > <f>, P ~ exp(-beta f/<f>),
 * the classic form of the force distribution of static granular packings (Radjai et al.,
 * PRL 77 (1996) 274; Mueth, Jaeger, Nagel, PRE 57 (1998) 3164).
 *
 * Check of the settled state: with frictionless walls (the default) and the pile at rest,
 * the floor carries the whole weight, sum F_n(floor) = sum m_i g (time-averaged over the last
 * part of the run). */
#include "config.h"

#include <gsl/gsl_fit.h>
#include <gsl/gsl_histogram.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clab_csv.h"
#include "fclib_xp.h"
#include "pile_scene.h"

typedef struct pile_opts {
    xp_common c;
    xp_pile_def def;
    double hpen, hdvi;   /* step sizes [s]; hpen 0 = xp_pile_penalty_step */
    double sample_dt;    /* output interval [s] */
    double window;       /* averaging window at the end [s]; 0 = t_end / 10 */
    int bins;            /* histogram bins */
    double fmax;         /* histogram range [0, fmax] in units of <f> */
    xp_fclib_export fcx; /* --fclib-dir, --fclib-every: the DVI steps' problems (run_fclib.c) */
} pile_opts;

typedef struct pile_result {
    double h, steps, wall, cpu, ke, max_pen, floor_avg, support_avg, mean_fn, beta, beta_err, tail_c0, it_mean;
    double contacts, active, coordination;
    long maxiter_hits, nforces, overflow;
} pile_result;

static const char *const series_cols[] = {"t_s",        "kinetic_energy_J", "contacts",       "contacts_active",
                                          "max_penetration_m", "floor_force_N", "support_force_N", "iterations_mean",
                                          "residual_m_s"};
enum { NCOLS = sizeof series_cols / sizeof series_cols[0] };

/* The running quantities of a settling run: saved with its checkpoints, restored on restart
 * (only doubles: the checkpoint stores them bit for bit as an array). */
typedef struct pile_run {
    double acc_floor, acc_support, acc_it, acc_n; /* sums over the current output interval */
    double avg_floor, avg_support, navg;          /* sums over the averaging window at the end */
    double it_total, max_pen;                     /* over the whole run */
    double wall, cpu;                             /* time spent [s], including before a restart */
} pile_run;
enum { PILE_RUN_N = sizeof(pile_run) / sizeof(double) };
_Static_assert(sizeof(pile_run) == PILE_RUN_N * sizeof(double), "pile_run holds only doubles");

/* new files are overwritten with --force, and on a restart (the interrupted run may have
 * begun them) */
static int pile_flags(const pile_opts *o) { return o->c.force || o->c.restart[0] ? CLAB_CSV_OVERWRITE : 0; }

/* Write the per-contact forces and the histogram of f/<f> of the final state; fit the tail. */
static int pile_forces(const pile_opts *o, const clab_sim *s, const clab_vec3 *f, const xp_pile_info *info,
                       const char *base, const clab_options *meta, pile_result *res)
{
    const clab_contacts *cs = &s->contacts;
    const double f_eps = XP_PILE_FEPS * info->weight / (double)o->def.n;
    clab_error err;
    char path[2048], file[600];
    /* sphere-sphere contacts carrying load */
    double sum = 0.0;
    long nf = 0;
    for (size_t i = 0; i < cs->n; i++)
        if (cs->c[i].a >= XP_PILE_FIRST && f[i].x > f_eps) sum += f[i].x, nf++;
    res->nforces = nf;
    res->mean_fn = nf ? sum / (double)nf : NAN;
    res->beta = res->beta_err = res->tail_c0 = NAN;
    res->overflow = 0;

    /* every contact of the final state */
    snprintf(file, sizeof file, "%s-contacts.csv", base);
    xp_path(&o->c, file, path, sizeof path);
    static const char *const ccols[] = {"a", "b", "phi_m", "fn_N", "ft_N", "f_rel", "sphere_sphere"};
    clab_csv *csv = clab_csv_open(path, pile_flags(o), &err);
    if (!csv || clab_csv_meta(csv, meta, o->c.argc, o->c.argv, &err) ||
        clab_csv_meta_kv(csv, "contents", "every contact of the final state; f_rel = fn_N / mean fn_N over "
                                          "sphere-sphere contacts with fn_N > f_eps", &err) ||
        clab_csv_header(csv, ccols, 7, &err))
        goto fail;
    clab_csv_set_flush_every(csv, 4096);
    for (size_t i = 0; i < cs->n; i++) {
        const clab_contact *c = &cs->c[i];
        double row[7] = {c->a, c->b, c->phi, f[i].x, hypot(f[i].y, f[i].z), nf ? f[i].x / res->mean_fn : NAN,
                         c->a >= XP_PILE_FIRST};
        if (clab_csv_row(csv, row, 7, &err)) goto fail;
    }
    if (clab_csv_close(csv, &err)) {
        csv = NULL;
        goto fail;
    }
    csv = NULL;

    /* P(f/<f>): a density, counts / (n_forces bin_width) */
    gsl_histogram *hist = gsl_histogram_alloc((size_t)o->bins);
    if (!hist) {
        fprintf(stderr, "contactlab pile: out of memory\n");
        return 1;
    }
    gsl_histogram_set_ranges_uniform(hist, 0.0, o->fmax);
    for (size_t i = 0; i < cs->n; i++)
        if (cs->c[i].a >= XP_PILE_FIRST && f[i].x > f_eps)
            if (gsl_histogram_increment(hist, f[i].x / res->mean_fn)) res->overflow++;
    const double width = o->fmax / o->bins;
    /* tail fit: ln P = c0 + c1 x over bins with x_mid >= 1 and a count, weighted by the count
     * (the variance of ln(count) is about 1/count) */
    double fx[512], fy[512], fw[512];
    size_t nfit = 0;
    for (size_t k = 0; k < (size_t)o->bins && nfit < 512; k++) {
        double lo, hi, cnt = gsl_histogram_get(hist, k);
        gsl_histogram_get_range(hist, k, &lo, &hi);
        if (0.5 * (lo + hi) >= 1.0 && cnt > 0) {
            fx[nfit] = 0.5 * (lo + hi);
            fy[nfit] = log(cnt / ((double)nf * width));
            fw[nfit] = cnt;
            nfit++;
        }
    }
    if (nfit >= 5 && nf >= 100) { /* fewer forces or tail bins give no meaningful fit */
        double c0, c1, cov00, cov01, cov11, chisq;
        gsl_fit_wlinear(fx, 1, fw, 1, fy, 1, nfit, &c0, &c1, &cov00, &cov01, &cov11, &chisq);
        res->beta = -c1;
        /* scale the covariance by the reduced chi^2 (the weights are only relative) */
        res->beta_err = nfit > 2 ? sqrt(cov11 * chisq / (double)(nfit - 2)) : NAN;
        res->beta_err = isfinite(res->beta_err) ? res->beta_err : NAN;
        res->tail_c0 = c0;
    }
    snprintf(file, sizeof file, "%s-pdf.csv", base);
    xp_path(&o->c, file, path, sizeof path);
    static const char *const hcols[] = {"f_rel_lo", "f_rel_hi", "f_rel_mid", "count", "pdf", "pdf_err"};
    csv = clab_csv_open(path, pile_flags(o), &err);
    char v[64];
    int bad = !csv || clab_csv_meta(csv, meta, o->c.argc, o->c.argv, &err);
    if (!bad) {
        snprintf(v, sizeof v, "%ld", nf);
        bad = clab_csv_meta_kv(csv, "n_forces", v, &err);
    }
    if (!bad) {
        snprintf(v, sizeof v, "%.17g", res->mean_fn);
        bad = clab_csv_meta_kv(csv, "mean_fn_N", v, &err);
    }
    if (!bad) {
        snprintf(v, sizeof v, "%ld", res->overflow);
        bad = clab_csv_meta_kv(csv, "overflow", v, &err);
    }
    if (!bad) {
        snprintf(v, sizeof v, "%.17g", res->beta);
        bad = clab_csv_meta_kv(csv, "tail_beta", v, &err);
    }
    if (!bad) {
        snprintf(v, sizeof v, "%.17g", res->tail_c0);
        bad = clab_csv_meta_kv(csv, "tail_ln_prefactor", v, &err);
    }
    if (!bad)
        bad = clab_csv_meta_kv(csv, "contents",
                               "P(f/<f>) of the normal forces of sphere-sphere contacts with fn > f_eps at the end; "
                               "pdf = count/(n_forces bin_width), pdf_err = sqrt(count)/(n_forces bin_width); tail "
                               "fit ln pdf = tail_ln_prefactor - tail_beta f_rel over bins with f_rel_mid >= 1 "
                               "(made with at least 100 forces and 5 such bins, else nan)",
                               &err);
    if (!bad) bad = clab_csv_header(csv, hcols, 6, &err);
    for (size_t k = 0; k < (size_t)o->bins && !bad; k++) {
        double lo, hi, cnt = gsl_histogram_get(hist, k);
        gsl_histogram_get_range(hist, k, &lo, &hi);
        double norm = nf ? 1.0 / ((double)nf * width) : 0.0;
        double row[6] = {lo, hi, 0.5 * (lo + hi), cnt, cnt * norm, sqrt(cnt) * norm};
        bad = clab_csv_row(csv, row, 6, &err);
    }
    gsl_histogram_free(hist);
    if (bad) goto fail;
    if (clab_csv_close(csv, &err)) {
        csv = NULL;
        goto fail;
    }
    return 0;
fail:
    fprintf(stderr, "contactlab pile: %s\n", err.msg);
    if (csv) clab_csv_close(csv, NULL);
    return 1;
}

/* One method: settle the pile, write its series and force distribution. Returns 0, 1 on
 * failure, 2 when stopped (signal, --stop-after) with *status the exit status. sum: the
 * summary, part of the checkpoints. */
static int pile_case(pile_opts *o, const xp_method *pm, double t_end, clab_csv *sum, pile_result *res, char *file,
                     size_t filelen, int *status)
{
    clab_error err;
    xp_pile_info info;
    clab_world *w;
    const char *method = pm->name;
    clab_sim *s = xp_pile_sim(&o->c, &o->def, pm, xp_method_h(pm, o->hpen, o->hdvi), &w, &info);
    if (!s) return 1;
    double h = s->h;
    if (t_end < h) {
        fprintf(stderr, "contactlab pile: --t-end %g s is shorter than one step of %s (h = %g s, its default); give "
                        "at least --t-end %g\n", t_end, method, h, h);
        clab_sim_destroy(s);
        clab_world_destroy(w);
        return 1;
    }
    memset(res, 0, sizeof *res);
    res->h = h;
    char base[512];
    snprintf(base, sizeof base, "pile-n_%d-%s", o->def.n, method);
    snprintf(file, filelen, "%s.csv", base);
    char path[2048];
    xp_path(&o->c, file, path, sizeof path);

    clab_options meta;
    clab_options_init(&meta);
    char v[64];
    clab_options_set(&meta, "experiment", "pile", NULL);
    xp_method_meta(pm, &meta);
    xp_pile_meta(&o->def, &info, &meta);
#define META(k, val) (snprintf(v, sizeof v, "%.17g", (double)(val)), clab_options_set(&meta, k, v, NULL))
    META("h_s", h);
    META("t_end_s", t_end);
    META("sample_dt_s", o->sample_dt);
    META("f_eps_N", XP_PILE_FEPS * info.weight / o->def.n);
#undef META
    clab_options_set(&meta, "contacts", "contact records (Phi < envelope) after the step", NULL);
    clab_options_set(&meta, "contacts_active", "contacts with F_n > f_eps (carrying load)", NULL);
    clab_options_set(&meta, "floor_force_N", "sum of F_n on the floor, mean over the output interval", NULL);
    clab_options_set(&meta, "support_force_N",
                     "vertical force of floor and walls on the spheres, mean over the output interval", NULL);
    clab_options_set(&meta, "iterations_mean", "solver iterations per step, mean over the output interval (penalty: 0)",
                     NULL);
    clab_sim_meta(s, &meta);

    clab_csv *csv = NULL;
    int rc = 1;
    clab_vec3 *f = NULL;
    size_t fcap = 0;
    pile_run run;
    memset(&run, 0, sizeof run);
    /* the guard: checkpoints of this case (the summary and the series), its last good state */
    xp_guard g;
    int resumed = xp_case_begin(&o->c, &g, s, sum, 2, (double *)&run, PILE_RUN_N);
    if (resumed < 0) goto done;
    csv = xp_series_open(&o->c, &g, resumed, path, pile_flags(o), &meta, series_cols, NCOLS);
    if (!csv) goto done;
    long nsteps = xp_steps(&o->c, t_end, h);
    if (nsteps < 0) goto done;
    long every = (long)fmax(1.0, floor(o->sample_dt / h + 0.5));
    double window = o->window > 0.0 ? o->window : 0.1 * t_end;
    long k_avg = nsteps - (long)fmax(1.0, floor(window / h + 0.5)); /* average over steps k_avg+1..nsteps */
    if (k_avg < 0) k_avg = 0;
    xp_progress pb;
    char label[128];
    snprintf(label, sizeof label, "pile %s n=%d", method, o->def.n);
    xp_progress_begin(&pb, &o->c, label);
    double t0 = xp_pile_now(), c0 = xp_pile_cpu(), wall0 = run.wall, cpu0 = run.cpu;
    xp_pile_state st;
    memset(&st, 0, sizeof st);
    /* k_start: 0, or the step a restart continues from (its measurements and rows are done) */
    const long k_start = w->step;
    for (long k = k_start; k <= nsteps; k++) {
        if (k > k_start) {
            if (xp_pile_measure(s, &info, &f, &fcap, &st)) {
                fprintf(stderr, "contactlab pile: out of memory\n");
                goto done_loop;
            }
            run.acc_floor += st.floor_fn;
            run.acc_support += st.support_z;
            run.acc_it += (double)st.iterations;
            run.it_total += (double)st.iterations;
            run.acc_n++;
            run.max_pen = fmax(run.max_pen, st.max_pen);
            if (k > k_avg) {
                run.avg_floor += st.floor_fn;
                run.avg_support += st.support_z;
                run.navg++;
            }
        } else {
            st.ke = clab_world_kinetic_energy(w);
        }
        run.wall = wall0 + (xp_pile_now() - t0);
        run.cpu = cpu0 + (xp_pile_cpu() - c0);
        if ((k % every == 0 || k == nsteps) && !(resumed && k == k_start)) {
            double a = run.acc_n > 0 ? 1.0 / run.acc_n : 0.0;
            double row[NCOLS] = {w->t, st.ke, (double)st.contacts, (double)st.active, st.max_pen, run.acc_floor * a,
                                 run.acc_support * a, run.acc_it * a, st.residual};
            run.acc_floor = run.acc_support = run.acc_it = run.acc_n = 0.0;
            if (clab_csv_row(csv, row, NCOLS, &err) || xp_guard_snapshot(&g, s, &err)) {
                fprintf(stderr, "contactlab pile: %s\n", err.msg);
                goto done_loop;
            }
            xp_progress_update(&pb, (double)k / (double)nsteps);
        }
        if (k == nsteps) break;
        if (k > k_start) {
            int r = xp_case_poll(&o->c, &g, s, k);
            if (r < 0) goto done_loop;
            if (r > 0) {
                xp_progress_end(&pb);
                *status = xp_case_stopped(&o->c, s);
                rc = 2;
                goto done;
            }
        }
        if (clab_sim_step(s, &err)) {
            xp_progress_end(&pb);
            xp_case_fail(&o->c, &g, &err);
            goto done;
        }
        o->fcx.name = base; /* DVI methods only: a force law has no CCP */
        if (strcmp(s->type->name, "dvi") == 0 && xp_fclib_after_step(&o->fcx, s, &err)) {
            xp_progress_end(&pb);
            fprintf(stderr, "contactlab pile: %s\n", err.msg);
            goto done;
        }
    }
    res->wall = run.wall;
    res->cpu = run.cpu;
    res->max_pen = run.max_pen;
    res->steps = (double)nsteps;
    res->ke = st.ke;
    res->contacts = (double)st.contacts;
    res->active = (double)st.active;
    res->floor_avg = run.navg > 0 ? run.avg_floor / run.navg : NAN;
    res->support_avg = run.navg > 0 ? run.avg_support / run.navg : NAN;
    res->it_mean = nsteps ? run.it_total / (double)nsteps : 0.0;
    if (s->type->stats) {
        clab_solver_stats ss;
        memset(&ss, 0, sizeof ss);
        s->type->stats(s->self, &ss);
        res->maxiter_hits = ss.maxiter_hits;
    }
    /* mean contacts per sphere: each sphere-sphere contact counts for two spheres */
    {
        long z2 = 0;
        const double f_eps = XP_PILE_FEPS * info.weight / o->def.n;
        for (size_t i = 0; i < s->contacts.n; i++)
            if (f[i].x > f_eps) z2 += s->contacts.c[i].a >= XP_PILE_FIRST ? 2 : 1;
        res->coordination = (double)z2 / o->def.n;
    }
    rc = pile_forces(o, s, f, &info, base, &meta, res);
done_loop:
    xp_progress_end(&pb);
done:
    if (csv && clab_csv_close(csv, &err) && rc == 0) {
        fprintf(stderr, "contactlab pile: %s\n", err.msg);
        rc = 1;
    }
    xp_guard_free(&g);
    free(f);
    clab_options_free(&meta);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

static void pile_help(const xp_common *c)
{
    printf("usage: contactlab pile [options]\n\n"
           "Granular settling: N spheres (radii uniform in R (1 +- p)) fall from a random loose packing\n"
           "(random sequential addition, gsl_rng_mt19937) into a square box of fixed half-spaces (floor\n"
           "and four walls, normals into the box) and come to rest. The same packing runs under each\n"
           "method. Series: kinetic energy, contact count, max penetration, floor load, solver iterations\n"
           "against time; at the end the distribution P(f/<f>) of the sphere-sphere normal forces with an\n"
           "exponential tail fit. Writes pile-n_<N>-<method>.csv, -pdf.csv (histogram), -contacts.csv\n"
           "(every final contact), pile-summary.csv and figures.\n\n"
           "Experiment options:\n"
           "  --n N            number of spheres (default 500)\n"
           "  --h-dvi S        step [s] of the rigid-contact (CCP) methods (default 1e-3)\n"
           "  --h-penalty S    step [s] of the force-law methods (default: half the stable step t_c/10,\n"
           "                   1-2-5 rounded; 2e-5 s for the default material)\n"
           "  --t-end S        simulated time [s] (default 0.5)\n"
           "  --sample-dt S    output interval [s] (default 5e-3)\n"
           "  --window S       floor load averaged over the last S seconds (default t_end/10)\n"
           "  --bins N         histogram bins (default 30)\n"
           "  --fmax X         histogram range [0, X] in units of <f> (default 6)\n"
           "  --fclib-dir DIR  the DVI methods' step problems as FCLIB files DIR/pile-n_<N>-<method>-step<k>.hdf5\n"
           "                   (doc/fclib.md); --fclib-every N: every N steps (default 1)\n\n"
           "--h sets the step of every method at once. Rigid-contact methods run with tol=" XP_PILE_DVI_TOL "\n"
           "m/s unless --opt dvi:tol=X says otherwise.\n\n%s\n",
           xp_pile_help);
    xp_common_help(c);
}

int xp_pile(int argc, char **argv)
{
    static const struct option longopts[] = {
        XP_COMMON_LONGOPTS,
        XP_PILE_LONGOPTS,
        {"n", required_argument, 0, 1000},         {"h-dvi", required_argument, 0, 1012},
        {"h-penalty", required_argument, 0, 1013}, {"sample-dt", required_argument, 0, 1014},
        {"window", required_argument, 0, 1015},    {"bins", required_argument, 0, 1016},
        {"fmax", required_argument, 0, 1017},      {"fclib-dir", required_argument, 0, 1018},
        {"fclib-every", required_argument, 0, 1019},
        {0, 0, 0, 0}};
    pile_opts o;
    memset(&o, 0, sizeof o);
    xp_common_init(&o.c, "pile", argc, argv);
    o.def = xp_pile_default();
    o.hdvi = 1e-3;
    o.sample_dt = 5e-3;
    o.bins = 30;
    o.fmax = 6.0;
    o.fcx.every = 1;
    int rc = 2, opt;
    double x;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        /* every problem of the command line is reported (xp_option_errors below) */
        int r = xp_common_option(&o.c, opt, optarg);
        if (r == 0) r = xp_pile_option(&o.def, opt, optarg);
        if (r != 0) continue;
        switch (opt) {
        case '?' + 256: pile_help(&o.c); rc = 0; goto out;
        case 1000: if (!xp_parse_double("n", optarg, 1, 1e7, &x)) o.def.n = (int)x; break;
        case 1012: xp_parse_double("h-dvi", optarg, 1e-9, 0.1, &o.hdvi); break;
        case 1013: xp_parse_double("h-penalty", optarg, 1e-12, 0.1, &o.hpen); break;
        case 1014: xp_parse_double("sample-dt", optarg, 1e-9, 10, &o.sample_dt); break;
        case 1015: xp_parse_double("window", optarg, 1e-9, 1e6, &o.window); break;
        case 1016: if (!xp_parse_double("bins", optarg, 2, 500, &x)) o.bins = (int)x; break;
        case 1017: xp_parse_double("fmax", optarg, 0.1, 1e3, &o.fmax); break;
        case 1018: o.fcx.dir = optarg; break;
        case 1019: xp_parse_long("fclib-every", optarg, 1, 1000000000L, &o.fcx.every); break;
        default: xp_option_unknown(); break;
        }
    }
    for (int i = optind; i < argc; i++) xp_option_error("contactlab pile: unexpected argument '%s'\n", argv[i]);
    if (xp_option_errors("contactlab pile")) goto out;
    if (o.c.h > 0.0) o.hpen = o.hdvi = o.c.h;
    double t_end = o.c.t_end > 0.0 ? o.c.t_end : 0.5;
    /* a run shorter than one step has no averages to give: refused before anything is written
     * (a force law's default step, known once its simulation exists, is checked in pile_case) */
    for (int mi = 0; mi < o.c.nmethod; mi++) {
        double h = xp_method_h(o.c.method[mi], o.hpen, o.hdvi);
        if (h > 0.0 && t_end < h) {
            fprintf(stderr, "contactlab pile: --t-end %g s is shorter than one step of %s (h = %g s); give at least "
                            "--t-end %g\n", t_end, o.c.method[mi]->name, h, h);
            rc = 2;
            goto out;
        }
    }
    if (xp_out_prepare(&o.c)) {
        rc = 1;
        goto out;
    }

    rc = 1;
    if (xp_restart_begin(&o.c)) goto out;
    char spath[2048];
    clab_error err;
    xp_path(&o.c, "pile-summary.csv", spath, sizeof spath);
    static const char *const scols[] = {
        "method", "n", "seed", "h_s", "t_end_s", "steps", "wall_s", "cpu_s", "cpu_s_per_step", "final_kinetic_energy_J",
        "contacts", "contacts_active", "coordination", "max_penetration_m", "floor_force_N", "support_force_N",
        "weight_N", "floor_ratio", "support_ratio", "mean_fn_N", "n_forces", "tail_beta", "tail_beta_err",
        "iterations_mean", "maxiter_hits", "series_file"};
    enum { NS = sizeof scols / sizeof scols[0] };
    clab_options meta;
    clab_options_init(&meta);
    clab_options_set(&meta, "experiment", "pile", NULL);
    clab_options_set(&meta, "floor_force_N", "sum of F_n on the floor, mean over the last window of the run", NULL);
    clab_options_set(&meta, "floor_ratio", "floor_force_N / weight_N (1 for a pile at rest, frictionless walls)",
                     NULL);
    clab_options_set(&meta, "support_ratio", "vertical force of floor and walls / weight (1 at rest)", NULL);
    clab_options_set(&meta, "coordination", "load-carrying contacts per sphere (sphere-sphere counted twice)", NULL);
    clab_options_set(&meta, "tail_beta", "P(f/<f>) ~ exp(-tail_beta f/<f>) fitted for f > <f>", NULL);
    /* a restart continues the summary: the rows of the simulations finished before stay */
    clab_csv *sum = xp_summary_open(&o.c, spath, &meta, scols, NS);
    if (!sum) {
        clab_options_free(&meta);
        rc = 1;
        goto out;
    }
    clab_options_free(&meta);

    printf("%-8s %5s %8s %7s %10s %10s %8s %7s %10s %8s %8s %7s %8s\n", "method", "n", "h_s", "cpu_s", "cpu_s/step",
           "KE_end_J", "contacts", "coord", "max_pen_m", "floor/W", "supp/W", "beta", "iter");
    rc = 0;
    for (int mi = 0; mi < o.c.nmethod && rc == 0; mi++) {
        const xp_method *pm = o.c.method[mi];
        const char *method = pm->name;
        pile_result r;
        char file[600];
        if (xp_case_skip(&o.c, method)) {
            printf("%-8s finished before the checkpoint: its files and summary row are kept\n", method);
            continue;
        }
        int st = pile_case(&o, pm, t_end, sum, &r, file, sizeof file, &rc);
        if (st == 2) break; /* stopped: rc is the exit status */
        if (st) {
            rc = 1;
            break;
        }
        /* the weight, from the same packing */
        xp_pile_info info;
        clab_world *w = xp_pile_build(&o.def, &info, &err);
        double W = w ? info.weight : NAN;
        clab_world_destroy(w);
        double vals[NS - 2] = {o.def.n, (double)o.def.seed, r.h, t_end, r.steps, r.wall, r.cpu, r.cpu / r.steps, r.ke,
                               r.contacts, r.active, r.coordination, r.max_pen, r.floor_avg, r.support_avg, W,
                               r.floor_avg / W, r.support_avg / W, r.mean_fn, (double)r.nforces, r.beta, r.beta_err,
                               r.it_mean, (double)r.maxiter_hits};
        const char *tail[] = {file};
        if (xp_summary_row(&o.c, sum, &method, 1, vals, NS - 2, tail, 1)) {
            rc = 1;
            break;
        }
        printf("%-8s %5d %8.1e %7.2f %10.2e %10.3e %8.0f %7.2f %10.3e %8.4f %8.4f %7.3f %8.1f\n", method, o.def.n, r.h,
               r.cpu, r.cpu / r.steps, r.ke, r.active, r.coordination, r.max_pen, r.floor_avg / W,
               r.support_avg / W, r.beta, r.it_mean);
    }
    char series[64];
    snprintf(series, sizeof series, "pile-n_%d-*.csv", o.def.n);
    rc = xp_finish(&o.c, rc, sum, spath, series, "pile.gp", "pile-settling.png, pile-force-pdf.png");
out:
    xp_common_free(&o.c);
    return rc;
}
