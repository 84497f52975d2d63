#!/bin/sh
# test_example_ball.sh: examples/ball (TAP), a ball of radius R = 0.1 m (density 1000 kg/m^3,
# the default material: E = 2e8 Pa, nu = 0.3) let go 5 cm above a plane, after 1 s:
#   - penalty (Hertz): at rest on the plane, F_n = m g to 1e-6 relative (the contact's viscous
#     damping decays in about 12 ms, so after 1 s only rounding is left; the print keeps
#     1e-6 N, 2.4e-8 m g), and the overlap R - z is Hertz's static overlap under m g,
#         delta = (3 m g / (4 E* sqrt(R)))^(2/3),  E* = E / (2 (1 - nu^2))  (sphere on a plane
#     of the same material), to 1e-8 m (1e-4 of delta; the print keeps 1e-9 m);
#   - DVI: no overlap, |R - z| < 1e-6 m (the stabilized constraint holds Phi near tol h =
#     1e-9 m), and F_n = m g to 1e-3 relative (the solver stops at a velocity residual of
#     tol = 1e-6 m/s, of order m tol / h = 1e-4 m g in force at h = 1e-3 s; ten times that).
# BALL names the program (default ./examples/ball).
set -u
BALL=${BALL:-./examples/ball}
tag=ball
. "${top_srcdir:-.}/tests/tap.sh"

$BALL >"$tmp/out.txt" 2>"$tmp/err.txt"
rs=$?
ok $rs "examples/ball runs (exit $rs) $(head -c 200 "$tmp/err.txt")"
# a line: "method t = T s z = Z m F_n = F N m g = W N" (z: $8, F_n: $12, m g: $17)
check() { # method awk-condition description
    line=$(grep "^$1 " "$tmp/out.txt")
    echo "$line" | awk -v R=0.1 '
        { z = $8; F = $12; W = $17 }
        END {
            pi = atan2(0, -1); m = 1000 * 4 / 3 * pi * R ^ 3; mg = m * 9.81
            Es = 2e8 / (2 * (1 - 0.3 ^ 2)); delta = (3 * mg / (4 * Es * sqrt(R))) ^ (2 / 3)
            exit !(NR == 1 && '"$2"')
        }'
    ok $? "$1: $3: $line"
}
check penalty 'W - mg < 1e-6 && mg - W < 1e-6' "prints m g = $(awk 'BEGIN { printf "%.6f", 1000 * 4 / 3 * atan2(0, -1) * 0.001 * 9.81 }') N"
check penalty 'F - mg < 1e-6 * mg && mg - F < 1e-6 * mg' "at rest, F_n = m g (rel 1e-6)"
check penalty '(R - z) - delta < 1e-8 && delta - (R - z) < 1e-8' "overlap R - z = Hertz's (3 m g / (4 E* sqrt R))^(2/3) (1e-8 m)"
check dvi 'z - R < 1e-6 && R - z < 1e-6' "at rest on the plane, |R - z| < 1e-6 m"
check dvi 'F - mg < 1e-3 * mg && mg - F < 1e-3 * mg' "F_n = m g (rel 1e-3: the solver's tolerance)"
tap_end
