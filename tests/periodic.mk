## tests of periodic boundaries, the Verlet skin and threading of the collision layer and
## the penalty hot path
clab_tests += tests/test_periodic
tests_test_periodic_LDADD = $(CLAB_LDADD)
clab_tests += tests/test_skin
tests_test_skin_LDADD = $(CLAB_LDADD)
clab_tests += tests/test_threads
tests_test_threads_LDADD = $(CLAB_LDADD)
clab_tests += tests/test_sort
tests_test_sort_LDADD = $(CLAB_LDADD)
clab_tests += tests/test_prepare
tests_test_prepare_LDADD = $(CLAB_LDADD)
noinst_HEADERS += tests/packing.h tests/fixed_jacobi.h
