#!/bin/sh
# Build contactlab from scratch and run the TAP test suite (make check).
#   scripts/check.sh               the normal build, in ./build
#   scripts/check.sh --sanitizers  AddressSanitizer + UndefinedBehaviorSanitizer, in ./build-san
#                                  (CLAB_SANITIZERS=1: the four experiment CLI tests whose quick
#                                  runs take minutes there skip them, tests/tap.sh)
# CLAB_SKIP_AUTOGEN=1 skips regenerating the build system (when it is up to date).
set -e
cd "$(dirname "$0")/.."
dir=build
flags=
case "${1:-}" in
"") ;;
--sanitizers)
    dir=build-san; flags=--enable-sanitizers; export CLAB_SANITIZERS=1
    # Siconos (optional, bench fclib) leaks 1.8 kB of its own: tests/lsan.supp
    export LSAN_OPTIONS="suppressions=$(pwd)/tests/lsan.supp" ;;
*) echo "usage: scripts/check.sh [--sanitizers]" >&2; exit 2 ;;
esac
if [ -z "${CLAB_SKIP_AUTOGEN:-}" ]; then ./autogen.sh >/dev/null 2>&1 || ./autogen.sh; fi
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
../configure --quiet $flags
make -j"$(nproc)" >/dev/null
make -j"$(nproc)" check
