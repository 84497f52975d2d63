/* sphere_list.h: what the two files of the sphere cell list share (broadphase_spheres.c:
 * steps 1, 2 and 4; sphere_pairs.c: step 3, the pairs cell by cell). Private to them. */
#ifndef CLAB_SPHERE_LIST_H
#define CLAB_SPHERE_LIST_H

#include "broadphase.h"

#define SL_MAX_PLANES 32  /* more half-spaces: the general path */
#define SL_MAX_THREADS 64

typedef struct {
    int body, fixed;
    double m[3]; /* outward normal */
    clab_vec3 r;
} sl_plane;


/* the cell grid: cells per axis, the origin and 1/side of the cell coordinates */
typedef struct {
    long nc[3];
    double base[3], inv[3];
    double side; /* the smallest side [m] */
} sl_grid;

/* what step 1 found over all bodies */
typedef struct {
    sl_plane pl[SL_MAX_PLANES]; /* the half-spaces, in index order */
    int nplanes;
    size_t ns;                  /* spheres */
    double dmin, dmax;          /* range of 2R + M */
    double Rmax;                /* largest radius */
    double big;                 /* largest |x| + |y| + |z| + R */
    double clo[3], chi[3];      /* range of the bounds' centers */
    size_t ntri;                /* triangles (sp->sl_tri) */
} sl_scene;

/* sl_cell of a body that is not a sphere: a half-space, a triangle */
#define SL_CELL_PLANE (-1)
#define SL_CELL_TRI (-2)

/* the plane list slot of half-space body i */
static inline int plane_of(const sl_plane *pl, int i)
{
    int q = 0;
    while (pl[q].body != i) q++;
    return q;
}

/* Step 3: the pairs of the nc cells of gr, cell by cell on T threads (cells handed out
 * dynamically), each sphere's partners j > i into its thread's buffer; tpart[t]: where thread
 * t's partners are. 1 when out of memory */
int clab_sphere_pairs(clab_spheres *sp, const clab_world *w, const sl_grid *gr, long nc, const sl_scene *sc, double M,
                      int T, const int32_t **tpart);

#endif
