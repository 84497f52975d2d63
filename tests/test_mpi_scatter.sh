#!/bin/sh
# test_mpi_scatter.sh: only rank 0 builds the whole world (mpi/scatter.c; doc/mpi.md, "Memory").
# tests/test_mpi_scatter under mpirun on 1 to 4 ranks: the local worlds sent out from rank 0's
# world equal the whole-world path's, body for body, with and without --balance (bytes equal).
# Then `contactlab run` with the scene file in rank 0's working directory only (mpirun's
# --wdir, one directory for rank 0, an empty one for the others): the run must not need the file
# on the other ranks, and its CSVs' rows are the one-process run's, byte for byte. A scene rank 0
# refuses gives its message once and a non-zero exit on every rank (mpirun returns; timeout 120 s).
tag=mpi-scatter
. "${top_srcdir:-..}/tests/tap.sh"
run="mpirun --oversubscribe --allow-run-as-root"
mpi_tap_ranks tests/test_mpi_scatter
exe="$(pwd)/contactlab"
mkdir -p "$tmp/r0" "$tmp/rx"
cp "${top_srcdir:-..}/experiments/scenes/sphere_pile.cfg" "$tmp/r0/pile.cfg"
args="--backend penalty --h 1.6e-4 --t-end 0.05 --every 25 --no-plot --no-progress"
(cd "$tmp/r0" && "$exe" run pile.cfg $args --out "$tmp/one") >/dev/null 2>&1
ok $? "contactlab run sphere_pile.cfg (penalty) in one process"
for P in 2 4; do
    $run -np 1 --wdir "$tmp/r0" "$exe" run pile.cfg $args --out "$tmp/run$P" : \
        -np $((P - 1)) --wdir "$tmp/rx" "$exe" run pile.cfg $args --out "$tmp/run$P" >"$tmp/run$P.out" 2>&1
    st=$?
    same=$st
    for f in bodies steps body-names; do
        grep -v '^#' "$tmp/one/pile-penalty-$f.csv" >"$tmp/a.csv"
        grep -v '^#' "$tmp/run$P/pile-penalty-$f.csv" >"$tmp/b.csv" 2>/dev/null || same=1
        cmp -s "$tmp/a.csv" "$tmp/b.csv" || same=1
    done
    ok $same "mpirun -np $P contactlab run pile.cfg, the file in rank 0's directory only: the CSVs' rows the one-process run's, byte for byte (exit $st)"
    [ $same -eq 0 ] || sed 's/^/# /' "$tmp/run$P.out"
done
# bad input refused by rank 0: an unknown material (the scene's reading), a joint (the
# decomposition's refusal, under dvi, which takes joints in one process); one message naming
# it, every rank non-zero, no rank left waiting
sed 's/material = "glass"; position = \[-0.050, -0.050, 0.04\]/material = "sand"; position = [-0.050, -0.050, 0.04]/' \
    "$tmp/r0/pile.cfg" >"$tmp/r0/bad.cfg"
cp "$tmp/r0/pile.cfg" "$tmp/r0/joint.cfg"
printf 'joints = ({ name = "j"; type = "spherical"; body_a = "bead00"; body_b = "bead01"; point = [-0.025, -0.05, 0.04]; });\n' \
    >>"$tmp/r0/joint.cfg"
for c in "bad:unknown material" "joint:joints (1 in the scene) are not supported across ranks"; do
    s=${c%%:*}
    want=${c#*:}
    a="--backend dvi --opt solver=jacobi --h 1e-3 --t-end 0.01 --out $tmp/o$s"
    timeout 120 $run -np 1 --wdir "$tmp/r0" "$exe" run $s.cfg $a : -np 2 --wdir "$tmp/rx" "$exe" run $s.cfg $a \
        >"$tmp/$s.out" 2>&1
    st=$?
    nmsg=$(grep -c "$want" "$tmp/$s.out")
    [ $st -ne 0 ] && [ $st -ne 124 ] && [ "$nmsg" -eq 1 ] && [ ! -e "$tmp/o$s" ]
    ok $? "mpirun -np 3 contactlab run $s.cfg: refused by rank 0, its message once ($nmsg: '$want'), nothing written, exit $st (not the timeout's 124)"
    grep 'contactlab run' "$tmp/$s.out" | sed 's/^/# /'
done
tap_end
