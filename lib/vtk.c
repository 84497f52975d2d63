/* vtk.c: legacy VTK (POLYDATA) frames of the spheres of a world */
#include "clab_vtk.h"

#include <errno.h>
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

int clab_vtk_write_spheres(const clab_world *w, const char *path, int flags, clab_error *err)
{
    return clab_vtk_write_spheres_ordered(w, NULL, path, flags, err);
}

int clab_vtk_write_spheres_ordered(const clab_world *w, const size_t *order, const char *path, int flags,
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
    write_frame(fp, w, order);
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
