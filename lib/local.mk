## lib/: the shared layer (math, bodies, shapes, materials, contacts, collision, world, sim)
libcontactlab_la_SOURCES += \
	lib/error.c \
	lib/clock.c \
	lib/shape.c \
	lib/material.c \
	lib/body.c \
	lib/contact.c \
	lib/world.c \
	lib/world_order.c \
	lib/options.c \
	lib/backend.c \
	lib/sim.c \
	lib/guard.c \
	lib/collide.c \
	lib/narrow.c \
	lib/narrow_emit.c \
	lib/collide_sphere.c \
	lib/collide_box.c \
	lib/collide_box_box.c \
	lib/collide_triangle.c \
	lib/mesh.c \
	lib/stl.c \
	lib/pairlist.c \
	lib/skin.c \
	lib/broadphase_spheres.c \
	lib/sphere_pairs.c \
	lib/grid.c \
	lib/analytic.c \
	lib/measure.c \
	lib/measure_volume.c \
	lib/analytic_painleve.c \
	lib/xsum.c

## driven bodies, applied loads, servo walls, the force on a body
libcontactlab_la_SOURCES += lib/motion.c lib/servo.c lib/body_force.c
pkginclude_HEADERS += lib/clab_motion.h
noinst_HEADERS += lib/motion_internal.h
noinst_HEADERS += lib/clab_backend_keyed.h

pkginclude_HEADERS += \
	lib/contactlab.h \
	lib/clab_math.h \
	lib/clab_error.h \
	lib/clab_shape.h \
	lib/clab_material.h \
	lib/clab_body.h \
	lib/clab_contact.h \
	lib/clab_joint.h \
	lib/clab_world.h \
	lib/clab_options.h \
	lib/clab_backend.h \
	lib/clab_backends.h \
	lib/clab_collide.h \
	lib/clab_sim.h \
	lib/clab_analytic.h \
	lib/clab_measure.h \
	lib/clab_mesh.h

## internal: the hot loops' helpers (SIMD selects, prefetch, inlining), timers, lanes, balance,
## the fast paths' hooks and the collider's thread partition
noinst_HEADERS += lib/clab_simd.h lib/clab_clock.h lib/clab_v2.h lib/clab_balance.h lib/clab_backend_fast.h \
	lib/clab_partition.h lib/guard.h lib/clab_xsum.h
## the collision layer's private headers, top to bottom (collide_internal.h draws the flow)
noinst_HEADERS += lib/collide_internal.h lib/narrow.h lib/narrow_pair.h lib/broadphase.h lib/sphere_list.h \
	lib/collide_common.h

## scenes and output: scene files (libconfig), CSV series, VTK frames
libcontactlab_la_SOURCES += lib/scene.c lib/scene_read.c lib/scene_joints.c lib/csv.c lib/vtk.c lib/scene_mesh.c
libcontactlab_la_SOURCES += lib/scene_motion.c
pkginclude_HEADERS += lib/clab_scene.h lib/clab_csv.h lib/clab_vtk.h
noinst_HEADERS += lib/scene_internal.h

## checkpoint and restart (zlib's CRC-32)
libcontactlab_la_SOURCES += lib/checkpoint.c lib/checkpoint_read.c
noinst_HEADERS += lib/checkpoint_internal.h
pkginclude_HEADERS += lib/clab_checkpoint.h

## LAMMPS data files (atom_style sphere) into a world (doc/lammps.md)
libcontactlab_la_SOURCES += lib/lammps_data.c lib/scene_lammps.c
pkginclude_HEADERS += lib/clab_lammps.h
