/* test_collide.c: the narrow phase (lib/collide*.c) against hand-computed cases.
 *
 * Every expected value below is worked out by hand from the geometry (stated beside each
 * case); the tolerance 1e-12 m (TOL) allows only round-off, since the cases are exact up to
 * the rotations' round-off. Every record is also checked for the invariants of seed 000,
 * Sect. 2: a < b, (n, u, w) orthonormal and right-handed with n from a to b, the body-frame
 * points sa, sb mapping back to P, and key = clab_contact_key(a, b, feature). */
#include <stdio.h>
#include <stdlib.h>

#include "clab_collide.h"
#include "collide_internal.h"
#include "tap.h"

#define TOL 1e-12

static int add(clab_world *w, clab_shape s, clab_vec3 r, clab_quat e, int fixed)
{
    clab_error err;
    clab_body_def d = clab_default_body_def();
    d.shape = s;
    d.r = r;
    d.e = e;
    d.fixed = fixed;
    int k = clab_world_add_body(w, &d, &err);
    if (k < 0) {
        tap_diag("add_body: %s", err.msg);
        exit(99);
    }
    return k;
}

/* contacts of the pair (0, 1) */
static void pair(const clab_world *w, double env, clab_contacts *cs)
{
    clab_contacts_clear(cs);
    if (clab_collide_pair(w, 0, 1, env, cs)) {
        tap_diag("clab_collide_pair failed");
        exit(99);
    }
}

/* the record invariants: worst deviation over all of cs */
static void check_records(const clab_world *w, const clab_contacts *cs, const char *what)
{
    double dev = 0.0;
    int order = 1;
    for (size_t k = 0; k < cs->n; k++) {
        const clab_contact *c = &cs->c[k];
        double e[] = {clab_v3_norm(c->n) - 1.0, clab_v3_norm(c->u) - 1.0, clab_v3_norm(c->w) - 1.0,
                      clab_v3_dot(c->n, c->u), clab_v3_dot(c->n, c->w), clab_v3_dot(c->u, c->w),
                      clab_v3_norm(clab_v3_sub(clab_v3_cross(c->n, c->u), c->w)),
                      clab_v3_norm(clab_v3_sub(clab_body_point(&w->bodies[c->a], c->sa), c->p)),
                      clab_v3_norm(clab_v3_sub(clab_body_point(&w->bodies[c->b], c->sb), c->p))};
        for (size_t i = 0; i < sizeof e / sizeof e[0]; i++)
            if (fabs(e[i]) > dev) dev = fabs(e[i]);
        order &= c->a < c->b && c->key == clab_contact_key(c->a, c->b, (unsigned)(c->key & 0xfffu));
        if (k > 0) order &= c->key > cs->c[k - 1].key; /* sorted by feature, keys distinct */
    }
    tap_ok(dev <= TOL && order,
           "%s: %zu records: a < b, keys sorted and distinct, frame orthonormal right-handed, sa/sb give P "
           "(worst deviation %.3g <= %.3g)",
           what, cs->n, dev, TOL);
}

/* index of the record whose P is within TOL of p, -1 when none */
static int find_point(const clab_contacts *cs, clab_vec3 p)
{
    for (size_t k = 0; k < cs->n; k++)
        if (clab_v3_norm(clab_v3_sub(cs->c[k].p, p)) <= TOL) return (int)k;
    return -1;
}

/* all records: gap phi and normal n; and the set of points P equals pts[0..npts) */
static void check_contacts(const clab_contacts *cs, size_t npts, const clab_vec3 *pts, double phi, clab_vec3 n,
                           const char *what)
{
    double dphi = 0.0, dn = 0.0;
    int found = 1;
    for (size_t k = 0; k < cs->n; k++) {
        dphi = fmax(dphi, fabs(cs->c[k].phi - phi));
        dn = fmax(dn, clab_v3_norm(clab_v3_sub(cs->c[k].n, n)));
    }
    for (size_t k = 0; k < npts; k++) found &= find_point(cs, pts[k]) >= 0;
    tap_ok(cs->n == npts, "%s: %zu contacts, want %zu", what, cs->n, npts);
    tap_ok(cs->n > 0 && dphi <= TOL && dn <= TOL,
           "%s: Phi = %.6g (|diff| %.3g), n = (%.6g, %.6g, %.6g) (|diff| %.3g), want Phi %.6g, n (%.6g, %.6g, %.6g)",
           what, cs->n ? cs->c[0].phi : NAN, dphi, cs->n ? cs->c[0].n.x : NAN, cs->n ? cs->c[0].n.y : NAN,
           cs->n ? cs->c[0].n.z : NAN, dn, phi, n.x, n.y, n.z);
    tap_ok(found, "%s: contact points P at the hand-computed positions (tol %.0e m)", what, TOL);
}

