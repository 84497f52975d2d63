#!/bin/sh
# test_mpi.sh: the MPI decomposition on 1, 2, 3 and 4 ranks (built with --with-mpi; doc/mpi.md):
# tests/test_mpi (a sphere sliding through every rank keeps its contact history: the end state
# equal to the one-process run's to the bit) under mpirun, then mpirun -np P contactlab bench
# chute and pile --quick for 1,000 steps with --check (each P's end state compared bit for bit
# with the one-process clab_sim run on rank 0) and the end-state hashes of all P equal.
tag=mpi
. "${top_srcdir:-..}/tests/tap.sh"
run="mpirun --oversubscribe --allow-run-as-root"
mpi_tap_ranks tests/test_mpi
for b in chute pile; do
    for P in 1 2 3 4; do
        $run -np "$P" ./contactlab bench $b --quick --nx 2 --steps 1000 --check --out "$tmp/out" \
            --state "$tmp/$b-$P.bin" >"$tmp/$b-$P.out" 2>&1
        st=$?
        grep -q 'one-rank clab_sim reference: [0-9a-f]*: identical' "$tmp/$b-$P.out"
        ok $? "mpirun -np $P contactlab bench $b --quick --steps 1000 --check: the one-process end state to the bit (exit $st)"
        [ $st -eq 0 ] || sed 's/^/# /' "$tmp/$b-$P.out"
        grep -E 'end state hash|steps in' "$tmp/$b-$P.out" | sed 's/^ */# /'
    done
    s1=$(sha256sum <"$tmp/$b-1.bin" | cut -d' ' -f1)
    same=0
    for P in 2 3 4; do
        [ "$(sha256sum <"$tmp/$b-$P.bin" | cut -d' ' -f1)" = "$s1" ] || same=1
    done
    ok $same "$b: the end state files of 1, 2, 3 and 4 ranks have one SHA-256, $s1"
done
# the cuts moved to the bodies' quantiles (--balance): the same end state
$run -np 3 ./contactlab bench pile --quick --nx 2 --steps 1000 --balance --check >"$tmp/bal.out" 2>&1
st=$?
grep -q 'one-rank clab_sim reference: [0-9a-f]*: identical' "$tmp/bal.out"
ok $? "mpirun -np 3 contactlab bench pile --balance: the one-process end state to the bit (exit $st)"
grep -E 'owned' "$tmp/bal.out" | sed 's/^ */# /'
# one checkpoint written on 2 ranks at step 500, restarted on 1, 3 and 4: the end state of the
# uninterrupted one-process run of 1,000 steps, to the bit
pile="bench pile --quick --nx 2"
$run -np 2 ./contactlab $pile --steps 1000 --checkpoint "$tmp/p500.ckpt" --checkpoint-step 500 >"$tmp/ck.out" 2>&1
ok $? "mpirun -np 2 contactlab $pile --checkpoint at step 500"
for P in 1 3 4; do
    $run -np "$P" ./contactlab $pile --steps 1000 --restart "$tmp/p500.ckpt" --check >"$tmp/rs$P.out" 2>&1
    st=$?
    grep -q 'restarted from .* at step 500' "$tmp/rs$P.out" &&
        grep -q 'one-rank clab_sim reference: [0-9a-f]*: identical' "$tmp/rs$P.out"
    ok $? "restarted on $P ranks from the 2-rank checkpoint: the uninterrupted one-process end state to the bit (exit $st)"
    [ $st -eq 0 ] || sed 's/^/# /' "$tmp/rs$P.out"
