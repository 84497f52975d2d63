/* shear.c: `contactlab shear`, the direct shear test (seed 002: 1,800 spheres of D = 5 mm,
 * mu = 0.5, a dense packing, sheared at 1 mm/s; shear.h for the box).
 *
 * For each method and each normal stress sigma_n, from the same prepared sample
 * (granular_sample.c): the loaded plate consolidates the sample at sigma_n for --consolidate
 * seconds, then the upper half of the box moves along x at the shear speed v until it has
 * moved --shift. Series (one row every --sample-dx of displacement, the forces averaged over
 * the row's interval): the shear force F_s, tau = F_s/A, the normal stress on the shear plane
 * sigma_n = (N + W_upper)/A, their ratio, the plate's rise (dilation). Summary: the peak of
 * tau/sigma_n (smoothed over a tenth of a diameter of displacement, granular.h) and its
 * residual value (mean over the last third of the shift), per method and normal stress; per
 * method the Mohr-Coulomb envelopes tau = c + sigma_n tan(phi) of the peak and residual
 * points (least squares).
 *
 * Quasi-static: the inertial number I = gamma_dot d sqrt(rho/sigma_n), gamma_dot = v/(10 d)
 * (a shear band ten diameters thick: an upper bound on its rate), is reported per case. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clab_clock.h"
#include "pile_scene.h"
#include "shear.h"

#define SH_MAXS 16

typedef struct sh_opts {
    xp_common c;
    gr_material mat;
    gr_sample_def sample;
    double mu_wall;
    double sigma[SH_MAXS]; /* normal stresses [Pa] */
    int nsigma;
    double speed;          /* shear speed [m/s] */
    double shift;          /* largest shear displacement [m]; 0: 0.15 L */
    double consolidate;    /* [s] */
    double hpen, hdvi;     /* steps [s]; hpen 0: from the contact time */
    double sample_dx;      /* output interval of displacement [m]; 0: shift/200 */
} sh_opts;

/* one (method, sigma_n) case's result */
typedef struct sh_result {
    double sigma_n, peak, x_peak, residual, tau_peak, tau_res, dilation, inertial, h, steps, wall;
} sh_result;

static const char *const series_cols[] = {"x_mm",    "t_s",          "shear_force_N", "normal_force_N",
                                          "tau_kPa", "sigma_n_kPa",  "stress_ratio",  "plate_z_mm",
                                          "dilation_mm", "contacts", "kinetic_energy_J", "iterations"};
enum { NCOLS = sizeof series_cols / sizeof series_cols[0] };

/* the penalty step: a thirtieth of the period of a contact of two spheres under the largest
 * stress's contact force (sigma d^2), 1-2-5 rounded down */
static double sh_penalty_step(const sh_opts *o, double sigma_max)
{
    const double R = 0.5 * o->mat.d, m = o->mat.density * M_PI / 6.0 * pow(o->mat.d, 3);
    double kn = gr_hertz_kn(&o->mat, 0.5 * R, sigma_max * o->mat.d * o->mat.d); /* R* = R/2 */
    return xp_round125(2.0 * M_PI * sqrt(0.5 * m / kn) / 30.0);
}

/* Run one case; its series to file (in the output folder). 0, 1 on failure (printed), 2 when a
 * signal stopped it. One function of about 150 lines: the world, its metadata, the two stages
 * (consolidation, shear) and the row are one sequence that shares a dozen locals. */
