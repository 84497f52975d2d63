/* collide_internal.h: the narrow-phase table shared by the collide_*.c files. */
#ifndef CLAB_COLLIDE_INTERNAL_H
#define CLAB_COLLIDE_INTERNAL_H

#include "clab_collide.h"

/* A narrow-phase function: contacts between body a (shape type ta) and body b (type tb),
 * ta <= tb in the table's order; the caller orders the record as a < b afterwards. */
typedef int (*clab_narrow_fn)(const clab_body *A, const clab_body *B, int ia, int ib, double envelope,
                              clab_contacts *out);

/* Fill a record from the two surface points pA (on A) and pB (on B), the unit normal n
 * pointing from A to B and the gap phi; orients it so that a < b (flipping n if needed),
 * builds u, w and the body-frame points, and appends it. */
int clab_emit_contact(const clab_body *A, const clab_body *B, int ia, int ib, clab_vec3 pA, clab_vec3 pB, clab_vec3 n,
                      double phi, unsigned feature, clab_contacts *out);

int clab_collide_sphere_sphere(const clab_body *A, const clab_body *B, int ia, int ib, double env, clab_contacts *out);
int clab_collide_sphere_plane(const clab_body *A, const clab_body *B, int ia, int ib, double env, clab_contacts *out);

#endif
