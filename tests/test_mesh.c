/* test_mesh.c: triangle-mesh walls (lib/mesh.c, collide_triangle.c, stl.c, scene_mesh.c, the
 * triangles of vtk.c): the STL reader on valid and broken files, the sphere-triangle narrow
 * phase against the closed forms of each feature, one contact on a flat joint and on a shared
 * vertex, a sphere on a mesh floor under both backends against the same sphere on a plane,
 * a sphere rolling across the joint of two coplanar triangles, the scene format's errors. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clab_collide.h"
#include "clab_mesh.h"
#include "clab_scene.h"
#include "clab_sim.h"
#include "clab_vtk.h"
#include "contact_scene.h"
#include "tap.h"

static char dir[64];

static void path_of(char *buf, size_t n, const char *name) { snprintf(buf, n, "%s/%s", dir, name); }

static void write_file(const char *name, const void *data, size_t n)
{
    char p[128];
    path_of(p, sizeof p, name);
    FILE *f = fopen(p, "wb");
    if (f) {
        fwrite(data, 1, n, f);
        fclose(f);
    }
}

/* a binary STL of nt triangles (count written as count) into buf; returns its size */
static size_t binary_stl(unsigned char *buf, const float *xyz, size_t nt, uint32_t count)
{
    memset(buf, 0, 84 + 50 * nt);
    memcpy(buf, "binary test", 11);
    for (int k = 0; k < 4; k++) buf[80 + k] = (unsigned char)(count >> (8 * k));
    for (size_t t = 0; t < nt; t++) memcpy(buf + 84 + 50 * t + 12, xyz + 9 * t, 36); /* little-endian host */
    return 84 + 50 * nt;
}

static const float square[18] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, -1, 0, 1, 1, 0, -1, 1, 0};

static const char *ascii_square = "solid square\n"
                                  "  facet normal 0 0 1\n    outer loop\n      vertex -1 -1 0\n      vertex 1 -1 0\n"
                                  "      vertex 1 1 0\n    endloop\n  endfacet\n"
                                  "  facet normal 0 0 1\n    outer loop\n      vertex -1 -1 0\n      vertex 1 1 0\n"
                                  "      vertex -1 1 0\n    endloop\n  endfacet\n"
                                  "endsolid square\n";

/* the STL reader: error status and a message holding want (NULL: must succeed) */
static void stl_case(const char *file, const char *want, const char *what)
{
    char p[128];
    path_of(p, sizeof p, file);
    double *xyz = NULL;
    size_t n = 0;
    clab_error err;
    clab_error_clear(&err);
    int rc = clab_stl_read(p, &xyz, &n, &err);
    if (!want) {
        int same = rc == 0 && n == 2;
        for (size_t k = 0; same && k < 18; k++) same = xyz[k] == (double)square[k];
        tap_ok(same, "STL %s: 2 triangles, the coordinates written (%s)", what, rc ? err.msg : "ok");
    } else {
        tap_ok(rc != 0 && strstr(err.msg, want) != NULL, "STL %s refused: \"%s\" (wants \"%s\")", what, err.msg, want);
    }
    free(xyz);
}

