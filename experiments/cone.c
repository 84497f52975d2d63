/* cone.c: `contactlab cone`, a cone penetrometer pushed at constant speed into a settled bed
 * of spheres, under every method from the same bed.
 *
 * The bed: the pile of pile_scene.h (a square box of frictionless walls on a rough floor),
 * deposited dense and settled under gravity once, by the first rigid-contact method chosen
 * (else the first method) for --settle seconds; every case starts from a copy of it with the
 * spheres at rest. Its surface z_s is the height where the solid fraction of horizontal slices
 * (d/10 thick) falls to half its bulk value (xp_bed_surface): the top layer's tops stick out
 * above it, its gaps reach below.
 *
 * The penetrometer (cone_mesh.h): a 60-degree cone (apex half-angle alpha = 30 degrees) of
 * radius Rc on a shaft of the same radius, a triangle mesh whose triangles are driven bodies
 * moving at (0, 0, -v) (clab_motion.h). Its tip starts a quarter diameter of a sphere above the
 * surface, on the box's axis; depth = z_s - z_tip.
 *
 * Measured: the tip force, F_tip = the vertical (z) component of the sum of the contact forces
 * on the cone's triangles (the per-body contact forces of clab_sim_body_forces, xp_mesh_force;
 * upward = resistance, positive), and the shaft's (the shaft and its cap), each averaged over
 * the steps of an output interval (the cone moves --sample-depth between rows). The slope
 * dF_tip/d(depth) is a least-squares line over the rows with the cone fully embedded,
 * Hc <= depth <= depth_max (Hc = Rc / tan 30 degrees the cone's height). A quasi-static test has
 * a slope that does not change with the speed v; the inertial number of the cone's flow
 * I = (v / Rc) d / sqrt(p / rho), p the tip's mean stress, is printed to judge it. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clab_mesh.h"
#include "clab_motion.h"
#include "cone_mesh.h"
#include "pile_scene.h"
#include "wave_fit.h"
#include "xp.h"

#define MAXV 8
#define MAXBEDS 32
#define CONE_ALPHA (M_PI / 6.0) /* apex half-angle: a 60-degree cone */

typedef struct cone_opts {
    xp_common c;
    xp_pile_def def;       /* the bed (pile_scene.h) */
    double v[MAXV]; int nv; /* penetration speeds [m/s] */
    double Rc;             /* cone radius [m]; 0 = 1.5 mean sphere diameters (--quick 1) */
    int nseg;              /* segments around the cone */
    double depth;          /* deepest tip depth [m]; 0 = bed height - 4 d */
    double sample_depth;   /* output interval of depth [m]; 0 = d / 5 */
    double settle;         /* settling time of the bed [s] */
    double hpen, hdvi;     /* steps [s] (0: penalty from its stable step) */
    int nbeds;             /* beds, seeds seed .. seed + nbeds - 1 (--beds) */
    int quick;
} cone_opts;

typedef struct cone_bed {
    clab_world *w;         /* settled, spheres at rest */
    xp_pile_info info;
    double zs;             /* surface [m] */
    double phi_bulk;       /* solid fraction below it (bed_surface) */
    double d;              /* mean diameter [m] */
    double Rc, Hc, depth_max;
    const char *settled_by;
} cone_bed;

typedef struct cone_result {
    double slope, slope_se, icept, slope_total, f_end, p_tip, inertial, steps, wall;
    int nfit;
} cone_result;

/* surface: where the solid fraction of horizontal slices (d/10 thick) falls to half its bulk
 * value, the mean over 2 d above the floor to half the bed's height (xp_bed_surface) */
static double bed_surface(const clab_world *w, double width, double d, double *phib)
{
    if (w->nbodies <= XP_PILE_FIRST) return NAN;
    const size_t n = w->nbodies - XP_PILE_FIRST;
    double *z = malloc(n * sizeof *z), *r = malloc(n * sizeof *r), top = 0.0, zs = NAN;
    if (z && r) {
        for (size_t i = 0; i < n; i++) {
            z[i] = w->bodies[XP_PILE_FIRST + i].r.z, r[i] = w->bodies[XP_PILE_FIRST + i].shape.radius;
            top = fmax(top, z[i] + r[i]);
        }
        zs = xp_bed_surface(z, r, n, width * width, 0.1 * d, 2.0 * d, 0.5 * top, phib);
    }
    free(z), free(r);
    return zs;
}

/* the settled bed of the current seed, saved in <out> for a restart */
static void bed_file(const cone_opts *o, char *buf, size_t n)
{
    if ((size_t)snprintf(buf, n, "%s/cone-bed-seed_%lu.ckpt", o->c.out, o->def.seed) >= n) buf[0] = '\0';
}

