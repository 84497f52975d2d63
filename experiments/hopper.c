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
#include <time.h>

#include "clab_sim.h"
#include "hopper.h"
#include "pile_scene.h"
#include "xp.h"

#define HP_MAXD 12
#define HP_C_LIT 0.58 /* Beverloo et al. (1961), spheres; Nedderman (1992) Sect. 10.2 */
#define HP_K_LIT 1.4
#define HP_RECOVERY "0" /* the dvi backend's recovery_speed [m/s] */

typedef struct hp_opts {
    xp_common c;
    hp_def def;
    int geom[2], ngeom;          /* the containers (HP_FLAT, HP_CONE) */
    double Dod[HP_MAXD];         /* orifice diameters / d */
    int nD;
    double width_d, bottom_d;    /* box width and cone outlet in mean diameters */
    double angle_deg;            /* cone half-angle [deg] */
    double hpen, hdvi;           /* steps [s] (hpen 0: half the stable step, 1-2-5 rounded) */
    double t_settle;             /* settling time [s] */
    double t_stall;              /* stop when nothing left the hopper for so long [s] */
    double sample_dt;            /* output interval [s] */
    double stop_fraction;        /* stop when this fraction of the spheres has left */
    int quick;
} hp_opts;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

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
           "No checkpoints: a run is a few minutes (the freezing of discharged spheres is not in a checkpoint).\n\n"
           "Experiment options:\n"
           "  --geometry LIST   flat, cone or flat,cone (default flat)\n"
           "  --orifice LIST    orifice diameters D_o in mean sphere diameters (default 5,6,7,8; at least\n"
           "                    four for the Beverloo fit)\n"
           "  --n N             spheres (default 2500)\n"
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
           "Default methods: both (penalty,dvi).\n\n");
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

static const char *const series_cols[] = {"t_s", "discharged", "discharged_mass_kg", "remaining", "kinetic_energy_J",
                                          "contacts", "iterations"};
enum { NCOLS = sizeof series_cols / sizeof series_cols[0] };
static const char *const scols[] = {"method",       "geometry", "D_o_m",    "D_o_over_d", "n",        "d_mean_m",
                                    "rho_b_kg_m3",  "phi_b",    "W_kg_s",   "W_r2",       "W_beverloo_lit_kg_s",
                                    "t_first_s",    "t_last_s", "discharged", "remaining", "h_s",     "steps",
                                    "sim_time_s",   "wall_s",   "outcome",  "series_file"};
enum { NS = sizeof scols / sizeof scols[0], NV = NS - 4 };

/* the settled fill of one geometry, shared by every orifice and method */
typedef struct hp_fill {
    clab_world *w;
    hp_info info;
    double rho_b, phi, ke, wall;
} hp_fill;

static int settle(hp_opts *o, hp_fill *f)
{
    clab_error err;
    f->w = hp_build(&o->def, 0.0, HP_GATE, NULL, 0, &f->info, &err);
    if (!f->w) {
        fprintf(stderr, "contactlab hopper: %s\n", err.msg);
        return 1;
    }
    const xp_method *pm = xp_method_find(&o->c, "penalty");
    clab_sim *s = pm ? xp_sim(&o->c, f->w, pm, o->hpen > 0.0 ? o->hpen : 1e-5, NULL) : NULL;
    if (!s) return 1;
    if (o->hpen <= 0.0) s->h = xp_pile_penalty_step(s);
    long n = xp_steps(&o->c, o->t_settle, s->h);
    xp_progress pb;
    char label[128];
    snprintf(label, sizeof label, "hopper %s: settling %d spheres (penalty)", geom_name(o->def.geometry), o->def.n);
    xp_progress_begin(&pb, &o->c, label);
    const double t0 = now_s();
    int rc = n < 0;
    for (long k = 0; k < n && !rc; k++) {
        if (clab_sim_step(s, &err)) {
            fprintf(stderr, "contactlab hopper: settling: %s\n", err.msg);
            rc = 1;
        }
        if (k % 200 == 0) xp_progress_update(&pb, (double)k / n);
    }
    if (!rc) xp_progress_end(&pb);
    f->wall = now_s() - t0;
    f->ke = clab_world_kinetic_energy(f->w);
    clab_sim_destroy(s);
    /* at rest: the velocities the fill keeps are the settling's residue */
    for (size_t i = f->info.first; i < f->w->nbodies; i++) {
        f->w->bodies[i].rdot = clab_v3(0.0, 0.0, 0.0);
        f->w->bodies[i].wbar = clab_v3(0.0, 0.0, 0.0);
    }
    f->w->t = 0.0;
    f->w->step = 0;
    f->rho_b = hp_bulk_density(&o->def, f->w, f->info.first, &f->phi);
    return rc;
}

