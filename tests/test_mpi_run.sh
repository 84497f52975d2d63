#!/bin/sh
# test_mpi_run.sh: the outputs and restarts of `mpirun -np P contactlab run` (built with
# --with-mpi; doc/mpi.md, "Build and run"), on sphere_pile.cfg (27 beads settling in a box of a
# floor plane and four box walls) under the penalty backend, whose P-rank states are promised
# to be one process's to the bit: so every file compared here is expected byte for byte (the
# reference: the one-process `contactlab run` of the same options).
# - VTK frames (--vtk 2): rank 0 writes each from the gathered world; every frame of 2 and 3
#   ranks (spheres and the boxes' and plane's companion) is the one-process file, byte for
#   byte, and holds each of the 27 beads once (body_id);
# - --checkpoint-every and --stop-after on 2 ranks (exit 3), restarted on 3 ranks, and without
#   mpirun on 1: the CSVs' rows and the frames of the uninterrupted run;
# - SIGTERM sent to mpirun, and to one rank, during a longer run: all ranks stop at one step
#   boundary with a checkpoint and whole CSV rows; restarted on 3 and on 4 ranks, the bodies
#   CSV of the uninterrupted run (its SHA-256, and so its last rows: the end state);
# - one-process checkpoints (penalty; DVI APGD with fast=off sums=exact) continued on 2 and 3
#   ranks: the uninterrupted run's rows;
# - refusals, named: --measure, a checkpoint without the run's outputs (bench --checkpoint), a
#   restart at the end.
tag=mpirun
. "${top_srcdir:-..}/tests/tap.sh"
run="mpirun --oversubscribe --allow-run-as-root"
scene="${top_srcdir:-..}/experiments/scenes/sphere_pile.cfg"
args="--backend penalty --h 1.6e-4 --t-end 0.1 --every 25 --no-plot --no-progress"
pre=sphere_pile-penalty
rows() { grep -v '^#' "$1"; } # a CSV's header and rows

# ---- VTK frames ----
./contactlab run "$scene" $args --vtk 2 --out "$tmp/one" >"$tmp/one.out" 2>&1
ok $? "contactlab run sphere_pile.cfg --vtk 2 in one process"
nframes=$(ls "$tmp/one" | grep -c '\.vtk$')
for P in 2 3; do
    $run -np "$P" ./contactlab run "$scene" $args --vtk 2 --out "$tmp/v$P" >"$tmp/v$P.out" 2>&1
    st=$?
    same=$st
    for f in "$tmp/one"/*.vtk; do cmp -s "$f" "$tmp/v$P/${f##*/}" || same=1; done
    [ "$(ls "$tmp/v$P" | grep -c '\.vtk$')" -eq "$nframes" ] || same=1
    ok $same "mpirun -np $P contactlab run --vtk 2: the $nframes frames (spheres and shapes) the one-process files, byte for byte (exit $st)"
    [ $same -eq 0 ] || sed 's/^/# /' "$tmp/v$P.out"
    # each bead once: the 27 body_id values of a frame, distinct
    ids=$(sed -n '/^body_id 1 /,/^[a-z]/p' "$tmp/v$P/${pre}_000005.vtk" | grep -E '^[0-9]+$' | sort -n | uniq | wc -l)
    [ "$ids" -eq 27 ] && grep -q '^POINTS 27 double' "$tmp/v$P/${pre}_000005.vtk"
    ok $? "mpirun -np $P: frame 5 holds 27 points with 27 distinct body ids (got $ids)"
done

# ---- --checkpoint-every, --stop-after, --restart on another P ----
$run -np 2 ./contactlab run "$scene" $args --vtk 2 --checkpoint-every 100 --stop-after 310 --out "$tmp/s" \
    >"$tmp/s.out" 2>&1
st=$?
[ $st -eq 3 ] && [ -s "$tmp/s/$pre.ckpt" ] && grep -q 'stopped after step 310 of 625' "$tmp/s.out" &&
    grep -q '^to resume: mpirun -np 2 contactlab run .*--restart' "$tmp/s.out"
ok $? "mpirun -np 2 --stop-after 310: exit status 3, a checkpoint, the command to resume printed (exit $st)"
cp -r "$tmp/s" "$tmp/s1"
$run -np 3 ./contactlab run "$scene" $args --vtk 2 --restart "$tmp/s/$pre.ckpt" --out "$tmp/s" >"$tmp/s3.out" 2>&1
st=$?
same=$st
for f in bodies steps body-names; do
    rows "$tmp/one/$pre-$f.csv" >"$tmp/a.csv"
    rows "$tmp/s/$pre-$f.csv" >"$tmp/b.csv"
    cmp -s "$tmp/a.csv" "$tmp/b.csv" || same=1
