## tests of the pile, convergence and scaling drivers (experiments/pile.c, convergence.c,
## scaling.c and the pile scene they share)
clab_tests += tests/test_experiments_b
tests_test_experiments_b_SOURCES = tests/test_experiments_b.c experiments/xp.c experiments/xp_case.c experiments/xp_out.c experiments/pile_scene.c \
	experiments/pile.c experiments/convergence.c experiments/scaling.c
tests_test_experiments_b_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/experiments -DCLAB_SRCDIR='"$(abs_top_srcdir)"' \
	-DCLAB_PKGDATADIR='"$(pkgdatadir)"'
tests_test_experiments_b_LDADD = $(CLAB_LDADD)
## pile.c's --fclib-dir (experiments/run_fclib.c and fclib/, doc/fclib.md)
tests_test_experiments_b_SOURCES += experiments/run_fclib.c $(FCLIB_SOURCES)
tests_test_experiments_b_CPPFLAGS += $(FCLIB_CPPFLAGS)
tests_test_experiments_b_LDADD += $(FCLIB_LDADD)
