#!/usr/bin/env bash
# How scan and the catalog load grow with the catalog: logmatch scan with
# catalogs of 100 to 50,000 records, side by side in one run.
#
#   scripts/bench-catalog-scale.sh [CATALOG] [LINES] [ROUNDS] [SIZES]
#
# CATALOG defaults to ../shared/catalogs/sglang-generated.jsonl beside the
# repository (or $LOGMATCH_GENERATED_CATALOG), LINES to 300000, ROUNDS to 3,
# SIZES to "100 1000 5695 20000 50000". The catalog of each size comes from
# scripts/scale-catalog.py (a sample below CATALOG's size, variants of its
# records above). The log is genlines' (0.1% error lines from CATALOG).
#
# Per size and round, alternating the order of the sizes from round to
# round: the scan of the log and of an empty log with the catalog cache
# warm (the net of the two is the scan per line), and the empty log with
# --catalog-cache off (a first load). CPU is user+system, RSS the peak and
# faults the minor page faults, from /usr/bin/time; the script prints
# min / median over the rounds.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
catalog=${1:-${LOGMATCH_GENERATED_CATALOG:-$root/../shared/catalogs/sglang-generated.jsonl}}
lines=${2:-300000}
rounds=${3:-3}
sizes=${4:-100 1000 5695 20000 50000}

[[ -f $catalog ]] || { echo "bench-catalog-scale: catalog $catalog not found" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "bench-catalog-scale: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "building logmatch and genlines"
(cd "$root" && go build -o "$work/logmatch" ./cmd/logmatch && go build -o "$work/genlines" ./internal/benchdata/genlines)
"$work/genlines" -n "$lines" -catalog "$catalog" -error-rate 0.001 >"$work/lines.log"
phys=$(wc -l <"$work/lines.log")
: >"$work/empty.log"

# timed SIZE CACHE LOG: one scan; prints "cpu-seconds peak-kB faults".
timed() {
	/usr/bin/time -f '%U %S %M %R' -o "$work/t" "$work/logmatch" scan --no-default-catalog --catalog "$work/cat.$1" \
		--catalog-cache "$2" --format json "$3" >/dev/null 2>"$work/err" || {
		local rc=$?
		if [[ $rc -ne 1 ]]; then # 1: incidents found
			echo "bench-catalog-scale: scan with $1 records exited $rc:" >&2
			cat "$work/err" >&2
			exit 1
		fi
	}
	awk '{ printf "%.4f %d %d\n", $1 + $2, $3, $4 }' "$work/t"
}

for n in $sizes; do
	python3 "$root/scripts/scale-catalog.py" "$catalog" "$n" >"$work/cat.$n"
	timed "$n" "$work/cache.$n" "$work/empty.log" >/dev/null # fills the cache
done

for ((r = 1; r <= rounds; r++)); do
	order=$sizes
	((r % 2)) || order=$(printf '%s\n' $sizes | tac | paste -sd' ')
	for n in $order; do
		read -r full _ < <(timed "$n" "$work/cache.$n" "$work/lines.log")
		read -r empty rss faults < <(timed "$n" "$work/cache.$n" "$work/empty.log")
		read -r cold crss cfaults < <(timed "$n" off "$work/empty.log")
		echo "$n $full $empty $rss $cold $crss $faults $cfaults" >>"$work/res"
	done
done

echo "$phys lines (0.1% error lines), $rounds rounds; min / median"
printf '%-8s %-24s %-22s %-20s %-22s %-20s %-18s %s\n' records "scan a line, net (ns)" "load, cached (ms CPU)" "peak RSS, cached" "load, cold (ms CPU)" "peak RSS, cold" "faults, cached" "faults, cold"
for n in $sizes; do
	col() { awk -v n="$n" -v c="$1" -v k="$2" -v p="$phys" '$1 == n { v = (k == "net") ? ($2 - $3) * 1e9 / p : (k == "ms") ? $c * 1000 : (k == "mb") ? $c / 1024 : $c; print v }' "$work/res" |
		sort -g | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2; printf "%.0f / %.0f", v[1], m }'; }
	printf '%-8s %-24s %-22s %-20s %-22s %-20s %-18s %s\n' "$n" "$(col 0 net)" "$(col 3 ms)" "$(col 4 mb) MB" "$(col 5 ms)" "$(col 6 mb) MB" "$(col 7 n)" "$(col 8 n)"
done
