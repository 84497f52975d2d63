#!/bin/sh
# test_mpi_contacts.sh: `mpirun -np P contactlab run SCENE --contacts N` (built with --with-mpi;
# doc/mpi.md "Build and run", doc/measure.md): rank 0 writes <scene>-<backend>-contacts.csv from
# the rows each rank computes for the contacts it counts (the owner of body a, of b when a is
# fixed), streamed to it in key order by chunks (mpi/run_mpi_contacts.c, mpi/gather.c).
# The reference is the one-process `contactlab run` of the same options (P = 1, without
# mpirun); the tolerance is zero, every data row byte for byte: the P-rank state is promised to
# be one process's to the bit (penalty; dvi jacobi with fast=off sums=exact, doc/mpi.md "What is
# promised"), and each row is computed by the same function (xp_run_contact_row) from the same
# contact record and body bytes. CLAB_MPI_CHUNK=7 makes the stream take several rounds an
# output row (a row holds up to 48 contacts here). Also checked against an independent count:
# the rows of each output step are as many as the steps CSV's `contacts` column (every contact
# once, none doubled); the metadata is the one-process file's plus mpi_ranks and mpi_grid.
# Refusals, named: --measure, --rattler-min across ranks; --contacts with --restart.
tag=mpi_contacts
. "${top_srcdir:-..}/tests/tap.sh"
run="mpirun --oversubscribe --allow-run-as-root"
pile="${top_srcdir:-..}/experiments/scenes/sphere_pile.cfg"
driven="${top_srcdir:-..}/tests/scenes/mpi_driven.cfg"
rows() { grep -v '^#' "$1"; }
# same DIR_A DIR_B PREFIX: the contacts CSVs' rows equal, and not empty
same() {
    rows "$1/$3-contacts.csv" >"$tmp/a.csv" && rows "$2/$3-contacts.csv" >"$tmp/b.csv" &&
        [ "$(wc -l <"$tmp/a.csv")" -gt 20 ] && cmp -s "$tmp/a.csv" "$tmp/b.csv"
}
# counted DIR PREFIX N: the rows of output row k (k % N == 0) are the steps CSV's contacts of it
counted() {
    awk -F, -v N="$3" 'FNR == NR { if (!/^#/ && h++) { if ((h - 2) % N == 0) want[$2] = $4 } next }
        !/^#/ && g++ { got[$2]++ }
        END { for (s in want) if (want[s] != got[s] + 0) bad++; for (s in got) if (!(s in want)) bad++;
              exit bad > 0 }' "$1/$2-steps.csv" "$1/$2-contacts.csv"
}
# meta DIR_A DIR_B PREFIX: the metadata is A's plus the two mpi lines
meta() {
    grep '^#' "$1/$3-contacts.csv" >"$tmp/a.meta"
    grep '^#' "$2/$3-contacts.csv" | grep -v -e '^# mpi_ranks = ' -e '^# mpi_grid = ' >"$tmp/b.meta"
    cmp -s "$tmp/a.meta" "$tmp/b.meta" && grep -q '^# mpi_ranks = ' "$2/$3-contacts.csv"
}

# ---- penalty: sphere_pile.cfg (27 beads in a box) and mpi_driven.cfg (belt floor, a wall on a
# motion table, a servo plate, a loaded bead) ----
for scene in "$pile" "$driven"; do
    name=${scene##*/}
    name=${name%.cfg}
    pre=$name-penalty
    args="--backend penalty --h 1.6e-4 --t-end 0.1 --every 25 --no-plot --no-progress --contacts 2"
    [ "$scene" = "$driven" ] && args="--no-plot --no-progress --contacts 3"
    N=${args##* }
    ./contactlab run "$scene" $args --out "$tmp/$name-1" >"$tmp/one.out" 2>&1
    st=$?
    counted "$tmp/$name-1" $pre $N
    ok $(($st | $?)) "$name in one process --contacts $N: each output row's contacts as many as the steps CSV counts (exit $st)"
    for P in 2 3 4; do
        CLAB_MPI_CHUNK=7 $run -np $P ./contactlab run "$scene" $args --out "$tmp/$name-$P" >"$tmp/p.out" 2>&1
        st=$?
        same "$tmp/$name-1" "$tmp/$name-$P" $pre
        ok $(($st | $?)) "$name on $P ranks, chunks of 7: the contacts CSV's rows, byte for byte (exit $st)"
        [ $st -eq 0 ] || sed 's/^/# /' "$tmp/p.out"
    done
    meta "$tmp/$name-1" "$tmp/$name-4" $pre
    ok $? "$name on 4 ranks: the contacts CSV's metadata, the one-process lines plus mpi_ranks, mpi_grid"
done
# the default chunk (4,096: one round an output row) on 2 ranks
$run -np 2 ./contactlab run "$driven" --no-plot --no-progress --contacts 3 --out "$tmp/dc" >"$tmp/p.out" 2>&1
st=$?
same "$tmp/mpi_driven-1" "$tmp/dc" mpi_driven-penalty
ok $(($st | $?)) "mpi_driven on 2 ranks, the default chunk: the contacts CSV's rows, byte for byte (exit $st)"

# ---- dvi, projected Jacobi (fast=off sums=exact), 3 ranks ----
dargs="--backend dvi --h 1e-3 --t-end 0.3 --every 25 --no-plot --no-progress --opt solver=jacobi --opt fast=off --opt sums=exact --contacts 1"
./contactlab run "$pile" $dargs --out "$tmp/v1" >/dev/null 2>&1
st=$?
counted "$tmp/v1" sphere_pile-dvi 1
ok $(($st | $?)) "dvi jacobi in one process: each output row's contacts as many as the steps CSV counts (exit $st)"
CLAB_MPI_CHUNK=7 $run -np 3 ./contactlab run "$pile" $dargs --out "$tmp/v3" >"$tmp/p.out" 2>&1
st=$?
same "$tmp/v1" "$tmp/v3" sphere_pile-dvi
ok $(($st | $?)) "dvi jacobi sphere_pile on 3 ranks, chunks of 7: the contacts CSV's rows (forces gamma/h), byte for byte (exit $st)"
[ $st -eq 0 ] || sed 's/^/# /' "$tmp/p.out"

# ---- refusals, named ----
for o in "--measure walls" "--rattler-min 3"; do
    $run -np 2 ./contactlab run "$pile" --no-plot --no-progress $o --out "$tmp/r" >"$tmp/r.out" 2>&1
    st=$?
    [ $st -ne 0 ] && grep -q "option '${o% *}' is not supported across MPI ranks" "$tmp/r.out" && [ ! -e "$tmp/r" ]
    ok $? "${o% *} refused across ranks, named, nothing written (exit $st)"
done
$run -np 2 ./contactlab run "$pile" --no-plot --no-progress --contacts 1 --restart "$tmp/none.ckpt" --out "$tmp/r" \
    >"$tmp/r.out" 2>&1
st=$?
[ $st -ne 0 ] && grep -q -- "--contacts and --measure do not continue a run" "$tmp/r.out"
ok $? "--contacts with --restart refused across ranks as in one process (exit $st)"
tap_end