/* one discharge: its series, and what the summary needs */
typedef struct hp_result {
    double W, r2, t_first, t_last, h, steps, t, wall;
    size_t discharged;
    const char *outcome;
} hp_result;

/* the series at path gets meta and the simulation's */
static int discharge(hp_opts *o, const hp_fill *f, const xp_method *m, double Dod, const char *path, clab_options *meta,
                     hp_result *res, xp_progress *pb, double pb0, double pbspan)
{
    clab_error err;
    hp_info info;
    const double d = f->info.d_mean;
    clab_world *w = hp_build(&o->def, Dod * d, HP_OPEN, f->w, f->info.first, &info, &err);
    if (!w) {
        fprintf(stderr, "contactlab hopper: %s\n", err.msg);
        return 1;
    }
    clab_options extra;
    clab_options_init(&extra);
    if (m->kind == XP_KIND_CCP) xp_pile_dvi_defaults(&extra);
    /* the fill is the penalty method's, with its overlaps (about 2 % of d at the floor): the
     * CCP's stabilization asks every overlapping contact to separate (Phi/h capped at
     * recovery_speed), which a bed wedged between the walls cannot do at once: the CCP has no
     * solution, its iterate pumps energy in and the bed blows up within ten steps (measured
     * with recovery_speed = 0.02 and 1 m/s, APGD and Gauss-Seidel alike). HP_RECOVERY = 0 keeps
     * the fill's overlaps as they are (v_n >= 0 on them) and corrects no new one by more than
     * the step's own gap term (override with --opt dvi:recovery_speed=X) */
    if (strcmp(m->backend, "dvi") == 0) clab_options_set(&extra, "recovery_speed", HP_RECOVERY, "hopper default");
    const double h = xp_method_h(m, o->hpen, o->hdvi);
    clab_sim *s = xp_sim(&o->c, w, m, h > 0.0 ? h : 1e-5, &extra);
    clab_options_free(&extra);
    if (!s) {
        clab_world_destroy(w);
        return 1;
    }
    if (h <= 0.0) s->h = xp_pile_penalty_step(s);
    hp_counter k;
    const size_t n = w->nbodies - info.first;
    if (hp_counter_init(&k, info.first, n, -2.0 * d, 2.5 * d)) {
        fprintf(stderr, "contactlab hopper: out of memory\n");
        clab_sim_destroy(s);
        clab_world_destroy(w);
        return 1;
    }
    clab_sim_meta(s, meta);
    clab_csv *csv = clab_csv_open(path, o->c.force ? CLAB_CSV_OVERWRITE : 0, &err);
    if (!csv || clab_csv_meta(csv, meta, o->c.argc, o->c.argv, &err) || clab_csv_header(csv, series_cols, NCOLS, &err)) {
        fprintf(stderr, "contactlab hopper: %s\n", err.msg);
        if (csv) clab_csv_close(csv, NULL);
        hp_counter_free(&k);
        clab_sim_destroy(s);
        clab_world_destroy(w);
        return 1;
    }
    const long nsteps = xp_steps(&o->c, o->c.t_end, s->h), every = (long)fmax(1.0, floor(o->sample_dt / s->h + 0.5));
    int rc = nsteps < 0;
    res->outcome = "t_end";
    double t_change = 0.0, t0 = now_s();
    long kstep = 0;
    for (; kstep <= nsteps && !rc; kstep++) {
        if (kstep > 0) {
            if (xp_stop_signal()) { /* Ctrl-C, SIGTERM: the rows so far are whole; no checkpoint */
                fprintf(stderr, "contactlab hopper: stopped by signal %d at t = %g s\n", xp_stop_signal(), w->t);
                rc = 1;
                break;
            }
            if (clab_sim_step(s, &err)) {
                fprintf(stderr, "contactlab hopper: %s D_o = %g d: %s\n", m->name, Dod, err.msg);
                rc = 1;
                break;
            }
            if (hp_counter_step(&k, w, w->t)) t_change = w->t;
        }
        const int drained = k.count == n || (double)k.count >= o->stop_fraction * (double)n, stalled = w->t - t_change >= o->t_stall && (k.count > 0 || w->t >= 2.0 * o->t_stall);
        if (kstep % every == 0 || kstep == nsteps || drained || stalled) {
            clab_solver_stats st = {0};
            if (s->type->stats) s->type->stats(s->self, &st);
            double row[NCOLS] = {w->t, (double)k.count, k.mass, (double)(n - k.count), clab_world_kinetic_energy(w),
                                 (double)s->contacts.n, (double)st.iterations};
            if (clab_csv_row(csv, row, NCOLS, &err)) {
                fprintf(stderr, "contactlab hopper: %s\n", err.msg);
                rc = 1;
            }
            xp_progress_update(pb, pb0 + pbspan * w->t / o->c.t_end);
        }
        if (drained || stalled) {
            /* a stall before a tenth of the stop fraction left: an arch over the orifice */
            res->outcome = k.count == n                                         ? "drained"
                           : drained                                            ? "stop fraction"
                           : (double)k.count >= 0.1 * o->stop_fraction * (double)n ? "stopped flowing"
                                                                                : "clogged";
            break;
        }
    }
    res->wall = now_s() - t0;
    res->steps = (double)(kstep > nsteps ? nsteps : kstep);
    res->t = w->t;
    res->h = s->h;
    res->discharged = k.count;
    res->t_first = k.count ? k.t_cum[0] : NAN;
    res->t_last = k.count ? k.t_cum[k.count - 1] : NAN;
    if (hp_flow_rate(k.t_cum, k.m_cum, k.count, 0.2, 0.8, &res->W, &res->r2)) res->W = NAN;
    if (clab_csv_close(csv, rc ? NULL : &err) && !rc) {
        fprintf(stderr, "contactlab hopper: %s\n", err.msg);
        rc = 1;
    }
    hp_counter_free(&k);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

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
}

