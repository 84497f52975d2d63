## the midpoint backend (midpoint/): its local Coulomb solver against closed forms, and the
## scheme's energy behaviour (elastic bounce, slip to roll, resting contacts, the incline)
clab_tests += tests/test_midpoint_local tests/test_midpoint
tests_test_midpoint_local_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/midpoint
tests_test_midpoint_local_LDADD = $(CLAB_LDADD)
tests_test_midpoint_LDADD = $(CLAB_LDADD)
