## reliability: checkpoint/restart, input validation, determinism, valgrind, fuzzing
## (doc/reliability.md)
clab_tests += tests/test_checkpoint tests/test_validation
tests_test_checkpoint_LDADD = $(CLAB_LDADD)
tests_test_validation_LDADD = $(CLAB_LDADD)
## contactlab run end to end: determinism, restart, signals, the runtime guard (TAP, sh)
TESTS += tests/test_determinism.sh
EXTRA_DIST += tests/test_determinism.sh
## the experiments' checkpoints: --stop-after, SIGINT, SIGTERM + --restart = straight (TAP, sh)
TESTS += tests/test_xp_restart.sh
EXTRA_DIST += tests/test_xp_restart.sh
## contactlab bench's command line (TAP, sh; runs no benchmark)
TESTS += tests/test_bench_cli.sh
EXTRA_DIST += tests/test_bench_cli.sh tests/tap.sh

## memcheck on the backend tests and a short `contactlab run` of each backend:
## make check-valgrind (definite leaks and every memory error fail it)
VALGRIND_TESTS = tests/test_penalty_backend tests/test_penalty_impact tests/test_penalty_history \
	tests/test_dvi_backend tests/test_ccp_solvers tests/test_checkpoint
VALGRIND_FLAGS = --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 --track-origins=yes
.PHONY: check-valgrind
check-valgrind: $(VALGRIND_TESTS) contactlab$(EXEEXT)
	@if test -z "$(VALGRIND)"; then echo "valgrind not found: apt-get install valgrind, then re-run configure"; exit 1; fi; \
	mkdir -p valgrind; fail=0; \
	for t in $(VALGRIND_TESTS); do \
	  log=valgrind/`basename $$t`.log; \
	  if $(LIBTOOL) --mode=execute $(VALGRIND) $(VALGRIND_FLAGS) --log-file=$$log.vg ./$$t >$$log 2>&1; then r=ok; else r=FAILED; fail=1; fi; \
	  echo "$$r: $$t  `grep 'ERROR SUMMARY' $$log.vg | sed 's/^==[0-9]*== //'`  `grep 'in use at exit:' $$log.vg | sed 's/^==[0-9]*== *//'`"; \
	done; \
	for b in penalty dvi; do \
	  log=valgrind/run-$$b.log; \
	  if $(LIBTOOL) --mode=execute $(VALGRIND) $(VALGRIND_FLAGS) --log-file=$$log.vg ./contactlab$(EXEEXT) run \
	       $(srcdir)/experiments/scenes/sphere_pile.cfg --backend $$b --h 1e-4 --t-end 0.02 --every 10 \
	       --checkpoint-every 50 --out valgrind/out --force --no-progress >$$log 2>&1; then r=ok; else r=FAILED; fail=1; fi; \
	  echo "$$r: contactlab run (sphere_pile, $$b)  `grep 'ERROR SUMMARY' $$log.vg | sed 's/^==[0-9]*== //'`  `grep 'in use at exit:' $$log.vg | sed 's/^==[0-9]*== *//'`"; \
	done; \
	rm -rf valgrind/pile; \
	for step in stop restart; do \
	  log=valgrind/pile-$$step.log; \
	  if test $$step = stop; then extra="--stop-after 150"; want=3; else extra="--restart valgrind/pile/pile.ckpt"; want=0; fi; \
	  $(LIBTOOL) --mode=execute $(VALGRIND) $(VALGRIND_FLAGS) --log-file=$$log.vg ./contactlab$(EXEEXT) pile \
	       --n 30 --t-end 0.01 --h-dvi 1e-4 --no-plot --no-progress --out valgrind/pile $$extra >$$log 2>&1; \
	  if test $$? = $$want; then r=ok; else r=FAILED; fail=1; fi; \
	  echo "$$r: contactlab pile ($$step, both methods)  `grep 'ERROR SUMMARY' $$log.vg | sed 's/^==[0-9]*== //'`  `grep 'in use at exit:' $$log.vg | sed 's/^==[0-9]*== *//'`"; \
	done; \
	if test $$fail = 0; then echo "valgrind memcheck: clean (logs in valgrind/)"; else echo "valgrind memcheck: FAILED (logs in valgrind/)"; fi; \
	test $$fail = 0

## fuzzing (./configure --enable-fuzz CC=clang): libFuzzer over the scene parser, world
## construction and a few steps; make fuzz FUZZ_SECONDS=60 (a crash fails it, the input is
## kept in fuzz/artifacts/)
EXTRA_DIST += tests/fuzz/fuzz_scene.c tests/fuzz/scene.dict tests/fuzz/seeds
if ENABLE_FUZZ
noinst_PROGRAMS += tests/fuzz/fuzz_scene
tests_fuzz_fuzz_scene_SOURCES = tests/fuzz/fuzz_scene.c
tests_fuzz_fuzz_scene_LDADD = $(CLAB_LDADD)
tests_fuzz_fuzz_scene_LDFLAGS = $(FUZZ_LDFLAGS)
endif
## the same over the LAMMPS data-file reader: make fuzz-lammps FUZZ_SECONDS=60
EXTRA_DIST += tests/fuzz/fuzz_lammps.c tests/fuzz/lammps_seeds
if ENABLE_FUZZ
noinst_PROGRAMS += tests/fuzz/fuzz_lammps
tests_fuzz_fuzz_lammps_SOURCES = tests/fuzz/fuzz_lammps.c
tests_fuzz_fuzz_lammps_LDADD = $(CLAB_LDADD)
tests_fuzz_fuzz_lammps_LDFLAGS = $(FUZZ_LDFLAGS)
endif
FUZZ_SECONDS = 60
FUZZ_FLAGS = -timeout=20 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1
.PHONY: fuzz
fuzz:
	@if test ! -x tests/fuzz/fuzz_scene$(EXEEXT); then \
	  if test "x$(FUZZ_LDFLAGS)" = x; then echo "fuzzing needs ./configure --enable-fuzz CC=clang"; exit 1; fi; \
	  $(MAKE) $(AM_MAKEFLAGS) tests/fuzz/fuzz_scene$(EXEEXT) || exit 1; fi; \
	mkdir -p fuzz/corpus fuzz/artifacts; \
	$(LIBTOOL) --mode=execute ./tests/fuzz/fuzz_scene$(EXEEXT) $(FUZZ_FLAGS) -max_total_time=$(FUZZ_SECONDS) \
	  -dict=$(srcdir)/tests/fuzz/scene.dict -artifact_prefix=fuzz/artifacts/ \
	  fuzz/corpus $(srcdir)/tests/fuzz/seeds $(srcdir)/experiments/scenes $(srcdir)/tests/scenes
.PHONY: fuzz-lammps
fuzz-lammps:
	@if test ! -x tests/fuzz/fuzz_lammps$(EXEEXT); then \
	  if test "x$(FUZZ_LDFLAGS)" = x; then echo "fuzzing needs ./configure --enable-fuzz CC=clang"; exit 1; fi; \
	  $(MAKE) $(AM_MAKEFLAGS) tests/fuzz/fuzz_lammps$(EXEEXT) || exit 1; fi; \
	mkdir -p fuzz/corpus-lammps fuzz/artifacts; \
	$(LIBTOOL) --mode=execute ./tests/fuzz/fuzz_lammps$(EXEEXT) $(FUZZ_FLAGS) -max_total_time=$(FUZZ_SECONDS) \
	  -artifact_prefix=fuzz/artifacts/ fuzz/corpus-lammps $(srcdir)/tests/fuzz/lammps_seeds
