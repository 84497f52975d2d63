#!/bin/sh
# Build contactlab from scratch in ./build and run the TAP test suite (make check).
set -e
cd "$(dirname "$0")/.."
./autogen.sh >/dev/null 2>&1 || ./autogen.sh
rm -rf build
mkdir -p build
cd build
../configure --quiet
make -j"$(nproc)" >/dev/null
make -j"$(nproc)" check
