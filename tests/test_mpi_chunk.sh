#!/bin/sh
# test_mpi_chunk.sh: rank 0's outputs gathered chunk by chunk (mpi/gather.c; doc/mpi.md, "How
# it works"), built with --with-mpi:
# - tests/test_mpi_chunk under mpirun on 1 to 4 ranks: the chunked gather's bodies equal
#   clab_mpi_gather's byte for byte (chunks of 1, 7, 4,096; odd ranges backwards), the
#   checkpoint in chunks of 7 the one-chunk file byte for byte;
# - `mpirun -np P contactlab run` of sphere_pile.cfg (32 bodies: 27 beads, a floor, four walls)
#   with chunks of 7 bodies (CLAB_MPI_CHUNK=7, an environment variable only tests set: 5 chunks
#   an output, the walls in the last), P = 2, 3 and 4: the bodies, steps and names CSVs' rows
#   and every VTK frame (spheres and shapes) the one-process run's byte for byte (tolerance 0
#   bytes: the penalty backend's states across ranks are one process's to the bit, doc/mpi.md,
#   and the rows and frames are printed from them in the same order with the same formats; the
#   kinetic energy is the same terms summed in the same order); stopped on 2 ranks with a
#   checkpoint written in chunks of 7 and restarted on 3 (chunks of 5): the uninterrupted run's
#   rows and frames.
tag=mpichunk
. "${top_srcdir:-..}/tests/tap.sh"
run="mpirun --oversubscribe --allow-run-as-root"
mpi_tap_ranks tests/test_mpi_chunk "$tmp"

scene="${top_srcdir:-..}/experiments/scenes/sphere_pile.cfg"
args="--backend penalty --h 1.6e-4 --t-end 0.1 --every 25 --no-plot --no-progress --vtk 2"
pre=sphere_pile-penalty
rows() { grep -v '^#' "$1"; } # a CSV's header and rows
same_as_one() { # directory: 0 when its CSVs' rows and frames are the one-process run's
    s=0
    for f in bodies steps body-names; do
        rows "$tmp/one/$pre-$f.csv" >"$tmp/a.csv"
        rows "$1/$pre-$f.csv" >"$tmp/b.csv"
        cmp -s "$tmp/a.csv" "$tmp/b.csv" || s=1
    done
    for f in "$tmp/one"/*.vtk; do cmp -s "$f" "$1/${f##*/}" || s=1; done
    [ "$(ls "$1" | grep -c '\.vtk$')" -eq "$(ls "$tmp/one" | grep -c '\.vtk$')" ] || s=1
    return $s
}
./contactlab run "$scene" $args --out "$tmp/one" >"$tmp/one.out" 2>&1
ok $? "contactlab run sphere_pile.cfg --vtk 2 in one process"
for P in 2 3 4; do
    CLAB_MPI_CHUNK=7 $run -x CLAB_MPI_CHUNK -np "$P" ./contactlab run "$scene" $args --out "$tmp/c$P" \
        >"$tmp/c$P.out" 2>&1
    st=$?
    same_as_one "$tmp/c$P"
    s=$?
    [ $st -eq 0 ] && [ $s -eq 0 ]
    ok $? "mpirun -np $P contactlab run, chunks of 7 of the 32 bodies: the CSVs' rows and frames the one-process files, byte for byte (exit $st)"
    [ $st -eq 0 ] || sed 's/^/# /' "$tmp/c$P.out"
done
CLAB_MPI_CHUNK=7 $run -x CLAB_MPI_CHUNK -np 2 ./contactlab run "$scene" $args --checkpoint-every 100 --stop-after 310 \
    --out "$tmp/s" >"$tmp/s.out" 2>&1
st=$?
[ $st -eq 3 ] && [ -s "$tmp/s/$pre.ckpt" ]
ok $? "mpirun -np 2, chunks of 7: --stop-after 310 writes a checkpoint (exit $st)"
CLAB_MPI_CHUNK=5 $run -x CLAB_MPI_CHUNK -np 3 ./contactlab run "$scene" $args --restart "$tmp/s/$pre.ckpt" \
    --out "$tmp/s" >"$tmp/s3.out" 2>&1
st=$?
same_as_one "$tmp/s"
s=$?
[ $st -eq 0 ] && [ $s -eq 0 ]
ok $? "restarted on 3 ranks, chunks of 5: the uninterrupted one-process run's rows and frames, byte for byte (exit $st)"
[ $st -eq 0 ] || sed 's/^/# /' "$tmp/s3.out"
tap_end
