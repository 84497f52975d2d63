/* hopper.c: contactlab hopper: the discharge of a flat-bottomed box or a conical hopper
 * through a circular orifice of diameter D_o, under every method, from one settled fill.
 *
 * Beverloo, Leniger and van de Velde (Chem. Eng. Sci. 15, 260, 1961) correlate the mass flow
 * rate of coarse grains through a circular orifice as
 *     W = C rho_b sqrt(g) (D_o - k d)^(5/2),
 * independent of the fill height, with C about 0.58 and k about 1.4 for spheres (C in 0.55 to
 * 0.65, k in 1.3 to 1.6 across materials: Nedderman, Statics and Kinematics of Granular
 * Materials, Cambridge 1992, Sect. 10.2). The driver settles the fill once with the
 * Hertz-Mindlin penalty method (hopper_scene.c), measures its bulk density rho_b, then for every
 * orifice and method opens the floor at t = 0 and counts the spheres as they pass the plane
 * 2 d below it (each once, frozen there: hopper_fit.c). W is the slope of the discharged mass
 * against time between 20 % and 80 % of the mass discharged by the end; W^(2/5) against D_o
 * is a straight line under Beverloo, whose slope and intercept give C and k per method. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clab_sim.h"
#include "hopper_xp.h"

#define HP_C_LIT 0.58 /* Beverloo et al. (1961), spheres; Nedderman (1992) Sect. 10.2 */
#define HP_K_LIT 1.4

static const char *geom_name(int g) { return g == HP_CONE ? "cone" : "flat"; }

static void hp_help(const xp_common *c)
{
    printf("usage: contactlab hopper [options]\n\n"
           "Hopper discharge: N spheres settled in a flat-bottomed box (four walls, a triangle-mesh floor) or a\n"
           "conical hopper (a mesh frustum on an annular mesh floor) flow out through a circular orifice of\n"
           "diameter D_o opened at t = 0. The fill is settled once with the Hertz-Mindlin penalty method (the\n"
           "orifice closed by a half-space) and every orifice and method starts from it. A sphere counts as\n"
           "discharged once, when its center passes 2 d below the floor; it is then frozen (fixed, moved\n"
           "away). W: the slope of the discharged mass against time between 20 %% and 80 %% of the mass\n"
           "discharged. Beverloo's law W = C rho_b sqrt(g) (D_o - k d)^(5/2) (Beverloo, Leniger and van de\n"
           "Velde 1961) is fitted per method as the line W^(2/5) = a D_o + b, with rho_b measured in the\n"
           "settled fill; spheres in the literature: C 0.55-0.65, k 1.3-1.6 (Nedderman 1992).\n"
           "Writes hopper-<geometry>-D_<D_o/d>-<method>.csv (discharged mass against time),\n"
           "hopper-summary.csv (W per orifice and method, run times), hopper-beverloo.csv (C, k) and figures.\n"
           "The default (1500 spheres in a box of 16 d, orifices 7 to 10 d, penalty and dvi) takes about\n"
           "5 minutes of one core's time, 4 of them the dvi discharges (its bed, about 5 d deep, flows slower than\n"
           "a deep one); --full is the study (2500 spheres, 8.5 d deep, orifices 5 to 10 d): about 50 minutes of\n"
           "one core, 30 of them the dvi case at 6 d, where the CCP's flow crawls until --t-end.\n"
           "Checkpoints: SIGINT/SIGTERM, --stop-after N or --checkpoint-every N write <out>/hopper.ckpt (the\n"
           "fill's settling or the discharge running, its CSVs flushed); the same command with --restart FILE\n"
           "continues it, the cases done before kept. The settled fill is saved as hopper-<geometry>-fill.ckpt\n"
           "and --fill-from DIR loads it from an earlier run's folder instead of settling again (the same bits).\n\n"
           "Experiment options:\n"
           "  --geometry LIST   flat, cone or flat,cone (default flat)\n"
           "  --orifice LIST    orifice diameters D_o in mean sphere diameters (default 7,8,9,10; at least\n"
           "                    four for the Beverloo fit)\n"
           "  --n N             spheres (default 1500)\n"
           "  --full            the study: 2500 spheres, orifices 5,6,7,8,9,10 (unless --n, --orifice given)\n"
           "  --fill-from DIR   the settled fill of an earlier run with the same fill options (DIR/hopper-\n"
           "                    <geometry>-fill.ckpt: the same spheres, container, penalty law and --t-settle)\n"
           "  --width W         flat: inner width of the box in mean diameters (default 16)\n"
           "  --cone-angle DEG  cone: half-angle from the vertical (default 30)\n"
           "  --cone-bottom B   cone: lower diameter of the frustum in mean diameters (default 10; every\n"
           "                    orifice at most this)\n"
           "  --radius R        mean sphere radius [m] (default 0.005)\n"
           "  --poly P          radii uniform in R (1 +- P) (default 0.1)\n"
           "  --density D       [kg/m^3] (default 2500)\n"
           "  --mu X            friction sphere-sphere (default 0.5)\n"
           "  --mu-wall X       friction sphere-wall and sphere-floor (default 0.5)\n"
           "  --E PA, --nu X, --cor X   penalty law (default 1e6 Pa, 0.3, 0.5)\n"
           "  --seed S          the fill's jitter and radii (default 1)\n"
           "  --h-penalty S     force-law step [s] (default half the stable step, 1-2-5 rounded)\n"
           "  --h-dvi S         rigid-contact step [s] (default 5e-4)\n"
           "  --t-settle S      settling time of the fill [s] (default 0.8)\n"
           "  --t-end S         longest discharge [s] (default 6)\n"
           "  --stall S         stop when no sphere left for S seconds (default 0.3)\n"
           "  --stop-fraction F stop when this fraction of the spheres has left (default 0.5: the flow\n"
           "                    from a bed still deeper than the orifice; 1: drain)\n"
           "  --sample-dt S     output interval [s] (default 0.01)\n"
           "  --quick           400 spheres, orifices 6,8 d, t-end 0.6 s, t-settle 0.4 s (a smoke run)\n\n"
           "Default methods: both (penalty,dvi). The rigid-contact method runs the Tasora-Anitescu CCP with\n"
           "APGD to a residual of 1e-4 m/s (at most 1000 iterations), warm-started, with recovery_speed 0\n"
           "(the penalty fill's overlaps kept, none pushed apart); --opt dvi:KEY=VALUE changes them.\n\n");
    xp_common_help(c);
}

