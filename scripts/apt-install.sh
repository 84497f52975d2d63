#!/bin/sh
# Install the Debian packages named on the command line that are not installed yet (run as root
# or via sudo); the install-*-deps.sh scripts call it with their lists.
#   scripts/apt-install.sh [--no-recommends] PACKAGE...
set -e
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
opts=
if [ "$1" = --no-recommends ]; then opts=--no-install-recommends; shift; fi
missing=
for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "installing:$missing"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $opts $missing >/dev/null
fi
