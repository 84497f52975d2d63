#!/bin/sh
# test_run_cli.sh: what `contactlab run` and the experiments write and say (TAP), issue 25's
# cases 8, 9, 14, 15, 16 and 18:
# - a restart with other --every and --t-end continues and its CSVs' metadata states this
#   run's values, the old ones kept as restart.1.* (doc/reliability.md), with a message naming
#   each option, its old and its new value;
# - --force replaces an experiment's earlier results: bowling --v0 3,8 then --force --v0 3 keeps
#   the v0 = 3 series only, and its figures draw the series bowling-series.txt lists (a stray
#   series file is not drawn); run --force removes its earlier frames;
# - the bodies CSV states the frame of the angular velocity (wx_world_rad_s), body-names.csv
#   names the bodies, residual_m_s carries its unit, penalty runs have no solver columns;
# - --vtk writes the boxes and planes (box_incline: one box, one plane) to _shapes_ frames;
# - a summary printed and written (done / failed), and the figure (or the command to draw it);
# - messages: help defaults, "-" for not reached, --force named, --out FILE, --threads,
#   "contactlab run:" for an unknown option, --backend '', repeated and empty list elements,
#   pile --t-end below one step.
# Expected texts come from the program's messages; numbers from the scenes (box_incline: 1 box
# of 8 corners, 1 plane patch of 4).
set -u
top_srcdir=${top_srcdir:-.}
CL=${CONTACTLAB:-./contactlab}
scenes=$top_srcdir/experiments/scenes
tag=runcli
. "$top_srcdir/tests/tap.sh"
pile=$scenes/sphere_pile.cfg

# ---- 8: restart with other --every and --t-end ----
d=$tmp/rs
$CL run "$pile" --t-end 0.05 --every 3 --out "$d" --no-plot --no-progress --stop-after 20 >/dev/null 2>&1
$CL run "$pile" --t-end 0.08 --every 5 --out "$d" --no-plot --no-progress --restart "$d/sphere_pile-dvi.ckpt" \
    >"$tmp/r8.txt" 2>&1
rs=$?
f=$d/sphere_pile-dvi-steps.csv
grep -q '^# t_end_s = 0.08$' "$f" && grep -q '^# output_every = 5$' "$f" && grep -q '^# restart.1.t_end_s = 0.05$' "$f" &&
    grep -q '^# restart.1.output_every = 3$' "$f" && grep -q '^# command = contactlab run --t-end 0.08 --every 5 ' "$f" &&
    grep -q '^# restart.1.command = contactlab run --t-end 0.05 --every 3 ' "$f" &&
    grep -q '^# t_end_s = 0.08$' "$d/sphere_pile-dvi-bodies.csv"
ok $((rs != 0 || $?)) "8: restart with --every 5 --t-end 0.08 after 3, 0.05: exit $rs, metadata states the new values, restart.1.* the old"
grep -q "restart with --every 5, the checkpoint's run had 3" "$tmp/r8.txt" &&
    grep -q "restart with --t-end 0.08, the checkpoint's run had 0.05" "$tmp/r8.txt"
ok $? "8: the message names --every and --t-end with the checkpoint's value and the new one"
steps=$(grep -v '^#' "$f" | awk -F, 'NR > 1 { printf "%s ", $2 }')
[ "$steps" = "0 3 6 9 12 15 18 20 25 30 35 40 45 50 55 60 65 70 75 80 " ]
ok $? "8: the rows: every 3 steps up to the checkpoint at 20, then every 5 to step 80 ($steps)"

# ---- 9: --force replaces the earlier results ----
d=$tmp/bowl
bowl="--mu 0.5 --method dvi --h-dvi 1e-3 --t-end 0.05 --no-progress --no-plot --out $d"
$CL bowling --v0 3,8 $bowl >/dev/null 2>&1
n1=$(ls "$d"/bowling-v0_*.csv | wc -l)
$CL bowling --v0 3 $bowl --force >"$tmp/r9.txt" 2>&1
rs=$?
left=$(cd "$d" && ls bowling-v0_*.csv | tr '\n' ' ')
[ "$n1" -eq 2 ] && [ "$left" = "bowling-v0_3-mu_0.5-dvi-h_0.001.csv " ] &&
    [ "$(cat "$d/bowling-series.txt")" = "bowling-v0_3-mu_0.5-dvi-h_0.001.csv" ] &&
    [ "$(grep -v '^#' "$d/bowling-summary.csv" | wc -l)" -eq 2 ] && grep -q "removed .* files of an earlier run" "$tmp/r9.txt"
ok $((rs != 0 || $?)) "9: bowling --v0 3,8 ($n1 series) then --force --v0 3: only its series stay ($left), listed in bowling-series.txt"
# the figures read the list, not the folder
grep -q '^list = "bowling-series.txt"' "$top_srcdir/experiments/bowling.gp" &&
    ! grep -q 'ls bowling-v0\|ls .\.c\.' "$top_srcdir/experiments/bowling.gp"
