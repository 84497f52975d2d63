/* test_measure.c: the sample measures of lib/measure.c (clab_measure.h, doc/measure.md).
 *
 * - clab_measure_sphere_in_box: 0 outside, 4/3 pi R^3 inside; a cap (pi h^2 (3R - h)/3); a
 *   slab |x| < a (pi (2 a R^2 - 2 a^3/3)); centered on an edge V/4, on a corner V/8; and a
 *   sphere every face cuts, split into 8 boxes at random planes: the parts add to the whole
 *   (1e-12 relative: the quadrature's error; each part is an edge-and-corner case).
 * - solid fraction of lattices in a box whose faces pass through sphere centers (the cut
 *   volumes count): simple cubic pi/6, FCC pi/(3 sqrt 2), to 1e-10 relative.
 * - coordination numbers on a hand-built contact list (a tetrahedron on a floor, a particle
 *   touching it once, one touching nothing, one contact with F_n = 0): Z, Z_m and the rattlers
 *   counted by hand for rattler_min 2 (Thornton) and 4 (d + 1: the cascade removes all).
 * - the stress of one pair contact: sigma_ij = f_i l_j / V exactly (normal and tangential).
 * - a column of 5 touching spheres on a floor (periodic x, y) and a random layer of 45 spheres
 *   settled on it under gravity, penalty and DVI: sigma_zz equals the hydrostatic average
 *   (1/H) int_0^H (weight above z)/A dz = g sum_p m_p z_p / (A H) within 2% (for the column
 *   also W/(2A) H_col/H), the lateral and shear components of the column are 0 (1e-9 p), and
 *   the settled layer's sigma is symmetric to 2e-5 p (torque balance of every particle: the
 *   residual motion after 1 s of settling sets it; penalty reaches 1e-9 p, DVI at tol 1e-9
 *   4e-6 p). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "clab_measure.h"
#include "clab_sim.h"
#include "add_body.h"
#include "tap.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static clab_measure_box mkbox(double x0, double x1, double y0, double y1, double z0, double z1)
{
    clab_measure_box b = {{x0, y0, z0}, {x1, y1, z1}};
    return b;
}

static void test_sphere_volume(void)
{
    const double R = 0.3, V = 4.0 / 3.0 * M_PI * R * R * R;
    clab_vec3 c = clab_v3(1.0, 2.0, 3.0);
    clab_measure_box b = mkbox(0, 2, 1, 3, 2, 4);
    tap_rel(clab_measure_sphere_in_box(c, R, &b), V, 1e-15, "sphere inside the box: 4/3 pi R^3");
    b = mkbox(5, 6, 1, 3, 2, 4);
    tap_ok(clab_measure_sphere_in_box(c, R, &b) == 0.0, "sphere outside the box: 0");
    b = mkbox(1.1, 2, 1, 3, 2, 4); /* the face x = 1.1 leaves the part x > 1.1: a cap of h = R - 0.1 */
    double h = R - 0.1;
    tap_rel(clab_measure_sphere_in_box(c, R, &b), M_PI * h * h * (3 * R - h) / 3.0, 1e-12, "cap by a face: pi h^2 (3R - h)/3");
    b = mkbox(0, 2, 1, 3, 2.9, 3.1); /* slab |z - 3| < 0.1 */
    const double a = 0.1;
    tap_rel(clab_measure_sphere_in_box(c, R, &b), M_PI * (2 * a * R * R - 2 * a * a * a / 3.0), 1e-12,
            "slab |z| < a: pi (2 a R^2 - 2 a^3/3)");
    b = mkbox(1, 2, 2, 3, 0, 9); /* center on the edge x = 1, y = 2 */
    tap_rel(clab_measure_sphere_in_box(c, R, &b), V / 4.0, 1e-12, "center on an edge: V/4");
    b = mkbox(1, 2, 2, 3, 3, 9);
    tap_rel(clab_measure_sphere_in_box(c, R, &b), V / 8.0, 1e-12, "center on a corner: V/8");
    b = mkbox(-INFINITY, INFINITY, -INFINITY, INFINITY, 3, INFINITY);
    tap_rel(clab_measure_sphere_in_box(c, R, &b), V / 2.0, 1e-15, "infinite axes cut nothing: V/2 by z");
    /* eight boxes split at random planes through the sphere: the parts add to V */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    double worst = 0.0;
    for (int trial = 0; trial < 20; trial++) {
        double m[3], sum = 0.0;
        for (int k = 0; k < 3; k++) m[k] = (k == 0 ? c.x : k == 1 ? c.y : c.z) + (2 * gsl_rng_uniform(r) - 1) * 0.8 * R;
        for (int o = 0; o < 8; o++) {
            clab_measure_box q;
            for (int k = 0; k < 3; k++) {
                int up = (o >> k) & 1;
                q.lo[k] = up ? m[k] : -10.0;
                q.hi[k] = up ? 10.0 : m[k];
            }
            sum += clab_measure_sphere_in_box(c, R, &q);
        }
        worst = fmax(worst, fabs(sum - V) / V);
    }
    gsl_rng_free(r);
    tap_ok(worst <= 1e-12, "8 parts of a sphere cut at random planes add to 4/3 pi R^3 (20 splits): worst rel err %.3g <= 1e-12",
           worst);
}

