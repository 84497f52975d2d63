#!/bin/sh
# test_bench_cli.sh: the command line of `contactlab bench` (TAP): --repeat takes a whole
# number from 1 to BENCH_MAX_REPEAT (32, experiments/bench.h) and refuses anything else with
# exit 2 and xp_parse_long's message naming the option, the value and the allowed range,
# before any benchmark runs (nothing is written to --out); --sort the same with 0 and up;
# --help lists --repeat. One benchmark runs, the quick pile (under a second): --repeat 2 reaches
# each of its three sizes, which run in child processes of their own ("best of 2" three times);
# its middle size is written for LAMMPS (pile-lammps-1280/data.pile, in.pile) and, when lmp is
# installed, run by both codes: their kinetic energies agree to 1e-12 relative (the same law,
# bench_pile_lammps.c; measured 3e-16 and 1e-14).
#
# The chute without --data, from a scratch folder outside the source tree (no ../shared): the
# quick packing is made in OUT/chute-data-quick (chute_data.c), read by clab_lammps_read_data
# (its counts printed: 2,000 atoms, 60 of them the frozen base), the benchmark runs (against
# LAMMPS when installed: kinetic energies to 1e-12 relative, the same law; measured 9e-16); a
# second run reuses the files, and --make-data makes the same file to the byte (seeded).
set -u
CL=${CONTACTLAB:-./contactlab}
case $CL in /*) ;; *) CL=$(pwd)/$CL ;; esac
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
pl=$tmp/pile/pile-lammps-1280
grep -q "^1280 atoms" "$pl/data.pile" 2>/dev/null && grep -q "^Velocities" "$pl/data.pile" &&
    grep -q "^pair_style *gran/hertz/history" "$pl/in.pile" && grep -q "wall/gran hertz/history" "$pl/in.pile"
ok $? "bench pile: the settled 1,280-sphere pile written for LAMMPS ($pl: data.pile with velocities, in.pile with gran/hertz/history and a wall/gran floor)"

# |column k| <= 1e-12 in every data row of a CSV
small() { awk -F, -v k="$2" 'NR > 1 { n++; v = $k < 0 ? -$k : $k; if (!(v <= 1e-12)) bad = 1 } END { exit bad || !n }' "$1"; }
if command -v lmp >/dev/null 2>&1; then
    small "$tmp/pile/pile-physics.csv" 5 && small "$tmp/pile/pile-physics.csv" 8
    ok $? "bench pile: contactlab and LAMMPS on the same pile agree to 1e-12 (KE, rotational KE): $(tail -n 1 "$tmp/pile/pile-physics.csv" 2>/dev/null)"
else
    echo "ok $((n += 1)) # SKIP lmp not installed: no LAMMPS run of the pile"
fi

# the chute with no --data, from outside the source tree
mkdir "$tmp/away"
(cd "$tmp/away" && $CL bench chute --quick --threads 1 --out b >c1.txt 2>&1)
rs=$?
d=$tmp/away/b/chute-data-quick
grep -q "making the chute's data" "$tmp/away/c1.txt" && [ -s "$d/data.chute" ] && [ -s "$d/in.chute" ] &&
    grep -q "data.chute: 2000 atoms (1940 moving, 60 fixed)" "$tmp/away/c1.txt" && grep -q "^chute-100," "$tmp/away/b/bench-summary.csv"
ok $((rs != 0 || $?)) "bench chute --quick with no --data, outside the source tree: made $d, read back (2000 atoms, 60 fixed) and ran (exit $rs)"
if command -v lmp >/dev/null 2>&1; then
    grep -q "chute-data-quick/data.chute: 2000 atoms" "$tmp/away/c1.txt" &&
        small "$tmp/away/b/chute-physics.csv" 5 && small "$tmp/away/b/chute-physics.csv" 8
    ok $? "bench chute on the made packing: contactlab and LAMMPS agree to 1e-12 (KE, rotational KE): $(tail -n 1 "$tmp/away/b/chute-physics.csv" 2>/dev/null)"
else
    echo "ok $((n += 1)) # SKIP lmp not installed: no LAMMPS run of the chute"
fi
cp "$d/data.chute" "$tmp/first.chute"
(cd "$tmp/away" && $CL bench chute --quick --threads 1 --no-lammps --out b >c2.txt 2>&1)
rs=$?
grep -q "made by contactlab, reused" "$tmp/away/c2.txt" && cmp -s "$d/data.chute" "$tmp/first.chute"
ok $((rs != 0 || $?)) "bench chute: a second run reuses the made packing (exit $rs)"
(cd "$tmp/away" && $CL bench chute --quick --make-data again >c3.txt 2>&1)
rs=$?
cmp -s "$tmp/away/again/data.chute" "$d/data.chute" && cmp -s "$tmp/away/again/in.chute" "$d/in.chute"
ok $((rs != 0 || $?)) "bench chute --make-data: the same data.chute and in.chute to the byte (exit $rs)"

tap_end