static int parse_geometry(const char *arg, hp_opts *o)
{
    if (xp_list_check("geometry", arg)) return -1;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", arg);
    o->ngeom = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int g = strcmp(tok, "flat") == 0 ? HP_FLAT : strcmp(tok, "cone") == 0 ? HP_CONE : -1;
        if (g < 0 || o->ngeom == 2) {
            xp_option_error("contactlab hopper: --geometry '%s': '%s' is not flat or cone\n", arg, tok);
            return -1;
        }
        o->geom[o->ngeom++] = g;
    }
    return 0;
}

static const char *const scols[] = {"method",       "geometry", "D_o_m",    "D_o_over_d", "n",        "d_mean_m",
                                    "rho_b_kg_m3",  "phi_b",    "W_kg_s",   "W_r2",       "W_beverloo_lit_kg_s",
                                    "t_first_s",    "t_last_s", "discharged", "remaining", "h_s",     "steps",
                                    "sim_time_s",   "wall_s",   "outcome",  "series_file"};
enum { NS = sizeof scols / sizeof scols[0], NV = NS - 4 };

/* the metadata of a series or the summary */
static void hp_meta(const hp_opts *o, const hp_fill *f, clab_options *meta)
{
    char v[64];
    const hp_def *d = &o->def;
    clab_options_set(meta, "experiment", "hopper", NULL);
#define META(k, val) (snprintf(v, sizeof v, "%.17g", (double)(val)), clab_options_set(meta, k, v, NULL))
    clab_options_set(meta, "geometry", geom_name(d->geometry), NULL);
    META("n", d->n);
    META("radius_m", d->radius);
    META("poly", d->poly);
    META("density_kg_m3", d->density);
    META("mu", d->mu);
    META("mu_wall", d->mu_wall);
    META("E_Pa", d->E);
    META("nu", d->nu);
    META("cor", d->cor);
    META("seed", d->seed);
    if (d->geometry == HP_FLAT) META("width_m", d->width);
    else META("cone_half_angle_deg", d->half_angle * 180.0 / M_PI), META("cone_bottom_m", d->bottom);
    META("t_settle_s", o->t_settle);
    META("t_end_s", o->c.t_end);
    META("stall_s", o->t_stall);
    META("sample_dt_s", o->sample_dt);
    META("stop_fraction", o->stop_fraction);
    if (f) {
        META("d_mean_m", f->info.d_mean);
        META("fill_mass_kg", f->info.mass);
        META("rho_b_kg_m3", f->rho_b);
        META("phi_b", f->phi);
        META("settled_kinetic_energy_J", f->ke);
    }
#undef META
    clab_options_set(meta, "fill", "loose jittered lattice settled once with the Hertz-Mindlin penalty method over a "
                                   "closed floor (a half-space), velocities zeroed; every orifice and method starts from it", NULL);
    clab_options_set(meta, "discharge", "a sphere counts once, when its center passes z = -2 d_mean; it is then frozen "
                                        "(fixed, at rest, moved to a lattice below)", NULL);
    clab_options_set(meta, "W_kg_s", "least-squares slope of the discharged mass against time between 20 % and 80 % of "
                                     "the mass discharged by the end", NULL);
    clab_options_set(meta, "outcome", "stop fraction (the run's end), drained, stopped flowing (a stall), clogged (a "
                                      "stall before a tenth of the stop fraction left: not in the Beverloo fit), t_end", NULL);
    clab_options_set(meta, "W_beverloo_lit_kg_s", "Beverloo et al. (1961) with C = 0.58, k = 1.4 (Nedderman 1992)", NULL);
    int rigid = 0;
    for (int mi = 0; mi < o->c.nmethod; mi++) rigid |= strcmp(o->c.method[mi]->backend, "dvi") == 0;
    if (rigid)
        clab_options_set(meta, "rigid_contact_options",
                         "dvi backend (Tasora-Anitescu CCP): solver apgd, tol 1e-4 m/s (the residual, a velocity: 2 % of "
                         "the g h gravity adds in a step of 5e-4 s), max_iter 1000 (a cap, not reached when the "
                         "iterations column stays below it), warm_start on, recovery_speed 0 (the penalty fill's "
                         "overlaps kept, none pushed apart); each series lists its dvi_* values", NULL);
}

