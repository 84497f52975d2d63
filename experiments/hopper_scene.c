/* hopper_scene.c: the hopper's container, floor mesh with its orifice, and fill (hopper.h). */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clab_measure.h"
#include "clab_mesh.h"
#include "hopper.h"
#include "pile_scene.h"

/* a polygon of HP_NSEG sides with the area of the circle of radius r has circumradius
 * r sqrt(2 pi / (M sin(2 pi / M))) (M triangles of area r_p^2 sin(2 pi/M)/2) */
static double ring_radius(double r)
{
    const double M = HP_NSEG;
    return r * sqrt(2.0 * M_PI / (M * sin(2.0 * M_PI / M)));
}

/* vertex k of the ring of radius r (polygon of the circle's area) at height z: one expression,
 * so that rings computed twice (the floor's outer ring, the cone's lowest) weld bit for bit */
static void ring_point(double r, int k, double z, double p[3])
{
    const double th = 2.0 * M_PI * (double)(k % HP_NSEG) / HP_NSEG, rp = ring_radius(r);
    p[0] = rp * cos(th);
    p[1] = rp * sin(th);
    p[2] = z;
}

/* vertex k of the square of half-width a, on the ray at the angle of ring vertex k (every
 * eighth one a corner, HP_NSEG being a multiple of 8) */
static void square_point(double a, int k, double p[3])
{
    const double th = 2.0 * M_PI * (double)(k % HP_NSEG) / HP_NSEG, c = cos(th), s = sin(th);
    const double m = fmax(fabs(c), fabs(s));
    p[0] = a * c / m;
    p[1] = a * s / m;
    for (int i = 0; i < 2; i++) /* the side the ray ends on, exactly (and the corners) */
        if (fabs(p[i]) > a * (1.0 - 1e-9)) p[i] = p[i] > 0.0 ? a : -a;
    p[2] = 0.0;
}

typedef struct tri_list {
    double *xyz;
    size_t n, cap;
} tri_list;

static int tri_add(tri_list *t, const double *a, const double *b, const double *c)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 256;
        double *x = realloc(t->xyz, 9 * cap * sizeof *x);
        if (!x) return -1;
        t->xyz = x;
        t->cap = cap;
    }
    memcpy(t->xyz + 9 * t->n, a, 3 * sizeof *a);
    memcpy(t->xyz + 9 * t->n + 3, b, 3 * sizeof *b);
    memcpy(t->xyz + 9 * t->n + 6, c, 3 * sizeof *c);
    t->n++;
    return 0;
}

/* the quad (a0 a1 b1 b0) as two triangles */
static int quad_add(tri_list *t, const double *a0, const double *a1, const double *b1, const double *b0)
{
    return tri_add(t, a0, b0, b1) || tri_add(t, a0, b1, a1) ? -1 : 0;
}

