/* collide_internal.h: the collision driver's private header (collide.c), the top of the
 * collision layer: the collider is the broad phase's state (broadphase.h) and the narrow
 * phase's (narrow.h) side by side, and the driver's own. Tests and benchmarks that reach
 * inside the collider (clab_broadphase_kept, general_only) include it too. The layers below
 * include none of this.
 *
 *   collide.c              driver: clab_collide(_with), the collider's life, clab_broadphase
 *      |  \
 *      |   narrow.c        narrow phase: dispatch table, sphere rows, threads' record buffers
 *      |     |  \
 *      |     |   collide_sphere.c, collide_box.c, collide_box_box.c -> narrow_emit.c
 *      |     v
 *   pairlist.c             the kept list: skin test or rebuild (broad phase)
 *      |-- skin.c          Verlet skin, hot records
 *      |-- broadphase_spheres.c   sphere cell list -> sphere_pairs.c
 *      '-- grid.c          general grid, clab_collide_bounds, clab_broadphase_test
 * (narrow.c reads the broad phase's types, calls none of its functions.) */
#ifndef CLAB_COLLIDE_INTERNAL_H
#define CLAB_COLLIDE_INTERNAL_H

#include "narrow.h"

struct clab_collider {
    clab_broad broad;   /* grid, sphere list, skin, kept rows, statistics */
    clab_narrow narrow; /* the narrow phase's per-build caches and threads' buffers */
    int general_only;   /* tests: 1 = the kept list always takes the general grid */
    /* clab_contacts.low of the kept list [cap_low]: for low_n bodies, made from the list of
     * build number low_build (collide.c: pair_low) */
    uint32_t *low;
    size_t cap_low, low_n, low_build;
};

/* The candidate pairs for clab_collide (clab_broad_list without scratch or visit): the kept
 * list of the last build while no body has moved more than skin/2 since, else a new build.
 * *list points into the collider, valid until the next broad-phase call. */
int clab_broadphase_kept(clab_collider *cd, const clab_world *w, double margin, clab_pair_list *list,
                         clab_error *err);

#endif
