## DVI (cone complementarity) backend: the CCP of Eq. (10) of seed 000 as data (ccp.c),
## cone projections, residuals, one file per solver, warm start, and the time stepper
libcontactlab_la_SOURCES += \
	dvi/ccp.c \
	dvi/cone.c \
	dvi/cone_qp.c \
	dvi/residual.c \
	dvi/ccp_solver.c \
	dvi/solver_jacobi.c \
	dvi/solver_gs.c \
	dvi/solver_apgd.c \
	dvi/solver_bb.c \
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
