/* add_body.h: one body of unit mass added to a test's world (shape, center, orientation,
 * fixed flag); the test stops (exit 99, a hard error for the TAP driver) when the world
 * refuses it. */
#ifndef CLAB_TEST_ADD_BODY_H
#define CLAB_TEST_ADD_BODY_H

#include <stdlib.h>

#include "clab_world.h"
#include "tap.h"

static inline int add(clab_world *w, clab_shape s, clab_vec3 r, clab_quat e, int fixed)
{
    clab_error err;
    clab_body_def d = clab_default_body_def();
    d.shape = s;
    d.r = r;
    d.e = e;
    d.fixed = fixed;
    d.mass = 1.0;
    int k = clab_world_add_body(w, &d, &err);
    if (k < 0) {
        tap_diag("add_body: %s", err.msg);
        exit(99);
    }
    return k;
}

#endif