/* a lattice of spheres at the sites (i, j, k) a + basis, in [0, n a]^3 faces through the
 * corner sites: n^3 cells' worth of sphere volume inside the box */
static void lattice(const char *what, const double (*basis)[3], int nb, double R, double want)
{
    const int n = 3;
    const double a = 1.0;
    clab_world *w = clab_world_create(NULL);
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= n; j++)
            for (int k = 0; k <= n; k++)
                for (int s = 0; s < nb; s++) {
                    clab_vec3 r = clab_v3((i + basis[s][0]) * a, (j + basis[s][1]) * a, (k + basis[s][2]) * a);
                    if (r.x > n * a + 1e-12 || r.y > n * a + 1e-12 || r.z > n * a + 1e-12) continue;
                    add(w, clab_sphere(R), r, clab_q_identity(), 0);
                }
    clab_measure_box b = mkbox(0, n * a, 0, n * a, 0, n * a);
    clab_measure_opts o = clab_measure_default_opts();
    o.box = &b;
    clab_contacts c;
    clab_contacts_init(&c);
    clab_measure m;
    clab_error err;
    int rc = clab_measure_contacts(w, &c, NULL, &o, &m, &err);
    tap_ok(rc == CLAB_OK, "%s: measured (%s)", what, rc ? err.msg : "ok");
    tap_rel(m.solid_fraction, want, 1e-10, what);
    tap_rel(m.void_ratio, (1 - want) / want, 1e-10, "  its void ratio (1 - phi)/phi");
    clab_contacts_free(&c);
    clab_world_destroy(w);
}

