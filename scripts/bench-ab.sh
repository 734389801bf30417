#!/usr/bin/env bash
# Compare one Go benchmark between two revisions of logmatch, alternating
# their test binaries so that a change in machine load hits both alike.
#
#   scripts/bench-ab.sh [-r ROUNDS] [-t BENCHTIME] [-m METRIC] [-c CATALOG] [-o FILES] [-s SHIFTS] REV_A REV_B PKG BENCH
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
# -s SHIFTS builds each revision SHIFTS times, the code after
# internal/textbuf, the matcher, internal/entry and internal/analysis moved
# by a never-called function of a different size in each (0, 3, 7, 11, 19,
# ... times 8 statements), and runs every build each round; the figures
# pool them. Where code lands moves a routine scan line
# by as much as 14% on a shared VM (identical source, 180 to 206 ns:
# perf-load-and-scan.md, sixteenth round), so one build of each side
# compares two placements as much as two revisions.
#
# Each side's binaries run in PKG's directory of a copy of that side's
# tree (its files linked, not copied), so that a benchmark reading its
# package's testdata, or the repository's, reads that revision's. The
# benchmarks read the generated catalog beside the repository
# (../shared/catalogs/sglang-generated.jsonl) by a relative path; the copy
# is laid out so that the path reaches CATALOG (default: that file, or the
# one LOGMATCH_GENERATED_CATALOG names), old revisions included.
#
# A binary that fails prints its output's start and end and stops the
# script; a METRIC that no benchmark line reports is named, with the units
# they do.
set -euo pipefail

