## DVI (cone complementarity) backend, Tasora-Anitescu: the CCP of Eq. (10) of seed 000 as data
## (ccp.c), cone projections, residuals, warm start, regularization, exact friction, the time
## stepper (step.c) and the backend (dvi_backend.c). Two paths selected by the option fast=:
## the plain products and solvers (plain_*.c) and the fast ones (fast_*.c, ccp_fast.h).
libcontactlab_la_SOURCES += \
	dvi/ccp.c \
	dvi/cone.c \
	dvi/cone_qp.c \
	dvi/residual.c \
	dvi/ccp_solver.c \
	dvi/fast_ccp.c \
	dvi/fast_jacobi.c \
	dvi/fast_gs.c \
	dvi/fast_apgd.c \
	dvi/fast_bb.c \
	dvi/plain_products.c \
	dvi/plain_solvers.c \
	dvi/split.c \
	dvi/split_solvers.c \
	dvi/split_step.c \
	dvi/step.c \
	dvi/warmstart.c \
	dvi/regularize.c \
	dvi/friction_exact.c \
	dvi/dvi_backend.c \
	dvi/dvi_problem.c

noinst_HEADERS += \
	dvi/ccp.h \
	dvi/cone.h \
	dvi/ccp_solver.h \
	dvi/warmstart.h \
	dvi/regularize.h \
	dvi/friction_exact.h \
	dvi/solver_internal.h \
	dvi/ccp_fast.h \
	dvi/plain.h \
	dvi/sums.h \
	dvi/split.h \
	dvi/dvi_internal.h \
	dvi/dvi_problem.h
