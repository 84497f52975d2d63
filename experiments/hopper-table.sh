#!/bin/sh
# hopper-table.sh [--merge OUT] DIR [DIR ...]: the table of doc/hopper.md from the output folders of
# `contactlab hopper` runs that share one fill (the same spheres and container, e.g. one run
# and others given --fill-from it): per (method, geometry, orifice) the flow rate W of the
# summary (a later folder's row replaces an earlier one's), the spread of the rate, the
# outcome and the cost; then Beverloo's C and k per (method, geometry), fitted as the driver
# fits them (the least-squares line W^(2/5) = a D_o + b over the orifices whose run did not
# clog; C = a^(5/2) / (rho_b sqrt g), k = -b / (a d)). With one folder the fits are those of its
# hopper-beverloo.csv.
#
# The spread: the series' discharged mass M(t) (every --sample-dt) between the times it first
# reaches 20 % and 80 % of its last value, cut into windows of 0.05 s; the rate of each whole
# window, their mean and standard deviation (sd). A steady flow has sd well below the mean; an
# intermittent one (bursts between arches) has windows without exits and sd near the mean.
#
# --merge OUT: also make OUT a folder hopper.gp can draw: the merged summary (the first
# folder's metadata and a line naming the folders), the series it names, hopper-beverloo.csv
# with the fits below, and hopper.gp (run `gnuplot hopper.gp` there).
set -u
merge=
if [ "${1:-}" = --merge ]; then merge=${2:-}; shift 2 || exit 2; fi
[ $# -ge 1 ] || { echo "usage: hopper-table.sh [--merge OUT] DIR [DIR ...]" >&2; exit 2; }
for d in "$@"; do
    [ -r "$d/hopper-summary.csv" ] || { echo "hopper-table.sh: no $d/hopper-summary.csv" >&2; exit 1; }
done
for d in "$@"; do
    grep -v '^#' "$d/hopper-summary.csv" | awk -F, -v dir="$d" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { print $c["method"] "," $c["geometry"] "," $c["D_o_over_d"] "," $c["D_o_m"] "," $c["d_mean_m"] "," \
                $c["rho_b_kg_m3"] "," $c["W_kg_s"] "," $c["W_beverloo_lit_kg_s"] "," $c["outcome"] "," \
                $c["steps"] "," $c["sim_time_s"] "," $c["wall_s"] "," dir "/" $c["series_file"] }'
done | awk -F, '{ key = $1 "," $2 "," $3; if (!(key in row)) order[n++] = key; row[key] = $0 }
               END { for (i = 0; i < n; i++) print row[order[i]] }' >"${TMPDIR:-/tmp}/hopper-table.$$"

echo "| method | hopper | D_o/d | W [kg/s] | rate over 0.05 s: mean +- sd [kg/s] | Beverloo, C 0.58, k 1.4 [kg/s] | outcome | steps | simulated [s] | wall [s] |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
while IFS=, read -r m g Dd D dm rho W Wl out steps t wall series; do
    spread=$(grep -v '^#' "$series" | awk -F, '
        NR == 1 { next }
        { t[n] = $1; M[n] = $3; n++ }
        END {
            if (n < 2) { print "-"; exit }
            Mend = M[n - 1]; i20 = -1; i80 = -1
            for (i = 0; i < n; i++) { if (i20 < 0 && M[i] >= 0.2 * Mend) i20 = i; if (i80 < 0 && M[i] >= 0.8 * Mend) i80 = i }
            if (i20 < 0 || i80 <= i20) { print "-"; exit }
            k = 0; s = 0; ss = 0; j = i20
            for (i = i20 + 1; i <= i80; i++)
                if (t[i] - t[j] >= 0.05 - 1e-9) { r = (M[i] - M[j]) / (t[i] - t[j]); s += r; ss += r * r; k++; j = i }
            if (k < 2) { print "-"; exit }
            mean = s / k; sd = sqrt((ss - k * mean * mean) / (k - 1) > 0 ? (ss - k * mean * mean) / (k - 1) : 0)
            printf "%.3f +- %.3f (%d windows)", mean, sd, k
        }')
    printf "| %s | %s | %s | %.3f | %s | %.3f | %s | %d | %.2f | %.0f |\n" "$m" "$g" "$Dd" "$W" "$spread" "$Wl" "$out" \
        "$steps" "$t" "$wall"
done <"${TMPDIR:-/tmp}/hopper-table.$$"

fits=${TMPDIR:-/tmp}/hopper-fits.$$
trap 'rm -f "${TMPDIR:-/tmp}/hopper-table.$$" "$fits"' EXIT
awk -F, '$9 != "clogged" && $7 + 0 > 0 && $7 != "nan" {
        key = $1 "," $2; if (!(key in n)) order[nk++] = key
        x = $4; y = $7 ^ 0.4; n[key]++; sx[key] += x; sy[key] += y; sxx[key] += x * x; sxy[key] += x * y; syy[key] += y * y
        rho[key] = $6; d[key] = $5 }
    END {
        for (i = 0; i < nk; i++) {
            k = order[i]; N = n[k]
            if (N < 2) continue
            a = (N * sxy[k] - sx[k] * sy[k]) / (N * sxx[k] - sx[k] * sx[k]); b = (sy[k] - a * sx[k]) / N
            r2 = 1 - (syy[k] - b * sy[k] - a * sxy[k]) / (syy[k] - sy[k] * sy[k] / N)
            printf "%s,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%.17g,%.17g,0.58,1.4\n", k, a ^ 2.5 / (rho[k] * sqrt(9.81)),
                   -b / (a * d[k]), a, b, r2, N, rho[k], d[k]
        }
    }' "${TMPDIR:-/tmp}/hopper-table.$$" >"$fits"
echo
echo "| method | hopper | C | k | r^2 | orifices |"
echo "| --- | --- | --- | --- | --- | --- |"
awk -F, '{ printf "| %s | %s | %.3f | %.2f | %.4f | %d |\n", $1, $2, $3, $4, $7, $8 }' "$fits"

[ -n "$merge" ] || exit 0
mkdir -p "$merge" || exit 1
{
    grep '^#' "$1/hopper-summary.csv"
    echo "# merged = hopper-table.sh --merge from $*; a later folder's row replaces an earlier one's"
    grep -v '^#' "$1/hopper-summary.csv" | head -n 1
    for d in "$@"; do grep -v '^#' "$d/hopper-summary.csv" | tail -n +2; done |
        awk -F, '{ key = $1 "," $2 "," $4; if (!(key in row)) order[n++] = key; row[key] = $0 }
                 END { for (i = 0; i < n; i++) print row[order[i]] }'
} >"$merge/hopper-summary.csv"
cut -d, -f13 "${TMPDIR:-/tmp}/hopper-table.$$" | while read -r f; do cp "$f" "$merge/"; done
{
    grep '^#' "$1/hopper-beverloo.csv"
    echo "# merged = the fits of hopper-table.sh --merge over $*"
    echo "method,geometry,C,k,a_line,b_line,r2,orifices,rho_b_kg_m3,d_mean_m,C_literature,k_literature"
    cat "$fits"
} >"$merge/hopper-beverloo.csv"
cp "$(dirname "$0")/hopper.gp" "$merge/"
echo "merged into $merge: cd $merge && gnuplot hopper.gp"
