/* test_collide.c: the narrow phase (lib/narrow.c, lib/collide_*.c) against hand-computed cases.
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
#include "add_body.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#define TOL 1e-12


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
        clab_vec3 u, w_, sa, sb; /* the frame the backends build from n; the levers */
        clab_contact_frame(c, &u, &w_);
        clab_contact_levers(c, cs->lv, w->bodies, &sa, &sb);
        double e[] = {clab_v3_norm(c->n) - 1.0, clab_v3_norm(u) - 1.0, clab_v3_norm(w_) - 1.0,
                      clab_v3_dot(c->n, u), clab_v3_dot(c->n, w_), clab_v3_dot(u, w_),
                      clab_v3_norm(clab_v3_sub(clab_v3_cross(c->n, u), w_)),
                      /* P from a (clab_contact_point) and from b: the same point */
                      clab_v3_norm(
                          clab_v3_sub(clab_body_point(&w->bodies[c->b], sb), clab_contact_point(cs, k, w->bodies)))};
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

/* index of the record whose P (clab_contact_point) is within TOL of p, -1 when none */
static int find_point(const clab_world *w, const clab_contacts *cs, clab_vec3 p)
{
    for (size_t k = 0; k < cs->n; k++)
        if (clab_v3_norm(clab_v3_sub(clab_contact_point(cs, k, w->bodies), p)) <= TOL) return (int)k;
    return -1;
}

/* all records: gap phi and normal n; and the set of points P equals pts[0..npts) */
static void check_contacts(const clab_world *w, const clab_contacts *cs, size_t npts, const clab_vec3 *pts, double phi, clab_vec3 n,
                           const char *what)
{
    double dphi = 0.0, dn = 0.0;
    int found = 1;
    for (size_t k = 0; k < cs->n; k++) {
        dphi = fmax(dphi, fabs(cs->c[k].phi - phi));
        dn = fmax(dn, clab_v3_norm(clab_v3_sub(cs->c[k].n, n)));
    }
    for (size_t k = 0; k < npts; k++) found &= find_point(w, cs, pts[k]) >= 0;
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
    check_contacts(w, &cs, 1, &p, -0.01, clab_v3(1, 0, 0), "sphere-sphere");
    check_records(w, &cs, "sphere-sphere");
    clab_world_destroy(w);

    /* ground plane (index 0) and a sphere R = 0.1 at z = 0.09: Phi = -0.01, n = +z, P z = -0.005 */
    w = clab_world_create(NULL);
    add(w, clab_plane(), clab_v3(0, 0, 0), clab_q_identity(), 1);
    add(w, clab_sphere(0.1), clab_v3(0.3, -0.2, 0.09), clab_q_identity(), 0);
    pair(w, 0.0, &cs);
    p = clab_v3(0.3, -0.2, -0.005);
    check_contacts(w, &cs, 1, &p, -0.01, clab_v3(0, 0, 1), "sphere-plane");
    check_records(w, &cs, "sphere-plane");
    clab_world_destroy(w);
    clab_contacts_free(&cs);
}

/* ---------------- the contact point from the record ---------------- */
/* clab_contact_point(cs, i, bodies) = r_a + A(e_a) sbar_A: with both spheres turned (so sbar_A is
 * not P - r_a), far from the origin and in a periodic box with b across the face, P comes back
 * as the hand-computed midpoint near body a, to a few ulps of the coordinates */
