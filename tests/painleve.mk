## Painleve's sliding rod: the analytic region (lib/analytic_painleve.c) and contactlab painleve
clab_tests += tests/test_painleve
tests_test_painleve_LDADD = $(CLAB_LDADD)
## contactlab painleve --quick: the tangential impact of the rigid methods, the penalty spikes,
## the region CSV and the --points errors (TAP, sh)
TESTS += tests/test_painleve_cli.sh
EXTRA_DIST += tests/test_painleve_cli.sh
