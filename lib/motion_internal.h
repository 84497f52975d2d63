/* motion_internal.h: the world's copy of its driven bodies and loads (motion.c), for
 * clab_world_clone. */
#ifndef CLAB_MOTION_INTERNAL_H
#define CLAB_MOTION_INTERNAL_H

#include "clab_world.h"

/* c's driven bodies and loads as deep copies of w's (c's own pointers overwritten, not
 * freed); CLAB_ENOMEM with what was copied left for clab_world_destroy(c) to free. */
int clab_drives_copy(clab_world *c, const clab_world *w);

#endif
