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
