## penalty (DEM) backend: force laws, tangential history, explicit integration (doc/penalty.md);
## the plain step (step.c) and the fast path (fast_*), the same bits, chosen by the option fast
libcontactlab_la_SOURCES += \
	penalty/force_law.c \
	penalty/history.c \
	penalty/integrator.c \
	penalty/options.c \
	penalty/setup.c \
	penalty/step.c \
	penalty/fast_step.c \
	penalty/fast_bodies.c \
	penalty/penalty_backend.c

noinst_HEADERS += \
	penalty/force_law.h \
	penalty/history.h \
	penalty/integrator.h \
	penalty/options.h \
	penalty/penalty.h \
	penalty/fast_contact.h \
	penalty/fast_scatter.h \
	penalty/fast_bodies.h
