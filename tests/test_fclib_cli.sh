#!/bin/sh
# test_fclib_cli.sh: the FCLIB commands (doc/fclib.md), TAP.
# Built with FCLIB:
# - contactlab run sphere_pile.cfg --backend dvi --fclib-every 50 --fclib-dir D writes D/run-step100,
#   150, 200.hdf5 (t_end 0.2 s, h 1 ms; at step 50 the spheres are still falling: no contacts, no
#   file), and --backend penalty
#   with --fclib-dir is refused naming the DVI backend;
# - contactlab fclib solve on the last one, --solver apgd,exact: both converge, the exact
#   solution's Siconos-convention error is below 1e-6 (tol 1e-8 m/s; measured 4e-9) while
#   the relaxed solution's is not (a sliding pile: the Tasora-Anitescu relaxation is not
#   Coulomb's problem); the file's guess is reported;
# - fclib solve on a text file and on a missing file: exit 1 with the reason, no crash;
# - contactlab bench fclib FILE --quick: a row for contactlab's exact solver and, when built with
#   Siconos, one for each fc3d solver, one of them the reference (the smallest error), and
#   contactlab's exact solution's contact velocities within 1e-5 m/s of it (its tolerance
#   1e-6 m/s; measured 4e-8 at tol 1e-8); the cross-check block (doc/fclib.md) printed, both
#   solutions' De Saxce velocity y in the dual cone and r.y/|r| within 1e-5 m/s (10 x tol);
#   contactlab fclib check FILE --no-polish prints the cross-check and finds one solution there;
#   fclib check without a file: exit 2 with the reason.
# Built without FCLIB: fclib solve and run --fclib-dir say so and name the package.
set -u
top_srcdir=${top_srcdir:-.}
CL=${CONTACTLAB:-./contactlab}
scene=$top_srcdir/experiments/scenes/sphere_pile.cfg
tag=fclibcli
. "$top_srcdir/tests/tap.sh"

if $CL fclib solve /nonexistent.hdf5 2>&1 | grep -q 'built without FCLIB'; then
    $CL fclib solve x.hdf5 >"$tmp/o.txt" 2>&1
    st=$?
    grep -q 'install libfclib-dev' "$tmp/o.txt"
    ok $(( $? || st != 1 )) "without FCLIB: fclib solve exits 1 naming libfclib-dev"
    $CL run "$scene" --backend dvi --t-end 0.01 --fclib-dir "$tmp/d" --out "$tmp/o" --no-plot --no-progress >"$tmp/o.txt" 2>&1
    st=$?
    grep -q 'built without FCLIB' "$tmp/o.txt"
    ok $(( $? || st == 0 )) "without FCLIB: run --fclib-dir fails saying so"
    tap_end
    exit $?
fi

$CL run "$scene" --backend dvi --t-end 0.2 --fclib-every 50 --fclib-dir "$tmp/d" --out "$tmp/o" --no-plot \
    --no-progress >"$tmp/o.txt" 2>&1
ok $? "run --fclib-every 50 --fclib-dir exits 0"
nf=$(ls "$tmp/d"/run-step*.hdf5 2>/dev/null | wc -l)
[ "$nf" -eq 3 ] && [ -f "$tmp/d/run-step100.hdf5" ] && [ -f "$tmp/d/run-step200.hdf5" ]
ok $? "three problems written, steps 100, 150, 200 (at step 50 the spheres still fall: no contacts) ($nf files)"
$CL run "$scene" --backend penalty --h 1e-4 --t-end 0.001 --fclib-dir "$tmp/p" --out "$tmp/o2" --no-plot --no-progress \
    >"$tmp/o.txt" 2>&1
st=$?
grep -q 'DVI backend' "$tmp/o.txt"
ok $(( $? || st == 0 )) "penalty with --fclib-dir refused, naming the DVI backend: $(head -c 200 "$tmp/o.txt" | tr '\n' ' ')"

