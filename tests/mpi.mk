## the MPI domain decomposition (mpi/; only with ./configure --with-mpi): tests/test_mpi.sh runs
## tests/test_mpi and contactlab bench under mpirun on 1 to 4 ranks. make check-mpi runs it alone
## (the CI's MPI stage).
EXTRA_DIST += tests/test_mpi.sh tests/test_mpi.c
if HAVE_MPI
check_PROGRAMS += tests/test_mpi
tests_test_mpi_SOURCES = tests/test_mpi.c $(clab_mpi_sources)
tests_test_mpi_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/mpi $(MPI_CFLAGS)
tests_test_mpi_LDADD = $(CLAB_LDADD) $(MPI_LIBS)
TESTS += tests/test_mpi.sh
check-mpi:
	$(MAKE) $(AM_MAKEFLAGS) contactlab
	$(MAKE) $(AM_MAKEFLAGS) check check_PROGRAMS=tests/test_mpi TESTS='tests/test_mpi.sh tests/test_mpi_bench.sh'
endif
## contactlab bench --mpi: the scaling runs on 1 and 2 ranks (with MPI), its refusal (without)
EXTRA_DIST += tests/test_mpi_bench.sh tests/test_bench_mpi_plain.sh
if HAVE_MPI
TESTS += tests/test_mpi_bench.sh
else
TESTS += tests/test_bench_mpi_plain.sh
endif
