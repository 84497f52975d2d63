/* vtk.c: legacy VTK (POLYDATA) frames of a world: its spheres as points, its boxes and planes as
 * polygons. Each writer takes the bodies in passes over ranges (clab_vtk_bodies: a section of
 * the file a pass), so a caller that holds them a chunk at a time (the MPI run's rank 0) writes
 * the same bytes as one holding the world; a world is one such source. */
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

/* ---- the bodies by ranges: a world's (with an order), or a caller's (clab_vtk_bodies) ---- */

/* the bodies of a world in a given order (NULL: index order), by ranges */
typedef struct world_src {
    const clab_world *w;
    const size_t *order;
    clab_body *buf; /* [chunk]: the ordered bodies of a range */
} world_src;

static int world_fetch(void *ctx, size_t k0, size_t k1, const clab_body **b, clab_error *err)
{
    (void)err;
    world_src *s = ctx;
    if (!s->order) {
        *b = s->w->bodies + k0;
        return CLAB_OK;
    }
    for (size_t k = k0; k < k1; k++) s->buf[k - k0] = s->w->bodies[s->order[k]];
    *b = s->buf;
    return CLAB_OK;
}

/* A frame's sections (the points, then each data array) each run over all the bodies, and its
 * headers hold counts known only after them: the writers take the bodies in ONE pass (the
 * shapes two: the planes' patch needs the bounded bodies' centroid first), each section into
 * a file of its own (unlinked at once: nothing is left behind), then write the headers and
 * copy the sections in order. A source that gathers its bodies (the MPI run) gathers each
 * once a frame, and no one holds more than a range of them. */
enum { NSEC = 6 };
typedef struct frame_pass frame_pass;
typedef void (*visit_fn)(frame_pass *x, size_t k, const clab_body *b);
struct frame_pass {
    FILE *sec[NSEC];
    const clab_vtk_bodies *s;
    /* the counts and extents; the polygons' first point */
    size_t n, npts, ncells, ntri, nbounded, base;
    clab_vec3 lo, hi, centre_sum, centre;
    double half;
};

/* one pass over the bodies, range by range: visit(x, k, b) for the k-th body written */
static int pass(frame_pass *x, visit_fn visit, clab_error *err)
{
    const clab_vtk_bodies *s = x->s;
    for (size_t k0 = 0; k0 < s->n; k0 += s->chunk) {
        const size_t k1 = s->n - k0 < s->chunk ? s->n : k0 + s->chunk;
        const clab_body *b = NULL;
        const int rc = s->fetch(s->ctx, k0, k1, &b, err);
        if (rc) return rc;
        for (size_t k = k0; k < k1; k++) visit(x, k, &b[k - k0]);
    }
    return CLAB_OK;
}

/* the section files "<tmp>.s<k>", opened and unlinked */
static int open_sections(frame_pass *x, const char *tmp, clab_error *err)
{
    const size_t n = strlen(tmp) + 8;
    char *p = malloc(n);
    if (!p) return clab_error_set(err, CLAB_ENOMEM, "%s: out of memory", tmp);
    int rc = CLAB_OK;
    for (int k = 0; k < NSEC && !rc; k++) {
        snprintf(p, n, "%s.s%d", tmp, k);
        if (!(x->sec[k] = fopen(p, "w+"))) rc = io_error(err, p, "cannot create");
        else remove(p);
    }
    free(p);
    return rc;
}

static void close_sections(frame_pass *x)
{
    for (int k = 0; k < NSEC; k++)
        if (x->sec[k]) fclose(x->sec[k]);
}

/* section k copied to fp; -1 on a read or write error */
static int copy_section(FILE *fp, frame_pass *x, int k)
{
    char buf[65536];
    FILE *f = x->sec[k];
    if (fflush(f) || ferror(f) || fseek(f, 0, SEEK_SET)) return -1;
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        if (fwrite(buf, 1, n, fp) != n) return -1;
    return ferror(f) ? -1 : 0;
}

/* ---- the spheres' frame: header, points, vertex cells, field and point data ---- */