/* The bed settled by m: settled now and saved (bed_file), or, load = 1 (a restart past the
 * settling), read back from the saved bed: the same state to the bit. -1 printed. */
static int bed_settle_or_load(cone_opts *o, cone_bed *b, const xp_method *m, const clab_options *extra, int load)
{
    clab_error err;
    char path[2048], tag[CLAB_CHECKPOINT_TAG_LEN];
    bed_file(o, path, sizeof path);
    snprintf(tag, sizeof tag, "cone bed seed %lu", o->def.seed);
    const double h = m->kind == XP_KIND_CCP ? o->hdvi : o->hpen;
    /* xp_pile_settle for 0 s: the settling's simulation, not stepped */
    clab_sim *s = xp_pile_settle(&o->c, b->w, m, h, load ? 0.0 : o->settle, extra, "cone: settling the bed");
    if (!s) return -1;
    int rc = 0;
    if (load) {
        clab_checkpoint_info info;
        memset(&info, 0, sizeof info);
        if (clab_checkpoint_read(s, path, &info, &err)) {
            fprintf(stderr, "contactlab cone: cannot restart: the saved bed: %s\n", err.msg);
            rc = -1;
        } else if (strcmp(info.out.tag, tag) != 0 || !info.same_parameters) {
            fprintf(stderr, "contactlab cone: cannot restart: %s is not the bed of seed %lu settled by %s (its tag: "
                            "'%s')\n", path, o->def.seed, m->name, info.out.tag);
            rc = -1;
        }
        clab_checkpoint_info_free(&info);
    } else {
        clab_checkpoint_output out;
        memset(&out, 0, sizeof out);
        snprintf(out.tag, sizeof out.tag, "%s", tag);
        if (!path[0] || clab_checkpoint_write(s, &out, path, &err)) {
            fprintf(stderr, "contactlab cone: saving the bed: %s\n", path[0] ? err.msg : "path too long");
            rc = -1;
        }
    }
    clab_sim_destroy(s);
    return rc;
}

static int cone_make_bed(cone_opts *o, cone_bed *b, int load)
{
    clab_error err;
    memset(b, 0, sizeof *b);
    b->w = xp_pile_build(&o->def, &b->info, &err);
    if (!b->w) {
        fprintf(stderr, "contactlab cone: %s\n", err.msg);
        return -1;
    }
    const xp_method *m = NULL;
    for (int i = 0; i < o->c.nmethod && !m; i++)
        if (o->c.method[i]->kind == XP_KIND_CCP) m = o->c.method[i];
    if (!m) m = o->c.method[0];
    clab_options extra;
    clab_options_init(&extra);
    if (m->kind == XP_KIND_CCP) xp_pile_dvi_defaults(&extra);
    int bad = bed_settle_or_load(o, b, m, &extra, load);
    clab_options_free(&extra);
    if (bad) return -1;
    b->settled_by = m->name;
    for (size_t i = 0; i < b->w->nbodies; i++) {
        b->w->bodies[i].rdot = clab_v3(0, 0, 0);
        b->w->bodies[i].wbar = clab_v3(0, 0, 0);
    }
    b->w->t = 0.0;
    b->w->step = 0;
    b->d = 2.0 * o->def.radius;
    b->zs = bed_surface(b->w, b->info.width, b->d, &b->phi_bulk);
    if (!isfinite(b->zs)) {
        fprintf(stderr, "contactlab cone: the bed's surface was not found (no solid fraction profile)\n");
        return -1;
    }
    b->Rc = o->Rc > 0.0 ? o->Rc : (o->quick ? 1.0 : 1.5) * b->d;
    b->Hc = b->Rc / tan(CONE_ALPHA);
    b->depth_max = o->depth > 0.0 ? o->depth : b->zs - 4.0 * b->d;
    if (!(b->depth_max > b->Hc)) {
        fprintf(stderr, "contactlab cone: the bed (surface at %.4g m) is too shallow for a cone of height %.4g m to be "
                        "embedded with 4 sphere diameters below it: give more spheres (--n), a narrower box (--width) "
                        "or a smaller cone (--cone-radius)\n", b->zs, b->Hc);
        return -1;
    }
    return 0;
}

/* the slopes of every bed, for their mean and standard error */
typedef struct cone_stats {
    double slope[XP_MAX_METHODS][MAXV][MAXBEDS], inertial[XP_MAX_METHODS][MAXV][MAXBEDS];
    double wall[XP_MAX_METHODS][MAXV], h[XP_MAX_METHODS];
} cone_stats;

