## tests of the LCP backend (lcp/): Lemke's method against brute force, the LCP data, the
## backend on a plane and an incline (the polyhedral cone's threshold), joints, options
clab_tests += tests/test_lcp tests/test_lcp_backend
clab_tests += tests/test_lcp_reg
noinst_HEADERS += tests/lcp_brute.h
tests_test_lcp_reg_LDADD = $(CLAB_LDADD)
tests_test_lcp_reg_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/lcp
tests_test_lcp_LDADD = $(CLAB_LDADD)
tests_test_lcp_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/lcp
tests_test_lcp_backend_LDADD = $(CLAB_LDADD)
## contactlab cone-error --quick: the polygon's deflection against the closed form (TAP, sh)
TESTS += tests/test_cone_error_cli.sh
EXTRA_DIST += tests/test_cone_error_cli.sh
