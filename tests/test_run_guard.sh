#!/bin/sh
# test_run_guard.sh: the physics guard through `contactlab run` (TAP): issue 25's cases 1-6
# and 13 as a user meets them: each run's exit status, its message (body, step, time, what was
# exceeded), what it leaves (no CSV for a refused start; whole rows and a checkpoint of the
# last good state when the guard stops a run). The library side: tests/test_guard.c.
set -u
top_srcdir=${top_srcdir:-.}
CL=${CONTACTLAB:-./contactlab}
tag=runguard
. "${top_srcdir:-.}/tests/tap.sh"
whole_rows() { # whole_rows FILE...: each file ends in a newline and every data line has the header's fields
    for f in "$@"; do
        [ -s "$f" ] && [ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] || return 1
        awk -F, '/^#/ { next } !h { h = NF; next } { if (NF != h) bad = 1 } END { exit bad || !h }' "$f" || return 1
    done
    return 0
}

# a stack of three boxes on a floor under penalty (stable step about 4.5e-4 s)
cat >"$tmp/stack.cfg" <<'CFG'
gravity = [0.0, 0.0, -9.81];
materials = ( { name = "wood"; mu = 0.5; E = 1.0e8; nu = 0.3; cor = 0.5; } );
bodies = (
  { name = "floor"; shape = "plane"; fixed = true; material = "wood"; },
  { name = "box0"; shape = "box"; half = [0.1, 0.1, 0.1]; mass = 1.0; material = "wood"; position = [0.0, 0.0, 0.1]; },
  { name = "box1"; shape = "box"; half = [0.1, 0.1, 0.1]; mass = 1.0; material = "wood"; position = [0.01, 0.0, 0.3]; },
  { name = "box2"; shape = "box"; half = [0.1, 0.1, 0.1]; mass = 1.0; material = "wood"; position = [0.02, 0.0, 0.5]; }
);
simulation = { backend = "penalty"; h = 1.0e-3; t_end = 2.0; output_every = 10; };
CFG
# a ball on a floor; its velocity set per case
ball() { # ball FILE VX
    cat >"$1" <<CFG
gravity = [0.0, 0.0, -9.81];
bodies = (
  { name = "floor"; shape = "plane"; fixed = true; },
  { name = "ball"; shape = "sphere"; radius = 0.1; mass = 1.0; position = [0.0, 0.0, 0.1]; velocity = [$2, 0.0, 0.0]; }
);
simulation = { backend = "dvi"; h = 1.0e-3; t_end = 0.1; output_every = 10; };
CFG
}

# case 1: a step above the stable step is refused, a stable one suggested
d=$tmp/c1
$CL run "$tmp/stack.cfg" --no-progress --out "$d" >"$d.txt" 2>&1
rs=$?
grep -q "h = 0.001 s is above the penalty backend's stable step .* use --h [0-9.e-]* (or smaller), or --allow-unstable" \
    "$d.txt" && [ ! -e "$d/stack-penalty-steps.csv" ]
ok $(( rs != 1 || $? )) "case 1: h above the stable step refused (exit $rs), a stable step suggested, no CSV"
# ... and with --allow-unstable the run blows up and the guard stops it
$CL run "$tmp/stack.cfg" --allow-unstable --no-progress --out "$d" >"$d.txt" 2>&1
rs=$?
grep -q "step [0-9]*: box[0-2] (kinetic energy .* the largest): the energy K + U = .* at step [0-9]*, t = " "$d.txt" &&
    grep -q "last good state (step [0-9]*, t = .*) saved in $d/stack-penalty.ckpt" "$d.txt" && [ -s "$d/stack-penalty.ckpt" ]
ok $(( rs != 1 || $? )) "case 1: --allow-unstable: the energy guard stops the run (exit $rs), naming the body, step, time; checkpoint written"
whole_rows "$d/stack-penalty-bodies.csv" "$d/stack-penalty-steps.csv" &&
    ! awk -F, '!/^#/ && NR > 1 && $5 + 0 > 10 { bad = 1 } END { exit !bad }' "$d/stack-penalty-bodies.csv"
ok $? "case 1: the CSVs hold complete rows, none with a box above 10 m"
head -c 0 "$d.txt"; sed -n 1,3p "$d.txt" | sed 's/^/# /'

# case 2: vmax=0 is documented as no speed bound; the energy guard still stops the blow-up
d=$tmp/c2
$CL run "$tmp/stack.cfg" --allow-unstable --opt vmax=0 --no-progress --out "$d" >"$d.txt" 2>&1
rs=$?
grep -q "the energy K + U" "$d.txt" && ! grep -v "^#" "$d/stack-penalty-steps.csv" | grep -qi "inf\|nan"
ok $(( rs != 1 || $? )) "case 2: vmax=0: stopped by the energy guard (exit $rs), no inf or nan in the steps CSV"
$CL run --help | grep -q "0: no speed"
ok $? "case 2: --help documents vmax=0"

