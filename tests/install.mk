## the installed library: a scratch `make install DESTDIR=...`, the example built with nothing
## but pkg-config and run against it, the installed headers and the exported symbols
## (tests/test_install.sh); `make installcheck` builds and runs the example on the real prefix
TESTS += tests/test_install.sh
EXTRA_DIST += tests/test_install.sh scripts/installcheck.sh
TESTS_ENVIRONMENT += CC='$(CC)'; CLAB_EXAMPLE_CFLAGS='$(SAN_CFLAGS) $(FUZZ_CFLAGS)'; export CC CLAB_EXAMPLE_CFLAGS;
installcheck-local:
	PKG_CONFIG_PATH='$(pkgconfigdir)'$${PKG_CONFIG_PATH:+:$$PKG_CONFIG_PATH} CC='$(CC)' \
	CLAB_EXAMPLE_CFLAGS='$(SAN_CFLAGS) $(FUZZ_CFLAGS)' $(SHELL) $(srcdir)/scripts/installcheck.sh
