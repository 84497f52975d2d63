#!/bin/sh
# test_bench_cli.sh: the command line of `contactlab bench` (TAP): --repeat takes a whole
# number from 1 to BENCH_MAX_REPEAT (32, experiments/bench.h) and refuses anything else with
# exit 2 and xp_parse_long's message naming the option, the value and the allowed range,
# before any benchmark runs (nothing is written to --out); --sort the same with 0 and up;
# --help lists --repeat. One benchmark runs, the quick pile (under a second): --repeat 2 reaches
# each of its three sizes, which run in child processes of their own ("best of 2" three times).
set -u
CL=${CONTACTLAB:-./contactlab}
tag=bench
. "${top_srcdir:-.}/tests/tap.sh"

for v in 0 33 -1; do # out of range (xp_parse_long's message)
    $CL bench --repeat "$v" --out "$tmp/out" chute >"$tmp/r.txt" 2>&1
    rs=$?
    grep -q -- "--repeat $v is outside the allowed range \[1, 32\]" "$tmp/r.txt" && [ ! -e "$tmp/out" ]
    ok $((rs != 2 || $?)) "--repeat $v refused with its value named, nothing written (exit $rs): $(head -c 100 "$tmp/r.txt")"
done
for v in 2x ""; do # not a number
    $CL bench --repeat "$v" --out "$tmp/out" chute >"$tmp/r.txt" 2>&1
    rs=$?
    grep -q -- "--repeat '$v' is not an integer; allowed: 1 to 32" "$tmp/r.txt" && [ ! -e "$tmp/out" ]
    ok $((rs != 2 || $?)) "--repeat '$v' refused with its value named, nothing written (exit $rs): $(head -c 100 "$tmp/r.txt")"
done
$CL bench --sort -1 --out "$tmp/out" chute >"$tmp/r.txt" 2>&1
rs=$?
grep -q -- "--sort -1 is outside the allowed range \[0, " "$tmp/r.txt" && [ ! -e "$tmp/out" ]
ok $((rs != 2 || $?)) "--sort -1 refused with its value named, nothing written (exit $rs): $(head -c 100 "$tmp/r.txt")"
$CL bench --help >"$tmp/h.txt" 2>&1
rs=$?
grep -q -- "--repeat N" "$tmp/h.txt"
ok $((rs != 0 || $?)) "bench --help lists --repeat (exit $rs)"

$CL bench pile --quick --threads 1 --repeat 2 --out "$tmp/pile" >"$tmp/p.txt" 2>&1
rs=$?
sizes=$(grep -c "best of 2;" "$tmp/p.txt")
ok $((rs != 0 || sizes != 3)) "bench pile --quick --repeat 2: each of the 3 sizes (child processes) ran 2 times (exit $rs, $sizes sizes said so)"

tap_end