static void test_stl(void)
{
    unsigned char buf[84 + 50 * 4];
    write_file("ascii.stl", ascii_square, strlen(ascii_square));
    stl_case("ascii.stl", NULL, "ASCII");
    size_t n = binary_stl(buf, square, 2, 2);
    write_file("binary.stl", buf, n);
    stl_case("binary.stl", NULL, "binary");
    memcpy(buf, "solid but binary", 16); /* binary files starting with "solid" are read as binary */
    write_file("solid_binary.stl", buf, n);
    stl_case("solid_binary.stl", NULL, "binary with a header starting 'solid'");

    write_file("empty.stl", "", 0);
    stl_case("empty.stl", "empty file", "empty file");
    write_file("short.stl", buf + 20, 40);
    stl_case("short.stl", "truncated binary STL (40 bytes", "binary shorter than its header");
    binary_stl(buf, square, 2, 3);
    write_file("cut.stl", buf, n); /* header says 3 triangles, 2 present */
    stl_case("cut.stl", "3 triangles in its header needs 234 bytes, the file has 184 (truncated)", "truncated binary");
    binary_stl(buf, square, 2, 1);
    write_file("count.stl", buf, n); /* header says 1, 2 present */
    stl_case("count.stl", "the triangle count does not match the file size", "count not matching the size");
    float bad[18];
    memcpy(bad, square, sizeof bad);
    bad[13] = NAN;
    binary_stl(buf, bad, 2, 2);
    write_file("nan.stl", buf, n);
    stl_case("nan.stl", "facet 2 has a non-finite coordinate", "binary NaN");
    memcpy(bad, square, sizeof bad);
    bad[6] = bad[3] = 0.0f; /* v0 (-1,-1,0), v1 (0,-1,0), v2 (0,1,0) then: fine; make v2 = v1 */
    bad[7] = -1.0f;
    binary_stl(buf, bad, 2, 2);
    write_file("degenerate.stl", buf, n);
    stl_case("degenerate.stl", "facet 1 has zero area", "binary zero-area triangle");

    char text[1024];
    snprintf(text, sizeof text, "%s", ascii_square);
    char *v = strstr(text, "vertex 1 1 0");
    memcpy(v, "vertx ", 6); /* line 6 */
    write_file("syntax.stl", text, strlen(text));
    stl_case("syntax.stl", "syntax.stl:6: ASCII STL syntax error: expected 'vertex', found 'vertx'", "ASCII typo");
    snprintf(text, sizeof text, "%s", ascii_square);
    memcpy(strstr(text, "vertex 1 -1 0") + 7, "x  ", 3); /* line 5: "vertex x  -1 0" */
    write_file("number.stl", text, strlen(text));
    stl_case("number.stl", "number.stl:5: ASCII STL syntax error: expected a number, found 'x'", "ASCII bad number");
    snprintf(text, sizeof text, "solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex inf 0 0\n"
             "vertex 0 1 0\nendloop\nendfacet\nendsolid a\n");
    write_file("ascii_nan.stl", text, strlen(text));
    stl_case("ascii_nan.stl", "facet 1 (line 2) has a non-finite coordinate", "ASCII nan");
    snprintf(text, sizeof text, "%.*s", (int)(strstr(ascii_square, "endsolid") - ascii_square), ascii_square);
    write_file("noend.stl", text, strlen(text));
    stl_case("noend.stl", "ends without 'endsolid'", "ASCII without endsolid");
    write_file("nofacet.stl", "solid x\nendsolid x\n", 19);
    stl_case("nofacet.stl", "ASCII STL with no facets", "ASCII without facets");
    stl_case("missing.stl", "cannot open the STL file", "missing file");
}

/* a world with a sphere (body 0, radius R at c) and a mesh of nt triangles */
static clab_world *sphere_and_mesh(double R, clab_vec3 c, const double *xyz, size_t nt)
{
    clab_world *w = clab_world_create(NULL);
    add_sphere(w, R, 1000.0, c, clab_v3(0, 0, 0), clab_v3(0, 0, 0));
    clab_mesh_def d = clab_default_mesh_def();
    snprintf(d.name, sizeof d.name, "wall");
    d.xyz = xyz;
    d.ntri = nt;
    clab_error err;
    if (clab_world_add_mesh(w, &d, &err) < 0) tap_diag("add mesh: %s", err.msg);
    return w;
}

/* the contacts of sphere (R, c) against the mesh */
static size_t contacts_at(const double *xyz, size_t nt, double R, clab_vec3 c, clab_contact *first)
{
    clab_world *w = sphere_and_mesh(R, c, xyz, nt);
    clab_collider *cd = clab_collider_create();
    clab_contacts cs;
    clab_contacts_init(&cs);
    clab_error err;
    if (clab_collide(cd, w, 0.0, &cs, &err)) tap_diag("collide: %s", err.msg);
    size_t n = cs.n;
    if (n && first) *first = cs.c[0];
    clab_contacts_free(&cs);
    clab_collider_destroy(cd);
    clab_world_destroy(w);
    return n;
}

