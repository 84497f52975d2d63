/* vtk.c: legacy VTK (POLYDATA) frames of a world: its spheres as points, its boxes and planes as polygons */
#include "clab_vtk.h"
#include "clab_mesh.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int io_error(clab_error *err, const char *path, const char *what)
{
    char e[96];
    if (strerror_r(errno, e, sizeof e) != 0) snprintf(e, sizeof e, "error %d", errno);
    return clab_error_set(err, CLAB_EIO, "%s: %s: %s", path, what, e);
}

/* the frame itself: header, points, vertex cells, field and point data */
/* the body written k-th: order[k] (NULL: k) */
static inline size_t at(const size_t *order, size_t k) { return order ? order[k] : k; }

static void write_frame(FILE *fp, const clab_world *w, const size_t *order)
{
    const size_t nb = w->nbodies;
    size_t n = 0;
    for (size_t i = 0; i < nb; i++) n += w->bodies[i].shape.type == CLAB_SHAPE_SPHERE;

    fprintf(fp, "# vtk DataFile Version 3.0\n");
    fprintf(fp, "contactlab spheres, t = %.17g s, step %ld\n", w->t, w->step);
    fprintf(fp, "ASCII\nDATASET POLYDATA\n");
    fprintf(fp, "FIELD FieldData 2\nTIME 1 1 double\n%.17g\nCYCLE 1 1 int\n%ld\n", w->t, w->step);
    fprintf(fp, "POINTS %zu double\n", n);
    for (size_t k = 0; k < nb; k++) {
        const clab_body *b = &w->bodies[at(order, k)];
        if (b->shape.type == CLAB_SHAPE_SPHERE) fprintf(fp, "%.17g %.17g %.17g\n", b->r.x, b->r.y, b->r.z);
    }
    /* one vertex cell per point, so ParaView shows them without a filter */
    fprintf(fp, "VERTICES %zu %zu\n", n, 2 * n);
    for (size_t k = 0; k < n; k++) fprintf(fp, "1 %zu\n", k);

    /* point data: radius and velocity as the active scalars and vectors (Glyph scales by
     * radius), the rest in a FIELD block, which every legacy reader loads (readers load
     * only the first SCALARS and VECTORS unless told to read all) */
    fprintf(fp, "POINT_DATA %zu\n", n);
    fprintf(fp, "SCALARS radius double 1\nLOOKUP_TABLE default\n");
    for (size_t k = 0; k < nb; k++) {
        const clab_body *b = &w->bodies[at(order, k)];
        if (b->shape.type == CLAB_SHAPE_SPHERE) fprintf(fp, "%.17g\n", b->shape.radius);
    }
    fprintf(fp, "VECTORS velocity double\n");
    for (size_t k = 0; k < nb; k++) {
        const clab_body *b = &w->bodies[at(order, k)];
        if (b->shape.type == CLAB_SHAPE_SPHERE) fprintf(fp, "%.17g %.17g %.17g\n", b->rdot.x, b->rdot.y, b->rdot.z);
    }
    fprintf(fp, "FIELD FieldData 3\n");
    fprintf(fp, "body_id 1 %zu int\n", n);
    for (size_t k = 0; k < nb; k++) /* its place in the order written: with the order of adding, its index unsorted */
        if (w->bodies[at(order, k)].shape.type == CLAB_SHAPE_SPHERE) fprintf(fp, "%zu\n", k);
    fprintf(fp, "fixed 1 %zu int\n", n);
    for (size_t k = 0; k < nb; k++) {
        const clab_body *b = &w->bodies[at(order, k)];
        if (b->shape.type == CLAB_SHAPE_SPHERE) fprintf(fp, "%d\n", b->fixed);
    }
    fprintf(fp, "omega 3 %zu double\n", n);
    for (size_t k = 0; k < nb; k++) {
        const clab_body *b = &w->bodies[at(order, k)];
        if (b->shape.type != CLAB_SHAPE_SPHERE) continue;
        clab_vec3 om = clab_body_omega_world(b); /* A(e) wbar */
        fprintf(fp, "%.17g %.17g %.17g\n", om.x, om.y, om.z);
    }
}

/* ---- the other shapes: boxes as six quads, planes as one square patch, mesh triangles ---- */

size_t clab_vtk_count_shapes(const clab_world *w)
{
    size_t n = 0;
    for (size_t i = 0; i < w->nbodies; i++) n += w->bodies[i].shape.type != CLAB_SHAPE_SPHERE;
    return n;
}

/* half the side of a plane's patch: the half-extent of the bounded bodies' bounding boxes about
 * their centre, at least 1 m when there are none, grown by a tenth so the bodies lie inside */
