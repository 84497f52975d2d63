## tests of the sample measures (lib/measure.c): stress, solid fraction, coordination
clab_tests += tests/test_measure
tests_test_measure_LDADD = $(CLAB_LDADD)
## contactlab run --contacts and --measure: rows, force sums, the walls' box, bad options (TAP, sh)
TESTS += tests/test_measure_cli.sh
EXTRA_DIST += tests/test_measure_cli.sh tests/scenes/measure_box.cfg
## contactlab prepare: the solid fraction reached, the saved packing loaded by both methods (TAP, sh)
TESTS += tests/test_packing_cli.sh
EXTRA_DIST += tests/test_packing_cli.sh
