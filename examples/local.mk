## examples/: programs of the public API alone. They see the installed headers only (copied into
## examples/include/contactlab, as `make install` lays them out) and link the shared library,
## which exports the public API alone; make check builds and runs them (tests/test_example_ball.sh).
check_PROGRAMS += examples/ball
examples_ball_SOURCES = examples/ball.c
examples_ball_CPPFLAGS = -Iexamples/include
examples_ball_LDADD = libcontactlab.la
TESTS += tests/test_example_ball.sh
EXTRA_DIST += tests/test_example_ball.sh

BUILT_SOURCES = examples/include/contactlab/stamp
examples/include/contactlab/stamp: $(pkginclude_HEADERS)
	$(AM_V_GEN)rm -rf examples/include && $(MKDIR_P) examples/include/contactlab && \
	for h in $(pkginclude_HEADERS); do cp "$(srcdir)/$$h" examples/include/contactlab/ || exit 1; done && \
	echo stamp > $@
clean-local: clean-examples-include
clean-examples-include:
	-rm -rf examples/include
.PHONY: clean-examples-include
