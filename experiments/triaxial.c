/* triaxial.c: `contactlab triaxial`, a cubical sample between six plane walls, compressed
 * along z at a constant rate while the four lateral walls hold the confining stress p.
 *
 * The sample is the one `contactlab shear` starts from (granular_sample.c: dropped with
 * friction off, settled under gravity), in a box of planes: x = -+L/2, y = -+L/2, z = 0 and
 * z = H. Gravity is off (an element test: rho g H is a few percent of p). Every wall is a
 * driven body (clab_motion.h) moving along its normal; each step the driver sets a servo
 * wall's speed from the contact force on it (clab_servo_speed: v = gain (p - sigma), clamped),
 * with the wall's area taken from the other walls' positions that step. Two stages:
 *   1. isotropic compression: all six walls servo to p, for --consolidate seconds;
 *   2. shearing: the top and bottom walls approach each other at the axial strain rate
 *      eps_dot (each at eps_dot H0/2, H0 the height when the shearing starts: a constant
 *      engineering strain rate), the four lateral walls still servo to p.
 * Stresses from the walls (compression positive): sigma_xx = the mean force on the two x walls
 * over their area L_y L_z, likewise sigma_yy, sigma_zz; the deviator q = sigma_zz -
 * (sigma_xx + sigma_yy)/2 and the mean stress p = (sigma_xx + sigma_yy + sigma_zz)/3 (their
 * axisymmetric forms); axial strain eps_a = 1 - H/H0, volumetric strain eps_v = 1 - V/V0
 * (compression positive: dilation makes eps_v fall). The Love-Weber stress of the contacts
 * (clab_measure.h) is written beside the walls'. Summary: the peak of q/p (smoothed over
 * 0.5% of axial strain), its critical-state value (mean over the last third of the strain),
 * and the friction angles sin(phi) = 3 M/(6 + M) (granular.h). The inertial number
 * I = eps_dot d sqrt(rho/p) is reported. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "granular.h"
#include "pile_scene.h"
#include "clab_clock.h"
#include "clab_measure.h"

#define TX_MAXP 8

typedef struct tx_opts {
    xp_common c;
    gr_material mat;
    gr_sample_def sample;
    double mu_wall;      /* friction of the walls */
    double p[TX_MAXP];   /* confining stresses [Pa] */
    int np;
    double rate;         /* axial strain rate [1/s] */
    double strain;       /* final axial strain */
    double consolidate;  /* isotropic stage [s] */
    double hpen, hdvi;
    double sample_de;    /* output interval of axial strain */
    double alpha;        /* servo: fraction of the stress error closed a step */
    int walls;           /* TX_WALLS_*: how the confining walls hold p */
    double wall_mass;    /* a loaded wall's mass, in sample masses */
} tx_opts;

/* how the confining walls hold p: loaded walls (every method, the default) or the servo (a
 * kinematic servo cannot hold a stress on rigid contacts; on the Hertz-Mindlin penalty method
 * of the --quick form it held p to 0.9% in the mean and 1.8% in a row, the loaded walls to
 * 0.001% and 0.07%) */
enum { TX_WALLS_LOADED, TX_WALLS_SERVO };

typedef struct tx_result {
    double peak, eps_peak, cs, phi_peak, phi_cs, eps_v_end, eps_v_min, inertial, h, steps, wall;
    double lat_mean, lat_dev; /* the lateral stresses' rows: mean of sigma_xx, sigma_yy over p, largest |sigma/p - 1| */
} tx_result;

/* the walls, in this order: x-, x+, y-, y+, z- (bottom), z+ (top); inward normals */
enum { TX_XM, TX_XP, TX_YM, TX_YP, TX_ZM, TX_ZP, TX_NWALL };
static const double tx_normal[TX_NWALL][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};

static const char *const series_cols[] = {
    "eps_a",        "t_s",        "q_kPa",         "p_kPa",        "q_over_p",    "eps_v",
    "sigma_xx_kPa", "sigma_yy_kPa", "sigma_zz_kPa", "p_contacts_kPa", "q_contacts_kPa", "solid_fraction",
    "Z",            "Z_m",        "contacts",      "iterations"};
enum { NCOLS = sizeof series_cols / sizeof series_cols[0] };

