## DVI (cone complementarity) backend: the CCP of Eq. (10) of seed 000 as data (ccp.c),
## cone projections, residuals, one file per solver, warm start, and the time stepper
## The solvers' inner loops (the matrix-free products and the fused passes of the solvers)
## are a convenience library of their own, compiled with DVI_LOOP_CFLAGS (configure: GCC's
## dynamic vectorizer cost model when the compiler takes it; the same results, since C11 mode
## neither contracts nor reassociates, and about 10 % fewer instructions in apgd's pass).
noinst_LTLIBRARIES += libclab_dvi_loops.la
libclab_dvi_loops_la_SOURCES = \
	dvi/ccp.c \
	dvi/solver_jacobi.c \
	dvi/solver_apgd.c \
	dvi/solver_bb.c
libclab_dvi_loops_la_CFLAGS = $(AM_CFLAGS) $(DVI_LOOP_CFLAGS)
libcontactlab_la_LIBADD += libclab_dvi_loops.la

libcontactlab_la_SOURCES += \
	dvi/cone.c \
	dvi/cone_qp.c \
	dvi/residual.c \
	dvi/ccp_solver.c \
	dvi/solver_gs.c \
	dvi/warmstart.c \
	dvi/regularize.c \
	dvi/friction_exact.c \
	dvi/dvi_backend.c

pkginclude_HEADERS += \
	dvi/ccp.h \
	dvi/cone.h \
	dvi/ccp_solver.h \
	dvi/warmstart.h \
	dvi/regularize.h \
	dvi/friction_exact.h

noinst_HEADERS += dvi/solver_internal.h dvi/ccp_fast.h
