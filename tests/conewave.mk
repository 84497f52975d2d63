## contactlab cone and wave: the penetrometer mesh and the force on it, arrival detection on
## synthetic signals, a 1-D Hertz chain against Nesterenko (test_conewave); the --quick runs (sh)
clab_tests += tests/test_conewave
tests_test_conewave_SOURCES = tests/test_conewave.c experiments/cone_mesh.c experiments/wave_fit.c
tests_test_conewave_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/experiments
tests_test_conewave_LDADD = $(CLAB_LDADD)
TESTS += tests/test_conewave_cli.sh
EXTRA_DIST += tests/test_conewave_cli.sh
TESTS += tests/test_conewave_restart.sh
EXTRA_DIST += tests/test_conewave_restart.sh
