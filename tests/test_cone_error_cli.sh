#!/bin/sh
# test_cone_error_cli.sh: `contactlab cone-error --quick` (TAP): the Stewart-Trinkle LCP's
# polygon of k = 4 and 8 edges at 9 launch angles, and the Tasora-Anitescu CCP (a round cone)
# beside it. The measured friction deflection and heading turn agree with the closed form of
# experiments/cone_error.c (doc/lcp.md) to 0.01 deg (measured 2e-5 deg: on a bisector pgs splits
# the friction between two edges to its tolerance), the path deflection to 0.1 deg (the step's O(h):
# measured 0.03 deg at h = 1e-3 s); the CCP's deflections are 0 to 1e-6 deg; the CSVs and the
# trajectories are written; --k 2 is refused with exit 2 and the value named.
set -u
CL=${CONTACTLAB:-./contactlab}
case $CL in /*) ;; *) CL=$(pwd)/$CL ;; esac
tag=cone-error
. "${top_srcdir:-.}/tests/tap.sh"

$CL cone-error --quick --method lcp,dvi --out "$tmp/o" --no-plot --no-progress >"$tmp/r.txt" 2>&1
rs=$?
ok $rs "cone-error --quick --method lcp,dvi runs (exit $rs)"
S="$tmp/o/cone-error-summary.csv"
rows=$(grep -v '^#' "$S" 2>/dev/null | tail -n +2 | wc -l)
ok $((rows != 27)) "summary: 27 rows (2 k x 9 angles for lcp, 9 for dvi): $rows"
# column by name, then the worst difference of two columns for one method
worst() { # method colA colB
    grep -v '^#' "$S" | awk -F, -v m="$1" -v a="$2" -v b="$3" 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
        $1 == m {d = $(c[a]) - $(c[b]); if (d < 0) d = -d; if (d > w) w = d} END {printf "%.3g", w + 0}'
}
wf=$(worst lcp force_deflection_deg force_deflection_closed_deg)
wt=$(worst lcp heading_turn_deg heading_turn_closed_deg)
wp=$(worst lcp path_deflection_deg path_deflection_closed_deg)
awk -v f="$wf" -v t="$wt" 'BEGIN {exit !(f <= 0.01 && t <= 0.01)}'
ok $? "lcp: friction deflection (worst |diff| $wf deg) and heading turn ($wt deg) = closed form within 0.01 deg"
awk -v p="$wp" 'BEGIN {exit !(p <= 0.1)}'
ok $? "lcp: path deflection = closed form within 0.1 deg (worst $wp deg)"
maxk4=$(grep -v '^#' "$S" | awk -F, '$1 == "lcp" && $2 == 4 {d = $7; if (d < 0) d = -d; if (d > w) w = d} END {print w + 0}')
awk -v m="$maxk4" 'BEGIN {exit !(m >= 35 && m <= 45)}'
ok $? "lcp, k = 4: the friction is deflected by up to pi/k = 45 deg (largest at the angles run: $maxk4 deg)"
wd=$(worst dvi force_deflection_deg force_deflection_closed_deg)
wdp=$(worst dvi path_deflection_deg path_deflection_closed_deg)
awk -v f="$wd" -v p="$wdp" 'BEGIN {exit !(f <= 1e-6 && p <= 1e-6)}'
ok $? "dvi (round cone): no deflection of the friction ($wd deg) nor of the path ($wdp deg)"
[ -s "$tmp/o/cone-error-closed-form.csv" ] && [ -s "$tmp/o/cone-error-k_4-lcp.csv" ] && [ -s "$tmp/o/cone-error-k_8-lcp.csv" ] &&
    [ -s "$tmp/o/cone-error-k_0-dvi.csv" ]
ok $? "the closed form and one trajectory per (k, method) written"
$CL cone-error --k 2 --out "$tmp/bad" >"$tmp/b.txt" 2>&1
rs=$?
grep -q -- "--k" "$tmp/b.txt" && [ ! -e "$tmp/bad" ]
ok $((rs != 2 || $?)) "--k 2 refused naming the option, nothing written (exit $rs): $(head -c 120 "$tmp/b.txt")"
tap_end