static void test_contact_point(void)
{
    clab_contacts cs;
    clab_contacts_init(&cs);
    clab_error err;
    /* spheres R = 0.1 and 0.2 whose surfaces overlap by 0.01 along x, both turned 0.7 and -1.2
     * rad about (1, 2, 3): P = r_a + (0.1 - 0.005) x */
    clab_quat ea = clab_q_axis_angle(clab_v3_normalize(clab_v3(1, 2, 3)), 0.7),
              eb = clab_q_axis_angle(clab_v3_normalize(clab_v3(1, 2, 3)), -1.2);
    clab_vec3 ra = clab_v3(100.9, -50.2, 7.0);
    clab_world *w = clab_world_create(NULL);
    add(w, clab_sphere(0.1), ra, ea, 0);
    add(w, clab_sphere(0.2), clab_v3_add(ra, clab_v3(0.29, 0, 0)), eb, 0);
    pair(w, 0.0, &cs);
    clab_vec3 want = clab_v3_add(ra, clab_v3(0.095, 0, 0));
    double d = cs.n == 1 ? clab_v3_norm(clab_v3_sub(clab_contact_point(&cs, 0, w->bodies), want)) : INFINITY;
    clab_vec3 sa = clab_v3(0, 0, 0), sb;
    if (cs.n == 1) clab_contact_levers(&cs.c[0], cs.lv, w->bodies, &sa, &sb);
    double turned = clab_v3_norm(clab_v3_sub(sa, clab_v3(0.095, 0, 0)));
    tap_ok(d <= 1e-13 && turned > 0.01,
           "clab_contact_point: turned spheres at |r| ~ 112 m: P within %.2g m of the midpoint (<= 1e-13), sbar_A "
           "is not P - r_a (differs by %.3g m)",
           d, turned);
    clab_world_destroy(w);

    /* the same pair in a periodic box [100, 101) in x, b's center a period back (100.19, its
     * image 0.29 from a): P lies near a, not near b's stored center */
    w = clab_world_create(NULL);
    clab_world_set_periodic(w, 0, 100.0, 101.0, &err);
    add(w, clab_sphere(0.1), ra, ea, 0);
    add(w, clab_sphere(0.2), clab_v3_add(ra, clab_v3(0.29 - 1.0, 0, 0)), eb, 0);
    clab_collider *cd = clab_collider_create();
    int rc = clab_collide(cd, w, 0.0, &cs, &err);
    d = rc == CLAB_OK && cs.n == 1 ? clab_v3_norm(clab_v3_sub(clab_contact_point(&cs, 0, w->bodies), want)) : INFINITY;
    tap_ok(d <= 1e-13, "clab_contact_point, periodic x: P near body a, within %.2g m of the midpoint (<= 1e-13)", d);
    clab_collider_destroy(cd);
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
    check_contacts(w, &cs, 4, flat, -0.01, clab_v3(0, 0, 1), "box-plane flat");
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
    check_contacts(w, &cs, 4, inc, 0.003, clab_v3_neg(m), "box-plane incline, envelope 0.01");
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
    check_contacts(w, &cs, 2, edge, -0.01, clab_v3(0, 0, 1), "box-plane edge down");
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
    check_contacts(w, &cs, 1, &vtx, -0.02, clab_v3(0, 0, 1), "box-plane vertex down");
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
    check_contacts(w, &cs, 4, plate, -0.0005, clab_v3(0, 0, 1), "box-plane thin plate, wide envelope");
    clab_world_destroy(w);
    clab_contacts_free(&cs);
}

