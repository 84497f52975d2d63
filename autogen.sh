#!/bin/sh
# Regenerate the build system from configure.ac and Makefile.am (needs autoconf, automake, libtool).
set -e
cd "$(dirname "$0")"
autoreconf --install --force
