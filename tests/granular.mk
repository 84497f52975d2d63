## the quasi-static granular tests: their analysis on synthetic curves (experiments/granular_fit.c)
clab_tests += tests/test_granular_fit
tests_test_granular_fit_SOURCES = tests/test_granular_fit.c experiments/granular_fit.c experiments/granular.h
tests_test_granular_fit_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/experiments
tests_test_granular_fit_LDADD = $(CLAB_LDADD)
## the direct shear and triaxial commands, their --quick forms (TAP, sh)
TESTS += tests/test_shear_cli.sh tests/test_triaxial_cli.sh
EXTRA_DIST += tests/test_shear_cli.sh tests/test_triaxial_cli.sh
