#!/bin/sh
# test_wait_policy.sh: the OpenMP threads' wait policy of the contactlab program (TAP).
# The runtime reads OMP_WAIT_POLICY when it is loaded, before main; when the variable is
# unset, contactlab sets it to passive and runs itself again (experiments/main.c). Checked:
# - unset: the runtime is loaded twice, the second time with the policy passive (libgomp's
#   OMP_DISPLAY_ENV=verbose: two displays, the last with GOMP_SPINCOUNT = '0', the first
#   with the default '300000': the policy was read before main);
# - the environment of the running program (/proc/PID/environ) holds OMP_WAIT_POLICY=passive;
# - a value the user set is kept (active: one display, the environment says active);
# - under valgrind (LD_PRELOAD naming its vgpreload library) the program does not run itself
#   again (one display);
# - every command's --help names OMP_NUM_THREADS and OMP_WAIT_POLICY.
# No time is measured. Skipped (77) without libgomp's display (built without OpenMP or with
# another runtime).
set -u
top_srcdir=${top_srcdir:-.}
CL=${CONTACTLAB:-./contactlab}
tag=wait
. "${top_srcdir:-.}/tests/tap.sh"

displays() { grep -c 'OPENMP DISPLAY ENVIRONMENT BEGIN' "$1"; }
last_spincount() { grep "GOMP_SPINCOUNT" "$1" | tail -1 | sed "s/.*= '\(.*\)'/\1/"; }

env -u OMP_WAIT_POLICY OMP_DISPLAY_ENV=verbose "$CL" --version >"$tmp/unset.out" 2>"$tmp/unset.err"
if ! grep -q GOMP_SPINCOUNT "$tmp/unset.err"; then
    echo "1..0 # SKIP no libgomp display of the environment (built without OpenMP, or another runtime)"
    exit 77
fi
d=$(displays "$tmp/unset.err")
first=$(grep "GOMP_SPINCOUNT" "$tmp/unset.err" | head -1 | sed "s/.*= '\(.*\)'/\1/")
ok $([ "$d" -eq 2 ] && [ "$(last_spincount "$tmp/unset.err")" = 0 ] && [ "$first" != 0 ] && echo 0 || echo 1) \
    "OMP_WAIT_POLICY unset: the runtime loaded twice ($d), spin count $first before main, then $(last_spincount "$tmp/unset.err") (passive)"
ok $(grep -q '^contactlab ' "$tmp/unset.out" && echo 0 || echo 1) "the program ran once to its end (--version printed)"

# the environment of the running program: a run that goes on until it is stopped
cat >"$tmp/fall.cfg" <<'EOF'
bodies = ( { shape = "sphere"; radius = 0.1; mass = 1.0; } );
simulation = { backend = "dvi"; h = 1e-3; t_end = 1e6; output_every = 1; };
EOF
environ_of_run() { # environ_of_run OUTDIR: the OMP_WAIT_POLICY line of a running contactlab run
    "$CL" run "$tmp/fall.cfg" --out "$1" --no-progress >/dev/null 2>&1 &
    pid=$!
    i=0
    while [ ! -s "$1/fall-dvi-steps.csv" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
    tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep '^OMP_WAIT_POLICY=' || echo none
    kill -TERM "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
}
if [ -r /proc/self/environ ]; then
    e=$(unset OMP_WAIT_POLICY; environ_of_run "$tmp/r1")
    ok $([ "$e" = OMP_WAIT_POLICY=passive ] && echo 0 || echo 1) "unset: the running program's environment has $e"
    e=$(OMP_WAIT_POLICY=active; export OMP_WAIT_POLICY; environ_of_run "$tmp/r2")
    ok $([ "$e" = OMP_WAIT_POLICY=active ] && echo 0 || echo 1) "set to active by the user: kept ($e)"
else
    n=$((n + 2))
    echo "ok $((n - 1)) # SKIP no /proc"
    echo "ok $n # SKIP no /proc"
fi

OMP_WAIT_POLICY=active OMP_DISPLAY_ENV=verbose "$CL" --version >/dev/null 2>"$tmp/active.err"
ok $([ "$(displays "$tmp/active.err")" -eq 1 ] && [ "$(last_spincount "$tmp/active.err")" != 0 ] && echo 0 || echo 1) \
    "OMP_WAIT_POLICY=active: loaded once, spin count $(last_spincount "$tmp/active.err")"

env -u OMP_WAIT_POLICY OMP_DISPLAY_ENV=verbose "$CL" bench --help >/dev/null 2>"$tmp/bench.err"
ok $([ "$(displays "$tmp/bench.err")" -eq 1 ] && [ "$(last_spincount "$tmp/bench.err")" != 0 ] && echo 0 || echo 1) \
    "bench keeps the runtime's default (loaded once, spin count $(last_spincount "$tmp/bench.err"))"

env -u OMP_WAIT_POLICY LD_PRELOAD=/nonexistent/vgpreload_memcheck-amd64-linux.so OMP_DISPLAY_ENV=verbose \
    "$CL" --version >/dev/null 2>"$tmp/vg.err"
ok $([ "$(displays "$tmp/vg.err")" -eq 1 ] && echo 0 || echo 1) \
    "under valgrind (LD_PRELOAD of vgpreload): not run again ($(displays "$tmp/vg.err") display)"

for c in "" bowling run pile convergence scaling incline drop chain bench; do
    "$CL" $c --help >"$tmp/help" 2>&1
    ok $(grep -q OMP_NUM_THREADS "$tmp/help" && grep -q OMP_WAIT_POLICY "$tmp/help" && echo 0 || echo 1) \
        "contactlab ${c:-(no command)} --help names OMP_NUM_THREADS and OMP_WAIT_POLICY"
done
tap_end