int hp_mesh(const hp_def *d, double D_o, int closed, double height, double **xyz, size_t *ntri, clab_error *err)
{
    tri_list t = {NULL, 0, 0};
    const double ro = 0.5 * D_o, outer = d->geometry == HP_CONE ? 0.5 * d->bottom : 0.5 * d->width;
    if (!(D_o > 0.0) || (d->geometry == HP_CONE ? ro > outer * (1.0 + 1e-12) : ring_radius(ro) > 0.95 * outer)) {
        clab_error_set(err, CLAB_EINVAL, "hopper: orifice D_o = %g m does not fit the %s (%s %g m)", D_o,
                       d->geometry == HP_CONE ? "cone's outlet" : "box's floor",
                       d->geometry == HP_CONE ? "lower diameter" : "width", 2.0 * outer);
        return -1;
    }
    const int annulus = d->geometry == HP_FLAT || ro < outer * (1.0 - 1e-9);
    int bad = 0;
    double c[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < HP_NSEG && !bad; k++) {
        double i0[3], i1[3], o0[3], o1[3];
        ring_point(annulus ? ro : outer, k, 0.0, i0);
        ring_point(annulus ? ro : outer, k + 1, 0.0, i1);
        if (annulus) {
            if (d->geometry == HP_FLAT) square_point(0.5 * d->width, k, o0), square_point(0.5 * d->width, k + 1, o1);
            else ring_point(outer, k, 0.0, o0), ring_point(outer, k + 1, 0.0, o1);
            bad |= quad_add(&t, i0, i1, o1, o0);
        }
        if (closed) bad |= tri_add(&t, c, i0, i1); /* the fan over the orifice */
    }
    if (d->geometry == HP_CONE) { /* the frustum, in rings about 2 d high */
        const int J = (int)ceil(height / (4.0 * d->radius));
        const double ta = tan(d->half_angle);
        for (int j = 0; j < J && !bad; j++) {
            const double z0 = height * j / J, z1 = height * (j + 1) / J;
            for (int k = 0; k < HP_NSEG && !bad; k++) {
                double a0[3], a1[3], b0[3], b1[3];
                ring_point(outer + z0 * ta, k, z0, a0);
                ring_point(outer + z0 * ta, k + 1, z0, a1);
                ring_point(outer + z1 * ta, k, z1, b0);
                ring_point(outer + z1 * ta, k + 1, z1, b1);
                bad |= quad_add(&t, a0, a1, b1, b0);
            }
        }
    }
    if (bad) {
        free(t.xyz);
        clab_error_set(err, CLAB_ENOMEM, "hopper: out of memory for the mesh");
        return -1;
    }
    *xyz = t.xyz;
    *ntri = t.n;
    return 0;
}

/* the radius of the container's cross-section at height z, less the margin m (flat: the half
 * width): a site of radius m at (x, y, z) fits when |x|, |y| (flat) or |(x, y)| (cone) is
 * below it */
static double inner_at(const hp_def *d, double z, double m)
{
    if (d->geometry == HP_FLAT) return 0.5 * d->width - m;
    /* the polygon's apothem, r_p cos(pi/M), at the site's lowest point */
    return ring_radius(0.5 * d->bottom + fmax(z - m, 0.0) * tan(d->half_angle)) * cos(M_PI / HP_NSEG) - m;
}

/* the loose fill: a cubic lattice of spacing s = 1.2 d_max (solid fraction about 0.3), layer by
 * layer from the floor up, the sites of each layer in a random order, every sphere jittered
 * within its site (so none overlaps a neighbour or a wall). Returns the top of the fill [m]. */
