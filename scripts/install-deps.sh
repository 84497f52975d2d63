#!/bin/sh
# Install contactlab's build and run dependencies on Debian or Ubuntu (run as root or via sudo).
# (scripts/install-fuzz-deps.sh adds clang and its runtime for the fuzzing build.)
set -e
exec "$(dirname "$0")/apt-install.sh" build-essential autoconf automake libtool pkg-config libgsl-dev libconfig-dev zlib1g-dev gnuplot-nox valgrind
