#!/bin/sh
# Install the optional FCLIB and Siconos numerics libraries on Debian or Ubuntu (run as root or
# via sudo): libfclib-dev (FCLIB files: contactlab run --fclib-dir, contactlab fclib solve; it
# brings libhdf5-dev) and libsiconos-numerics-dev (Siconos's fc3d solvers beside contactlab's in
# contactlab bench fclib, and the cross-check tests). Re-run configure afterwards. Not part of
# scripts/install-deps.sh: Siconos pulls in MUMPS, OpenBLAS, LAPACK and SuiteSparse.
set -e
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
pkgs="libfclib-dev libsiconos-numerics-dev"
missing=
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "installing:$missing"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
