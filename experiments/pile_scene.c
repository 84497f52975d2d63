/* pile_scene.c: the granular pile of pile_scene.h: box of half-spaces, random loose packing by
 * random sequential addition, measurements, and a settling run. */
#include "config.h"

#include "pile_scene.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double xp_pile_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double xp_pile_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

xp_pile_def xp_pile_default(void)
{
    xp_pile_def d;
    memset(&d, 0, sizeof d);
    d.n = 500;
    d.radius = 0.01;
    d.poly = 0.1;
    d.density = 2500.0;
    d.mu = 0.5;
    d.mu_wall = 0.0;
    d.E = 1e8;
    d.nu = 0.3;
    d.cor = 0.5;
    d.width = 0.0;
    d.phi0 = 0.3;
    d.seed = 1;
    return d;
}

const char xp_pile_help[] =
    "Pile options (the same scene in pile, convergence and scaling):\n"
    "  --seed S         random seed of the packing, gsl_rng_mt19937 (default 1)\n"
    "  --radius R       mean sphere radius [m] (default 0.01)\n"
    "  --poly P         polydispersity: radii uniform in R (1 +- P), 0 <= P < 0.5 (default 0.1)\n"
    "  --density D      [kg/m^3] (default 2500)\n"
    "  --mu X           friction sphere-sphere and sphere-floor (default 0.5)\n"
    "  --mu-wall X      friction sphere-wall (default 0: the floor carries the whole weight)\n"
    "  --E PA           Young's modulus, penalty law [Pa] (default 1e8)\n"
    "  --nu X           Poisson ratio (default 0.3)\n"
    "  --cor X          restitution coefficient (default 0.5)\n"
    "  --width L        inner box width [m] (default: from N, so the settled pile is about L/2\n"
    "                   high: 0.19 m for N = 500)\n"
    "  --phi0 X         solid fraction of the initial loose packing, <= 0.35 (default 0.3)\n"
    "  --packing P      loose (random sequential addition at phi0, spheres fall into the box) or\n"
    "                   deposit (each sphere dropped at the lowest of 256 random spots: dense at once)\n";

int xp_pile_option(xp_pile_def *d, int opt, const char *arg)
{
    double x = 0.0;
    int bad;
    switch (opt) {
    case 900:
        bad = xp_parse_double("seed", arg, 0, 4294967295.0, &x);
        if (!bad) d->seed = (unsigned long)x;
        break;
    case 901: bad = xp_parse_double("radius", arg, 1e-6, 10, &d->radius); break;
    case 902: bad = xp_parse_double("poly", arg, 0, 0.49, &d->poly); break;
    case 903: bad = xp_parse_double("density", arg, 1e-3, 1e6, &d->density); break;
    case 904: bad = xp_parse_double("mu", arg, 0, 10, &d->mu); break;
    case 905: bad = xp_parse_double("mu-wall", arg, 0, 10, &d->mu_wall); break;
    case 906: bad = xp_parse_double("E", arg, 1.0, 1e15, &d->E); break;
    case 907: bad = xp_parse_double("nu", arg, -0.999, 0.499, &d->nu); break;
    case 908: bad = xp_parse_double("cor", arg, 1e-6, 1.0, &d->cor); break;
    case 909: bad = xp_parse_double("width", arg, 1e-6, 1e3, &d->width); break;
    case 910: bad = xp_parse_double("phi0", arg, 1e-3, 0.35, &d->phi0); break;
    case 911:
        bad = 0;
        if (strcmp(arg, "loose") == 0) d->packing = XP_PILE_LOOSE;
        else if (strcmp(arg, "deposit") == 0) d->packing = XP_PILE_DEPOSIT;
        else {
            xp_option_error("contactlab: --packing '%s' is not one of: loose, deposit\n", arg);
            bad = 1;
        }
        break;
    default: return 0;
    }
    return bad ? -1 : 1;
}

void xp_pile_dvi_defaults(clab_options *extra) { clab_options_set(extra, "tol", XP_PILE_DVI_TOL, "pile default"); }

double xp_round125(double x)
{
    double dec = pow(10.0, floor(log10(x)));
    return x >= 5 * dec ? 5 * dec : (x >= 2 * dec ? 2 * dec : dec);
}

/* mean sphere volume for radii uniform in R (1 +- p): 4/3 pi R^3 E[(1 + p U)^3] = 4/3 pi R^3 (1 + p^2) */
static double mean_volume(const xp_pile_def *d)
{
    return 4.0 / 3.0 * M_PI * pow(d->radius, 3) * (1.0 + d->poly * d->poly);
}