static void test_lattices(void)
{
    static const double sc[1][3] = {{0, 0, 0}};
    static const double fcc[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
    lattice("simple cubic, faces through centers: phi = pi/6", sc, 1, 0.5, M_PI / 6.0);
    lattice("FCC, faces through centers: phi = pi/(3 sqrt 2)", fcc, 4, sqrt(2.0) / 4.0, M_PI / (3.0 * sqrt(2.0)));
}

static void push(clab_contacts *c, int a, int b, clab_vec3 n, double phi)
{
    clab_contact k;
    memset(&k, 0, sizeof k);
    k.a = a, k.b = b, k.n = n, k.phi = phi;
    k.key = clab_contact_key(a, b, 0);
    clab_lever lv = {clab_v3(0, 0, 0), clab_v3(0, 0, 0)};
    clab_contacts_push(c, &k, a == 0 ? &lv : NULL); /* body 0 is the floor (a plane: stored levers) */
}

static void test_coordination(void)
{
    clab_world *w = clab_world_create(NULL);
    add(w, clab_plane(), clab_v3(0, 0, 0), clab_q_identity(), 1); /* 0: the floor */
    for (int i = 0; i < 6; i++) add(w, clab_sphere(0.5), clab_v3(2.0 * i, 0, 0.5), clab_q_identity(), 0); /* 1..6 */
    add(w, clab_sphere(0.5), clab_v3(20, 0, 0.5), clab_q_identity(), 0); /* 7: F_n = 0 with 1 */
    clab_contacts c;
    clab_contacts_init(&c);
    clab_vec3 f[16], ez = clab_v3(0, 0, 1);
    int nf = 0;
    /* the tetrahedron 1-2-3-4, the floor under 1, 2, 3; 5 touches 1; 6 touches nothing; 7
     * touches 1 inside the envelope with no force */
    push(&c, 0, 1, ez, 0), push(&c, 0, 2, ez, 0), push(&c, 0, 3, ez, 0);
    push(&c, 1, 2, ez, 0), push(&c, 1, 3, ez, 0), push(&c, 1, 4, ez, 0);
    push(&c, 1, 5, ez, 0), push(&c, 1, 7, ez, 1e-3);
    push(&c, 2, 3, ez, 0), push(&c, 2, 4, ez, 0), push(&c, 3, 4, ez, 0);
    for (size_t i = 0; i < c.n; i++) f[nf++] = clab_v3(c.c[i].b == 7 ? 0.0 : 1.0, 0, 0);
    clab_measure_opts o = clab_measure_default_opts();
    o.volume = 1.0;
    clab_measure m;
    clab_error err;
    clab_measure_contacts(w, &c, f, &o, &m, &err);
    /* pp: 6 in the tetrahedron + 1-5 = 7; pb: 3; particles 1..7 */
    tap_ok(m.particles == 7 && m.contacts_pp == 7 && m.contacts_pb == 3,
           "hand-built: 7 particles, 7 particle contacts, 3 wall contacts (got %zu, %zu, %zu; F_n = 0 not counted)",
           m.particles, m.contacts_pp, m.contacts_pb);
    tap_close(m.Z, (2.0 * 7 + 3) / 7.0, 1e-15, "Z = (2 N_pp + N_pb)/N_p = 17/7");
    /* rattler_min 2: 5 (1 contact), 6 and 7 (0) go; then 1 has 3 + floor = 4; Z_m over 1..4:
     * 4, 4, 4, 3 */
    tap_ok(m.rattlers == 3, "rattler_min 2: 3 rattlers (got %zu)", m.rattlers);
    tap_close(m.Z_m, 15.0 / 4.0, 1e-15, "rattler_min 2: Z_m = 15/4");
    o.rattler_min = 4; /* 4 has 3: goes; then 1, 2, 3 have 3: go: nothing left */
    clab_measure_contacts(w, &c, f, &o, &m, &err);
    tap_ok(m.rattlers == 7 && m.Z_m == 0.0, "rattler_min 4: the cascade removes all 7 (got %zu), Z_m = 0 (got %g)",
           m.rattlers, m.Z_m);
    o.f_min = 2.0; /* no contact carries more than 1 N */
    clab_measure_contacts(w, &c, f, &o, &m, &err);
    tap_ok(m.contacts_pp == 0 && m.Z == 0.0, "f_min above every force: no contact counts (got %zu, Z %g)", m.contacts_pp,
           m.Z);
    clab_contacts_free(&c);
    clab_world_destroy(w);
}

static void test_pair_stress(void)
{
    clab_world *w = clab_world_create(NULL);
    add(w, clab_sphere(0.5), clab_v3(0, 0, 0), clab_q_identity(), 0);
    add(w, clab_sphere(0.5), clab_v3(1, 0, 0), clab_q_identity(), 0);
    clab_contacts c;
    clab_contacts_init(&c);
    push(&c, 0, 1, clab_v3(1, 0, 0), 0);
    clab_vec3 u, v;
    clab_contact_frame(&c.c[0], &u, &v);
    clab_vec3 f = clab_v3(3.0, 2.0, 0.0); /* F_n = 3, F_u = 2 */
    clab_measure_opts o = clab_measure_default_opts();
    o.volume = 2.0;
    clab_measure m;
    clab_error err;
    clab_measure_contacts(w, &c, &f, &o, &m, &err);
    /* f = 3 e_x + 2 u, l = e_x: sigma_ij = f_i l_j / V */
    clab_vec3 F = clab_v3_add(clab_v3(3, 0, 0), clab_v3_scale(u, 2.0));
    double want[3] = {F.x / 2.0, F.y / 2.0, F.z / 2.0}, err_max = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) err_max = fmax(err_max, fabs(m.sigma[i][j] - (j == 0 ? want[i] : 0.0)));
    tap_ok(err_max <= 1e-15, "one pair: sigma_ij = f_i l_j / V (f on b, l = x_b - x_a): max err %.3g", err_max);
    tap_close(m.p, 0.5, 1e-15, "one pair: p = tr/3 = F_n l/(3V)");
    clab_contacts_free(&c);
    clab_world_destroy(w);
}

/* ---- resting samples under gravity ---- */

#define RHO 2500.0
#define L_CELL 0.03

static clab_world *floor_world(void)
{
    clab_world *w = clab_world_create(NULL);
    clab_error err;
    clab_world_set_periodic(w, 0, 0.0, L_CELL, &err);
    clab_world_set_periodic(w, 1, 0.0, L_CELL, &err);
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    clab_world_add_body(w, &d, &err);
    return w;
}

static void add_ball(clab_world *w, double R, clab_vec3 r)
{
    clab_error err;
    clab_body_def d = clab_default_body_def();
    d.shape = clab_sphere(R);
    d.density = RHO;
    d.r = r;
    if (clab_world_add_body(w, &d, &err) < 0) {
        tap_diag("add: %s", err.msg);
        exit(99);
    }
}

/* settle w under backend for t seconds, then check the measures against the hydrostatic
 * average over the box [0, L]^2 x [0, H] */
