#!/bin/sh
# The main job: build contactlab (in ./build, if not built yet) and run the bowling-ball
# comparison; CSVs and figures go to out/bowling (replaced on every run of this script).
# Extra arguments go to `contactlab bowling` (see `build/contactlab bowling --help`).
set -e
cd "$(dirname "$0")/.."
if [ ! -x build/contactlab ]; then
    [ -x configure ] || ./autogen.sh >/dev/null
    mkdir -p build
    (cd build && { [ -f Makefile ] || ../configure --quiet; } && make -j"$(nproc)" >/dev/null)
else
    (cd build && make -j"$(nproc)" >/dev/null)
fi
exec build/contactlab bowling --out out/bowling --force "$@"
