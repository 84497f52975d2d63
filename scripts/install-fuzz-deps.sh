#!/bin/sh
# Install what the fuzzing build needs on Debian or Ubuntu (run as root or via sudo): clang and
# its compiler runtime with libFuzzer and the sanitizers (libclang-rt-dev, the package of
# Debian's default clang; on Debian 12 it pulls libclang-rt-14-dev).
#   ./configure --enable-fuzz CC=clang && make fuzz
set -e
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
pkgs="clang libclang-rt-dev"
missing=
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "installing:$missing"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi
