/* wave.c: `contactlab wave`, a velocity pulse through a column of spheres held under a static
 * pressure, under every method. Extends the 1-D chain (chain.c) to a 3-D ordered packing.
 *
 * The column: nx x nx x nz equal spheres (radius R, diameter a = 2R) on a simple-cubic lattice
 * between four fixed frictionless side walls (planes at x, y = 0 and nx a), on a driven bottom
 * plate (a plane at z = 0) and under a free top plate (a box) loaded with the force p A, A =
 * (nx a)^2, no gravity. Each vertical line of spheres carries F0 = p a^2. A Hertz-Mindlin
 * penalty column starts in its static equilibrium: sphere-sphere overlap delta0 = (F0/K)^(2/3),
 * K = 4/3 E* sqrt(R/2), sphere-plate overlap (F0/K_w)^(2/3), K_w = 4/3 E* sqrt(R) (the top
 * plate, a box of half height R, has K: the law rounds a box with its half extent); a rigid
 * (CCP) column starts touching. Lateral neighbours touch without force.
 *
 * Theory (penalty): each line of spheres is a precompressed Hertz chain, whose long waves travel
 * at the linear chain's speed (chain.c, clab_analytic_chain_sound_speed)
 *     c = a' sqrt(k_t / m),  k_t = dF/d delta = 3/2 K delta0^(1/2) = 3/2 K^(2/3) F0^(1/3),
 * a' = a - delta0 the spacing: c ~ p^(1/6), the Hertzian effective-medium scaling (Goddard,
 * Proc. R. Soc. A 430, 105 (1990)); the exponent is fitted over the pressures.
 *
 * The pulse: the bottom plate's velocity is a half sine of peak v_p and duration tau (a motion
 * table), v_p = X (delta0 / a') c (X = --pulse-strain: the pulse's strain amplitude v_p / c a
 * fraction X of the static strain, a small-amplitude, linear wave), tau = max(W a / c, 5 h)
 * (W = --pulse-width, 3). A rigid column gets the same v_p at the same pressure. A run lasts
 * tau and 1.5 transits nz a' / c (the random column: 4, its wave being slower than the chain's).
 *
 * The random dense column (wave_random.c): spheres grown frictionless, pressed and unloaded to
 * each pressure, frictionless side walls; its depth bins are slices one diameter thick.
 *
 * Arrival (wave_fit.h, xp_arrival_step): the first time layer k's mean vertical velocity reaches
 * threshold x v_p, interpolated linearly between steps. The wave speed is the slope of a
 * least-squares line of depth (a layer's initial height above the plate) against arrival time
 * over layers fit_from .. nz - 2 (the top layer, against the plate, is left out).
 *
 * Rigid contacts (Tasora-Anitescu CCP) carry no finite wave speed: a converged solve moves the
 * whole column in one step. With a fixed number of solver iterations (max_iter = N, tol = 0)
 * an impulse crosses about one contact per iteration (one product with N = D^T M^-1 D), so the
 * apparent speed is set by N and h, about N a / h (Unger, Brendel, Wolf and Kertesz, Phys. Rev.
 * E 65, 061305 (2002)). The rigid methods run at the middle pressure for every (N, h) of
 * --dvi-iters and --dvi-h. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clab_analytic.h"
#include "clab_motion.h"
#include "pile_scene.h"
#include "wave_fit.h"
#include "xp.h"

#include "wave.h"

wave_theory wave_theory_at(const wave_opts *o, double p)
{
    wave_theory t;
    clab_material mat = clab_default_material();
    mat.E = o->E, mat.nu = o->nu;
    const double Es = clab_material_mix(&mat, &mat).Estar;
    t.m = o->rho * 4.0 / 3.0 * M_PI * pow(o->R, 3.0);
    t.a = 2.0 * o->R;
    t.K = clab_analytic_hertz_K(Es, 0.5 * o->R);
    t.Kw = clab_analytic_hertz_K(Es, o->R);
    t.F0 = p * t.a * t.a;
    t.delta0 = pow(t.F0 / t.K, 2.0 / 3.0);
    t.deltaw = pow(t.F0 / t.Kw, 2.0 / 3.0);
    /* the top plate, a box of half height R: the penalty law rounds a box's edges with its
     * smallest half extent (penalty/setup.c), so against a sphere R* = R/2 */
    t.Kt = clab_analytic_hertz_K(Es, 0.5 * o->R);
    t.deltat = pow(t.F0 / t.Kt, 2.0 / 3.0);
    t.kt = 1.5 * t.K * sqrt(t.delta0);
    t.spacing = t.a - t.delta0;
    t.c = clab_analytic_chain_sound_speed(t.kt, t.m, t.spacing);
    t.vp = o->pulse_strain * t.delta0 / t.spacing * t.c;
    t.T0 = sqrt(t.m / t.kt);
    return t;
}

/* one case */
typedef struct wave_case {
    const xp_method *m;
    double p, h;     /* pressure [Pa], step [s] */
    int iters;       /* rigid: max_iter with tol = 0; 0: the method's own settings */
    int pack;        /* WAVE_CUBIC, WAVE_RANDOM */
    int ip;          /* index of p in the options' pressures (the random column's state) */
} wave_case;

typedef struct wave_result {
    double speed, icept, first, last, tau, t_end, steps, wall;
    double rest_speed; /* largest |layer velocity| when the pulse begins [m/s] */
    int nfit;
} wave_result;