done
$run -np 2 ./contactlab bench pile --quick --nx 3 --steps 10 --restart "$tmp/p500.ckpt" >"$tmp/rsbad.out" 2>&1
st=$?
[ $st -ne 0 ] && grep -q 'holds 321 bodies, this world 721' "$tmp/rsbad.out"
ok $? "a checkpoint of another world refused, naming the counts (exit $st)"
# contactlab run across ranks: the CSVs' numeric rows those of the one-process run, byte for byte
scene="${top_srcdir:-..}/experiments/scenes/sphere_pile.cfg"
args="--backend penalty --h 1.6e-4 --t-end 0.1 --every 25 --no-plot --no-progress"
./contactlab run "$scene" $args --out "$tmp/run1" >/dev/null 2>&1
ok $? "contactlab run sphere_pile.cfg (penalty) in one process"
for P in 2 3 4; do
    $run -np "$P" ./contactlab run "$scene" $args --out "$tmp/run$P" >"$tmp/run$P.out" 2>&1
    st=$?
    same=$st
    for f in bodies steps body-names; do
        grep -v '^#' "$tmp/run1/sphere_pile-penalty-$f.csv" >"$tmp/a.csv"
        grep -v '^#' "$tmp/run$P/sphere_pile-penalty-$f.csv" >"$tmp/b.csv" 2>/dev/null || same=1
        cmp -s "$tmp/a.csv" "$tmp/b.csv" || same=1
    done
    ok $same "mpirun -np $P contactlab run sphere_pile.cfg: bodies, steps and body-names CSVs' rows byte-identical to one process (exit $st)"
    [ $same -eq 0 ] || sed 's/^/# /' "$tmp/run$P.out"
done
$run -np 2 ./contactlab run "$scene" --measure walls --out "$tmp/runv" >"$tmp/runv.out" 2>&1
st=$?
[ $st -ne 0 ] && grep -q "option '--measure' is not supported across MPI ranks" "$tmp/runv.out"
ok $? "mpirun -np 2 contactlab run --measure: refused, naming the option (exit $st)"
$run -np 2 ./contactlab run "$scene" --backend penalty --out "$tmp/runh" >"$tmp/runh.out" 2>&1
st=$?
[ $st -ne 0 ] && grep -q "h = 0.001 s is above the penalty backend's stable step" "$tmp/runh.out" && [ ! -e "$tmp/runh" ]
ok $? "mpirun -np 2 contactlab run with h above the stable step: refused as in one process, nothing written (exit $st)"
# the DVI backend across ranks: a pile of 320 spheres settling under the Tasora-Anitescu CCP,
# projected Jacobi and APGD (fast=off sums=exact, set by the ranks), 50 steps of 1 ms with a
# tolerance and an iteration limit that keep the stage short (about 2,100 iterations a run,
# half the solves stopping at the tolerance), a small skin so the decomposition rebuilds (and
# moves the warm start) at most steps; the end state of every P the
# one-process run's to the bit (--check on 1 rank, then one SHA-256 for P = 1..4) and the
# solvers' counts (solves, iterations, the last residual) the one-process run's
dvi="bench pile --quick --nx 2 --backend dvi --steps 50 --skin 1e-4 --opt tol=3e-3 --opt max_iter=60"
for solver in jacobi apgd; do
    for P in 1 2 3 4; do
        chk=""
        [ "$P" -eq 1 ] && chk="--check"
        $run -np "$P" ./contactlab $dvi --opt solver=$solver $chk --state "$tmp/dvi-$solver-$P.bin" \
            >"$tmp/dvi-$solver-$P.out" 2>&1
        st=$?
        ok $st "mpirun -np $P contactlab $dvi --opt solver=$solver: exit $st"
        [ $st -eq 0 ] || sed 's/^/# /' "$tmp/dvi-$solver-$P.out"
        grep -E 'end state hash|solver, |rebuilds|CCP solver' "$tmp/dvi-$solver-$P.out" | sed 's/^ */# /'
    done
    grep -q 'one-rank clab_sim reference: [0-9a-f]*: identical' "$tmp/dvi-$solver-1.out"
    ok $? "dvi $solver on 1 rank: the one-process (fast=off sums=exact) end state to the bit"
    ref=$(sed -n 's/^ *solver, one-rank reference: //p' "$tmp/dvi-$solver-1.out")
    s1=$(sha256sum <"$tmp/dvi-$solver-1.bin" | cut -d' ' -f1)
    for P in 1 2 3 4; do
        got=$(sed -n 's/^ *solver, across ranks: //p' "$tmp/dvi-$solver-$P.out")
        [ -n "$ref" ] && [ "$got" = "$ref" ]
        ok $? "dvi $solver on $P ranks: solves, iterations and the last residual the one-process run's ($got)"
        [ "$P" -eq 1 ] && continue
        [ "$(sha256sum <"$tmp/dvi-$solver-$P.bin" | cut -d' ' -f1)" = "$s1" ]
        ok $? "dvi $solver on $P ranks: the end state file's SHA-256 the one-process run's, $s1"
    done
