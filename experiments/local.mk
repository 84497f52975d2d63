## experiments/: the contactlab command (one source file per experiment) and gnuplot scripts
bin_PROGRAMS += contactlab
contactlab_SOURCES = \
	experiments/main.c \
	experiments/xp.c \
	experiments/xp_case.c \
	experiments/xp_out.c \
	experiments/xp.h \
	experiments/bowling.c \
	experiments/run.c \
	experiments/run_out.c \
	experiments/run_contacts.c \
	experiments/run_contacts.h \
	experiments/prepare.c \
	experiments/prepare_grow.c \
	experiments/prepare.h
contactlab_CPPFLAGS = $(AM_CPPFLAGS) -DCLAB_SRCDIR='"$(abs_top_srcdir)"' -DCLAB_PKGDATADIR='"$(pkgdatadir)"'
contactlab_LDADD = $(CLAB_LDADD)

## gnuplot scripts: installed, and copied into each output folder by the drivers
dist_pkgdata_DATA = \
	experiments/bowling.gp \
	experiments/run.gp
include experiments/bench.mk

## granular pile, DVI solver convergence, scaling (pile_scene.c: the pile they share)
contactlab_SOURCES += \
	experiments/pile_scene.c \
	experiments/pile_scene.h \
	experiments/pile.c \
	experiments/convergence.c \
	experiments/scaling.c
dist_pkgdata_DATA += \
	experiments/pile.gp \
	experiments/convergence.gp \
	experiments/scaling.gp

## incline, drop, chain: analytic checks of friction, impact and wave transmission
contactlab_SOURCES += \
	experiments/incline.c \
	experiments/drop.c \
	experiments/chain.c
dist_pkgdata_DATA += \
	experiments/incline.gp \
	experiments/drop.gp \
	experiments/chain.gp

## Painleve's sliding rod: the (theta, mu) region and the tangential impact under every method
contactlab_SOURCES += \
	experiments/painleve.c \
	experiments/painleve_case.c \
	experiments/painleve.h
dist_pkgdata_DATA += \
	experiments/painleve.gp

## validate: the Chung-Ooi benchmark tests and the single-contact checks as one table
contactlab_SOURCES += \
	experiments/validate.c \
	experiments/validate.h \
	experiments/validate_theory.c \
	experiments/validate_impact.c \
	experiments/validate_chung.c \
	experiments/validate_checks.c
dist_pkgdata_DATA += \
	experiments/validate.gp

## cone penetration and a wave through a pressed packing (driven bodies, mesh walls)
contactlab_SOURCES += \
	experiments/cone.c \
	experiments/cone_mesh.c \
	experiments/cone_mesh.h \
	experiments/wave.c \
	experiments/wave.h \
	experiments/wave_random.c \
	experiments/wave_column.c \
	experiments/wave_fit.c \
	experiments/wave_fit.h
dist_pkgdata_DATA += \
	experiments/cone.gp \
	experiments/wave.gp

## the polyhedral friction cone's error (Stewart-Trinkle LCP): a sliding puck's deflection
contactlab_SOURCES += experiments/cone_error.c
dist_pkgdata_DATA += experiments/cone-error.gp

## hopper discharge: the flow rate through an orifice and Beverloo's law under every method
contactlab_SOURCES += \
	experiments/hopper.c \
	experiments/hopper_scene.c \
	experiments/hopper_fit.c \
	experiments/hopper_case.c \
	experiments/hopper_xp.h \
	experiments/hopper.h
dist_pkgdata_DATA += \
	experiments/hopper.gp
EXTRA_DIST += experiments/hopper-table.sh

include experiments/granular.mk
