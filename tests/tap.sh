# tap.sh: what the shell tests share, sourced after they set tag (a word for the scratch
# folder's name): a scratch folder $tmp, removed on exit; ok CONDITION-STATUS DESCRIPTION, one
# TAP line (0: ok); tap_end, the plan line and the status (failing when any test failed).
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clab-$tag-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
fails=0
ok() {
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fails=$((fails + 1)); fi
}
tap_end() {
    echo "1..$n"
    [ $fails -eq 0 ]
}
# mpi_tap_ranks PROGRAM [ARGS]: PROGRAM (a TAP-printing test of the MPI build) under mpirun on
# 1 to 4 ranks, its "ok - " and "not ok - " lines as results, and one for each exit status
mpi_tap_ranks() {
    for P in 1 2 3 4; do
        mpirun --oversubscribe --allow-run-as-root -np "$P" "$@" >"$tmp/t$P.out" 2>"$tmp/t$P.err"
        st=$?
        while IFS= read -r line; do
            case "$line" in
            "ok - "*) ok 0 "${line#ok - }" ;;
            "not ok - "*) ok 1 "${line#not ok - }" ;;
            esac
        done <"$tmp/t$P.out"
        ok $st "mpirun -np $P ${1##*/}: exit status $st"
        [ $st -eq 0 ] || sed 's/^/# /' "$tmp/t$P.err"
    done
}
# tap_skip_rest REASON: in the sanitizer build (scripts/check.sh --sanitizers exports
# CLAB_SANITIZERS=1) end the test here with one skipped result, for a test whose remaining part
# runs an experiment at a size that takes minutes under the sanitizers (the normal build runs
# it; the experiment's code paths are covered under the sanitizers by its C tests); elsewhere
# nothing.
tap_skip_rest() {
    [ -n "${CLAB_SANITIZERS:-}" ] || return 0
    n=$((n + 1))
    echo "ok $n # SKIP $1"
    tap_end
    exit $?
}