/* one feature of the triangle (0,0,0) (1,0,0) (0,1,0): the closed form Phi = |c - p| - R,
 * n = (p - c)/|c - p| with p the closest point given */
static void feature_case(const char *what, clab_vec3 c, clab_vec3 p)
{
    static const double tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const double R = 0.1;
    clab_contact k;
    size_t n = contacts_at(tri, 1, R, c, &k);
    const clab_vec3 d = clab_v3_sub(p, c);
    const double dist = clab_v3_norm(d), phi = dist - R;
    const clab_vec3 nn = clab_v3_scale(d, 1.0 / dist);
    tap_ok(n == 1, "%s: one contact (got %zu)", what, n);
    if (n != 1) return;
    /* tolerance: a few ulps of the unit-size coordinates */
    tap_ok(fabs(k.phi - phi) <= 1e-15 && clab_v3_norm(clab_v3_sub(k.n, nn)) <= 1e-15,
           "%s: Phi %.17g (closed form %.17g), n (%g, %g, %g) (closed form (%g, %g, %g)), within 1e-15", what, k.phi,
           phi, k.n.x, k.n.y, k.n.z, nn.x, nn.y, nn.z);
}

static void test_features(void)
{
    feature_case("face, above", clab_v3(0.25, 0.25, 0.08), clab_v3(0.25, 0.25, 0));
    feature_case("face, below (two-sided)", clab_v3(0.25, 0.25, -0.05), clab_v3(0.25, 0.25, 0));
    feature_case("edge v0 v1", clab_v3(0.5, -0.06, 0.05), clab_v3(0.5, 0, 0));
    feature_case("edge v1 v2", clab_v3(0.55, 0.55, 0.03), clab_v3(0.5, 0.5, 0));
    feature_case("edge v2 v0", clab_v3(-0.03, 0.4, -0.02), clab_v3(0, 0.4, 0));
    feature_case("vertex v0", clab_v3(-0.05, -0.04, 0.03), clab_v3(0, 0, 0));
    feature_case("vertex v1", clab_v3(1.05, -0.02, 0.01), clab_v3(1, 0, 0));
    feature_case("vertex v2", clab_v3(-0.02, 1.03, 0.05), clab_v3(0, 1, 0));
    static const double tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    tap_ok(contacts_at(tri, 1, 0.1, clab_v3(0.25, 0.25, 0.1 + 1e-9), NULL) == 0, "face: no contact at a gap of 1e-9 m");
    tap_ok(contacts_at(tri, 1, 0.1, clab_v3(1.06, 0.0, 0.08), NULL) == 0, "vertex: no contact at a gap of 0.0 m");
}

/* six triangles around the origin (a hexagon of radius 1): one contact at every centre of a
 * grid over it, the vertex, the spokes and the rim included, with Phi = z - R (the plane's) */
static void test_fan(void)
{
    double xyz[6 * 9];
    for (int k = 0; k < 6; k++) {
        double a0 = M_PI / 3 * k, a1 = M_PI / 3 * (k + 1);
        double t[9] = {0, 0, 0, cos(a0), sin(a0), 0, cos(a1), sin(a1), 0};
        if (k == 0) t[3] = 1.0, t[4] = 0.0;
        if (k == 5) t[6] = 1.0, t[7] = 0.0; /* the same vertex (1, 0, 0) bit for bit */
        if (k == 2) t[6] = -1.0, t[7] = 0.0; /* (-1, 0, 0) */
        if (k == 3) t[3] = -1.0, t[4] = 0.0;
        memcpy(xyz + 9 * k, t, sizeof t);
    }
    const double R = 0.1, z = 0.09;
    clab_contact k;
    size_t n = contacts_at(xyz, 6, R, clab_v3(0, 0, z), &k);
    tap_ok(n == 1 && fabs(k.phi - (z - R)) <= 1e-15 && fabs(k.n.z + 1.0) <= 1e-15,
           "sphere over the vertex shared by 6 triangles: one contact, Phi = z - R, n = (0, 0, -1) (got %zu)", n);
    size_t bad = 0, tried = 0;
    for (int i = -8; i <= 8; i++)
        for (int j = -8; j <= 8; j++) {
            const double x = 0.1 * i, y = 0.1 * j;
            if (x * x + y * y > 0.7) continue; /* well inside the hexagon */
            tried++;
            n = contacts_at(xyz, 6, R, clab_v3(x, y, z), &k);
            if (n != 1 || fabs(k.phi - (z - R)) > 1e-15 || fabs(k.n.z + 1.0) > 1e-15) {
                bad++;
                tap_diag("at (%g, %g): %zu contacts, Phi %.17g", x, y, n, n ? k.phi : 0.0);
            }
        }
    tap_ok(bad == 0, "fan: one contact with the plane's Phi and n at all %zu centres of a 0.1 m grid (spokes and "
           "vertex included; %zu wrong)", tried, bad);
    /* on the spoke from (0,0,0) to (1,0,0), exactly */
    n = contacts_at(xyz, 6, R, clab_v3(0.5, 0.0, z), &k);
    tap_ok(n == 1, "fan: one contact over the shared edge y = 0 (got %zu)", n);
}