done
for f in "$tmp/one"/*.vtk; do cmp -s "$f" "$tmp/s/${f##*/}" || same=1; done
ok $same "stopped on 2 ranks at step 310, restarted on 3: the CSVs' rows and the frames of the uninterrupted run (exit $st)"
[ $same -eq 0 ] && sed 's/^/# /' "$tmp/s3.out" | head -3
grep -q '^# restart.1.mpi_ranks = 2' "$tmp/s/$pre-bodies.csv" && grep -q '^# mpi_ranks = 3' "$tmp/s/$pre-bodies.csv"
ok $? "the restarted CSVs' metadata: mpi_ranks = 3, restart.1.mpi_ranks = 2"
./contactlab run "$scene" $args --restart "$tmp/s1/$pre.ckpt" --out "$tmp/s1" >"$tmp/s1.out" 2>&1
st=$?
rows "$tmp/one/$pre-bodies.csv" >"$tmp/a.csv"
rows "$tmp/s1/$pre-bodies.csv" >"$tmp/b.csv"
[ $st -eq 0 ] && cmp -s "$tmp/a.csv" "$tmp/b.csv" && grep -q 'on 1 rank' "$tmp/s1.out"
ok $? "the same checkpoint continued by contactlab run without mpirun (1 rank): the bodies CSV's rows of the uninterrupted run (exit $st)"

# a one-process checkpoint (CLABCKPT) continued across ranks: penalty on 2 ranks, and the DVI
# backend (APGD, fast=off sums=exact: the solver's columns too) on 3
./contactlab run "$scene" $args --vtk 2 --stop-after 310 --out "$tmp/o" >/dev/null 2>&1
st1=$?
$run -np 2 ./contactlab run "$scene" $args --vtk 2 --restart "$tmp/o/$pre.ckpt" --out "$tmp/o" >"$tmp/o.out" 2>&1
st=$?
same=$st
for f in bodies steps; do
    rows "$tmp/one/$pre-$f.csv" >"$tmp/a.csv"
    rows "$tmp/o/$pre-$f.csv" >"$tmp/b.csv"
    cmp -s "$tmp/a.csv" "$tmp/b.csv" || same=1
done
for f in "$tmp/one"/*.vtk; do cmp -s "$f" "$tmp/o/${f##*/}" || same=1; done
[ $st1 -eq 3 ] && grep -q "(a one-process run's) at step 310" "$tmp/o.out"
ok $((same + $?)) "a one-process run stopped at step 310, continued on 2 ranks: the CSVs' rows and frames of the uninterrupted run (exit $st)"
dargs="--backend dvi --h 1e-3 --t-end 0.3 --every 25 --no-plot --no-progress --opt solver=apgd --opt fast=off --opt sums=exact"
./contactlab run "$scene" $dargs --out "$tmp/du" >/dev/null 2>&1
./contactlab run "$scene" $dargs --stop-after 140 --out "$tmp/dv" >/dev/null 2>&1
$run -np 3 ./contactlab run "$scene" $dargs --restart "$tmp/dv/sphere_pile-dvi.ckpt" --out "$tmp/dv" >"$tmp/dv.out" 2>&1
st=$?
same=$st
for f in bodies steps; do
    rows "$tmp/du/sphere_pile-dvi-$f.csv" >"$tmp/a.csv"
    rows "$tmp/dv/sphere_pile-dvi-$f.csv" >"$tmp/b.csv"
    cmp -s "$tmp/a.csv" "$tmp/b.csv" || same=1
done
ok $same "dvi apgd: a one-process run stopped at step 140, continued on 3 ranks: the bodies and steps CSVs' rows (solver columns too) of the uninterrupted run (exit $st)"

