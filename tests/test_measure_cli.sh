#!/bin/sh
# test_measure_cli.sh: `contactlab run --contacts N` and `--measure BOX` (doc/measure.md), TAP.
# - tests/scenes/measure_box.cfg (8 beads in a box of six planes, every step an output row)
#   with --contacts 1 --measure walls, under DVI and penalty: the contacts CSV has as many rows
#   at each step as the steps CSV counts contacts; each bead's contact forces (force on b: +,
#   on a: -) sum to its net contact force m (v_k - v_(k-1))/h - m g from the bodies CSV (both
#   backends advance v by h (F_contact + m g)/m: semi-implicit Euler), at every step to 1e-8
#   m g under DVI, 1e-6 m g under penalty (rounding of m dv/h: measured 4e-15 and 3e-13); the measure CSV has one row per output row, V = 0.04 x 0.04 x 0.05 m^3 (the walls)
#   to 1e-12 and solid fraction 8 (4/3) pi r^3 / V to 1e-4 (a penalty bead overlapping a wall
#   is cut by it: a cap of height -Phi, a few micrometres, is outside); --contacts 3 writes the
#   rows of every third output row only.
# - bad options refused with a message naming the option and what is allowed: --contacts 0,
#   --contacts abc, --measure with five numbers, an empty range, walls that make no box
#   (sphere_pile: box walls), --rattler-min 0, --contacts with --restart; and no file made.
set -u
top_srcdir=${top_srcdir:-.}
CL=${CONTACTLAB:-./contactlab}
scene=$top_srcdir/tests/scenes/measure_box.cfg
tag=measurecli
. "$top_srcdir/tests/tap.sh"

