## fclib/: frictional-contact problems in and out as FCLIB files (libfclib, HDF5), and
## Siconos numerics' fc3d solvers for `contactlab bench fclib`. Both optional (configure):
## without them the stubs say what to install.
FCLIB_SOURCES = fclib/clab_fclib.h fclib/clab_siconos.h fclib/clab_fclib_check.h fclib/fclib_check.c
if HAVE_FCLIB
FCLIB_SOURCES += fclib/fclib_problem.c fclib/fclib_file.c fclib/fclib_ccp.c
else
FCLIB_SOURCES += fclib/fclib_none.c
endif
if HAVE_SICONOS
FCLIB_SOURCES += fclib/siconos.c
else
FCLIB_SOURCES += fclib/siconos_none.c
endif
FCLIB_CPPFLAGS = -I$(srcdir)/fclib $(FCLIB_CFLAGS) $(SICONOS_CFLAGS)
FCLIB_LDADD = $(FCLIB_LIBS) $(SICONOS_LIBS)
EXTRA_DIST += fclib/fclib_problem.c fclib/fclib_file.c fclib/fclib_ccp.c fclib/fclib_none.c fclib/siconos.c \
	fclib/siconos_none.c

## the commands: contactlab fclib solve, bench fclib, run/pile --fclib-dir
contactlab_SOURCES += $(FCLIB_SOURCES) \
	experiments/fclib_cmd.c \
	experiments/fclib_xp.h \
	experiments/run_fclib.c \
	experiments/bench_fclib.c \
	experiments/fclib_cross.c \
	experiments/fclib_check_cmd.c
contactlab_CPPFLAGS += $(FCLIB_CPPFLAGS)
contactlab_LDADD += $(FCLIB_LDADD)