ok $? "9: bowling.gp draws the series bowling-series.txt lists, no folder listing"
if command -v gnuplot >/dev/null 2>&1; then
    cp "$d/bowling-v0_3-mu_0.5-dvi-h_0.001.csv" "$d/bowling-v0_9-mu_0.5-dvi-h_0.001.csv" # a stray series
    cp "$top_srcdir/experiments/bowling.gp" "$d/" &&
        (cd "$d" && gnuplot -e 'load "bowling.gp"; print "ncases=", ncases' 2>&1 | tail -n 1) >"$tmp/g9.txt"
    grep -q "ncases= *1$" "$tmp/g9.txt"
    ok $? "9: with a stray v0 = 9 series in the folder, gnuplot draws one panel ($(cat "$tmp/g9.txt"))"
else
    ok 0 "9: # SKIP gnuplot not installed"
fi
d=$tmp/runforce
$CL run "$pile" --t-end 0.02 --every 2 --vtk 1 --out "$d" --no-plot --no-progress >/dev/null 2>&1
$CL run "$pile" --t-end 0.01 --every 2 --vtk 1 --out "$d" --no-plot --no-progress --force >/dev/null 2>&1
rs=$?
[ -f "$d/sphere_pile-dvi_000005.vtk" ] && [ ! -f "$d/sphere_pile-dvi_000006.vtk" ] &&
    [ ! -f "$d/sphere_pile-dvi_shapes_000006.vtk" ]
ok $((rs != 0 || $?)) "9: run --force after a longer run: its frames 6..10 are gone, 0..5 written"

# ---- 14: the columns ----
d=$tmp/cols
$CL run "$pile" --t-end 0.01 --every 5 --out "$d" --no-plot --no-progress >/dev/null 2>&1
$CL run "$pile" --backend penalty --h 2e-5 --t-end 0.001 --every 25 --out "$d" --no-plot --no-progress >/dev/null 2>&1
grep -q '^t_s,body,x_m,y_m,z_m,vx_m_s,vy_m_s,vz_m_s,wx_world_rad_s,wy_world_rad_s,wz_world_rad_s,e0,e1,e2,e3$' \
    "$d/sphere_pile-dvi-bodies.csv" && grep -q '^# wx_world_rad_s = .*world axes' "$d/sphere_pile-dvi-bodies.csv"
ok $? "14: bodies CSV: wx_world_rad_s.. (the world frame, stated in the metadata)"
sed -n '/^body,/,$p' "$d/sphere_pile-dvi-body-names.csv" | head -n 3 | tr '\n' ' ' >"$tmp/n.txt"
[ "$(cat "$tmp/n.txt")" = "body,name,shape,fixed 0,floor,plane,1 1,wall_xp,box,1 " ] &&
    [ "$(grep -c ',bead' "$d/sphere_pile-dvi-body-names.csv")" -eq "$(grep -c 'name = "bead' "$pile")" ]
ok $? "14: body-names.csv: index, name, shape, fixed of every body ($(cat "$tmp/n.txt"))"
grep -q '^t_s,step,kinetic_energy_J,contacts,max_penetration_m,iterations,residual_m_s,maxiter_hits$' \
    "$d/sphere_pile-dvi-steps.csv" &&
    grep -q '^t_s,step,kinetic_energy_J,contacts,max_penetration_m$' "$d/sphere_pile-penalty-steps.csv"
ok $? "14: steps CSV: residual_m_s under DVI; penalty has no solver columns"

# ---- 15: the shapes frames ----
d=$tmp/vtk
$CL run "$scenes/box_incline.cfg" --t-end 0.01 --every 5 --vtk 1 --out "$d" --no-plot --no-progress >/dev/null 2>&1
rs=$?
f=$d/box_incline-dvi_shapes_000001.vtk
[ -f "$f" ] && grep -q '^POINTS 12 ' "$f" && grep -q '^POLYGONS 7 ' "$f"
ok $((rs != 0 || $?)) "15: box_incline --vtk 1: the shapes frame holds 12 points (box 8, plane patch 4), 7 polygons"

# ---- 16: the summary and the figure ----
d=$tmp/sum
$CL run "$pile" --t-end 0.02 --every 2 --out "$d" --no-progress >"$tmp/r16.txt" 2>&1
rs=$?
row=$(sed -n '/^steps,/{n;p}' "$d/sphere_pile-dvi-summary.csv")
grep -q '^summary: done; 20 steps to t = 0.02 s in .* (wall); final kinetic energy .* J; deepest penetration .*; guard: ok' \
    "$tmp/r16.txt" && case $row in 20,0.02*,*,done,) true ;; *) false ;; esac
ok $((rs != 0 || $?)) "16: summary printed and written: $row"
if command -v gnuplot >/dev/null 2>&1; then
    [ -s "$d/sphere_pile-dvi-run.png" ] && [ -s "$d/sphere_pile-dvi-run.pdf" ]
    ok $? "16: run.gp drew sphere_pile-dvi-run.png and .pdf"
else
    grep -q 'gnuplot -e "prefix=.sphere_pile-dvi." run.gp' "$tmp/r16.txt"
    ok $? "16: no gnuplot: the command to draw the figure is printed"
