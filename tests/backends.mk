## the backend contract (every registered backend) and the penalty backend's plain step
## against its fast path (penalty/step.c, penalty/fast_step.c)
clab_tests += tests/test_backends tests/test_penalty_plain
tests_test_backends_LDADD = $(CLAB_LDADD)
tests_test_penalty_plain_LDADD = $(CLAB_LDADD)
