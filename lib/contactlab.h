/* contactlab.h: the whole public API in one include.
 *
 *     #include <contactlab/contactlab.h>
 *     cc my.c $(pkg-config --cflags --libs contactlab)
 *
 * A world of bodies and materials (clab_world.h), a simulation stepping it with a contact
 * method, penalty (DEM) or DVI (clab_sim.h), scene files (clab_scene.h), output as CSV series
 * and VTK frames (clab_csv.h, clab_vtk.h), checkpoints (clab_checkpoint.h) and LAMMPS data
 * files (clab_lammps.h), a granular sample's stress, solid fraction and coordination numbers
 * (clab_measure.h), and the closed-form references the experiments and tests check
 * against (clab_analytic.h). examples/ball.c is a complete program. */
#ifndef CONTACTLAB_H
#define CONTACTLAB_H

#include "clab_error.h"
#include "clab_math.h"
#include "clab_shape.h"
#include "clab_material.h"
#include "clab_body.h"
#include "clab_joint.h"
#include "clab_world.h"
#include "clab_motion.h"
#include "clab_contact.h"
#include "clab_options.h"
#include "clab_backend.h"
#include "clab_backends.h"
#include "clab_collide.h"
#include "clab_sim.h"
#include "clab_scene.h"
#include "clab_csv.h"
#include "clab_vtk.h"
#include "clab_checkpoint.h"
#include "clab_lammps.h"
#include "clab_analytic.h"
#include "clab_measure.h"

#endif
