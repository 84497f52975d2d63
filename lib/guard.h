/* guard.h: the physics guard's parts (lib/guard.c), private to the driver (lib/sim.c). The
 * guard itself, its options and its bounds: clab_sim_guard in clab_sim.h. */
#ifndef CLAB_GUARD_H
#define CLAB_GUARD_H

#include "clab_sim.h"

/* the defaults: energy 0.5, penetration 0.5, every 10 steps, overlaps refused */
void clab_guard_init(clab_sim_guard *g);

/* The initial placement (contacts c of the world at its start): CLAB_EINVAL naming the pair
 * with the largest overlap beyond CLAB_GUARD_OVERLAP0 x the smaller radius (unless
 * allow_overlap); measures the crowding. Sets placed. */
int clab_guard_placement(clab_sim_guard *g, const clab_world *w, const clab_contacts *c, clab_error *err);

/* The run's start: E0, K_max, lift, the work's integral from the world's state now, and the
 * deepest overlap of its contacts c. */
void clab_guard_begin(clab_sim_guard *g, const clab_world *w, const clab_contacts *c);

/* E_el from the first step's contacts (configuration at the start) and their forces. */
int clab_guard_elastic(clab_sim *s, clab_error *err);

/* The periodic check (after clab_guard_begin): the penetration of contacts c, the crowding,
 * then the energy of the world now. */
int clab_guard_check(clab_sim_guard *g, const clab_world *w, const clab_contacts *c, clab_error *err);

#endif
