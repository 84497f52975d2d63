/* clab_vtk.h: legacy VTK files of a world's bodies, for ParaView.
 *
 * One file per output frame: the spheres of the world as POLYDATA points (one vertex
 * cell each) with the point data radius (m, the active scalars), velocity (m/s, the active
 * vectors), body_id, fixed and omega (world frame, rad/s), and the field data TIME (s)
 * and CYCLE (step). Boxes and planes go to a companion file of polygons
 * (clab_vtk_write_shapes_ordered). (Checked with VTK 9.1's
 * vtkPolyDataReader, the legacy reader ParaView uses: every array loads.) In ParaView: open the numbered series ball_000000.vtk, ball_000001.vtk, ...
 * as one time series, then apply the Glyph filter (Sphere, Scale Array = radius, Scale
 * Factor = 2) to see the spheres. */
#ifndef CLAB_VTK_H
#define CLAB_VTK_H

#include <stddef.h>

#include "clab_error.h"
#include "clab_world.h"

/* clab_vtk_write_spheres flags */
#define CLAB_VTK_OVERWRITE 1 /* replace an existing file (default: refuse, CLAB_EIO) */

/* Write the spheres of w to path (ASCII legacy VTK 3.0, doubles printed with %.17g).
 * The file is written under a temporary name and renamed into place when complete, so a
 * reader never sees half a frame. Returns CLAB_OK, or CLAB_EIO with the path. */
int clab_vtk_write_spheres(const clab_world *w, const char *path, int flags, clab_error *err);

/* The same with the bodies in a given order: the k-th written is body order[k] (NULL: k), and
 * its body_id is k. With the order of adding (clab_world_add_order), a run that sorts its
 * bodies writes the frames it would write unsorted: the same points in the same order. */
int clab_vtk_write_spheres_ordered(const clab_world *w, const size_t *order, const char *path, int flags,
                                   clab_error *err);

/* The bodies of w that are not spheres: how many (0: no shapes frame to write). */
size_t clab_vtk_count_shapes(const clab_world *w);

/* Write the boxes and planes of w to path, a companion of the spheres' frame (same format,
 * atomic write and flags): POLYDATA polygons, a box as its six faces (8 points), a plane as
 * one square patch in its body x-y axes (it is infinite: the patch is centred on the bounded
 * bodies' centroid projected onto it, its side 1.1 times their bounding box's largest side,
 * 2 m when there are none), with the cell data body_id (the scalars: the body's place in
 * the order written), fixed and velocity (m/s, world). In ParaView open it beside the
 * spheres' series; no filter is needed. */
int clab_vtk_write_shapes_ordered(const clab_world *w, const size_t *order, const char *path, int flags,
                                  clab_error *err);

/* ---- the same frames from bodies given by ranges (a caller that does not hold them all) ----
 *
 * The writers take the bodies in ranges [k0, k1) of at most `chunk` bodies in the order written,
 * through fetch: it points *b at the k1 - k0 bodies (valid until its next call) or returns an
 * error (in err), which ends the write (no file left). The legacy format writes each section
 * (points, then each data array) over all the bodies: the writers put each section into a file
 * of its own beside the frame's (unlinked at once) and join them, so they take the bodies in
 * one pass (the shapes' frame in two: the planes' patch is centred on the bounded bodies'
 * centroid). A frame from a source is byte for byte the frame of a world holding the same
 * bodies in that order (the functions above are these writers over a world). */
typedef int (*clab_vtk_fetch_fn)(void *ctx, size_t k0, size_t k1, const clab_body **b, clab_error *err);
typedef struct clab_vtk_bodies {
    size_t n;                 /* bodies */
    size_t chunk;             /* the most bodies a fetch (> 0) */
    double t;                 /* the frame's time [s] (TIME) */
    long step;                /* and step (CYCLE) */
    const clab_world *meshes; /* a world whose mesh store holds the triangles' vertices (NULL: none) */
    clab_vtk_fetch_fn fetch;
    void *ctx;
} clab_vtk_bodies;

/* clab_vtk_write_spheres_ordered's and clab_vtk_write_shapes_ordered's frames of such bodies
 * (the same format, atomic write and flags) */
int clab_vtk_write_spheres_by(const clab_vtk_bodies *s, const char *path, int flags, clab_error *err);
int clab_vtk_write_shapes_by(const clab_vtk_bodies *s, const char *path, int flags, clab_error *err);

/* "<dir>/<prefix>_<frame, six digits>.vtk" into buf (n bytes); CLAB_EINVAL when it does not fit. */
int clab_vtk_frame_path(char *buf, size_t n, const char *dir, const char *prefix, long frame, clab_error *err);

#endif
