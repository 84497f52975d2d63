## FCLIB export and import, Siconos cross-check (fclib/; skipped without FCLIB) (TAP)
clab_tests += tests/test_fclib
tests_test_fclib_SOURCES = tests/test_fclib.c $(FCLIB_SOURCES)
tests_test_fclib_CPPFLAGS = $(AM_CPPFLAGS) $(FCLIB_CPPFLAGS)
tests_test_fclib_LDADD = $(CLAB_LDADD) $(FCLIB_LDADD)
## contactlab run --fclib-dir, fclib solve, bench fclib on a file; or the message without FCLIB (TAP, sh)
TESTS += tests/test_fclib_cli.sh
EXTRA_DIST += tests/test_fclib_cli.sh
## solutions of exported problems against Coulomb's conditions: a box stack (contactlab, Siconos), a sliding rod with two (fclib/fclib_check.c) (TAP)
clab_tests += tests/test_fclib_cross
tests_test_fclib_cross_SOURCES = tests/test_fclib_cross.c $(FCLIB_SOURCES)
tests_test_fclib_cross_CPPFLAGS = $(AM_CPPFLAGS) $(FCLIB_CPPFLAGS)
tests_test_fclib_cross_LDADD = $(CLAB_LDADD) $(FCLIB_LDADD)