/* at rest until t0, then the half sine v_p sin(pi (t - t0) / tau) on [t0, t0 + tau], 0 after */
static void wave_pulse(double vp, double tau, double t0, double *tab)
{
    memset(tab, 0, NPULSE * CLAB_MOTION_COLS * sizeof *tab);
    tab[0] = t0 > 0.0 ? 0.0 : -1.0;
    for (int i = 1; i < NPULSE; i++) {
        double t = tau * (i - 1) / (NPULSE - 2);
        tab[i * CLAB_MOTION_COLS] = t0 + t;
        tab[i * CLAB_MOTION_COLS + 3] = i == 1 || i == NPULSE - 1 ? 0.0 : vp * sin(M_PI * t / tau);
    }
}

/* The depth bins of a column whose spheres start at bodies WAVE_FIRST..: the simple-cubic
 * column's layers (nl spheres each), or slices one diameter a thick of the random one, by the
 * spheres' initial height. bin[i] of sphere i, count[k], the bins' heights above the plate
 * depth[k] (a layer's; a slice's mean); returns the number of bins, -1 when out of memory. */
static int wave_bins(const wave_opts *o, const clab_world *w, int pack, int **bin, int **count, double **depth)
{
    const size_t ns = w->nbodies - WAVE_FIRST, nl = (size_t)o->nx * o->nx;
    const double a = 2.0 * o->R;
    double zmax = 0.0;
    for (size_t i = 0; i < ns; i++) zmax = fmax(zmax, w->bodies[WAVE_FIRST + i].r.z);
    const int nb = pack == WAVE_CUBIC ? o->nz : (int)floor(zmax / a) + 1;
    *bin = malloc(ns * sizeof **bin), *count = calloc((size_t)nb, sizeof **count);
    *depth = calloc((size_t)nb, sizeof **depth);
    if (!*bin || !*count || !*depth) return -1;
    for (size_t i = 0; i < ns; i++) {
        const double z = w->bodies[WAVE_FIRST + i].r.z;
        int k = pack == WAVE_CUBIC ? (int)(i / nl) : (int)fmin(fmax(floor(z / a), 0.0), nb - 1.0);
        (*bin)[i] = k;
        if (pack == WAVE_CUBIC) (*depth)[k] = w->bodies[WAVE_FIRST + (size_t)k * nl].r.z;
        else (*depth)[k] += z;
        (*count)[k]++;
    }
    if (pack != WAVE_CUBIC)
        for (int k = 0; k < nb; k++) (*depth)[k] = (*count)[k] ? (*depth)[k] / (*count)[k] : NAN;
    return nb;
}

/* the speeds of the force-law cases so far, for the exponent (wave-fit.csv); a checkpoint keeps them */
typedef struct wave_fits {
    double p[WAVE_NPACK][XP_MAX_METHODS][MAXP], v[WAVE_NPACK][XP_MAX_METHODS][MAXP], n[WAVE_NPACK][XP_MAX_METHODS];
} wave_fits;

/* A case's running values in a checkpoint: the pressed random column's length nrnd (0: none),
 * the column (wave_random_pack), wave_fits, then WAVE_NRUN scalars (the wall time before a
 * restart, the rest speed) and each layer's arrival, its last time and velocity, its peak. */
enum { WAVE_NFITS = sizeof(wave_fits) / sizeof(double), WAVE_NRUN = 2 };

static size_t wave_nvalues(const wave_opts *o, const wave_random *rnd, int nz)
{
    const size_t nrnd = o->packing[WAVE_RANDOM] ? wave_random_nvalues(rnd, o->np) : 0;
    return 1 + nrnd + WAVE_NFITS + WAVE_NRUN + 4 * (size_t)nz;
}

/* One case, checkpointed (xp.h): fits, the speeds before (restored by a restart). 0, 1 on
 * failure (printed), 2 stopped (*status). One function of one time loop: the restart, the
 * piston's steps, the layers' arrival detection and the checkpoint share the loop's running
 * values, which splitting would pass around as a dozen arguments. */
