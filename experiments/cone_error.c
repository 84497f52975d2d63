/* cone_error.c: the polyhedral friction cone's error. A flat box (a puck) launched sliding on a
 * plane at speed V in a direction at angle phi from an edge of the Stewart-Trinkle LCP's
 * friction polygon (k edges d_j at 2 pi j / k from the contact frame's u), under the lcp method
 * for each k of --k: the friction is anisotropic, so the puck drifts sideways.
 *
 * Closed form (rigid puck, maximum dissipation over the polygon mu N conv(d_1..d_k)). The
 * friction F minimizes F.v over the polygon, a linear function: it picks the vertex most
 * opposed to v, F = -mu N d*, d* the edge nearest to v's direction (at the angle q in
 * [0, pi/k] from v), unless v lies on a bisector, where F is the midpoint of a side,
 * -mu N cos(pi/k) v/|v|. So, starting at q from the nearest edge:
 *   - the friction is deflected by q from -v (towards that edge), the deceleration along v is
 *     mu g cos q and the sideways acceleration mu g sin q, pushing v away from the edge;
 *   - v's component across d* stays V sin q while its component along d* falls at mu g: v
 *     turns until it reaches the bisector (angle pi/k from d*) at t1 = V (cos q - sin q
 *     cot(pi/k)) / (mu g), then slides along the bisector at speed V2 = V sin q / sin(pi/k),
 *     decelerating at mu g cos(pi/k), for t2 = V2 / (mu g cos(pi/k));
 *   - the heading turns by pi/k - q (every start off an edge ends on a bisector), and the
 *     displacement D = (V cos q t1 - mu g t1^2/2 + s2 cos(pi/k), V sin q t1 + s2 sin(pi/k)) in
 *     the frame of d*, s2 = V2^2 / (2 mu g cos(pi/k)), points at atan2(D_y, D_x) - q from the
 *     launch direction (the path deflection).
 * Angles are signed about the normal n (counterclockwise from u to w); a start nearer the next
 * edge is the mirror image. A method with a round cone (any other) has no deflection. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clab_csv.h"
#include "xp.h"

#define CE_HX 0.05  /* puck half extents [m] */
#define CE_HZ 0.01
#define MAXK 16
#define MAXPHI 181

typedef struct ce_opts {
    xp_common c;
    double mu, V, g, h, phi_track;
    double k[MAXK];
    int nk;
    double phi[MAXPHI]; /* launch angles from edge 0 [deg] */
    int nphi;
} ce_opts;

/* the closed form of the header, angles in radians, k = 0: a round cone */
typedef struct ce_closed {
    double force_defl, decel, turn, path, t_stop, dist;
} ce_closed;

static ce_closed closed_form(int k, double phi, double V, double mu, double g)
{
    ce_closed o = {0.0, mu * g, 0.0, 0.0, V / (mu * g), V * V / (2.0 * mu * g)};
    if (k <= 0) return o;
    const double c = M_PI / k, sector = 2.0 * c;
    const double p = phi - sector * floor(phi / sector); /* from the edge below, [0, sector) */
    const double sgn = p > c ? -1.0 : 1.0, q = p > c ? sector - p : p;
    const double t1 = V * (cos(q) - sin(q) / tan(c)) / (mu * g);
    const double V2 = V * sin(q) / sin(c), s2 = V2 * V2 / (2.0 * mu * g * cos(c));
    const double Dx = V * cos(q) * t1 - 0.5 * mu * g * t1 * t1 + s2 * cos(c), Dy = V * sin(q) * t1 + s2 * sin(c);
    o.force_defl = fabs(q - c) <= 1e-12 * c ? 0.0 : -sgn * q; /* on a bisector: a side's midpoint */
    o.decel = mu * g * cos(q);
    o.turn = q > 0.0 ? sgn * (c - q) : 0.0;
    o.path = sgn * (atan2(Dy, Dx) - q);
    o.t_stop = t1 + V2 / (mu * g * cos(c));
    o.dist = hypot(Dx, Dy);
    return o;
}