/* Beverloo's C and k per geometry and method: the line W^(2/5) = a D_o + b over the flow
 * rates of x (a clogged orifice is NAN: not in the fit) */
static int beverloo_rows(const hp_opts *o, const hp_state *x, clab_csv *bev)
{
    printf("Beverloo fit, W^(2/5) = a D_o + b (literature for spheres: C %.2f (0.55-0.65), k %.1f (1.3-1.6)):\n",
           HP_C_LIT, HP_K_LIT);
    printf("%-16s %-5s %8s %8s %10s %10s %8s %3s\n", "method", "geom", "C", "k", "a", "b", "r2", "n");
    for (int gi = 0; gi < o->ngeom; gi++)
        for (int mi = 0; mi < o->c.nmethod; mi++) {
            const double dm = x->d_mean[gi], rho_b = x->rho_b[gi];
            double D[HP_MAXD];
            for (int i = 0; i < o->nD; i++) D[i] = o->Dod[i] * dm;
            hp_beverloo b;
            int bad = hp_beverloo_fit(D, x->W[gi][mi], o->nD, rho_b, 9.81, dm, &b);
            const char *m = o->c.method[mi]->name, *g = geom_name(o->geom[gi]);
            printf("%-16s %-5s %8.4f %8.4f %10.6f %10.6f %8.5f %3d%s\n", m, g, b.C, b.k, b.a, b.b, b.r2, b.npoints,
                   bad ? "  (no fit: fewer than 2 flow rates)" : b.npoints < 4 ? "  (fewer than 4 orifices)" : "");
            double vals[] = {b.C, b.k, b.a, b.b, b.r2, b.npoints, rho_b, dm, HP_C_LIT, HP_K_LIT};
            const char *head[] = {m, g};
            if (xp_summary_row(&o->c, bev, head, 2, vals, sizeof vals / sizeof vals[0], NULL, 0)) return 1;
        }
    return 0;
}

