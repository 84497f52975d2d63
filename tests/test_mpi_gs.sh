#!/bin/sh
# test_mpi_gs.sh: the DVI backend's Gauss-Seidel across 1, 2, 3 and 4 ranks (built with
# --with-mpi; doc/mpi.md, "Gauss-Seidel across ranks"): block Gauss-Seidel inside each rank's
# part, Jacobi across ranks (dvi/split_solvers.c), its stopping test the all-reduced residual.
# Its bits depend on P and on the partition; what is held here is what doc/mpi.md promises:
#   - on 1 rank the one-process gs (fast=off sums=exact) to the bit (--check);
#   - on every P every solve reaches the tolerance tol (no solve at the iteration limit, the
#     last residual <= tol), gamma in K to rounding (the iterates are projected onto K), the
#     velocity d = N gamma + p within tol of K* (Moreau: with y = Proj_K(gamma - t d), d +
#     (gamma - y)/t lies in K*, so dist(d, K*) <= the block's residual <= tol) and |gamma.d| <=
#     W h tol (a contact's impulse in the settling pile at most its weight W times h);
#   - the end state after 50 steps within tol h steps of the one-process run's in every
#     position (two solutions to tol differ in velocity by about tol scaled by the CCP's
#     conditioning; the positions integrate h v over the steps): measured 0.15 to 0.32 of it;
#   - the checks can fail: a bound ten times tighter fails the measured differences; a run
#     whose solves stop after 10 iterations (short of tol) is seen at the limit and leaves the
#     bound.
tag=mpigs
. "${top_srcdir:-..}/tests/tap.sh"
run="mpirun --oversubscribe --allow-run-as-root"
tol=3e-3
h=1e-3
steps=50
pile="bench pile --quick --nx 2 --backend dvi --steps $steps --skin 1e-4 --opt solver=gs --opt max_iter=5000"
# max_i |r_i(A) - r_i(B)| over the bodies of two --state files (13 doubles a body: r e rdot
# wbar), minimum image along the pile's periodic x and y (period 2 cells of 2 sqrt(2) R, R = 1 cm)
maxdr() {
    od -A n -v -t f8 -w8 "$1" >"$tmp/a.txt" && od -A n -v -t f8 -w8 "$2" >"$tmp/b.txt" &&
        paste "$tmp/a.txt" "$tmp/b.txt" | awk 'BEGIN { L = 0.04 * sqrt(2); m = 0 }
            { k = (NR - 1) % 13; d = $1 - $2; if (d < 0) d = -d; if (k < 2 && d > L / 2) d = L - d;
              if (k < 3 && d > m) m = d }
            END { if (NR == 0) print "1e300"; else printf "%.6g\n", m }'
}
# the solver's counts and complementarity of a bench output: "hits residual gK dK cK"
counts() {
    sed -n 's/^ *solver, across ranks: .*, \([0-9]*\) at the limit; .* residual \([^ ]*\) m\/s$/\1 \2/p' "$1" | tr '\n' ' '
    sed -n 's/^ *solver, across ranks, complementarity: gamma outside K \([^ ]*\) N s, d outside K\* \([^ ]*\) m\/s, |gamma.d| \([^ ]*\) N m$/\1 \2 \3/p' "$1"
}
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }
bound=$(awk -v t=$tol -v h=$h -v n=$steps 'BEGIN { printf "%.6g", t * h * n }')
# W h tol: the pile's 320 spheres of R = 1 cm, 2500 kg/m^3, under g = 9.81 m/s^2
cbound=$(awk -v t=$tol -v h=$h 'BEGIN { printf "%.6g", 320 * 2500 * 4 / 3 * 3.141592653589793 * 1e-6 * 9.81 * h * t }')
for P in 1 2 3 4; do
    chk=""
    [ "$P" -eq 1 ] && chk="--check"
    $run -np "$P" ./contactlab $pile --opt tol=$tol $chk --state "$tmp/gs-$P.bin" >"$tmp/gs-$P.out" 2>&1
    st=$?
    ok $st "mpirun -np $P contactlab $pile --opt tol=$tol: exit $st"
    [ $st -eq 0 ] || sed 's/^/# /' "$tmp/gs-$P.out"
    grep -E 'grid|solver, ' "$tmp/gs-$P.out" | sed 's/^ */# /'
    set -- $(counts "$tmp/gs-$P.out")
    [ $# -eq 5 ] && [ "$1" -eq 0 ] && le "$2" $tol
    ok $? "gs on $P ranks: every solve reached tol = $tol m/s (limit hits ${1:-?}, the last residual ${2:-?} m/s)"
    [ $# -eq 5 ] && le "$3" 1e-15 && le "$4" $tol && le "$5" "$cbound"
    ok $? "gs on $P ranks: gamma outside K ${3:-?} N s (<= 1e-15), d outside K* ${4:-?} m/s (<= tol), |gamma.d| ${5:-?} N m (<= W h tol = $cbound)"
done
grep -q 'one-rank clab_sim reference: [0-9a-f]*: identical' "$tmp/gs-1.out" &&
    [ "$(sed -n 's/^ *solver, across ranks: //p' "$tmp/gs-1.out")" = "$(sed -n 's/^ *solver, one-rank reference: //p' "$tmp/gs-1.out")" ]
ok $? "gs on 1 rank: the one-process gs (fast=off sums=exact) to the bit: end state, iterations and residual"
worst=0
for P in 2 3 4; do
    dr=$(maxdr "$tmp/gs-1.bin" "$tmp/gs-$P.bin")
    ! cmp -s "$tmp/gs-1.bin" "$tmp/gs-$P.bin" && le "$dr" "$bound"
    ok $? "gs on $P ranks: the end state differs from one process's (the blocks' order) by at most $dr m in position, <= tol h steps = $bound m ($(awk -v a="$dr" -v b="$bound" 'BEGIN { printf "%.2f", a / b }') of it)"
    le "$dr" "$worst" || worst=$dr
done
# the checks can fail
! le "$worst" "$(awk -v b="$bound" 'BEGIN { print b / 10 }')"
ok $? "a bound ten times tighter (tol h steps / 10) fails: the largest difference is $worst m"
# the solves of a run on 2 ranks stopped after 10 iterations, short of the tolerance (residual
# up to 3e-2 m/s): seen as solves at the limit, and its end state outside the bound
$run -np 2 ./contactlab $pile --opt tol=$tol --opt max_iter=10 --state "$tmp/gs-short.bin" >"$tmp/gs-short.out" 2>&1
st=$?
set -- $(counts "$tmp/gs-short.out")
[ $st -eq 0 ] && [ $# -eq 5 ] && [ "$1" -gt 0 ]
ok $? "gs on 2 ranks with max_iter=10: the solves stopped short of tol are seen (${1:-?} of $steps at the limit)"
dr=$(maxdr "$tmp/gs-1.bin" "$tmp/gs-short.bin")
[ $st -eq 0 ] && le "$dr" 1 && ! le "$dr" "$bound"
ok $? "gs on 2 ranks with max_iter=10: $dr m from one process's end state, above the bound $bound m"
# contactlab run sphere_pile.cfg (27 beads dropped into a box: floor and four walls), 300 steps
# of 1 ms to the default tolerance 1e-6 m/s: every step's residual <= tol with no solve at the
# limit, and the end positions within 10 tol h steps of the one-process gs run's (the beads
# hit the floor and each other: the velocities of two solutions to tol differ by up to about
# 50 tol, tests/test_dvi_split.c; measured 1.2 to 3.1 tol h steps)
scene="${top_srcdir:-..}/experiments/scenes/sphere_pile.cfg"
dargs="--backend dvi --h 1e-3 --t-end 0.3 --every 25 --no-plot --no-progress --opt solver=gs"
./contactlab run "$scene" $dargs --opt fast=off --opt sums=exact --out "$tmp/run-1" >/dev/null 2>&1
ok $? "contactlab run sphere_pile.cfg (dvi gs, fast=off sums=exact) in one process"
grep -v '^#' "$tmp/run-1/sphere_pile-dvi-bodies.csv" >"$tmp/a.csv"
for P in 2 3 4; do
    $run -np "$P" ./contactlab run "$scene" $dargs --out "$tmp/run-$P" >"$tmp/run-$P.out" 2>&1
    st=$?
    r=$(grep -v '^#' "$tmp/run-$P/sphere_pile-dvi-steps.csv" 2>/dev/null |
        awk -F, 'NR > 1 { if ($7 > m) m = $7; hits += $8; rows++ } END { printf "%.6g %d %d", m, hits, rows }')
    set -- $r
    [ $st -eq 0 ] && [ "${3:-0}" -gt 1 ] && [ "$2" -eq 0 ] && le "$1" 1e-6
    ok $? "mpirun -np $P contactlab run sphere_pile.cfg --backend dvi --opt solver=gs: residual <= 1e-6 m/s in every row (largest ${1:-?}), no solve at the limit (exit $st)"
    [ $st -eq 0 ] || sed 's/^/# /' "$tmp/run-$P.out"
    grep -v '^#' "$tmp/run-$P/sphere_pile-dvi-bodies.csv" 2>/dev/null >"$tmp/b.csv"
    dr=1e300 # the last frame's rows (t = 0.3 s: 27 beads and the 5 walls), when the files agree in rows
    [ "$(wc -l <"$tmp/a.csv")" -eq "$(wc -l <"$tmp/b.csv")" ] &&
        dr=$(paste -d, "$tmp/a.csv" "$tmp/b.csv" | awk -F, 'NR > 1 && $1 > 0.2999 && NF == 30 {
            for (k = 3; k <= 5; k++) { d = $k - $(k + 15); if (d < 0) d = -d; if (d > m) m = d }; n++ }
            END { if (n >= 27) printf "%.6g", m; else print "1e300" }')
    le "$dr" 3e-6
    ok $? "mpirun -np $P contactlab run sphere_pile.cfg (gs): end positions within $dr m of one process's (<= 10 tol h steps = 3e-6 m)"
done
tap_end