static double deg(double r) { return r * 180.0 / M_PI; }
/* an angle difference into (-pi, pi] */
static double wrap(double a) { return a - 2.0 * M_PI * floor((a + M_PI) / (2.0 * M_PI)); }

/* one case's measurements (angles in radians) */
typedef struct ce_meas {
    double force_defl, decel, turn, path, t_stop, dist, drift, steps, wall;
} ce_meas;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* a CSV with the run's metadata and header; NULL with err set */
static clab_csv *ce_open(const ce_opts *o, const char *path, const clab_options *meta, const char *const *cols,
                         size_t ncols, clab_error *err)
{
    clab_csv *f = clab_csv_open(path, o->c.force ? CLAB_CSV_OVERWRITE : 0, err);
    if (f && (clab_csv_meta(f, meta, o->c.argc, o->c.argv, err) || clab_csv_header(f, cols, ncols, err))) {
        clab_error e2;
        clab_csv_close(f, &e2);
        f = NULL;
    }
    return f;
}

static clab_world *ce_world(const ce_opts *o, clab_error *err)
{
    clab_world_def wd = clab_default_world_def();
    wd.gravity = clab_v3(0.0, 0.0, -o->g);
    clab_world *w = clab_world_create(&wd);
    if (!w) return NULL;
    w->materials[0].mu = o->mu;
    clab_body_def d = clab_default_body_def();
    snprintf(d.name, sizeof d.name, "plane");
    d.shape = clab_plane();
    d.fixed = 1;
    if (clab_world_add_body(w, &d, err) < 0) goto fail;
    d = clab_default_body_def();
    snprintf(d.name, sizeof d.name, "puck");
    d.shape = clab_box(CE_HX, CE_HX, CE_HZ);
    d.mass = 1.0;
    d.r = clab_v3(0.0, 0.0, CE_HZ);
    if (clab_world_add_body(w, &d, err) < 0) goto fail;
    return w;
fail:
    clab_world_destroy(w);
    return NULL;
}

/* One case: method m with k edges (0: not the lcp backend), launch angle phi [rad]; a series
 * when track. 0 or 1 (printed). About 130 lines: the scene, the launch, the series' metadata
 * and the step loop's measurements read best in one place, in the order they happen. */