static int wave_run(wave_opts *o, const wave_random *rnd, const wave_case *wc, char *sfile, char *afile,
                    size_t flen, wave_result *res, xp_progress *pb, double pb0, double pbspan, clab_csv *sum,
                    wave_fits *fits, int *status)
{
    clab_error err;
    int rc = 1, nz = 0, guarded = 0;
    xp_guard g;
    double *vals = NULL;
    const int compliant = wc->m->kind != XP_KIND_CCP, random = wc->pack == WAVE_RANDOM;
    int *bin = NULL, *count = NULL;
    const wave_theory t = wave_theory_at(o, wc->p);
    double tab[NPULSE * CLAB_MOTION_COLS];
    res->tau = fmax(o->pulse_width * t.a / t.c, 5.0 * wc->h);
    /* A rigid contact does not compress, so the pressure changes no normal response; a rigid
     * column runs unloaded (at rest when struck) unless --dvi-preload N > 0: then it carries the
     * load for N steps first, the warm start building the static impulses up over the steps
     * (with few iterations it does not come to rest: rest_speed_m_s) */
    const long npre = compliant ? 0 : o->preload;
    const int load = compliant || npre > 0;
    const double tpre = (double)npre * wc->h;
    wave_pulse(t.vp, res->tau, tpre, tab);
    /* the random column: pressed at p (a rigid one: at the middle pressure, the rigid runs' p) */
    clab_world *w = random ? wave_random_world(o, rnd, wc->ip, &err) : wave_world(o, &t, compliant, &err);
    const double Lside = random ? rnd->L : o->nx * t.a;
    clab_sim *s = NULL;
    clab_csv *csv = NULL, *acsv = NULL;
    double *row = NULL, *arr, *pt, *pv, *depth = NULL, *vmax, *run;
    const char **cols = NULL;
    char (*names)[24] = NULL;
    clab_options meta, extra;
    clab_options_init(&meta);
    clab_options_init(&extra);
    char v[64];
    clab_motion mo = {CLAB_MOTION_TABLE, clab_v3(0, 0, 0), clab_v3(0, 0, 0), tab, NPULSE, {{0, 0, 0}, 0, 0, 0, 0}};
    const double Fload = random ? wc->p * Lside * Lside : t.F0 * o->nx * o->nx;
    if (!w || clab_world_set_motion(w, 0, &mo, &err) ||
        (load && clab_world_set_load(w, 5, clab_v3(0.0, 0.0, -Fload), clab_v3(0, 0, 0), &err))) {
        fprintf(stderr, "contactlab wave: %s\n", err.msg);
        goto done;
    }
    if ((nz = wave_bins(o, w, wc->pack, &bin, &count, &depth)) < 0) {
        fprintf(stderr, "contactlab wave: out of memory\n");
        goto done;
    }
    snprintf(v, sizeof v, "%.17g", 0.1 * o->R);
    clab_options_set(&extra, "envelope", v, NULL);
    if (wc->iters > 0) {
        snprintf(v, sizeof v, "%d", wc->iters);
        clab_options_set(&extra, "max_iter", v, NULL);
        clab_options_set(&extra, "tol", "0", NULL);
    }
    /* the pressed random column's Hertz overlaps (~1e-4 R) are no error of a rigid one: not
     * pushed apart (the stabilization Phi/h capped at 0) */
    if (random && !compliant && strcmp(wc->m->backend, "dvi") == 0) clab_options_set(&extra, "recovery_speed", "0", NULL);
    s = xp_sim(&o->c, w, wc->m, wc->h, &extra);
    if (!s) goto done;
    /* 1.5 transits at the Hertz speed after the pulse; a rigid column at least nz + 5 steps */
    res->t_end = res->tau + (random ? 4.0 : 1.5) * nz * t.spacing / t.c;
    if (!compliant) res->t_end = fmax(res->t_end, res->tau + (nz + 5) * wc->h);
    const long nsteps = xp_steps(&o->c, res->t_end, wc->h) + npre;
    if (nsteps < 0) goto done;
    const long every = (long)fmax(1.0, ceil((double)nsteps / 2000.0));
    const char *pk = random ? "random-" : "";
    if (compliant) snprintf(sfile, flen, "wave-%s%s-p_%g.csv", pk, wc->m->name, wc->p);
    else snprintf(sfile, flen, "wave-%s%s-p_%g-iter_%d-h_%g.csv", pk, wc->m->name, wc->p, wc->iters, wc->h);
    snprintf(afile, flen, "wave-arrival-%.200s", sfile + 5);
    clab_options_set(&meta, "experiment", "wave", NULL);
    xp_method_meta(wc->m, &meta);
#define META(k, x) (snprintf(v, sizeof v, "%.17g", (double)(x)), clab_options_set(&meta, k, v, NULL))
    clab_options_set(&meta, "packing", random ? "random dense (radius growth, frictionless), pressed" : "simple cubic", NULL);
    META("nx", random ? o->rnx : o->nx);
    META("nz", nz);
    if (random) {
        META("spheres", rnd->n);
        META("side_m", rnd->L);
        META("solid_fraction", rnd->phi[wc->ip]);
        META("coordination_number", rnd->Z[wc->ip]);
        META("pressed_rest_speed_m_s", rnd->rest[wc->ip]);
        META("hold_sigma_zz_Pa", rnd->szz0[wc->ip]);
        META("hold_bin_speed_max_m_s", rnd->hold_v[wc->ip]);
        META("hold_plate_dz_m", rnd->hold_dz[wc->ip]);
        clab_options_set(&meta, "v_layer", "mean vertical velocity of the spheres of a depth bin (one diameter thick, by the initial height) [m/s]", NULL);
    }
    META("R_m", o->R);
    META("p_Pa", wc->p);
    META("F0_N", t.F0);
    META("delta0_m", compliant ? t.delta0 : 0.0);
    META("pulse_speed_m_s", t.vp);
    META("pulse_duration_s", res->tau);
    META("threshold", o->threshold);
    META("fit_from", o->fit_from);
    META("t_end_s", res->t_end);
    META("preload_steps", npre);
    clab_options_set(&meta, "top_load", load ? "p A on the top plate" : "none (a rigid column: the pressure changes no normal response)", NULL);
    clab_options_set(&meta, "t_s", "time since the pulse began (after the preload steps)", NULL);
    META("wave_speed_theory_m_s", compliant ? t.c : INFINITY);
    clab_options_set(&meta, "theory", compliant ? "precompressed Hertz chain: c = a' sqrt(k_t/m), k_t = 3/2 K^(2/3) F0^(1/3), ~ p^(1/6)"
                                                : "rigid contacts: no finite speed; the solver's iterations set an apparent one (Unger et al. 2002)",
                     NULL);
    if (!random) clab_options_set(&meta, "v_layer", "mean vertical velocity of the spheres of a layer [m/s]", NULL);
    clab_sim_meta(s, &meta);
#undef META
    const size_t ncol = (size_t)nz + 2;
    cols = calloc(ncol, sizeof *cols);
    names = calloc(ncol, sizeof *names);
    row = calloc(ncol, sizeof *row);
    const size_t nvals = wave_nvalues(o, rnd, nz), nrnd = nvals - (WAVE_NFITS + WAVE_NRUN + 4 * (size_t)nz) - 1;
    vals = calloc(nvals, sizeof *vals);
    if (!cols || !names || !row || !depth || !vals) {
        fprintf(stderr, "contactlab wave: out of memory\n");
        goto done;
    }
    snprintf(names[0], 24, "t_s");
    snprintf(names[1], 24, "v_plate_m_s");
    for (int k = 0; k < nz; k++) snprintf(names[k + 2], 24, "v_layer_%d_m_s", k);
    for (size_t i = 0; i < ncol; i++) cols[i] = names[i];
    vals[0] = (double)nrnd;
    if (nrnd) wave_random_pack(rnd, o->np, vals + 1);
    memcpy(vals + 1 + nrnd, fits, sizeof *fits);
    run = vals + 1 + nrnd + WAVE_NFITS;
    arr = run + WAVE_NRUN, pt = arr + nz, pv = pt + nz, vmax = pv + nz;
    for (int k = 0; k < nz; k++) arr[k] = pt[k] = pv[k] = NAN;
    const int resumed = xp_case_begin(&o->c, &g, s, sum, 2, vals, nvals);
    guarded = 1;
    if (resumed < 0) goto done;
    if (resumed == 1) memcpy(fits, vals + 1 + nrnd, sizeof *fits), res->rest_speed = run[1];
    char path[2048];
    xp_path(&o->c, sfile, path, sizeof path);
    const int flags = o->c.force || o->c.restart[0] ? CLAB_CSV_OVERWRITE : 0;
    csv = xp_series_open(&o->c, &g, resumed, path, flags, &meta, cols, ncol);
    if (!csv) goto done;
    const double vth = o->threshold * t.vp, t0 = xp_pile_now(), wall0 = run[0];
    const long kfirst = w->step; /* 0, or the step a restart continues from (its row done) */
    for (long k = resumed == 1 ? kfirst + 1 : 0; k <= nsteps; k++) {
        if (k - 1 > kfirst && xp_case_due(&o->c, k - 1)) { /* at step k - 1 */
            run[0] = wall0 + xp_pile_now() - t0, run[1] = res->rest_speed;
            int r = xp_case_poll(&o->c, &g, s, k - 1);
            if (r) {
                if (pb->on) fprintf(stderr, "\n");
                if (r > 0) *status = xp_case_stopped(&o->c, s);
                rc = r > 0 ? 2 : 1;
                goto done;
            }
        }
        if (k > 0 && clab_sim_step(s, &err)) {
            if (pb->on) fprintf(stderr, "\n");
            xp_case_fail(&o->c, &g, &err);
            goto done;
        }
        for (int l = 0; l < nz; l++) row[l + 2] = 0.0;
        for (size_t i = WAVE_FIRST; i < w->nbodies; i++) row[bin[i - WAVE_FIRST] + 2] += w->bodies[i].rdot.z;
        for (int l = 0; l < nz; l++) {
            row[l + 2] /= count[l];
            if (k < npre) continue;
            if (k == npre) res->rest_speed = fmax(res->rest_speed, fabs(row[l + 2]));
            vmax[l] = fmax(vmax[l], row[l + 2]);
            xp_arrival_step(&arr[l], &pt[l], &pv[l], w->t - tpre, row[l + 2], vth);
        }
        if (k >= npre && ((k - npre) % every == 0 || k == nsteps)) {
            row[0] = w->t - tpre;
            row[1] = w->bodies[0].rdot.z;
            run[0] = wall0 + xp_pile_now() - t0, run[1] = res->rest_speed;
            if (clab_csv_row(csv, row, ncol, &err) || xp_guard_snapshot(&g, s, &err)) {
                fprintf(stderr, "contactlab wave: %s\n", err.msg);
                goto done;
            }
            xp_progress_update(pb, pb0 + pbspan * (double)k / (double)nsteps);
        }
    }
    res->steps = (double)nsteps;
    res->wall = wall0 + xp_pile_now() - t0;
    /* the speed: depth against arrival over layers fit_from .. nz - 2 */
    double *x = pt, *y = pv; /* reused as scratch */
    int nf = 0;
    for (int l = o->fit_from; l <= nz - 2; l++) x[nf] = arr[l], y[nf] = depth[l], nf++;
    res->nfit = xp_line_fit(x, y, (size_t)nf, &res->icept, &res->speed);
    /* arrivals all within one step: the whole column at once */
    if (res->nfit >= 2 && isnan(res->speed)) res->speed = INFINITY;
    res->first = arr[0];
    res->last = arr[nz - 2];
    /* the arrival file */
    xp_path(&o->c, afile, path, sizeof path);
    static const char *const acols[] = {"layer", "depth_m", "arrival_s", "v_max_m_s"};
    acsv = clab_csv_open(path, flags, &err);
    if (!acsv || clab_csv_meta(acsv, &meta, o->c.argc, o->c.argv, &err) || clab_csv_header(acsv, acols, 4, &err)) {
        fprintf(stderr, "contactlab wave: %s\n", err.msg);
        goto done;
    }
    for (int l = 0; l < nz; l++) {
        double ar[4] = {l, depth[l], arr[l], vmax[l]};
        if (clab_csv_row(acsv, ar, 4, &err)) {
            fprintf(stderr, "contactlab wave: %s\n", err.msg);
            goto done;
        }
    }
    rc = 0;
done:
    if (guarded) rc = xp_case_end(&o->c, &g, csv, rc);
    if (acsv && clab_csv_close(acsv, &err) && rc == 0) fprintf(stderr, "contactlab wave: %s\n", err.msg), rc = 1;
    clab_options_free(&meta);
    clab_options_free(&extra);
    free(cols), free(names), free(row), free(vals), free(depth), free(bin), free(count);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

static void wave_help(const xp_common *c)
{
    printf("usage: contactlab wave [options]\n\n"
           "A column of nx x nx x nz equal spheres (simple cubic, frictionless side walls, no gravity)\n"
           "pressed by a loaded top plate at pressure p and struck from below by a driven plate with a\n"
           "half-sine velocity pulse. Series: the mean vertical velocity of every layer against time;\n"
           "summary: each layer's arrival time (its velocity first reaches threshold x the pulse's peak,\n"
           "interpolated between steps) and the wave speed (slope of depth against arrival time).\n"
           "Force-law methods run at every pressure: the Hertz-Mindlin penalty speed is compared with the\n"
           "precompressed Hertz chain's c = a' sqrt(k_t/m) ~ p^(1/6) and the exponent is fitted.\n"
           "Rigid-contact methods have no finite wave speed; at the middle pressure they run with a fixed\n"
           "iteration count (max_iter = N, tol = 0) for every N and h given: the apparent speed is the\n"
           "solver's (Unger, Brendel, Wolf and Kertesz, Phys. Rev. E 65, 061305 (2002)).\n"
           "Writes wave-<method>-p_<p>[-iter_<N>-h_<h>].csv, wave-arrival-*.csv, wave-summary.csv,\n"
           "wave-fit.csv (the fitted exponent) and figures.\n"
           "Checkpoints: SIGINT/SIGTERM, --stop-after N or --checkpoint-every N write <out>/wave.ckpt (a\n"
           "pulse running, its CSVs flushed); the same command with --restart FILE continues it, the cases\n"
           "done before kept and the pressed random column reused.\n\n"
           "Experiment options:\n"
           "  --nx N            spheres along each side of the column (default 4; --quick 2)\n"
           "  --nz N            layers (default 24; --quick 12)\n"
           "  --pressures LIST  static pressures [Pa] (default 1e4,1e5,1e6)\n"
           "  --dvi-iters LIST  rigid methods: iterations per step (default 2,5,10,20; --quick 2,10)\n"
           "  --dvi-h LIST      rigid methods: steps [s] (default 2e-6,1e-5; --quick 1e-5)\n"
           "  --dvi-preload N   rigid methods: load the top plate too and run N steps before the pulse\n"
           "                    (default 0: a rigid column runs unloaded, at rest when struck; with the\n"
           "                    load and few iterations it never comes to rest, see rest_speed_m_s)\n"
           "  --h-penalty S     step [s] of the force-law methods (default: 1/50 of sqrt(m/k_t) at the\n"
           "                    highest pressure, 1-2-5 rounded)\n"
           "  --pulse-strain X  the pulse's strain v_p/c as a fraction of the static strain (default 0.1)\n"
           "  --pulse-width X   the pulse's duration in a/c, a diameter over the Hertz chain's speed (default 3)\n"
           "  --threshold X     arrival when a layer's velocity reaches X v_p (default 0.1)\n"
           "  --fit-from K      first layer of the speed fit, from 0 (default 2; the fit ends at nz - 2)\n"
           "  --R M             sphere radius [m] (default 1e-3)\n"
           "  --density D       [kg/m^3] (default 2500)\n"
           "  --E PA            Young's modulus [Pa] (default 7e10, glass)\n"
           "  --nu X            Poisson ratio (default 0.25)\n"
           "  --mu X            friction (default 0.3)\n"
           "  --cor X           restitution of the penalty law (default 0.8)\n"
           "  --packing LIST    cubic, random or both (default cubic). random: a column of --random-nx\n"
           "                    diameters square and --nz high, spheres grown frictionless (contactlab prepare's\n"
           "                    radius growth) to --random-phi, then pressed frictionless by the loaded plate at\n"
           "                    the highest pressure until at rest (quenched), then unloaded to each lower one\n"
           "                    in turn; the side walls frictionless. The state at each pressure is held for a\n"
           "                    wave run's time without a pulse first (printed: sigma_zz, the depth bins'\n"
           "                    largest velocity, the plate's motion)\n"
           "  --random-nx N     side of the random column in diameters (default 6; --quick 4)\n"
           "  --random-phi X    solid fraction of the growth, below the walled box's jamming (default 0.55;\n"
           "                    --quick 0.53)\n"
           "  --random-cor X    restitution while pressing (default 0.1)\n"
           "  --random-transits X  pressing time at most, in transits H/c (default 400)\n"
           "  --seed N          seed of the random column's growth (default 1)\n"
           "  --quick           a smoke run: a 2 x 2 x 12 column, fewer rigid cases\n\n");
    xp_common_help(c);
}

/* --packing cubic,random */
static void wave_packing_option(wave_opts *o, const char *arg)
{
    if (xp_list_check("packing", arg)) return;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", arg);
    for (char *q = strtok(buf, ","); q; q = strtok(NULL, ",")) {
        if (strcmp(q, "cubic") == 0) o->packing[WAVE_CUBIC] = 1;
        else if (strcmp(q, "random") == 0) o->packing[WAVE_RANDOM] = 1;
        else xp_option_error("contactlab wave: --packing '%s': give cubic, random or both (cubic,random)\n", q);
    }
}

static int wave_list(const char *name, const char *arg, double lo, double hi, double *out, int *n)
{
    return xp_parse_list(name, arg, lo, hi, out, MAXP, n);
}

int xp_wave(int argc, char **argv)
{
    static const struct option longopts[] = {
        XP_COMMON_LONGOPTS,
        {"nx", required_argument, 0, 1000},        {"nz", required_argument, 0, 1001},
        {"pressures", required_argument, 0, 1002}, {"dvi-iters", required_argument, 0, 1003},
        {"dvi-h", required_argument, 0, 1004},     {"h-penalty", required_argument, 0, 1005},
        {"pulse-strain", required_argument, 0, 1006}, {"threshold", required_argument, 0, 1007},
        {"fit-from", required_argument, 0, 1008},  {"R", required_argument, 0, 1009},
        {"density", required_argument, 0, 1010},   {"E", required_argument, 0, 1011},
        {"nu", required_argument, 0, 1012},        {"mu", required_argument, 0, 1013},
        {"cor", required_argument, 0, 1014},       {"quick", no_argument, 0, 1015},
        {"dvi-preload", required_argument, 0, 1016},
        {"packing", required_argument, 0, 1017},   {"random-nx", required_argument, 0, 1018},
        {"random-phi", required_argument, 0, 1019}, {"random-cor", required_argument, 0, 1020},
        {"random-transits", required_argument, 0, 1021}, {"seed", required_argument, 0, 1022},
        {"pulse-width", required_argument, 0, 1023},
        {0, 0, 0, 0}};
    wave_opts o;
    memset(&o, 0, sizeof o);
    wave_random rnd;
    memset(&rnd, 0, sizeof rnd);
    xp_common_init(&o.c, "wave", argc, argv);
    o.R = 1e-3, o.rho = 2500.0, o.E = 7e10, o.nu = 0.25, o.mu = 0.3, o.cor = 0.8;
    o.pulse_strain = 0.1, o.pulse_width = 3.0, o.threshold = 0.1, o.fit_from = 2;
    o.rphi = 0, o.rcor = 0.1, o.rtransits = 400.0, o.seed = 1;
    int rc = 2, opt;
    double x;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        int r = xp_common_option(&o.c, opt, optarg);
        if (r != 0) continue;
        switch (opt) {
        case '?' + 256: wave_help(&o.c); rc = 0; goto out;
        case 1000: if (!xp_parse_double("nx", optarg, 1, 100, &x)) o.nx = (int)x; break;
        case 1001: if (!xp_parse_double("nz", optarg, 4, MAXL, &x)) o.nz = (int)x; break;
        case 1002: wave_list("pressures", optarg, 1e-3, 1e12, o.p, &o.np); break;
        case 1003: wave_list("dvi-iters", optarg, 1, 1e6, o.iters, &o.niters); break;
        case 1004: wave_list("dvi-h", optarg, 1e-12, 1.0, o.hdvi, &o.nhdvi); break;
        case 1005: xp_parse_double("h-penalty", optarg, 1e-15, 1.0, &o.hpen); break;
        case 1006: xp_parse_double("pulse-strain", optarg, 1e-6, 10, &o.pulse_strain); break;
        case 1007: xp_parse_double("threshold", optarg, 1e-6, 0.99, &o.threshold); break;
        case 1008: if (!xp_parse_double("fit-from", optarg, 0, MAXL, &x)) o.fit_from = (int)x; break;
        case 1009: xp_parse_double("R", optarg, 1e-6, 10, &o.R); break;
        case 1010: xp_parse_double("density", optarg, 1e-3, 1e6, &o.rho); break;
        case 1011: xp_parse_double("E", optarg, 1.0, 1e15, &o.E); break;
        case 1012: xp_parse_double("nu", optarg, -0.999, 0.499, &o.nu); break;
        case 1013: xp_parse_double("mu", optarg, 0.0, 10, &o.mu); break;
        case 1014: xp_parse_double("cor", optarg, 1e-6, 1.0, &o.cor); break;
        case 1015: o.quick = 1; break;
        case 1016: if (!xp_parse_double("dvi-preload", optarg, 0, 1e7, &x)) o.preload = (int)x; break;
        case 1017: wave_packing_option(&o, optarg); break;
        case 1018: if (!xp_parse_double("random-nx", optarg, 2, 100, &x)) o.rnx = (int)x; break;
        case 1019: xp_parse_double("random-phi", optarg, 0.3, 0.66, &o.rphi); break;
        case 1020: xp_parse_double("random-cor", optarg, 1e-3, 1.0, &o.rcor); break;
        case 1021: xp_parse_double("random-transits", optarg, 1.0, 1e6, &o.rtransits); break;
        case 1023: xp_parse_double("pulse-width", optarg, 0.1, 1000, &o.pulse_width); break;
        case 1022: if (!xp_parse_double("seed", optarg, 0, 4294967295.0, &x)) o.seed = (unsigned long)x; break;
        default: xp_option_unknown(); break;
        }
    }
    for (int i = optind; i < argc; i++) xp_option_error("contactlab wave: unexpected argument '%s'\n", argv[i]);
    if (xp_option_errors("contactlab wave")) goto out;
    if (o.nx == 0) o.nx = o.quick ? 2 : 4;
    if (o.rnx == 0) o.rnx = o.quick ? 4 : 6;
    if (o.rphi == 0.0) o.rphi = o.quick ? 0.53 : 0.55;
    if (!o.packing[WAVE_CUBIC] && !o.packing[WAVE_RANDOM]) o.packing[WAVE_CUBIC] = 1;
    if (o.nz == 0) o.nz = o.quick ? 12 : 24;
    if (o.np == 0) o.p[0] = 1e4, o.p[1] = 1e5, o.p[2] = 1e6, o.np = 3;
    if (o.niters == 0) {
        if (o.quick) o.iters[0] = 2, o.iters[1] = 10, o.niters = 2;
        else o.iters[0] = 2, o.iters[1] = 5, o.iters[2] = 10, o.iters[3] = 20, o.niters = 4;
    }
    if (o.nhdvi == 0) {
        if (o.quick) o.hdvi[0] = 1e-5, o.nhdvi = 1;
        else o.hdvi[0] = 2e-6, o.hdvi[1] = 1e-5, o.nhdvi = 2;
    }
    if (o.c.h > 0.0) {
        o.hpen = o.hdvi[0] = o.c.h;
        o.nhdvi = 1;
    }
    if (o.fit_from > o.nz - 3) {
        fprintf(stderr, "contactlab wave: --fit-from %d leaves fewer than two layers to fit (--nz %d: layers %d .. %d)\n",
                o.fit_from, o.nz, o.fit_from, o.nz - 2);
        goto out;
    }
    double pmax = 0.0;
    for (int i = 0; i < o.np; i++) pmax = fmax(pmax, o.p[i]);
    if (o.hpen <= 0.0) o.hpen = xp_round125(wave_theory_at(&o, pmax).T0 / 50.0);
    /* the pressures in increasing order, the middle one for the rigid methods */
    for (int i = 1; i < o.np; i++)
        for (int j = i; j > 0 && o.p[j] < o.p[j - 1]; j--) x = o.p[j], o.p[j] = o.p[j - 1], o.p[j - 1] = x;
    const int ipmid = o.np / 2;
    const double pmid = o.p[ipmid];
    static const char *const packname[WAVE_NPACK] = {"cubic", "random"};
    if (xp_out_prepare(&o.c)) {
        rc = 1;
        goto out;
    }
    rc = 1;
    char spath[2048], fpath[2048];
    xp_path(&o.c, "wave-summary.csv", spath, sizeof spath);
    xp_path(&o.c, "wave-fit.csv", fpath, sizeof fpath);
    static const char *const scols[] = {"method", "packing", "p_Pa", "iterations", "h_s", "pulse_speed_m_s", "pulse_duration_s",
                                        "wave_speed_m_s", "wave_speed_theory_m_s", "wave_speed_rel_err", "fit_layers",
                                        "first_arrival_s", "last_arrival_s", "rest_speed_m_s", "t_end_s", "steps", "wall_s",
                                        "series_file", "arrival_file"};
    enum { NS = sizeof scols / sizeof scols[0] };
    clab_options meta;
    clab_options_init(&meta);
    clab_options_set(&meta, "experiment", "wave", NULL);
    clab_options_set(&meta, "packing", "cubic: a simple-cubic column; random: a random dense one (spheres grown frictionless, "
                                       "then pressed); frictionless side walls, no gravity", NULL);
    clab_options_set(&meta, "wave_speed_rel_err", "penalty against the Hertz chain's speed (the random column: the chain's as a scale only)", NULL);
    clab_options_set(&meta, "wave_speed_m_s", "slope of depth against arrival time, layers fit_from .. nz-2 (inf: all at once)", NULL);
    clab_options_set(&meta, "wave_speed_theory_m_s", "precompressed Hertz chain a' sqrt(k_t/m), k_t = 3/2 K^(2/3) F0^(1/3), F0 = p a^2; rigid: inf", NULL);
    clab_options_set(&meta, "iterations", "rigid methods: max_iter with tol = 0 (every step runs exactly so many); 0: the method's own", NULL);
    clab_options_set(&meta, "rest_speed_m_s", "largest |mean layer velocity| when the pulse begins (rigid: after the preload)", NULL);
    clab_options_set(&meta, "arrival", "first time a layer's mean vertical velocity reaches threshold x pulse_speed, linear between steps", NULL);
    char sv[64];
    snprintf(sv, sizeof sv, "%.17g", o.threshold);
    clab_options_set(&meta, "threshold", sv, NULL);
    clab_csv *sum = xp_summary_begin(&o.c, spath, &meta, scols, NS);
    if (!sum) goto out;
    /* the pressed random column: a restart reuses the interrupted run's (its checkpoint keeps it) */
    const clab_checkpoint_output *ro = &o.c.resume.out;
    if (o.packing[WAVE_RANDOM] && o.c.restart[0] &&
        (ro->nvalues < 1 || !ro->values || wave_random_unpack(&rnd, o.np, ro->values + 1, ro->nvalues - 1))) {
        fprintf(stderr, "contactlab wave: cannot restart: %s holds no pressed random column\n", o.c.restart);
        clab_csv_close(sum, NULL);
        goto out;
    }
    if (o.packing[WAVE_RANDOM] && !o.c.restart[0] && wave_random_make(&o, &rnd)) {
        clab_csv_close(sum, NULL);
        goto out;
    }

    /* the cases: force laws at every pressure, rigid methods at pmid for every (h, N) */
    wave_case cases[WAVE_NPACK * XP_MAX_METHODS * MAXP * MAXP];
    int nc = 0;
    for (int pk = 0; pk < WAVE_NPACK; pk++)
        for (int mi = 0; mi < o.c.nmethod && o.packing[pk]; mi++) {
            const xp_method *m = o.c.method[mi];
            if (m->kind != XP_KIND_CCP)
                for (int i = 0; i < o.np; i++) cases[nc++] = (wave_case){m, o.p[i], o.hpen, 0, pk, i};
            else
                for (int j = 0; j < o.nhdvi; j++)
                    for (int i = 0; i < o.niters; i++)
                        cases[nc++] = (wave_case){m, pmid, o.hdvi[j], (int)o.iters[i], pk, ipmid};
        }
    printf("%-16s %-7s %9s %6s %9s %11s %11s %9s %7s\n", "method", "packing", "p_Pa", "iters", "h_s", "speed_m_s",
           "theory_m_s", "rel_err", "wall_s");
    xp_progress pb;
    char label[64];
    snprintf(label, sizeof label, "wave, %d runs", nc);
    xp_progress_begin(&pb, &o.c, label);
    rc = 0;
    wave_fits *fits = calloc(1, sizeof *fits);
    if (!fits) rc = 1;
    int status = 0;
    static const char *const packshort[WAVE_NPACK] = {"", "random "};
    for (int ic = 0; ic < nc && rc == 0; ic++) {
        const wave_case *wc = &cases[ic];
        wave_result r;
        memset(&r, 0, sizeof r);
        char sfile[256], afile[300], clabel[96];
        if (wc->m->kind != XP_KIND_CCP) snprintf(clabel, sizeof clabel, "%s%s p=%g", packshort[wc->pack], wc->m->name, wc->p);
        else snprintf(clabel, sizeof clabel, "%s%s iter=%d h=%g", packshort[wc->pack], wc->m->name, wc->iters, wc->h);
        if (xp_case_skip(&o.c, clabel)) continue; /* finished before the checkpoint */
        rc = wave_run(&o, &rnd, wc, sfile, afile, sizeof sfile, &r, &pb, (double)ic / nc, 1.0 / nc, sum, fits, &status);
        if (rc) break;
        const int compliant = wc->m->kind != XP_KIND_CCP;
        const double th = compliant ? wave_theory_at(&o, wc->p).c : INFINITY;
        const double rel = wc->m->kind == XP_KIND_PENALTY ? (r.speed - th) / th : NAN;
        double vals[] = {wc->p, wc->iters, wc->h, wave_theory_at(&o, wc->p).vp, r.tau, r.speed, th, rel, r.nfit,
                         r.first, r.last, r.rest_speed, r.t_end, r.steps, r.wall};
        const char *head[] = {wc->m->name, packname[wc->pack]}, *tail[] = {sfile, afile};
        if (xp_summary_row(&o.c, sum, head, 2, vals, sizeof vals / sizeof vals[0], tail, 2)) rc = 1;
        if (compliant) {
            int mi = (int)(wc->m - o.c.table);
            double *n = &fits->n[wc->pack][mi];
            if (mi >= 0 && mi < XP_MAX_METHODS && *n < MAXP) {
                const int j = (int)*n;
                fits->p[wc->pack][mi][j] = wc->p, fits->v[wc->pack][mi][j] = r.speed, *n += 1.0;
            }
        }
        if (pb.on) fprintf(stderr, "\r%*s\r", 80, "");
        printf("%-16s %-7s %9g %6d %9.2e %11.5g %11.5g %9.2e %7.2f\n", wc->m->name, packname[wc->pack], wc->p, wc->iters, wc->h, r.speed, th, rel,
               r.wall);
        fflush(stdout);
    }
    if (rc == 0) xp_progress_end(&pb);
    /* the exponent of speed against pressure per force-law method */
    if (rc == 0) {
        clab_error err;
        clab_options fm;
        clab_options_init(&fm);
        clab_options_set(&fm, "experiment", "wave", NULL);
        clab_options_set(&fm, "alpha", "wave speed ~ A p^alpha, least squares of log speed against log p", NULL);
        clab_options_set(&fm, "alpha_theory", "1/6: Hertz contacts, k_t ~ F0^(1/3), c ~ sqrt(k_t)", NULL);
        clab_csv *f = clab_csv_open(fpath, o.c.force || o.c.restart[0] ? CLAB_CSV_OVERWRITE : 0, &err);
        static const char *const fcols[] = {"method", "packing", "pressures", "alpha", "A", "alpha_theory"};
        if (!f || clab_csv_meta(f, &fm, o.c.argc, o.c.argv, &err) || clab_csv_header(f, fcols, 6, &err)) {
            fprintf(stderr, "contactlab wave: %s\n", err.msg);
            rc = 1;
        }
        for (int k = 0; k < WAVE_NPACK * o.c.ntable && rc == 0; k++) {
            const int pk = k / o.c.ntable, mi = k % o.c.ntable;
            if (fits->n[pk][mi] == 0) continue;
            double A, alpha;
            int n = xp_power_fit(fits->p[pk][mi], fits->v[pk][mi], (size_t)fits->n[pk][mi], &A, &alpha);
            char c1[32], c2[32], c3[32], c4[32];
            snprintf(c1, sizeof c1, "%d", n);
            snprintf(c2, sizeof c2, "%.17g", alpha);
            snprintf(c3, sizeof c3, "%.17g", A);
            snprintf(c4, sizeof c4, "%.17g", 1.0 / 6.0);
            const char *cells[] = {o.c.table[mi].name, packname[pk], c1, c2, c3, c4};
            if (clab_csv_text_row(f, cells, 6, &err)) {
                fprintf(stderr, "contactlab wave: %s\n", err.msg);
                rc = 1;
            }
            printf("%s, %s column: wave speed ~ p^%.4f over %d pressures (Hertz: p^(1/6) = p^0.1667)\n",
                   o.c.table[mi].name, packname[pk], alpha, n);
        }
        if (f && clab_csv_close(f, &err) && rc == 0) {
            fprintf(stderr, "contactlab wave: %s\n", err.msg);
            rc = 1;
        }
        clab_options_free(&fm);
    }
    free(fits);
    if (rc == 2) rc = status; /* stopped: the exit status, the checkpoint written */
    rc = xp_finish(&o.c, rc, sum, spath, "wave-*.csv", "wave.gp", "wave-velocity.png, wave-arrival.png, wave-speed.png");
out:
    wave_random_free(&rnd);
    xp_common_free(&o.c);
    return rc;
}
