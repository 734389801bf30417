#!/bin/bash
# measure-scan.sh BEFORE AFTER [ROUNDS] [LINES]
#
# Scan's CPU per line net of the catalog load: each binary scans a log of
# LINES generated sglang lines (default 3,000,000, 0.1% failure lines, made
# once with genlines from the generated catalog and kept in
# ${LOGMATCH_MEASURE_DIR:-/tmp/logmatch-measure-scan}) and an empty log,
# with a warm compiled-catalog cache of its own, ROUNDS times (default 5)
# in the order before-log, before-empty, after-log, after-empty. Prints
# each run's user+sys seconds, then per binary the min and median of
# (log - empty) / LINES in microseconds. Both binaries' alerts are checked
# to be the same, the times that come from the clock at scan time left
# out (the clock's have 4 to 9 fraction digits, as Go drops trailing
# zeros; the generated log's have 3); LOGMATCH_MEASURE_ALLOW_DIFF=1 lets a
# difference that a change means to make pass with a warning.
set -euo pipefail
before=$1 after=$2 rounds=${3:-5} lines=${4:-3000000}
here=$(cd "$(dirname "$0")/.." && pwd)
catalog=${LOGMATCH_CATALOG:-$here/../shared/catalogs/sglang-generated.jsonl}
dir=${LOGMATCH_MEASURE_DIR:-/tmp/logmatch-measure-scan}
mkdir -p "$dir"
log=$dir/lines-$lines.log
if [ ! -s "$log" ]; then
	(cd "$here" && go run ./internal/benchdata/genlines -catalog "$catalog" -error-rate 0.001 -n "$lines") >"$log.tmp"
	mv "$log.tmp" "$log"
fi
: >"$dir/empty.log"
scan() { # BIN CACHE FILE
	"$1" scan --no-default-catalog --catalog "$catalog" --format json --catalog-cache "$2" "$3"
}
norm() { sed -E 's/"lastTime":"[^"]*",?//g; s/"(time|firstTime)":"[0-9-]+T[0-9:]+\.[0-9]{4,9}Z"/"\1":"NOW"/g'; }
for b in before after; do
	bin=${!b}
	mkdir -p "$dir/cache-$b"
	scan "$bin" "$dir/cache-$b" "$dir/empty.log" >/dev/null
	scan "$bin" "$dir/cache-$b" "$log" | norm >"$dir/alerts-$b.json"
done
if ! cmp -s "$dir/alerts-before.json" "$dir/alerts-after.json"; then
	echo "measure-scan: the two binaries' alerts differ ($dir/alerts-before.json, $dir/alerts-after.json)" >&2
	if [ -z "${LOGMATCH_MEASURE_ALLOW_DIFF:-}" ]; then
		echo "measure-scan: set LOGMATCH_MEASURE_ALLOW_DIFF=1 when the difference is intended" >&2
		exit 1
	fi
	wc -l "$dir/alerts-before.json" "$dir/alerts-after.json" >&2
fi
: >"$dir/times"
for r in $(seq "$rounds"); do
	for b in before after; do
		bin=${!b}
		for f in "$log" "$dir/empty.log"; do
			/usr/bin/time -f "%U %S" -o "$dir/t" "$bin" scan --no-default-catalog --catalog "$catalog" \
				--format json --catalog-cache "$dir/cache-$b" "$f" >/dev/null 2>&1
			kind=log
			[ "$f" = "$log" ] || kind=empty
			echo "$r $b $kind $(awk '{print $1 + $2}' "$dir/t")" | tee -a "$dir/times"
		done
	done
done
python3 - "$dir/times" "$lines" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
n = int(sys.argv[2])
for b in ("before", "after"):
    runs = {}
    for r, bb, kind, s in rows:
        if bb == b:
            runs.setdefault(r, {})[kind] = float(s)
    net = sorted((v["log"] - v["empty"]) / n * 1e6 for v in runs.values())
    print(f"{b}: {min(net):.3f} / {statistics.median(net):.3f} µs a line (min / median, {len(net)} rounds)")
PY