static unsigned feature(const clab_contact *c) { return (unsigned)(c->key & 0xfffu); }

/* ---------------- sphere-sphere and sphere-plane (existing behaviour) ---------------- */
static void test_sphere_sphere_plane(void)
{
    clab_contacts cs;
    clab_contacts_init(&cs);
    /* spheres R = 0.1 and 0.2, centers 0.29 apart along x: Phi = 0.29 - 0.3 = -0.01, n = +x,
     * P midway between (0.1, 0, 0) and (0.09, 0, 0) */
    clab_world *w = clab_world_create(NULL);
    add(w, clab_sphere(0.1), clab_v3(0, 0, 0), clab_q_identity(), 0);
    add(w, clab_sphere(0.2), clab_v3(0.29, 0, 0), clab_q_identity(), 0);
    pair(w, 0.0, &cs);
    clab_vec3 p = clab_v3(0.095, 0, 0);
    check_contacts(&cs, 1, &p, -0.01, clab_v3(1, 0, 0), "sphere-sphere");
    check_records(w, &cs, "sphere-sphere");
    clab_world_destroy(w);

    /* ground plane (index 0) and a sphere R = 0.1 at z = 0.09: Phi = -0.01, n = +z, P z = -0.005 */
    w = clab_world_create(NULL);
    add(w, clab_plane(), clab_v3(0, 0, 0), clab_q_identity(), 1);
    add(w, clab_sphere(0.1), clab_v3(0.3, -0.2, 0.09), clab_q_identity(), 0);
    pair(w, 0.0, &cs);
    p = clab_v3(0.3, -0.2, -0.005);
    check_contacts(&cs, 1, &p, -0.01, clab_v3(0, 0, 1), "sphere-plane");
    check_records(w, &cs, "sphere-plane");
    clab_world_destroy(w);
    clab_contacts_free(&cs);
}