/* Beverloo's C and k per method of one geometry: the line W^(2/5) = a D_o + b */
static int beverloo_rows(const hp_opts *o, const hp_fill *f, const double *W, clab_csv *bev)
{
    for (int mi = 0; mi < o->c.nmethod; mi++) {
        double D[HP_MAXD];
        for (int i = 0; i < o->nD; i++) D[i] = o->Dod[i] * f->info.d_mean;
        hp_beverloo b;
        int bad = hp_beverloo_fit(D, W + mi * HP_MAXD, o->nD, f->rho_b, 9.81, f->info.d_mean, &b);
        const char *m = o->c.method[mi]->name, *g = geom_name(o->def.geometry);
        printf("%-16s %-5s %8.4f %8.4f %10.6f %10.6f %8.5f %3d%s\n", m, g, b.C, b.k, b.a, b.b, b.r2, b.npoints,
               bad ? "  (no fit: fewer than 2 flow rates)" : b.npoints < 4 ? "  (fewer than 4 orifices)" : "");
        double vals[] = {b.C, b.k, b.a, b.b, b.r2, b.npoints, f->rho_b, f->info.d_mean, HP_C_LIT, HP_K_LIT};
        const char *head[] = {m, g};
        if (xp_summary_row(&o->c, bev, head, 2, vals, sizeof vals / sizeof vals[0], NULL, 0)) return 1;
    }
    return 0;
}