rounds=5 benchtime=5x metric=cpu-ns/line overlay= shifts=1
root=$(cd "$(dirname "$0")/.." && pwd)
catalog=${LOGMATCH_GENERATED_CATALOG:-$root/../shared/catalogs/sglang-generated.jsonl}
while getopts r:t:m:c:o:s: o; do
	case $o in
	r) rounds=$OPTARG ;;
	t) benchtime=$OPTARG ;;
	m) metric=$OPTARG ;;
	c) catalog=$OPTARG ;;
	o) overlay=$OPTARG ;;
	s) shifts=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[[ $# -eq 4 ]] || { sed -n 2,39p "$0" >&2; exit 2; }
[[ $shifts =~ ^[1-9][0-9]*$ ]] || { echo "bench-ab: -s $shifts: not a count" >&2; exit 2; }
rev_a=$1 rev_b=$2 pkg=$3 bench=$4
[[ -f $catalog ]] || { echo "bench-ab: catalog $catalog not found" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The sizes of the shifting function, in 8-statement steps (-s).
steps=(0 3 7 11 19 23 29 31 37 41)
((shifts <= ${#steps[@]})) || { echo "bench-ab: -s $shifts: at most ${#steps[@]}" >&2; exit 2; }

# shift SRC K: put the K-th shifting function into SRC's internal/textbuf,
# its matcher, whose scan loop moves by about 10% with where it lands in
# the binary, and its internal/entry and internal/analysis, whose code
# every line runs too (scripts/perf-load-and-scan.md, the sixteenth and
# twenty-second rounds).
shift_code() {
	local n=$((steps[$2] * 8)) i dir pkg
	for dir in internal/textbuf matcher internal/entry internal/analysis; do
		[[ -d $1/$dir ]] || { echo "bench-ab: -s: $1 has no $dir" >&2; exit 1; }
		pkg=${dir##*/}
		{
			printf 'package %s\n\nimport "os"\n\nvar benchShiftSink = len(os.Args)\n\n' "$pkg"
			printf 'func init() {\n\tif benchShiftSink == 123456 {\n\t\tbenchShift()\n\t}\n}\n\n'
			printf '//go:noinline\nfunc benchShift() {\n'
			for ((i = 0; i < n; i++)); do printf '\tbenchShiftSink += %d*benchShiftSink + %d\n' "$i" "$i"; done
			printf '}\n'
		} >"$1/$dir/zz_benchshift.go"
	done
}

# build REV NAME: the test binaries of PKG at REV as $work/NAME.test, or
# $work/NAME0.test, $work/NAME1.test, ... with -s.
build() {
	local src=$root k
	if [[ $1 != . || $shifts -gt 1 ]]; then
		src=$work/src-$2
		mkdir -p "$src"
		if [[ $1 == . ]]; then
			(cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 -I{} cp --parents {} "$src" 2>/dev/null || true)
		else
			git -C "$root" archive "$1" | tar -x -C "$src"
		fi
		for f in $overlay; do
			mkdir -p "$src/$(dirname "$f")"
			cp "$root/$f" "$src/$f"
		done
	fi
	[[ -d $src/$pkg ]] || { echo "bench-ab: $1 has no package directory $pkg" >&2; exit 1; }
	# The run tree: real directories, the files linked to $src's.
	mkdir -p "$work/run-$2"
	find "$src" -mindepth 1 -maxdepth 1 ! -name .git -exec cp -as {} "$work/run-$2/" \;
	if ((shifts == 1)); then
		(cd "$src" && go test -c -o "$work/$2.test" "./$pkg")
		return
	fi
	for ((k = 0; k < shifts; k++)); do
		shift_code "$src" "$k"
		(cd "$src" && go test -c -o "$work/$2$k.test" "./$pkg")
	done
}
build "$rev_a" a
build "$rev_b" b

# The run directories: $work/run-SIDE/PKG, so that PKG's ../ chain to the
# repository's parent lands in $work, where shared/catalogs is.
mkdir -p "$work/shared/catalogs"
ln -s "$(realpath "$catalog")" "$work/shared/catalogs/sglang-generated.jsonl"
export LOGMATCH_GENERATED_CATALOG
LOGMATCH_GENERATED_CATALOG=$(realpath "$catalog")

# run SIDE [K]: one run of SIDE's binary (its K-th shifted build with -s).
run() {
	local rev=$rev_a
	[[ $1 == b ]] && rev=$rev_b
	if ! (cd "$work/run-$1/$pkg" && "$work/$1${2-}.test" -test.run '^$' -test.bench "$bench" \
		-test.benchtime "$benchtime" -test.cpu 1 -test.benchmem) >"$work/out" 2>&1; then
		echo "bench-ab: the benchmark failed ($1${2-} = $rev, $pkg):" >&2
		if (($(wc -l <"$work/out") > 40)); then
			head -n 5 "$work/out" >&2
			echo "..." >&2
		fi
		tail -n 30 "$work/out" >&2
		exit 1
	fi
	cat "$work/out" >>"$work/all"
	awk -v m="$metric" -v who="$1" '/^Benchmark/ { for (i = 3; i < NF; i++) if ($(i+1) == m) print who, $1, $i }' "$work/out" >>"$work/results"
}
for ((r = 0; r < rounds; r++)); do
	if ((shifts == 1)); then
		if ((r % 2 == 0)); then run a; run b; else run b; run a; fi
		continue
	fi
	for ((k = 0; k < shifts; k++)); do
		if (((r + k) % 2 == 0)); then run a "$k"; run b "$k"; else run b "$k"; run a "$k"; fi
	done
done

if [[ ! -s $work/results ]]; then
	if ! grep -q '^Benchmark' "$work/all" 2>/dev/null; then
		echo "bench-ab: no benchmark in $pkg matches $bench" >&2
	else
		echo "bench-ab: no benchmark line reports $metric; they report: $(awk '/^Benchmark/ { for (i = 4; i <= NF; i += 2) print $i }' "$work/all" | sort -u | tr '\n' ' ')(-m)" >&2
	fi
	exit 1
fi
echo "$bench in $pkg, $metric, $rounds rounds$( ((shifts > 1)) && echo " of $shifts shifted builds each"), -test.benchtime $benchtime"
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
