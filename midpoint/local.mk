## midpoint backend: Solfec's constrained midpoint scheme (seed 004) with exact Coulomb friction
## (Alart-Curnier local Newton, local_solver.c) and Newton restitution, Gauss-Seidel over the
## contacts (gauss_seidel.c), the rows H and Delassus blocks W (rows.c), the step (step.c) and
## the backend (midpoint_backend.c).
libcontactlab_la_SOURCES += \
	midpoint/local_solver.c \
	midpoint/rows.c \
	midpoint/gauss_seidel.c \
	midpoint/step.c \
	midpoint/midpoint_backend.c

noinst_HEADERS += \
	midpoint/local_solver.h \
	midpoint/midpoint.h