static int run_geometry(hp_opts *o, clab_csv *sum, clab_csv *bev, double *runtime)
{
    hp_fill f = {0};
    int rc = settle(o, &f);
    if (rc) {
        clab_world_destroy(f.w);
        return rc;
    }
    const char *g = geom_name(o->def.geometry);
    printf("%s: %d spheres settled in %.1f s wall (kinetic energy left %.3g J), d = %.4g m, rho_b = %.1f kg/m^3 "
           "(solid fraction %.3f)\n",
           g, o->def.n, f.wall, f.ke, f.info.d_mean, f.rho_b, f.phi);
    printf("%-16s %-5s %6s %10s %10s %10s %7s %6s %9s %8s %9s  %s\n", "method", "geom", "D_o/d", "W_kg_s", "W_bev_lit",
           "t_first_s", "out", "left", "h_s", "steps", "wall_s", "outcome");
    double W[XP_MAX_METHODS * HP_MAXD];
    for (int mi = 0; mi < o->c.nmethod && !rc; mi++) {
        const xp_method *m = o->c.method[mi];
        xp_progress pb;
        char label[128];
        snprintf(label, sizeof label, "hopper %s %s", g, m->name);
        xp_progress_begin(&pb, &o->c, label);
        for (int i = 0; i < o->nD && !rc; i++) {
            char file[256], path[2048];
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
            rc = discharge(o, &f, m, o->Dod[i], path, &meta, &r, &pb, (double)i / o->nD, 1.0 / o->nD);
            clab_options_free(&meta);
            if (rc) break;
            const double D = o->Dod[i] * f.info.d_mean, dm = f.info.d_mean;
            const double Wlit = D > HP_K_LIT * dm ? HP_C_LIT * f.rho_b * sqrt(9.81) * pow(D - HP_K_LIT * dm, 2.5) : 0.0;
            W[mi * HP_MAXD + i] = strcmp(r.outcome, "clogged") == 0 ? NAN : r.W; /* not in the fit */
            runtime[mi] += r.wall;
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
    if (!rc) {
        printf("Beverloo fit, W^(2/5) = a D_o + b (literature for spheres: C %.2f (0.55-0.65), k %.1f (1.3-1.6)):\n",
               HP_C_LIT, HP_K_LIT);
        printf("%-16s %-5s %8s %8s %10s %10s %8s %3s\n", "method", "geom", "C", "k", "a", "b", "r2", "n");
        rc = beverloo_rows(o, &f, W, bev);
    }
    clab_world_destroy(f.w);
    return rc;
}

static void hp_defaults(hp_opts *o)
{
    hp_def *d = &o->def;
    d->n = 2500;
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
    o->nD = 4;
    for (int i = 0; i < 4; i++) o->Dod[i] = 5.0 + i;
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
        {"quick", no_argument, 0, 1020},           {"stop-fraction", required_argument, 0, 1021}, {0, 0, 0, 0}};
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
        default: xp_option_unknown(); break;
        }
    }
    for (int i = optind; i < argc; i++) xp_option_error("contactlab hopper: unexpected argument '%s'\n", argv[i]);
    for (int g = 0; g < o.ngeom; g++)
        for (int i = 0; i < o.nD; i++)
            if (o.geom[g] == HP_CONE && o.Dod[i] > o.bottom_d)
                xp_option_error("contactlab hopper: --orifice %g is wider than the cone's outlet --cone-bottom %g\n",
                                o.Dod[i], o.bottom_d);
    if (o.c.restart[0] || o.c.checkpoint_every > 0 || o.c.stop_after > 0)
        xp_option_error("contactlab hopper: --checkpoint-every, --restart and --stop-after are not supported here\n");
    if (xp_option_errors("contactlab hopper")) goto out;
    if (o.c.h > 0.0) o.hpen = o.hdvi = o.c.h;
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
    char spath[2048], bpath[2048];
    xp_path(&o.c, "hopper-summary.csv", spath, sizeof spath);
    xp_path(&o.c, "hopper-beverloo.csv", bpath, sizeof bpath);
    clab_options meta;
    clab_options_init(&meta);
    hp_meta(&o, NULL, &meta);
    clab_csv *sum = xp_summary_begin(&o.c, spath, &meta, scols, NS);
    static const char *const bcols[] = {"method", "geometry", "C", "k", "a_line", "b_line", "r2", "orifices",
                                        "rho_b_kg_m3", "d_mean_m", "C_literature", "k_literature"};
    clab_options bmeta;
    clab_options_init(&bmeta);
    clab_options_set(&bmeta, "experiment", "hopper", NULL);
    clab_options_set(&bmeta, "law", "Beverloo, Leniger and van de Velde (1961): W = C rho_b sqrt(g) (D_o - k d)^(5/2)", NULL);
    clab_options_set(&bmeta, "fit", "least-squares line W^(2/5) = a_line D_o + b_line; C = a^(5/2)/(rho_b sqrt g), k = -b/(a d)", NULL);
    clab_options_set(&bmeta, "literature", "spheres: C 0.55-0.65, k 1.3-1.6 (Beverloo et al. 1961; Nedderman, Statics and "
                                           "Kinematics of Granular Materials, 1992, Sect. 10.2)", NULL);
    clab_options_set(&bmeta, "g_m_s2", "9.81", NULL);
    clab_csv *bev = sum ? xp_summary_open(&o.c, bpath, &bmeta, bcols, sizeof bcols / sizeof bcols[0]) : NULL;
    clab_options_free(&bmeta);
    if (!sum || !bev) {
        if (sum) clab_csv_close(sum, NULL);
        rc = 1;
        goto out;
    }
    double runtime[XP_MAX_METHODS] = {0};
    rc = 0;
    for (int g = 0; g < o.ngeom && !rc; g++) {
        o.def.geometry = o.geom[g];
        o.def.width = o.width_d * 2.0 * o.def.radius;
        o.def.bottom = o.bottom_d * 2.0 * o.def.radius;
        rc = run_geometry(&o, sum, bev, runtime);
    }
    if (!rc) {
        printf("run time per method (every orifice and geometry, settling excluded):\n");
        for (int mi = 0; mi < o.c.nmethod; mi++) printf("  %-16s %9.1f s\n", o.c.method[mi]->name, runtime[mi]);
    }
    clab_error err;
    if (clab_csv_close(bev, rc ? NULL : &err) && !rc) {
        fprintf(stderr, "contactlab hopper: %s\n", err.msg);
        rc = 1;
    }
    rc = xp_finish(&o.c, rc, sum, spath, "hopper-*.csv", "hopper.gp", "hopper-beverloo.png, hopper-discharge.png");
out:
    xp_common_free(&o.c);
    return rc;
}
