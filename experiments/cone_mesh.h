/* cone_mesh.h: the penetrometer of `contactlab cone` as a triangle mesh, and the contact force
 * on a mesh (cone_mesh.c). */
#ifndef CLAB_CONE_MESH_H
#define CLAB_CONE_MESH_H

#include <stddef.h>

#include "clab_sim.h"

/* A cone of apex angle 2 alpha (60 degrees: alpha = 30 degrees) on a cylindrical shaft of
 * radius Rc, axis z, tip at the origin pointing down:
 *     cone  z = r / tan(alpha), 0 <= r <= Rc, up to the cone height Hc = Rc / tan(alpha);
 *     shaft r = Rc, Hc <= z <= Hc + Ls;  closed at the top by a flat cap.
 * nseg segments around: the cone is nseg triangles (apex, ring k, ring k+1), the shaft 2 nseg
 * (each quad split along a diagonal), the cap nseg - 2 (a fan). The rings' vertices are
 * computed once and shared, so the mesh is welded. Triangles 0 .. nseg-1 are the cone (the
 * tip), the rest the shaft and the cap. Returns the number of triangles, xyz (malloc'd, 9 a
 * triangle) filled; 0 when out of memory or the arguments are bad (nseg < 3, Rc or Ls <= 0,
 * alpha not in (0, pi/2)). */
size_t xp_cone_mesh(double Rc, double alpha, double Ls, int nseg, double **xyz);

/* The contact force F [N] and torque T [N m, about the point o] of the last step on the n
 * bodies first .. first + n - 1 (a mesh's triangles): the sum of clab_sim_body_forces over
 * them, each triangle's torque moved from its center r to o (T + (r - o) x F). F or T may be
 * NULL. CLAB_OK, CLAB_ENOMEM, CLAB_EINVAL (bodies out of range). */
int xp_mesh_force(clab_sim *s, size_t first, size_t n, clab_vec3 o, clab_vec3 *F, clab_vec3 *T, clab_error *err);

#endif