# case 3: a step count that overflows or passes the limit is refused
d=$tmp/c3
ball "$tmp/ball.cfg" 0.0
$CL run "$tmp/ball.cfg" --h 1e-12 --t-end 1e9 --no-progress --out "$d" >"$d.txt" 2>&1
rs=$?
grep -q "t_end = 1e+09 s at h = 1e-12 s is 1e+21 steps, more than the limit 1e+12" "$d.txt" && [ ! -e "$d" ]
ok $(( rs != 1 || $? )) "case 3: 1e21 steps refused (exit $rs) before any output"

# case 4: t_end 12.9 s at 1e-7 s is 129,000,000 steps, not one more (--stop-after 1 shows the count)
d=$tmp/c4
$CL run "$tmp/ball.cfg" --h 1e-7 --t-end 12.9 --stop-after 1 --no-progress --out "$d" >"$d.txt" 2>&1
rs=$?
grep -q "stopped after step 1 of 129000000 " "$d.txt"
ok $(( rs != 3 || $? )) "case 4: --h 1e-7 --t-end 12.9: 129000000 steps (exit $rs)"
$CL run "$tmp/ball.cfg" --h 1e-6 --t-end 123.456 --stop-after 1 --no-progress --out "$d" --force >"$d.txt" 2>&1
rs=$?
grep -q "stopped after step 1 of 123456000 " "$d.txt"
ok $(( rs != 3 || $? )) "case 4: --h 1e-6 --t-end 123.456: 123456000 steps (exit $rs)"

# case 5: the initial state is checked before any row is written
d=$tmp/c5
ball "$tmp/fast.cfg" 1e300
$CL run "$tmp/fast.cfg" --no-progress --out "$d" >"$d.txt" 2>&1
rs=$?
grep -q "the initial state is refused: ball: speed 1e+300 m/s exceeds the bound 10000 m/s at step 0, t = 0 s" "$d.txt" &&
    [ ! -e "$d/fast-dvi-steps.csv" ]
ok $(( rs != 1 || $? )) "case 5: velocity 1e300 refused (exit $rs) naming the body, no CSV written"

# case 6: a negative envelope is refused
d=$tmp/c6
$CL run "$tmp/ball.cfg" --opt envelope=-1 --no-progress --out "$d" >"$d.txt" 2>&1
rs=$?
grep -q "envelope = -1 is outside the allowed range \[0, 1000\]" "$d.txt"
ok $(( rs != 1 || $? )) "case 6: --opt envelope=-1 refused (exit $rs)"

# case 13: 3,000 spheres at one point: refused in seconds; with --allow-overlap, warned of
{
    echo 'gravity = [0.0, 0.0, -9.81];'
    echo 'bodies = ('
    i=0
    while [ $i -lt 3000 ]; do
        echo "  { shape = \"sphere\"; radius = 0.01; mass = 0.001; position = [0.0, 0.0, 1.0]; },"
        i=$((i + 1))
    done
    echo '  { name = "floor"; shape = "plane"; fixed = true; }'
    echo ');'
    echo 'simulation = { backend = "dvi"; h = 1.0e-3; t_end = 1.0; output_every = 10; };'
} >"$tmp/heap.cfg"
d=$tmp/c13
t0=$(date +%s)
$CL run "$tmp/heap.cfg" --no-progress --out "$d" >"$d.txt" 2>&1
rs=$?
t1=$(date +%s)
grep -q "the initial state is refused: body0 and body1 overlap by 0.02 m at the start, 2 x the smaller radius 0.01 m (4498500 pairs" "$d.txt" &&
    grep -q -- "--allow-overlap" "$d.txt" && [ $((t1 - t0)) -lt 30 ]
ok $(( rs != 1 || $? )) "case 13: 3000 spheres at one point refused (exit $rs) in $((t1 - t0)) s"
# (100 of them: one step of 3,000 at one point takes minutes and gigabytes, as asked for)
{ head -2 "$tmp/heap.cfg"; sed -n '3,102p' "$tmp/heap.cfg"; tail -3 "$tmp/heap.cfg"; } >"$tmp/heap100.cfg"
$CL run "$tmp/heap100.cfg" --allow-overlap --t-end 1e-3 --no-progress --out "$d" >"$d.txt" 2>&1
rs=$?
grep -q "warning: 99.0 contacts per moving sphere at step 0, more than 24" "$d.txt"
ok $(( rs != 0 || $? )) "case 13: --allow-overlap (100 spheres at one point): the run goes on (exit $rs) after a warning of 99 contacts per sphere"
tap_end
