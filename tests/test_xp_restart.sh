#!/bin/sh
# test_xp_restart.sh: checkpoint and restart of the experiments, end to end (TAP), through
# the `contactlab` command and cmp (doc/reliability.md, section 4):
# - pile under each method: stopped after step N (--stop-after, not an output step) and
#   continued with --restart = the uninterrupted run, every CSV byte for byte (the summary
#   too, but for its wall-clock and CPU-time columns); the printed resume command is the
#   one run, word for word;
# - pile with both methods stopped in the second simulation: the first one's files are not
#   rewritten (same inode and modification time) and everything again equals the straight run;
# - SIGINT and SIGTERM stop a pile run (exit 130/143, checkpoint, resume command) and the
#   resumed run equals the uninterrupted one;
# - drop, incline and chain (sweeps over cases) stopped and restarted = straight;
# - refusals: a restart with other options, a checkpoint of another command, experiments
#   without checkpoints given --restart;
# - every problem of a command line reported (pile, run), 20 at most and a count.
# Tolerance 0: cmp must find no difference.
set -u
top_srcdir=${top_srcdir:-.}
CL=${CONTACTLAB:-./contactlab}
tag=xpr
. "${top_srcdir:-.}/tests/tap.sh"
# every CSV of folder 1 in folder 2, identical; *-summary.csv without the columns named
# wall_s, cpu_s, cpu_s_per_step (time measurements)
same_csvs() {
    k=0
    for f in "$1"/*.csv; do
        b=$(basename "$f")
        k=$((k + 1))
        case $b in
        *-summary.csv)
            cols=$(grep -v '^#' "$f" | head -1 | tr ',' '\n' | grep -n -v -x -e wall_s -e cpu_s -e cpu_s_per_step |
                cut -d: -f1 | tr '\n' ',' | sed 's/,$//')
            cut -d, -f"$cols" "$f" >"$tmp/s1"
            cut -d, -f"$cols" "$2/$b" >"$tmp/s2" 2>/dev/null
            cmp "$tmp/s1" "$tmp/s2" >/dev/null 2>&1 || { echo "# $b differs (timing columns left out)"; return 1; } ;;
        *) cmp "$f" "$2/$b" >/dev/null 2>&1 || { echo "# $1/$b and $2/$b differ"; return 1; } ;;
        esac
    done
    [ $k -gt 0 ]
}
wait_for() { # wait_for FILE: until it exists (at most 30 s)
    i=0
    while [ ! -s "$1" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
}
# run the "to resume:" line of file $1 with $CL for `contactlab`
resume_cmd() {
    line=$(grep '^to resume: contactlab ' "$1" | head -1 | sed 's/^to resume: contactlab //')
    [ -n "$line" ] || return 1
    eval "\"\$CL\" $line" >"$1.resumed" 2>&1
}
common="--no-plot --no-progress"

# pile under each method: --stop-after + the printed resume command = straight
for m in penalty dvi; do
    if [ $m = penalty ]; then stop=777; else stop=133; fi
    P="pile --method $m --n 60 --t-end 0.04 --h-dvi 2e-4"
    $CL $P $common --out "$tmp/pile-$m-a" >/dev/null 2>&1
    ok $? "pile $m: the straight run"
    $CL $P $common --out "$tmp/pile-$m-b" --checkpoint-every 100 --stop-after $stop >"$tmp/pile-$m.txt" 2>&1
    rs=$?
    grep -q "stopped after step $stop of $m" "$tmp/pile-$m.txt" && [ -f "$tmp/pile-$m-b/pile.ckpt" ]
    ok $((rs != 3 || $?)) "pile $m: --stop-after $stop: exit 3 ($rs), 'stopped after step $stop', a checkpoint"
    resume_cmd "$tmp/pile-$m.txt" && grep -q "restarting from .* at step $stop" "$tmp/pile-$m.txt.resumed" &&
        same_csvs "$tmp/pile-$m-a" "$tmp/pile-$m-b"
    ok $? "pile $m: the printed resume command continues it; every CSV = the straight run's (cmp)"
done
grep '^# command = ' "$tmp/pile-penalty-b/pile-n_60-penalty.csv" | grep -q -e '--out' -e '--no-plot' -e '--checkpoint'
ok $((! $?)) "pile: the metadata's command leaves out --out, --no-plot, --checkpoint-every"

# both methods, stopped in the second: the first is kept as it is
P="pile --n 60 --t-end 0.04 --h-dvi 1e-5"
$CL $P $common --out "$tmp/both-a" >/dev/null 2>&1
ok $? "pile penalty+dvi: the straight run"
$CL $P $common --out "$tmp/both-b" --stop-after 3000 >"$tmp/both.txt" 2>&1
rs=$?
grep -q "stopped after step 3000 of dvi" "$tmp/both.txt"
ok $((rs != 3 || $?)) "pile penalty+dvi: stopped in the dvi simulation (exit $rs)"
before=$(cd "$tmp/both-b" && stat -c '%n %i %y' pile-n_60-penalty*.csv)
$CL $P $common --out "$tmp/both-b" --restart "$tmp/both-b/pile.ckpt" >"$tmp/both2.txt" 2>&1
rs=$?
after=$(cd "$tmp/both-b" && stat -c '%n %i %y' pile-n_60-penalty*.csv)
grep -q "penalty  *finished before the checkpoint" "$tmp/both2.txt" && [ "$before" = "$after" ]
ok $((rs != 0 || $?)) "pile penalty+dvi: the restart skips penalty, its files untouched (inode, mtime)"
same_csvs "$tmp/both-a" "$tmp/both-b"
ok $? "pile penalty+dvi: every CSV = the straight run's (cmp)"

# signals: a longer penalty pile (seconds), stopped when its first checkpoint is there
P="pile --method penalty --n 150 --t-end 0.12"
$CL $P $common --out "$tmp/sig-a" >/dev/null 2>&1
ok $? "pile: the straight run for the signals"
for sig in INT TERM; do
    d=$tmp/sig$sig
    $CL $P $common --out "$d" --checkpoint-every 300 >"$d.txt" 2>&1 &
    pid=$!
    wait_for "$d/pile.ckpt"
    kill -$sig $pid 2>/dev/null
    wait $pid
    rs=$?
    want=130
    [ $sig = TERM ] && want=143
    if [ $rs -eq 0 ]; then
        echo "ok $((n + 1)) # SKIP the run ended before SIG$sig arrived"
        echo "ok $((n + 2)) # SKIP"
        n=$((n + 2))
        continue
    fi
    grep -q "stopped by SIG$sig at step [0-9]* of penalty" "$d.txt" && grep -q "^to resume: contactlab pile" "$d.txt"
    ok $((rs != want || $?)) "pile SIG$sig: exit $want ($rs), 'stopped by SIG$sig', the resume command"
    resume_cmd "$d.txt" && same_csvs "$tmp/sig-a" "$d"
    ok $? "pile SIG$sig: resumed = the straight run, every CSV (cmp)"
done

# the sweeps: stopped in a later case and restarted
# (drop: the second case, dvi at h = 1e-4 s, is the one stopped)
for x in "drop --method dvi --h-dvi 1e-3,1e-4 --heights 0.05 --cor 0.5 --t-end 0.3:1500" \
    "incline --ratios 0.5,2 --t-end 0.2:900" "chain --n 12 --laws hertz --t-end 2e-4:700"; do
    args=${x%:*}
    stop=${x##*:}
    name=${args%% *}
    $CL $args $common --out "$tmp/$name-a" >/dev/null 2>&1
    ra=$?
    $CL $args $common --out "$tmp/$name-b" --stop-after $stop >"$tmp/$name.txt" 2>&1
    rs=$?
    resume_cmd "$tmp/$name.txt"
    rr=$?
    [ $ra -eq 0 ] && [ $rs -eq 3 ] && [ $rr -eq 0 ] && same_csvs "$tmp/$name-a" "$tmp/$name-b"
    ok $? "$name: $(grep -o 'stopped after step [0-9]* of [^(]*' "$tmp/$name.txt")(exit $rs), restarted (exit $rr) = straight, every CSV (cmp)"
done

# refusals
ck=$tmp/pile-penalty-b/pile.ckpt
$CL pile --method penalty --n 61 --t-end 0.04 $common --out "$tmp/pile-penalty-b" --restart "$ck" >"$tmp/r.txt" 2>&1
rs=$?
grep -q "cannot restart: .*pile.ckpt was written by contactlab pile with other options" "$tmp/r.txt"
ok $((rs != 1 || $?)) "a restart with other options is refused (exit $rs): $(head -c 150 "$tmp/r.txt")"
$CL run "$top_srcdir/experiments/scenes/sphere_pile.cfg" --t-end 0.01 --no-progress --out "$tmp/run" \
    --stop-after 3 >/dev/null 2>&1
$CL pile $common --out "$tmp/x" --restart "$tmp/run/sphere_pile-dvi.ckpt" >"$tmp/r.txt" 2>&1
rs=$?
grep -q "cannot restart: .* was not written by contactlab pile" "$tmp/r.txt"
ok $((rs != 1 || $?)) "a checkpoint of contactlab run is refused by pile (exit $rs)"
for x in bowling convergence scaling; do
    $CL $x --restart "$ck" --out "$tmp/x" >"$tmp/r.txt" 2>&1
    rs=$?
    grep -q "contactlab $x: --restart: this experiment has no checkpoints" "$tmp/r.txt"
    ok $((rs != 2 || $?)) "$x: --restart refused with the reason (exit $rs)"
done

# every problem of a command line is reported, not the first (exit 2)
$CL pile --n 0 --h-dvi -1 --packing dense --bogus extra >"$tmp/r.txt" 2>&1
rs=$?
grep -q -- "--n 0 is outside the allowed range \[1, 10000000\]" "$tmp/r.txt" &&
    grep -q -- "--h-dvi -1 is outside the allowed range" "$tmp/r.txt" &&
    grep -q -- "--packing 'dense' is not one of: loose, deposit" "$tmp/r.txt" &&
    grep -q -- "unrecognized option '--bogus'" "$tmp/r.txt" && grep -q "unexpected argument 'extra'" "$tmp/r.txt"
ok $((rs != 2 || $?)) "pile: five command-line problems, all five reported (exit $rs)"
$CL run --h 0 --every 2.5 --opt tol >"$tmp/r.txt" 2>&1
rs=$?
grep -q -- "--h 0 is outside" "$tmp/r.txt" && grep -q -- "--every '2.5' is not an integer" "$tmp/r.txt" &&
    grep -q -- "--opt: option 'tol' must have the form key=value" "$tmp/r.txt" &&
    grep -q "give exactly one scene file (0 given" "$tmp/r.txt"
ok $((rs != 2 || $?)) "run: four command-line problems, all four reported (exit $rs)"
args=""
for i in $(seq 1 25); do args="$args --h-dvi -$i"; done
$CL pile $args >"$tmp/r.txt" 2>&1
rs=$?
[ "$(grep -c -- '--h-dvi -[0-9]* is outside' "$tmp/r.txt")" -eq 20 ] && grep -q "and 5 more problems" "$tmp/r.txt"
ok $((rs != 2 || $?)) "pile: 25 bad values: 20 shown, 'and 5 more problems' (exit $rs)"

tap_end
