#!/usr/bin/env bash
# Compare one Go benchmark between two revisions of logmatch, alternating
# their test binaries so that a change in machine load hits both alike.
#
#   scripts/bench-ab.sh [-r ROUNDS] [-t BENCHTIME] [-m METRIC] [-c CATALOG] [-o FILES] REV_A REV_B PKG BENCH
#
# REV_A and REV_B are git revisions, or "." for the working tree as it is.
# PKG is a package directory (internal/scan, matcher) and BENCH the
# benchmark's regexp (^BenchmarkScanLines$). Each round runs A then B (B
# then A on odd rounds), each a fresh process with -test.cpu 1. The
# figures are the benchmark's METRIC (default cpu-ns/line; any unit the
# benchmark reports, e.g. cpu-ns/op or B/op), min and median over the
# rounds, per benchmark line.
#
# -o FILES (space-separated paths from the repository root) copies those
# files from the working tree over both revisions before building: a
# benchmark newer than a revision (and what it needs) measures that
# revision's code.
#
# The benchmarks read the generated catalog beside the repository
# (../shared/catalogs/sglang-generated.jsonl) by a relative path; the
# binaries run from a directory laid out so that the path reaches CATALOG
# (default: that file, or the one LOGMATCH_GENERATED_CATALOG names), old
# revisions included.
set -euo pipefail

rounds=5 benchtime=5x metric=cpu-ns/line overlay=
root=$(cd "$(dirname "$0")/.." && pwd)
catalog=${LOGMATCH_GENERATED_CATALOG:-$root/../shared/catalogs/sglang-generated.jsonl}
while getopts r:t:m:c:o: o; do
	case $o in
	r) rounds=$OPTARG ;;
	t) benchtime=$OPTARG ;;
	m) metric=$OPTARG ;;
	c) catalog=$OPTARG ;;
	o) overlay=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[[ $# -eq 4 ]] || { sed -n 2,19p "$0" >&2; exit 2; }
rev_a=$1 rev_b=$2 pkg=$3 bench=$4
[[ -f $catalog ]] || { echo "bench-ab: catalog $catalog not found" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# build REV NAME: the test binary of PKG at REV as $work/NAME.test.
build() {
	local src=$root
	if [[ $1 != . ]]; then
		src=$work/src-$2
		mkdir -p "$src"
		git -C "$root" archive "$1" | tar -x -C "$src"
		for f in $overlay; do
			mkdir -p "$src/$(dirname "$f")"
			cp "$root/$f" "$src/$f"
		done
	fi
	(cd "$src" && go test -c -o "$work/$2.test" "./$pkg")
}
build "$rev_a" a
build "$rev_b" b

# The run directory: $work/run/PKG, so that PKG's ../ chain to the
# repository's parent lands in $work, where shared/catalogs is.
mkdir -p "$work/run/$pkg" "$work/shared/catalogs"
ln -s "$(realpath "$catalog")" "$work/shared/catalogs/sglang-generated.jsonl"
export LOGMATCH_GENERATED_CATALOG
LOGMATCH_GENERATED_CATALOG=$(realpath "$catalog")

run() {
	(cd "$work/run/$pkg" && "$work/$1.test" -test.run '^$' -test.bench "$bench" \
		-test.benchtime "$benchtime" -test.cpu 1 -test.benchmem) |
		awk -v m="$metric" -v who="$1" '/^Benchmark/ { for (i = 3; i < NF; i++) if ($(i+1) == m) print who, $1, $i }' >>"$work/results"
}
for ((r = 0; r < rounds; r++)); do
	if ((r % 2 == 0)); then run a; run b; else run b; run a; fi
done

echo "$bench in $pkg, $metric, $rounds rounds, -test.benchtime $benchtime"
echo "A = $rev_a, B = $rev_b"
sort -k2,2 -k1,1 -k3,3g "$work/results" | awk '
	function flush() {
		if (n == 0) return
		med = (n % 2) ? v[(n+1)/2] : (v[n/2] + v[n/2+1]) / 2
		printf "%-40s %s  min %10.4g  median %10.4g  (n=%d:", key, who, v[1], med, n
		for (i = 1; i <= n; i++) printf " %g", v[i]
		print ")"
		n = 0
	}
	{ k = $2 " " $1; if (k != cur) { flush(); cur = k; key = $2; who = $1 } v[++n] = $3 }
	END { flush() }'