/* the running values a checkpoint keeps: cone_stats (the cases before), then CONE_NRUN scalars
 * (the force sums of the output interval, their count, the rows, the wall time before a
 * restart), then depth, F_tip and F_total of every row so far (the slopes' data) */
enum { CONE_NST = sizeof(cone_stats) / sizeof(double), CONE_NRUN = 6 };

static const char *const series_cols[] = {"t_s", "depth_m", "F_tip_N", "F_shaft_N", "F_total_N", "F_tip_lateral_N",
                                          "contacts_mesh", "iterations"};
enum { NCOLS = sizeof series_cols / sizeof series_cols[0] };

/* One (method, speed) case, checkpointed (xp.h): the series, *res; st: the stats of the cases
 * before (restored by a restart). 0, 1 on failure (printed), 2 stopped (*status). One function
 * of one time loop: the restart, the steps, the output rows and the checkpoint share the
 * loop's running sums, which splitting would pass around as a dozen arguments. */
static int cone_case(cone_opts *o, const cone_bed *b, const xp_method *m, double v, char *file, size_t flen,
                     double *hused, cone_result *res, xp_progress *pb, double pb0, double pbspan, clab_csv *sum,
                     cone_stats *cs, int *status)
{
    clab_error err;
    int rc = 1, guarded = 0;
    xp_guard g;
    double *vals = NULL;
    clab_world *w = clab_world_clone(b->w);
    double *xyz = NULL;
    clab_sim *s = NULL;
    clab_csv *csv = NULL;
    double *dep, *ft, *ftot;
    clab_options meta;
    clab_options_init(&meta);
    if (!w) {
        fprintf(stderr, "contactlab cone: out of memory\n");
        goto done;
    }
    /* the penetrometer, tip at (0, 0, z_s + d/4), every triangle driven down at v */
    const double Ls = b->depth_max + b->d;
    size_t ntri = xp_cone_mesh(b->Rc, CONE_ALPHA, Ls, o->nseg, &xyz);
    clab_mesh_def md = clab_default_mesh_def();
    snprintf(md.name, sizeof md.name, "cone");
    md.xyz = xyz;
    md.ntri = ntri;
    const double z0 = b->zs + 0.25 * b->d;
    md.r = clab_v3(0.0, 0.0, z0);
    int first = ntri ? clab_world_add_mesh(w, &md, &err) : -1;
    if (first < 0) {
        fprintf(stderr, "contactlab cone: the penetrometer: %s\n", ntri ? err.msg : "out of memory");
        goto done;
    }
    clab_motion mo = clab_motion_constant(clab_v3(0.0, 0.0, -v), clab_v3(0, 0, 0));
    for (size_t k = 0; k < ntri; k++)
        if (clab_world_set_motion(w, (size_t)first + k, &mo, &err)) {
            fprintf(stderr, "contactlab cone: %s\n", err.msg);
            goto done;
        }
    clab_options extra;
    clab_options_init(&extra);
    if (m->kind == XP_KIND_CCP) xp_pile_dvi_defaults(&extra);
    double h = xp_method_h(m, o->hpen, o->hdvi);
    s = xp_sim(&o->c, w, m, h > 0.0 ? h : 1e-5, &extra);
    clab_options_free(&extra);
    if (!s) goto done;
    if (h <= 0.0) s->h = xp_pile_penalty_step(s);
    h = *hused = s->h;
    const double dz = o->sample_depth > 0.0 ? o->sample_depth : 0.2 * b->d;
    const double t_end = (z0 - b->zs + b->depth_max) / v;
    const long nsteps = xp_steps(&o->c, t_end, h);
    const long every = (long)fmax(1.0, floor(dz / (v * h) + 0.5));
    if (nsteps < 0) goto done;
    if (o->nbeds > 1) snprintf(file, flen, "cone-%s-v_%g-seed_%lu.csv", m->name, v, o->def.seed);
    else snprintf(file, flen, "cone-%s-v_%g.csv", m->name, v);
    char path[2048], val[64];
    xp_path(&o->c, file, path, sizeof path);
    clab_options_set(&meta, "experiment", "cone", NULL);
    xp_method_meta(m, &meta);
#define META(k, x) (snprintf(val, sizeof val, "%.17g", (double)(x)), clab_options_set(&meta, k, val, NULL))
    META("v_m_s", v);
    META("cone_radius_m", b->Rc);
    META("cone_height_m", b->Hc);
    META("cone_apex_angle_deg", 60);
    META("cone_triangles", (double)o->nseg);
    META("mesh_triangles", (double)ntri);
    META("surface_m", b->zs);
    META("depth_max_m", b->depth_max);
    META("t_end_s", t_end);
    clab_options_set(&meta, "bed_settled_by", b->settled_by, NULL);
    xp_pile_meta(&o->def, &b->info, &meta);
    clab_options_set(&meta, "F_tip_N", "vertical contact force on the cone's triangles (upward +), mean over the row's steps", NULL);
    clab_options_set(&meta, "F_shaft_N", "the same on the shaft and its cap", NULL);
    clab_options_set(&meta, "depth_m", "surface_m - z of the tip", NULL);
    clab_sim_meta(s, &meta);
#undef META
    const size_t nrow = (size_t)(nsteps / every + 2), nvals = CONE_NST + CONE_NRUN + 3 * nrow;
    vals = calloc(nvals, sizeof *vals);
    if (!vals) {
        fprintf(stderr, "contactlab cone: out of memory\n");
        goto done;
    }
    memcpy(vals, cs, sizeof *cs);
    double *run = vals + CONE_NST;
    dep = run + CONE_NRUN, ft = dep + nrow, ftot = ft + nrow;
    const int resumed = xp_case_begin(&o->c, &g, s, sum, 2, vals, nvals);
    guarded = 1;
    if (resumed < 0) goto done;
    if (resumed == 1) memcpy(cs, vals, sizeof *cs);
    csv = xp_series_open(&o->c, &g, resumed, path, o->c.force || o->c.restart[0] ? CLAB_CSV_OVERWRITE : 0, &meta,
                         series_cols, NCOLS);
    if (!csv) goto done;
    double acc[3] = {run[0], run[1], run[2]}, ncm = 0.0, t0 = xp_pile_now(), wall0 = run[5];
    long nacc = (long)run[3];
    size_t nr = (size_t)run[4];
    const long k0 = w->step; /* 0, or the step a restart continues from */
    for (long k = k0 + 1; k <= nsteps; k++) {
        if (k - 1 > k0 && xp_case_due(&o->c, k - 1)) { /* at step k - 1, the interval's sums so far */
            run[0] = acc[0], run[1] = acc[1], run[2] = acc[2], run[3] = (double)nacc, run[4] = (double)nr;
            run[5] = wall0 + xp_pile_now() - t0;
            int r = xp_case_poll(&o->c, &g, s, k - 1);
            if (r) {
                if (pb->on) fprintf(stderr, "\n");
                if (r > 0) *status = xp_case_stopped(&o->c, s);
                rc = r > 0 ? 2 : 1;
                goto done;
            }
        }
        if (clab_sim_step(s, &err)) {
            if (pb->on) fprintf(stderr, "\n");
            xp_case_fail(&o->c, &g, &err);
            goto done;
        }
        clab_vec3 Ft, Fs;
        if (xp_mesh_force(s, (size_t)first, (size_t)o->nseg, clab_v3(0, 0, 0), &Ft, NULL, &err) ||
            xp_mesh_force(s, (size_t)first + o->nseg, ntri - (size_t)o->nseg, clab_v3(0, 0, 0), &Fs, NULL, &err)) {
            fprintf(stderr, "contactlab cone: %s\n", err.msg);
            goto done;
        }
        acc[0] += Ft.z, acc[1] += Fs.z, acc[2] += hypot(Ft.x, Ft.y);
        nacc++;
        if (k % every && k != nsteps) continue;
        size_t nc = 0;
        for (size_t i = 0; i < s->contacts.n; i++)
            nc += (size_t)s->contacts.c[i].b >= (size_t)first || (size_t)s->contacts.c[i].a >= (size_t)first;
        ncm = (double)nc;
        clab_solver_stats st = {0};
        if (s->type->stats) s->type->stats(s->self, &st);
        /* the tip's z: the mesh's translation added to the tip's loaded z0 */
        const double tip = z0 + (w->bodies[first].r.z - clab_mesh_tri(w, &w->bodies[first])->r0.z);
        double row[NCOLS] = {w->t, b->zs - tip, acc[0] / nacc, acc[1] / nacc, (acc[0] + acc[1]) / nacc, acc[2] / nacc,
                             ncm, (double)st.iterations};
        dep[nr] = row[1], ft[nr] = row[2], ftot[nr] = row[4];
        nr++;
        acc[0] = acc[1] = acc[2] = 0.0;
        nacc = 0;
        run[0] = run[1] = run[2] = run[3] = 0.0, run[4] = (double)nr, run[5] = wall0 + xp_pile_now() - t0;
        if (clab_csv_row(csv, row, NCOLS, &err) || xp_guard_snapshot(&g, s, &err)) {
            fprintf(stderr, "contactlab cone: %s\n", err.msg);
            goto done;
        }
        xp_progress_update(pb, pb0 + pbspan * (double)k / (double)nsteps);
    }
    /* the slope over the embedded part: rows with Hc <= depth <= depth_max */
    for (size_t i = 0; i < nr; i++)
        if (dep[i] < b->Hc || dep[i] > b->depth_max * (1.0 + 1e-9)) dep[i] = NAN;
    double a2;
    res->nfit = xp_line_fit(dep, ft, nr, &res->icept, &res->slope);
    res->slope_se = xp_line_fit_se(dep, ft, nr, res->icept, res->slope);
    xp_line_fit(dep, ftot, nr, &a2, &res->slope_total);
    res->f_end = nr ? ft[nr - 1] : NAN;
    res->steps = (double)nsteps;
    res->wall = wall0 + xp_pile_now() - t0;
    /* mean stress on the cone's projected area at the end, and the inertial number of its flow */
    res->p_tip = res->f_end / (M_PI * b->Rc * b->Rc);
    res->inertial = res->p_tip > 0.0 ? v / b->Rc * b->d / sqrt(res->p_tip / o->def.density) : NAN;
    rc = 0;
done:
    if (guarded) rc = xp_case_end(&o->c, &g, csv, rc);
    clab_options_free(&meta);
    free(vals), free(xyz);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

/* cone-slopes.csv and its table: per method and speed, the mean slope over the beds and its
 * standard error s / sqrt(n) (s the beds' sample standard deviation), and the change of the
 * mean slope from the slowest speed to the fastest with its standard error, the speed trend */
static int cone_slopes(const cone_opts *o, const cone_stats *st)
{
    clab_error err;
    char path[2048];
    xp_path(&o->c, "cone-slopes.csv", path, sizeof path);
    clab_options meta;
    clab_options_init(&meta);
    clab_options_set(&meta, "experiment", "cone", NULL);
    clab_options_set(&meta, "slope_mean_N_m", "mean over the beds of the slope of F_tip against depth (cone-summary.csv)", NULL);
    clab_options_set(&meta, "slope_se_N_m", "standard error of that mean: the beds' sample standard deviation / sqrt(beds)", NULL);
    clab_options_set(&meta, "inertial_number", "mean over the beds of (v / Rc) d / sqrt(p_tip / rho)", NULL);
    static const char *const cols[] = {"method", "v_m_s", "h_s", "beds", "slope_mean_N_m", "slope_se_N_m", "slope_sd_N_m",
                                       "inertial_number", "wall_s"};
    clab_csv *f = clab_csv_open(path, o->c.force || o->c.restart[0] ? CLAB_CSV_OVERWRITE : 0, &err);
    int rc = 0;
    if (!f || clab_csv_meta(f, &meta, o->c.argc, o->c.argv, &err) || clab_csv_header(f, cols, 9, &err)) rc = 1;
    printf("\nslope of the tip force against depth over %d beds (mean +- standard error) [N/m]:\n", o->nbeds);
    printf("%-16s %8s %22s %10s\n", "method", "v_m_s", "slope_N/m", "I");
    const double n = (double)o->nbeds;
    for (int mi = 0; mi < o->c.nmethod && rc == 0; mi++) {
        double mean[MAXV], se[MAXV];
        for (int vi = 0; vi < o->nv && rc == 0; vi++) {
            double s1 = 0.0, s2 = 0.0, in = 0.0;
            for (int ib = 0; ib < o->nbeds; ib++) s1 += st->slope[mi][vi][ib], in += st->inertial[mi][vi][ib];
            mean[vi] = s1 / n;
            for (int ib = 0; ib < o->nbeds; ib++) s2 += pow(st->slope[mi][vi][ib] - mean[vi], 2.0);
            const double sd = sqrt(s2 / (n - 1.0));
            se[vi] = sd / sqrt(n);
            char c[8][40];
            const double v[8] = {o->v[vi], st->h[mi], n, mean[vi], se[vi], sd, in / n, st->wall[mi][vi]};
            for (int k = 0; k < 8; k++) snprintf(c[k], sizeof c[k], "%.17g", v[k]);
            const char *cells[9] = {o->c.method[mi]->name, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]};
            if (f && clab_csv_text_row(f, cells, 9, &err)) rc = 1;
            printf("%-16s %8g %12.4g +- %-7.3g %10.3g\n", o->c.method[mi]->name, o->v[vi], mean[vi], se[vi], in / n);
        }
        /* the speed trend: slowest against fastest */
        int lo = 0, hi = 0;
        for (int vi = 1; vi < o->nv; vi++) lo = o->v[vi] < o->v[lo] ? vi : lo, hi = o->v[vi] > o->v[hi] ? vi : hi;
        if (rc == 0 && lo != hi)
            printf("%-16s slope(v = %g) - slope(v = %g) = %.4g +- %.3g N/m (%.1f standard errors)\n", o->c.method[mi]->name,
                   o->v[hi], o->v[lo], mean[hi] - mean[lo], hypot(se[hi], se[lo]), (mean[hi] - mean[lo]) / hypot(se[hi], se[lo]));
    }
    if (rc) fprintf(stderr, "contactlab cone: %s: %s\n", path, err.msg);
    if (f && clab_csv_close(f, &err) && rc == 0) {
        fprintf(stderr, "contactlab cone: %s\n", err.msg);
        rc = 1;
    }
    clab_options_free(&meta);
    return rc;
}

