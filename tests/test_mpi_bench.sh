#!/bin/sh
# test_mpi_bench.sh: contactlab bench --mpi (built with --with-mpi; doc/mpi.md, "Traffic and time")
# runs the chute and the pile (--quick, 50 steps) on 1 and 2 ranks beside the OpenMP build, outside
# mpirun (it launches mpirun itself): mpi-scaling.csv holds a row of each code and P, the end-state
# hashes of the OpenMP runs and of the MPI runs on 1 and 2 ranks are one (the decomposition's
# promise: one process's bits), mpi-traffic.csv a row a rank with the 2-rank run's forward
# exchange (104 bytes a ghost: r, e, rdot, wbar), mpi-projection.csv the rows of 16, 64, 256 ranks.
tag=mpibench
. "${top_srcdir:-..}/tests/tap.sh"
OMP_WAIT_POLICY=passive ./contactlab bench --mpi chute pile --quick --steps 50 --ranks 1,2 --no-lammps \
    --out "$tmp/out" >"$tmp/b.out" 2>&1
st=$?
ok $st "contactlab bench --mpi chute pile --quick --steps 50 --ranks 1,2: exit status $st"
[ $st -eq 0 ] || sed 's/^/# /' "$tmp/b.out"
csv="$tmp/out/mpi-scaling.csv"
for b in chute pile; do
    rows=$(grep -c "^$b,contactlab-\(openmp\|mpi\),[12]," "$csv" 2>/dev/null)
    [ "$rows" = 4 ]
    ok $? "$b: mpi-scaling.csv has the OpenMP and MPI rows of P = 1 and 2 ($rows)"
    # the end-state hashes (column 10) of the four rows: one value, 16 hex digits
    hashes=$(grep "^$b,contactlab-" "$csv" | cut -d, -f10 | sort -u)
    nh=$(printf '%s\n' "$hashes" | grep -c '^[0-9a-f]\{16\}$')
    [ "$nh" = 1 ]
    ok $? "$b: the OpenMP and the MPI runs on 1 and 2 ranks end in one state ($(echo $hashes))"
    grep -q "^== $b across ranks" "$tmp/b.out" && grep -A200 "^== $b across ranks" "$tmp/b.out" |
        grep -q 'the same to the bit across every P'
    ok $? "$b: the command says the end states are the same to the bit"
    # the 2-rank run: two rows of traffic, each rank holding ghosts and sending one message a step
    # (one neighbour brick); what the two send is what the two hold as ghosts, 104 bytes each (13
    # doubles: r, e, rdot, wbar), to rounding of the per-step means (1e-6)
    awk -F, -v b="$b" '$1 == b && $2 == 2 { n++; g += $7; f += $9; if ($7 > 0 && $10 == 1) m++ }
        END { exit !(n == 2 && m == 2 && f / g > 104 * (1 - 1e-6) && f / g < 104 * (1 + 1e-6)) }' "$tmp/out/mpi-traffic.csv"
    ok $? "$b: mpi-traffic.csv: two ranks, each holding ghosts and sending one message a step, 104 bytes a ghost"
    for P in 16 64 256; do
        grep -q "^$b,[0-9]*,$P,[0-9]*x[0-9]*x[0-9]*," "$tmp/out/mpi-projection.csv"
        ok $? "$b: mpi-projection.csv has the projection to $P ranks"
    done
done
# bad input: a benchmark that does not run across ranks, named
./contactlab bench --mpi bowling --quick --out "$tmp/out" >"$tmp/bad.out" 2>&1
st=$?
[ $st -ne 0 ] && grep -q "'bowling': the benchmarks across ranks are chute and pile" "$tmp/bad.out"
ok $? "contactlab bench --mpi bowling: refused, naming it (exit $st)"
tap_end
