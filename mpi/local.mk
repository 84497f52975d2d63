## mpi/: the domain decomposition across MPI ranks (doc/mpi.md), built only with
## ./configure --with-mpi, into the contactlab command (not the library)
clab_mpi_sources = \
	mpi/clab_mpi.h \
	mpi/mpi_internal.h \
	mpi/domain.c \
	mpi/scatter.c \
	mpi/exchange.c \
	mpi/mpi_sim.c \
	mpi/checkpoint.c \
	mpi/ccp_comm.c \
	mpi/migrate.c \
	mpi/drive.c
clab_mpi_sources += mpi/gather.c
if HAVE_MPI
contactlab_SOURCES += $(clab_mpi_sources) mpi/xp_mpi.c mpi/xp_mpi.h mpi/run_mpi.c mpi/run_mpi.h mpi/run_mpi_ckpt.c
contactlab_SOURCES += mpi/run_mpi_contacts.c mpi/run_mpi_contacts.h
contactlab_SOURCES += mpi/bench_mpi.c mpi/bench_mpi.h mpi/bench_mpi_internal.h mpi/bench_mpi_report.c mpi/bench_model.c mpi/bench_model.h
contactlab_CPPFLAGS += -I$(srcdir)/mpi -I$(srcdir)/experiments $(MPI_CFLAGS)
contactlab_LDADD += $(MPI_LIBS)
endif
EXTRA_DIST += $(clab_mpi_sources) mpi/xp_mpi.c mpi/xp_mpi.h mpi/run_mpi.c mpi/run_mpi.h mpi/run_mpi_ckpt.c scripts/install-mpi-deps.sh scripts/apt-install.sh
EXTRA_DIST += mpi/bench_mpi.c mpi/bench_mpi.h mpi/bench_mpi_internal.h mpi/bench_mpi_report.c mpi/bench_model.c mpi/bench_model.h
EXTRA_DIST += mpi/run_mpi_contacts.c mpi/run_mpi_contacts.h
