## the quasi-static granular tests: direct shear and triaxial (granular.h: their analysis
## and sample)
contactlab_SOURCES += \
	experiments/granular.h \
	experiments/granular_fit.c