static inline int sphere(const clab_body *b) { return b->shape.type == CLAB_SHAPE_SPHERE; }

/* a sphere's lines of every section: point, radius, velocity, body_id (its place in the order
 * written: with the order of adding, its index unsorted), fixed, omega */
static void sphere_lines(frame_pass *x, size_t k, const clab_body *b)
{
    if (!sphere(b)) return;
    x->n++;
    fprintf(x->sec[0], "%.17g %.17g %.17g\n", b->r.x, b->r.y, b->r.z);
    fprintf(x->sec[1], "%.17g\n", b->shape.radius);
    fprintf(x->sec[2], "%.17g %.17g %.17g\n", b->rdot.x, b->rdot.y, b->rdot.z);
    fprintf(x->sec[3], "%zu\n", k);
    fprintf(x->sec[4], "%d\n", b->fixed);
    const clab_vec3 om = clab_body_omega_world(b); /* A(e) wbar */
    fprintf(x->sec[5], "%.17g %.17g %.17g\n", om.x, om.y, om.z);
}

static int write_frame(FILE *fp, const clab_vtk_bodies *s, const char *tmp, clab_error *err)
{
    frame_pass x = {.s = s};
    int rc = open_sections(&x, tmp, err);
    if (!rc) rc = pass(&x, sphere_lines, err);
    if (rc) {
        close_sections(&x);
        return rc;
    }
    const size_t n = x.n;
    int bad = 0;
    fprintf(fp, "# vtk DataFile Version 3.0\n");
    fprintf(fp, "contactlab spheres, t = %.17g s, step %ld\n", s->t, s->step);
    fprintf(fp, "ASCII\nDATASET POLYDATA\n");
    fprintf(fp, "FIELD FieldData 2\nTIME 1 1 double\n%.17g\nCYCLE 1 1 int\n%ld\n", s->t, s->step);
    fprintf(fp, "POINTS %zu double\n", n);
    bad |= copy_section(fp, &x, 0);
    /* one vertex cell per point, so ParaView shows them without a filter */
    fprintf(fp, "VERTICES %zu %zu\n", n, 2 * n);
    for (size_t k = 0; k < n; k++) fprintf(fp, "1 %zu\n", k);

    /* point data: radius and velocity as the active scalars and vectors (Glyph scales by
     * radius), the rest in a FIELD block, which every legacy reader loads (readers load
     * only the first SCALARS and VECTORS unless told to read all) */
    fprintf(fp, "POINT_DATA %zu\n", n);
    fprintf(fp, "SCALARS radius double 1\nLOOKUP_TABLE default\n");
    bad |= copy_section(fp, &x, 1);
    fprintf(fp, "VECTORS velocity double\n");
    bad |= copy_section(fp, &x, 2);
    fprintf(fp, "FIELD FieldData 3\n");
    fprintf(fp, "body_id 1 %zu int\n", n);
    bad |= copy_section(fp, &x, 3);
    fprintf(fp, "fixed 1 %zu int\n", n);
    bad |= copy_section(fp, &x, 4);
    fprintf(fp, "omega 3 %zu double\n", n);
    bad |= copy_section(fp, &x, 5);
    close_sections(&x);
    return bad ? io_error(err, tmp, "writing the frame's sections failed") : CLAB_OK;
}

/* ---- the other shapes: boxes as six quads, planes as one square patch, mesh triangles ---- */

size_t clab_vtk_count_shapes(const clab_world *w)
{
    size_t n = 0;
    for (size_t i = 0; i < w->nbodies; i++) n += w->bodies[i].shape.type != CLAB_SHAPE_SPHERE;
    return n;
}

/* polygons and corners of a shape: a box 6 quads on 8 corners, a plane 1 quad, a mesh
 * triangle 1 triangle */
static int shape_faces(clab_shape_type t) { return t == CLAB_SHAPE_BOX ? 6 : t == CLAB_SHAPE_PLANE || t == CLAB_SHAPE_TRIANGLE; }
static int shape_points(clab_shape_type t)
{
    return t == CLAB_SHAPE_BOX ? 8 : t == CLAB_SHAPE_PLANE ? 4 : t == CLAB_SHAPE_TRIANGLE ? 3 : 0;
}