clab_world *xp_pile_build(const xp_pile_def *d, xp_pile_info *info, clab_error *err)
{
    if (d->n < 1 || !(d->radius > 0.0) || !(d->poly >= 0.0 && d->poly < 0.5) || !(d->density > 0.0) ||
        !(d->phi0 > 0.0 && d->phi0 <= 0.35) || !(d->width >= 0.0)) {
        clab_error_set(err, CLAB_EINVAL,
                       "pile: need n >= 1, radius > 0, 0 <= poly < 0.5, density > 0, 0 < phi0 <= 0.35, width >= 0 "
                       "(got n = %d, radius = %g, poly = %g, density = %g, phi0 = %g, width = %g)",
                       d->n, d->radius, d->poly, d->density, d->phi0, d->width);
        return NULL;
    }
    const double V = mean_volume(d), rmax = d->radius * (1.0 + d->poly);
    /* default width: the settled pile (solid fraction about 0.6) is about L/2 high */
    double L = d->width > 0.0 ? d->width : cbrt(2.0 * d->n * V / 0.6);
    if (L < 4.0 * rmax) L = 4.0 * rmax;
    if (d->width > 0.0 && d->width < 2.2 * rmax) {
        clab_error_set(err, CLAB_EINVAL, "pile: box width %g m is too small for spheres of radius up to %g m", d->width,
                       rmax);
        return NULL;
    }
    clab_world *w = clab_world_create(NULL);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    double *x = malloc(4 * (size_t)d->n * sizeof *x); /* placed spheres: x, y, z, r */
    int *head = NULL, *next = NULL;                   /* deposit: cell lists */
    if (!w || !rng || !x) {
        clab_error_set(err, CLAB_ENOMEM, "pile: out of memory for %d spheres", d->n);
        goto fail;
    }
    gsl_rng_set(rng, d->seed);

    /* materials: 1 grain (spheres and floor), 2 wall */
    clab_material m = clab_default_material();
    snprintf(m.name, sizeof m.name, "grain");
    m.mu = d->mu;
    m.E = d->E;
    m.nu = d->nu;
    m.cor = d->cor;
    int mat_grain = clab_world_add_material(w, &m, err);
    snprintf(m.name, sizeof m.name, "wall");
    m.mu = d->mu_wall;
    int mat_wall = mat_grain < 0 ? -1 : clab_world_add_material(w, &m, err);
    if (mat_wall < 0) goto fail;

    /* the box: floor and four walls, normals into the box */
    const double h2 = 0.5 * L;
    if (xp_add_plane(w, "floor", clab_v3(0, 0, 0), clab_v3(0, 0, 1), mat_grain, err) ||
        xp_add_plane(w, "wall_xm", clab_v3(-h2, 0, 0), clab_v3(1, 0, 0), mat_wall, err) ||
        xp_add_plane(w, "wall_xp", clab_v3(h2, 0, 0), clab_v3(-1, 0, 0), mat_wall, err) ||
        xp_add_plane(w, "wall_ym", clab_v3(0, -h2, 0), clab_v3(0, 1, 0), mat_wall, err) ||
        xp_add_plane(w, "wall_yp", clab_v3(0, h2, 0), clab_v3(0, -1, 0), mat_wall, err))
        goto fail;

    double H = d->n * V / (d->phi0 * L * L), top = 0.0, mass = 0.0;
    /* loose: start with no contact at all; deposit: each sphere touches its support (Phi = 0) */
    const double gap = d->packing == XP_PILE_DEPOSIT ? 0.0 : 1e-3 * d->radius;
    double rlo = INFINITY, rhi = 0.0;
    /* deposit: columns of a grid of cells 2 rmax wide, each a linked list of its spheres */
    const int nc = d->packing == XP_PILE_DEPOSIT ? (int)fmax(1.0, floor(L / (2.0 * (rmax + gap)))) : 0;
    const double cell = nc ? L / nc : 1.0;
    if (nc) {
        head = malloc((size_t)nc * nc * sizeof *head);
        next = malloc((size_t)d->n * sizeof *next);
        if (!head || !next) {
            clab_error_set(err, CLAB_ENOMEM, "pile: out of memory for %d spheres", d->n);
            goto fail;
        }
        for (int k = 0; k < nc * nc; k++) head[k] = -1;
    }
    for (int i = 0; i < d->n; i++) {
        double r = d->radius * (1.0 + d->poly * (2.0 * gsl_rng_uniform(rng) - 1.0));
        double lo = -h2 + r + gap, span = L - 2.0 * (r + gap);
        double px = 0, py = 0, pz = 0;
        if (nc) { /* the lowest of XP_PILE_DROPS vertical drops */
            pz = INFINITY;
            for (int t = 0; t < XP_PILE_DROPS; t++) {
                double qx = lo + span * gsl_rng_uniform(rng), qy = lo + span * gsl_rng_uniform(rng), qz = r + gap;
                int cx = (int)floor((qx + h2) / cell), cy = (int)floor((qy + h2) / cell);
                for (int ix = cx - 1; ix <= cx + 1; ix++)
                    for (int iy = cy - 1; iy <= cy + 1; iy++) {
                        if (ix < 0 || iy < 0 || ix >= nc || iy >= nc) continue;
                        for (int j = head[ix * nc + iy]; j >= 0; j = next[j]) {
                            const double *q = &x[4 * j];
                            double dx = qx - q[0], dy = qy - q[1], dmin = r + q[3] + gap;
                            double s2 = dmin * dmin - dx * dx - dy * dy;
                            if (s2 > 0.0) qz = fmax(qz, q[2] + sqrt(s2)); /* touches j from above */
                        }
                    }
                if (qz < pz) px = qx, py = qy, pz = qz;
            }
            int cx = (int)fmin(nc - 1, floor((px + h2) / cell)), cy = (int)fmin(nc - 1, floor((py + h2) / cell));
            next[i] = head[cx * nc + cy];
            head[cx * nc + cy] = i;
        }
        /* loose: random sequential addition in a column of solid fraction phi0; a sphere that
         * finds no room after many draws raises the column top by one radius */
        for (int tries = 0; !nc; tries++) {
            if (tries > 0 && tries % 500 == 0) H += d->radius;
            px = lo + span * gsl_rng_uniform(rng);
            py = lo + span * gsl_rng_uniform(rng);
            pz = r + gap + fmax(H - 2.0 * (r + gap), 0.0) * gsl_rng_uniform(rng);
            int ok = 1;
            for (int j = 0; j < i && ok; j++) {
                const double *q = &x[4 * j];
                double dx = px - q[0], dy = py - q[1], dz = pz - q[2], dmin = r + q[3] + gap;
                if (dx * dx + dy * dy + dz * dz < dmin * dmin) ok = 0;
            }
            if (ok) break;
        }
        x[4 * i] = px, x[4 * i + 1] = py, x[4 * i + 2] = pz, x[4 * i + 3] = r;
        clab_body_def b = clab_default_body_def();
        snprintf(b.name, sizeof b.name, "sphere%d", i);
        b.shape = clab_sphere(r);
        b.density = d->density;
        b.material = mat_grain;
        b.r = clab_v3(px, py, pz);
        if (clab_world_add_body(w, &b, err) < 0) goto fail;
        mass += w->bodies[w->nbodies - 1].m;
        top = fmax(top, pz + r);
        rlo = fmin(rlo, r);
        rhi = fmax(rhi, r);
    }
    info->width = L;
    info->height = top;
    info->mass = mass;
    info->weight = mass * clab_v3_norm(w->gravity);
    info->rmin = rlo;
    info->rmax = rhi;
    free(head);
    free(next);
    free(x);
    gsl_rng_free(rng);
    return w;
fail:
    free(head);
    free(next);
    free(x);
    if (rng) gsl_rng_free(rng);
    clab_world_destroy(w);
    return NULL;
}

