## tests of robustness against degenerate and large inputs (issue cases: empty worlds, many
## materials, the threads' wait policy)
clab_tests += tests/test_empty_world
tests_test_empty_world_LDADD = $(CLAB_LDADD)
