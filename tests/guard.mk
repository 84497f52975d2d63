## the physics guard of the step driver and the step count (lib/guard.c, lib/sim.c;
## doc/reliability.md, "Runtime guards")
clab_tests += tests/test_guard
tests_test_guard_LDADD = $(CLAB_LDADD)
## the same through contactlab run: refusals, exit status, checkpoint, complete rows (TAP, sh)
TESTS += tests/test_run_guard.sh
EXTRA_DIST += tests/test_run_guard.sh