$CL fclib solve "$tmp/d/run-step200.hdf5" --solver apgd,exact --tol 1e-8 >"$tmp/s.txt" 2>&1
ok $? "fclib solve --solver apgd,exact exits 0"
grep -q "the file's guess" "$tmp/s.txt"
ok $? "the file's guess is reported"
[ "$(grep -c ': converged after' "$tmp/s.txt")" -eq 2 ]
ok $? "both solves converge"
exact_err=$(grep -A1 '^  exact ' "$tmp/s.txt" | sed -n 's/.*Siconos \([^ ]*\).*/\1/p')
relax_err=$(grep -A1 '^  apgd ' "$tmp/s.txt" | sed -n 's/.*Siconos \([^ ]*\).*/\1/p')
awk -v e="$exact_err" -v r="$relax_err" 'BEGIN { exit !(e + 0 < 1e-6 && r + 0 > 1e-6) }'
ok $? "Coulomb's error (Siconos convention): exact $exact_err < 1e-6 < relaxed $relax_err"

echo "not HDF5" >"$tmp/t.hdf5"
$CL fclib solve "$tmp/t.hdf5" >"$tmp/e.txt" 2>&1
st=$?
grep -q 'not an HDF5 file' "$tmp/e.txt"
ok $(( $? || st != 1 )) "a text file: exit 1, 'not an HDF5 file'"
$CL fclib solve "$tmp/none.hdf5" >"$tmp/e.txt" 2>&1
st=$?
grep -q 'cannot open' "$tmp/e.txt"
ok $(( $? || st != 1 )) "a missing file: exit 1, 'cannot open'"

OMP_NUM_THREADS=1 $CL bench fclib "$tmp/d/run-step100.hdf5" --quick --out "$tmp/b" >"$tmp/b.txt" 2>&1
ok $? "bench fclib FILE exits 0"
grep -q '^  clab exact ' "$tmp/b.txt"
ok $? "bench fclib: contactlab's exact row"
if grep -q 'built without Siconos' "$tmp/b.txt"; then
    echo "# Siconos absent: its rows not checked"
else
    grep -q '^  siconos nsgs ' "$tmp/b.txt" && grep -q '^  siconos nsn-ac ' "$tmp/b.txt" &&
        [ "$(grep -c '(reference)' "$tmp/b.txt")" -eq 1 ]
    ok $? "bench fclib: Siconos NSGS and NSN-AC rows, one reference"
    du=$(awk '$1 == "clab" && $2 == "exact" { print $11 }' "$tmp/b.txt")
    awk -v d="$du" 'BEGIN { exit !(d != "" && d + 0 <= 1e-5) }'
    ok $? "bench fclib: contactlab's exact and the reference agree on the contact velocities: du $du <= 1e-5 m/s (tol 1e-6)"
    grep -q "^  cross-check of clab exact (a) and siconos " "$tmp/b.txt" && grep -q '^    fixed points' "$tmp/b.txt"
    ok $? "bench fclib: the cross-check of contactlab's exact and Siconos's solution is printed"
    # the rows of the two solutions: solver name (2 words), err, r_E, d(r,K), d(y,K*), r.y/|r|, ...
    dual=$(awk '/^  cross-check of/ { c = 1; next } c && ($1 == "clab" || $1 == "siconos") && NF == 12 { print $6, $7 }' "$tmp/b.txt")
    echo "$dual" | awk 'NF == 2 { n++; if (!($1 + 0 <= 1e-5 && $2 + 0 <= 1e-5)) bad = 1 } END { exit !(n == 2 && !bad) }'
    ok $? "bench fclib: both solutions satisfy Coulomb's conditions: d(y,K*) and r.y/|r| <= 1e-5 m/s (tol 1e-6): $(echo $dual)"
    $CL fclib check "$tmp/d/run-step100.hdf5" --no-polish >"$tmp/c.txt" 2>&1
    st=$?
    grep -q "^  cross-check of clab exact (a) and siconos nsgs (b)" "$tmp/c.txt" && grep -q "one solution to the tolerance reached" "$tmp/c.txt"
    ok $(( $? || st != 0 )) "fclib check FILE --no-polish: the cross-check, one solution to the tolerance (exit $st)"
fi
$CL fclib check >"$tmp/c2.txt" 2>&1
st=$?
grep -q 'give exactly one FCLIB file' "$tmp/c2.txt"
ok $(( $? || st != 2 )) "fclib check without a file: exit 2, 'give exactly one FCLIB file'"
tap_end