void xp_pile_meta(const xp_pile_def *d, const xp_pile_info *info, clab_options *m)
{
    char v[64];
#define PM(k, val) (snprintf(v, sizeof v, "%.17g", (double)(val)), clab_options_set(m, k, v, NULL))
    PM("n_spheres", d->n);
    PM("radius_m", d->radius);
    PM("polydispersity", d->poly);
    PM("radius_min_m", info->rmin);
    PM("radius_max_m", info->rmax);
    PM("density_kg_m3", d->density);
    PM("mu", d->mu);
    PM("mu_wall", d->mu_wall);
    PM("E_Pa", d->E);
    PM("nu", d->nu);
    PM("cor", d->cor);
    PM("box_width_m", info->width);
    PM("initial_column_top_m", info->height);
    PM("phi0", d->phi0);
    PM("total_mass_kg", info->mass);
    PM("total_weight_N", info->weight);
#undef PM
    snprintf(v, sizeof v, "%lu", d->seed);
    clab_options_set(m, "seed", v, NULL);
    clab_options_set(m, "rng", "gsl_rng_mt19937", NULL);
    clab_options_set(m, "packing",
                     d->packing == XP_PILE_DEPOSIT
                         ? "deposit (lowest of 256 vertical drops per sphere), at rest, floor z = 0, walls at +-width/2"
                         : "loose (random sequential addition at phi0), at rest, floor z = 0, walls at +-width/2",
                     NULL);
}