/* ---------------- sphere-box ---------------- */
static void test_sphere_box(void)
{
    clab_contacts cs;
    clab_contacts_init(&cs);
    const double R = 0.2;
    clab_vec3 half = clab_v3(1, 0.5, 0.25);

    /* box (1, 0.5, 0.25) at the origin is body 0, the sphere R = 0.2 body 1, so n points from
     * the box to the sphere. face: center (0.3, 0.1, 0.44): Phi = 0.44 - 0.25 - 0.2 = -0.01,
     * n = +z, P between (0.3, 0.1, 0.25) and (0.3, 0.1, 0.24) */
    clab_world *w = clab_world_create(NULL);
    add(w, clab_box(half.x, half.y, half.z), clab_v3(0, 0, 0), clab_q_identity(), 0);
    add(w, clab_sphere(R), clab_v3(0.3, 0.1, 0.44), clab_q_identity(), 0);
    pair(w, 0.0, &cs);
    clab_vec3 p = clab_v3(0.3, 0.1, 0.245);
    check_contacts(w, &cs, 1, &p, -0.01, clab_v3(0, 0, 1), "sphere-box face");
    check_records(w, &cs, "sphere-box face");

    /* edge: center (1.1, 0, 0.35), closest box point (1, 0, 0.25) at distance 0.1 sqrt 2:
     * Phi = 0.1 sqrt 2 - 0.2, n = (1, 0, 1)/sqrt 2, P = (1, 0, 0.25) + (Phi/2) n */
    w->bodies[1].r = clab_v3(1.1, 0, 0.35);
    pair(w, 0.0, &cs);
    double phi = 0.1 * sqrt(2.0) - R;
    clab_vec3 n = clab_v3_normalize(clab_v3(1, 0, 1));
    p = clab_v3_madd(clab_v3(1, 0, 0.25), 0.5 * phi, n);
    check_contacts(w, &cs, 1, &p, phi, n, "sphere-box edge");

    /* corner: center (1.1, 0.6, 0.35), closest point the vertex (1, 0.5, 0.25) at 0.1 sqrt 3 */
    w->bodies[1].r = clab_v3(1.1, 0.6, 0.35);
    pair(w, 0.0, &cs);
    phi = 0.1 * sqrt(3.0) - R;
    n = clab_v3_normalize(clab_v3(1, 1, 1));
    p = clab_v3_madd(clab_v3(1, 0.5, 0.25), 0.5 * phi, n);
    check_contacts(w, &cs, 1, &p, phi, n, "sphere-box corner");

    /* center inside: (0.9, 0.1, 0) is 0.1 from the +x face, 0.4 from +y, 0.25 from +z: pushed
     * out through +x, Phi = -(0.1 + 0.2) = -0.3, n = +x, P between (1, 0.1, 0) and (0.7, 0.1, 0) */
    w->bodies[1].r = clab_v3(0.9, 0.1, 0);
    pair(w, 0.0, &cs);
    p = clab_v3(0.85, 0.1, 0);
    check_contacts(w, &cs, 1, &p, -0.3, clab_v3(1, 0, 0), "sphere-box center inside");
    check_records(w, &cs, "sphere-box center inside");

    /* rotated box (30 deg about z) and the sphere as body 0: center r_B + A (0.2, 0.5 + 0.18, 0)
     * touches the +y face 0.02 deep: Phi = -0.02, n from the sphere to the box = -A e_y
     * = (sin 30, -cos 30, 0), P = r_B + A (0.2, 0.49, 0) */
    clab_world_destroy(w);
    w = clab_world_create(NULL);
    clab_quat e = clab_q_axis_angle(clab_v3(0, 0, 1), M_PI / 6);
    clab_vec3 rB = clab_v3(0.4, -0.3, 0.2);
    add(w, clab_sphere(R), clab_v3_add(rB, clab_q_rotate(e, clab_v3(0.2, 0.68, 0))), clab_q_identity(), 0);
    add(w, clab_box(half.x, half.y, half.z), rB, e, 0);
    pair(w, 0.0, &cs);
    p = clab_v3_add(rB, clab_q_rotate(e, clab_v3(0.2, 0.49, 0)));
    check_contacts(w, &cs, 1, &p, -0.02, clab_v3(0.5, -0.5 * sqrt(3.0), 0), "sphere-box rotated box");
    check_records(w, &cs, "sphere-box rotated box");

    /* envelope: the sphere 0.005 off the face is reported with envelope 0.01, not with 0 */
    w->bodies[0].r = clab_v3_add(rB, clab_q_rotate(e, clab_v3(0.2, 0.705, 0)));
    pair(w, 0.0, &cs);
    size_t n0 = cs.n;
    pair(w, 0.01, &cs);
    tap_ok(n0 == 0 && cs.n == 1 && fabs(cs.c[0].phi - 0.005) <= TOL,
           "sphere-box envelope: gap 0.005 m: %zu contacts with envelope 0, %zu with 0.01 (Phi %.6g, want 0.005)", n0,
           cs.n, cs.n ? cs.c[0].phi : NAN);
    clab_world_destroy(w);
    clab_contacts_free(&cs);
}

/* ---------------- box-box ---------------- */

