## the quasi-static granular tests: direct shear and triaxial (granular.h: their analysis
## and sample)
contactlab_SOURCES += \
	experiments/granular.h \
	experiments/granular_fit.c \
	experiments/granular_sample.c \
	experiments/shear.h \
	experiments/shear.c \
	experiments/shear_box.c \
	experiments/triaxial.c
dist_pkgdata_DATA += \
	experiments/shear.gp \
	experiments/triaxial.gp
