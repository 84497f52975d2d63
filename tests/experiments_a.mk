## tests of the incline, drop and chain experiment drivers (experiments/incline.c, drop.c, chain.c)
clab_tests += tests/test_experiments_a
tests_test_experiments_a_SOURCES = tests/test_experiments_a.c experiments/xp.c experiments/xp_case.c experiments/xp_out.c experiments/incline.c \
	experiments/drop.c experiments/chain.c
tests_test_experiments_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/experiments -DCLAB_SRCDIR='"$(abs_top_srcdir)"' \
	-DCLAB_PKGDATADIR='"$(pkgdatadir)"'
tests_test_experiments_a_LDADD = $(CLAB_LDADD)
