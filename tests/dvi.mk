## tests of the DVI backend (dvi/): cone projections, the CCP and its solvers, the time stepper
noinst_HEADERS += tests/pile.h
clab_tests += tests/test_cone tests/test_ccp tests/test_ccp_solvers
tests_test_ccp_solvers_LDADD = $(CLAB_LDADD)
tests_test_cone_LDADD = $(CLAB_LDADD)
tests_test_ccp_LDADD = $(CLAB_LDADD)
clab_tests += tests/test_dvi
tests_test_dvi_LDADD = $(CLAB_LDADD)
clab_tests += tests/test_dvi_backend
tests_test_dvi_backend_LDADD = $(CLAB_LDADD)
clab_tests += tests/test_dvi_exact
tests_test_dvi_exact_LDADD = $(CLAB_LDADD)
## benchmark (not a test): iterations per solver on a settled pile of >= 1000 spheres
noinst_PROGRAMS += tests/bench_dvi_pile
tests_bench_dvi_pile_LDADD = $(CLAB_LDADD)
## the regularized DVI of seed 001 (dvi/regularize.c)
clab_tests += tests/test_dvi_regularized
tests_test_dvi_regularized_LDADD = $(CLAB_LDADD)
## the fast products and the solvers give the same bytes for any number of OpenMP threads
clab_tests += tests/test_ccp_threads
tests_test_ccp_threads_LDADD = $(CLAB_LDADD)
## the fused APGD against a plain transcription of the algorithm (the same iterates to rounding)
clab_tests += tests/test_apgd_reference tests/test_jacobi_reference
tests_test_jacobi_reference_LDADD = $(CLAB_LDADD)
tests_test_apgd_reference_LDADD = $(CLAB_LDADD)
## the plain path (fast=off) against the fast one (fast=on): the same bits, or rounding
clab_tests += tests/test_dvi_plain
tests_test_dvi_plain_LDADD = $(CLAB_LDADD)
## the split solvers (dvi/split.h): jacobi and apgd on P parts give one process's bits (sums=exact)
clab_tests += tests/test_dvi_split
tests_test_dvi_split_LDADD = $(CLAB_LDADD)
## benchmark (not a test): the split solvers on a settled pile, P = 1..4 bricks: bits, traffic
noinst_PROGRAMS += tests/bench_dvi_split
tests_bench_dvi_split_LDADD = $(CLAB_LDADD)
