#!/bin/sh
# test_mpi_drive.sh: driven and loaded boundaries across MPI ranks (mpi/drive.c; doc/mpi.md,
# "How it works"), on tests/scenes/mpi_driven.cfg: 48 beads on a belt floor (a constant
# motion), a +x wall closing in after t = 0.02 s (a motion table), a servo top plate holding
# 2 kPa, one bead under a 5 N load. The driven bodies are replicated and advanced alike on
# every rank; a servo's velocity comes from the contact force on it summed over the ranks in the
# one-process contact order; so the promise is the one-process run's bits (the reference: the
# one-process `contactlab run` of the same options; under dvi with fast=off sums=exact):
# every CSV row and VTK frame compared byte for byte.
tag=mpi_drive
. "${top_srcdir:-..}/tests/tap.sh"
run="mpirun --oversubscribe --allow-run-as-root"
scene="${top_srcdir:-..}/tests/scenes/mpi_driven.cfg"
rows() { grep -v '^#' "$1"; }
same_rows() { # DIR_A DIR_B PREFIX: the bodies and steps CSVs' rows equal
    for f in bodies steps; do
        rows "$1/$3-$f.csv" >"$tmp/a.csv" && rows "$2/$3-$f.csv" >"$tmp/b.csv" && cmp -s "$tmp/a.csv" "$tmp/b.csv" || return 1
    done
}
args="--no-plot --no-progress"
pre=mpi_driven-penalty
./contactlab run "$scene" $args --vtk 15 --out "$tmp/one" >"$tmp/one.out" 2>&1
ok $? "contactlab run mpi_driven.cfg (penalty) in one process"
# the servo plate (body 5) reached the beads: its last speed below its vmax 0.1 m/s, its last
# height below its start 0.14 m by more than the 1.5 cm it travels before touching
awk -F, '!/^#/ && $2 == 5 { z = $5; vz = $8 } END { exit !(vz > -0.099 && vz < 0 && z < 0.125) }' "$tmp/one/$pre-bodies.csv"
ok $? "the servo plate presses on the beads (its speed at the end below vmax)"
for P in 2 3 4; do
    $run -np $P ./contactlab run "$scene" $args --vtk 15 --out "$tmp/p$P" >"$tmp/p$P.out" 2>&1
    st=$?
    same_rows "$tmp/one" "$tmp/p$P" $pre
    same=$?
    for f in "$tmp/one"/*.vtk; do cmp -s "$f" "$tmp/p$P/${f##*/}" || same=1; done
    ok $same "mpirun -np $P contactlab run mpi_driven.cfg --vtk 15: the one-process rows and frames (the walls' too), byte for byte (exit $st)"
    [ $st -eq 0 ] || sed 's/^/# /' "$tmp/p$P.out"
done
# stopped on 2 ranks, restarted on 3: the uninterrupted run's rows (the driven bodies' states
# and the servo's velocity come back from the checkpoint)
$run -np 2 ./contactlab run "$scene" $args --checkpoint-every 500 --stop-after 1100 --out "$tmp/s" >"$tmp/s.out" 2>&1
st=$?
[ $st -eq 3 ] && [ -s "$tmp/s/$pre.ckpt" ]
ok $? "mpirun -np 2 --stop-after 1100: a checkpoint (exit $st)"
$run -np 3 ./contactlab run "$scene" $args --restart "$tmp/s/$pre.ckpt" --out "$tmp/s" >"$tmp/s3.out" 2>&1
st=$?
same_rows "$tmp/one" "$tmp/s" $pre
ok $? "restarted on 3 ranks: the uninterrupted run's rows (exit $st)"
[ $st -eq 0 ] || sed 's/^/# /' "$tmp/s3.out"
# the dvi backend, projected Jacobi and APGD: the one-process rows of fast=off sums=exact
for solver in jacobi apgd; do
    d="--backend dvi --h 1e-3 --opt solver=$solver --opt fast=off --opt sums=exact $args"
    ./contactlab run "$scene" $d --out "$tmp/d1$solver" >/dev/null 2>&1
    $run -np 3 ./contactlab run "$scene" $d --out "$tmp/d3$solver" >"$tmp/d3.out" 2>&1
    st=$?
    same_rows "$tmp/d1$solver" "$tmp/d3$solver" mpi_driven-dvi
    ok $? "dvi solver=$solver on 3 ranks: the one-process rows, byte for byte (exit $st)"
    [ $st -eq 0 ] || sed 's/^/# /' "$tmp/d3.out"
done
tap_end
