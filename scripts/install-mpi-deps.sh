#!/bin/sh
# Install MPI (Open MPI) on Debian or Ubuntu (run as root or via sudo), for ./configure --with-mpi
# (doc/mpi.md): libopenmpi-dev (mpi.h, the library, the mpicc wrapper) and openmpi-bin (mpirun).
# Not part of scripts/install-deps.sh: the plain build does not use MPI.
set -e
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
pkgs="libopenmpi-dev openmpi-bin"
missing=
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "installing:$missing"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
