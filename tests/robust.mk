## robustness against degenerate and large inputs: worlds with nothing to do
## (test_empty_world), scenes of many materials (test_many_materials), the threads' wait
## policy of the contactlab program (test_wait_policy.sh)
clab_tests += tests/test_empty_world tests/test_many_materials
tests_test_empty_world_LDADD = $(CLAB_LDADD)
tests_test_many_materials_LDADD = $(CLAB_LDADD)
TESTS += tests/test_wait_policy.sh
EXTRA_DIST += tests/test_wait_policy.sh
