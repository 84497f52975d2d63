## contactlab hopper: the Beverloo and flow-rate fits, the discharge count, a closed orifice
## that holds its fill under penalty and dvi (experiments/hopper_scene.c, hopper_fit.c)
clab_tests += tests/test_hopper
tests_test_hopper_SOURCES = tests/test_hopper.c experiments/hopper_scene.c experiments/hopper_fit.c
tests_test_hopper_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/experiments
tests_test_hopper_LDADD = $(CLAB_LDADD)
## contactlab hopper --quick: the series' count, the summary and the fit (TAP, sh)
TESTS += tests/test_hopper_cli.sh
EXTRA_DIST += tests/test_hopper_cli.sh
## contactlab hopper: stopped (--stop-after, SIGTERM) and restarted = straight; --fill-from (TAP, sh)
TESTS += tests/test_hopper_restart.sh
EXTRA_DIST += tests/test_hopper_restart.sh