/* world of two boxes, each given by half extents, center and orientation */
static clab_world *two_boxes(clab_vec3 ha, clab_vec3 ra, clab_quat ea, clab_vec3 hb, clab_vec3 rb, clab_quat eb)
{
    clab_world *w = clab_world_create(NULL);
    add(w, clab_box(ha.x, ha.y, ha.z), ra, ea, 0);
    add(w, clab_box(hb.x, hb.y, hb.z), rb, eb, 0);
    return w;
}

static unsigned count_kind(const clab_contacts *cs, unsigned kind)
{
    unsigned k = 0;
    for (size_t i = 0; i < cs->n; i++) k += (feature(&cs->c[i]) >> 10) == kind;
    return k;
}

static void test_box_box(void)
{
    clab_contacts cs;
    clab_contacts_init(&cs);
    clab_quat I = clab_q_identity();
    const double s2 = sqrt(2.0);

    /* face-face, incident face inside: slab (1, 1, 0.5) at the origin, cube of half 0.5 turned
     * 30 deg about z at (0.1, 0.2, 0.99): its 4 bottom corners (within 0.1 + 0.5 sqrt 2 < 1 of
     * the slab's center) are 0.01 deep: Phi = -0.01, n = +z, P = corner + 0.005 z */
    clab_quat e30 = clab_q_axis_angle(clab_v3(0, 0, 1), M_PI / 6);
    clab_world *w = two_boxes(clab_v3(1, 1, 0.5), clab_v3(0, 0, 0), I, clab_v3(0.5, 0.5, 0.5),
                              clab_v3(0.1, 0.2, 0.99), e30);
    pair(w, 0.0, &cs);
    clab_vec3 pts[8];
    for (unsigned k = 0; k < 4; k++)
        pts[k] = clab_v3_madd(clab_body_point(&w->bodies[1], clab_box_vertex(clab_v3(0.5, 0.5, 0.5), k)), 0.005,
                              clab_v3(0, 0, 1));
    check_contacts(w, &cs, 4, pts, -0.01, clab_v3(0, 0, 1), "box-box face-face (incident inside)");
    check_records(w, &cs, "box-box face-face (incident inside)");
    tap_ok(count_kind(&cs, CLAB_BB_VERTEX) == 4, "box-box face-face: the 4 features are incident vertices");

    /* the same with the indices swapped (the upper box is body 0): n = -z, same points */
    clab_body tmp = w->bodies[0];
    w->bodies[0] = w->bodies[1];
    w->bodies[1] = tmp;
    pair(w, 0.0, &cs);
    check_contacts(w, &cs, 4, pts, -0.01, clab_v3(0, 0, -1), "box-box face-face, indices swapped");
    check_records(w, &cs, "box-box face-face, indices swapped");

    /* separated by 0.004 (center at z 1.004): 4 contacts with Phi = 0.004 for envelope 0.01, none
     * for envelope 0 */
    w->bodies[0].r.z = 1.004;
    pair(w, 0.0, &cs);
    size_t n0 = cs.n;
    pair(w, 0.01, &cs);
    for (unsigned k = 0; k < 4; k++)
        pts[k] = clab_v3_madd(clab_body_point(&w->bodies[0], clab_box_vertex(clab_v3(0.5, 0.5, 0.5), k)), -0.002,
                              clab_v3(0, 0, 1));
    tap_ok(n0 == 0, "box-box face-face 0.004 apart, envelope 0: no contact (got %zu)", n0);
    check_contacts(w, &cs, 4, pts, 0.004, clab_v3(0, 0, -1), "box-box face-face 0.004 apart, envelope 0.01");
    clab_world_destroy(w);

    /* face-face with clipping: two cubes of half 0.5, the upper at (0.6, 0.1, 0.99): they overlap
     * over x in [0.1, 0.5], y in [-0.4, 0.5], 0.01 deep. Its 4 corners: (0.1, -0.4) an incident
     * vertex, (0.5, -0.4) and (0.1, 0.5) incident edges cut by side planes, (0.5, 0.5) a corner of
     * the reference face; Phi = -0.01, n = +z, P at z = 0.495 */
    clab_vec3 hc = clab_v3(0.5, 0.5, 0.5);
    w = two_boxes(hc, clab_v3(0, 0, 0), I, hc, clab_v3(0.6, 0.1, 0.99), I);
    pair(w, 0.0, &cs);
    clab_vec3 clip[4] = {clab_v3(0.1, -0.4, 0.495), clab_v3(0.5, -0.4, 0.495), clab_v3(0.5, 0.5, 0.495),
                         clab_v3(0.1, 0.5, 0.495)};
    check_contacts(w, &cs, 4, clip, -0.01, clab_v3(0, 0, 1), "box-box face-face clipped");
    check_records(w, &cs, "box-box face-face clipped");
    tap_ok(count_kind(&cs, CLAB_BB_VERTEX) == 1 && count_kind(&cs, CLAB_BB_CLIP) == 2 &&
               count_kind(&cs, CLAB_BB_CORNER) == 1,
           "box-box face-face clipped: features 1 incident vertex, 2 clipped edges, 1 reference corner");

    /* keys stable under a small motion: shift 1e-4 m, turn 1e-4 rad about z */
    uint64_t keys[8];
    size_t nk = cs.n;
    for (size_t k = 0; k < nk; k++) keys[k] = cs.c[k].key;
    w->bodies[1].r = clab_v3_add(w->bodies[1].r, clab_v3(1e-4, -1e-4, 1e-4));
    w->bodies[1].e = clab_q_axis_angle(clab_v3(0.3, 0.2, 1), 1e-4);
    pair(w, 0.0, &cs);
    int same = cs.n == nk;
    for (size_t k = 0; same && k < nk; k++) same &= cs.c[k].key == keys[k];
    tap_ok(same, "box-box face-face clipped: the same %zu keys after a small motion", nk);

    /* the whole scene turned by an arbitrary rotation Q about the origin: the same gaps, the
     * normal Q z and the points Q P (frame invariance of the rotated-box code paths) */
    clab_quat Q = clab_q_axis_angle(clab_v3(0.3, -0.7, 0.5), 1.1);
    w->bodies[0].e = Q;
    w->bodies[1].e = Q;
    w->bodies[1].r = clab_q_rotate(Q, clab_v3(0.6, 0.1, 0.99));
    pair(w, 0.0, &cs);
    for (unsigned k = 0; k < 4; k++) clip[k] = clab_q_rotate(Q, clip[k]);
    check_contacts(w, &cs, 4, clip, -0.01, clab_q_rotate(Q, clab_v3(0, 0, 1)), "box-box face-face clipped, rotated");
    check_records(w, &cs, "box-box face-face clipped, rotated");
    same = cs.n == nk;
    for (size_t k = 0; same && k < nk; k++) same &= cs.c[k].key == keys[k];
    tap_ok(same, "box-box face-face clipped, rotated: the same keys as unrotated");
    clab_world_destroy(w);

    /* edge on a face: cube of half 0.3 turned 45 deg about x over the slab (1, 1, 0.5); its
     * lowest edge (along x, 0.3 sqrt 2 below its center) is 0.01 deep: 2 contacts at the edge's
     * ends (+-0.3, 0, 0.495), Phi = -0.01, n = +z */
    w = two_boxes(clab_v3(1, 1, 0.5), clab_v3(0, 0, 0), I, clab_v3(0.3, 0.3, 0.3),
                  clab_v3(0, 0, 0.5 + 0.3 * s2 - 0.01), clab_q_axis_angle(clab_v3(1, 0, 0), M_PI / 4));
    pair(w, 0.0, &cs);
    clab_vec3 ef[2] = {clab_v3(-0.3, 0, 0.495), clab_v3(0.3, 0, 0.495)};
    check_contacts(w, &cs, 2, ef, -0.01, clab_v3(0, 0, 1), "box-box edge-face");
    check_records(w, &cs, "box-box edge-face");
    clab_world_destroy(w);

    /* vertex on a face: cube of half 0.3 with its diagonal (1,1,1) turned onto -z, so vertex 7
     * is 0.3 sqrt 3 below its center, 0.01 deep in the slab: 1 contact at (0.1, 0.2, 0.495) */
    clab_vec3 diag = clab_v3_normalize(clab_v3(1, 1, 1));
    w = two_boxes(clab_v3(1, 1, 0.5), clab_v3(0, 0, 0), I, clab_v3(0.3, 0.3, 0.3),
                  clab_v3(0.1, 0.2, 0.5 + 0.3 * sqrt(3.0) - 0.01),
                  clab_q_axis_angle(clab_v3_cross(diag, clab_v3(0, 0, -1)), acos(-diag.z)));
    pair(w, 0.0, &cs);
    clab_vec3 vf = clab_v3(0.1, 0.2, 0.495);
    check_contacts(w, &cs, 1, &vf, -0.01, clab_v3(0, 0, 1), "box-box vertex-face");
    tap_ok(cs.n == 1 && count_kind(&cs, CLAB_BB_VERTEX) == 1 && (feature(&cs.c[0]) & 7u) == 7u,
           "box-box vertex-face: feature = incident vertex 7");
    clab_world_destroy(w);

    /* edge-edge: cube A (half 0.5) turned 45 deg about x has its top edge along x at
     * z = 0.5 sqrt 2; cube B turned 45 deg about y has its bottom edge along y; B's center at
     * z = sqrt 2 - 0.01 puts the crossing edges 0.01 deep: 1 contact, Phi = -0.01, n = +z,
     * P = (0, 0, 0.5 sqrt 2 - 0.005) */
    w = two_boxes(hc, clab_v3(0, 0, 0), clab_q_axis_angle(clab_v3(1, 0, 0), M_PI / 4), hc,
                  clab_v3(0, 0, s2 - 0.01), clab_q_axis_angle(clab_v3(0, 1, 0), M_PI / 4));
    pair(w, 0.0, &cs);
    clab_vec3 ee = clab_v3(0, 0, 0.5 * s2 - 0.005);
    check_contacts(w, &cs, 1, &ee, -0.01, clab_v3(0, 0, 1), "box-box edge-edge");
    check_records(w, &cs, "box-box edge-edge");
    tap_ok(cs.n == 1 && count_kind(&cs, CLAB_BB_EDGE) == 1, "box-box edge-edge: an edge-pair feature");
    nk = cs.n;
    keys[0] = nk ? cs.c[0].key : 0;
    w->bodies[1].r = clab_v3(2e-4, -1e-4, s2 - 0.0101);
    pair(w, 0.0, &cs);
    tap_ok(nk == 1 && cs.n == 1 && cs.c[0].key == keys[0], "box-box edge-edge: the same key after a small motion");
    /* B slid by 0.05 along its own edge (y): the edges still cross at x = y = 0, so the same
     * contact point and gap */
    w->bodies[1].r = clab_v3(0, 0.05, s2 - 0.01);
    pair(w, 0.0, &cs);
    check_contacts(w, &cs, 1, &ee, -0.01, clab_v3(0, 0, 1), "box-box edge-edge, B slid along its edge");
    clab_world_destroy(w);

    /* octagon: two cubes of half 0.5, the upper one turned 45 deg about z and 0.01 deep: the
     * square and the turned square overlap in a regular octagon, 8 clipped points, reduced to 4
     * (all at Phi = -0.01, n = +z, on the octagon's boundary) */
    w = two_boxes(hc, clab_v3(0, 0, 0), I, hc, clab_v3(0, 0, 0.99), clab_q_axis_angle(clab_v3(0, 0, 1), M_PI / 4));
    pair(w, 0.0, &cs);
    double dphi = 0.0, dn = 0.0, rmin = INFINITY;
    for (size_t k = 0; k < cs.n; k++) {
        dphi = fmax(dphi, fabs(cs.c[k].phi + 0.01));
        dn = fmax(dn, clab_v3_norm(clab_v3_sub(cs.c[k].n, clab_v3(0, 0, 1))));
        /* the octagon's vertices lie at radius 0.5 / cos(22.5 deg) from the axis */
        clab_vec3 pk = clab_contact_point(&cs, k, w->bodies);
        rmin = fmin(rmin, hypot(pk.x, pk.y));
    }
    tap_ok(cs.n == 4 && dphi <= TOL && dn <= TOL,
           "box-box octagon overlap: 4 contacts kept of 8 (got %zu), Phi = -0.01, n = +z", cs.n);
    tap_close(rmin, 0.5 / cos(M_PI / 8), TOL, "box-box octagon: kept points are octagon vertices (radius)");
    check_records(w, &cs, "box-box octagon");
    clab_world_destroy(w);

    /* separated by a corner: cubes of half 0.5 at (0,0,0) and (1.1, 1.1, 0): no contact with
     * envelope 0.01 (true distance 0.1 sqrt 2, every SAT axis separates by >= 0.1) */
    w = two_boxes(hc, clab_v3(0, 0, 0), I, hc, clab_v3(1.1, 1.1, 0), I);
    pair(w, 0.01, &cs);
    tap_ok(cs.n == 0, "box-box 0.14 m apart at the corners, envelope 0.01: no contact (got %zu)", cs.n);
    clab_world_destroy(w);
    clab_contacts_free(&cs);
}