/* cone-summary.csv: its columns and their meaning */
static clab_csv *cone_summary_begin(cone_opts *o, const char *spath)
{
    static const char *const scols[] = {"method", "v_m_s", "seed", "h_s", "slope_tip_N_m", "slope_tip_se_N_m", "intercept_tip_N",
                                        "slope_total_N_m", "fit_rows", "fit_from_m", "fit_to_m", "surface_m", "F_tip_end_N",
                                        "p_tip_end_Pa", "inertial_number", "steps", "wall_s", "series_file"};
    enum { NS = sizeof scols / sizeof scols[0] };
    clab_options meta;
    clab_options_init(&meta);
    clab_options_set(&meta, "experiment", "cone", NULL);
    clab_options_set(&meta, "seed", "the bed's packing seed (--seed, and the next ones with --beds)", NULL);
    clab_options_set(&meta, "slope_tip_N_m", "least-squares slope of F_tip against depth, cone_height <= depth <= depth_max", NULL);
    clab_options_set(&meta, "slope_tip_se_N_m", "standard error of that slope (residuals of the line; correlated over a "
                                                "few rows, so a lower bound)", NULL);
    clab_options_set(&meta, "surface_m", "height where the solid fraction of horizontal slices (d/10) falls to half "
                                         "its bulk value (the mean from 2 d to half the bed's height)", NULL);
    clab_options_set(&meta, "slope_total_N_m", "the same for the force on the whole penetrometer (cone + shaft)", NULL);
    clab_options_set(&meta, "p_tip_end_Pa", "F_tip at the deepest row / (pi Rc^2)", NULL);
    clab_options_set(&meta, "inertial_number", "(v / Rc) d / sqrt(p_tip / rho): quasi-static well below 1e-2", NULL);
    clab_options_set(&meta, "fit_from_m", "the cone's height", NULL);
    return xp_summary_begin(&o->c, spath, &meta, scols, NS); /* frees meta */
}