/* hopper-beverloo.csv, written once every case is done (a restart writes it anew) */
static int beverloo_csv(hp_opts *o, const hp_state *x)
{
    static const char *const bcols[] = {"method", "geometry", "C", "k", "a_line", "b_line", "r2", "orifices",
                                        "rho_b_kg_m3", "d_mean_m", "C_literature", "k_literature"};
    char bpath[2048];
    xp_path(&o->c, "hopper-beverloo.csv", bpath, sizeof bpath);
    clab_options bmeta;
    clab_options_init(&bmeta);
    clab_options_set(&bmeta, "experiment", "hopper", NULL);
    clab_options_set(&bmeta, "law", "Beverloo, Leniger and van de Velde (1961): W = C rho_b sqrt(g) (D_o - k d)^(5/2)", NULL);
    clab_options_set(&bmeta, "fit", "least-squares line W^(2/5) = a_line D_o + b_line; C = a^(5/2)/(rho_b sqrt g), k = -b/(a d)", NULL);
    clab_options_set(&bmeta, "literature", "spheres: C 0.55-0.65, k 1.3-1.6 (Beverloo et al. 1961; Nedderman, Statics and "
                                           "Kinematics of Granular Materials, 1992, Sect. 10.2)", NULL);
    clab_options_set(&bmeta, "g_m_s2", "9.81", NULL);
    clab_error err;
    clab_csv *bev = clab_csv_open(bpath, o->c.force || o->c.restart[0] ? CLAB_CSV_OVERWRITE : 0, &err);
    int rc = !bev || clab_csv_meta(bev, &bmeta, o->c.argc, o->c.argv, &err) ||
             clab_csv_header(bev, bcols, sizeof bcols / sizeof bcols[0], &err);
    clab_options_free(&bmeta);
    if (rc) fprintf(stderr, "contactlab hopper: %s\n", err.msg);
    if (!rc) rc = beverloo_rows(o, x, bev);
    if (bev && clab_csv_close(bev, rc ? NULL : &err) && !rc) {
        fprintf(stderr, "contactlab hopper: %s\n", err.msg);
        rc = 1;
    }
    return rc;
}