/* a ridge (convex edge) and a groove (concave): one edge contact over the ridge, two face
 * contacts in the groove */
static void test_ridge_groove(void)
{
    /* two faces meeting at the x axis, sloping down (ridge) at 30 degrees */
    const double s = sin(M_PI / 6), c = cos(M_PI / 6);
    const double ridge[18] = {0, 0, 0, 1, 0, 0, 0, c, -s, 0, 0, 0, 0, -c, -s, 1, 0, 0};
    clab_contact k;
    size_t n = contacts_at(ridge, 2, 0.1, clab_v3(0.5, 0.01, 0.095), &k);
    const double dist = sqrt(0.01 * 0.01 + 0.095 * 0.095);
    tap_ok(n == 1 && fabs(k.phi - (dist - 0.1)) <= 1e-15, "ridge: one contact on the shared edge, Phi = %.17g "
           "(closed form |c - p| - R = %.17g; %zu contacts)", n ? k.phi : 0.0, dist - 0.1, n);
    /* the groove: the same faces sloping up; a sphere on the axis touches both at distance
     * z cos 30 from each */
    const double groove[18] = {0, 0, 0, 1, 0, 0, 0, c, s, 0, 0, 0, 0, -c, s, 1, 0, 0};
    clab_world *w = sphere_and_mesh(0.1, clab_v3(0.5, 0.0, 0.11), groove, 2);
    clab_collider *cd = clab_collider_create();
    clab_contacts cs;
    clab_contacts_init(&cs);
    clab_error err;
    clab_collide(cd, w, 0.0, &cs, &err);
    const double phi = 0.11 * c - 0.1;
    tap_ok(cs.n == 2 && fabs(cs.c[0].phi - phi) <= 1e-15 && fabs(cs.c[1].phi - phi) <= 1e-15,
           "groove: two face contacts, Phi = z cos 30 - R = %.17g each (%zu contacts)", phi, cs.n);
    clab_contacts_free(&cs);
    clab_collider_destroy(cd);
    clab_world_destroy(w);
}

/* the square floor [-1, 1]^2 as two triangles along the diagonal y = x */
static const double floor2[18] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, -1, 0, 1, 1, 0, -1, 1, 0};

static clab_world *floor_world(int mesh, clab_vec3 r, clab_vec3 v)
{
    clab_world *w = clab_world_create(NULL);
    add_sphere(w, 0.1, 1000.0, r, v, clab_v3(0, 0, 0));
    if (mesh) {
        clab_mesh_def d = clab_default_mesh_def();
        snprintf(d.name, sizeof d.name, "floor");
        d.xyz = floor2;
        d.ntri = 2;
        clab_world_add_mesh(w, &d, NULL);
    } else {
        add_plane(w, clab_q_identity());
    }
    return w;
}

/* a sphere on the mesh floor and on the plane, same start, both backends: F_n = m g at rest,
 * and the same single contact (gap and normal) at every step */
