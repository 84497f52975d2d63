## what contactlab run and the experiments write and say: restarts with other values, --force,
## the run's columns, names, shapes frames, summary and figure, help and messages (TAP, sh)
TESTS += tests/test_run_cli.sh
EXTRA_DIST += tests/test_run_cli.sh