/* the first pass of the shapes' frame: the points, polygons and triangles; the bounded bodies'
 * bounding box and the sum of their centres (a plane's patch) */
static void count_shapes(frame_pass *x, size_t k, const clab_body *b)
{
    (void)k;
    const clab_shape_type t = b->shape.type;
    x->npts += (size_t)shape_points(t);
    x->ncells += (size_t)shape_faces(t);
    x->ntri += t == CLAB_SHAPE_TRIANGLE;
    const double rb = clab_shape_bound_radius(&b->shape);
    if (!isfinite(rb)) return;
    x->lo = clab_v3(fmin(x->lo.x, b->r.x - rb), fmin(x->lo.y, b->r.y - rb), fmin(x->lo.z, b->r.z - rb));
    x->hi = clab_v3(fmax(x->hi.x, b->r.x + rb), fmax(x->hi.y, b->r.y + rb), fmax(x->hi.z, b->r.z + rb));
    x->centre_sum = clab_v3_add(x->centre_sum, b->r);
    x->nbounded++;
}

/* half the side of a plane's patch: the half-extent of the bounded bodies' bounding boxes about
 * their centre, at least 1 m when there are none, grown by a tenth so the bodies lie inside;
 * the patch's centre: the bounded bodies' centroid (projected onto each plane, patch_centre) */
static void patch_extent(frame_pass *x)
{
    const double half = fmax(fmax(x->hi.x - x->lo.x, x->hi.y - x->lo.y), x->hi.z - x->lo.z) * 0.55;
    x->half = isfinite(half) && half > 0.0 ? half : 1.0;
    if (x->nbounded) x->centre = clab_v3_scale(x->centre_sum, 1.0 / (double)x->nbounded);
}

/* the patch's centre: the bounded bodies' centroid projected onto the plane of body b (its
 * origin when there are none) */
static clab_vec3 patch_centre(const frame_pass *x, const clab_body *b)
{
    if (x->nbounded == 0) return b->r;
    const clab_vec3 c = x->centre;
    clab_vec3 m = clab_q_rotate(b->e, clab_v3(0, 0, 1)); /* the outward normal */
    return clab_v3_sub(c, clab_v3_scale(m, clab_v3_dot(m, clab_v3_sub(c, b->r))));
}

/* the corners of body b's polygons (8 for a box, 4 for a plane's patch, 3 for a triangle),
 * world frame */
static int shape_corners(const frame_pass *x, const clab_body *b, clab_vec3 *c)
{
    const clab_tri *T = x->s->meshes ? clab_mesh_tri(x->s->meshes, b) : NULL;
    if (T) {
        for (int k = 0; k < 3; k++) c[k] = clab_body_point(b, clab_v3_sub(T->w[k], T->r0));
        return 3;
    }
    if (b->shape.type == CLAB_SHAPE_BOX) {
        const clab_vec3 h = b->shape.half;
        for (int k = 0; k < 8; k++) /* corner k: bit 0 x, bit 1 y, bit 2 z (0: -, 1: +) */
            c[k] = clab_body_point(b, clab_v3(k & 1 ? h.x : -h.x, k & 2 ? h.y : -h.y, k & 4 ? h.z : -h.z));
        return 8;
    }
    /* a plane: the square of side 2 half in its body x-y axes, about the patch centre */
    const double half = x->half;
    const clab_vec3 o = patch_centre(x, b), u = clab_q_rotate(b->e, clab_v3(1, 0, 0)),
                    v = clab_q_rotate(b->e, clab_v3(0, 1, 0));
    for (int k = 0; k < 4; k++)
        c[k] = clab_v3_add(o, clab_v3_add(clab_v3_scale(u, (k == 1 || k == 2) ? half : -half),
                                          clab_v3_scale(v, k >= 2 ? half : -half)));
    return 4;
}