# ---- SIGTERM ----
# Open MPI's mpirun (4.1) passes a SIGTERM or SIGINT it gets on to the ranks as SIGTERM
# odls_base_sigkill_timeout seconds later (default 1) and kills them with SIGKILL as many
# seconds after that: 2 s here, time enough for the ranks' checkpoint of 27 beads. So the run
# must last well beyond the signal plus 2 s: 187,500 steps (5 s on 2 ranks of a quiet 2-core
# host, longer when it is loaded; one process: 4 s), the signal once the steps CSV holds 60
# lines (about 8 rows, 1,600 steps).
long="--backend penalty --h 1.6e-4 --t-end 30 --every 500 --no-plot --no-progress"
./contactlab run "$scene" $long --out "$tmp/u" >/dev/null 2>&1
ok $? "the uninterrupted one-process run of 187,500 steps"
ref=$(rows "$tmp/u/$pre-bodies.csv" | sha256sum | cut -d' ' -f1)
tail -n 32 "$tmp/u/$pre-bodies.csv" | sha256sum | cut -d" " -f1 | sed "s/^/# its last 32 rows (the end state): /"
wait_rows() { # wait_rows FILE N: until FILE has N lines (at most 60 s)
    i=0
    while [ "$(cat "$1" 2>/dev/null | wc -l)" -lt "$2" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
}
for target in mpirun rank; do
    d="$tmp/sig-$target"
    $run --mca odls_base_sigkill_timeout 2 -np 2 ./contactlab run "$scene" $long --out "$d" >"$d.out" 2>&1 &
    pid=$!
    wait_rows "$d/$pre-steps.csv" 60
    if [ $target = mpirun ]; then
        kill -TERM $pid
    else # rank 1 alone (a child of mpirun): the other learns it at the step boundary
        kill -TERM $(ps -o pid= --ppid $pid | tail -n 1)
    fi
    wait $pid
    st=$?
    nb=$(rows "$d/$pre-bodies.csv" | wc -l)
    ns=$(rows "$d/$pre-steps.csv" | wc -l)
    # whole rows: 32 body rows (the 27 beads, the floor and the four walls) for each steps row
    [ -s "$d/$pre.ckpt" ] && grep -q 'stopped by SIGTERM after step' "$d.out" && [ $((nb - 1)) -eq $((32 * (ns - 1))) ] &&
        [ "$(tail -c 1 "$d/$pre-bodies.csv" | od -An -c | tr -d ' ')" = '\n' ]
    ok $? "SIGTERM to $target: all ranks stopped with a checkpoint, the CSVs whole ($((ns - 1)) output steps; mpirun's exit $st)"
    grep 'stopped by' "$d.out" | sed 's/^/# /'
    case $target in
    mpirun) P=3; [ $st -ne 0 ] ;; # Open MPI's own status of a job it was asked to end
    rank) P=4; [ $st -eq 143 ] ;; # the ranks' 128 + SIGTERM
    esac
    ok $? "SIGTERM to $target: mpirun's exit status $st (expected: non-zero from mpirun, 143 from a rank)"
    $run -np $P ./contactlab run "$scene" $long --restart "$d/$pre.ckpt" --out "$d" >"$d.rs" 2>&1
    st=$?
    got=$(rows "$d/$pre-bodies.csv" | sha256sum | cut -d' ' -f1)
    [ $st -eq 0 ] && [ "$got" = "$ref" ]
    ok $? "restarted on $P ranks: the bodies CSV's rows of the uninterrupted run, SHA-256 $got (exit $st)"
done

# ---- refusals ----
$run -np 2 ./contactlab run "$scene" $args --measure walls --out "$tmp/r1" >"$tmp/r1.out" 2>&1
st=$?
[ $st -ne 0 ] && grep -q "option '--measure' is not supported across MPI ranks" "$tmp/r1.out"
ok $? "--measure refused across ranks, named (exit $st)"
$run -np 2 ./contactlab bench pile --quick --nx 2 --steps 10 --checkpoint "$tmp/b.ckpt" >/dev/null 2>&1
$run -np 2 ./contactlab run "$scene" $args --restart "$tmp/b.ckpt" --out "$tmp/p2" >"$tmp/r3.out" 2>&1
st=$?
[ $st -ne 0 ] && grep -q "without contactlab run's outputs" "$tmp/r3.out"
ok $? "a bench checkpoint (no run outputs) refused by run, named (exit $st)"
$run -np 2 ./contactlab run "$scene" $args --t-end 0.016 --restart "$tmp/s1/$pre.ckpt" --out "$tmp/s1" >"$tmp/r4.out" 2>&1
st=$?
[ $st -ne 0 ] && grep -q 'the end of this run or past it' "$tmp/r4.out"
ok $? "a restart at or past the end refused (exit $st)"
tap_end
