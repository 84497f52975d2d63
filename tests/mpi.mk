## the MPI domain decomposition (mpi/; only with ./configure --with-mpi): tests/test_mpi.sh runs
## tests/test_mpi and contactlab bench under mpirun on 1 to 4 ranks, the others contactlab run
## and the DVI Gauss-Seidel across ranks, the migration on grids of 2 and 3 axes. make
## check-mpi runs them alone (the CI's MPI stage).
clab_mpi_tests = tests/test_mpi.sh
clab_mpi_tests += tests/test_mpi_run.sh
clab_mpi_tests += tests/test_mpi_gs.sh
clab_mpi_tests += tests/test_mpi_mig.sh
clab_mpi_tests += tests/test_mpi_bench.sh
clab_mpi_tests += tests/test_mpi_drive.sh
EXTRA_DIST += tests/scenes/mpi_driven.cfg
clab_mpi_tests += tests/test_mpi_scatter.sh
## the outputs gathered chunk by chunk (mpi/gather.c): tests/test_mpi_chunk on 1 to 4 ranks, run
## with chunks of 7 bodies
clab_mpi_tests += tests/test_mpi_chunk.sh
## --contacts across ranks (mpi/run_mpi_contacts.c): the one-process contacts CSV's rows
clab_mpi_tests += tests/test_mpi_contacts.sh
EXTRA_DIST += tests/test_mpi_chunk.c
if HAVE_MPI
check_PROGRAMS += tests/test_mpi_chunk
tests_test_mpi_chunk_SOURCES = tests/test_mpi_chunk.c $(clab_mpi_sources)
tests_test_mpi_chunk_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/mpi $(MPI_CFLAGS)
tests_test_mpi_chunk_LDADD = $(CLAB_LDADD) $(MPI_LIBS)
check-mpi: tests/test_mpi_chunk$(EXEEXT)
endif
EXTRA_DIST += tests/test_mpi.c tests/mpi_check.h $(clab_mpi_tests)
EXTRA_DIST += tests/test_mpi_scatter.c
if HAVE_MPI
check_PROGRAMS += tests/test_mpi
tests_test_mpi_SOURCES = tests/test_mpi.c $(clab_mpi_sources)
tests_test_mpi_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/mpi $(MPI_CFLAGS)
tests_test_mpi_LDADD = $(CLAB_LDADD) $(MPI_LIBS)
check_PROGRAMS += tests/test_mpi_scatter
tests_test_mpi_scatter_SOURCES = tests/test_mpi_scatter.c $(clab_mpi_sources)
tests_test_mpi_scatter_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/mpi $(MPI_CFLAGS)
tests_test_mpi_scatter_LDADD = $(CLAB_LDADD) $(MPI_LIBS)
check-mpi: tests/test_mpi_scatter
TESTS += $(clab_mpi_tests)
check-mpi:
	$(MAKE) $(AM_MAKEFLAGS) contactlab
	$(MAKE) $(AM_MAKEFLAGS) check check_PROGRAMS='tests/test_mpi tests/test_mpi_bench_model' TESTS='$(clab_mpi_tests) tests/test_mpi_bench_model'
endif
## contactlab bench --mpi: the scaling runs on 1 and 2 ranks and its projection's formulas (with
## MPI), its refusal (without)
EXTRA_DIST += tests/test_mpi_bench_model.c tests/test_bench_mpi_plain.sh
if HAVE_MPI
TESTS += tests/test_mpi_bench_model
check_PROGRAMS += tests/test_mpi_bench_model
tests_test_mpi_bench_model_SOURCES = tests/test_mpi_bench_model.c mpi/bench_model.c $(clab_mpi_sources)
tests_test_mpi_bench_model_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/mpi $(MPI_CFLAGS)
tests_test_mpi_bench_model_LDADD = $(CLAB_LDADD) $(MPI_LIBS)
else
TESTS += tests/test_bench_mpi_plain.sh
endif