static int ce_case(ce_opts *o, const xp_method *m, int k, double phi, int track, ce_meas *r)
{
    clab_error err;
    clab_world *w = ce_world(o, &err);
    if (!w) {
        fprintf(stderr, "contactlab cone-error: %s\n", err.msg);
        return 1;
    }
    clab_options extra;
    clab_options_init(&extra);
    char v[64];
    if (k > 0) {
        snprintf(v, sizeof v, "%d", k);
        clab_options_set(&extra, "directions", v, NULL);
    }
    clab_sim *s = xp_sim(&o->c, w, m, o->h, &extra);
    clab_options_free(&extra);
    clab_csv *csv = NULL;
    int rc = 1;
    clab_vec3 *f = NULL;
    size_t fcap = 0;
    if (!s) goto done;
    const double t0 = now_s();
    /* the frame of the plane's contacts (n = +z): angles are measured from u towards w */
    clab_contact probe = {0};
    probe.n = clab_v3(0.0, 0.0, 1.0);
    clab_vec3 u, wv;
    clab_contact_frame(&probe, &u, &wv);
    /* rest 0.02 s (a force law reaches its static overlap), then launch at V along phi */
    for (long i = 0, n = xp_steps(&o->c, 0.02, o->h); i < n; i++)
        if (clab_sim_step(s, &err)) goto step_failed;
    clab_body *B = &w->bodies[1];
    const clab_vec3 dir = clab_v3_add(clab_v3_scale(u, cos(phi)), clab_v3_scale(wv, sin(phi)));
    B->rdot = clab_v3_scale(dir, o->V);
    B->wbar = clab_v3(0.0, 0.0, 0.0);
    const clab_vec3 r0 = B->r;
    w->t = 0.0;
    w->step = 0;
    const ce_closed cf = closed_form(k, phi, o->V, o->mu, o->g);
    const long nsteps = xp_steps(&o->c, 1.3 * cf.t_stop + 0.05, o->h);
    if (nsteps < 0) goto done;
    if (track) {
        char file[256], path[2048];
        snprintf(file, sizeof file, "cone-error-k_%d-%s.csv", k, m->name);
        xp_path(&o->c, file, path, sizeof path);
        clab_options meta;
        clab_options_init(&meta);
        clab_options_set(&meta, "experiment", "cone-error", NULL);
        xp_method_meta(m, &meta);
        snprintf(v, sizeof v, "%d", k);
        clab_options_set(&meta, "directions", v, NULL);
        snprintf(v, sizeof v, "%.17g", deg(phi));
        clab_options_set(&meta, "phi_deg", v, NULL);
        clab_options_set(&meta, "x_u_m", "displacement along the contact frame's u (edge 0 of the polygon)", NULL);
        clab_options_set(&meta, "y_w_m", "displacement along w = n x u", NULL);
        clab_options_set(&meta, "heading_deg", "direction of the velocity from u towards w", NULL);
        clab_sim_meta(s, &meta);
        static const char *const cols[] = {"t_s", "x_u_m", "y_w_m", "v_u_m_s", "v_w_m_s", "speed_m_s", "heading_deg"};
        csv = ce_open(o, path, &meta, cols, 7, &err);
        clab_options_free(&meta);
        if (!csv) {
            fprintf(stderr, "contactlab cone-error: %s\n", err.msg);
            goto done;
        }
    }
    memset(r, 0, sizeof *r);
    double heading = phi;
    int stopped = 0;
    for (long i = 0; i <= nsteps; i++) {
        const clab_vec3 dr = clab_v3_sub(B->r, r0);
        const double vu = clab_v3_dot(B->rdot, u), vw = clab_v3_dot(B->rdot, wv), sp = hypot(vu, vw);
        if (sp > 1e-3 * o->V) heading = atan2(vw, vu);
        if (csv && i % 5 == 0) {
            const double row[7] = {w->t, clab_v3_dot(dr, u), clab_v3_dot(dr, wv), vu, vw, sp, deg(heading)};
            if (clab_csv_row(csv, row, 7, &err)) goto step_failed;
        }
        if (i == 1) { /* the first step's friction: deflection from -v and deceleration along v */
            if (xp_forces(s, &f, &fcap)) goto done;
            double Fu = 0.0, Fw = 0.0;
            for (size_t j = 0; j < s->contacts.n; j++) { /* the plane is body a: forces on the puck */
                clab_vec3 cu, cw;
                clab_contact_frame(&s->contacts.c[j], &cu, &cw);
                const clab_vec3 F = clab_v3_add(clab_v3_scale(cu, f[j].y), clab_v3_scale(cw, f[j].z));
                Fu += clab_v3_dot(F, u);
                Fw += clab_v3_dot(F, wv);
            }
            r->force_defl = wrap(atan2(Fw, Fu) - (phi + M_PI));
            r->decel = -(Fu * cos(phi) + Fw * sin(phi)) * clab_body_invmass(B);
        }
        if (!stopped && sp <= 1e-3 * o->V) {
            stopped = 1;
            r->t_stop = w->t;
        }
        if (i == nsteps || (stopped && w->t > r->t_stop + 0.02)) break;
        if (clab_sim_step(s, &err)) goto step_failed;
    }
    const clab_vec3 D = clab_v3_sub(B->r, r0);
    const double Du = clab_v3_dot(D, u), Dw = clab_v3_dot(D, wv);
    r->turn = wrap(heading - phi);
    r->path = wrap(atan2(Dw, Du) - phi);
    r->dist = hypot(Du, Dw);
    r->drift = -Du * sin(phi) + Dw * cos(phi); /* across the launch direction */
    if (!stopped) r->t_stop = NAN;
    r->steps = (double)w->step;
    r->wall = now_s() - t0;
    rc = 0;
    goto done;
step_failed:
    fprintf(stderr, "contactlab cone-error: %s, k = %d, phi = %g deg: %s\n", m->name, k, deg(phi), err.msg);
done:
    if (csv && clab_csv_close(csv, &err) && rc == 0) {
        fprintf(stderr, "contactlab cone-error: %s\n", err.msg);
        rc = 1;
    }
    free(f);
    clab_sim_destroy(s);
    clab_world_destroy(w);
    return rc;
}

