## benchmarks (not tests): the grid broad phase against brute force
noinst_PROGRAMS += experiments/bench_broadphase
experiments_bench_broadphase_LDADD = $(CLAB_LDADD)
