#!/bin/sh
# test_bench_mpi_plain.sh: in the build without MPI (./configure without --with-mpi), contactlab
# bench --mpi refuses with a message saying to configure --with-mpi, and runs nothing.
tag=benchmpiplain
. "${top_srcdir:-..}/tests/tap.sh"
./contactlab bench --mpi chute --quick --out "$tmp/out" >"$tmp/b.out" 2>&1
st=$?
[ $st -eq 2 ]
ok $? "contactlab bench --mpi without MPI: exit status 2 ($st)"
grep -q 'built without MPI; configure it with --with-mpi' "$tmp/b.out"
ok $? "the message says to configure --with-mpi"
[ ! -e "$tmp/out" ]
ok $? "nothing run (no output folder)"
tap_end
