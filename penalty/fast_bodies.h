/* fast_bodies.h: the penalty fast path's passes over the bodies (fast_bodies.c): the gather of
 * what its contact loop reads, before it, and the body loop after it (each body's sums, its
 * update, and, fused, the driver's periodic wrap and state screen). For fast_step.c only. */
#ifndef CLAB_PENALTY_FAST_BODIES_H
#define CLAB_PENALTY_FAST_BODIES_H

#include "fast_scatter.h"

/* what the body loop reads (clab_penalty_fast_step's locals) */
typedef struct body_loop {
    clab_world *w;
    const pen_body *pb;
    const unsigned char *still; /* sphere_orientation=off: still_of each body */
    const clab_contact *cc;
    const clab_lever *lv; /* the contacts' side array (levers of the sides other than spheres) */
    const clab_vec3 *Fc, *Mr;
    by_b lb;                        /* the lists by b (not with acc) */
    const uint32_t *alist, *astart; /* contacts not in order of a: lists by a; NULL when they are */
    pen_acc *acc; /* the sums contact_scatter (split_scatter and split_add) formed (cleared here as they
                   * are read, every body's); NULL: formed here from the lists */
    size_t nc;
    const clab_periodic *per;
    const double *wlo, *whi; /* the box along the periodic axes, all space along the others */
    double h, v2lim;
    clab_penalty_integrator scheme;
    int surface, rolling, first, wrap, screen;
} body_loop;

/* what the contact loop reads of bodies [i0, i1) into pb (fast_bodies.c: gather_range_of);
 * returns 1 when a body of the range has a material other than m0. _still: with
 * sphere_orientation=off, each body's still_of into still too */
int clab_penalty_fast_gather(const clab_world *w, pen_body *pb, int m0, size_t i0, size_t i1);
int clab_penalty_fast_gather_still(const clab_world *w, pen_body *pb, unsigned char *still, int m0, size_t i0,
                                   size_t i1);
/* the body loop on bodies [i0, i1) (fast_bodies.c: body_range_of); returns 1 when some body
 * is suspect (L->screen). _still: with sphere_orientation=off */
int clab_penalty_fast_bodies(const body_loop *L, size_t i0, size_t i1);
int clab_penalty_fast_bodies_still(const body_loop *L, size_t i0, size_t i1);
/* the same in a world with loads: their kicks first (clab_penalty_load_kick), then either of
 * the two (L->still is set with sphere_orientation=off only) */
int clab_penalty_fast_bodies_loaded(const body_loop *L, size_t i0, size_t i1);
/* the first body of thread t's share of the nb bodies, T threads sharing the body loop's work
 * about equally */
size_t clab_penalty_fast_body_cut(const body_loop *L, size_t nb, int t, int T);

#endif
