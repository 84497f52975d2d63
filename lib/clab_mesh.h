/* clab_mesh.h: triangle-mesh walls and the STL reader.
 *
 * A mesh is a named group of triangles; each triangle is a fixed body of its own (shape
 * CLAB_SHAPE_TRIANGLE), so it goes into the broad phase like a box and a driven motion given
 * to every body of the mesh moves the whole wall. Its body frame has the world's axes
 * (e = 1) and its origin r at the centre of the triangle's bounding box; the vertices
 * (relative to r), the unit normal and the feature data live in the world's triangle store,
 * computed when the mesh is added:
 *
 *  - vertices are welded by exact equality of their coordinates (an STL file repeats a shared
 *    vertex bit for bit); an edge is a pair of welded vertices, shared by the triangles that
 *    have both;
 *  - every edge and every vertex is owned by exactly one triangle: the first (lowest index)
 *    of the mesh that has it. Only the owner reports a contact on that feature;
 *  - the owner keeps the feature's region tests: a list of vectors g, the feature's region of
 *    the mesh being { x : (x - X) . g <= 0 for every g } (X the edge's anchor vertex or the
 *    vertex). For an edge, g = -beta' for every other triangle at the edge (beta' its in-plane
 *    outward normal there): the sphere center is not over that triangle's side of the edge.
 *    For a vertex, g = W - V for every edge (V, W) at it: the center is beyond every edge's
 *    end, so no edge or face of the mesh is closer.
 *
 * Walls are two-sided with zero thickness (the normal points from the closest point of the
 * triangle to the sphere center, on either side). doc/design.md ("Triangle-mesh walls") gives
 * the contact rule. */
#ifndef CLAB_MESH_H
#define CLAB_MESH_H

#include <stddef.h>
#include <stdint.h>

#include "clab_world.h"

/* one triangle of the store. Its tests are computed in the frame of the mesh as loaded
 * (world coordinates at the start; a triangle body moved by r - r0 is brought back by that),
 * from the welded vertex coordinates, so that two triangles sharing a vertex or an edge
 * compute the same numbers from the same doubles and decide a shared feature alike. */
typedef struct clab_tri {
    clab_vec3 w[3];    /* vertices as loaded (welded coordinates) [m] */
    clab_vec3 n;       /* unit normal (w1 - w0) x (w2 - w0) / |...| */
    clab_vec3 beta[3]; /* in-plane outward normal at edge k (w_k w_k+1); across a flat joint the
                        * negative of the owner's, bit for bit */
    clab_vec3 r0;      /* the body's r when loaded */
    unsigned own;      /* bit f: the triangle owns feature f (edges 0..2; vertices 3..5: w_f-3) */
    unsigned char anchor[3]; /* edge k's side test is anchored at w[anchor[k]] (the lower welded id) */
    uint32_t reg[7];   /* region vectors of feature f: the store's g[reg[f] .. reg[f+1]) */
    int mesh;          /* index of its mesh */
} clab_tri;

/* the world's triangle store (clab_world.meshes) */
typedef struct clab_meshes {
    clab_tri *t;      /* [n] */
    size_t n, cap;
    clab_vec3 *g;     /* [ng] region vectors, frame as loaded */
    size_t ng, capg;
    char (*name)[CLAB_NAME_LEN]; /* [nmesh] mesh names */
    size_t nmesh, capm;
} clab_meshes;

/* A mesh to add: ntri triangles, xyz[9 k .. 9 k + 8] the three vertices of triangle k, placed
 * at x = r + A(e) (scale x_file). */
typedef struct clab_mesh_def {
    char name[CLAB_NAME_LEN]; /* required; its triangles are the bodies "<name>.<k>" */
    const double *xyz;        /* [9 ntri] vertices, mesh frame [m before scale] */
    size_t ntri;
    double scale;             /* > 0, default 1 */
    clab_vec3 r;              /* translation [m] */
    clab_quat e;              /* rotation (normalized here) */
    int material;             /* material index, default 0 */
} clab_mesh_def;

clab_mesh_def clab_default_mesh_def(void);

/* Add a mesh wall: one fixed body a triangle, in order, after the bodies there are. Returns
 * the index of its first body, or -1 with err set: no triangles, a non-finite coordinate, a
 * zero-area triangle (refused, naming it), a duplicate name, or a free box in the world
 * (box-triangle contact is not supported). */
int clab_world_add_mesh(clab_world *w, const clab_mesh_def *def, clab_error *err);

/* The triangle store entry of body b (NULL when b is no triangle). */
const clab_tri *clab_mesh_tri(const clab_world *w, const clab_body *b);

/* Deep copy and free of a store (clab_world_clone, clab_world_destroy). */
clab_meshes *clab_meshes_clone(const clab_meshes *m);
void clab_meshes_free(clab_meshes *m);

/* Read an STL file, ASCII ("solid" ... "endsolid") or binary (80-byte header, uint32 count,
 * 50 bytes a triangle): *xyz gets 9 *ntri coordinates (malloc'd; the caller frees), the
 * facet normals are ignored (the winding is not used: walls are two-sided). Errors name the
 * file and what is wrong: empty file, truncated binary, a triangle count that does not match
 * the file size, an ASCII syntax error (with its line), a non-finite coordinate or a
 * zero-area triangle (with its facet number, from 1). */
int clab_stl_read(const char *path, double **xyz, size_t *ntri, clab_error *err);
/* The same from a buffer of n bytes (name in messages). */
int clab_stl_parse(const char *buf, size_t n, const char *name, double **xyz, size_t *ntri, clab_error *err);

/* zero-area test shared by the reader and clab_world_add_mesh: |ab x ac| <= 1e-12 of the
 * largest squared edge (or not finite) */
int clab_tri_degenerate(const double *v9);

#endif
