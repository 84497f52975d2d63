#!/bin/sh
# test_hopper_restart.sh: checkpoints of contactlab hopper (TAP), end to end. A small run
# (200 spheres, orifices 6 and 8 d, penalty and dvi: the cases fill, 4 discharges) stopped
#  - in the fill (--stop-after 500 of its 1000 settling steps),
#  - in the first penalty discharge (--stop-after 1200: past the fill's 1000 steps),
#  - by SIGTERM (--checkpoint-every 100),
# and continued with the printed resume command gives the uninterrupted run's CSVs, byte for
# byte (the summary without its wall_s column); a dvi discharge from the saved fill
# (--fill-from) stopped at step 150 and continued equals the straight run's rows (its metadata
# names --fill-from). Refused: a saved fill of other spheres, a restart with other options.
# Tolerance 0: cmp must find no difference.
set -u
CL=${CONTACTLAB:-./contactlab}
case $CL in /*) ;; *) CL=$(pwd)/$CL ;; esac
tag=hopperr
. "${top_srcdir:-.}/tests/tap.sh"

tap_skip_rest "the restarted runs take minutes under the sanitizers; the normal build runs them"
P="hopper --n 200 --t-settle 0.1 --t-end 0.15 --orifice 6,8 --method penalty,dvi --no-plot --no-progress"
# the numeric rows of a CSV, without the wall_s column (a time measurement)
rows() { grep -v '^#' "$1" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_s") w = i }
    { s = ""; for (i = 1; i <= NF; i++) if (i != w) s = s $i ","; print s }'; }
# every CSV of folder $1 in folder $2: byte for byte (summary: without wall_s); $3 = rows: rows only
same_csvs() {
    k=0
    for f in "$1"/*.csv; do
        b=$(basename "$f")
        k=$((k + 1))
        if [ "$b" = hopper-summary.csv ] || [ "${3:-}" = rows ]; then
            rows "$f" >"$tmp/s1"
            rows "$2/$b" >"$tmp/s2" 2>/dev/null || return 1
            cmp -s "$tmp/s1" "$tmp/s2" || { echo "# $b differs"; return 1; }
        else
            cmp -s "$f" "$2/$b" || { echo "# $1/$b and $2/$b differ"; return 1; }
        fi
    done
    [ $k -eq 6 ]
}
resume_cmd() { # run the "to resume:" line of file $1
    line=$(grep '^to resume: contactlab ' "$1" | head -1 | sed 's/^to resume: contactlab //')
    [ -n "$line" ] || return 1
    eval "\"\$CL\" $line" >"$1.resumed" 2>&1
}

$CL $P --out "$tmp/a" >"$tmp/a.txt" 2>&1
rs=$?
ok $((rs != 0)) "the straight run (exit $rs): $(tail -n 2 "$tmp/a.txt" | head -c 200)"
[ -s "$tmp/a/hopper-flat-fill.ckpt" ]
ok $? "the settled fill is saved: hopper-flat-fill.ckpt"

for stop in 500 1200; do
    d=$tmp/s$stop
    $CL $P --out "$d" --stop-after $stop >"$d.txt" 2>&1
    rs=$?
    case $stop in 500) where="fill flat" ;; *) where="flat penalty D_o=6" ;; esac
    grep -q "stopped after step $stop of $where" "$d.txt" && [ -s "$d/hopper.ckpt" ]
    ok $((rs != 3 || $?)) "--stop-after $stop: exit 3 ($rs) in '$where', checkpoint written"
    cd "$tmp" && resume_cmd "$d.txt" && cd - >/dev/null && same_csvs "$tmp/a" "$d"
    ok $? "--stop-after $stop, resumed: every CSV equals the straight run's ($(tail -n 1 "$d.txt.resumed" | head -c 100))"
done

d=$tmp/sig
$CL $P --out "$d" --checkpoint-every 100 >"$d.txt" 2>&1 &
pid=$!
i=0
while [ ! -s "$d/hopper.ckpt" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $pid 2>/dev/null
wait $pid
rs=$?
if [ $rs -eq 0 ]; then
    echo "ok $((n + 1)) # SKIP the run ended before SIGTERM arrived"
    echo "ok $((n + 2)) # SKIP"
    n=$((n + 2))
else
    grep -q "stopped by SIGTERM at step [0-9]* of " "$d.txt" && grep -q "^to resume: contactlab hopper" "$d.txt"
    ok $((rs != 143 || $?)) "SIGTERM: exit 143 ($rs), 'stopped by SIGTERM', the resume command"
    cd "$tmp" && resume_cmd "$d.txt" && cd - >/dev/null && same_csvs "$tmp/a" "$d"
    ok $? "SIGTERM, resumed: every CSV equals the straight run's"
fi

# dvi from the saved fill: stopped in its first discharge, continued
Q="hopper --n 200 --t-settle 0.1 --t-end 0.15 --orifice 6,8 --method dvi --no-plot --no-progress --fill-from $tmp/a"
$CL $Q --out "$tmp/f" --stop-after 150 >"$tmp/f.txt" 2>&1
rs=$?
grep -q "loaded from $tmp/a/hopper-flat-fill.ckpt" "$tmp/f.txt" && grep -q "stopped after step 150 of flat dvi D_o=6" "$tmp/f.txt"
ok $((rs != 3 || $?)) "--fill-from: the fill loaded, --stop-after 150 in the dvi discharge (exit $rs)"
cd "$tmp" && resume_cmd "$tmp/f.txt" && cd - >/dev/null
ok $? "--fill-from, resumed (exit $?)"
k=0
for m in 6 8; do
    rows "$tmp/a/hopper-flat-D_$m-dvi.csv" >"$tmp/s1"
    rows "$tmp/f/hopper-flat-D_$m-dvi.csv" >"$tmp/s2"
    cmp -s "$tmp/s1" "$tmp/s2" && k=$((k + 1))
done
ok $((k != 2)) "--fill-from, stopped and resumed: the dvi series' rows equal the straight run's ($k of 2)"

$CL hopper --n 150 --t-settle 0.1 --orifice 6 --method dvi --no-plot --no-progress --fill-from "$tmp/a" \
    --out "$tmp/bad" >"$tmp/b.txt" 2>&1
rs=$?
grep -q "cannot use the saved fill: $tmp/a/hopper-flat-fill.ckpt" "$tmp/b.txt"
ok $((rs != 1 || $?)) "--fill-from a fill of 200 spheres into a run of 150: refused (exit $rs): $(head -c 160 "$tmp/b.txt")"
$CL $P --t-end 0.2 --out "$tmp/s1200" --restart "$tmp/s1200/hopper.ckpt" >"$tmp/b.txt" 2>&1
rs=$?
grep -q "cannot restart" "$tmp/b.txt"
ok $((rs == 0 || $?)) "a restart with another --t-end: refused (exit $rs)"
tap_end
