#!/bin/sh
# test_hopper_cli.sh: contactlab hopper --quick (TAP): 400 spheres, orifices 6 and 8 d, penalty
# and dvi. Every series row has discharged + remaining = 400 (the count of each sphere once)
# and a discharged count that never decreases; every (orifice, method) has a positive flow rate
# in the summary; the Beverloo CSV has a row per method; the settled fill is saved; bad options
# (and --quick with --full) are refused with exit 2.
set -u
CL=${CONTACTLAB:-./contactlab}
case $CL in /*) ;; *) CL=$(pwd)/$CL ;; esac
tag=hopper
. "${top_srcdir:-.}/tests/tap.sh"

tap_skip_rest "the quick run takes minutes under the sanitizers; the normal build runs it"
$CL hopper --quick --no-plot --no-progress --out "$tmp/q" >"$tmp/q.txt" 2>&1
rs=$?
ok $rs "hopper --quick runs (exit $rs): $(tail -n 3 "$tmp/q.txt" | head -c 300)"
nser=0
bad=0
for f in "$tmp"/q/hopper-flat-D_*-*.csv; do
  [ -e "$f" ] || continue
  nser=$((nser + 1))
  awk -F, '/^#/ { next } !h { h = 1; next } { if ($2 + $4 != 400 || $2 < last) bad++; last = $2 } END { exit bad || NR < 3 }' "$f" || bad=$((bad + 1))
done
ok $((nser != 4 || bad)) "4 series, every row discharged + remaining = 400, the count never decreasing ($bad bad of $nser)"
s=$tmp/q/hopper-summary.csv
rows=$(awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == "W_kg_s") c = i; h = 1; next } $c > 0 { n++ } END { print n + 0 }' "$s")
ok $((rows != 4)) "summary: 4 rows with a positive flow rate W ($rows)"
b=$(awk -F, '/^#/ { next } !h { h = 1; next } { n++ } END { print n + 0 }' "$tmp/q/hopper-beverloo.csv")
ok $((b != 2)) "Beverloo CSV: one row per method ($b)"
grep -q "^# law = Beverloo" "$tmp/q/hopper-beverloo.csv"
ok $? "Beverloo CSV names the law in its metadata"

$CL hopper --geometry box --out "$tmp/bad" >"$tmp/b.txt" 2>&1
rs=$?
grep -q "is not flat or cone" "$tmp/b.txt" && [ ! -e "$tmp/bad" ]
ok $((rs != 2 || $?)) "--geometry box refused (exit $rs), nothing written: $(head -c 120 "$tmp/b.txt")"
$CL hopper --geometry cone --orifice 12 --out "$tmp/bad" >"$tmp/b.txt" 2>&1
rs=$?
grep -q "wider than the cone's outlet" "$tmp/b.txt" && [ ! -e "$tmp/bad" ]
ok $((rs != 2 || $?)) "--orifice 12 wider than the cone's outlet 10 d refused (exit $rs)"
$CL hopper --quick --full --out "$tmp/bad" >"$tmp/b.txt" 2>&1
rs=$?
grep -q "give one of them" "$tmp/b.txt" && [ ! -e "$tmp/bad" ]
ok $((rs != 2 || $?)) "--quick with --full refused (exit $rs)"
[ -s "$tmp/q/hopper-flat-fill.ckpt" ]
ok $? "the settled fill is saved for --fill-from and restarts (hopper-flat-fill.ckpt)"
tap_end