/* ---------------- random box pairs: properties ---------------- */

/* max_k |x_k| / h_k of the world point p in the frame of box b: 1 on the boundary */
static double box_level(const clab_body *b, clab_vec3 p)
{
    clab_vec3 x = clab_q_rotate_inv(b->e, clab_v3_sub(p, b->r));
    return fmax(fabs(x.x) / b->shape.half.x, fmax(fabs(x.y) / b->shape.half.y, fabs(x.z) / b->shape.half.z));
}

/* 2,000 random pairs of randomly turned boxes (and spheres against boxes), near each other:
 * every record obeys the invariants, at most 4 records a pair, and the two surface points
 * P -+ (Phi/2) n lie on the boundaries of a and b (the level function max |x_k|/h_k is 1
 * there, to 1e-9 for round-off in the clipping) or, for a sphere, at distance R from its
 * center. A sampled check of what the hand-computed cases show in special positions. */
static void test_random_pairs(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 42);
    clab_contacts cs;
    clab_contacts_init(&cs);
    double worst_surface = 0.0, worst_frame = 0.0;
    size_t total = 0, max_per_pair = 0, pairs_with_contacts = 0;
    int keys_ok = 1, finite = 1;
    for (int k = 0; k < 2000; k++) {
        clab_world *w = clab_world_create(NULL);
        for (int b = 0; b < 2; b++) {
            clab_quat e = clab_q_normalize(clab_q(gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1),
                                                  gsl_ran_gaussian(r, 1), gsl_ran_gaussian(r, 1)));
            clab_vec3 pos = clab_v3(gsl_ran_flat(r, -0.6, 0.6), gsl_ran_flat(r, -0.6, 0.6), gsl_ran_flat(r, -0.6, 0.6));
            clab_shape sh = (b == 0 && k % 4 == 3) ? clab_sphere(gsl_ran_flat(r, 0.05, 0.4))
                                                   : clab_box(gsl_ran_flat(r, 0.05, 0.5), gsl_ran_flat(r, 0.05, 0.5),
                                                              gsl_ran_flat(r, 0.05, 0.5));
            add(w, sh, pos, e, 0);
        }
        pair(w, 0.02, &cs);
        if (cs.n) pairs_with_contacts++;
        total += cs.n;
        if (cs.n > max_per_pair) max_per_pair = cs.n;
        for (size_t c = 0; c < cs.n; c++) {
            const clab_contact *ct = &cs.c[c];
            clab_vec3 P = clab_contact_point(&cs, c, w->bodies);
            finite &= clab_v3_isfinite(P) && clab_v3_isfinite(ct->n) && isfinite(ct->phi);
            if (c > 0) keys_ok &= ct->key > cs.c[c - 1].key;
            keys_ok &= ct->a == 0 && ct->b == 1;
            clab_vec3 tu, tw;
            clab_contact_frame(ct, &tu, &tw);
            worst_frame = fmax(worst_frame, fabs(clab_v3_norm(ct->n) - 1.0) + fabs(clab_v3_dot(ct->n, tu)) +
                                                clab_v3_norm(clab_v3_sub(clab_v3_cross(ct->n, tu), tw)));
            clab_vec3 pa = clab_v3_madd(P, -0.5 * ct->phi, ct->n), pb = clab_v3_madd(P, 0.5 * ct->phi, ct->n);
            const clab_body *A = &w->bodies[0], *B = &w->bodies[1];
            double la = A->shape.type == CLAB_SHAPE_SPHERE ? clab_v3_norm(clab_v3_sub(pa, A->r)) / A->shape.radius
                                                           : box_level(A, pa);
            worst_surface = fmax(worst_surface, fmax(fabs(la - 1.0), fabs(box_level(B, pb) - 1.0)));
        }
        clab_world_destroy(w);
    }
    tap_diag("random pairs: %zu of 2000 in contact, %zu records, at most %zu a pair", pairs_with_contacts, total,
             max_per_pair);
    tap_ok(finite && keys_ok && max_per_pair <= 4 && pairs_with_contacts > 500,
           "random pairs: finite records, a = 0 < b = 1, keys sorted and distinct, <= 4 a pair (%zu), %zu pairs in "
           "contact",
           max_per_pair, pairs_with_contacts);
    tap_ok(worst_frame <= TOL, "random pairs: frames orthonormal, right-handed (worst %.3g <= %.3g)", worst_frame, TOL);
    tap_ok(worst_surface <= 1e-9, "random pairs: P -+ Phi/2 n on the two surfaces (worst level error %.3g <= 1e-9)",
           worst_surface);
    clab_contacts_free(&cs);
    gsl_rng_free(r);
}

