#!/bin/sh
# test_validate_cli.sh: contactlab validate in its quick form (TAP): the Chung-Ooi tests and the
# single-contact checks under penalty, dvi and dvi-exact all pass (exit 0) with both tables
# printed, every test in validate-table.csv, the curve tests' CSVs written; a law that misses
# Coulomb in gross sliding (penalty cap=total, J_t about 9% short) fails test 6 (exit 1);
# Solfec's midpoint scheme (Newton restitution) passes tests 4 and 5, the stick regime at the
# rigid body's 5/7 included; an unknown test is refused (exit 2). Expected texts are the program's; the tolerances and
# closed forms are doc/validation.md's.
set -u
top_srcdir=${top_srcdir:-.}
CL=${CONTACTLAB:-./contactlab}
tag=validatecli
. "$top_srcdir/tests/tap.sh"

d=$tmp/q
$CL validate --quick --method penalty,dvi,dvi-exact --out "$d" --no-plot --no-progress >"$tmp/q.txt" 2>&1
rs=$?
ok $rs "validate --quick, penalty, dvi, dvi-exact: exit $rs (every checked row passes)"
grep -q '^Chung-Ooi benchmark tests' "$tmp/q.txt" && grep -q '^Single-contact analytic checks' "$tmp/q.txt" &&
    ! grep -q ' FAIL: ' "$tmp/q.txt" && grep -q ' 0 FAIL, ' "$tmp/q.txt"
ok $? "both tables printed, no FAIL row"
t=$d/validate-table.csv
miss=""
for k in 1 2 3 4 5 6 7 8 slip-roll incline resting lift-off; do
    for m in penalty dvi dvi-exact; do
        grep -q "^$k,$m," "$t" || miss="$miss $k/$m"
    done
done
ok $([ -z "$miss" ]; echo $?) "validate-table.csv: rows of every test under every method (missing:${miss:- none})"
grep -q '^4,penalty,"Al-oxide, 70 deg",tangential restitution \[-\],.*,pass,' "$t"
ok $? "test 4 at 70 deg (gross sliding): penalty's tangential restitution passes"
grep -q '^1,dvi,.*,contact time \[s\],.*,n/a,"rigid contact' "$t"
ok $? "test 1 under dvi: the contact time not applicable (rigid contact), with the reason"
[ -s "$d/validate-test4-Al-oxide-penalty.csv" ] && [ -s "$d/validate-test6-Al-alloy-dvi.csv" ] &&
    grep -q '^angle_deg,et_closed,et,rebound_closed_deg,rebound_deg$' "$d/validate-test4-Al-oxide-penalty.csv"
ok $? "the curve tests' CSVs written (test 4 penalty, test 6 dvi)"

$CL validate 6 --quick --method penalty --opt penalty:cap=total --out "$tmp/t" --no-plot --no-progress \
    >"$tmp/t.txt" 2>&1
rs=$?
ok $([ $rs -eq 1 ] && grep -q '^6 .*penalty .*omega = 10 rad/s .*FAIL' "$tmp/t.txt"; echo $?) \
    "penalty cap=total fails test 6 in gross sliding: exit $rs (1 expected), the row marked FAIL"
grep -q '^6 ' "$tmp/t.txt" && ! grep -q '^[1-5] \|^[78] \|^slip-roll' "$tmp/t.txt"
ok $? "validate 6 runs test 6 only"

$CL validate 4 5 --quick --method midpoint --out "$tmp/m" --no-plot --no-progress >"$tmp/m.txt" 2>&1
rs=$?
ok $([ $rs -eq 0 ] && grep -q '^4,midpoint,"Al-oxide, 10 deg",tangential restitution \[-\],0.71428571428571[0-9]*,0.71428571428571[0-9]*,.*,pass,' "$tmp/m/validate-table.csv"; echo $?) \
    "midpoint (Newton e, exact Coulomb): tests 4 and 5 pass (exit $rs), sticking at 10 deg with e_t = 5/7"

$CL validate 9 --out "$tmp/u" >"$tmp/u.txt" 2>&1
rs=$?
ok $([ $rs -eq 2 ] && grep -q "unknown test '9'; allowed: 1..8, checks, all" "$tmp/u.txt"; echo $?) \
    "validate 9: refused with the allowed tests (exit $rs, 2 expected)"
tap_end
