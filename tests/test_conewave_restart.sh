#!/bin/sh
# test_conewave_restart.sh: checkpoints of contactlab cone and wave (TAP), end to end. Each
# --quick run (cone: the bed settled, then penalty and dvi at 0.4 m/s; wave: the cubic column's
# penalty cases at three pressures and dvi at 2 and 10 iterations) stopped
#  - by --stop-after N (cone: in the first case, the penalty penetration; wave: step N of the
#    first case, the penalty column at 1e4 Pa),
#  - by SIGTERM (--checkpoint-every 50), sent 0.3 s into the second case (cone: the dvi
#    penetration, from the saved bed; wave: the penalty column at 1e5 Pa),
# and wave's random column stopped in its penalty case (resumed from the column the checkpoint
# keeps), continued with the printed resume command give CSVs whose numeric rows equal the
# uninterrupted run's (the summaries without their wall_s column). Tolerance 0: cmp must find
# no difference. A restart with other options is refused.
set -u
CL=${CONTACTLAB:-./contactlab}
case $CL in /*) ;; *) CL=$(pwd)/$CL ;; esac
tag=conewaver
. "${top_srcdir:-.}/tests/tap.sh"

tap_skip_rest "the restarted runs take minutes under the sanitizers; the normal build runs them"
# the numeric rows of a CSV, without the wall_s column (a time measurement)
rows() { grep -v '^#' "$1" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_s") w = i }
    { s = ""; for (i = 1; i <= NF; i++) if (i != w) s = s $i ","; print s }'; }
# every CSV of folder $1 in folder $2, rows equal; $3: how many CSVs there must be
same_csvs() {
    k=0
    for f in "$1"/*.csv; do
        b=$(basename "$f")
        k=$((k + 1))
        rows "$f" >"$tmp/s1"
        rows "$2/$b" >"$tmp/s2" 2>/dev/null || { echo "# $2/$b missing"; return 1; }
        cmp -s "$tmp/s1" "$tmp/s2" || { echo "# $b differs"; return 1; }
    done
    [ $k -eq "$3" ] || { echo "# $k CSVs, not $3"; return 1; }
}
resume_cmd() { # run the "to resume:" line of file $1
    line=$(grep '^to resume: contactlab ' "$1" | head -1 | sed 's/^to resume: contactlab //')
    [ -n "$line" ] || return 1
    eval "\"\$CL\" $line" >"$1.resumed" 2>&1
}

# one experiment: $1 name, $2 its options, $3 --stop-after's step, $4 the case it stops in,
# $5 the CSVs of a run, $6 an option that changes the results, $7 the line of stdout after
# which SIGTERM is sent (a finished case: the signal lands in a later one)
check() {
    x=$1
    P="$x $2 --no-plot --no-progress"
    $CL $P --out "$tmp/$x-a" >"$tmp/$x-a.txt" 2>&1
    rs=$?
    ok $rs "$x: the straight run (exit $rs)"
    d=$tmp/$x-s
    $CL $P --out "$d" --stop-after "$3" >"$d.txt" 2>&1
    rs=$?
    grep -q "stopped after step $3 of $4" "$d.txt" && [ -s "$d/$x.ckpt" ]
    ok $((rs != 3 || $?)) "$x --stop-after $3: exit 3 ($rs) in '$4', checkpoint written"
    (cd "$tmp" && resume_cmd "$d.txt") && same_csvs "$tmp/$x-a" "$d" "$5"
    ok $? "$x --stop-after $3, resumed: the rows of every CSV equal the straight run's ($(tail -n 1 "$d.txt.resumed" | head -c 100))"

    d=$tmp/$x-sig
    $CL $P --out "$d" --checkpoint-every 50 >"$d.txt" 2>&1 &
    pid=$!
    i=0
    while ! grep -qs "$7" "$d.txt" && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
    sleep 0.3 # into the next case's steps
    kill -TERM $pid 2>/dev/null
    wait $pid
    rs=$?
    if [ $rs -eq 0 ]; then
        echo "ok $((n + 1)) # SKIP $x: the run ended before SIGTERM arrived"
        echo "ok $((n + 2)) # SKIP"
        n=$((n + 2))
    else
        grep -q "stopped by SIGTERM at step [0-9]* of " "$d.txt" && grep -q "^to resume: contactlab $x" "$d.txt"
        ok $((rs != 143 || $?)) "$x SIGTERM: exit 143 ($rs), 'stopped by SIGTERM', the resume command: $(grep -o 'stopped by SIGTERM at step [0-9]* of [^(]*' "$d.txt")"
        (cd "$tmp" && resume_cmd "$d.txt") && same_csvs "$tmp/$x-a" "$d" "$5"
        ok $? "$x SIGTERM, resumed: the rows of every CSV equal the straight run's"
    fi
    $CL $P $6 --out "$tmp/$x-s" --restart "$tmp/$x-s/$x.ckpt" >"$tmp/b.txt" 2>&1
    rs=$?
    grep -q "cannot restart" "$tmp/b.txt"
    ok $((rs == 0 || $?)) "$x: a restart with $6 besides refused (exit $rs)"
}

check cone "--quick" 200 "seed 1 penalty v=0.4" 3 "--speeds 0.3" "^penalty "
check wave "--quick" 2000 "penalty p=10000" 12 "--pressures 1e4,1e5" "^penalty  *cubic  *10000 "

# wave's random column: stopped in its penalty case, resumed from the column the checkpoint
# keeps (not grown and pressed again: no "random column at" line), the same rows
P="wave --quick --packing random --pressures 1e6 --no-plot --no-progress"
$CL $P --out "$tmp/r-a" >"$tmp/r-a.txt" 2>&1
rs=$?
ok $rs "wave --packing random: the straight run (exit $rs)"
$CL $P --out "$tmp/r-s" --stop-after 1000 >"$tmp/r-s.txt" 2>&1
rs=$?
grep -q "stopped after step 1000 of random penalty p=1e+06" "$tmp/r-s.txt"
ok $((rs != 3 || $?)) "wave --packing random --stop-after 1000: exit 3 ($rs) in the penalty case"
(cd "$tmp" && resume_cmd "$tmp/r-s.txt") && ! grep -q "random column at" "$tmp/r-s.txt.resumed" &&
    same_csvs "$tmp/r-a" "$tmp/r-s" 8
ok $? "wave --packing random, resumed from the kept column: the rows of every CSV equal the straight run's"
tap_end