/* cone-error-closed-form.csv: the closed form on a fine grid of phi for each k */
static int write_closed_form(const ce_opts *o)
{
    char path[2048];
    xp_path(&o->c, "cone-error-closed-form.csv", path, sizeof path);
    clab_options meta;
    clab_options_init(&meta);
    clab_options_set(&meta, "experiment", "cone-error", NULL);
    clab_options_set(&meta, "closed_form",
                     "maximum dissipation over the regular k-gon: F = -mu N d*, d* the edge nearest to v (at q); "
                     "then v turns to the bisector and slides along it (doc/lcp.md)", NULL);
    static const char *const cols[] = {"k", "phi_deg", "force_deflection_deg", "decel_m_s2", "heading_turn_deg",
                                       "path_deflection_deg", "stop_time_s", "distance_m"};
    clab_error err;
    clab_csv *csv = ce_open(o, path, &meta, cols, 8, &err);
    clab_options_free(&meta);
    if (!csv) {
        fprintf(stderr, "contactlab cone-error: %s\n", err.msg);
        return 1;
    }
    int rc = 0;
    for (int i = 0; i < o->nk && !rc; i++)
        for (int j = 0; j <= 720 && !rc; j++) {
            const double phi = 0.125 * j * M_PI / 180.0;
            const ce_closed c = closed_form((int)o->k[i], phi, o->V, o->mu, o->g);
            const double row[8] = {o->k[i], deg(phi), deg(c.force_defl), c.decel, deg(c.turn), deg(c.path),
                                   c.t_stop, c.dist};
            rc = clab_csv_row(csv, row, 8, &err) != 0;
        }
    if (clab_csv_close(csv, &err)) rc = 1;
    if (rc) fprintf(stderr, "contactlab cone-error: %s\n", err.msg);
    return rc;
}

static void ce_help(const xp_common *c)
{
    printf("usage: contactlab cone-error [options]\n\n"
           "The polyhedral friction cone's error: a flat box (0.1 x 0.1 x 0.02 m, 1 kg) launched sliding\n"
           "at V on a plane in a direction at angle phi from an edge of the Stewart-Trinkle LCP's friction\n"
           "polygon (k edges). Maximum dissipation over the polygon takes the edge nearest to v: the\n"
           "friction is deflected from -v, the puck turns until it slides along a bisector of two edges\n"
           "and drifts sideways. Measured against the closed form (doc/lcp.md) for each k: the friction's\n"
           "deflection and the deceleration at the launch, the heading's turn and the path's deflection\n"
           "at the stop. A method other than lcp (a round cone) runs once per phi. Writes\n"
           "cone-error-summary.csv, cone-error-closed-form.csv, one trajectory per (k, method) at\n"
           "--phi-track, and figures.\n\n"
           "Experiment options:\n"
           "  --k LIST         edges of the polygon (default 4,6,8,16)\n"
           "  --phi LIST       launch angles from edge 0 [deg] (default 1, 3, ..., 89: off every edge)\n"
           "  --phi-track X    the launch angle of the trajectories [deg] (default 10)\n"
           "  --mu X           friction coefficient (default 0.3)\n"
           "  --v0 X           launch speed V [m/s] (default 1)\n"
           "  --h-dvi S        step [s] (default 1e-3)\n"
           "  --quick          k = 4, 8 and phi = 5, 15, ..., 85\n\n");
    xp_common_help(c);
}

/* the command: options, the closed-form table, the summary's metadata, the cases (about 130
 * lines, the shape of the other drivers' entry points) */