static int add_fill(const hp_def *d, clab_world *w, int material, double *top, clab_error *err)
{
    const double Rmax = d->radius * (1.0 + d->poly), s = 2.4 * Rmax, jit = 0.5 * s - Rmax;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    size_t *site = NULL, cap = 0;
    if (!rng) return clab_error_set(err, CLAB_ENOMEM, "hopper: out of memory for the fill");
    gsl_rng_set(rng, d->seed);
    int placed = 0, rc = CLAB_OK;
    for (int layer = 0; placed < d->n && rc == CLAB_OK; layer++) {
        const double z = 0.5 * s + layer * s, lim = inner_at(d, z, 0.5 * s);
        const int m = lim > 0.0 ? (int)floor(lim / s) : -1;
        const size_t need = m >= 0 ? (size_t)(2 * m + 1) * (size_t)(2 * m + 1) : 1;
        if (need > cap) {
            size_t *ns2 = realloc(site, need * sizeof *site);
            if (!ns2) {
                rc = clab_error_set(err, CLAB_ENOMEM, "hopper: out of memory for the fill");
                break;
            }
            site = ns2, cap = need;
        }
        size_t ns = 0;
        for (int i = -m; i <= m && m >= 0; i++)
            for (int j = -m; j <= m; j++) {
                double x = i * s, y = j * s;
                if (d->geometry == HP_CONE ? hypot(x, y) <= lim : 1) site[ns++] = (size_t)(i + m) * (2 * m + 1) + (j + m);
            }
        if (ns == 0 && layer > 2) {
            rc = clab_error_set(err, CLAB_EINVAL, "hopper: the container holds no lattice site at height %g m", z);
            break;
        }
        for (size_t i = ns; i > 1; i--) { /* Fisher-Yates */
            size_t j = (size_t)gsl_rng_uniform_int(rng, i), tmp = site[i - 1];
            site[i - 1] = site[j], site[j] = tmp;
        }
        for (size_t q = 0; q < ns && placed < d->n; q++) {
            clab_body_def b = clab_default_body_def();
            const double R = d->radius * (1.0 + d->poly * (2.0 * gsl_rng_uniform(rng) - 1.0));
            const int i = (int)(site[q] / (size_t)(2 * m + 1)) - m, j = (int)(site[q] % (size_t)(2 * m + 1)) - m;
            b.shape = clab_sphere(R);
            b.density = d->density;
            b.material = material;
            b.r = clab_v3(i * s + jit * (2.0 * gsl_rng_uniform(rng) - 1.0),
                          j * s + jit * (2.0 * gsl_rng_uniform(rng) - 1.0),
                          z + jit * (2.0 * gsl_rng_uniform(rng) - 1.0));
            snprintf(b.name, sizeof b.name, "s%d", placed);
            if (clab_world_add_body(w, &b, err) < 0) {
                rc = CLAB_EINVAL;
                break;
            }
            placed++;
            *top = z + 0.5 * s;
        }
    }
    gsl_rng_free(rng);
    free(site);
    return rc;
}

