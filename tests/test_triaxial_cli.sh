#!/bin/sh
# test_triaxial_cli.sh: `contactlab triaxial` (TAP). Bad options are refused with exit 2 and a
# message naming the option, nothing written; --help lists the options. The --quick form
# (150 spheres, an axial strain of 0.03 at 0.3/s, p = 10 kPa) under the Hertz-Mindlin
# penalty method: the loaded lateral walls (a mass along each wall's axis pushed by p A) hold
# the confining stress (the mean lateral stresses within 1% of p in every row after the first:
# the time mean of a loaded wall's force is p A while its speed stays bounded, measured 0.07%);
# q/p rises from 0 as the sample is loaded (the last row's q/p above 0.3: a dense sample of
# mu = 0.5 spheres reaches 0.6-1.2 by 3% strain); the friction angles of the summary follow
# from its q/p by sin(phi) = 3 M/(6 + M) (1e-9); the inertial number below 1e-3. The same
# --quick form under the Tasora-Anitescu CCP (dvi) with the same loaded walls: the mean of the rows' sigma_xx, sigma_yy is within 5% of p (measured 1.5%),
# and every row (a mean over 3 steps) within 30% (measured 14%: rigid contacts make the wall
# force jump from step to step); the metadata names the loaded walls.
set -u
CL=${CONTACTLAB:-./contactlab}
case $CL in /*) ;; *) CL=$(pwd)/$CL ;; esac
tag=triaxial
. "${top_srcdir:-.}/tests/tap.sh"

$CL triaxial --strain 2 --out "$tmp/bad" >"$tmp/e.txt" 2>&1
rs=$?
grep -q -- "--strain 2 is outside" "$tmp/e.txt" && [ ! -e "$tmp/bad" ]
ok $((rs != 2 || $?)) "--strain 2 refused with the allowed range, nothing written (exit $rs): $(head -c 100 "$tmp/e.txt")"
$CL triaxial --p x --out "$tmp/bad" >"$tmp/e.txt" 2>&1
rs=$?
[ ! -e "$tmp/bad" ]
ok $((rs != 2 || $?)) "--p x refused (exit $rs): $(head -c 100 "$tmp/e.txt")"
$CL triaxial --help >"$tmp/h.txt" 2>&1
rs=$?
grep -q -- "--rate X" "$tmp/h.txt" && grep -q -- "--servo-alpha" "$tmp/h.txt" && grep -q -- "--walls W" "$tmp/h.txt"
ok $((rs != 0 || $?)) "--help lists --rate, --servo-alpha and --walls (exit $rs)"
$CL triaxial --walls stiff --out "$tmp/bad" >"$tmp/e.txt" 2>&1
rs=$?
grep -q -- "--walls stiff: allowed: loaded, servo" "$tmp/e.txt" && [ ! -e "$tmp/bad" ]
ok $((rs != 2 || $?)) "--walls stiff refused naming the allowed values, nothing written (exit $rs)"

out=$tmp/q
tap_skip_rest "the quick run takes minutes under the sanitizers; the normal build runs it"
$CL triaxial --quick --method penalty --out "$out" --no-plot --no-progress >"$tmp/q.txt" 2>&1
rs=$?
ok $rs "triaxial --quick --method penalty (exit $rs): $(tail -n 4 "$tmp/q.txt" | head -c 300)"
f=$out/triaxial-p_10kPa-penalty.csv
col() { awk -F, -v name="$2" '/^#/ {next} !h {for (i = 1; i <= NF; i++) if ($i == name) k = i; h = 1; next} {print $k}' "$1"; }
paste -d, "$(col "$f" sigma_xx_kPa >"$tmp/x"; echo "$tmp/x")" "$(col "$f" sigma_yy_kPa >"$tmp/y"; echo "$tmp/y")" |
    awk -F, 'NR > 1 { n++; if (!($1 > 9.9 && $1 < 10.1 && $2 > 9.9 && $2 < 10.1)) bad = 1 } END { exit bad || n < 10 }'
ok $? "the loaded walls hold sigma_xx and sigma_yy within 1% of p = 10 kPa in every row"
last=$(col "$f" q_over_p | tail -n 1)
awk -v q="$last" 'BEGIN { exit !(q > 0.3 && q < 2) }'
ok $? "q/p at 3% axial strain in (0.3, 2): $last"
awk -F, '/^#/ || $1 == "method" {next} { M = $5; s = 3 * M / (6 + M); phi = atan2(s, sqrt(1 - s * s)) * 45 / atan2(1, 1);
    d = phi - $7; if (d < 0) d = -d; if (!(d < 1e-9 && $10 > 0 && $10 < 1e-3)) bad = 1; n++ } END { exit bad || n != 1 }' "$out/triaxial-summary.csv"
ok $? "summary: phi_cs = asin(3M/(6+M)) of its cs_q_over_p, inertial number below 1e-3: $(grep -v '^#' "$out/triaxial-summary.csv" | tail -n 1 | cut -d, -f1-10)"
out=$tmp/d
$CL triaxial --quick --method dvi --out "$out" --no-plot --no-progress >"$tmp/d.txt" 2>&1
rs=$?
ok $rs "triaxial --quick --method dvi (exit $rs): $(tail -n 4 "$tmp/d.txt" | head -c 300)"
f=$out/triaxial-p_10kPa-dvi.csv
grep -q "^# walls = loaded" "$f"
ok $? "the dvi series' metadata names its loaded walls"
paste -d, "$(col "$f" sigma_xx_kPa >"$tmp/x"; echo "$tmp/x")" "$(col "$f" sigma_yy_kPa >"$tmp/y"; echo "$tmp/y")" |
    awk -F, 'NR > 1 { n += 2; s += $1 + $2; if (!($1 > 7 && $1 < 13 && $2 > 7 && $2 < 13)) bad = 1 }
        END { m = s / n / 10; print m; exit bad || n < 20 || m < 0.95 || m > 1.05 }' >"$tmp/m.txt"
ok $? "loaded walls under dvi: sigma_xx, sigma_yy within 30% of p = 10 kPa in every row, their mean within 5% (mean/p $(cat "$tmp/m.txt"))"
tap_end
