#!/bin/sh
# test_conewave_cli.sh: contactlab cone --quick and contactlab wave --quick (TAP).
# cone: both methods write a series and a summary row with a finite, positive slope of the tip
#   force against depth (a bed resists more the deeper the cone: the force grows with the
#   overburden).
# wave: the Hertz-Mindlin penalty speeds over the three pressures follow p^alpha with alpha within
#   0.02 of 1/6 (measured 0.1664 on the 2 x 2 x 12 column) and each is within 15% of the
#   precompressed Hertz chain's a' sqrt(k_t/m) (measured +8%: a threshold on the widening front
#   of a short column arrives early); the rigid (CCP) column's apparent speed grows with the
#   solver's iteration count (2 against 10 iterations a step).
# Bad options are refused with exit 2 and nothing written.
set -u
CL=${CONTACTLAB:-./contactlab}
case $CL in /*) ;; *) CL=$(pwd)/$CL ;; esac
tag=conewave
. "${top_srcdir:-.}/tests/tap.sh"

col() { # col FILE NAME: the column index of NAME in the header of a CSV with # metadata
  awk -F, -v n="$2" '/^#/ { next } { for (i = 1; i <= NF; i++) if ($i == n) print i; exit }' "$1"
}

tap_skip_rest "the quick run takes minutes under the sanitizers; the normal build runs it"
$CL cone --quick --no-plot --no-progress --out "$tmp/c" >"$tmp/c.txt" 2>&1
rs=$?
ok $rs "cone --quick runs (exit $rs): $(tail -n 3 "$tmp/c.txt" | head -c 300)"
s=$tmp/c/cone-summary.csv
k=$(col "$s" slope_tip_N_m)
res=$(awk -F, -v k="${k:-0}" '/^#/ { next } !h { h = 1; next } { printf "%s %s; ", $1, $k; if (!($k > 0 && $k < 1e12)) bad++; n++ }
  END { exit bad || n != 2 }' "$s")
ok $? "cone: penalty and dvi rows with a finite positive slope dF_tip/d(depth) [N/m]: $res"
ls "$tmp"/c/cone-penalty-v_*.csv "$tmp"/c/cone-dvi-v_*.csv >/dev/null 2>&1
ok $? "cone: the series of both methods written"

$CL wave --quick --no-plot --no-progress --out "$tmp/w" >"$tmp/w.txt" 2>&1
rs=$?
ok $rs "wave --quick runs (exit $rs): $(tail -n 3 "$tmp/w.txt" | head -c 300)"
f=$tmp/w/wave-fit.csv
al=$(awk -F, '/^#/ { next } $1 == "penalty" && $2 == "cubic" { print $4 }' "$f")
awk -v a="${al:-nan}" 'BEGIN { d = a - 1 / 6; if (d < 0) d = -d; exit !(d < 0.02) }'
ok $? "wave: penalty speed ~ p^alpha, alpha = $al within 0.02 of 1/6"
s=$tmp/w/wave-summary.csv
k=$(col "$s" wave_speed_rel_err)
res=$(awk -F, -v k="${k:-0}" '/^#/ { next } !h { h = 1; next } $1 == "penalty" { printf "%s; ", $k; d = $k; if (d < 0) d = -d; if (!(d < 0.15)) bad++; n++ }
  END { exit bad || n != 3 }' "$s")
ok $? "wave: penalty speed within 15% of a' sqrt(k_t/m) at each of 3 pressures (rel err $res)"
ki=$(col "$s" iterations)
kv=$(col "$s" wave_speed_m_s)
res=$(awk -F, -v i="${ki:-0}" -v v="${kv:-0}" '/^#/ { next } !h { h = 1; next } $1 == "dvi" { s[$i] = $v }
  END { printf "%s m/s at 2, %s m/s at 10 iterations", s[2], s[10]; exit !(s[2] > 0 && s[10] > 1.5 * s[2]) }' "$s")
ok $? "wave: the rigid column's apparent speed grows with the iterations: $res"

$CL cone --speeds 0.1,,0.2 --out "$tmp/bad" >"$tmp/b.txt" 2>&1
rs=$?
[ ! -e "$tmp/bad" ]
ok $((rs != 2 || $?)) "cone --speeds 0.1,,0.2 refused (exit $rs), nothing written: $(head -c 120 "$tmp/b.txt")"
$CL wave --nz 6 --fit-from 5 --out "$tmp/bad" >"$tmp/b.txt" 2>&1
rs=$?
grep -q "fewer than two layers" "$tmp/b.txt" && [ ! -e "$tmp/bad" ]
ok $((rs != 2 || $?)) "wave --nz 6 --fit-from 5 refused (exit $rs): $(head -c 120 "$tmp/b.txt")"
tap_end
