/* narrow_pair.h: the narrow phase's pair routines (collide_sphere.c, collide_box.c,
 * collide_box_box.c), the record they append (narrow_emit.c) and the box feature ids.
 * Included by them and by narrow.c, whose dispatch table calls them; they call only
 * clab_emit_contact (narrow_emit.c) below them. */
#ifndef CLAB_NARROW_PAIR_H
#define CLAB_NARROW_PAIR_H

#include "clab_contact.h"
#include "clab_world.h"

/* A narrow-phase function: contacts between body a (shape type ta) and body b (type tb),
 * ta <= tb in the table's order; the caller orders the record as a < b afterwards. */
typedef int (*clab_narrow_fn)(const clab_body *A, const clab_body *B, int ia, int ib, double envelope,
                              clab_contacts *out);

/* Fill a record from the two surface points pA (on A) and pB (on B), the unit normal n
 * pointing from A to B and the gap phi; orients it so that a < b (flipping n if needed),
 * builds the body-frame points, and appends it (u, w follow from n: clab_contact_frame). */
int clab_emit_contact(const clab_body *A, const clab_body *B, int ia, int ib, clab_vec3 pA, clab_vec3 pB, clab_vec3 n,
                      double phi, unsigned feature, clab_contacts *out);

/* collide_sphere.c */
int clab_collide_sphere_sphere(const clab_body *A, const clab_body *B, int ia, int ib, double env, clab_contacts *out);
int clab_collide_sphere_plane(const clab_body *A, const clab_body *B, int ia, int ib, double env, clab_contacts *out);
/* collide_box.c: A is the sphere or the plane, B the box */
int clab_collide_sphere_box(const clab_body *A, const clab_body *B, int ia, int ib, double env, clab_contacts *out);
int clab_collide_plane_box(const clab_body *A, const clab_body *B, int ia, int ib, double env, clab_contacts *out);
/* collide_triangle.c: B is a triangle of a mesh wall (the world holds its vertices), A the
 * body of lower shape type: a sphere (a box: CLAB_EINVAL, not supported) */
int clab_collide_triangle_pair(const clab_world *w, const clab_body *A, const clab_body *B, int ia, int ib,
                               double env, clab_contacts *out);
/* collide_box_box.c */
int clab_collide_box_box(const clab_body *A, const clab_body *B, int ia, int ib, double env, clab_contacts *out);

/* ---- box features: ids of vertices and edges, stable for the contact keys ----
 * vertex k of a box with half extents h: body-frame point (+-h_x, +-h_y, +-h_z), the sign of
 * coordinate c positive when bit c of k is set (k = 0..7).
 * edge along axis c (0..2) whose other coordinates c1 = c+1, c2 = c+2 (mod 3) have signs
 * s1, s2: id 4 c + [s1 > 0] + 2 [s2 > 0] (0..11). */
static inline clab_vec3 clab_box_vertex(clab_vec3 h, unsigned k)
{
    return clab_v3(k & 1u ? h.x : -h.x, k & 2u ? h.y : -h.y, k & 4u ? h.z : -h.z);
}
static inline unsigned clab_box_edge_id(int c, double s1, double s2)
{
    return 4u * (unsigned)c + (s1 > 0.0 ? 1u : 0u) + (s2 > 0.0 ? 2u : 0u);
}

/* box-box feature ids (12 bits, see clab_contact_key): kind in bits 11..10;
 *   kind 0: incident box vertex,       detail = vertex id (0..7)
 *   kind 1: incident edge x side plane, detail = 4 edge id + side (0..47)
 *   kind 2: reference face corner,      detail = corner (0..3)
 * face kinds also carry the reference box (bit 9: 1 when it is b) and its face
 * (bits 8..6: 2 axis + [outward normal along +axis]), detail in bits 5..0;
 *   kind 3: edge-edge, edge of a in bits 7..4, edge of b in bits 3..0. */
enum { CLAB_BB_VERTEX = 0, CLAB_BB_CLIP = 1, CLAB_BB_CORNER = 2, CLAB_BB_EDGE = 3 };
static inline unsigned clab_bb_face_feature(unsigned kind, int ref_is_b, unsigned face, unsigned detail)
{
    return (kind << 10) | ((unsigned)ref_is_b << 9) | (face << 6) | (detail & 63u);
}
static inline unsigned clab_bb_edge_feature(unsigned edge_a, unsigned edge_b)
{
    return ((unsigned)CLAB_BB_EDGE << 10) | (edge_a << 4) | edge_b;
}

#endif
