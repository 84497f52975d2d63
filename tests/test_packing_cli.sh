#!/bin/sh
# test_packing_cli.sh: `contactlab prepare` (radius growth, doc/measure.md), TAP.
# - 100 frictionless spheres to solid fraction 0.55 in six walls (below jamming: small overlaps):
#   the printed solid fraction is within 1% of the target; the saved scene loads under penalty
#   and DVI (`contactlab run packing.cfg --measure walls`), and the measure CSV's first row
#   (step 0, the saved packing) has the solid fraction within 1% of the target and 100
#   particles: every method starts from that packing;
# - the same seed gives the same data file byte for byte, another seed another one;
# - a size range (--rmin, --rmax) and periodic axes (--periodic xy: no walls across x, y);
# - bad options refused: --phi 0.9, --rmin without --rmax, --periodic w, --n 1.
set -u
top_srcdir=${top_srcdir:-.}
CL=${CONTACTLAB:-./contactlab}
tag=packingcli
. "$top_srcdir/tests/tap.sh"

q="--n 100 --phi 0.55 --stages 20 --relax-steps 200 --final-steps 4000 --no-progress"
# shellcheck disable=SC2086
$CL prepare $q --out "$tmp/a" >"$tmp/a.txt" 2>&1
ok $? "prepare --n 100 --phi 0.55 exits 0: $(head -1 "$tmp/a.txt" | cut -c1-160)"
phi=$(sed -n 's/.*solid fraction \([0-9.]*\) (target.*/\1/p' "$tmp/a.txt")
awk -v p="$phi" 'BEGIN { exit !(p != "" && (p - 0.55)^2 <= (0.01 * 0.55)^2) }'
ok $? "the solid fraction reached, $phi, is within 1% of 0.55"
for backend in penalty dvi; do
    hb=""
    [ $backend = dvi ] && hb="--h 1e-3"
    # shellcheck disable=SC2086
    $CL run "$tmp/a/packing.cfg" --backend $backend --t-end 0.002 $hb --measure walls \
        --out "$tmp/r$backend" --no-plot --no-progress >"$tmp/r.txt" 2>&1
    rs=$?
    f=$tmp/r$backend/packing-$backend-measure.csv
    grep -v '^#' "$f" 2>/dev/null | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        NR == 2 { phi = $c["solid_fraction"]; n = $c["particles"]; exit !(n == 100 && (phi - 0.55)^2 <= (0.01 * 0.55)^2) }'
    ok $((rs != 0 || $?)) "$backend loads the saved packing: step 0 has 100 particles at solid fraction 0.55 +- 1% (exit $rs)"
done
# shellcheck disable=SC2086
$CL prepare $q --out "$tmp/b" >/dev/null 2>&1
cmp -s "$tmp/a/packing.data" "$tmp/b/packing.data"
ok $? "the same seed: the same data file to the byte"
# shellcheck disable=SC2086
$CL prepare $q --seed 2 --out "$tmp/c" >/dev/null 2>&1
cmp -s "$tmp/a/packing.data" "$tmp/c/packing.data"
ok $((! $?)) "seed 2: another packing"
$CL prepare --n 60 --rmin 0.002 --rmax 0.003 --phi 0.5 --periodic xy --stages 10 --relax-steps 200 --final-steps 2000 \
    --no-progress --out "$tmp/d" >"$tmp/d.txt" 2>&1
rs=$?
grep -q 'periodic = \["x", "y"\]' "$tmp/d/packing.cfg" && ! grep -q 'wall_x' "$tmp/d/packing.cfg" &&
    grep -q 'wall_z_lo' "$tmp/d/packing.cfg" &&
    awk 'f && NF == 7 { d = $3; if (d < 0.004 || d > 0.006) bad = 1; n++ } /^Atoms/ { f = 1 } END { exit !(n == 60 && !bad) }' \
        "$tmp/d/packing.data"
ok $((rs != 0 || $?)) "--rmin 0.002 --rmax 0.003 --periodic xy: 60 diameters in [4, 6] mm, x and y periodic, walls along z only"
bad() { # $1 expected text, rest: options
    want=$1
    shift
    $CL prepare "$@" --out "$tmp/bad" --no-progress >"$tmp/b.txt" 2>&1
    rs=$?
    grep -q -- "$want" "$tmp/b.txt" && [ $rs -eq 2 ] && [ ! -e "$tmp/bad" ]
    ok $? "prepare $*: refused (exit $rs): $(head -1 "$tmp/b.txt")"
}
bad "--phi 0.9 is outside" --phi 0.9
bad "give --rmin and --rmax together" --rmin 0.001
bad "--periodic 'w': give axes among x, y, z" --periodic w
bad "--n 1 is outside the allowed range" --n 1
tap_end