static double patch_half(const clab_world *w)
{
    clab_vec3 lo = clab_v3(INFINITY, INFINITY, INFINITY), hi = clab_v3(-INFINITY, -INFINITY, -INFINITY);
    for (size_t i = 0; i < w->nbodies; i++) {
        const clab_body *b = &w->bodies[i];
        double rb = clab_shape_bound_radius(&b->shape);
        if (!isfinite(rb)) continue;
        lo = clab_v3(fmin(lo.x, b->r.x - rb), fmin(lo.y, b->r.y - rb), fmin(lo.z, b->r.z - rb));
        hi = clab_v3(fmax(hi.x, b->r.x + rb), fmax(hi.y, b->r.y + rb), fmax(hi.z, b->r.z + rb));
    }
    double half = fmax(fmax(hi.x - lo.x, hi.y - lo.y), hi.z - lo.z) * 0.55;
    return isfinite(half) && half > 0.0 ? half : 1.0;
}

/* the patch's centre: the bounded bodies' centroid projected onto the plane of body b (its
 * origin when there are none) */
static clab_vec3 patch_centre(const clab_world *w, const clab_body *b)
{
    clab_vec3 c = clab_v3(0, 0, 0);
    size_t n = 0;
    for (size_t i = 0; i < w->nbodies; i++)
        if (isfinite(clab_shape_bound_radius(&w->bodies[i].shape))) {
            c = clab_v3_add(c, w->bodies[i].r);
            n++;
        }
    if (n == 0) return b->r;
    c = clab_v3_scale(c, 1.0 / (double)n);
    clab_vec3 m = clab_q_rotate(b->e, clab_v3(0, 0, 1)); /* the outward normal */
    return clab_v3_sub(c, clab_v3_scale(m, clab_v3_dot(m, clab_v3_sub(c, b->r))));
}

/* polygons and corners of a shape: a box 6 quads on 8 corners, a plane 1 quad, a mesh
 * triangle 1 triangle */
static int shape_faces(clab_shape_type t) { return t == CLAB_SHAPE_BOX ? 6 : t == CLAB_SHAPE_PLANE || t == CLAB_SHAPE_TRIANGLE; }
static int shape_points(clab_shape_type t)
{
    return t == CLAB_SHAPE_BOX ? 8 : t == CLAB_SHAPE_PLANE ? 4 : t == CLAB_SHAPE_TRIANGLE ? 3 : 0;
}

/* the corners of body b's polygons (8 for a box, 4 for a plane's patch, 3 for a triangle),
 * world frame */
static int shape_corners(const clab_world *w, const clab_body *b, double half, clab_vec3 *x)
{
    const clab_tri *T = clab_mesh_tri(w, b);
    if (T) {
        for (int k = 0; k < 3; k++) x[k] = clab_body_point(b, clab_v3_sub(T->w[k], T->r0));
        return 3;
    }
    if (b->shape.type == CLAB_SHAPE_BOX) {
        const clab_vec3 h = b->shape.half;
        for (int k = 0; k < 8; k++) /* corner k: bit 0 x, bit 1 y, bit 2 z (0: -, 1: +) */
            x[k] = clab_body_point(b, clab_v3(k & 1 ? h.x : -h.x, k & 2 ? h.y : -h.y, k & 4 ? h.z : -h.z));
        return 8;
    }
    /* a plane: the square of side 2 half in its body x-y axes, about the patch centre */
    const clab_vec3 c = patch_centre(w, b), u = clab_q_rotate(b->e, clab_v3(1, 0, 0)),
                    v = clab_q_rotate(b->e, clab_v3(0, 1, 0));
    for (int k = 0; k < 4; k++)
        x[k] = clab_v3_add(c, clab_v3_add(clab_v3_scale(u, (k == 1 || k == 2) ? half : -half),
                                          clab_v3_scale(v, k >= 2 ? half : -half)));
    return 4;
}

/* a box's six faces as corner indices, each counter-clockwise seen from outside */
static const int box_faces[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};