clab_world *hp_build(const hp_def *d, double D_o, int floor, const clab_world *from, size_t from_first, hp_info *info,
                     clab_error *err)
{
    if (d->n < 1 || !(d->radius > 0.0) || !(d->poly >= 0.0 && d->poly < 0.5) || !(d->density > 0.0) ||
        (d->geometry == HP_FLAT && !(d->width > 8.0 * d->radius)) ||
        (d->geometry == HP_CONE && (!(d->bottom > 2.0 * d->radius) || !(d->half_angle >= 0.0 && d->half_angle < 1.4)))) {
        clab_error_set(err, CLAB_EINVAL, "hopper: need n >= 1, radius > 0, 0 <= poly < 0.5, density > 0, a box wider "
                                         "than 4 d, a cone outlet wider than d and half-angle in [0, 80] deg");
        return NULL;
    }
    clab_world *w = clab_world_create(NULL);
    if (!w) {
        clab_error_set(err, CLAB_ENOMEM, "hopper: out of memory");
        return NULL;
    }
    clab_material m = clab_default_material();
    snprintf(m.name, sizeof m.name, "grain");
    m.mu = d->mu, m.E = d->E, m.nu = d->nu, m.cor = d->cor;
    const int mat_grain = clab_world_add_material(w, &m, err);
    snprintf(m.name, sizeof m.name, "wall");
    m.mu = d->mu_wall;
    const int mat_wall = mat_grain < 0 ? -1 : clab_world_add_material(w, &m, err);
    if (mat_wall < 0) goto fail;
    /* the walls' height: the loose fill's top (a fill of its own, measured) plus 2 d */
    double top = 0.0, *xyz = NULL;
    size_t ntri = 0;
    if (from) {
        for (size_t i = from_first; i < from->nbodies; i++) top = fmax(top, from->bodies[i].r.z + 4.0 * d->radius);
    } else {
        clab_world *probe = clab_world_create(NULL);
        int p = !probe || clab_world_add_material(probe, &m, err) < 0 || add_fill(d, probe, 0, &top, err);
        clab_world_destroy(probe);
        if (p) goto fail;
    }
    const double height = top + 4.0 * d->radius;
    if (d->geometry == HP_FLAT) {
        const double a = 0.5 * d->width;
        if (xp_add_plane(w, "wall_xm", clab_v3(-a, 0, 0), clab_v3(1, 0, 0), mat_wall, err) ||
            xp_add_plane(w, "wall_xp", clab_v3(a, 0, 0), clab_v3(-1, 0, 0), mat_wall, err) ||
            xp_add_plane(w, "wall_ym", clab_v3(0, -a, 0), clab_v3(0, 1, 0), mat_wall, err) ||
            xp_add_plane(w, "wall_yp", clab_v3(0, a, 0), clab_v3(0, -1, 0), mat_wall, err))
            goto fail;
    }
    if (floor == HP_GATE && xp_add_plane(w, "gate", clab_v3(0, 0, 0), clab_v3(0, 0, 1), mat_wall, err)) goto fail;
    if (floor != HP_GATE || d->geometry == HP_CONE) {
        /* the gate's build of a cone has the walls only: the orifice as wide as the outlet */
        const double Dm = floor == HP_GATE ? d->bottom : D_o;
        if (hp_mesh(d, Dm, floor == HP_CLOSED, height, &xyz, &ntri, err)) goto fail;
        if (ntri > 0) {
            clab_mesh_def md = clab_default_mesh_def();
            snprintf(md.name, sizeof md.name, "hopper");
            md.xyz = xyz;
            md.ntri = ntri;
            md.material = mat_wall;
            int r = clab_world_add_mesh(w, &md, err);
            if (r < 0) {
                free(xyz);
                goto fail;
            }
        }
        free(xyz);
    }
    info->first = w->nbodies;
    info->height = height;
    if (from) {
        for (size_t i = from_first; i < from->nbodies; i++) {
            const clab_body *s = &from->bodies[i];
            clab_body_def b = clab_default_body_def();
            snprintf(b.name, sizeof b.name, "%s", clab_world_body_name(from, i));
            b.shape = s->shape;
            b.mass = s->m;
            b.r = s->r;
            b.e = s->e;
            b.rdot = s->rdot;
            b.omega = clab_body_omega_world(s);
            b.material = mat_grain;
            if (clab_world_add_body(w, &b, err) < 0) goto fail;
        }
    } else if (add_fill(d, w, mat_grain, &top, err)) {
        goto fail;
    }
    info->mass = 0.0;
    info->d_mean = 0.0;
    for (size_t i = info->first; i < w->nbodies; i++) {
        info->mass += w->bodies[i].m;
        info->d_mean += 2.0 * w->bodies[i].shape.radius;
    }
    info->d_mean /= (double)(w->nbodies - info->first);
    return w;
fail:
    clab_world_destroy(w);
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double hp_bulk_density(const hp_def *d, const clab_world *w, size_t first, double *phi)
{
    const size_t n = w->nbodies - first;
    double *z = malloc(n * sizeof *z), dm = 0.0;
    if (!z || n == 0) {
        free(z);
        *phi = NAN;
        return NAN;
    }
    for (size_t i = 0; i < n; i++) z[i] = w->bodies[first + i].r.z, dm += 2.0 * w->bodies[first + i].shape.radius / n;
    qsort(z, n, sizeof *z, cmp_double);
    const double top = z[(size_t)(0.95 * (double)(n - 1))];
    free(z);
    const double a = d->geometry == HP_CONE ? ring_radius(0.5 * d->bottom) * cos(M_PI / HP_NSEG) / sqrt(2.0)
                                            : 0.5 * d->width;
    clab_measure_box box = {{-a, -a, dm}, {a, a, fmax(top - 2.0 * dm, 2.0 * dm)}};
    double V = 4.0 * a * a * (box.hi[2] - box.lo[2]), solid = 0.0;
    for (size_t i = first; i < w->nbodies; i++)
        solid += clab_measure_sphere_in_box(w->bodies[i].r, w->bodies[i].shape.radius, &box);
    *phi = solid / V;
    return *phi * d->density;
}
