/* clab_joint.h: bilateral constraints g(q) = 0 (seed 000, Eq. (3a)), solved by the DVI
 * backend through G lambda in the same CCP (Eq. (8)); the penalty backend rejects them. */
#ifndef CLAB_JOINT_H
#define CLAB_JOINT_H

#include "clab_math.h"

typedef enum {
    CLAB_JOINT_SPHERICAL = 0, /* point-to-point: r_a + A_a sbar_a = r_b + A_b sbar_b (3 rows) */
    CLAB_JOINT_DISTANCE = 1,  /* |r_b + A_b sbar_b - r_a - A_a sbar_a| = length (1 row) */
    CLAB_JOINT_COUNT
} clab_joint_type;

typedef struct clab_joint {
    clab_joint_type type;
    int a, b;         /* body indices (a may be a fixed body) */
    clab_vec3 sa, sb; /* attachment points in the body frames [m] */
    double length;    /* distance constraint length [m] */
} clab_joint;

const char *clab_joint_name(clab_joint_type t);
int clab_joint_from_name(const char *name); /* -1 when unknown */
static inline int clab_joint_rows(clab_joint_type t) { return t == CLAB_JOINT_SPHERICAL ? 3 : 1; }

#endif
