/* clab_lammps.h: import a LAMMPS data file of atom_style sphere (the packings users bring
 * from LAMMPS and LIGGGHTS) into a clab_world.
 *
 * The file (LAMMPS manual, read_data): a title line; header lines "N atoms", "N atom types",
 * "xlo xhi", "ylo yhi", "zlo zhi" (other counts must be 0: no bonds, no ellipsoids; a
 * triclinic "xy xz yz" box is refused); then sections, each a keyword line, a blank line and
 * one line per entry:
 *
 *   Atoms        id type diameter density x y z [ix iy iz]
 *   Velocities   id vx vy vz wx wy wz        (optional: absent = at rest)
 *
 * '#' starts a comment anywhere; blank lines are skipped; "Atoms # sphere" may name the style
 * (any other style is refused). Sections Masses, Pair Coeffs and PairIJ Coeffs are skipped
 * (sphere masses come from diameter and density); any other section is refused.
 *
 * Each atom becomes a sphere of radius d/2 and mass density pi d^3/6 (the LAMMPS convention,
 * so I = 2/5 m (d/2)^2 as compute erotate/sphere has it); a point particle (d = 0) is refused.
 * Bodies are added in increasing atom id, so body first + k holds the k-th smallest id
 * (info->id lists them). Positions are taken as written (wrapped into the box); the image
 * flags are read and checked but not applied. Angular velocities are in the world frame.
 * Units are whatever the file uses: contactlab takes numbers as they come (SI in its
 * defaults, reduced units work when every number is consistent).
 *
 * Every error names the file, the line and what is wrong. */
#ifndef CLAB_LAMMPS_H
#define CLAB_LAMMPS_H

#include <stddef.h>

#include "clab_error.h"
#include "clab_world.h"

typedef struct clab_lammps_def {
    /* materials: type_material[t] is the material index of atom type t (1..ntypes; entry 0
     * unused), for t < ntype_material. NULL (or a type past the end): the importer adds a
     * material "lammps_type<t>", a copy of *material (NULL: clab_default_material()), or
     * reuses one of that name. */
    const int *type_material;
    size_t ntype_material;
    const clab_material *material;
    /* fixed atoms: type_fixed[t] != 0 fixes every atom of type t (t < ntype_fixed); the
     * callback, when set, decides instead, per atom (id, type) */
    const int *type_fixed;
    size_t ntype_fixed;
    int (*fixed)(long id, int type, void *ctx);
    void *ctx;
    /* periodic[k] != 0: make axis k (x, y, z) periodic on the box bounds
     * (clab_world_set_periodic) */
    int periodic[3];
} clab_lammps_def;

/* What was read. */
typedef struct clab_lammps_info {
    double lo[3], hi[3]; /* box bounds xlo xhi, ylo yhi, zlo zhi */
    long natoms;         /* atoms read (= the header's count) */
    int ntypes;          /* atom types of the header */
    long nvelocities;    /* Velocities lines read (0 when the section is absent) */
    long nfixed;         /* atoms made fixed */
    size_t first;        /* index of the first body added */
    long *id;            /* [natoms] LAMMPS atom id of body first + k, increasing (owned) */
} clab_lammps_info;

/* Definition with defaults: no mapping (a material per type), nothing fixed, not periodic. */
clab_lammps_def clab_lammps_default_def(void);

/* Read the data file at path and add its atoms to w (def NULL: defaults). On success fills
 * *info (may be NULL; free with clab_lammps_info_free). On failure returns CLAB_EIO (cannot
 * read), CLAB_EINVAL (bad file: err says "path:line: what") or CLAB_ENOMEM; bodies and
 * materials already added stay in w (callers normally discard the world). */
int clab_lammps_read_data(const char *path, clab_world *w, const clab_lammps_def *def, clab_lammps_info *info,
                          clab_error *err);

/* The same from text in memory; name labels the messages (NULL: "<string>"). */
int clab_lammps_read_data_string(const char *text, const char *name, clab_world *w, const clab_lammps_def *def,
                                 clab_lammps_info *info, clab_error *err);

void clab_lammps_info_free(clab_lammps_info *info);

#endif