/* the world: the sample without gravity between six driven planes (material 1: mu_wall) */
static clab_world *tx_build(const tx_opts *o, const gr_sample *smp, size_t wall[TX_NWALL], size_t *first,
                            clab_error *err)
{
    clab_world_def wd = clab_default_world_def();
    wd.gravity = clab_v3(0.0, 0.0, 0.0);
    clab_world *w = clab_world_create(&wd);
    if (!w) {
        clab_error_set(err, CLAB_ENOMEM, "triaxial: out of memory");
        return NULL;
    }
    clab_material m = clab_default_material();
    snprintf(m.name, sizeof m.name, "grain");
    m.mu = o->mat.mu, m.E = o->mat.E, m.nu = o->mat.nu, m.cor = o->mat.cor;
    int grain = clab_world_add_material(w, &m, err);
    snprintf(m.name, sizeof m.name, "wall");
    m.mu = o->mu_wall;
    if (grain < 0 || clab_world_add_material(w, &m, err) < 0) goto fail;
    static const char *const names[TX_NWALL] = {"wall_xm", "wall_xp", "wall_ym", "wall_yp", "bottom", "top"};
    const double at[TX_NWALL] = {smp->lo[0], smp->hi[0], smp->lo[1], smp->hi[1], smp->lo[2], smp->hi[2]};
    for (int k = 0; k < TX_NWALL; k++) {
        clab_body_def d = clab_default_body_def();
        snprintf(d.name, sizeof d.name, "%s", names[k]);
        d.shape = clab_plane();
        d.fixed = 1;
        d.material = 1;
        clab_vec3 n = clab_v3(tx_normal[k][0], tx_normal[k][1], tx_normal[k][2]);
        d.r = clab_v3_scale(clab_v3(fabs(n.x), fabs(n.y), fabs(n.z)), at[k]);
        /* the rotation taking z to n: about z x n by the angle between them */
        clab_vec3 z = clab_v3(0.0, 0.0, 1.0), axis = clab_v3_cross(z, n);
        double s = clab_v3_norm(axis), c = clab_v3_dot(z, n);
        d.e = s > 1e-12 ? clab_q_axis_angle(axis, atan2(s, c))
                        : (c > 0 ? clab_q_identity() : clab_q_axis_angle(clab_v3(1, 0, 0), M_PI));
        long b = clab_world_add_body(w, &d, err);
        if (b < 0) goto fail;
        wall[k] = (size_t)b;
        clab_motion mo = clab_motion_constant(clab_v3(0, 0, 0), clab_v3(0, 0, 0));
        if (clab_world_set_motion(w, wall[k], &mo, err)) goto fail;
    }
    if (gr_sample_add(smp, &o->mat, grain, w, first, err)) goto fail;
    return w;
fail:
    clab_world_destroy(w);
    return NULL;
}

/* the box the walls enclose, its extents */
static void tx_extent(const clab_world *w, const size_t wall[TX_NWALL], double len[3], clab_measure_box *box)
{
    box->lo[0] = w->bodies[wall[TX_XM]].r.x, box->hi[0] = w->bodies[wall[TX_XP]].r.x;
    box->lo[1] = w->bodies[wall[TX_YM]].r.y, box->hi[1] = w->bodies[wall[TX_YP]].r.y;
    box->lo[2] = w->bodies[wall[TX_ZM]].r.z, box->hi[2] = w->bodies[wall[TX_ZP]].r.z;
    for (int k = 0; k < 3; k++) len[k] = box->hi[k] - box->lo[k];
}

/* the walls' stresses (compression positive) from the contact forces F on them */
static void tx_wall_stress(const clab_vec3 *F, const size_t wall[TX_NWALL], const double len[3], double sig[3])
{
    for (int a = 0; a < 3; a++) {
        const double area = len[(a + 1) % 3] * len[(a + 2) % 3];
        double f = 0.0;
        for (int s = 0; s < 2; s++) {
            const clab_vec3 Fw = F[wall[2 * a + s]];
            const double *n = tx_normal[2 * a + s];
            f -= Fw.x * n[0] + Fw.y * n[1] + Fw.z * n[2]; /* the sample pushes the wall along -n */
        }
        sig[a] = 0.5 * f / area;
    }
}

/* set each servo wall's speed (the lateral ones; all six when all) for the next step */
static int tx_servo(clab_sim *s, const tx_opts *o, const clab_vec3 *F, const size_t wall[TX_NWALL],
                    const double len[3], double p, double kn, int all, clab_error *err)
{
    for (int k = 0; k < (all ? TX_NWALL : TX_ZM); k++) {
        const int a = k / 2;
        const double area = len[(a + 1) % 3] * len[(a + 2) % 3], d = o->mat.d;
        clab_servo sv;
        sv.axis = clab_v3(tx_normal[k][0], tx_normal[k][1], tx_normal[k][2]);
        sv.stress = p;
        sv.area = area;
        /* the stiffness term alone (cn = 0): the walls' contacts are few and lightly damped */
        sv.gain = clab_servo_gain(area, kn, 0.0, 0.7 * area / (d * d), s->h, o->alpha);
        /* a thousandth of a radius a step, or ten times the speed the axial strain rate gives
         * an edge of the sample, whichever is larger (rigid contacts' large steps) */
        sv.vmax = fmax(1e-3 * 0.5 * d / s->h, 10.0 * o->rate * len[a]);
        const double v = clab_servo_speed(&sv, F[wall[k]]);
        if (clab_sim_set_body_velocity(s, wall[k], clab_v3_scale(sv.axis, v), clab_v3(0, 0, 0), err)) return -1;
    }
    return 0;
}