/* a box's six faces as corner indices, each counter-clockwise seen from outside */
static const int box_faces[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};

/* a shape's lines of every section: its corners, its polygons (corner indices from x->base),
 * and per polygon its body's id (its place in the order written, as the spheres' frames number
 * them), fixed flag and velocity */
static void shape_lines(frame_pass *x, size_t k, const clab_body *b)
{
    const clab_shape_type t = b->shape.type;
    if (t == CLAB_SHAPE_SPHERE) return;
    clab_vec3 c[8];
    const int m = shape_corners(x, b, c);
    for (int j = 0; j < m; j++) fprintf(x->sec[0], "%.17g %.17g %.17g\n", c[j].x, c[j].y, c[j].z);
    const size_t base = x->base;
    if (t == CLAB_SHAPE_BOX) {
        for (int f = 0; f < 6; f++)
            fprintf(x->sec[1], "4 %zu %zu %zu %zu\n", base + (size_t)box_faces[f][0], base + (size_t)box_faces[f][1],
                    base + (size_t)box_faces[f][2], base + (size_t)box_faces[f][3]);
    } else if (t == CLAB_SHAPE_PLANE)
        fprintf(x->sec[1], "4 %zu %zu %zu %zu\n", base, base + 1, base + 2, base + 3);
    else if (t == CLAB_SHAPE_TRIANGLE)
        fprintf(x->sec[1], "3 %zu %zu %zu\n", base, base + 1, base + 2);
    x->base += (size_t)shape_points(t);
    for (int f = 0; f < shape_faces(t); f++) {
        fprintf(x->sec[2], "%zu\n", k);
        fprintf(x->sec[3], "%d\n", b->fixed);
        fprintf(x->sec[4], "%.17g %.17g %.17g\n", b->rdot.x, b->rdot.y, b->rdot.z);
    }
}

/* w: a world whose bodies are those of s in another order, the first pass taken over it in its
 * index order (the centroid's sum in that order); NULL: over s */
static int write_shapes_frame(FILE *fp, const clab_vtk_bodies *s, const clab_world *w, const char *tmp,
                              clab_error *err)
{
    frame_pass x = {.s = s};
    x.lo = clab_v3(INFINITY, INFINITY, INFINITY), x.hi = clab_v3(-INFINITY, -INFINITY, -INFINITY);
    int rc = CLAB_OK;
    if (w)
        for (size_t i = 0; i < w->nbodies; i++) count_shapes(&x, i, &w->bodies[i]);
    else rc = pass(&x, count_shapes, err);
    if (!rc) {
        patch_extent(&x);
        rc = open_sections(&x, tmp, err);
    }
    if (!rc) rc = pass(&x, shape_lines, err);
    if (rc) {
        close_sections(&x);
        return rc;
    }
    const size_t ncells = x.ncells;
    int bad = 0;
    fprintf(fp, "# vtk DataFile Version 3.0\n");
    fprintf(fp, "contactlab boxes and planes%s, t = %.17g s, step %ld\n", x.ntri ? " and mesh triangles" : "", s->t,
            s->step);
    fprintf(fp, "ASCII\nDATASET POLYDATA\n");
    fprintf(fp, "FIELD FieldData 2\nTIME 1 1 double\n%.17g\nCYCLE 1 1 int\n%ld\n", s->t, s->step);
    fprintf(fp, "POINTS %zu double\n", x.npts);
    bad |= copy_section(fp, &x, 0);
    fprintf(fp, "POLYGONS %zu %zu\n", ncells, 5 * ncells - x.ntri); /* quads 1 + 4, triangles 1 + 3 */
    bad |= copy_section(fp, &x, 1);
    /* cell data: body_id as the scalars, fixed and velocity in a FIELD block */
    fprintf(fp, "CELL_DATA %zu\n", ncells);
    fprintf(fp, "SCALARS body_id int 1\nLOOKUP_TABLE default\n");
    bad |= copy_section(fp, &x, 2);
    fprintf(fp, "FIELD FieldData 2\nfixed 1 %zu int\n", ncells);
    bad |= copy_section(fp, &x, 3);
    fprintf(fp, "velocity 3 %zu double\n", ncells);
    bad |= copy_section(fp, &x, 4);
    close_sections(&x);
    return bad ? io_error(err, tmp, "writing the frame's sections failed") : CLAB_OK;
}