/* the fill and the discharges of geometry o->gi; 0 done, 1 failed, 2 stopped (*status) */
static int run_geometry(hp_opts *o, hp_state *x, clab_csv *sum, int *status)
{
    hp_fill f;
    memset(&f, 0, sizeof f);
    int rc = hp_fill_case(o, x, sum, &f, status);
    if (rc) {
        clab_world_destroy(f.w);
        return rc;
    }
    const int gi = o->gi;
    x->rho_b[gi] = f.rho_b, x->phi[gi] = f.phi, x->d_mean[gi] = f.info.d_mean;
    const char *g = geom_name(o->def.geometry);
    if (f.wall > 0.0) printf("%s: %d spheres settled in %.1f s wall", g, o->def.n, f.wall);
    else printf("%s: %d spheres, the settled fill loaded from %s", g, o->def.n, f.source);
    printf(" (kinetic energy left %.3g J), d = %.4g m, rho_b = %.1f kg/m^3 (solid fraction %.3f)\n", f.ke,
           f.info.d_mean, f.rho_b, f.phi);
    printf("%-16s %-5s %6s %10s %10s %10s %7s %6s %9s %8s %9s  %s\n", "method", "geom", "D_o/d", "W_kg_s", "W_bev_lit",
           "t_first_s", "out", "left", "h_s", "steps", "wall_s", "outcome");
    for (int mi = 0; mi < o->c.nmethod && !rc; mi++) {
        const xp_method *m = o->c.method[mi];
        xp_progress pb;
        char label[128];
        snprintf(label, sizeof label, "hopper %s %s", g, m->name);
        xp_progress_begin(&pb, &o->c, label);
        for (int i = 0; i < o->nD && !rc; i++) {
            char file[256], path[2048], clabel[64];
            snprintf(clabel, sizeof clabel, "%s %s D_o=%g", g, m->name, o->Dod[i]);
            if (xp_case_skip(&o->c, clabel)) continue; /* finished before the checkpoint */
            snprintf(file, sizeof file, "hopper-%s-D_%g-%s.csv", g, o->Dod[i], m->name);
            xp_path(&o->c, file, path, sizeof path);
            clab_options meta;
            clab_options_init(&meta);
            hp_meta(o, &f, &meta);
            xp_method_meta(m, &meta);
            char v[64];
            snprintf(v, sizeof v, "%.17g", o->Dod[i]);
            clab_options_set(&meta, "D_o_over_d", v, NULL);
            snprintf(v, sizeof v, "%.17g", o->Dod[i] * f.info.d_mean);
            clab_options_set(&meta, "D_o_m", v, NULL);
            hp_result r;
            memset(&r, 0, sizeof r);
            rc = hp_discharge_case(o, x, &f, m, o->Dod[i], path, &meta, sum, &r, &pb, (double)i / o->nD, 1.0 / o->nD,
                                   status);
            clab_options_free(&meta);
            if (rc) break;
            const double D = o->Dod[i] * f.info.d_mean, dm = f.info.d_mean;
            const double Wlit = D > HP_K_LIT * dm ? HP_C_LIT * f.rho_b * sqrt(9.81) * pow(D - HP_K_LIT * dm, 2.5) : 0.0;
            x->W[gi][mi][i] = strcmp(r.outcome, "clogged") == 0 ? NAN : r.W; /* not in the fit */
            x->runtime[mi] += r.wall;
            double vals[NV] = {D, o->Dod[i], o->def.n, dm, f.rho_b, f.phi, r.W, r.r2, Wlit, r.t_first, r.t_last,
                               (double)r.discharged, (double)(o->def.n - (int)r.discharged), r.h, r.steps, r.t, r.wall};
            const char *head[] = {m->name, g}, *tail[] = {r.outcome, file};
            if (xp_summary_row(&o->c, sum, head, 2, vals, NV, tail, 2)) {
                rc = 1;
                break;
            }
            if (pb.on) fprintf(stderr, "\r%*s\r", 80, "");
            printf("%-16s %-5s %6g %10.5f %10.5f %10.4f %7zu %6zu %9.2e %8.0f %9.1f  %s\n", m->name, g, o->Dod[i], r.W, Wlit,
                   r.t_first, r.discharged, (size_t)o->def.n - r.discharged, r.h, r.steps, r.wall, r.outcome);
            fflush(stdout);
        }
        if (!rc) xp_progress_end(&pb);
    }
    clab_world_destroy(f.w);
    return rc;
}

static void hp_defaults(hp_opts *o)
{
    hp_def *d = &o->def;
    d->n = 1500;
    d->radius = 0.005;
    d->poly = 0.1;
    d->density = 2500.0;
    d->mu = 0.5;
    d->mu_wall = 0.5;
    d->E = 1e6;
    d->nu = 0.3;
    d->cor = 0.5;
    d->seed = 1;
    o->geom[0] = HP_FLAT;
    o->ngeom = 1;
    o->nD = 4; /* 7 to 10 d: every method flows (the CCP arches over 5 d, crawls through 6 d) */
    for (int i = 0; i < 4; i++) o->Dod[i] = 7.0 + i;
    o->width_d = 16.0;
    o->bottom_d = 10.0;
    o->angle_deg = 30.0;
    o->hdvi = 5e-4;
    o->t_settle = 0.8;
    o->t_stall = 0.3;
    o->sample_dt = 0.01;
    o->stop_fraction = 0.5;
}

