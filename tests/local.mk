## tests/: one TAP program per module (make check); each fragment adds its own
noinst_HEADERS += tests/tap.h tests/add_body.h tests/contact_scene.h
TESTS += $(clab_tests)
check_PROGRAMS += $(clab_tests)
clab_tests =

include tests/lib.mk
include tests/collide.mk
include tests/periodic.mk
include tests/scene.mk
include tests/dvi.mk
include tests/lcp.mk
include tests/penalty.mk
include tests/backends.mk
include tests/midpoint.mk
include tests/experiments_a.mk
include tests/experiments_b.mk
include tests/reliability.mk
include tests/guard.mk
include tests/lammps.mk
include tests/install.mk
include tests/cli.mk
include tests/robust.mk
include tests/measure.mk
include tests/painleve.mk
include tests/validate.mk
include tests/driven.mk
include tests/conewave.mk
include tests/hopper.mk
include tests/fclib.mk
include tests/granular.mk