/* write a frame through a temporary file renamed into place (a reader never sees half a frame) */
static int write_atomic(const clab_vtk_bodies *s, const clab_world *w, const char *path, int flags, int shapes,
                        clab_error *err)
{
    struct stat st;
    if (!(flags & CLAB_VTK_OVERWRITE) && stat(path, &st) == 0)
        return clab_error_set(err, CLAB_EIO, "%s: the file exists; refusing to overwrite (remove it, choose another "
                              "output, or ask for overwriting)", path);
    if (!s->fetch || (s->n && !s->chunk))
        return clab_error_set(err, CLAB_EINVAL, "%s: no bodies to write (no fetch, or chunk 0)", path);
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
    const int frc = shapes ? write_shapes_frame(fp, s, w, tmp, err) : write_frame(fp, s, tmp, err);
    int bad = ferror(fp);
    int e = errno;
    if (fclose(fp) != 0) {
        bad = 1;
        e = errno;
    }
    int rc = frc;
    if (frc)
        remove(tmp); /* (the fetch's error in err) */
    else if (bad) {
        errno = e;
        rc = io_error(err, path, "write failed");
        remove(tmp);
    } else if (rename(tmp, path) != 0) {
        rc = io_error(err, path, "cannot rename the finished frame into place");
        remove(tmp);
    }
    free(tmp);
    return rc;
}

int clab_vtk_write_spheres_by(const clab_vtk_bodies *s, const char *path, int flags, clab_error *err)
{
    return write_atomic(s, NULL, path, flags, 0, err);
}

int clab_vtk_write_shapes_by(const clab_vtk_bodies *s, const char *path, int flags, clab_error *err)
{
    return write_atomic(s, NULL, path, flags, 1, err);
}

/* a world's frame: its bodies in one range (index order) or by chunks of the order given */
enum { WORLD_CHUNK = 4096 };
static int write_world(const clab_world *w, const size_t *order, const char *path, int flags, int shapes,
                       clab_error *err)
{
    world_src ws = {w, order, NULL};
    const size_t chunk = order ? WORLD_CHUNK : (w->nbodies ? w->nbodies : 1);
    if (order && !(ws.buf = malloc(chunk * sizeof *ws.buf))) return clab_error_set(err, CLAB_ENOMEM, "%s: out of memory", path);
    const clab_vtk_bodies s = {w->nbodies, chunk, w->t, w->step, w, world_fetch, &ws};
    const int rc = write_atomic(&s, order ? w : NULL, path, flags, shapes, err);
    free(ws.buf);
    return rc;
}

int clab_vtk_write_shapes_ordered(const clab_world *w, const size_t *order, const char *path, int flags,
                                  clab_error *err)
{
    return write_world(w, order, path, flags, 1, err);
}

int clab_vtk_write_spheres(const clab_world *w, const char *path, int flags, clab_error *err)
{
    return write_world(w, NULL, path, flags, 0, err);
}

int clab_vtk_write_spheres_ordered(const clab_world *w, const size_t *order, const char *path, int flags,
                                   clab_error *err)
{
    return write_world(w, order, path, flags, 0, err);
}

int clab_vtk_frame_path(char *buf, size_t n, const char *dir, const char *prefix, long frame, clab_error *err)
{
    int k = snprintf(buf, n, "%s%s%s_%06ld.vtk", dir && dir[0] ? dir : "", dir && dir[0] ? "/" : "", prefix, frame);
    if (k < 0 || (size_t)k >= n)
        return clab_error_set(err, CLAB_EINVAL, "VTK frame path for '%s' in '%s' is too long (%d characters; "
                              "allowed: < %zu)", prefix, dir ? dir : "", k, n);
    return CLAB_OK;
}
