/* clab_shape.h: collision shapes, attached to a body and described in its frame. */
#ifndef CLAB_SHAPE_H
#define CLAB_SHAPE_H

#include "clab_math.h"

typedef enum {
    CLAB_SHAPE_SPHERE = 0, /* radius */
    CLAB_SHAPE_PLANE = 1,  /* half-space: boundary through the body origin, outward normal
                              A(e) (0,0,1), solid below; infinite, so kept out of the grid */
    CLAB_SHAPE_BOX = 2,    /* half extents along the body axes */
    CLAB_SHAPE_TRIANGLE = 3, /* one triangle of a mesh wall (clab_mesh.h): vertices in the world's
                                triangle store, entry tri; always fixed (or driven) */
    CLAB_SHAPE_COUNT
} clab_shape_type;

typedef struct clab_shape {
    clab_shape_type type;
    int tri;        /* triangle: its entry in the world's triangle store (clab_world.meshes) */
    double radius;  /* sphere radius [m]; triangle: largest distance of a vertex from the origin */
    clab_vec3 half; /* box half extents [m]; triangle: half extents of its bounding box (body axes) */
} clab_shape;

/* "sphere", "plane", "box", "triangle" */
const char *clab_shape_name(clab_shape_type t);
/* Parse a shape name; returns -1 when unknown. */
int clab_shape_from_name(const char *name);
/* Volume [m^3] (infinite shapes: 0). */
double clab_shape_volume(const clab_shape *s);
/* Principal moments of inertia of a solid of unit mass [m^2] (multiply by the mass). */
clab_vec3 clab_shape_unit_inertia(const clab_shape *s);
/* Radius of the bounding sphere about the body origin [m] (planes: INFINITY). */
double clab_shape_bound_radius(const clab_shape *s);

#endif