/* clab_contacts.increasing: set while the keys increase strictly (the history's merge
 * trusts it, penalty/history.c), by clab_contacts_push and clab_collide */
static void test_increasing(void)
{
    clab_contacts cs;
    clab_contacts_init(&cs);
    clab_contact c;
    memset(&c, 0, sizeof c);
    int ok = cs.increasing == 1;
    const int pairs[4][2] = {{0, 1}, {0, 2}, {1, 2}, {1, 2}};
    for (int k = 0; k < 4; k++) {
        c.a = pairs[k][0];
        c.b = pairs[k][1];
        c.key = clab_contact_key(c.a, c.b, 0);
        ok = ok && clab_contacts_push(&cs, &c, NULL) == CLAB_OK && cs.increasing == (k < 3);
    }
    tap_ok(ok, "clab_contacts_push: increasing while the keys increase strictly, 0 at a repeated key");
    clab_contacts_clear(&cs);
    tap_ok(cs.increasing == 1 && cs.n == 0, "clab_contacts_clear: empty, increasing");
    /* clab_collide's output after a reversed list was pushed: increasing again */
    for (int k = 3; k >= 0; k--) {
        c.key = clab_contact_key(pairs[k][0], pairs[k][1], 0);
        clab_contacts_push(&cs, &c, NULL);
    }
    clab_world *w = clab_world_create(NULL);
    clab_error err;
    for (int k = 0; k < 3; k++) {
        clab_body_def d = clab_default_body_def();
        d.shape = clab_sphere(0.5);
        d.r = clab_v3(0.9 * k, 0.0, 0.0);
        clab_world_add_body(w, &d, &err);
    }
    clab_collider *cd = clab_collider_create();
    int rc = clab_collide(cd, w, 0.0, &cs, &err);
    int inc = 1;
    for (size_t i = 1; i < cs.n; i++) inc = inc && cs.c[i - 1].key < cs.c[i].key;
    tap_ok(rc == CLAB_OK && cs.n == 2 && inc && cs.increasing == 1,
           "clab_collide: keys increasing and marked so (%zu contacts)", cs.n);
    clab_collider_destroy(cd);
    clab_world_destroy(w);
    clab_contacts_free(&cs);
}

int main(void)
{
    test_increasing();
    test_sphere_sphere_plane();
    test_contact_point();
    test_box_plane();
    test_sphere_box();
    test_box_box();
    test_random_pairs();
    return tap_done();
}
