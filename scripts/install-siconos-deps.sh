#!/bin/sh
# Install the optional FCLIB and Siconos numerics libraries on Debian or Ubuntu (run as root or
# via sudo): libfclib-dev (FCLIB files: contactlab run --fclib-dir, contactlab fclib solve; it
# brings libhdf5-dev) and libsiconos-numerics-dev (Siconos's fc3d solvers beside contactlab's in
# contactlab bench fclib, and the cross-check tests). Re-run configure afterwards. Not part of
# scripts/install-deps.sh: Siconos pulls in MUMPS, OpenBLAS, LAPACK and SuiteSparse.
set -e
exec "$(dirname "$0")/apt-install.sh" --no-recommends libfclib-dev libsiconos-numerics-dev