for backend in dvi penalty; do
    d=$tmp/$backend
    # (penalty: 30 ms at 10 us, the beads land at about 14 ms)
    if [ $backend = dvi ]; then bo="--opt tol=1e-10"; tol=1e-8; else bo="--h 1e-5 --t-end 0.03"; tol=1e-6; fi
    # shellcheck disable=SC2086
    $CL run "$scene" --backend $backend $bo --contacts 1 --measure walls --out "$d" --no-plot --no-progress \
        >"$tmp/o.txt" 2>&1
    ok $? "$backend: run --contacts 1 --measure walls exits 0"
    p=$d/measure_box-$backend
    h=$(grep '^# h_s = ' "$p-steps.csv" | sed 's/.*= //')
    # rows per step against the steps CSV's contacts column
    grep -v '^#' "$p-steps.csv" | awk -F, 'NR > 1 && $4 > 0 { print $2 "," $4 }' | sort -t, -k1,1n >"$tmp/want.txt"
    grep -v '^#' "$p-contacts.csv" | awk -F, 'NR > 1 { n[$2]++ } END { for (s in n) print s "," n[s] }' |
        sort -t, -k1,1n >"$tmp/got.txt"
    rows=$(wc -l <"$tmp/got.txt")
    cmp -s "$tmp/got.txt" "$tmp/want.txt" && [ "$rows" -gt 5 ]
    ok $? "$backend: the contacts CSV's rows per step = the steps CSV's contacts ($rows steps with contacts)"
    # each bead's contact forces against m dv/h - m g (the bodies CSV: 14 rows per step)
    grep -v '^#' "$p-bodies.csv" | awk -F, 'NR > 1' >"$tmp/bodies.txt"
    grep -v '^#' "$p-contacts.csv" | awk -F, 'NR > 1' >"$tmp/contacts.txt"
    # shellcheck disable=SC2046
    set -- $(awk -F, -v h="$h" '
        FNR == 1 { file++ }
        file == 1 { k = int((FNR - 1) / 14); b = $2; vx[k, b] = $6; vy[k, b] = $7; vz[k, b] = $8; nk = k; next }
        file == 2 { s = $2; fx[s, $4] += $15; fy[s, $4] += $16; fz[s, $4] += $17;
                    fx[s, $3] -= $15; fy[s, $3] -= $16; fz[s, $3] -= $17; seen[s] = 1 }
        END {
            pi = atan2(0, -1); m = 2500 * 4 / 3 * pi * 0.005^3; g = 9.81; worst = 0; n = 0
            for (k = 1; k <= nk; k++) {
                if (!(k in seen)) continue
                for (b = 6; b < 14; b++) {
                    ex = m * (vx[k, b] - vx[k - 1, b]) / h - fx[k, b]
                    ey = m * (vy[k, b] - vy[k - 1, b]) / h - fy[k, b]
                    ez = m * (vz[k, b] - vz[k - 1, b]) / h + m * g - fz[k, b]
                    e = sqrt(ex * ex + ey * ey + ez * ez) / (m * g); n++
                    if (e > worst) worst = e
                }
            }
            printf "%.3g %d\n", worst, n }' "$tmp/bodies.txt" "$tmp/contacts.txt")
    awk -v e="$1" -v n="$2" -v tol="$tol" 'BEGIN { exit !(e <= tol && n > 100) }'
    ok $? "$backend: every bead's contact forces sum to m dv/h - m g at every step: worst |diff| $1 m g <= $tol m g ($2 bead-steps)"
    # the measure CSV: a row per output row, V and the solid fraction of the walls' box
    nm=$(grep -v '^#' "$p-measure.csv" | awk -F, 'NR > 1' | wc -l)
    ns=$(grep -v '^#' "$p-steps.csv" | awk -F, 'NR > 1' | wc -l)
    grep -v '^#' "$p-measure.csv" | awk -F, -v nm="$nm" -v ns="$ns" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { pi = atan2(0, -1); V = 0.04 * 0.04 * 0.05; phi = 8 * 4 / 3 * pi * 0.005^3 / V
          if ((($c["volume_m3"] - V) / V)^2 > 1e-24 || (($c["solid_fraction"] - phi) / phi)^2 > 1e-8) bad = 1 }
        END { exit !(nm == ns && !bad) }'
    ok $? "$backend: measure CSV: $nm rows for $ns output rows, V = 8e-5 m^3 to 1e-12, solid fraction 8 (4/3) pi r^3/V to 1e-4"
done

# --contacts 3: the rows of output rows 0, 3, 6, ... only (steps 3, 6, ... at every 1)
d=$tmp/c3
$CL run "$scene" --contacts 3 --out "$d" --no-plot --no-progress >/dev/null 2>&1
steps=$(grep -v '^#' "$d/measure_box-dvi-contacts.csv" | awk -F, 'NR > 1 { if ($2 % 3) bad = 1; s[$2] = 1 } END { n = 0; for (k in s) n++; print bad ? -1 : n }')
[ "$steps" -gt 5 ]
ok $? "--contacts 3: rows only at every third output row ($steps steps with contacts, none between)"

# ---- bad options ----
bad() { # $1: description, $2: expected text, rest: the options
    desc=$1 want=$2
    shift 2
    out=$tmp/bad_$n
    $CL run "$scene" --out "$out" --no-plot --no-progress "$@" >"$tmp/b.txt" 2>&1
    rs=$?
    grep -q -- "$want" "$tmp/b.txt" && [ $rs -ne 0 ] && [ ! -e "$out/measure_box-dvi-bodies.csv" ]
    ok $? "$desc: refused (exit $rs), no file made: $(head -1 "$tmp/b.txt")"
}
bad "--contacts 0" "--contacts 0 is outside the allowed range \[1, " --contacts 0
bad "--contacts abc" "--contacts 'abc' is not an integer" --contacts abc
bad "--measure with five numbers" "give walls or six numbers x0,x1,y0,y1,z0,z1" --measure 0,1,0,1,0
bad "--measure with an empty range" "the box's y range \[1, 1\] is empty" --measure 0,1,1,1,0,1
bad "--rattler-min 0" "--rattler-min 0 is outside the allowed range" --measure walls --rattler-min 0
bad "--contacts with --restart" "--contacts and --measure do not continue a run" --contacts 1 --restart x.ckpt
out=$tmp/bad_pile
$CL run "$top_srcdir/experiments/scenes/sphere_pile.cfg" --measure walls --out "$out" --no-plot --no-progress \
    >"$tmp/b.txt" 2>&1
rs=$?
grep -q "no box from the walls: axis x has no wall below the sample" "$tmp/b.txt" && [ $rs -ne 0 ] && [ ! -e "$out" ]
ok $? "--measure walls on a scene whose side walls are boxes: refused before any file (exit $rs)"
tap_end