static void test_rest_and_roll(const char *backend, const char *const *opts, double h, int steps, int roll, double ftol)
{
    const clab_vec3 r0 = roll ? clab_v3(-0.6, -0.2, 0.0999) : clab_v3(0.3, -0.2, 0.0999);
    const clab_vec3 v0 = roll ? clab_v3(1.0, 0.0, 0.0) : clab_v3(0, 0, 0);
    clab_world *wp = floor_world(0, r0, v0), *wm = floor_world(1, r0, v0);
    clab_sim *sp = sim_with(wp, backend, h, opts), *sm = sim_with(wm, backend, h, opts);
    if (!sp || !sm) return;
    clab_error err;
    int nbad = 0, ntri[2] = {0, 0};
    double dmax = 0.0, fmax_diff = 0.0;
    clab_vec3 fp[4], fm[4];
    for (int s = 0; s < steps; s++) {
        if (clab_sim_step(sp, &err) || clab_sim_step(sm, &err)) {
            tap_diag("step: %s", err.msg);
            break;
        }
        if (sp->contacts.n != sm->contacts.n || sm->contacts.n > 1) {
            if (nbad < 5)
                tap_diag("step %d: %zu contacts on the plane, %zu on the mesh (sphere at %.17g %.17g %.17g)", s,
                         sp->contacts.n, sm->contacts.n, wm->bodies[0].r.x, wm->bodies[0].r.y, wm->bodies[0].r.z);
            nbad++;
            continue;
        }
        if (sm->contacts.n == 0) continue; /* in the air (the start's small overlap pushes it up) */
        clab_sim_forces(sp, fp);
        clab_sim_forces(sm, fm);
        const clab_contact *a = &sp->contacts.c[0], *b = &sm->contacts.c[0];
        ntri[b->b == 2]++;
        dmax = fmax(dmax, fmax(fabs(a->phi - b->phi), clab_v3_norm(clab_v3_sub(a->n, b->n))));
        fmax_diff = fmax(fmax_diff, fabs(fp[0].x - fm[0].x));
    }
    const double mg0 = wm->bodies[0].m * 9.81;
    const clab_body *bm = &wm->bodies[0];
    const double mg = bm->m * 9.81;
    clab_sim_forces(sm, fm);
    char what[160];
    snprintf(what, sizeof what, "%s, %s: F_n on the mesh floor at the end = m g", backend, roll ? "rolling" : "resting");
    tap_rel(sm->contacts.n == 1 ? fm[0].x : 0.0, mg, ftol > 1e-9 ? 1e-3 : 1e-6, what);
    tap_ok(nbad == 0, "%s, %s: on the mesh at most one contact and as many as on the plane at every step (%d steps "
           "not)", backend,
           roll ? "rolling" : "resting", nbad);
    const double dtol = ftol > 1e-9 ? 1e-6 : 1e-9;
    tap_ok(dmax <= dtol, "%s, %s: mesh contact = plane contact (Phi, n) at every step: largest difference %.3g "
           "<= %g", backend, roll ? "rolling" : "resting", dmax, dtol);
    tap_ok(fmax_diff <= ftol * mg0, "%s, %s: F_n on the mesh = F_n on the plane at every step (no jump at the joint): "
           "largest difference %.3g N <= %g m g", backend, roll ? "rolling" : "resting", fmax_diff, ftol);
    if (roll)
        tap_ok(ntri[0] > 0 && ntri[1] > 0, "%s: the sphere crossed the joint (%d steps on one triangle, %d on the other)",
               backend, ntri[0], ntri[1]);
    clab_sim_destroy(sp);
    clab_sim_destroy(sm);
    clab_world_destroy(wp);
    clab_world_destroy(wm);
}

