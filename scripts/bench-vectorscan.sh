#!/usr/bin/env bash
# logmatch scan and Vectorscan side by side, in one run, at several shares
# of error lines: what a line costs each, and what an error line costs.
#
#   scripts/bench-vectorscan.sh [CATALOG] [LINES] [ROUNDS] [RATES]
#
# CATALOG defaults to ../shared/catalogs/sglang-generated.jsonl beside the
# repository (or $LOGMATCH_GENERATED_CATALOG), LINES to 300000, ROUNDS to 3,
# RATES (the shares of error lines) to "0 0.001 0.01 0.05". Logs come from
# internal/benchdata/genlines.
#
# The peer is scripts/vectorscan/hsref.c, built against Debian's
# libvectorscan-dev (apt-get install libvectorscan-dev); without it the
# script says so and exits 0. hsref compiles every pattern Vectorscan takes
# (scripts/vectorscan/patterns.py converts them) and scans the log line by
# line, all patterns at once; it reports its compile and its scan ("matching
# alone") CPU time apart.
#
# "logmatch matcher alone" is matcher's BenchmarkMatchErrorLines at the same
# rate (100k genlines lines of seed 1, the same lines at any LINES), the
# figure to set against Vectorscan's matching alone; it is left empty for a
# rate the benchmark does not run (it runs 0, 0.001, 0.01 and 0.05).
#
# logmatch scan is the whole `logmatch scan` process (reading, assembly,
# analysis, incidents), with its catalog cache warm, net of the same scan
# of an empty log (the load): CPU is user+system from scripts/cputime.py. Each
# round runs, per rate, logmatch on the log, logmatch on the empty log and
# hsref, alternating their order from round to round. Per rate the script
# prints min and median of the rounds; the cost of an error line is the
# difference from rate 0 over the error lines added.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
catalog=${1:-${LOGMATCH_GENERATED_CATALOG:-$root/../shared/catalogs/sglang-generated.jsonl}}
lines=${2:-300000}
rounds=${3:-3}
rates=${4:-0 0.001 0.01 0.05}

[[ -f $catalog ]] || { echo "bench-vectorscan: catalog $catalog not found" >&2; exit 1; }
if [[ ! -f /usr/include/hs/hs.h ]]; then
	echo "bench-vectorscan: Vectorscan is not installed (apt-get install libvectorscan-dev); skipped"
	exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "building logmatch, genlines and hsref"
(cd "$root" && go build -o "$work/logmatch" ./cmd/logmatch && go build -o "$work/genlines" ./internal/benchdata/genlines &&
	go test -c -o "$work/matcher.test" ./matcher)
cc -O2 -o "$work/hsref" "$root/scripts/vectorscan/hsref.c" -lhs
python3 "$root/scripts/vectorscan/patterns.py" "$catalog" "$work/pats"
: >"$work/empty.log"

lm() { "$work/logmatch" scan --no-default-catalog --catalog "$catalog" --catalog-cache "$work/cache" --format json "$1"; }

# cpu CMD...: run CMD, print its user+system seconds (scripts/cputime.py:
# to the microsecond, where /usr/bin/time's hundredths are 33 ns a line of
# a 300,000-line log).
cpu() {
	local rc=0
	"$root/scripts/cputime.py" "$work/out" "$work/err" "$@" >"$work/t" || rc=$?
	# logmatch scan exits 1 when it found incidents.
	if [[ $rc -ne 0 && ( $1 != "$work/logmatch" || $rc -ne 1 ) ]]; then
		echo "bench-vectorscan: $* exited $rc:" >&2
		cat "$work/err" >&2
		exit 1
	fi
	awk '{ printf "%.6f\n", $3 }' "$work/t"
}

for rate in $rates; do
	"$work/genlines" -n "$lines" -catalog "$catalog" -error-rate "$rate" >"$work/log.$rate"
done
echo "warming up (fills logmatch's catalog cache)"
cpu "$work/logmatch" scan --no-default-catalog --catalog "$catalog" --catalog-cache "$work/cache" --format json "$work/empty.log" >/dev/null