static void cone_help(const xp_common *c)
{
    printf("usage: contactlab cone [options]\n\n"
           "A cone penetrometer (a 60-degree cone on a cylindrical shaft, a triangle mesh driven at\n"
           "constant speed) pushed into a bed of spheres settled under gravity in a square box. The bed\n"
           "is settled once (by the first rigid-contact method chosen, else the first method) and every\n"
           "method and speed starts from it. Series: the tip force (vertical contact force on the cone's\n"
           "triangles) against depth; summary: the slope dF_tip/d(depth) over the embedded part\n"
           "(cone height <= depth <= the deepest depth) per method and speed, and the inertial number\n"
           "of the flow around the tip (quasi-static when the slope no longer changes with the speed).\n"
           "Writes cone-<method>-v_<v>.csv, cone-summary.csv and figures.\n"
           "Checkpoints: SIGINT/SIGTERM, --stop-after N or --checkpoint-every N write <out>/cone.ckpt (a\n"
           "penetration running, its CSVs flushed); the same command with --restart FILE continues it, the\n"
           "cases done before kept. Each settled bed is saved as cone-bed-seed_<seed>.ckpt for a restart.\n\n"
           "Experiment options:\n"
           "  --n N              spheres (default 1000; --quick 300)\n"
           "  --speeds LIST      penetration speeds [m/s] (default 0.1,0.2,0.4; --quick 0.4)\n"
           "  --cone-radius M    cone and shaft radius [m] (default 1.5 sphere diameters; --quick 1)\n"
           "  --segments N       triangles around the cone (default 16)\n"
           "  --depth M          deepest tip depth below the surface [m] (default: bed height - 4 d)\n"
           "  --sample-depth M   output interval of depth [m] (default d/5)\n"
           "  --settle S         settling time of the bed [s] (default 0.4)\n"
           "  --h-dvi S          step [s] of the rigid-contact (CCP) methods (default 2e-3)\n"
           "  --h-penalty S      step [s] of the force-law methods (default: half the stable step,\n"
           "                     1-2-5 rounded)\n"
           "  --beds N           beds, settled from the seeds --seed .. --seed + N - 1, each under every\n"
           "                     method and speed (default 1); N > 1 adds cone-slopes.csv, each slope's mean\n"
           "                     over the beds and its standard error, and the speed trend. The study of\n"
           "                     doc/cone-wave.md: --beds 3 --speeds 0.04,0.4 (about 15 min of CPU)\n"
           "  --quick            a smoke run: 300 spheres, one speed\n\n"
           "The bed's defaults differ from the pile's: --E 1e7, --width 0.2 (--quick 0.12), --packing\n"
           "deposit. Rigid-contact methods run with tol=" XP_PILE_DVI_TOL " m/s unless --opt dvi:tol=X says\n"
           "otherwise.\n\n%s\n",
           xp_pile_help);
    xp_common_help(c);
}