/* ---------------- box-plane ---------------- */
static void test_box_plane(void)
{
    clab_contacts cs;
    clab_contacts_init(&cs);

    /* box (0.5, 0.3, 0.2) flat on the ground z = 0 at height 0.19: the 4 bottom vertices
     * (ids 0..3) have Phi = 0.19 - 0.2 = -0.01, n = +z, P at (+-0.5, +-0.3, -0.005) */
    clab_world *w = clab_world_create(NULL);
    add(w, clab_plane(), clab_v3(0, 0, 0), clab_q_identity(), 1);
    add(w, clab_box(0.5, 0.3, 0.2), clab_v3(0, 0, 0.19), clab_q_identity(), 0);
    pair(w, 0.0, &cs);
    clab_vec3 flat[4] = {clab_v3(-0.5, -0.3, -0.005), clab_v3(0.5, -0.3, -0.005), clab_v3(-0.5, 0.3, -0.005),
                         clab_v3(0.5, 0.3, -0.005)};
    check_contacts(&cs, 4, flat, -0.01, clab_v3(0, 0, 1), "box-plane flat");
    check_records(w, &cs, "box-plane flat");
    int ids = 1;
    for (size_t k = 0; k < cs.n; k++) ids &= feature(&cs.c[k]) == k; /* vertex ids 0..3, sorted */
    tap_ok(ids, "box-plane flat: features are the bottom vertex ids 0, 1, 2, 3");
    clab_world_destroy(w);

    /* incline: plane rotated by theta = 0.3 rad about y, outward normal m = (sin 0.3, 0, cos 0.3);
     * the box (index 0 here) has the same orientation and its center at
     * r = (h_z + g) m + 0.7 t with g = 0.003, t = (cos 0.3, 0, -sin 0.3): every bottom vertex has
     * Phi = g = 0.003 exactly; reported only with an envelope above 0.003; n from the box (a = 0)
     * to the plane (b = 1) is -m; P = r + A (+-0.5, +-0.3, -0.2) - g/2 m */
    double th = 0.3;
    clab_vec3 m = clab_v3(sin(th), 0, cos(th)), t = clab_v3(cos(th), 0, -sin(th));
    clab_quat e = clab_q_axis_angle(clab_v3(0, 1, 0), th);
    clab_vec3 r = clab_v3_madd(clab_v3_scale(m, 0.2 + 0.003), 0.7, t);
    w = clab_world_create(NULL);
    add(w, clab_box(0.5, 0.3, 0.2), r, e, 0);
    add(w, clab_plane(), clab_v3(0, 0, 0), e, 1);
    pair(w, 0.0, &cs);
    tap_ok(cs.n == 0, "box-plane incline, gap 0.003 m, envelope 0: no contact (got %zu)", cs.n);
    pair(w, 0.01, &cs);
    clab_vec3 inc[4];
    for (unsigned k = 0; k < 4; k++)
        inc[k] = clab_v3_madd(clab_body_point(&w->bodies[0], clab_box_vertex(clab_v3(0.5, 0.3, 0.2), k)), -0.0015, m);
    check_contacts(&cs, 4, inc, 0.003, clab_v3_neg(m), "box-plane incline, envelope 0.01");
    check_records(w, &cs, "box-plane incline");
    /* keys stable under a small motion (slide 1e-4 m, turn 1e-4 rad about m) */
    uint64_t keys[8];
    size_t nk = cs.n;
    for (size_t k = 0; k < nk; k++) keys[k] = cs.c[k].key;
    w->bodies[0].r = clab_v3_madd(w->bodies[0].r, 1e-4, t);
    w->bodies[0].e = clab_q_mul(clab_q_axis_angle(m, 1e-4), w->bodies[0].e);
    pair(w, 0.01, &cs);
    int same = cs.n == nk;
    for (size_t k = 0; same && k < nk; k++) same &= cs.c[k].key == keys[k];
    tap_ok(same, "box-plane incline: the same 4 keys after a small motion");
    clab_world_destroy(w);

    /* edge down: cube of half 0.5 turned 45 deg about x; its lowest edge (along x) is at
     * r_z - 0.5 sqrt 2, so with r_z = 0.5 sqrt 2 - 0.01 the 2 vertices (+-0.5, 0, -0.01) have
     * Phi = -0.01; the next vertices are 0.5 sqrt 2 higher, beyond the 0 envelope */
    w = clab_world_create(NULL);
    add(w, clab_plane(), clab_v3(0, 0, 0), clab_q_identity(), 1);
    add(w, clab_box(0.5, 0.5, 0.5), clab_v3(0, 0, 0.5 * sqrt(2.0) - 0.01),
        clab_q_axis_angle(clab_v3(1, 0, 0), M_PI / 4), 0);
    pair(w, 0.0, &cs);
    clab_vec3 edge[2] = {clab_v3(-0.5, 0, -0.005), clab_v3(0.5, 0, -0.005)};
    check_contacts(&cs, 2, edge, -0.01, clab_v3(0, 0, 1), "box-plane edge down");
    check_records(w, &cs, "box-plane edge down");
    clab_world_destroy(w);

    /* vertex down: cube of half 0.5 whose diagonal (1,1,1) is turned onto -z, so vertex 7 is the
     * lowest, 0.5 sqrt 3 below the center: with r_z = 0.5 sqrt 3 - 0.02, Phi = -0.02, one contact */
    clab_vec3 diag = clab_v3_normalize(clab_v3(1, 1, 1));
    clab_vec3 axis = clab_v3_cross(diag, clab_v3(0, 0, -1));
    w = clab_world_create(NULL);
    add(w, clab_plane(), clab_v3(0, 0, 0), clab_q_identity(), 1);
    add(w, clab_box(0.5, 0.5, 0.5), clab_v3(0.1, 0.2, 0.5 * sqrt(3.0) - 0.02),
        clab_q_axis_angle(axis, acos(-diag.z)), 0);
    pair(w, 0.0, &cs);
    clab_vec3 vtx = clab_v3(0.1, 0.2, -0.01);
    check_contacts(&cs, 1, &vtx, -0.02, clab_v3(0, 0, 1), "box-plane vertex down");
    tap_ok(cs.n == 1 && feature(&cs.c[0]) == 7, "box-plane vertex down: feature = vertex id 7");
    clab_world_destroy(w);

    /* thin plate (1, 1, 0.001) at z = 0.0005 with envelope 0.01: all 8 vertices have Phi < 0.01
     * (-0.0005 below, 0.0015 above); only the 4 deepest, ids 0..3 with Phi = -0.0005, are kept */
    w = clab_world_create(NULL);
    add(w, clab_plane(), clab_v3(0, 0, 0), clab_q_identity(), 1);
    add(w, clab_box(1, 1, 0.001), clab_v3(0, 0, 0.0005), clab_q_identity(), 0);
    pair(w, 0.01, &cs);
    clab_vec3 plate[4] = {clab_v3(-1, -1, -0.00025), clab_v3(1, -1, -0.00025), clab_v3(-1, 1, -0.00025),
                          clab_v3(1, 1, -0.00025)};
    check_contacts(&cs, 4, plate, -0.0005, clab_v3(0, 0, 1), "box-plane thin plate, wide envelope");
    clab_world_destroy(w);
    clab_contacts_free(&cs);
}

int main(void)
{
    test_sphere_sphere_plane();
    test_box_plane();
    return tap_done();
}
