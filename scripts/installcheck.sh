#!/bin/sh
# Build examples/ball.c against an installed contactlab with nothing but pkg-config, and run it
# with the loader pointed at the library (LD_LIBRARY_PATH: the prefix need not be a system one).
#   PKG_CONFIG_PATH=PREFIX/lib/pkgconfig scripts/installcheck.sh [PROGRAM]
# PROGRAM: where the built example goes (default: a temporary file, removed after the run).
# CC (default cc) compiles; CLAB_EXAMPLE_CFLAGS adds flags the library's build needs in its
# users (its sanitizers). `make installcheck` runs it on the configured prefix; tests/test_install.sh
# on a scratch install.
set -eu
src="$(dirname "$0")/../examples/ball.c"
CC=${CC:-cc}
if [ $# -gt 0 ]; then prog=$1; else
    prog=$(mktemp "${TMPDIR:-/tmp}/clab-ball-XXXXXX")
    trap 'rm -f "$prog"' EXIT INT TERM
fi
flags=$(pkg-config --cflags --libs contactlab)
libdir=$(pkg-config --variable=libdir contactlab)
echo "+ $CC ${CLAB_EXAMPLE_CFLAGS:-}${CLAB_EXAMPLE_CFLAGS:+ }ball.c -o ball $flags" >&2
# shellcheck disable=SC2086 # the flags are words
$CC ${CLAB_EXAMPLE_CFLAGS:-} "$src" -o "$prog" $flags
echo "+ LD_LIBRARY_PATH=$libdir ./ball" >&2
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$prog"