fi
$CL run "$pile" --t-end 0.02 --every 2 --out "$d/np" --no-progress --no-plot >"$tmp/r16b.txt" 2>&1
[ ! -e "$d/np/sphere_pile-dvi-run.png" ] && grep -q "not drawn (--no-plot)" "$tmp/r16b.txt"
ok $? "16: --no-plot draws nothing and prints the command"
$CL run "$pile" --backend penalty --h 1e-3 --allow-unstable --every 20 --opt vmax=50 --no-plot --no-progress --out "$d/g" >"$tmp/r16c.txt" 2>&1
rs=$?
grep -q ',failed,"\{0,1\}step [0-9]*: ' "$d/g/sphere_pile-penalty-summary.csv" && grep -q '^summary: failed' "$tmp/r16c.txt"
ok $((rs != 1 || $?)) "16: an exploding run (exit $rs): the summary says failed and why"

# ---- 18: help and messages ----
$CL bowling --help | grep -q 'Methods (--method, a comma-separated list; default all)'
ok $? "18: bowling --help: default all"
$CL convergence --help | grep -q 'Methods (--method, a comma-separated list; default dvi)'
ok $? "18: convergence --help: default dvi"
$CL convergence --n 20 --t-settle 0.01 --max-iter 3 --reg-eps 1 --solvers gs --no-plot --no-progress \
    --out "$tmp/conv" >"$tmp/c.txt" 2>&1
sed -n '/regularized CCP/,$p' "$tmp/c.txt" | grep -q '^dvi  *1 .* 3 .* -  *-$'
ok $? "18: convergence: '-' for a target not reached in the regularized table"
$CL drop --heights 0.1 --method penalty --no-plot --no-progress --out "$tmp/dr" >/dev/null 2>&1
$CL drop --heights 0.1 --method penalty --no-plot --no-progress --out "$tmp/dr" >"$tmp/o.txt" 2>&1
rs=$?
grep -q 'the file exists; refusing to overwrite .*--force' "$tmp/o.txt"
ok $((rs != 1 || $?)) "18: the overwrite refusal names --force (exit $rs)"
: >"$tmp/afile"
$CL drop --out "$tmp/afile" --no-plot >"$tmp/o.txt" 2>&1
rs=$?
grep -q "is a file, not a folder" "$tmp/o.txt"
ok $((rs != 1 || $?)) "18: --out FILE: $(head -c 120 "$tmp/o.txt")"
$CL bench --threads 0 --out "$tmp/bench" >"$tmp/o.txt" 2>&1
rs=$?
grep -q -- "contactlab: --threads 0 is outside" "$tmp/o.txt" && ! grep -q -- "----threads" "$tmp/o.txt"
ok $((rs != 2 || $?)) "18: bench --threads 0: $(head -c 100 "$tmp/o.txt")"
$CL run "$pile" --bogus >"$tmp/o.txt" 2>&1
rs=$?
grep -q "^contactlab run: unrecognized option '--bogus'" "$tmp/o.txt"
ok $((rs != 2 || $?)) "18: unknown option: $(head -n 1 "$tmp/o.txt")"
$CL run "$pile" --backend '' --out "$tmp/be" >"$tmp/o.txt" 2>&1
rs=$?
grep -q "backend '' is empty" "$tmp/o.txt" && [ ! -e "$tmp/be" ]
ok $((rs != 2 || $?)) "18: --backend '' refused: $(head -n 1 "$tmp/o.txt")"
$CL drop --heights 0.1,0.1 --out "$tmp/dd" --no-plot >"$tmp/o.txt" 2>&1
rs=$?
grep -q "gives '0.1' twice" "$tmp/o.txt" && [ ! -e "$tmp/dd" ]
ok $((rs != 2 || $?)) "18: drop --heights 0.1,0.1 refused up front: $(head -n 1 "$tmp/o.txt")"
for l in 0.05,,0.2 ,0.1 0.1,; do
    $CL drop --heights "$l" --out "$tmp/dd" --no-plot >"$tmp/o.txt" 2>&1
    rs=$?
    grep -q "has an empty element" "$tmp/o.txt" && [ ! -e "$tmp/dd" ]
    ok $((rs != 2 || $?)) "18: drop --heights $l refused: $(head -n 1 "$tmp/o.txt")"
done
$CL pile --t-end 1e-12 --out "$tmp/pl" --no-plot >"$tmp/o.txt" 2>&1
rs=$?
grep -q "shorter than one step of dvi" "$tmp/o.txt" && [ ! -e "$tmp/pl" ]
ok $((rs != 2 || $?)) "18: pile --t-end 1e-12 refused up front: $(head -n 1 "$tmp/o.txt")"
$CL pile --t-end 1e-12 --method penalty --n 20 --out "$tmp/pl2" --no-plot >"$tmp/o.txt" 2>&1
rs=$?
grep -q "shorter than one step of penalty" "$tmp/o.txt" && ! grep -q 'nan\|inf' "$tmp/pl2/pile-summary.csv"
ok $((rs != 1 || $?)) "18: pile --method penalty --t-end 1e-12 refused (its default step): no inf or nan written"

tap_end
