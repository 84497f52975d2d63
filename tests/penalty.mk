## tests of the penalty (DEM) backend (penalty/)
clab_tests += tests/test_penalty_force_law tests/test_penalty_history tests/test_penalty_impact \
	tests/test_penalty_friction tests/test_penalty_backend tests/test_penalty_lanes tests/test_penalty_sliding
tests_test_penalty_force_law_LDADD = $(CLAB_LDADD)
tests_test_penalty_history_LDADD = $(CLAB_LDADD)
tests_test_penalty_impact_LDADD = $(CLAB_LDADD)
tests_test_penalty_friction_LDADD = $(CLAB_LDADD)
tests_test_penalty_backend_LDADD = $(CLAB_LDADD)
tests_test_penalty_lanes_LDADD = $(CLAB_LDADD)
tests_test_penalty_sliding_LDADD = $(CLAB_LDADD)
