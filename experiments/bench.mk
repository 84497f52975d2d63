## benchmarks (not tests): the grid broad phase against brute force
noinst_PROGRAMS += experiments/bench_broadphase
experiments_bench_broadphase_LDADD = $(CLAB_LDADD)
## the pair-list rebuild and the skin test on the chute's data or the pile's lattice
noinst_PROGRAMS += experiments/bench_rebuild
experiments_bench_rebuild_LDADD = $(CLAB_LDADD)

## `contactlab bench` (bench.c and one bench_<name>.c per benchmark); `make bench` runs them
contactlab_SOURCES += \
	experiments/bench.h \
	experiments/bench.c \
	experiments/bench_chute.c \
	experiments/bench_lammps.h \
	experiments/bench_lammps.c \
	experiments/chute_data.h \
	experiments/chute_data.c \
	experiments/bench_pile.c \
	experiments/bench_pile_lammps.h \
	experiments/bench_pile_lammps.c \
	experiments/bench_dvi_pile.c \
	experiments/bench_mesh.c \
	experiments/bench_lcp_pile.c
BENCH_ARGS =
bench: contactlab$(EXEEXT)
	./contactlab$(EXEEXT) bench --out bench-out $(BENCH_ARGS)
.PHONY: bench
