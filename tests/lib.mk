## tests of the shared layer (lib/)
clab_tests += tests/test_math tests/test_body
tests_test_math_LDADD = $(CLAB_LDADD)
tests_test_body_LDADD = $(CLAB_LDADD)
## the option list's hash lookups at scale and its insertion order (lib/options.c)
clab_tests += tests/test_options
tests_test_options_LDADD = $(CLAB_LDADD)
## exact, order-independent sums (lib/xsum.c): what makes reductions across ranks match one process
clab_tests += tests/test_xsum
tests_test_xsum_LDADD = $(CLAB_LDADD)
