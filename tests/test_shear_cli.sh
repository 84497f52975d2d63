#!/bin/sh
# test_shear_cli.sh: `contactlab shear` (TAP). Bad options are refused with exit 2 and a
# message naming the option, before anything is written; --help lists the options and the
# methods. The --quick form (150 spheres, 3 and 25 kPa, a shift of 0.05 L) under the
# Hertz-Mindlin penalty method with and without tangential history and the Tasora-Anitescu
# CCP: every method starts from the same sample (one shear-sample.dat, the same solid
# fraction in every series' metadata); the plate's load holds sigma_n (the mean normal force
# within 2% of sigma_n A: a free plate in equilibrium carries its load, measured 0.3%);
# tau/sigma_n is a friction coefficient of a granular sample (between 0.1 and 1.5 where it
# peaks; mu = 0.5 between spheres: dense samples reach 0.6-0.9); the inertial number of every
# case below 1e-3 (quasi-static, as the experiment promises); the Mohr-Coulomb table has a
# row per method with a friction angle between 5 and 60 degrees; a second run reads the
# sample back.
set -u
CL=${CONTACTLAB:-./contactlab}
case $CL in /*) ;; *) CL=$(pwd)/$CL ;; esac
tag=shear
. "${top_srcdir:-.}/tests/tap.sh"

$CL shear --sigma 3,,8 --out "$tmp/bad" >"$tmp/e.txt" 2>&1
rs=$?
grep -q -- "sigma" "$tmp/e.txt" && [ ! -e "$tmp/bad" ]
ok $((rs != 2 || $?)) "--sigma 3,,8 refused naming the option, nothing written (exit $rs): $(head -c 100 "$tmp/e.txt")"
$CL shear --n 5 --out "$tmp/bad" >"$tmp/e.txt" 2>&1
rs=$?
grep -q -- "--n 5 is outside" "$tmp/e.txt" && [ ! -e "$tmp/bad" ]
ok $((rs != 2 || $?)) "--n 5 refused with the allowed range (exit $rs): $(head -c 100 "$tmp/e.txt")"
$CL shear --quick --full --out "$tmp/bad" >"$tmp/e.txt" 2>&1
rs=$?
grep -q -- "--quick and --full" "$tmp/e.txt" && [ ! -e "$tmp/bad" ]
ok $((rs != 2 || $?)) "--quick with --full refused (exit $rs)"
$CL shear --help >"$tmp/h.txt" 2>&1
rs=$?
grep -q -- "--sigma LIST" "$tmp/h.txt" && grep -q -- "--full" "$tmp/h.txt" && grep -q "penalty-nohistory" "$tmp/h.txt"
ok $((rs != 0 || $?)) "--help lists --sigma, --full and the method penalty-nohistory (exit $rs)"

tap_skip_rest "the quick run takes minutes under the sanitizers; the normal build runs it"
out=$tmp/q
$CL shear --quick --method penalty,penalty-nohistory,dvi --out "$out" --no-plot --no-progress >"$tmp/q.txt" 2>&1
rs=$?
ok $rs "shear --quick, three methods (exit $rs): $(tail -n 3 "$tmp/q.txt" | head -c 300)"
rows=$(grep -v '^#' "$out/shear-summary.csv" 2>/dev/null | tail -n +2 | wc -l)
ok $((rows != 6)) "summary: a row per method and normal stress (6, got $rows)"
[ -s "$out/shear-sample.dat" ] && [ "$(grep -h '^# solid_fraction = ' "$out"/shear-sigma_*.csv | sort -u | wc -l)" -eq 1 ]
ok $? "one sample, the same solid fraction in all six series"
# column k of a CSV by name
col() { awk -F, -v name="$2" '/^#/ {next} !h {for (i = 1; i <= NF; i++) if ($i == name) k = i; h = 1; next} {print $k}' "$1"; }
bad=0
for f in "$out"/shear-sigma_*.csv; do
    s=$(sed -n 's/^# sigma_n_Pa = //p' "$f")
    A=$(sed -n 's/^# box_L_m = //p' "$f")
    col "$f" normal_force_N | awk -v s="$s" -v L="$A" 'NR > 1 { n++; sum += $1 } END { m = sum / n; exit !(n > 0 && m > 0.98 * s * L * L && m < 1.02 * s * L * L) }' || bad=$((bad + 1))
done
ok $bad "the plate carries its load: mean normal force within 2% of sigma_n L^2 in every series ($bad off)"
awk -F, '/^#/ || $1 == "method" {next} { if (!($4 > 0.1 && $4 < 1.5 && $10 > 0 && $10 < 1e-3)) bad = 1; n++ } END { exit bad || n != 6 }' "$out/shear-summary.csv"
ok $? "peak tau/sigma_n in (0.1, 1.5) and inertial number in (0, 1e-3) in every row"
awk -F, '/^#/ || $1 == "method" {next} { n++; if (!($2 > 5 && $2 < 60)) bad = 1 } END { exit bad || n != 3 }' "$out/shear-mohr-coulomb.csv"
ok $? "Mohr-Coulomb: a peak friction angle in (5, 60) deg for each of the 3 methods: $(awk -F, '!/^#/ {printf "%s %s; ", $1, $2}' "$out/shear-mohr-coulomb.csv" 2>/dev/null)"
grep -q "^# history = off" "$out/shear-sigma_3kPa-penalty-nohistory.csv" &&
    ! grep -q "^# history = off" "$out/shear-sigma_3kPa-penalty.csv"
ok $? "the penalty-nohistory series says history = off in its metadata, the penalty one does not"
$CL shear --quick --method penalty --sigma 8 --out "$out" --force --no-plot --no-progress >"$tmp/r.txt" 2>&1
rs=$?
grep -q "read from" "$tmp/r.txt"
ok $((rs != 0 || $?)) "a second run reads the sample back (exit $rs)"
tap_end
