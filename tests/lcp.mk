## tests of the LCP backend (lcp/): Lemke's method against brute force, the LCP data, the
## backend on a plane and an incline (the polyhedral cone's threshold), joints, options
clab_tests += tests/test_lcp tests/test_lcp_backend
tests_test_lcp_LDADD = $(CLAB_LDADD)
tests_test_lcp_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/lcp
tests_test_lcp_backend_LDADD = $(CLAB_LDADD)