int xp_pile_measure(const clab_sim *s, const xp_pile_info *info, clab_vec3 **forces, size_t *cap, xp_pile_state *st)
{
    const clab_world *w = s->world;
    const clab_contacts *cs = &s->contacts;
    memset(st, 0, sizeof *st);
    if (cs->n > *cap) {
        size_t nc = 2 * cs->n;
        clab_vec3 *f = realloc(*forces, nc * sizeof *f);
        if (!f) return -1;
        *forces = f;
        *cap = nc;
    }
    if (cs->n) clab_sim_forces(s, *forces);
    size_t nsph = w->nbodies > XP_PILE_FIRST ? w->nbodies - XP_PILE_FIRST : 1;
    const double f_eps = XP_PILE_FEPS * info->weight / (double)nsph;
    for (size_t i = 0; i < cs->n; i++) {
        const clab_contact *c = &cs->c[i];
        clab_vec3 f = (*forces)[i];
        st->max_pen = fmax(st->max_pen, -c->phi);
        if (f.x > f_eps) st->active++;
        if (c->a < XP_PILE_FIRST) { /* a is the floor or a wall; the force on the sphere b */
            clab_vec3 tu, tw;
            clab_contact_frame(c, &tu, &tw);
            clab_vec3 F = clab_v3_add(clab_v3_add(clab_v3_scale(c->n, f.x), clab_v3_scale(tu, f.y)), clab_v3_scale(tw, f.z));
            st->support_z += F.z;
            if (c->a == 0) st->floor_fn += f.x;
        }
    }
    st->contacts = cs->n;
    for (size_t i = XP_PILE_FIRST; i < w->nbodies; i++) st->ke += clab_body_kinetic_energy(&w->bodies[i]);
    if (s->type->stats) {
        clab_solver_stats ss;
        memset(&ss, 0, sizeof ss);
        s->type->stats(s->self, &ss);
        st->iterations = ss.iterations;
        st->residual = ss.residual;
    }
    return 0;
}

double xp_pile_penalty_step(const clab_sim *s)
{
    double hs = s->type->stable_step ? s->type->stable_step(s->self, s->world) : 0.0;
    return xp_round125(hs > 0.0 ? 0.5 * hs : 1e-5);
}

clab_sim *xp_pile_sim(const xp_common *c, const xp_pile_def *d, const xp_method *m, double h, clab_world **w,
                      xp_pile_info *info)
{
    clab_error err;
    *w = xp_pile_build(d, info, &err);
    if (!*w) {
        fprintf(stderr, "contactlab %s: %s\n", c->name, err.msg);
        return NULL;
    }
    clab_options extra;
    clab_options_init(&extra);
    if (m->kind == XP_KIND_CCP) xp_pile_dvi_defaults(&extra);
    clab_sim *s = xp_sim(c, *w, m, h > 0.0 ? h : 1e-5, &extra);
    clab_options_free(&extra);
    if (!s) {
        clab_world_destroy(*w);
        *w = NULL;
        return NULL;
    }
    if (h <= 0.0) s->h = xp_pile_penalty_step(s);
    return s;
}

clab_sim *xp_pile_settle(const xp_common *c, clab_world *w, const xp_method *m, double h, double t_end,
                         const clab_options *extra, const char *label)
{
    clab_sim *s = xp_sim(c, w, m, h > 0.0 ? h : 1e-3, extra);
    if (!s) return NULL;
    if (h <= 0.0 && m->kind != XP_KIND_CCP) s->h = xp_pile_penalty_step(s);
    long n = (long)ceil(t_end / s->h - 1e-9);
    xp_progress pb;
    xp_progress_begin(&pb, c, label);
    clab_error err;
    for (long k = 0; k < n; k++) {
        if (clab_sim_step(s, &err)) {
            xp_progress_end(&pb);
            fprintf(stderr, "contactlab: %s: %s\n", label, err.msg);
            clab_sim_destroy(s);
            return NULL;
        }
        if (k % 64 == 0) xp_progress_update(&pb, (double)k / (double)n);
    }
    xp_progress_end(&pb);
    return s;
}