done
# contactlab run of a DVI scene across ranks: sphere_pile.cfg (27 beads, floor and four box
# walls) for 300 steps of 1 ms at the default tolerance 1e-6 m/s: the bodies, steps (with the
# solver's iterations, residual and limit hits) and body-names CSVs' rows those of the one-process
# run with fast=off sums=exact, byte for byte
dargs="--backend dvi --h 1e-3 --t-end 0.3 --every 25 --no-plot --no-progress"
for solver in jacobi apgd; do
    ./contactlab run "$scene" $dargs --opt solver=$solver --opt fast=off --opt sums=exact --out "$tmp/drun-$solver-1" \
        >/dev/null 2>&1
    ok $? "contactlab run sphere_pile.cfg (dvi $solver, fast=off sums=exact) in one process"
    for P in 2 3 4; do
        $run -np "$P" ./contactlab run "$scene" $dargs --opt solver=$solver --out "$tmp/drun-$solver-$P" >"$tmp/drun$P.out" 2>&1
        st=$?
        same=$st
        for f in bodies steps body-names; do
            grep -v '^#' "$tmp/drun-$solver-1/sphere_pile-dvi-$f.csv" >"$tmp/a.csv"
            grep -v '^#' "$tmp/drun-$solver-$P/sphere_pile-dvi-$f.csv" >"$tmp/b.csv" 2>/dev/null || same=1
            cmp -s "$tmp/a.csv" "$tmp/b.csv" || same=1
        done
        grep -q '^# dvi_sums = exact' "$tmp/drun-$solver-$P/sphere_pile-dvi-bodies.csv" || same=1
        ok $same "mpirun -np $P contactlab run sphere_pile.cfg --backend dvi --opt solver=$solver: the CSVs' rows the one-process run's, byte for byte; dvi_sums = exact in the metadata (exit $st)"
        [ $same -eq 0 ] || sed 's/^/# /' "$tmp/drun$P.out"
    done
    tail -n 1 "$tmp/drun-$solver-1/sphere_pile-dvi-steps.csv" | sed "s/^/# $solver, last steps row: /"
done
# a DVI checkpoint (the warm start with global keys, the solver counters) written on 3 ranks,
# restarted on 2
$run -np 3 ./contactlab $dvi --opt solver=apgd --checkpoint "$tmp/dvi.ckpt" --checkpoint-step 25 \
    >"$tmp/dck.out" 2>&1 &&
    $run -np 2 ./contactlab $dvi --opt solver=apgd --restart "$tmp/dvi.ckpt" --state "$tmp/dvi-rs.bin" \
        >"$tmp/drs.out" 2>&1
st=$?
[ $st -eq 0 ] && grep -q 'restarted from .* at step 25' "$tmp/drs.out" && cmp -s "$tmp/dvi-rs.bin" "$tmp/dvi-apgd-1.bin"
ok $? "dvi apgd: written on 3 ranks at step 25, restarted on 2: the uninterrupted run's end state to the bit (exit $st)"
$run -np 2 ./contactlab $dvi --opt solver=bb --steps 2 >"$tmp/dgs.out" 2>&1
st=$?
[ $st -ne 0 ] && grep -q 'solver=bb does not run across ranks' "$tmp/dgs.out"
ok $? "mpirun -np 2 contactlab bench pile --backend dvi --opt solver=bb: refused, naming the solver (exit $st)"
# refusals: a command the decomposition does not run, named
$run -np 2 ./contactlab bowling --quick --out "$tmp/bowl" >"$tmp/bowl.out" 2>&1
st=$?
[ $st -ne 0 ] && grep -q 'contactlab bowling: not supported across MPI ranks' "$tmp/bowl.out"
ok $? "mpirun -np 2 contactlab bowling: refused, naming the command (exit $st)"
tap_end