int xp_cone_error(int argc, char **argv)
{
    static const struct option longopts[] = {XP_COMMON_LONGOPTS,
                                             {"k", required_argument, 0, 1000},
                                             {"phi", required_argument, 0, 1001},
                                             {"phi-track", required_argument, 0, 1002},
                                             {"mu", required_argument, 0, 1003},
                                             {"v0", required_argument, 0, 1004},
                                             {"h-dvi", required_argument, 0, 1005},
                                             {"quick", no_argument, 0, 1006},
                                             {0, 0, 0, 0}};
    ce_opts o;
    memset(&o, 0, sizeof o);
    xp_common_init(&o.c, "cone-error", argc, argv);
    xp_methods_choose(&o.c, "lcp");
    snprintf(o.c.method_default, sizeof o.c.method_default, "lcp");
    o.mu = 0.3, o.V = 1.0, o.g = 9.81, o.h = 1e-3, o.phi_track = 10.0;
    const double kdef[4] = {4, 6, 8, 16};
    o.nk = 4;
    memcpy(o.k, kdef, sizeof kdef);
    o.nphi = 45;
    for (int i = 0; i < o.nphi; i++) o.phi[i] = 1.0 + 2.0 * i;
    int rc = 2, opt, quick = 0, kset = 0, phiset = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        int r = xp_common_option(&o.c, opt, optarg);
        if (r != 0) continue;
        switch (opt) {
        case '?' + 256: ce_help(&o.c); rc = 0; goto out;
        case 1000: kset = 1; xp_parse_list("k", optarg, 3, 64, o.k, MAXK, &o.nk); break;
        case 1001: phiset = 1; xp_parse_list("phi", optarg, -360, 360, o.phi, MAXPHI, &o.nphi); break;
        case 1002: xp_parse_double("phi-track", optarg, -360, 360, &o.phi_track); break;
        case 1003: xp_parse_double("mu", optarg, 1e-3, 10, &o.mu); break;
        case 1004: xp_parse_double("v0", optarg, 1e-3, 100, &o.V); break;
        case 1005: xp_parse_double("h-dvi", optarg, 1e-6, 0.01, &o.h); break;
        case 1006: quick = 1; break;
        default: xp_option_unknown(); break;
        }
    }
    for (int i = optind; i < argc; i++) xp_option_error("contactlab cone-error: unexpected argument '%s'\n", argv[i]);
    for (int i = 0; i < o.nk; i++)
        if (o.k[i] != floor(o.k[i])) xp_option_error("contactlab cone-error: --k: %g is not a whole number\n", o.k[i]);
    if (xp_option_errors("contactlab cone-error")) goto out;
    if (quick && !kset) o.nk = 2, o.k[0] = 4, o.k[1] = 8;
    if (quick && !phiset) {
        o.nphi = 9;
        for (int i = 0; i < o.nphi; i++) o.phi[i] = 5.0 + 10.0 * i;
    }
    if (o.c.h > 0.0) o.h = o.c.h;
    if (xp_out_prepare(&o.c) || write_closed_form(&o)) {
        rc = 1;
        goto out;
    }
    char spath[2048];
    xp_path(&o.c, "cone-error-summary.csv", spath, sizeof spath);
    static const char *const scols[] = {
        "method", "k", "phi_deg", "mu", "v0_m_s", "h_s", "force_deflection_deg", "force_deflection_closed_deg",
        "decel_m_s2", "decel_closed_m_s2", "heading_turn_deg", "heading_turn_closed_deg", "path_deflection_deg",
        "path_deflection_closed_deg", "stop_time_s", "stop_time_closed_s", "distance_m", "distance_closed_m",
        "lateral_drift_m", "steps", "wall_s"};
    enum { NS = sizeof scols / sizeof scols[0] };
    clab_options meta;
    clab_options_init(&meta);
    char sv[64];
    clab_options_set(&meta, "experiment", "cone-error", NULL);
    snprintf(sv, sizeof sv, "%.17g", o.mu);
    clab_options_set(&meta, "mu", sv, NULL);
    snprintf(sv, sizeof sv, "%.17g", o.V);
    clab_options_set(&meta, "v0_m_s", sv, NULL);
    snprintf(sv, sizeof sv, "%.17g", o.g);
    clab_options_set(&meta, "g_m_s2", sv, NULL);
    clab_options_set(&meta, "phi_deg", "launch direction from edge 0 (the contact frame's u) towards w = n x u", NULL);
    clab_options_set(&meta, "closed_form",
                     "Stewart-Trinkle polygon of k edges, maximum dissipation: F = -mu N d*, d* the edge nearest to v "
                     "at angle q <= pi/k: force deflection -q from -v, decel mu g cos q; v turns to the bisector at "
                     "t1 = V (cos q - sin q cot(pi/k))/(mu g), then slides along it at mu g cos(pi/k): heading turn "
                     "pi/k - q; round cone (other methods): no deflection, decel mu g",
                     NULL);
    clab_options_set(&meta, "force_deflection_deg", "angle of the first step's friction force from -v (signed about n)", NULL);
    clab_options_set(&meta, "decel_m_s2", "first step: friction force against v over the mass", NULL);
    clab_options_set(&meta, "heading_turn_deg", "velocity direction at the stop (last speed > 1e-3 V) minus phi", NULL);
    clab_options_set(&meta, "path_deflection_deg", "direction of the displacement at the stop minus phi", NULL);
    clab_options_set(&meta, "lateral_drift_m", "displacement at the stop across the launch direction", NULL);
    clab_csv *sum = xp_summary_begin(&o.c, spath, &meta, scols, NS);
    if (!sum) {
        rc = 1;
        goto out;
    }
    printf("%-8s %3s %10s %10s %10s %10s %10s %10s\n", "method", "k", "max|dF|", "pi/k", "max|turn|", "closed",
           "max|path|", "closed");
    rc = 0;
    for (int mi = 0; mi < o.c.nmethod && rc == 0; mi++) {
        const xp_method *m = o.c.method[mi];
        const int lcp = strcmp(m->backend, "lcp") == 0;
        for (int ki = 0; ki < (lcp ? o.nk : 1) && rc == 0; ki++) {
            const int k = lcp ? (int)o.k[ki] : 0;
            xp_progress pb;
            char label[128];
            snprintf(label, sizeof label, "cone-error %s k=%d", m->name, k);
            xp_progress_begin(&pb, &o.c, label);
            double mF = 0, mT = 0, mP = 0, cT = 0, cP = 0;
            for (int i = 0; i <= o.nphi && rc == 0; i++) { /* the last: the tracked angle */
                const double phi_deg = i < o.nphi ? o.phi[i] : o.phi_track, phi = phi_deg * M_PI / 180.0;
                ce_meas r;
                if (ce_case(&o, m, k, phi, i == o.nphi, &r)) {
                    rc = 1;
                    break;
                }
                xp_progress_update(&pb, (double)(i + 1) / (o.nphi + 1));
                if (i == o.nphi) break;
                const ce_closed c = closed_form(k, phi, o.V, o.mu, o.g);
                const double vals[NS - 1] = {k, phi_deg, o.mu, o.V, o.h, deg(r.force_defl), deg(c.force_defl),
                                             r.decel, c.decel, deg(r.turn), deg(c.turn), deg(r.path), deg(c.path),
                                             r.t_stop, c.t_stop, r.dist, c.dist, r.drift, r.steps, r.wall};
                const char *head = m->name;
                if (xp_summary_row(&o.c, sum, &head, 1, vals, NS - 1, NULL, 0)) rc = 1;
                mF = fmax(mF, fabs(deg(r.force_defl)));
                mT = fmax(mT, fabs(deg(r.turn)));
                mP = fmax(mP, fabs(deg(r.path)));
                cT = fmax(cT, fabs(deg(c.turn)));
                cP = fmax(cP, fabs(deg(c.path)));
            }
            xp_progress_end(&pb);
            if (rc == 0)
                printf("%-8s %3d %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f\n", m->name, k, mF, k ? 180.0 / k : 0.0,
                       mT, cT, mP, cP);
        }
    }
    rc = xp_finish(&o.c, rc, sum, spath, "cone-error-*.csv", "cone-error.gp", "cone-error.png, cone-error-paths.png");
out:
    xp_common_free(&o.c);
    return rc;
}
