#!/bin/sh
# Install MPI (Open MPI) on Debian or Ubuntu (run as root or via sudo), for ./configure --with-mpi
# (doc/mpi.md): libopenmpi-dev (mpi.h, the library, the mpicc wrapper) and openmpi-bin (mpirun).
# Not part of scripts/install-deps.sh: the plain build does not use MPI.
set -e
exec "$(dirname "$0")/apt-install.sh" --no-recommends libopenmpi-dev openmpi-bin