static int sh_case(sh_opts *o, const xp_method *im, const gr_sample *smp, double sigma_n, sh_result *res,
                   char *file, size_t filelen, xp_progress *pb, double pb0, double pbspan)
{
    const double sigma_max = o->sigma[0] > o->sigma[o->nsigma - 1] ? o->sigma[0] : o->sigma[o->nsigma - 1];
    double h = xp_method_h(im, o->hpen > 0.0 ? o->hpen : sh_penalty_step(o, sigma_max), o->hdvi);
    const double L = smp->hi[0] - smp->lo[0], shift = o->shift > 0.0 ? o->shift : 0.15 * L;
    const double dx = o->sample_dx > 0.0 ? o->sample_dx : shift / 200.0;
    sh_geom g;
    clab_error err;
    clab_world *w = sh_build(smp, &o->mat, o->mu_wall, shift, sigma_n, &g, &err);
    if (!w) {
        fprintf(stderr, "contactlab shear: %s\n", err.msg);
        return 1;
    }
    clab_options extra;
    clab_options_init(&extra);
    gr_method_options(&extra, im, &o->mat, sigma_n, "shear");
    clab_sim *s = xp_sim(&o->c, w, im, h, &extra);
    clab_options_free(&extra);
    if (!s) {
        clab_world_destroy(w);
        return 1;
    }
    snprintf(file, filelen, "shear-sigma_%gkPa-%s.csv", sigma_n / 1e3, im->name);
    char path[2048];
    xp_path(&o->c, file, path, sizeof path);
    const double A = g.L * g.W, rate = o->speed / (10.0 * o->mat.d);

    char v[64];
    clab_options meta;
    clab_options_init(&meta);
    clab_options_set(&meta, "experiment", "shear", NULL);
    xp_method_meta(im, &meta);
#define META(k, val) (snprintf(v, sizeof v, "%.17g", (double)(val)), clab_options_set(&meta, k, v, NULL))
    META("sigma_n_Pa", sigma_n);
    META("n", g.n);
    META("d_m", o->mat.d);
    META("density_kg_m3", o->mat.density);
    META("mu", o->mat.mu);
    META("mu_wall", o->mu_wall);
    META("E_Pa", o->mat.E);
    META("nu", o->mat.nu);
    META("cor", o->mat.cor);
    META("box_L_m", g.L);
    META("box_W_m", g.W);
    META("split_height_m", g.zs);
    META("sample_top_m", smp->hi[2]);
    META("solid_fraction", gr_sample_solid_fraction(smp));
    META("solid_fraction_bulk", gr_sample_bulk_fraction(smp, o->mat.d));
    META("shear_speed_m_s", o->speed);
    META("shift_m", shift);
    META("consolidate_s", o->consolidate);
    META("plate_mass_kg", w->bodies[g.plate].m);
    META("plate_load_N", sigma_n * A - g.plate_weight);
    META("inertial_number", gr_inertial_number(rate, o->mat.d, o->mat.density, sigma_n));
    clab_options_set(&meta, "inertial_number_def", "I = gamma_dot d sqrt(rho/sigma_n), gamma_dot = v/(10 d)", NULL);
    clab_options_set(&meta, "shear_force_N", "resistance of the sample to the upper half: -(contact force along x on the upper frame and the plate), mean over the row's interval", NULL);
    clab_options_set(&meta, "normal_force_N", "the sample's push on the plate (its weight plus its load: sigma_n A), mean over the row's interval", NULL);
    clab_options_set(&meta, "sigma_n_kPa", "(normal_force_N + weight of the spheres above the split) / (L W)", NULL);
    clab_options_set(&meta, "stress_ratio", "tau / sigma_n = shear_force_N / (normal_force_N + weight above the split)", NULL);
    clab_options_set(&meta, "dilation_mm", "rise of the plate since the shear began", NULL);
    clab_sim_meta(s, &meta);
#undef META
    int rc = 1;
    clab_csv *csv = clab_csv_open(path, o->c.force ? CLAB_CSV_OVERWRITE : 0, &err);
    clab_vec3 *F = malloc(w->nbodies * sizeof *F);
    const long every = (long)fmax(1.0, floor(dx / (o->speed * h) + 0.5));
    const long ncons = xp_steps(&o->c, o->consolidate, h), nshear = xp_steps(&o->c, shift / o->speed, h);
    size_t nrow = (size_t)(nshear / every + 2), krow = 0;
    double *xs = malloc(nrow * sizeof *xs), *ratio = malloc(nrow * sizeof *ratio);
    if (!csv || clab_csv_meta(csv, &meta, o->c.argc, o->c.argv, &err) ||
        clab_csv_header(csv, series_cols, NCOLS, &err)) {
        fprintf(stderr, "contactlab shear: %s\n", err.msg);
        goto done;
    }
    if (!F || !xs || !ratio || ncons < 0 || nshear < 0) goto done;
    const double t0 = clab_clock();
    const long ntot = ncons + nshear;
    for (long k = 0; k < ncons; k++) { /* consolidation at sigma_n */
        if (clab_sim_step(s, &err)) goto failed;
        if (k % 64 == 0 && xp_stop_signal()) goto stopped;
        if (k % 64 == 0) xp_progress_update(pb, pb0 + pbspan * (double)k / ntot);
    }
    const double wup = sh_upper_weight(w, &g), z0 = w->bodies[g.plate].r.z;
    if (sh_set_shear_speed(s, &g, o->speed, &err)) goto failed;
    double imp_s = 0.0, imp_n = 0.0, span = 0.0, dil_max = 0.0;
    const double x0 = w->bodies[g.upper[0]].r.x;
    for (long k = 0; k <= nshear; k++) {
        if (k > 0) {
            if (clab_sim_step(s, &err)) goto failed;
            sh_load ld;
            if (sh_measure(s, &g, F, &ld, &err)) goto failed;
            imp_s += ld.shear * h, imp_n += ld.normal * h, span += h;
        }
        if (k % 64 == 0 && xp_stop_signal()) goto stopped;
        if (k % 64 == 0) xp_progress_update(pb, pb0 + pbspan * (double)(ncons + k) / ntot);
        if (k % every != 0 && k != nshear) continue;
        const double fs = span > 0.0 ? imp_s / span : 0.0, fn = span > 0.0 ? imp_n / span : 0.0;
        const double x = w->bodies[g.upper[0]].r.x - x0, zp = w->bodies[g.plate].r.z;
        clab_solver_stats st = {0};
        if (s->type->stats) s->type->stats(s->self, &st);
        double row[NCOLS] = {x * 1e3,
                             w->t,
                             fs,
                             fn,
                             fs / A / 1e3,
                             (fn + wup) / A / 1e3,
                             span > 0.0 ? fs / (fn + wup) : NAN,
                             (zp - 0.5 * g.plate_t) * 1e3,
                             (zp - z0) * 1e3,
                             (double)s->contacts.n,
                             clab_world_kinetic_energy(w),
                             (double)st.iterations};
        if (clab_csv_row(csv, row, NCOLS, &err)) goto failed;
        if (span > 0.0 && krow < nrow) xs[krow] = x, ratio[krow++] = row[6];
        dil_max = fmax(dil_max, zp - z0);
        imp_s = imp_n = span = 0.0;
    }
    gr_peak pk;
    gr_peak_residual(xs, ratio, krow, 0.1 * o->mat.d, 2.0 / 3.0 * shift, &pk);
    const double sn_plane = sigma_n + wup / A;
    *res = (sh_result){sn_plane, pk.peak, pk.x_peak * 1e3, pk.residual, pk.peak * sn_plane, pk.residual * sn_plane,
                       dil_max * 1e3, gr_inertial_number(rate, o->mat.d, o->mat.density, sigma_n), h,
                       (double)ntot, clab_clock() - t0};
    rc = 0;
    goto done;
stopped: /* SIGINT, SIGTERM: the rows so far are whole */
    fprintf(stderr, "\ncontactlab shear: stopped by signal %d; the CSVs hold the rows written so far\n", xp_stop_signal());
    rc = 2;
    goto done;
failed:
    fprintf(stderr, "\ncontactlab shear: %s at sigma_n = %g kPa: %s\n", im->name, sigma_n / 1e3, err.msg);
done:
    if (csv && clab_csv_close(csv, &err) && rc == 0) {
        fprintf(stderr, "contactlab shear: %s\n", err.msg);
        rc = 1;
    }
    free(F);
    free(xs);
    free(ratio);
    clab_options_free(&meta);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

/* shear-mohr-coulomb.csv and the printed table: per method the envelopes of the peak and
 * residual points (granular.h: tau = c + sigma_n tan(phi), and through the origin) */
static int sh_mohr_coulomb(sh_opts *o, double sn[][SH_MAXS], double tp[][SH_MAXS], double tr[][SH_MAXS],
                           const int *ns, const double *wall)
{
    char path[2048];
    xp_path(&o->c, "shear-mohr-coulomb.csv", path, sizeof path);
    clab_error err;
    clab_csv *f = clab_csv_open(path, o->c.force ? CLAB_CSV_OVERWRITE : 0, &err);
    static const char *const cols[] = {"method", "phi_peak_deg", "phi_peak_se_deg", "c_peak_kPa", "r2_peak",
                                       "phi0_peak_deg", "phi_residual_deg", "phi_residual_se_deg", "c_residual_kPa",
                                       "r2_residual", "phi0_residual_deg", "tan_phi_peak", "tan_phi_residual",
                                       "wall_s", "title"};
    enum { NC = sizeof cols / sizeof cols[0] };
    clab_options meta;
    clab_options_init(&meta);
    clab_options_set(&meta, "experiment", "shear", NULL);
    clab_options_set(&meta, "fit", "least squares tau = c + sigma_n tan(phi) over the normal stresses (gsl_fit_linear); phi0: tau = sigma_n tan(phi0) (gsl_fit_mul)", NULL);
    clab_options_set(&meta, "wall_s", "wall-clock time of the method's cases", NULL);
    int rc = !f || clab_csv_meta(f, &meta, o->c.argc, o->c.argv, &err) || clab_csv_header(f, cols, NC, &err);
    clab_options_free(&meta);
    if (rc) {
        fprintf(stderr, "contactlab shear: %s\n", err.msg);
        if (f) clab_csv_close(f, NULL);
        return 1;
    }
    printf("\nMohr-Coulomb envelopes tau = c + sigma_n tan(phi) (%d normal stresses; --sigma not given: De Saxce's at "
           "the first and last):\n", o->nsigma);
    printf("%-18s %10s %9s %10s %10s %9s %10s %8s\n", "method", "phi_peak", "c_kPa", "phi0_peak", "phi_resid",
           "c_kPa", "phi0_resid", "wall_s");
    for (int mi = 0; mi < o->c.nmethod && rc == 0; mi++) {
        gr_mc_fit a, b;
        gr_mohr_coulomb(sn[mi], tp[mi], (size_t)ns[mi], &a);
        gr_mohr_coulomb(sn[mi], tr[mi], (size_t)ns[mi], &b);
        char cell[NC - 2][32];
        const double v[NC - 2] = {a.phi_deg, a.se_phi_deg, a.c / 1e3, a.r2, a.phi0_deg, b.phi_deg, b.se_phi_deg,
                                  b.c / 1e3, b.r2, b.phi0_deg, a.tan_phi, b.tan_phi, wall[mi]};
        const char *row[NC];
        row[0] = o->c.method[mi]->name;
        for (int k = 0; k < NC - 2; k++) {
            if (isnan(v[k])) cell[k][0] = '\0';
            else snprintf(cell[k], sizeof cell[k], "%.17g", v[k]);
            row[k + 1] = cell[k];
        }
        row[NC - 1] = o->c.method[mi]->title;
        if (clab_csv_text_row(f, row, NC, &err)) {
            fprintf(stderr, "contactlab shear: %s\n", err.msg);
            rc = 1;
        }
        printf("%-18s %10.2f %9.3f %10.2f %10.2f %9.3f %10.2f %8.1f\n", row[0], a.phi_deg, a.c / 1e3, a.phi0_deg,
               b.phi_deg, b.c / 1e3, b.phi0_deg, wall[mi]);
    }
    if (clab_csv_close(f, &err) && rc == 0) {
        fprintf(stderr, "contactlab shear: %s\n", err.msg);
        rc = 1;
    }
    return rc;
}

static void sh_help(const xp_common *c)
{
    printf("usage: contactlab shear [options]\n\n"
           "The direct shear test (as run with LAMMPS/LIGGGHTS and Chrono in Project Chrono's \"Modeling\n"
           "Friction and Contact in Chrono\": 1,800 spheres of D = 5 mm, mu = 0.5, a dense packing, sheared\n"
           "at 1 mm/s). A split box of inner width L x L: the lower half fixed, the upper half moving\n"
           "along x at the shear speed; a loading plate on the sample's top held at the normal stress\n"
           "sigma_n by its weight and a load (a guided cap: it does not turn). Every method starts from the same\n"
           "sample (dropped with friction off and settled under gravity; <out>/shear-sample.dat, reused\n"
           "while the sample options are the same), is consolidated at each sigma_n, then sheared.\n"
           "Writes one CSV per (method, sigma_n): shear force, tau/sigma_n and the plate's rise against\n"
           "the shear displacement; shear-summary.csv (peak and residual tau/sigma_n per method and\n"
           "sigma_n), shear-mohr-coulomb.csv (friction angles of the peak and residual envelopes\n"
           "tau = c + sigma_n tan(phi)) and figures.\n\n"
           "The defaults finish in minutes on two cores: 300 spheres, a shear speed of 10 mm/s, E = 1e8 Pa\n"
           "(soft: overlaps of about 1%% of d at 25 kPa). The inertial number I = gamma_dot d sqrt(rho/\n"
           "sigma_n), gamma_dot = v/(10 d), stays below 1e-3 (printed per case). Seed 002's test:\n"
           "--full (1,800 spheres, 1 mm/s; add --E for a stiffer law and a smaller step).\n\n"
           "Experiment options:\n"
           "  --sigma LIST       normal stresses [kPa] (default 3,8,15,25; De Saxce's fixed point\n"
           "                     (dvi-exact) at 3 and 25 only unless --sigma is given)\n"
           "  --n N              spheres (default 300; --full 1800)\n"
           "  --width L          inner box width [m] (default: a sample as high as wide at phi = 0.6)\n"
           "  --speed V          shear speed [m/s] (default 0.01; --full 0.001)\n"
           "  --shift X          largest shear displacement [m] (default 0.15 L)\n"
           "  --consolidate S    consolidation at sigma_n before the shear [s] (default 0.05)\n"
           "  --d D              sphere diameter [m] (default 0.005)\n"
           "  --density RHO      [kg/m^3] (default 2650, quartz)\n"
           "  --mu X             friction between spheres, and with the floor and plate (default 0.5)\n"
           "  --mu-wall X        friction of the frame's side walls (default 0: polished)\n"
           "  --E PA, --nu X, --cor X   Hertz-Mindlin law (default 1e8 Pa, 0.3, 0.5)\n"
           "  --seed S           seed of the sample's loose packing (default 1)\n"
           "  --h-penalty S      step of the force-law methods [s] (default: 1/30 of a contact's period\n"
           "                     under the largest sigma_n d^2, 1-2-5 rounded)\n"
           "  --h-dvi S          step of the rigid-contact methods [s] (default 1e-3;\n"
           "                     CCP: tol = 1e-4 m/s, max_iter 200, envelope 0.05 d; exact:\n"
           "                     exact_tol 1e-4, exact_max_outer 3; --opt to change)\n"
           "  --sample-dx X      output interval of shear displacement [m] (default shift/200)\n"
           "  --quick            150 spheres, 3 and 25 kPa, a shift of 0.05 L (a check, in seconds)\n"
           "  --full             Chrono's direct shear sizes: 1,800 spheres, 1 mm/s\n\n");
    xp_common_help(c);
}

int xp_shear(int argc, char **argv)
{
    static const struct option longopts[] = {
        XP_COMMON_LONGOPTS,
        {"sigma", required_argument, 0, 1000},   {"n", required_argument, 0, 1001},
        {"width", required_argument, 0, 1002},   {"speed", required_argument, 0, 1003},
        {"shift", required_argument, 0, 1004},   {"consolidate", required_argument, 0, 1005},
        {"d", required_argument, 0, 1006},       {"density", required_argument, 0, 1007},
        {"mu", required_argument, 0, 1008},      {"mu-wall", required_argument, 0, 1009},
        {"E", required_argument, 0, 1010},       {"nu", required_argument, 0, 1011},
        {"cor", required_argument, 0, 1012},     {"seed", required_argument, 0, 1013},
        {"h-penalty", required_argument, 0, 1014}, {"h-dvi", required_argument, 0, 1015},
        {"sample-dx", required_argument, 0, 1016},
        {"quick", no_argument, 0, 1018},         {"full", no_argument, 0, 1019},
        {0, 0, 0, 0}};
    sh_opts o;
    memset(&o, 0, sizeof o);
    xp_common_init(&o.c, "shear", argc, argv);
    /* the penalty method without tangential history: a method of this experiment */
    if (o.c.ntable < XP_MAX_METHODS) {
        xp_method nh = {"penalty-nohistory", "Hertz-Mindlin penalty without tangential history (Coulomb cap on the "
                                             "dashpot)", "penalty", "history=off", XP_KIND_PENALTY, 0};
        for (int k = o.c.ntable++; k > 1; k--) o.c.table[k] = o.c.table[k - 1];
        o.c.table[1] = nh;
    }
    o.c.gives_stiffness = 1;
    xp_methods_choose(&o.c, "penalty,penalty-nohistory,dvi,dvi-exact");
    snprintf(o.c.method_default, sizeof o.c.method_default, "penalty,penalty-nohistory,dvi,dvi-exact");
    o.mat = (gr_material){5e-3, 2650.0, 0.5, 1e8, 0.3, 0.5};
    o.sample = (gr_sample_def){300, 0.0, 1, 2.0};
    o.nsigma = 4;
    o.sigma[0] = 3e3, o.sigma[1] = 8e3, o.sigma[2] = 15e3, o.sigma[3] = 25e3;
    o.speed = 0.01;
    o.consolidate = 0.05;
    o.hdvi = 1e-3;
    int quick = 0, full = 0, nset = 0, speedset = 0, sigmaset = 0, shiftset = 0, rc = 2, opt;
    double x;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        if (xp_common_option(&o.c, opt, optarg) != 0) continue;
        int bad = 0;
        switch (opt) {
        case '?' + 256: sh_help(&o.c); rc = 0; goto out;
        case 1000:
            bad = xp_parse_list("sigma", optarg, 0.01, 1e6, o.sigma, SH_MAXS, &o.nsigma);
            for (int i = 0; !bad && i < o.nsigma; i++) o.sigma[i] *= 1e3;
            sigmaset = 1;
            break;
        case 1001:
            bad = xp_parse_double("n", optarg, 10, 1e6, &x);
            o.sample.n = (size_t)x, nset = 1;
            break;
        case 1002: bad = xp_parse_double("width", optarg, 1e-4, 10, &o.sample.L); break;
        case 1003: bad = xp_parse_double("speed", optarg, 1e-6, 10, &o.speed), speedset = 1; break;
        case 1004: bad = xp_parse_double("shift", optarg, 1e-6, 10, &o.shift), shiftset = 1; break;
        case 1005: bad = xp_parse_double("consolidate", optarg, 0, 100, &o.consolidate); break;
        case 1006: bad = xp_parse_double("d", optarg, 1e-6, 1, &o.mat.d); break;
        case 1007: bad = xp_parse_double("density", optarg, 1e-3, 1e6, &o.mat.density); break;
        case 1008: bad = xp_parse_double("mu", optarg, 0, 10, &o.mat.mu); break;
        case 1009: bad = xp_parse_double("mu-wall", optarg, 0, 10, &o.mu_wall); break;
        case 1010: bad = xp_parse_double("E", optarg, 1.0, 1e15, &o.mat.E); break;
        case 1011: bad = xp_parse_double("nu", optarg, -0.999, 0.499, &o.mat.nu); break;
        case 1012: bad = xp_parse_double("cor", optarg, 1e-6, 1.0, &o.mat.cor); break;
        case 1013:
            bad = xp_parse_double("seed", optarg, 0, 4294967295.0, &x);
            o.sample.seed = (unsigned long)x;
            break;
        case 1014: bad = xp_parse_double("h-penalty", optarg, 1e-12, 0.1, &o.hpen); break;
        case 1015: bad = xp_parse_double("h-dvi", optarg, 1e-9, 0.1, &o.hdvi); break;
        case 1016: bad = xp_parse_double("sample-dx", optarg, 1e-9, 1, &o.sample_dx); break;
        case 1018: quick = 1; break;
        case 1019: full = 1; break;
        default: xp_option_unknown(); break;
        }
        (void)bad;
    }
    for (int i = optind; i < argc; i++) xp_option_error("contactlab shear: unexpected argument '%s'\n", argv[i]);
    if (quick && full) xp_option_error("contactlab shear: --quick and --full exclude each other\n");
    if (xp_option_errors("contactlab shear")) goto out;
    if (quick) {
        if (!nset) o.sample.n = 150;
        if (!sigmaset) o.nsigma = 2, o.sigma[1] = 25e3;
        if (!shiftset) o.shift = 0.05 * cbrt(o.sample.n * M_PI / 6.0 * pow(o.mat.d, 3) / 0.6);
        o.consolidate = fmin(o.consolidate, 0.05);
    }
    if (full) {
        if (!nset) o.sample.n = 1800;
        if (!speedset) o.speed = 1e-3;
    }
    if (o.c.h > 0.0) o.hpen = o.hdvi = o.c.h;
    if (xp_out_prepare(&o.c)) {
        rc = 1;
        goto out;
    }
    char spath[2048], sample_path[2048];
    xp_path(&o.c, "shear-sample.dat", sample_path, sizeof sample_path);
    xp_path(&o.c, "shear-summary.csv", spath, sizeof spath);
    static const char *const scols[] = {"method",        "sigma_n_target_kPa", "sigma_n_kPa", "peak_ratio",
                                        "x_peak_mm",     "residual_ratio",     "tau_peak_kPa", "tau_residual_kPa",
                                        "dilation_max_mm", "inertial_number",  "h_s",          "steps",
                                        "wall_s",        "series_file"};
    enum { NS = sizeof scols / sizeof scols[0] };
    clab_options meta;
    clab_options_init(&meta);
    clab_options_set(&meta, "experiment", "shear", NULL);
    clab_options_set(&meta, "peak_ratio", "largest tau/sigma_n of the curve smoothed over 0.1 d of displacement", NULL);
    clab_options_set(&meta, "residual_ratio", "mean tau/sigma_n over the last third of the shift", NULL);
    clab_options_set(&meta, "sigma_n_kPa", "on the shear plane: the plate's target plus the weight above the split", NULL);
    if (!sigmaset && o.nsigma > 2)
        clab_options_set(&meta, "exact_friction_stresses", "De Saxce's fixed point (exact Coulomb) runs at the first and "
                         "last normal stress only (--sigma not given); at most 3 CCP solves a step", NULL);
    clab_csv *sum = xp_summary_begin(&o.c, spath, &meta, scols, NS);
    if (!sum) {
        rc = 1;
        goto out;
    }
    gr_sample smp;
    if (gr_sample_get(&o.c, &o.sample, &o.mat, sample_path, &smp)) {
        clab_csv_close(sum, NULL);
        rc = 1;
        goto out;
    }
    printf("%-18s %9s %9s %9s %9s %9s %9s %9s\n", "method", "sigma_kPa", "peak", "x_peak_mm", "residual",
           "dilat_mm", "I", "wall_s");
    /* the Mohr-Coulomb fits: one row per method */
    double sn[XP_MAX_METHODS][SH_MAXS], tp[XP_MAX_METHODS][SH_MAXS], tr[XP_MAX_METHODS][SH_MAXS];
    double wall[XP_MAX_METHODS] = {0};
    int ns[XP_MAX_METHODS] = {0};
    rc = 0;
    for (int mi = 0; mi < o.c.nmethod && rc == 0; mi++) {
        const xp_method *im = o.c.method[mi];
        xp_progress pb;
        char label[128];
        /* De Saxce's fixed point costs about 20 times the relaxed CCP a step: by default (no
         * --sigma) it runs at the lowest and highest normal stress only, the two points of its
         * envelope */
        int pick[SH_MAXS], np = 0;
        for (int i = 0; i < o.nsigma; i++)
            if (sigmaset || !gr_exact_friction(im) || o.nsigma <= 2 || i == 0 || i == o.nsigma - 1) pick[np++] = i;
        snprintf(label, sizeof label, "shear %s, %d stresses", im->name, np);
        xp_progress_begin(&pb, &o.c, label);
        for (int j = 0; j < np && rc == 0; j++) {
            const int i = pick[j];
            sh_result r = {0};
            char file[256];
            int st = sh_case(&o, im, &smp, o.sigma[i], &r, file, sizeof file, &pb, (double)j / np, 1.0 / np);
            if (st) {
                rc = st == 2 ? 128 + xp_stop_signal() : 1;
                break;
            }
            sn[mi][j] = r.sigma_n, tp[mi][j] = r.tau_peak, tr[mi][j] = r.tau_res, ns[mi] = j + 1;
            wall[mi] += r.wall;
            double vals[] = {o.sigma[i] / 1e3, r.sigma_n / 1e3, r.peak, r.x_peak, r.residual, r.tau_peak / 1e3,
                             r.tau_res / 1e3, r.dilation, r.inertial, r.h, r.steps, r.wall};
            const char *tail[] = {file};
            if (xp_summary_row(&o.c, sum, &im->name, 1, vals, sizeof vals / sizeof vals[0], tail, 1)) {
                rc = 1;
                break;
            }
            if (pb.on) fprintf(stderr, "\r%*s\r", 80, "");
            printf("%-18s %9.3g %9.4f %9.3f %9.4f %9.3f %9.2e %9.1f\n", im->name, o.sigma[i] / 1e3, r.peak, r.x_peak,
                   r.residual, r.dilation, r.inertial, r.wall);
            fflush(stdout);
        }
        if (rc == 0) xp_progress_end(&pb);
    }
    if (rc == 0) rc = sh_mohr_coulomb(&o, sn, tp, tr, ns, wall);
    gr_sample_free(&smp);
    rc = xp_finish(&o.c, rc, sum, spath, "shear-sigma_*.csv", "shear.gp",
                   "shear-stress-ratio.png, shear-dilation.png, shear-mohr-coulomb.png");
out:
    xp_common_free(&o.c);
    return rc;
}