/* A loaded wall: a body of mass M moving along its inward normal n only, pushed by the
 * constant force p A(t) (A from the other walls' positions this step) and by the sample's
 * contact force F:  M dv/dt = p A - sigma A,  sigma A = -F . n  (v along n, inward positive),
 * integrated like the bodies (symplectic Euler: v += h (p A + F . n)/M, then the wall moves
 * h v). The time mean of sigma A is p A exactly while v stays bounded, whatever the contacts'
 * stiffness. The wall stays a plane the driver moves (a plane cannot be a free body, and free
 * boxes would touch each other at the cell's edges): its motion is restricted to its axis by
 * construction, and the explicit coupling is stable while M exceeds the mass the wall pushes
 * in one step (M = --wall-mass times the sample's mass, default 0.2: a fifth of the sample,
 * more than the layer a wall pushes; M = 1 gave 19% in a row under the CCP's --quick form
 * against 14%). Its speed is clamped to vmax = max(a thousandth of a radius a step,
 * 2 eps_dot L), the guide's limit: a wall whose contacts open (at the start, or when the
 * sample shrinks away) closes the gap at that speed instead of slamming into the sample (with
 * 10 eps_dot L, the servo's limit, the walls bounced off the rigid sample: rows up to 2 p
 * with M = 0.2, 3.6 p with 1, 4.9 p with 5).
 * v[k]: the walls' speeds. */
static int tx_loaded(clab_sim *s, double M, double vmax, const clab_vec3 *F, const size_t wall[TX_NWALL], const double len[3],
                     double p, int all, double v[TX_NWALL], clab_error *err)
{
    for (int k = 0; k < (all ? TX_NWALL : TX_ZM); k++) {
        const int a = k / 2;
        const double area = len[(a + 1) % 3] * len[(a + 2) % 3];
        const clab_vec3 n = clab_v3(tx_normal[k][0], tx_normal[k][1], tx_normal[k][2]);
        v[k] += s->h * (p * area + clab_v3_dot(F[wall[k]], n)) / M;
        v[k] = fmax(-vmax, fmin(vmax, v[k])); /* the guide's speed limit: a wall that lost its contacts */
        if (clab_sim_set_body_velocity(s, wall[k], clab_v3_scale(n, v[k]), clab_v3(0, 0, 0), err)) return -1;
    }
    return 0;
}

/* the contact stiffness the servos' gain assumes: Hertz's tangent at the walls' mean contact
 * force p d^2/0.7 (force laws), m/h^2 for rigid contacts (shear.c says why) */
static double tx_kn(const tx_opts *o, const xp_method *m, double p, double h)
{
    const double d = o->mat.d, mass = o->mat.density * M_PI / 6.0 * d * d * d;
    return m->kind == XP_KIND_CCP ? mass / (h * h) : gr_hertz_kn(&o->mat, 0.5 * d, p * d * d / 0.7);
}

/* the penalty step: a thirtieth of a two-sphere contact's period under 4 p d^2, 1-2-5 rounded */
static double tx_penalty_step(const tx_opts *o, double p)
{
    const double d = o->mat.d, m = o->mat.density * M_PI / 6.0 * d * d * d;
    return xp_round125(2.0 * M_PI * sqrt(0.5 * m / gr_hertz_kn(&o->mat, 0.25 * d, 4.0 * p * d * d)) / 30.0);
}

/* One (method, p) case; its series to file. 0, 1 on failure (printed), 2 when a signal stopped
 * it. One function of about 150 lines: the world, its metadata, the two stages (isotropic,
 * shearing) and the row are one sequence that shares a dozen locals. */