static void scene_case(const char *text, const char *want, const char *what)
{
    char p[128];
    path_of(p, sizeof p, "scene.cfg");
    write_file("scene.cfg", text, strlen(text));
    clab_scene sc;
    clab_error err;
    int rc = clab_scene_load(p, &sc, &err);
    if (!want) {
        tap_ok(rc == 0, "scene %s loads (%s)", what, rc ? err.msg : "ok");
        if (!rc) tap_ok(sc.world->nbodies == 3 && sc.world->bodies[1].shape.type == CLAB_SHAPE_TRIANGLE &&
                            sc.world->bodies[2].r.z == 0.5,
                        "scene %s: a sphere and 2 triangle bodies, placed at z = 0.5", what);
    } else {
        tap_ok(rc != 0 && strstr(err.msg, want) != NULL, "scene %s refused: \"%s\" (wants \"%s\")", what, err.msg, want);
    }
    clab_scene_free(&sc);
}

static void test_scene(void)
{
    const char *head = "simulation = { backend = \"dvi\"; h = 1e-3; t_end = 0.01; };\n"
                       "bodies = ( { name = \"ball\"; shape = \"sphere\"; radius = 0.1; density = 1000.0; "
                       "position = [0.0, 0.0, 1.0]; } );\n";
    char t[2048];
    snprintf(t, sizeof t, "%smeshes = ( { name = \"floor\"; mesh = \"ascii.stl\"; position = [0.0, 0.0, 0.5]; "
             "scale = 2.0; } );\n", head);
    scene_case(t, NULL, "with an STL mesh (path relative to the scene)");
    snprintf(t, sizeof t, "%smeshes = ( { name = \"floor\"; position = [0.0, 0.0, 0.5]; triangles = ( [0.0, 0.0, 0.0, "
             "1.0, 0.0, 0.0, 0.0, 1.0, 0.0], [1, 0, 0, 1, 1, 0, 0, 1, 0] ); } );\n", head);
    scene_case(t, NULL, "with inline triangles");
    snprintf(t, sizeof t, "%smeshes = ( { name = \"floor\"; } );\n", head);
    scene_case(t, "meshes[0].mesh: missing required field", "without mesh or triangles");
    snprintf(t, sizeof t, "%smeshes = ( { mesh = \"ascii.stl\"; } );\n", head);
    scene_case(t, "meshes[0].name: missing required field", "without a name");
    snprintf(t, sizeof t, "%smeshes = ( { name = \"f\"; mesh = \"ascii.stl\"; triangles = ( [0, 0, 0, 1, 0, 0, 0, 1, "
             "0] ); } );\n", head);
    scene_case(t, "both mesh and triangles given", "with mesh and triangles");
    snprintf(t, sizeof t, "%smeshes = ( { name = \"f\"; mesh = \"syntax.stl\"; } );\n", head);
    scene_case(t, "meshes[0].mesh = \"syntax.stl\": ", "with a broken STL file");
    snprintf(t, sizeof t, "%smeshes = ( { name = \"f\"; mesh = \"none.stl\"; } );\n", head);
    scene_case(t, "cannot open the STL file", "with a missing STL file");
    snprintf(t, sizeof t, "%smeshes = ( { name = \"f\"; triangles = ( [0, 0, 0, 1, 0, 0] ); } );\n", head);
    scene_case(t, "meshes[0].triangles[0]", "with a triangle of 6 numbers");
    snprintf(t, sizeof t, "%smeshes = ( { name = \"f\"; triangles = ( [0, 0, 0, 1, 0, 0, 2, 0, 0] ); } );\n", head);
    scene_case(t, "zero area", "with a zero-area triangle");
    snprintf(t, sizeof t, "%smeshes = ( { name = \"f\"; mesh = \"ascii.stl\"; material = \"rubber\"; } );\n", head);
    scene_case(t, "unknown material", "with an unknown material");
    snprintf(t, sizeof t, "%smeshes = ( { name = \"f\"; mesh = \"ascii.stl\"; scale = 0.0; } );\n", head);
    scene_case(t, "meshes[0].scale", "with scale 0");
    snprintf(t, sizeof t, "%smeshes = ( { name = \"f\"; mesh = \"ascii.stl\"; }, { name = \"f\"; mesh = \"ascii.stl\"; "
             "} );\n", head);
    scene_case(t, "duplicate name", "with two meshes of one name");
    snprintf(t, sizeof t, "simulation = { backend = \"dvi\"; h = 1e-3; t_end = 0.01; };\n"
             "bodies = ( { name = \"brick\"; shape = \"box\"; half = [0.1, 0.1, 0.1]; density = 1000.0; "
             "position = [0.0, 0.0, 1.0]; } );\nmeshes = ( { name = \"f\"; mesh = \"ascii.stl\"; } );\n");
    scene_case(t, "box-triangle contact is not supported", "with a free box and a mesh");
    snprintf(t, sizeof t, "%sbodies = ( { name = \"t\"; shape = \"triangle\"; fixed = true; } );\n",
             "simulation = { backend = \"dvi\"; h = 1e-3; t_end = 0.01; };\n");
    scene_case(t, "unknown shape", "with a body of shape triangle");
}

