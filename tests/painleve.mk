## Painleve's sliding rod: the analytic region (lib/analytic_painleve.c) and contactlab painleve
clab_tests += tests/test_painleve
tests_test_painleve_LDADD = $(CLAB_LDADD)