static void settle_and_check(clab_world *w, const char *backend, double t, double H, const char *what, int column)
{
    clab_error err;
    clab_options opt;
    clab_options_init(&opt);
    int dvi = strcmp(backend, "dvi") == 0;
    if (dvi) {
        clab_options_set(&opt, "tol", "1e-9", NULL);
        clab_options_set(&opt, "max_iter", "5000", NULL);
    }
    const double h = dvi ? 1e-3 : 1e-5;
    clab_sim *s = clab_sim_create(w, backend, h, &opt, &err);
    clab_options_free(&opt);
    if (!s) {
        tap_ok(0, "%s %s: sim: %s", what, backend, err.msg);
        return;
    }
    if (s->type->stable_step) tap_diag("%s %s: stable step %.3g s, h %.3g s", what, backend, s->type->stable_step(s->self, w), h);
    long n = (long)(t / h + 0.5);
    for (long k = 0; k < n; k++)
        if (clab_sim_step(s, &err)) {
            tap_ok(0, "%s %s: step %ld: %s", what, backend, k, err.msg);
            clab_sim_destroy(s);
            return;
        }
    clab_measure_box b = mkbox(0, L_CELL, 0, L_CELL, 0, H);
    clab_measure_opts o = clab_measure_default_opts();
    o.box = &b;
    clab_measure m;
    if (clab_measure_sim(s, &o, &m, &err)) {
        tap_ok(0, "%s %s: measure: %s", what, backend, err.msg);
        clab_sim_destroy(s);
        return;
    }
    double mz = 0.0, W = 0.0;
    for (size_t i = 0; i < w->nbodies; i++)
        if (!w->bodies[i].fixed) mz += w->bodies[i].m * w->bodies[i].r.z, W += w->bodies[i].m * 9.81;
    const double A = L_CELL * L_CELL, hydro = 9.81 * mz / (A * H);
    tap_diag("%s %s: K = %.3g J, sigma_zz %.6g Pa, hydrostatic %.6g Pa, p %.6g Pa, q %.6g Pa, Z %.3f, Z_m %.3f, phi %.4f",
             what, backend, clab_world_kinetic_energy(w), m.sigma[2][2], hydro, m.p, m.q, m.Z, m.Z_m, m.solid_fraction);
    char msg[200];
    snprintf(msg, sizeof msg, "%s, %s: sigma_zz = g sum m_p z_p/(A H) (hydrostatic average)", what, backend);
    tap_rel(m.sigma[2][2], hydro, 0.02, msg);
    if (column) {
        const double Hc = 2.0 * 0.005 * 5; /* the column's height */
        snprintf(msg, sizeof msg, "%s, %s: sigma_zz = W/(2A) Hc/H (weight over area, halved by the height mean)", what,
                 backend);
        tap_rel(m.sigma[2][2], W / (2.0 * A) * Hc / H, 0.02, msg);
        double off = 0.0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                if (i != 2 || j != 2) off = fmax(off, fabs(m.sigma[i][j]));
        tap_ok(off <= 1e-9 * m.p, "%s, %s: every other component 0: max %.3g Pa <= 1e-9 p", what, backend, off);
    } else {
        double asym = 0.0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) asym = fmax(asym, fabs(m.sigma[i][j] - m.sigma[j][i]));
        tap_ok(asym <= 2e-5 * m.p, "%s, %s: sigma symmetric at rest: max |s_ij - s_ji| %.3g Pa <= 2e-5 p = %.3g Pa",
               what, backend, asym, 2e-5 * m.p);
    }
    clab_sim_destroy(s);
}

static void test_column(const char *backend)
{
    clab_world *w = floor_world();
    const double R = 0.005;
    for (int i = 0; i < 5; i++) add_ball(w, R, clab_v3(0.015, 0.015, R + 2 * R * i));
    settle_and_check(w, backend, 0.2, 2 * R * 5, "column of 5", 1);
    clab_world_destroy(w);
}

static void test_layer(const char *backend)
{
    clab_world *w = floor_world();
    w->materials[0].cor = 0.1; /* settles sooner */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 5);
    const double s = L_CELL / 3.0; /* 3 x 3 sites a level, 5 levels: no overlap at the start */
    for (int k = 0; k < 45; k++) {
        int i = k % 3, j = (k / 3) % 3, l = k / 9;
        double R = 0.0035 + 0.0005 * gsl_rng_uniform(r);
        add_ball(w, R, clab_v3((i + 0.5) * s + 1e-3 * gsl_rng_uniform(r), (j + 0.5) * s + 1e-3 * gsl_rng_uniform(r),
                               0.005 + l * 0.0095 + 1e-3 * gsl_rng_uniform(r)));
    }
    gsl_rng_free(r);
    settle_and_check(w, backend, 1.0, 0.03, "settled layer of 45", 0);
    clab_world_destroy(w);
}

int main(void)
{
    test_sphere_volume();
    test_lattices();
    test_coordination();
    test_pair_stress();
    test_column("penalty");
    test_column("dvi");
    test_layer("penalty");
    test_layer("dvi");
    return tap_done();
}