static int tx_case(tx_opts *o, const xp_method *im, const gr_sample *smp, double p, tx_result *res, char *file,
                   size_t filelen, xp_progress *pb, double pb0, double pbspan)
{
    double pmax = 0.0;
    for (int i = 0; i < o->np; i++) pmax = fmax(pmax, o->p[i]);
    const double h = xp_method_h(im, o->hpen > 0.0 ? o->hpen : tx_penalty_step(o, pmax), o->hdvi);
    size_t wall[TX_NWALL], first;
    clab_error err;
    clab_world *w = tx_build(o, smp, wall, &first, &err);
    if (!w) {
        fprintf(stderr, "contactlab triaxial: %s\n", err.msg);
        return 1;
    }
    const double kn = tx_kn(o, im, p, h);
    const int loaded = o->walls == TX_WALLS_LOADED;
    double msample = 0.0, vw[TX_NWALL] = {0};
    for (size_t i = 0; i < smp->n; i++) msample += o->mat.density * 4.0 / 3.0 * M_PI * pow(smp->R[i], 3);
    const double Mw = o->wall_mass * msample;
    const double vwmax = fmax(1e-3 * 0.5 * o->mat.d / h, 2.0 * o->rate * (smp->hi[0] - smp->lo[0]));
    clab_options extra;
    clab_options_init(&extra);
    gr_method_options(&extra, im, &o->mat, p, "triaxial");
    clab_sim *s = xp_sim(&o->c, w, im, h, &extra);
    clab_options_free(&extra);
    if (!s) {
        clab_world_destroy(w);
        return 1;
    }
    snprintf(file, filelen, "triaxial-p_%gkPa-%s.csv", p / 1e3, im->name);
    char path[2048];
    xp_path(&o->c, file, path, sizeof path);
    const double inertial = gr_inertial_number(o->rate, o->mat.d, o->mat.density, p);
    char v[64];
    clab_options meta;
    clab_options_init(&meta);
    clab_options_set(&meta, "experiment", "triaxial", NULL);
    xp_method_meta(im, &meta);
#define META(k, val) (snprintf(v, sizeof v, "%.17g", (double)(val)), clab_options_set(&meta, k, v, NULL))
    META("p_Pa", p);
    META("n", smp->n);
    META("sample_solid_fraction", gr_sample_solid_fraction(smp));
    META("sample_solid_fraction_bulk", gr_sample_bulk_fraction(smp, o->mat.d));
    META("d_m", o->mat.d);
    META("density_kg_m3", o->mat.density);
    META("mu", o->mat.mu);
    META("mu_wall", o->mu_wall);
    META("E_Pa", o->mat.E);
    META("nu", o->mat.nu);
    META("cor", o->mat.cor);
    META("strain_rate_1_s", o->rate);
    META("strain_end", o->strain);
    META("consolidate_s", o->consolidate);
    clab_options_set(&meta, "walls", loaded ? "loaded: each lateral wall a mass M along its axis pushed by p A(t) "
                                              "(M dv/dt = p A - sigma A)" : "servo: wall speed = gain (p - sigma), clamped", NULL);
    if (loaded) META("wall_mass_kg", Mw);
    else META("servo_alpha", o->alpha), META("servo_kn_N_m", kn);
    META("inertial_number", inertial);
    clab_options_set(&meta, "inertial_number_def", "I = eps_dot d sqrt(rho/p)", NULL);
    clab_options_set(&meta, "q_kPa", "sigma_zz - (sigma_xx + sigma_yy)/2 from the walls' forces", NULL);
    clab_options_set(&meta, "p_kPa", "(sigma_xx + sigma_yy + sigma_zz)/3 from the walls' forces", NULL);
    clab_options_set(&meta, "eps_v", "1 - V/V0 (compression positive), V the walls' box", NULL);
    clab_options_set(&meta, "p_contacts_kPa", "Love-Weber stress of the contacts in the walls' box (clab_measure)", NULL);
    clab_sim_meta(s, &meta);
#undef META
    int rc = 1;
    clab_csv *csv = clab_csv_open(path, o->c.force ? CLAB_CSV_OVERWRITE : 0, &err);
    clab_vec3 *F = malloc(w->nbodies * sizeof *F);
    const long ncons = xp_steps(&o->c, o->consolidate, h), nshear = xp_steps(&o->c, o->strain / o->rate, h);
    const long every = (long)fmax(1.0, floor(o->sample_de / (o->rate * h) + 0.5));
    size_t nrow = (size_t)(nshear / every + 2), krow = 0;
    double *xs = malloc(nrow * sizeof *xs), *qp = malloc(nrow * sizeof *qp);
    if (!csv || clab_csv_meta(csv, &meta, o->c.argc, o->c.argv, &err) ||
        clab_csv_header(csv, series_cols, NCOLS, &err)) {
        fprintf(stderr, "contactlab triaxial: %s\n", err.msg);
        goto done;
    }
    if (!F || !xs || !qp || ncons < 0 || nshear < 0) goto done;
    const double t0 = clab_clock();
    const long ntot = ncons + nshear;
    double len[3], sig[3];
    clab_measure_box box;
    tx_extent(w, wall, len, &box);
    for (long k = 0; k < ncons; k++) { /* isotropic compression to p */
        if (clab_sim_step(s, &err) || clab_sim_body_forces(s, F, NULL, &err)) goto failed;
        tx_extent(w, wall, len, &box);
        if (loaded ? tx_loaded(s, Mw, vwmax, F, wall, len, p, 1, vw, &err) : tx_servo(s, o, F, wall, len, p, kn, 1, &err))
            goto failed;
        if (k % 64 == 0 && xp_stop_signal()) goto stopped;
        if (k % 64 == 0) xp_progress_update(pb, pb0 + pbspan * (double)k / ntot);
    }
    /* shearing: top and bottom at -+eps_dot H0/2 */
    const double H0 = len[2], V0 = len[0] * len[1] * len[2], vz = 0.5 * o->rate * H0;
    const double vsol = gr_sample_solid_fraction(smp) * (smp->hi[0] - smp->lo[0]) * (smp->hi[1] - smp->lo[1]) *
                        (smp->hi[2] - smp->lo[2]); /* the spheres' volume */
    if (clab_sim_set_body_velocity(s, wall[TX_ZM], clab_v3(0, 0, vz), clab_v3(0, 0, 0), &err) ||
        clab_sim_set_body_velocity(s, wall[TX_ZP], clab_v3(0, 0, -vz), clab_v3(0, 0, 0), &err))
        goto failed;
    double acc[3] = {0, 0, 0}, span = 0.0, evmin = INFINITY, lsum = 0.0, ldev = 0.0;
    int nl = 0;
    clab_measure_opts mo = clab_measure_default_opts();
    mo.box = &box;
    for (long k = 0; k <= nshear; k++) {
        if (k > 0) {
            if (clab_sim_step(s, &err) || clab_sim_body_forces(s, F, NULL, &err)) goto failed;
            tx_extent(w, wall, len, &box);
            tx_wall_stress(F, wall, len, sig);
            for (int a = 0; a < 3; a++) acc[a] += sig[a] * h;
            span += h;
            if (loaded ? tx_loaded(s, Mw, vwmax, F, wall, len, p, 0, vw, &err) : tx_servo(s, o, F, wall, len, p, kn, 0, &err))
                goto failed;
        }
        if (k % 64 == 0 && xp_stop_signal()) goto stopped;
        if (k % 64 == 0) xp_progress_update(pb, pb0 + pbspan * (double)(ncons + k) / ntot);
        if (k % every != 0 && k != nshear) continue;
        for (int a = 0; a < 3; a++) sig[a] = span > 0.0 ? acc[a] / span : NAN;
        clab_measure ms;
        if (k == 0 || clab_measure_sim(s, &mo, &ms, &err)) memset(&ms, 0, sizeof ms), ms.p = ms.q = NAN;
        const double q = sig[2] - 0.5 * (sig[0] + sig[1]), pm = (sig[0] + sig[1] + sig[2]) / 3.0;
        const double ea = 1.0 - len[2] / H0, ev = 1.0 - len[0] * len[1] * len[2] / V0;
        clab_solver_stats st = {0};
        if (s->type->stats) s->type->stats(s->self, &st);
        double row[NCOLS] = {ea, w->t, q / 1e3, pm / 1e3, q / pm, ev, sig[0] / 1e3, sig[1] / 1e3, sig[2] / 1e3,
                             ms.p / 1e3, ms.q / 1e3, vsol / (len[0] * len[1] * len[2]),
                             ms.Z, ms.Z_m, (double)s->contacts.n, (double)st.iterations};
        if (clab_csv_row(csv, row, NCOLS, &err)) goto failed;
        if (span > 0.0 && krow < nrow) xs[krow] = ea, qp[krow++] = q / pm;
        if (span > 0.0) {
            evmin = fmin(evmin, ev);
            for (int a = 0; a < 2; a++) lsum += sig[a] / p, ldev = fmax(ldev, fabs(sig[a] / p - 1.0));
            nl += 2;
        }
        acc[0] = acc[1] = acc[2] = span = 0.0;
        res->eps_v_end = ev;
    }
    gr_peak pk;
    gr_peak_residual(xs, qp, krow, 0.005, 2.0 / 3.0 * o->strain, &pk);
    res->peak = pk.peak, res->eps_peak = pk.x_peak, res->cs = pk.residual;
    res->phi_peak = gr_phi_triaxial_deg(pk.peak), res->phi_cs = gr_phi_triaxial_deg(pk.residual);
    res->lat_mean = nl ? lsum / nl : NAN, res->lat_dev = nl ? ldev : NAN;
    res->eps_v_min = evmin, res->inertial = inertial, res->h = h, res->steps = (double)ntot;
    res->wall = clab_clock() - t0;
    rc = 0;
    goto done;
stopped: /* SIGINT, SIGTERM: the rows so far are whole */
    fprintf(stderr, "\ncontactlab triaxial: stopped by signal %d; the CSVs hold the rows written so far\n", xp_stop_signal());
    rc = 2;
    goto done;
failed:
    fprintf(stderr, "\ncontactlab triaxial: %s at p = %g kPa: %s\n", im->name, p / 1e3, err.msg);
done:
    if (csv && clab_csv_close(csv, &err) && rc == 0) {
        fprintf(stderr, "contactlab triaxial: %s\n", err.msg);
        rc = 1;
    }
    free(F);
    free(xs);
    free(qp);
    clab_options_free(&meta);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

static void tx_help(const xp_common *c)
{
    printf("usage: contactlab triaxial [options]\n\n"
           "Triaxial compression of a cubical sample between six plane walls (gravity off). The sample is\n"
           "the direct shear test's (dropped with friction off and settled; <out>/triaxial-sample.dat).\n"
           "All six walls are first brought to the confining stress p (isotropic compression,\n"
           "--consolidate); then the top and bottom walls approach each other at the axial strain rate\n"
           "while the four lateral walls hold p. Every method: loaded walls, each a mass moving along\n"
           "its axis pushed by p A(t) (a servo cannot hold a stress on rigid contacts). --walls servo:\n"
           "servo walls (wall speed = gain (p - sigma), clamped to a thousandth of a radius a step or\n"
           "ten times eps_dot L, whichever is larger; gain = alpha area/(k_n N_c h), N_c = 0.7 area/d^2\n"
           "contacts of stiffness k_n: Hertz's at the walls' contact force for force laws, m/h^2 for\n"
           "rigid contacts).\n"
           "Writes one CSV per (method, p): q/p, the volumetric strain, the walls' and the contacts'\n"
           "(Love-Weber) stresses and the coordination number against the axial strain;\n"
           "triaxial-summary.csv: peak and critical-state q/p and the friction angles\n"
           "sin(phi) = 3 M/(6 + M), M = q/p; figures. The inertial number I = eps_dot d sqrt(rho/p) is\n"
           "printed (quasi-static below 1e-3).\n\n"
           "Experiment options:\n"
           "  --p LIST          confining stresses [kPa] (default 10)\n"
           "  --n N             spheres (default 300)\n"
           "  --rate X          axial strain rate [1/s] (default 0.3: I = 7.7e-4 at 10 kPa)\n"
           "  --strain X        final axial strain (default 0.2)\n"
           "  --consolidate S   isotropic stage [s] (default 0.05)\n"
           "  --d D, --density RHO, --mu X, --E PA, --nu X, --cor X, --seed S   as in contactlab shear\n"
           "  --mu-wall X       wall friction (default 0: smooth walls, principal stresses along the axes)\n"
           "  --h-penalty S     step of the force-law methods [s] (default: 1/30 of a contact's period)\n"
           "  --h-dvi S         step of the rigid-contact methods [s] (default 1e-3;\n"
           "                     CCP: tol = 1e-4 m/s, max_iter 200, envelope 0.05 d; exact:\n"
           "                     exact_tol 1e-4, exact_max_outer 3; --opt to change)\n"
           "  --sample-de X     output interval of axial strain (default 0.002)\n"
           "  --servo-alpha A   fraction of a wall's stress error closed a step (default 0.1)\n"
           "  --walls W         how the confining walls hold p: loaded (default) or servo\n"
           "  --wall-mass X     a loaded wall's mass in sample masses (default 0.2); it moves along its\n"
           "                    axis only, pushed by p A(t) and the contacts: M dv/dt = p A - sigma A,\n"
           "                    speed within max(1e-3 R/h, 2 eps_dot L)\n"
           "  --quick           150 spheres, strain 0.03 (a check, in seconds)\n\n");
    xp_common_help(c);
}

int xp_triaxial(int argc, char **argv)
{
    static const struct option longopts[] = {
        XP_COMMON_LONGOPTS,
        {"p", required_argument, 0, 1000},         {"n", required_argument, 0, 1001},
        {"rate", required_argument, 0, 1002},      {"strain", required_argument, 0, 1003},
        {"consolidate", required_argument, 0, 1004}, {"d", required_argument, 0, 1005},
        {"density", required_argument, 0, 1006},   {"mu", required_argument, 0, 1007},
        {"mu-wall", required_argument, 0, 1008},   {"E", required_argument, 0, 1009},
        {"nu", required_argument, 0, 1010},        {"cor", required_argument, 0, 1011},
        {"seed", required_argument, 0, 1012},      {"h-penalty", required_argument, 0, 1013},
        {"h-dvi", required_argument, 0, 1014},     {"sample-de", required_argument, 0, 1015},
        {"servo-alpha", required_argument, 0, 1016}, {"quick", no_argument, 0, 1017},
        {"walls", required_argument, 0, 1018},     {"wall-mass", required_argument, 0, 1019},
        {0, 0, 0, 0}};
    tx_opts o;
    memset(&o, 0, sizeof o);
    xp_common_init(&o.c, "triaxial", argc, argv);
    o.c.gives_stiffness = 1;
    xp_methods_choose(&o.c, "penalty,dvi,dvi-exact");
    snprintf(o.c.method_default, sizeof o.c.method_default, "penalty,dvi,dvi-exact");
    o.mat = (gr_material){5e-3, 2650.0, 0.5, 1e8, 0.3, 0.5};
    o.sample = (gr_sample_def){300, 0.0, 1, 2.0};
    o.np = 1;
    o.p[0] = 10e3;
    o.rate = 0.3;
    o.strain = 0.2;
    o.consolidate = 0.05;
    o.hdvi = 1e-3;
    o.sample_de = 0.002;
    o.alpha = 0.1;
    o.walls = TX_WALLS_LOADED;
    o.wall_mass = 0.2;
    int quick = 0, nset = 0, strainset = 0, rc = 2, opt;
    double x;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        if (xp_common_option(&o.c, opt, optarg) != 0) continue;
        int bad = 0;
        switch (opt) {
        case '?' + 256: tx_help(&o.c); rc = 0; goto out;
        case 1000:
            bad = xp_parse_list("p", optarg, 0.01, 1e6, o.p, TX_MAXP, &o.np);
            for (int i = 0; !bad && i < o.np; i++) o.p[i] *= 1e3;
            break;
        case 1001:
            bad = xp_parse_double("n", optarg, 10, 1e6, &x);
            o.sample.n = (size_t)x, nset = 1;
            break;
        case 1002: bad = xp_parse_double("rate", optarg, 1e-9, 100, &o.rate); break;
        case 1003: bad = xp_parse_double("strain", optarg, 1e-4, 0.6, &o.strain), strainset = 1; break;
        case 1004: bad = xp_parse_double("consolidate", optarg, 0, 100, &o.consolidate); break;
        case 1005: bad = xp_parse_double("d", optarg, 1e-6, 1, &o.mat.d); break;
        case 1006: bad = xp_parse_double("density", optarg, 1e-3, 1e6, &o.mat.density); break;
        case 1007: bad = xp_parse_double("mu", optarg, 0, 10, &o.mat.mu); break;
        case 1008: bad = xp_parse_double("mu-wall", optarg, 0, 10, &o.mu_wall); break;
        case 1009: bad = xp_parse_double("E", optarg, 1.0, 1e15, &o.mat.E); break;
        case 1010: bad = xp_parse_double("nu", optarg, -0.999, 0.499, &o.mat.nu); break;
        case 1011: bad = xp_parse_double("cor", optarg, 1e-6, 1.0, &o.mat.cor); break;
        case 1012:
            bad = xp_parse_double("seed", optarg, 0, 4294967295.0, &x);
            o.sample.seed = (unsigned long)x;
            break;
        case 1013: bad = xp_parse_double("h-penalty", optarg, 1e-12, 0.1, &o.hpen); break;
        case 1014: bad = xp_parse_double("h-dvi", optarg, 1e-9, 0.1, &o.hdvi); break;
        case 1015: bad = xp_parse_double("sample-de", optarg, 1e-7, 0.1, &o.sample_de); break;
        case 1016: bad = xp_parse_double("servo-alpha", optarg, 1e-6, 1, &o.alpha); break;
        case 1017: quick = 1; break;
        case 1018:
            if (!strcmp(optarg, "servo")) o.walls = TX_WALLS_SERVO;
            else if (!strcmp(optarg, "loaded")) o.walls = TX_WALLS_LOADED;
            else xp_option_error("contactlab triaxial: --walls %s: allowed: loaded, servo\n", optarg);
            break;
        case 1019: bad = xp_parse_double("wall-mass", optarg, 1e-3, 1e6, &o.wall_mass); break;
        default: xp_option_unknown(); break;
        }
        (void)bad;
    }
    for (int i = optind; i < argc; i++) xp_option_error("contactlab triaxial: unexpected argument '%s'\n", argv[i]);
    if (xp_option_errors("contactlab triaxial")) goto out;
    if (quick) {
        if (!nset) o.sample.n = 150;
        if (!strainset) o.strain = 0.03;
        o.consolidate = fmin(o.consolidate, 0.05);
        o.sample_de = fmin(o.sample_de, o.strain / 30.0);
    }
    if (o.c.h > 0.0) o.hpen = o.hdvi = o.c.h;
    if (xp_out_prepare(&o.c)) {
        rc = 1;
        goto out;
    }
    char spath[2048], sample_path[2048];
    xp_path(&o.c, "triaxial-sample.dat", sample_path, sizeof sample_path);
    xp_path(&o.c, "triaxial-summary.csv", spath, sizeof spath);
    static const char *const scols[] = {"method",       "p_kPa",        "peak_q_over_p", "eps_a_peak",
                                        "cs_q_over_p",  "phi_peak_deg", "phi_cs_deg",    "eps_v_end",
                                        "eps_v_min",    "inertial_number", "h_s",        "steps",
                                        "wall_s",       "lateral_mean_over_p", "lateral_dev_max", "series_file"};
    enum { NS = sizeof scols / sizeof scols[0] };
    clab_options meta;
    clab_options_init(&meta);
    clab_options_set(&meta, "experiment", "triaxial", NULL);
    clab_options_set(&meta, "peak_q_over_p", "largest q/p of the curve smoothed over 0.005 of axial strain", NULL);
    clab_options_set(&meta, "cs_q_over_p", "critical state: mean q/p over the last third of the axial strain", NULL);
    clab_options_set(&meta, "lateral_mean_over_p", "mean over the rows of sigma_xx/p and sigma_yy/p (the confining walls)", NULL);
    clab_options_set(&meta, "lateral_dev_max", "largest |sigma_xx/p - 1|, |sigma_yy/p - 1| over the rows (means over a row's interval)", NULL);
    clab_options_set(&meta, "phi_deg", "sin(phi) = 3 M/(6 + M), M = q/p (triaxial compression)", NULL);
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
    printf("%-16s %7s %9s %9s %9s %9s %9s %9s %9s %8s %8s %8s\n", "method", "p_kPa", "peak_q/p", "eps_peak",
           "cs_q/p", "phi_peak", "phi_cs", "eps_v_end", "I", "wall_s", "lat/p", "lat_dev");
    rc = 0;
    for (int mi = 0; mi < o.c.nmethod && rc == 0; mi++) {
        const xp_method *im = o.c.method[mi];
        xp_progress pb;
        char label[128];
        snprintf(label, sizeof label, "triaxial %s", im->name);
        xp_progress_begin(&pb, &o.c, label);
        for (int i = 0; i < o.np && rc == 0; i++) {
            tx_result r = {0};
            char file[256];
            int st = tx_case(&o, im, &smp, o.p[i], &r, file, sizeof file, &pb, (double)i / o.np, 1.0 / o.np);
            if (st) {
                rc = st == 2 ? 128 + xp_stop_signal() : 1;
                break;
            }
            double vals[] = {o.p[i] / 1e3, r.peak,   r.eps_peak, r.cs, r.phi_peak, r.phi_cs, r.eps_v_end,
                             r.eps_v_min,  r.inertial, r.h,      r.steps, r.wall, r.lat_mean, r.lat_dev};
            const char *tail[] = {file};
            if (xp_summary_row(&o.c, sum, &im->name, 1, vals, sizeof vals / sizeof vals[0], tail, 1)) {
                rc = 1;
                break;
            }
            if (pb.on) fprintf(stderr, "\r%*s\r", 80, "");
            printf("%-16s %7.3g %9.4f %9.4f %9.4f %9.2f %9.2f %9.4f %9.2e %8.1f %8.4f %8.4f\n", im->name,
                   o.p[i] / 1e3, r.peak, r.eps_peak, r.cs, r.phi_peak, r.phi_cs, r.eps_v_end, r.inertial, r.wall,
                   r.lat_mean, r.lat_dev);
            fflush(stdout);
        }
        if (rc == 0) xp_progress_end(&pb);
    }
    gr_sample_free(&smp);
    rc = xp_finish(&o.c, rc, sum, spath, "triaxial-p_*.csv", "triaxial.gp", "triaxial-q-p.png");
out:
    xp_common_free(&o.c);
    return rc;
}