static void test_vtk_and_clone(void)
{
    clab_world *w = floor_world(1, clab_v3(0, 0, 0.1), clab_v3(0, 0, 0));
    char p[128];
    path_of(p, sizeof p, "shapes.vtk");
    clab_error err;
    int rc = clab_vtk_write_shapes_ordered(w, NULL, p, CLAB_VTK_OVERWRITE, &err);
    char text[4096] = "";
    FILE *f = fopen(p, "r");
    if (f) {
        text[fread(text, 1, sizeof text - 1, f)] = '\0';
        fclose(f);
    }
    tap_ok(rc == 0 && strstr(text, "POINTS 6 double") && strstr(text, "POLYGONS 2 8\n3 0 1 2\n3 3 4 5\n") &&
               strstr(text, "\n-1 -1 0\n1 -1 0\n1 1 0\n"),
           "VTK shapes: the two floor triangles as polygons of 3 points, at their vertices");
    clab_world *c = clab_world_clone(w);
    tap_ok(c && c->meshes && c->meshes != w->meshes && c->meshes->n == 2 &&
               memcmp(c->meshes->t, w->meshes->t, 2 * sizeof *c->meshes->t) == 0,
           "clab_world_clone copies the triangle store");
    clab_world_destroy(c);
    /* a free box with a mesh: refused naming both */
    clab_body_def d = clab_default_body_def();
    snprintf(d.name, sizeof d.name, "brick");
    d.shape = clab_box(0.1, 0.1, 0.1);
    d.r = clab_v3(0, 0, 1);
    rc = clab_world_add_body(w, &d, &err);
    tap_ok(rc < 0 && strstr(err.msg, "body 'brick' and mesh 'floor': box-triangle contact is not supported"),
           "a free box in a mesh world refused: %s", err.msg);
    clab_world_destroy(w);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/clab_test_mesh_XXXXXX");
    if (!mkdtemp(dir)) {
        printf("Bail out! mkdtemp\n");
        return 1;
    }
    test_stl();
    test_features();
    test_fan();
    test_ridge_groove();
    static const char *const pen[] = {"fast=off", NULL}, *const penf[] = {"fast=on", NULL}, *const dvi[] = {NULL};
    /* tolerances: penalty's forces are functions of Phi and n alone, so the same bits up to the
     * rounding of the contact point (1e-9 m g); DVI's iterative solve starts cold on the new
     * triangle's contact (its warm start is keyed by the pair), within 1e-3 m g (and the
     * states then differ by the solver's tolerance: Phi, n within 1e-6). At rest at
     * the end F_n = m g within 1e-6 (penalty) and 1e-3 (the CCP's stabilization leaves a
     * residual oscillation, the same on the plane) */
    test_rest_and_roll("penalty", pen, 1e-5, 40000, 0, 1e-9);
    test_rest_and_roll("penalty", penf, 1e-5, 40000, 0, 1e-9);
    test_rest_and_roll("dvi", dvi, 1e-3, 400, 0, 1e-3);
    test_rest_and_roll("penalty", penf, 1e-5, 80000, 1, 1e-9);
    test_rest_and_roll("dvi", dvi, 1e-3, 800, 1, 1e-3);
    test_scene();
    test_vtk_and_clone();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) tap_diag("could not remove %s", dir);
    return tap_done();
}