static void write_shapes_frame(FILE *fp, const clab_world *w, const size_t *order)
{
    const size_t nb = w->nbodies;
    const double half = patch_half(w);
    size_t npts = 0, ncells = 0, ntri = 0;
    for (size_t i = 0; i < nb; i++) {
        clab_shape_type t = w->bodies[i].shape.type;
        npts += (size_t)shape_points(t);
        ncells += (size_t)shape_faces(t);
        ntri += t == CLAB_SHAPE_TRIANGLE;
    }
    fprintf(fp, "# vtk DataFile Version 3.0\n");
    fprintf(fp, "contactlab boxes and planes%s, t = %.17g s, step %ld\n", ntri ? " and mesh triangles" : "", w->t,
            w->step);
    fprintf(fp, "ASCII\nDATASET POLYDATA\n");
    fprintf(fp, "FIELD FieldData 2\nTIME 1 1 double\n%.17g\nCYCLE 1 1 int\n%ld\n", w->t, w->step);
    fprintf(fp, "POINTS %zu double\n", npts);
    clab_vec3 x[8];
    for (size_t k = 0; k < nb; k++) {
        const clab_body *b = &w->bodies[at(order, k)];
        if (b->shape.type == CLAB_SHAPE_SPHERE) continue;
        int m = shape_corners(w, b, half, x);
        for (int j = 0; j < m; j++) fprintf(fp, "%.17g %.17g %.17g\n", x[j].x, x[j].y, x[j].z);
    }
    fprintf(fp, "POLYGONS %zu %zu\n", ncells, 5 * ncells - ntri); /* quads 1 + 4, triangles 1 + 3 */
    size_t base = 0;
    for (size_t k = 0; k < nb; k++) {
        const clab_body *b = &w->bodies[at(order, k)];
        if (b->shape.type == CLAB_SHAPE_BOX) {
            for (int f = 0; f < 6; f++)
                fprintf(fp, "4 %zu %zu %zu %zu\n", base + (size_t)box_faces[f][0], base + (size_t)box_faces[f][1],
                        base + (size_t)box_faces[f][2], base + (size_t)box_faces[f][3]);
            base += 8;
        } else if (b->shape.type == CLAB_SHAPE_PLANE) {
            fprintf(fp, "4 %zu %zu %zu %zu\n", base, base + 1, base + 2, base + 3);
            base += 4;
        } else if (b->shape.type == CLAB_SHAPE_TRIANGLE) {
            fprintf(fp, "3 %zu %zu %zu\n", base, base + 1, base + 2);
            base += 3;
        }
    }
    /* cell data: each face carries its body's id (its place in the order written, as the
     * spheres' frames number them), fixed flag and velocity */
    fprintf(fp, "CELL_DATA %zu\n", ncells);
    fprintf(fp, "SCALARS body_id int 1\nLOOKUP_TABLE default\n");
    for (size_t k = 0; k < nb; k++) {
        clab_shape_type t = w->bodies[at(order, k)].shape.type;
        for (int f = 0; f < shape_faces(t); f++) fprintf(fp, "%zu\n", k);
    }
    fprintf(fp, "FIELD FieldData 2\nfixed 1 %zu int\n", ncells);
    for (size_t k = 0; k < nb; k++) {
        const clab_body *b = &w->bodies[at(order, k)];
        for (int f = 0; f < shape_faces(b->shape.type); f++)
            fprintf(fp, "%d\n", b->fixed);
    }
    fprintf(fp, "velocity 3 %zu double\n", ncells);
    for (size_t k = 0; k < nb; k++) {
        const clab_body *b = &w->bodies[at(order, k)];
        for (int f = 0; f < shape_faces(b->shape.type); f++)
            fprintf(fp, "%.17g %.17g %.17g\n", b->rdot.x, b->rdot.y, b->rdot.z);
    }
}

/* write a frame through a temporary file renamed into place (a reader never sees half a frame) */
static int write_atomic(const clab_world *w, const size_t *order, const char *path, int flags, int shapes,
                        clab_error *err);

int clab_vtk_write_shapes_ordered(const clab_world *w, const size_t *order, const char *path, int flags,
                                  clab_error *err)
{
    return write_atomic(w, order, path, flags, 1, err);
}

int clab_vtk_write_spheres(const clab_world *w, const char *path, int flags, clab_error *err)
{
    return clab_vtk_write_spheres_ordered(w, NULL, path, flags, err);
}

int clab_vtk_write_spheres_ordered(const clab_world *w, const size_t *order, const char *path, int flags,
                                   clab_error *err)
{
    return write_atomic(w, order, path, flags, 0, err);
}

static int write_atomic(const clab_world *w, const size_t *order, const char *path, int flags, int shapes,
                        clab_error *err)
{
    struct stat st;
    if (!(flags & CLAB_VTK_OVERWRITE) && stat(path, &st) == 0)
        return clab_error_set(err, CLAB_EIO, "%s: the file exists; refusing to overwrite (remove it, choose another "
                              "output, or ask for overwriting)", path);
    size_t len = strlen(path);
    char *tmp = malloc(len + 16);
    if (!tmp) return clab_error_set(err, CLAB_ENOMEM, "%s: out of memory", path);
    snprintf(tmp, len + 16, "%s.tmp%ld", path, (long)getpid());

    FILE *fp = fopen(tmp, "w");
    if (!fp) {
        int s = io_error(err, tmp, "cannot create");
        free(tmp);
        return s;
    }
    if (shapes) write_shapes_frame(fp, w, order);
    else write_frame(fp, w, order);
    int bad = ferror(fp);
    int e = errno;
    if (fclose(fp) != 0) {
        bad = 1;
        e = errno;
    }
    int s = CLAB_OK;
    if (bad) {
        errno = e;
        s = io_error(err, path, "write failed");
        remove(tmp);
    } else if (rename(tmp, path) != 0) {
        s = io_error(err, path, "cannot rename the finished frame into place");
        remove(tmp);
    }
    free(tmp);
    return s;
}

int clab_vtk_frame_path(char *buf, size_t n, const char *dir, const char *prefix, long frame, clab_error *err)
{
    int k = snprintf(buf, n, "%s%s%s_%06ld.vtk", dir && dir[0] ? dir : "", dir && dir[0] ? "/" : "", prefix, frame);
    if (k < 0 || (size_t)k >= n)
        return clab_error_set(err, CLAB_EINVAL, "VTK frame path for '%s' in '%s' is too long (%d characters; "
                              "allowed: < %zu)", prefix, dir ? dir : "", k, n);
    return CLAB_OK;
}
