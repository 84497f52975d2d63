/* shape.c: shape properties (volume, inertia, bounds) */
#include "clab_shape.h"

#include <string.h>

static const char *const shape_names[CLAB_SHAPE_COUNT] = {"sphere", "plane", "box", "triangle"};

const char *clab_shape_name(clab_shape_type t)
{
    return (t >= 0 && t < CLAB_SHAPE_COUNT) ? shape_names[t] : "unknown";
}

int clab_shape_from_name(const char *name)
{
    for (int t = 0; t < CLAB_SHAPE_COUNT; t++)
        if (name && strcmp(name, shape_names[t]) == 0) return t;
    return -1;
}

double clab_shape_volume(const clab_shape *s)
{
    switch (s->type) {
    case CLAB_SHAPE_SPHERE: return 4.0 / 3.0 * M_PI * s->radius * s->radius * s->radius;
    case CLAB_SHAPE_BOX: return 8.0 * s->half.x * s->half.y * s->half.z;
    default: return 0.0;
    }
}

clab_vec3 clab_shape_unit_inertia(const clab_shape *s)
{
    switch (s->type) {
    case CLAB_SHAPE_SPHERE: {
        double j = 0.4 * s->radius * s->radius; /* 2/5 m R^2 */
        return clab_v3(j, j, j);
    }
    case CLAB_SHAPE_BOX: {
        double x2 = 4.0 * s->half.x * s->half.x, y2 = 4.0 * s->half.y * s->half.y,
               z2 = 4.0 * s->half.z * s->half.z; /* full edge lengths squared */
        return clab_v3((y2 + z2) / 12.0, (x2 + z2) / 12.0, (x2 + y2) / 12.0);
    }
    default: return clab_v3(1.0, 1.0, 1.0); /* planes are fixed: any positive value */
    }
}

double clab_shape_bound_radius(const clab_shape *s)
{
    switch (s->type) {
    case CLAB_SHAPE_SPHERE: return s->radius;
    case CLAB_SHAPE_BOX: return clab_v3_norm(s->half);
    case CLAB_SHAPE_TRIANGLE: return s->radius;
    default: return INFINITY;
    }
}