for ((r = 1; r <= rounds; r++)); do
	for rate in $rates; do
		log=$work/log.$rate
		phys=$(wc -l <"$log")
		one() {
			case $1 in
			lm) echo "$rate $(cpu "$work/logmatch" scan --no-default-catalog --catalog "$catalog" --catalog-cache "$work/cache" --format json "$log")" >>"$work/res.lm" ;;
			empty) echo "$rate $(cpu "$work/logmatch" scan --no-default-catalog --catalog "$catalog" --catalog-cache "$work/cache" --format json "$work/empty.log")" >>"$work/res.empty" ;;
			mt)
				(cd "$work" && LOGMATCH_GENERATED_CATALOG=$(realpath "$catalog") "$work/matcher.test" -test.run '^$' \
					-test.bench "^BenchmarkMatchErrorLines/rate=$rate\$" -test.benchtime 3x -test.cpu 1) |
					awk -v r="$rate" '/^Benchmark/ { for (i = 3; i < NF; i++) if ($(i+1) == "cpu-ns/line") print r, $i }' >>"$work/res.mt"
				;;
			hs)
				"$work/hsref" "$work/pats" "$log" >"$work/hs.out"
				sed -e "s/^/rate=$rate /" "$work/hs.out" >>"$work/res.hs"
				;;
			esac
		}
		if ((r % 2)); then one lm; one empty; one mt; one hs; else one hs; one mt; one empty; one lm; fi
		echo "$rate $phys" >"$work/phys.$rate"
	done
done

head -1 "$work/res.hs" | sed -e 's/ lines=.*//' -e 's/^rate=[^ ]* /hsref: /'
echo "$lines lines a log, $rounds rounds; CPU (user+system) a line, min / median over the rounds"
printf '%-8s %-22s %-24s %-26s %-22s %s\n' rate "logmatch scan, net" "logmatch matcher alone" "Vectorscan matching alone" "Vectorscan compile" "matched lines (hsref)"
for rate in $rates; do
	phys=$(awk '{ print $2 }' "$work/phys.$rate")
	# logmatch net: each round's run on the log less that round's empty run.
	paste -d' ' <(awk -v r="$rate" '$1 == r { print $2 }' "$work/res.lm") <(awk -v r="$rate" '$1 == r { print $2 }' "$work/res.empty") |
		awk -v n="$phys" '{ printf "%.1f\n", ($1 - $2) * 1e9 / n }' | sort -g >"$work/lm.$rate"
	grep "^rate=$rate " "$work/res.hs" | sed -e 's/.*scan_cpu_ns_line=//' | sort -g >"$work/hs.$rate"
	awk -v r="$rate" '$1 == r { print $2 }' "$work/res.mt" 2>/dev/null | sort -g >"$work/mt.$rate"
	grep "^rate=$rate " "$work/res.hs" | sed -e 's/.*compile_cpu_s=\([^ ]*\).*/\1/' | sort -g >"$work/hc.$rate"
	mm() { awk '{ v[NR] = $1 } END { if (NR == 0) { printf "-"; exit } m = (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2; printf "%s / %s%s", v[1], m, u }' u="$2" "$1"; }
	printf '%-8s %-22s %-24s %-26s %-22s %s\n' "$rate" "$(mm "$work/lm.$rate" " ns")" "$(mm "$work/mt.$rate" " ns")" "$(mm "$work/hs.$rate" " ns")" "$(mm "$work/hc.$rate" " s")" \
		"$(grep "^rate=$rate " "$work/res.hs" | head -1 | sed -e 's/.*matched=\([0-9]*\).*/\1/')"
done
# The cost of an error line: the median difference from rate 0.
set -- $rates
if [[ $1 == 0 ]]; then
	base_lm=$(awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2 }' "$work/lm.0")
	base_hs=$(awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2 }' "$work/hs.0")
	base_mt=$(awk '{ v[NR] = $1 } END { if (NR > 0) print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2 }' "$work/mt.0")
	shift
	for rate in "$@"; do
		awk -v r="$rate" -v bl="$base_lm" -v bh="$base_hs" -v bm="$base_mt" -v flm="$work/lm.$rate" -v fhs="$work/hs.$rate" -v fmt="$work/mt.$rate" 'BEGIN {
			while ((getline x < flm) > 0) l[++nl] = x
			while ((getline x < fhs) > 0) h[++nh] = x
			while ((getline x < fmt) > 0) t[++nt] = x
			ml = (nl % 2) ? l[(nl+1)/2] : (l[nl/2] + l[nl/2+1]) / 2
			mh = (nh % 2) ? h[(nh+1)/2] : (h[nh/2] + h[nh/2+1]) / 2
			printf "an error line at rate %s (medians): logmatch scan %.2f us", r, (ml - bl) / r / 1000
			if (nt > 0 && bm != "") {
				mt = (nt % 2) ? t[(nt+1)/2] : (t[nt/2] + t[nt/2+1]) / 2
				printf ", logmatch matcher %.2f us", (mt - bm) / r / 1000
			}
			printf ", Vectorscan matching %.2f us\n", (mh - bh) / r / 1000
		}'
	done
fi
