#!/bin/sh
# test_mpi_mig.sh: the rebuild by migration (mpi/migrate.c; doc/mpi.md "How it works"), under
# mpirun (built with --with-mpi): each rank sends only its owned bodies and their contacts'
# records to the ranks of their new local worlds, and --balance moves the cuts by bisection on
# counts. Held to the one-process run's bits (bench --check: rank 0 runs clab_sim alone) on a
# grid cut along two axes (bisection on two axes, bodies crossing corners to diagonal
# neighbours), through a checkpoint written by such a grid and restarted on another; and the
# rebuilds' traffic, which a gather of every body would make O(N) a rank, held below half the
# whole world's states.
tag=mpi_mig
. "${top_srcdir:-..}/tests/tap.sh"
run="mpirun --oversubscribe --allow-run-as-root"
same() { grep -q 'one-rank clab_sim reference: [0-9a-f]*: identical' "$1"; }
# the chute (1,940 moving spheres; a rebuild every 17 steps or so) on 2x2x1, balanced
$run -np 4 ./contactlab bench chute --quick --steps 300 --grid 2x2x1 --balance --check --out "$tmp/out" \
    >"$tmp/c4.out" 2>&1
st=$?
same "$tmp/c4.out"
ok $? "mpirun -np 4 contactlab bench chute --quick --grid 2x2x1 --balance: the one-process end state to the bit (exit $st)"
[ $st -eq 0 ] || sed 's/^/# /' "$tmp/c4.out"
grep -E 'owned|rebuilds$|memory' "$tmp/c4.out" | sed 's/^ */# /'
# the rebuilds' bytes a rank, per rebuild: the pile of 1,280 spheres on 4 slabs (1x1x4), a
# small skin making most steps rebuild: below half the whole world's states (1,280 x 104 bytes);
# the gather of every owned state on every rank would send 3 x 320 x 112 bytes a rank
$run -np 4 ./contactlab bench pile --quick --steps 100 --skin 1e-6 --check >"$tmp/p4.out" 2>&1
st=$?
same "$tmp/p4.out"
ok $? "mpirun -np 4 contactlab bench pile --quick --skin 1e-6: the one-process end state to the bit (exit $st)"
steps=$(sed -n 's/.* \([0-9]*\) steps in .*; \([0-9]*\) rebuilds$/\1 \2/p' "$tmp/p4.out")
awk -v sr="$steps" '
    /per step: forward/ { for (i = 1; i <= NF; i++) if ($i == "rebuilds") b = $(i + 1); split(sr, s, " ");
                          per = b * s[1] / s[2]; if (per > max) max = per; k++ }
    END { printf "# %s rebuilds in %s steps; the most bytes a rank sent in a rebuild: %.0f (half the world: %d)\n",
                 s[2], s[1], max, 1280 * 52;
          exit !(k == 4 && s[2] > 10 && max > 0 && max < 1280 * 52) }' "$tmp/p4.out"
ok $? "pile on 4 ranks: a rebuild sends less than half the whole world's states from any rank"
# a ghost the receiver holds already goes as its global index (8 bytes), not whole (the
# clab_body, 216 bytes, its name and their lengths: at least 232 bytes): on the chute (2 ranks,
# skin 0.05 m, a rebuild every 17 steps) a rank's rebuild sends less than half of what its ghosts
# alone would cost whole (the ghosts it feeds: its forward bytes a step / 104, one state)
$run -np 2 ./contactlab bench chute --quick --steps 1000 --skin 0.05 --out "$tmp/out" >"$tmp/g2.out" 2>&1
st=$?
steps=$(sed -n 's/.* \([0-9]*\) steps in .*; \([0-9]*\) rebuilds$/\1 \2/p' "$tmp/g2.out")
awk -v sr="$steps" '
    /per step: forward/ { for (i = 1; i <= NF; i++) { if ($i == "rebuilds") b = $(i + 1); if ($i == "forward") f = $(i + 1) }
                          split(sr, s, " "); per = b * s[1] / s[2]; whole = f / 104 * 232;
                          printf "# rank %d: %.0f bytes a rebuild, its %.0f ghosts whole %.0f\n", k, per, f / 104, whole;
                          if (per >= whole / 2) bad = 1; k++ }
    END { exit !(k == 2 && s[2] > 10 && !bad) }' "$tmp/g2.out"
ok $? "chute on 2 ranks: held ghosts go by index, a rebuild below half its ghosts sent whole (exit $st)"
# the pile balanced on 2x2x1 and on 1x2x2, then a checkpoint of the 2x2x1 run restarted on 3 ranks
pile="bench pile --quick --nx 2"
for g in 2x2x1 1x2x2; do
    $run -np 4 ./contactlab $pile --steps 600 --grid $g --balance --check >"$tmp/p$g.out" 2>&1
    st=$?
    same "$tmp/p$g.out"
    ok $? "mpirun -np 4 contactlab $pile --grid $g --balance: the one-process end state to the bit (exit $st)"
    [ $st -eq 0 ] || sed 's/^/# /' "$tmp/p$g.out"
done
$run -np 4 ./contactlab $pile --steps 600 --grid 2x2x1 --balance --checkpoint "$tmp/p300.ckpt" --checkpoint-step 300 \
    >"$tmp/ck.out" 2>&1
ok $? "mpirun -np 4 contactlab $pile --grid 2x2x1 --balance --checkpoint at step 300"
$run -np 3 ./contactlab $pile --steps 600 --balance --restart "$tmp/p300.ckpt" --check >"$tmp/rs.out" 2>&1
st=$?
grep -q 'restarted from .* at step 300' "$tmp/rs.out" && same "$tmp/rs.out"
ok $? "restarted on 3 balanced ranks: the uninterrupted one-process end state to the bit (exit $st)"
[ $st -eq 0 ] || sed 's/^/# /' "$tmp/rs.out"
# the memory report: each rank's resident set per local body
nmem=$(grep -c 'rank [0-9]: memory: .* bytes a local body' "$tmp/rs.out")
[ "$nmem" -eq 3 ]
ok $? "the bench reports each of the 3 ranks' memory per local body ($nmem lines)"
tap_end
