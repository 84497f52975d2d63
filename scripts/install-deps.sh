#!/bin/sh
# Install contactlab's build and run dependencies on Debian or Ubuntu (run as root or via sudo).
# (scripts/install-fuzz-deps.sh adds clang and its runtime for the fuzzing build.)
set -e
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
pkgs="build-essential autoconf automake libtool pkg-config libgsl-dev libconfig-dev zlib1g-dev gnuplot-nox valgrind"
missing=
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "installing:$missing"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi
