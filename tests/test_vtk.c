/* test_vtk: legacy VTK frames of sphere scenes (lib/vtk.c).
 * A world of a plane, two spheres and a box is written; the file is parsed back section by
 * section as the legacy VTK 3.0 format defines it (header, POLYDATA, FIELD, POINTS,
 * VERTICES, POINT_DATA with SCALARS, VECTORS and a FIELD block): only the spheres appear, values read
 * back exactly (%.17g), omega is the world-frame A(e) wbar. An existing frame is not
 * overwritten unless asked. */
#include "clab_vtk.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* next line of fp into buf without its newline; 0 at the end */
static int next_line(FILE *fp, char *buf, size_t n)
{
    if (!fgets(buf, (int)n, fp)) return 0;
    buf[strcspn(buf, "\n")] = '\0';
    return 1;
}

/* the boxes and planes frame (clab_vtk_write_shapes_ordered): the plane (body 0) as one
 * patch, the box (body 2, a cube of half side 0.1 at the origin) as six quads whose corners
 * are its 8 corners and whose normals (by the right-hand rule) point out of the box */
static void shapes_frame(const clab_world *w, const char *prefix)
{
    char path[160];
    snprintf(path, sizeof path, "%s_shapes.vtk", prefix);
    remove(path);
    clab_error err;
    tap_ok(clab_vtk_count_shapes(w) == 2, "two bodies that are not spheres (the plane, the box)");
    int st = clab_vtk_write_shapes_ordered(w, NULL, path, 0, &err);
    FILE *fp = st == CLAB_OK ? fopen(path, "r") : NULL;
    char line[512];
    size_t np = 0, nc = 0, nsz = 0;
    int ok = fp != NULL;
    while (ok && next_line(fp, line, sizeof line) && strncmp(line, "POINTS", 6) != 0) {}
    ok = ok && sscanf(line, "POINTS %zu double", &np) == 1 && np == 12;
    tap_ok(ok, "POINTS 12: 4 for the plane's patch, 8 for the box");
    double x[12][3];
    for (size_t k = 0; ok && k < np; k++) ok = fscanf(fp, "%lf %lf %lf\n", &x[k][0], &x[k][1], &x[k][2]) == 3;
    int plane_z = ok, corners = ok;
    for (int k = 0; ok && k < 4; k++) plane_z = plane_z && x[k][2] == 0.0;
    for (int k = 4; ok && k < 12; k++)
        for (int j = 0; j < 3; j++) corners = corners && fabs(fabs(x[k][j]) - 0.1) < 1e-15;
    tap_ok(plane_z && corners, "the patch lies in the plane z = 0, the box's points are its corners (|x_j| = 0.1)");
    ok = ok && fscanf(fp, "POLYGONS %zu %zu\n", &nc, &nsz) == 2 && nc == 7 && nsz == 35;
    tap_ok(ok, "POLYGONS 7 35: the patch and the box's six faces");
    int outward = 0;
    for (size_t c = 0; ok && c < nc; c++) {
        int m, q[4];
        ok = fscanf(fp, "%d %d %d %d %d\n", &m, &q[0], &q[1], &q[2], &q[3]) == 5 && m == 4;
        if (!ok || c == 0) continue;
        double a[3], b[3], cen[3] = {0, 0, 0};
        for (int j = 0; j < 3; j++) {
            a[j] = x[q[1]][j] - x[q[0]][j];
            b[j] = x[q[2]][j] - x[q[0]][j];
            for (int i = 0; i < 4; i++) cen[j] += 0.25 * x[q[i]][j];
        }
        double n[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
        outward += n[0] * cen[0] + n[1] * cen[1] + n[2] * cen[2] > 0.0;
    }
    tap_ok(ok && outward == 6, "each of the box's faces turns its normal outward (%d of 6)", outward);
    int ids[7] = {0};
    ok = ok && next_line(fp, line, sizeof line) && strcmp(line, "CELL_DATA 7") == 0;
    ok = ok && next_line(fp, line, sizeof line) && strcmp(line, "SCALARS body_id int 1") == 0;
    ok = ok && next_line(fp, line, sizeof line);
    for (int c = 0; ok && c < 7; c++) ok = fscanf(fp, "%d\n", &ids[c]) == 1;
    tap_ok(ok && ids[0] == 0 && ids[1] == 2 && ids[6] == 2, "CELL_DATA body_id: 0 for the patch, 2 for the faces");
    if (fp) fclose(fp);
    remove(path);
}

int main(void)
{
    clab_error err;
    clab_world *w = clab_world_create(NULL);
    clab_body_def d = clab_default_body_def();
    d.shape = clab_plane();
    d.fixed = 1;
    clab_world_add_body(w, &d, &err);
    d = clab_default_body_def();
    d.shape = clab_sphere(0.1);
    d.r = clab_v3(0.1, 0.2, 0.3);
    d.rdot = clab_v3(1.0 / 3.0, -2.0, 0.0);
    d.e = clab_q_axis_angle(clab_v3(1, 1, 0), 0.7);
    d.omega = clab_v3(0.5, -0.25, 3.0);
    clab_world_add_body(w, &d, &err);
    d = clab_default_body_def();
    d.shape = clab_box(0.1, 0.1, 0.1);
    clab_world_add_body(w, &d, &err);
    d = clab_default_body_def();
    d.shape = clab_sphere(0.05);
    d.r = clab_v3(-1.0, 0.0, 1e-17);
    d.fixed = 1;
    clab_world_add_body(w, &d, &err);
    w->t = 0.125;
    w->step = 125;

    char path[128];
    char dir[] = ".";
    char prefix[64];
    snprintf(prefix, sizeof prefix, "test_vtk_%ld", (long)getpid());
    tap_ok(clab_vtk_frame_path(path, sizeof path, dir, prefix, 42, &err) == CLAB_OK && strstr(path, "_000042.vtk"),
           "frame path %s", path);
    char tiny[8];
    tap_ok(clab_vtk_frame_path(tiny, sizeof tiny, dir, prefix, 1, &err) == CLAB_EINVAL, "a path too long is refused");
    remove(path);
    int st = clab_vtk_write_spheres(w, path, 0, &err);
    if (!tap_ok(st == CLAB_OK, "write a frame")) tap_diag("%s", err.msg);

    FILE *fp = fopen(path, "r");
    char line[512];
    int ok = fp != NULL;
    ok = ok && next_line(fp, line, sizeof line) && strcmp(line, "# vtk DataFile Version 3.0") == 0;
    tap_ok(ok, "legacy VTK 3.0 header");
    ok = ok && next_line(fp, line, sizeof line) && strstr(line, "t = 0.125 s, step 125");
    ok = ok && next_line(fp, line, sizeof line) && strcmp(line, "ASCII") == 0;
    ok = ok && next_line(fp, line, sizeof line) && strcmp(line, "DATASET POLYDATA") == 0;
    tap_ok(ok, "title with t and step, ASCII, DATASET POLYDATA");
    double t = 0;
    long cyc = 0;
    ok = ok && next_line(fp, line, sizeof line) && strcmp(line, "FIELD FieldData 2") == 0;
    ok = ok && next_line(fp, line, sizeof line) && strcmp(line, "TIME 1 1 double") == 0;
    ok = ok && fscanf(fp, "%lf\n", &t) == 1 && t == 0.125;
    ok = ok && next_line(fp, line, sizeof line) && strcmp(line, "CYCLE 1 1 int") == 0;
    ok = ok && fscanf(fp, "%ld\n", &cyc) == 1 && cyc == 125;
    tap_ok(ok, "field data TIME = 0.125, CYCLE = 125");

    /* points: the two spheres only (bodies 1 and 3), exact */
    size_t n = 0;
    ok = ok && fscanf(fp, "POINTS %zu double\n", &n) == 1 && n == 2;
    double p[2][3] = {{0}};
    for (int i = 0; ok && i < 2; i++) ok = fscanf(fp, "%lf %lf %lf\n", &p[i][0], &p[i][1], &p[i][2]) == 3;
    tap_ok(ok && p[0][0] == 0.1 && p[0][1] == 0.2 && p[0][2] == 0.3 && p[1][0] == -1.0 && p[1][2] == 1e-17,
           "POINTS 2: the sphere centers, bit-exact");
    size_t nv = 0, nsz = 0;
    ok = ok && fscanf(fp, "VERTICES %zu %zu\n", &nv, &nsz) == 2 && nv == 2 && nsz == 4;
    int c0 = -1, i0 = -1, c1 = -1, i1 = -1;
    ok = ok && fscanf(fp, "%d %d\n%d %d\n", &c0, &i0, &c1, &i1) == 4 && c0 == 1 && i0 == 0 && c1 == 1 && i1 == 1;
    tap_ok(ok, "VERTICES 2 4: one vertex cell per point");

    /* point data */
    double r0 = 0, r1 = 0;
    int id0 = -1, id1 = -1, f0 = -1, f1 = -1;
    ok = ok && fscanf(fp, "POINT_DATA %zu\n", &n) == 1 && n == 2;
    ok = ok && next_line(fp, line, sizeof line) && strcmp(line, "SCALARS radius double 1") == 0;
    ok = ok && next_line(fp, line, sizeof line) && strcmp(line, "LOOKUP_TABLE default") == 0;
    ok = ok && fscanf(fp, "%lf\n%lf\n", &r0, &r1) == 2 && r0 == 0.1 && r1 == 0.05;
    tap_ok(ok, "SCALARS radius: 0.1, 0.05");
    double v[3] = {0}, om[3] = {0}, tmp3[3];
    ok = ok && next_line(fp, line, sizeof line) && strcmp(line, "VECTORS velocity double") == 0;
    ok = ok && fscanf(fp, "%lf %lf %lf\n%lf %lf %lf\n", &v[0], &v[1], &v[2], &tmp3[0], &tmp3[1], &tmp3[2]) == 6;
    tap_ok(ok && v[0] == 1.0 / 3.0 && v[1] == -2.0 && v[2] == 0.0, "VECTORS velocity, bit-exact");
    /* the other arrays in a FIELD block (read by every legacy reader) */
    ok = ok && next_line(fp, line, sizeof line) && strcmp(line, "FIELD FieldData 3") == 0;
    ok = ok && next_line(fp, line, sizeof line) && strcmp(line, "body_id 1 2 int") == 0;
    ok = ok && fscanf(fp, "%d\n%d\n", &id0, &id1) == 2 && id0 == 1 && id1 == 3;
    ok = ok && next_line(fp, line, sizeof line) && strcmp(line, "fixed 1 2 int") == 0;
    ok = ok && fscanf(fp, "%d\n%d\n", &f0, &f1) == 2 && f0 == 0 && f1 == 1;
    tap_ok(ok, "field arrays body_id (1, 3: world indices) and fixed (0, 1)");
    ok = ok && next_line(fp, line, sizeof line) && strcmp(line, "omega 3 2 double") == 0;
    ok = ok && fscanf(fp, "%lf %lf %lf\n", &om[0], &om[1], &om[2]) == 3;
    /* the world frame omega given on creation, back through wbar = A^T omega, A wbar:
     * equal to round-off (abs 1e-15) */
    tap_ok(ok && fabs(om[0] - 0.5) < 1e-15 && fabs(om[1] + 0.25) < 1e-15 && fabs(om[2] - 3.0) < 1e-15,
           "field array omega in the world frame (0.5, -0.25, 3) to 1e-15: %.17g %.17g %.17g", om[0], om[1], om[2]);
    if (fp) {
        ok = ok && fscanf(fp, "%lf %lf %lf\n", &tmp3[0], &tmp3[1], &tmp3[2]) == 3 && !next_line(fp, line, sizeof line);
        fclose(fp);
    }
    tap_ok(ok, "nothing after the last section");

    /* in a given order (clab_vtk_write_spheres_ordered): the bodies backwards, 3 2 1 0, so
     * the spheres come as body 3 then body 1, their body_id their places 0 and 2 */
    const size_t back[4] = {3, 2, 1, 0};
    st = clab_vtk_write_spheres_ordered(w, back, path, CLAB_VTK_OVERWRITE, &err);
    fp = st == CLAB_OK ? fopen(path, "r") : NULL;
    ok = fp != NULL;
    int seen_points = 0, seen_ids = 0;
    while (ok && next_line(fp, line, sizeof line)) {
        if (strcmp(line, "POINTS 2 double") == 0)
            seen_points = fscanf(fp, "%lf %lf %lf\n%lf %lf %lf\n", &p[0][0], &p[0][1], &p[0][2], &p[1][0], &p[1][1],
                                 &p[1][2]) == 6;
        else if (strcmp(line, "body_id 1 2 int") == 0)
            seen_ids = fscanf(fp, "%d\n%d\n", &id0, &id1) == 2;
    }
    if (fp) fclose(fp);
    tap_ok(ok && seen_points && seen_ids && p[0][0] == -1.0 && p[0][2] == 1e-17 && p[1][0] == 0.1 && p[1][2] == 0.3 &&
               id0 == 0 && id1 == 2,
           "in the order 3 2 1 0: points of body 3 then body 1, body_id 0 and 2 (their places)");

    /* overwrite policy */
    st = clab_vtk_write_spheres(w, path, 0, &err);
    tap_ok(st == CLAB_EIO && strstr(err.msg, path) && strstr(err.msg, "exists"), "an existing frame is refused");
    tap_ok(clab_vtk_write_spheres(w, path, CLAB_VTK_OVERWRITE, &err) == CLAB_OK, "CLAB_VTK_OVERWRITE replaces it");
    tap_ok(clab_vtk_write_spheres(w, "no_such_dir/f.vtk", 0, &err) == CLAB_EIO && strstr(err.msg, "no_such_dir"),
           "unwritable folder: CLAB_EIO naming the path");
    remove(path);
    shapes_frame(w, prefix);
    clab_world_destroy(w);
    return tap_done();
}