int xp_hopper(int argc, char **argv)
{
    static const struct option longopts[] = {
        XP_COMMON_LONGOPTS,
        {"geometry", required_argument, 0, 1000},  {"orifice", required_argument, 0, 1001},
        {"n", required_argument, 0, 1002},         {"width", required_argument, 0, 1003},
        {"cone-angle", required_argument, 0, 1004}, {"cone-bottom", required_argument, 0, 1005},
        {"radius", required_argument, 0, 1006},    {"poly", required_argument, 0, 1007},
        {"density", required_argument, 0, 1008},   {"mu", required_argument, 0, 1009},
        {"mu-wall", required_argument, 0, 1010},   {"E", required_argument, 0, 1011},
        {"nu", required_argument, 0, 1012},        {"cor", required_argument, 0, 1013},
        {"seed", required_argument, 0, 1014},      {"h-penalty", required_argument, 0, 1015},
        {"h-dvi", required_argument, 0, 1016},     {"t-settle", required_argument, 0, 1017},
        {"stall", required_argument, 0, 1018},     {"sample-dt", required_argument, 0, 1019},
        {"quick", no_argument, 0, 1020},           {"stop-fraction", required_argument, 0, 1021},
        {"fill-from", required_argument, 0, 1022}, {"full", no_argument, 0, 1023},     {0, 0, 0, 0}};
    hp_opts o;
    memset(&o, 0, sizeof o);
    xp_common_init(&o.c, "hopper", argc, argv);
    hp_defaults(&o);
    int rc = 2, opt, nset = 0, settle_set = 0, Dset = 0;
    long seed = 1;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        int r = xp_common_option(&o.c, opt, optarg);
        if (r != 0) continue;
        double n = 0;
        switch (opt) {
        case '?' + 256: hp_help(&o.c); rc = 0; goto out;
        case 1000: parse_geometry(optarg, &o); break;
        case 1001: Dset = 1, xp_parse_list("orifice", optarg, 1.0, 100.0, o.Dod, HP_MAXD, &o.nD); break;
        case 1002: if (!xp_parse_double("n", optarg, 1, 1e7, &n)) o.def.n = (int)n, nset = 1; break;
        case 1003: xp_parse_double("width", optarg, 4.0, 1e4, &o.width_d); break;
        case 1004: xp_parse_double("cone-angle", optarg, 0.0, 80.0, &o.angle_deg); break;
        case 1005: xp_parse_double("cone-bottom", optarg, 1.5, 1e4, &o.bottom_d); break;
        case 1006: xp_parse_double("radius", optarg, 1e-6, 10.0, &o.def.radius); break;
        case 1007: xp_parse_double("poly", optarg, 0.0, 0.49, &o.def.poly); break;
        case 1008: xp_parse_double("density", optarg, 1e-3, 1e6, &o.def.density); break;
        case 1009: xp_parse_double("mu", optarg, 0.0, 10.0, &o.def.mu); break;
        case 1010: xp_parse_double("mu-wall", optarg, 0.0, 10.0, &o.def.mu_wall); break;
        case 1011: xp_parse_double("E", optarg, 1.0, 1e15, &o.def.E); break;
        case 1012: xp_parse_double("nu", optarg, -0.999, 0.499, &o.def.nu); break;
        case 1013: xp_parse_double("cor", optarg, 1e-6, 1.0, &o.def.cor); break;
        case 1014: if (!xp_parse_long("seed", optarg, 0, 4294967295L, &seed)) o.def.seed = (unsigned long)seed; break;
        case 1015: xp_parse_double("h-penalty", optarg, 1e-12, 0.1, &o.hpen); break;
        case 1016: xp_parse_double("h-dvi", optarg, 1e-9, 0.1, &o.hdvi); break;
        case 1017: settle_set = !xp_parse_double("t-settle", optarg, 0.0, 1e4, &o.t_settle); break;
        case 1018: xp_parse_double("stall", optarg, 1e-3, 1e4, &o.t_stall); break;
        case 1019: xp_parse_double("sample-dt", optarg, 1e-6, 10.0, &o.sample_dt); break;
        case 1020: o.quick = 1; break;
        case 1021: xp_parse_double("stop-fraction", optarg, 0.05, 1.0, &o.stop_fraction); break;
        case 1022:
            if (strlen(optarg) >= sizeof o.fill_from || !optarg[0])
                xp_option_error("contactlab hopper: --fill-from '%.64s': not a folder name\n", optarg);
            else snprintf(o.fill_from, sizeof o.fill_from, "%s", optarg);
            break;
        case 1023: o.full = 1; break;
        default: xp_option_unknown(); break;
        }
    }
    for (int i = optind; i < argc; i++) xp_option_error("contactlab hopper: unexpected argument '%s'\n", argv[i]);
    for (int g = 0; g < o.ngeom; g++)
        for (int i = 0; i < o.nD; i++)
            if (o.geom[g] == HP_CONE && o.Dod[i] > o.bottom_d)
                xp_option_error("contactlab hopper: --orifice %g is wider than the cone's outlet --cone-bottom %g\n",
                                o.Dod[i], o.bottom_d);
    if (o.quick && o.full) xp_option_error("contactlab hopper: --quick and --full: give one of them\n");
    if (xp_option_errors("contactlab hopper")) goto out;
    if (o.c.h > 0.0) o.hpen = o.hdvi = o.c.h;
    if (o.full) { /* the study: 2500 spheres, orifices 5 to 10 d */
        if (!nset) o.def.n = 2500;
        if (!Dset) {
            o.nD = 6;
            for (int i = 0; i < 6; i++) o.Dod[i] = 5.0 + i;
        }
    }
    if (o.quick) {
        if (!nset) o.def.n = 400;
        if (!settle_set) o.t_settle = 0.4;
        if (!(o.c.t_end > 0.0)) o.c.t_end = 0.6;
        if (!Dset) o.nD = 2, o.Dod[0] = 6.0, o.Dod[1] = 8.0;
    }
    if (!(o.c.t_end > 0.0)) o.c.t_end = 6.0;
    o.def.half_angle = o.angle_deg * M_PI / 180.0;
    if (xp_out_prepare(&o.c)) {
        rc = 1;
        goto out;
    }
    char spath[2048];
    xp_path(&o.c, "hopper-summary.csv", spath, sizeof spath);
    clab_options meta;
    clab_options_init(&meta);
    hp_meta(&o, NULL, &meta);
    clab_csv *sum = xp_summary_begin(&o.c, spath, &meta, scols, NS);
    if (!sum) {
        rc = 1;
        goto out;
    }
    hp_state *x = malloc(sizeof *x);
    if (!x) {
        clab_csv_close(sum, NULL);
        rc = 1;
        goto out;
    }
    memset(x, 0, sizeof *x);
    for (int g = 0; g < 2; g++)
        for (int mi = 0; mi < XP_MAX_METHODS; mi++)
            for (int i = 0; i < HP_MAXD; i++) x->W[g][mi][i] = NAN;
    int status = 0;
    rc = 0;
    for (int g = 0; g < o.ngeom && !rc; g++) {
        o.gi = g;
        o.def.geometry = o.geom[g];
        o.def.width = o.width_d * 2.0 * o.def.radius;
        o.def.bottom = o.bottom_d * 2.0 * o.def.radius;
        rc = run_geometry(&o, x, sum, &status);
    }
    if (!rc) rc = beverloo_csv(&o, x);
    if (!rc) {
        printf("run time per method (every orifice and geometry, settling excluded%s):\n",
               o.c.restart[0] ? "; the cases of the interrupted run included" : "");
        for (int mi = 0; mi < o.c.nmethod; mi++) printf("  %-16s %9.1f s\n", o.c.method[mi]->name, x->runtime[mi]);
    }
    free(x);
    if (rc == 2) rc = status; /* stopped: the exit status, the checkpoint written */
    rc = xp_finish(&o.c, rc, sum, spath, "hopper-*.csv", "hopper.gp", "hopper-beverloo.png, hopper-discharge.png");
out:
    xp_common_free(&o.c);
    return rc;
}
