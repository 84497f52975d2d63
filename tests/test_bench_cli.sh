#!/bin/sh
# test_bench_cli.sh: the command line of `contactlab bench` (TAP): --repeat takes a whole
# number from 1 to BENCH_MAX_REPEAT (32, experiments/bench.h) and refuses anything else with
# exit 2 and a message naming the option and the value, before any benchmark runs (nothing is
# written to --out); --help lists it. Runs no benchmark.
set -u
CL=${CONTACTLAB:-./contactlab}
tag=bench
. "${top_srcdir:-.}/tests/tap.sh"

for v in 0 33 -1 2x ""; do
    $CL bench --repeat "$v" --out "$tmp/out" chute >"$tmp/r.txt" 2>&1
    rs=$?
    grep -q -- "--repeat: '$v' is not a whole number from 1 to 32" "$tmp/r.txt" && [ ! -e "$tmp/out" ]
    ok $((rs != 2 || $?)) "--repeat '$v' refused with its value named, nothing written (exit $rs): $(head -c 100 "$tmp/r.txt")"
done
$CL bench --help >"$tmp/h.txt" 2>&1
rs=$?
grep -q -- "--repeat N" "$tmp/h.txt"
ok $((rs != 0 || $?)) "bench --help lists --repeat (exit $rs)"

tap_end
