#!/bin/sh
# test_painleve_cli.sh: contactlab painleve --quick (TAP). At the defaults' inside point
# (theta = 60 deg, mu = 2: m B = 7/4 - 3 sqrt(3)/2 < 0 with A = -g < 0, inconsistent) every
# rigid method stops the sliding end by a tangential impact in its first step (h = 1e-3 s) with
# the normal impulse of the sticking impulse P_n = -W^-1 v of the box's corner (0.3170 N s) plus
# what gravity adds over that step (at most m g h = 0.0098 N s): within 0.015 N s. The penalty
# runs stop it too, later, through a normal force spike above 3 m g. At the outside point
# (mu = 0.3, consistent) no method stops it within 0.05 s. The region CSV holds mu*(theta)
# with its minimum 4/3 at 63.5 deg (half-degree grid: 4/3 to 1e-4). A bad --points is refused
# with exit 2 and nothing written.
set -u
CL=${CONTACTLAB:-./contactlab}
case $CL in /*) ;; *) CL=$(pwd)/$CL ;; esac
tag=painleve
. "${top_srcdir:-.}/tests/tap.sh"

$CL painleve --quick --no-plot --no-progress --out "$tmp/q" >"$tmp/q.txt" 2>&1
rs=$?
s=$tmp/q/painleve-summary.csv
ok $rs "painleve --quick runs (exit $rs): $(tail -n 3 "$tmp/q.txt" | head -c 300)"
nrig=$(awk -F, '/^#/ { next } !h { h = 1; next } $1 ~ /^dvi/ && $3 == 2 { n++ } END { print n + 0 }' "$s")
bad=$(awk -F, '/^#/ { next } !h { h = 1; next } $1 ~ /^dvi/ && $3 == 2 && !/tangential impact/ { n++ } END { print n + 0 }' "$s")
ok $((nrig < 2 || bad)) "inside (60 deg, mu 2): $nrig rigid methods, all a tangential impact ($bad not)"
imp=$(awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) { if ($i == "impulse_n_Ns") a = i; if ($i == "stick_impulse_n_Ns") b = i; if ($i == "t_stop_s") t = i; if ($i == "h_s") hh = i } h = 1; next }
  $1 ~ /^dvi/ && $3 == 2 { d = $a - $b; if (d < 0) d = -d; if (!(d <= 0.015 && $t <= $hh * 1.000001)) bad++; n++; printf "%s %.4f vs %.4f at t %g; ", $1, $a, $b, $t }
  END { exit bad || !n }' "$s")
ok $? "rigid methods: impulse of the first step = the sticking impulse to 0.015 N s: $imp"
pen=$(awk -F, '/^#/ { next } !h { h = 1; next } $1 == "penalty" && $3 == 2 && /tangential impact/ { n++ } END { print n + 0 }' "$s")
ok $((pen != 2)) "penalty (2 stiffnesses under --quick): a tangential impact at the inside point in both ($pen)"
out=$(awk -F, '/^#/ { next } !h { h = 1; next } $3 == 0.3 && /tangential impact|stops/ { n++ } END { print n + 0 }' "$s")
ok $out "outside (mu 0.3): no method stops the sliding ($out do)"
mn=$(awk -F, '/^#/ { next } !h { h = 1; next } NR > 1 && (m == "" || $2 < m) { m = $2; t = $1 } END { printf "%.6f %g", m, t }' "$tmp/q/painleve-region.csv")
awk -v m="${mn% *}" -v t="${mn#* }" 'BEGIN { d = m - 4 / 3; if (d < 0) d = -d; exit !(d < 1e-4 && t == 63.5) }'
ok $? "region CSV: min mu* = 4/3 at 63.5 deg on the half-degree grid ($mn)"
ls "$tmp"/q/painleve-theta_60-mu_2-*.csv >/dev/null 2>&1 && grep -q "^trfile\[1\] = " "$tmp/q/painleve-files.gp"
ok $? "series of the inside point and painleve-files.gp written"

# --end corner: one point on the plane (the rod rolled 45 deg about its axis). Expected: the
# rigid sticking impulse P = -W^-1 v* of that corner (px, pz) = (-l cos + w sqrt2 sin,
# -l sin - w sqrt2 cos), J = m (l^2 + w^2)/3, for the first step's free velocity
# v* = (-v0, -g h) (gravity over the step): every rigid method's first-step normal impulse within
# 5e-6 N s of it (the solvers' tolerances; 0.32182 against P_n = 0.31367 without gravity)
$CL painleve --quick --end corner --method dvi,dvi-exact,lcp,midpoint --no-plot --no-progress --out "$tmp/c" >"$tmp/c.txt" 2>&1
rs=$?
s=$tmp/c/painleve-summary.csv
ok $rs "painleve --quick --end corner runs (exit $rs): $(tail -n 3 "$tmp/c.txt" | head -c 300)"
imp=$(awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1
    pi = atan2(0, -1); th = pi / 3; l = 0.5; w = 0.01 * sqrt(2); m = 1; k2 = (0.25 + 1e-4) / 3; g = 9.81; hh = 1e-3
    px = -l * cos(th) + w * sin(th); pz = -l * sin(th) - w * cos(th); J = m * k2
    Wtt = 1 / m + pz * pz / J; Wnn = 1 / m + px * px / J; Wtn = -px * pz / J; det = Wtt * Wnn - Wtn * Wtn
    P = -(-Wtn * -1 + Wtt * -g * hh) / det; next }
  $3 == 2 { d = $c["impulse_n_Ns"] - P; if (d < 0) d = -d; if (!(d <= 5e-6 && $c["t_stop_s"] <= 1.000001e-3 && /tangential impact/)) bad++; n++
    printf "%s %.7f; ", $1, $c["impulse_n_Ns"] }
  $3 == 0.3 && /tangential impact|stops/ { bad++ }
  END { printf "expected %.7f (P_n without gravity %.7f)", P, $c["stick_impulse_n_Ns"]; exit bad || n != 4 }' "$s")
ok $? "corner end, inside: the four rigid methods stop the end in the first step with P_n = the sticking impulse to 5e-6 N s; outside none stops: $imp"
$CL painleve --end tip --out "$tmp/bad" >"$tmp/b.txt" 2>&1
rs=$?
grep -q "expected edge or corner" "$tmp/b.txt" && [ ! -e "$tmp/bad" ]
ok $((rs != 2 || $?)) "--end tip refused (exit $rs): $(head -c 120 "$tmp/b.txt")"

$CL painleve --points 60 --out "$tmp/bad" >"$tmp/b.txt" 2>&1
rs=$?
grep -q "is not THETA_DEG:MU" "$tmp/b.txt" && [ ! -e "$tmp/bad" ]
ok $((rs != 2 || $?)) "--points 60 refused (exit $rs), nothing written: $(head -c 120 "$tmp/b.txt")"
$CL painleve --points 95:1 --out "$tmp/bad" >"$tmp/b.txt" 2>&1
rs=$?
grep -q "outside the allowed range \[1, 89\]" "$tmp/b.txt" && [ ! -e "$tmp/bad" ]
ok $((rs != 2 || $?)) "--points 95:1 refused (theta in [1, 89] deg, exit $rs)"
tap_end
