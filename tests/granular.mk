## the quasi-static granular tests: their analysis on synthetic curves (experiments/granular_fit.c)
clab_tests += tests/test_granular_fit
tests_test_granular_fit_SOURCES = tests/test_granular_fit.c experiments/granular_fit.c experiments/granular.h
tests_test_granular_fit_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/experiments
tests_test_granular_fit_LDADD = $(CLAB_LDADD)