int xp_cone(int argc, char **argv)
{
    static const struct option longopts[] = {
        XP_COMMON_LONGOPTS,
        XP_PILE_LONGOPTS,
        {"n", required_argument, 0, 1000},         {"speeds", required_argument, 0, 1001},
        {"cone-radius", required_argument, 0, 1002}, {"segments", required_argument, 0, 1003},
        {"depth", required_argument, 0, 1004},     {"sample-depth", required_argument, 0, 1005},
        {"settle", required_argument, 0, 1006},    {"h-dvi", required_argument, 0, 1007},
        {"h-penalty", required_argument, 0, 1008}, {"quick", no_argument, 0, 1009},
        {"beds", required_argument, 0, 1010},
        {0, 0, 0, 0}};
    cone_opts o;
    memset(&o, 0, sizeof o);
    xp_common_init(&o.c, "cone", argc, argv);
    o.def = xp_pile_default();
    o.def.n = 0;
    o.def.E = 1e7;
    o.def.packing = XP_PILE_DEPOSIT;
    o.def.width = -1.0;
    o.nseg = 16;
    o.settle = 0.4;
    o.hdvi = 2e-3;
    int rc = 2, opt;
    double x;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        int r = xp_common_option(&o.c, opt, optarg);
        if (r == 0) r = xp_pile_option(&o.def, opt, optarg);
        if (r != 0) continue;
        switch (opt) {
        case '?' + 256: cone_help(&o.c); rc = 0; goto out;
        case 1000: if (!xp_parse_double("n", optarg, 10, 1e7, &x)) o.def.n = (int)x; break;
        case 1001: xp_parse_list("speeds", optarg, 1e-6, 100, o.v, MAXV, &o.nv); break;
        case 1002: xp_parse_double("cone-radius", optarg, 1e-6, 100, &o.Rc); break;
        case 1003: if (!xp_parse_double("segments", optarg, 3, 1000, &x)) o.nseg = (int)x; break;
        case 1004: xp_parse_double("depth", optarg, 1e-6, 1e3, &o.depth); break;
        case 1005: xp_parse_double("sample-depth", optarg, 1e-9, 1e3, &o.sample_depth); break;
        case 1006: xp_parse_double("settle", optarg, 0.0, 100, &o.settle); break;
        case 1007: xp_parse_double("h-dvi", optarg, 1e-9, 0.1, &o.hdvi); break;
        case 1008: xp_parse_double("h-penalty", optarg, 1e-12, 0.1, &o.hpen); break;
        case 1009: o.quick = 1; break;
        case 1010: if (!xp_parse_double("beds", optarg, 1, MAXBEDS, &x)) o.nbeds = (int)x; break;
        default: xp_option_unknown(); break;
        }
    }
    for (int i = optind; i < argc; i++) xp_option_error("contactlab cone: unexpected argument '%s'\n", argv[i]);
    if (xp_option_errors("contactlab cone")) goto out;
    if (o.c.h > 0.0) o.hpen = o.hdvi = o.c.h;
    if (o.def.n == 0) o.def.n = o.quick ? 300 : 1000;
    if (o.nbeds == 0) o.nbeds = 1;
    if (o.def.width < 0.0) o.def.width = o.quick ? 0.12 : 0.2;
    if (o.nv == 0) {
        if (o.quick) o.v[o.nv++] = 0.4;
        else o.v[0] = 0.1, o.v[1] = 0.2, o.v[2] = 0.4, o.nv = 3;
    }
    if (xp_out_prepare(&o.c)) {
        rc = 1;
        goto out;
    }
    rc = 1;
    char spath[2048];
    xp_path(&o.c, "cone-summary.csv", spath, sizeof spath);
    clab_csv *sum = cone_summary_begin(&o, spath);
    if (!sum) goto out;
    rc = 0;
    xp_progress pb;
    char label[128];
    const int ncases = o.c.nmethod * o.nv * o.nbeds;
    snprintf(label, sizeof label, "cone, %d runs", ncases);
    cone_stats *stp = calloc(1, sizeof *stp);
    if (!stp) {
        clab_csv_close(sum, NULL);
        rc = 1;
        goto out;
    }
    const unsigned long seed0 = o.def.seed;
    int status = 0, pb_on = 0;
    const int nbed_cases = o.c.nmethod * o.nv;
    for (int ib = 0, ic = 0; ib < o.nbeds && rc == 0; ib++) {
        o.def.seed = seed0 + (unsigned long)ib;
        if (o.c.resume_case >= o.c.ncase + nbed_cases) { /* a restart past this bed: its cases are done */
            for (int i = 0; i < nbed_cases; i++, ic++) xp_case_skip(&o.c, "");
            continue;
        }
        const int load = o.c.resume_case >= 0; /* a restart in this bed's cases: the bed it saved */
        cone_bed bed;
        if (cone_make_bed(&o, &bed, load)) {
            clab_world_destroy(bed.w);
            rc = 1;
            break;
        }
        printf("bed %lu: %d spheres settled by %s for %g s%s, surface at %.4g m (solid fraction %.3f below); cone radius %.4g m, "
               "height %.4g m, deepest depth %.4g m\n", o.def.seed, o.def.n, bed.settled_by, o.settle,
               load ? " (the interrupted run's, loaded)" : "", bed.zs, bed.phi_bulk,
               bed.Rc, bed.Hc, bed.depth_max);
        if (!pb_on) {
            pb_on = 1;
            printf("%-16s %8s %5s %9s %18s %14s %10s %10s %8s\n", "method", "v_m_s", "seed", "h_s", "slope_tip_N/m",
                   "slope_tot_N/m", "F_tip_end", "I", "wall_s");
            xp_progress_begin(&pb, &o.c, label);
        }
        fflush(stdout);
        for (int mi = 0; mi < o.c.nmethod && rc == 0; mi++)
            for (int vi = 0; vi < o.nv && rc == 0; vi++, ic++) {
                const xp_method *m = o.c.method[mi];
                cone_result r;
                memset(&r, 0, sizeof r);
                char file[256];
                double hused = 0.0;
                char clabel[96];
                snprintf(clabel, sizeof clabel, "seed %lu %s v=%g", o.def.seed, m->name, o.v[vi]);
                if (xp_case_skip(&o.c, clabel)) continue; /* finished before the checkpoint */
                rc = cone_case(&o, &bed, m, o.v[vi], file, sizeof file, &hused, &r, &pb, (double)ic / ncases,
                               1.0 / ncases, sum, stp, &status);
                if (rc) break;
                double vals[] = {o.v[vi], (double)o.def.seed, hused, r.slope, r.slope_se, r.icept, r.slope_total, r.nfit,
                                 bed.Hc, bed.depth_max, bed.zs, r.f_end, r.p_tip, r.inertial, r.steps, r.wall};
                const char *head[] = {m->name}, *tail[] = {file};
                if (xp_summary_row(&o.c, sum, head, 1, vals, sizeof vals / sizeof vals[0], tail, 1)) rc = 1;
                stp->slope[mi][vi][ib] = r.slope, stp->inertial[mi][vi][ib] = r.inertial, stp->wall[mi][vi] += r.wall;
                stp->h[mi] = hused;
                if (pb.on) fprintf(stderr, "\r%*s\r", 80, "");
                printf("%-16s %8g %5lu %9.2e %9.4g +- %-5.2g %14.5g %10.4g %10.3g %8.1f\n", m->name, o.v[vi], o.def.seed, hused,
                       r.slope, r.slope_se, r.slope_total, r.f_end, r.inertial, r.wall);
                fflush(stdout);
            }
        clab_world_destroy(bed.w);
    }
    if (rc == 0 && pb_on) xp_progress_end(&pb);
    o.def.seed = seed0;
    if (rc == 0 && o.nbeds > 1) rc = cone_slopes(&o, stp);
    free(stp);
    if (rc == 2) rc = status; /* stopped: the exit status, the checkpoint written */
    rc = xp_finish(&o.c, rc, sum, spath, "cone-*.csv", "cone.gp", "cone-force.png, cone-slope.png");
out:
    xp_common_free(&o.c);
    return rc;
}
