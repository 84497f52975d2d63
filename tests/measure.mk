## tests of the sample measures (lib/measure.c): stress, solid fraction, coordination
clab_tests += tests/test_measure
tests_test_measure_LDADD = $(CLAB_LDADD)
