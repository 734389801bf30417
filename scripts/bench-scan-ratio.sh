#!/usr/bin/env bash
# Scan per line with a large catalog against a small one, on one revision:
# BenchmarkScanLines (internal/scan) with each catalog, alternating them
# round by round, so that the machine's load hits both alike.
#
#   scripts/bench-scan-ratio.sh [-r ROUNDS] [-t BENCHTIME] REV SMALL LARGE
#
# REV is a git revision, or "." for the working tree. SMALL and LARGE are
# catalogs (scripts/scale-catalog.py makes large ones from the generated
# catalog); the error lines of each scan come from its own catalog. Prints
# cpu-ns/line min and median per catalog and LARGE's over SMALL's (of the
# mins and of the medians).
set -euo pipefail

rounds=5 benchtime=3x
while getopts r:t: o; do
	case $o in
	r) rounds=$OPTARG ;;
	t) benchtime=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[[ $# -eq 3 ]] || { sed -n 2,12p "$0" >&2; exit 2; }
rev=$1 small=$(realpath "$2") large=$(realpath "$3")
root=$(cd "$(dirname "$0")/.." && pwd)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$root
if [[ $rev != . ]]; then
	src=$work/src
	mkdir -p "$src"
	git -C "$root" archive "$rev" | tar -x -C "$src"
fi
(cd "$src" && go test -c -o "$work/scan.test" ./internal/scan)
mkdir -p "$work/run/internal/scan"

run() { # run NAME CATALOG
	(cd "$work/run/internal/scan" && LOGMATCH_GENERATED_CATALOG=$2 "$work/scan.test" -test.run '^$' \
		-test.bench '^BenchmarkScanLines$' -test.benchtime "$benchtime" -test.cpu 1) |
		awk -v who="$1" '/^Benchmark/ { for (i = 3; i < NF; i++) if ($(i+1) == "cpu-ns/line") print who, $i }' >>"$work/results"
}
for ((r = 0; r < rounds; r++)); do
	if ((r % 2 == 0)); then run small "$small"; run large "$large"; else run large "$large"; run small "$small"; fi
done

echo "BenchmarkScanLines at $rev, cpu-ns/line, $rounds rounds, -test.benchtime $benchtime"
sort -k1,1 -k2,2g "$work/results" | awk '
	{ v[$1, ++n[$1]] = $2 }
	END {
		for (k = 0; k < 2; k++) {
			w = k ? "large" : "small"; c = n[w]
			mn[w] = v[w, 1]
			md[w] = (c % 2) ? v[w, (c+1)/2] : (v[w, c/2] + v[w, c/2+1]) / 2
			printf "%-6s min %8.1f  median %8.1f  (n=%d)\n", w, mn[w], md[w], c
		}
		printf "large / small: min %.2f, median %.2f\n", mn["large"] / mn["small"], md["large"] / md["small"]
	}'
