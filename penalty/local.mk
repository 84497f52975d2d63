## penalty (DEM) backend: force laws, tangential history, explicit integration (doc/penalty.md)
libcontactlab_la_SOURCES += \
	penalty/force_law.c \
	penalty/history.c \
	penalty/integrator.c \
	penalty/penalty_backend.c

noinst_HEADERS += \
	penalty/force_law.h \
	penalty/history.h \
	penalty/integrator.h
