#!/bin/sh
# Install what the fuzzing build needs on Debian or Ubuntu (run as root or via sudo): clang and
# its compiler runtime with libFuzzer and the sanitizers (libclang-rt-dev, the package of
# Debian's default clang; on Debian 12 it pulls libclang-rt-14-dev).
#   ./configure --enable-fuzz CC=clang && make fuzz
set -e
exec "$(dirname "$0")/apt-install.sh" clang libclang-rt-dev
