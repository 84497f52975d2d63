#!/bin/sh
# test_conewave_cli.sh: contactlab cone --quick and contactlab wave --quick (TAP).
# cone: two beds (--beds 2): both methods write a series per bed and a summary row per bed;
#   cone-slopes.csv gives each method's mean slope over the beds and its standard error
#   s/sqrt(n), which for two beds is |a - b| / 2, recomputed here from the summary's rows (to
#   1e-9 relative). The slopes are only required finite: over the 300-sphere quick bed's
#   embedded depth (2.5 diameters) the force's fluctuations outweigh its growth (bed 2's slopes
#   are negative).
# wave: the Hertz-Mindlin penalty speeds over the three pressures follow p^alpha with alpha within
#   0.02 of 1/6 (measured 0.1664 on the 2 x 2 x 12 column) and each is within 15% of the
#   precompressed Hertz chain's a' sqrt(k_t/m) (measured +8%: a threshold on the widening front
#   of a short column arrives early); the rigid (CCP) column's apparent speed grows with the
#   solver's iteration count (2 against 10 iterations a step).
# wave, random column (--packing random at 1e6 Pa): the pressed column held for a wave run's time
#   without a pulse keeps its depth bins' velocities below the arrival threshold, 0.1 v_p
#   (measured 0.003 v_p), so the arrivals are the pulse's; its speed lies between half the Hertz
#   chain's and the chain's (fewer, oblique contacts than a simple-cubic line: measured 0.83).
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
$CL cone --quick --beds 2 --no-plot --no-progress --out "$tmp/c" >"$tmp/c.txt" 2>&1
rs=$?
ok $rs "cone --quick --beds 2 runs (exit $rs): $(tail -n 3 "$tmp/c.txt" | head -c 300)"
s=$tmp/c/cone-summary.csv
k=$(col "$s" slope_tip_N_m)
res=$(awk -F, -v k="${k:-0}" '/^#/ { next } !h { h = 1; next } { printf "%s %s; ", $1, $k; if (!($k > -1e12 && $k < 1e12)) bad++; n++ }
  END { exit bad || n != 4 }' "$s")
ok $? "cone: penalty and dvi rows on each of 2 beds with a finite slope dF_tip/d(depth) [N/m]: $res"
ls "$tmp"/c/cone-penalty-v_*-seed_1.csv "$tmp"/c/cone-dvi-v_*-seed_2.csv >/dev/null 2>&1
ok $? "cone: the series of both methods and beds written"
m=$tmp/c/cone-slopes.csv
km=$(col "$m" slope_mean_N_m)
ke=$(col "$m" slope_se_N_m)
res=$(awk -F, -v k="${k:-0}" -v km="${km:-0}" -v ke="${ke:-0}" 'FNR == 1 { f++ } /^#/ { next } !h[f]++ { next }
  f == 1 { a[$1] = a[$1] " " $k; next }
  { split(a[$1], x, " "); mean = (x[1] + x[2]) / 2; se = (x[1] - x[2]) / 2; if (se < 0) se = -se
    printf "%s %s +- %s (want %.6g +- %.6g); ", $1, $km, $ke, mean, se
    if (!(($km - mean)^2 <= 1e-18 * mean^2 + 1e-300 && ($ke - se)^2 <= 1e-18 * se^2 + 1e-300)) bad++; n++ }
  END { exit bad || n != 2 }' "$s" "$m")
ok $? "cone: cone-slopes.csv: mean and standard error |a - b|/2 of the two beds' slopes: $res"

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

$CL wave --quick --packing random --method penalty --pressures 1e6 --no-plot --no-progress --out "$tmp/r" >"$tmp/r.txt" 2>&1
rs=$?
ok $rs "wave --quick --packing random runs (exit $rs): $(grep 'random column at' "$tmp/r.txt" | head -c 400)"
x=$(sed -n "s/.*held.*depth bins' velocity up to \([^ ]*\) v_p.*/\1/p" "$tmp/r.txt")
awk -v x="${x:-nan}" 'BEGIN { exit !(x + 0 == x && x < 0.1) }'
ok $? "wave: the pressed random column holds: its depth bins reach ${x:-?} v_p without a pulse (< 0.1 v_p, the arrival threshold)"
s=$tmp/r/wave-summary.csv
kv=$(col "$s" wave_speed_m_s)
kt=$(col "$s" wave_speed_theory_m_s)
res=$(awk -F, -v v="${kv:-0}" -v t="${kt:-0}" '/^#/ { next } !h { h = 1; next } $2 == "random" { r = $v / $t; n++ }
  END { printf "%.4g", r; exit n != 1 || !(r > 0.5 && r < 1.0) }' "$s")
ok $? "wave: the random column's speed, $res of the Hertz chain's, between 0.5 and 1"

$CL cone --speeds 0.1,,0.2 --out "$tmp/bad" >"$tmp/b.txt" 2>&1
rs=$?
[ ! -e "$tmp/bad" ]
ok $((rs != 2 || $?)) "cone --speeds 0.1,,0.2 refused (exit $rs), nothing written: $(head -c 120 "$tmp/b.txt")"
$CL wave --nz 6 --fit-from 5 --out "$tmp/bad" >"$tmp/b.txt" 2>&1
rs=$?
grep -q "fewer than two layers" "$tmp/b.txt" && [ ! -e "$tmp/bad" ]
ok $((rs != 2 || $?)) "wave --nz 6 --fit-from 5 refused (exit $rs): $(head -c 120 "$tmp/b.txt")"
$CL cone --beds 0 --out "$tmp/bad" >"$tmp/b.txt" 2>&1
rs=$?
[ ! -e "$tmp/bad" ]
ok $((rs != 2 || $?)) "cone --beds 0 refused (exit $rs), nothing written: $(head -c 120 "$tmp/b.txt")"
tap_end
