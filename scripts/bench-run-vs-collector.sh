#!/usr/bin/env bash
# CPU a line of `logmatch run` and of the otelcol-logmatch Collector build
# (file_log receiver -> logmatch processor) following one file, side by
# side, in alternating rounds.
#
#   scripts/bench-run-vs-collector.sh [-r ROUNDS] [-s SECONDS] [-R "RATES"] [-c COLLECTOR] [NAME=BINARY...]
#
# Each NAME=BINARY is a logmatch binary (default: logmatch=a fresh build of
# ./cmd/logmatch); COLLECTOR is an otelcol-logmatch binary (default: a fresh
# build of otelcol/cmd/otelcol-logmatch, as .ci/otelcol.sh builds it).
# RATES defaults to "10000 50000" lines a second, ROUNDS to 3, SECONDS (the
# measured steady part of each run) to 8.
#
# Every run is a fresh process following one empty file that a Python
# writer appends sglang scheduler lines to (no failures, so no alerts or
# incidents), one write a line; CPU is `perf stat` task-clock of the
# process over SECONDS, starting 2 s after the writer. Within a round the
# programs run one after the other at each rate, their order turning
# every round, so the machine's load hits them alike. The report gives per
# rate and program the CPU a line (min / median over the rounds), the
# context switches a second (median), and each logmatch binary's CPU as a
# share of the Collector's (median of the per-round ratios).
#
# The Collector runs the deploy example's processor settings with
# forward: none (only incidents go on, as logmatch run sends only alerts)
# to the debug exporter, its own telemetry off, and the file_log
# receiver's defaults (poll_interval 200 ms, start_at end). Needs perf and
# python3.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=3 secs=8 rates="10000 50000" collector=
while getopts r:s:R:c: o; do
	case $o in
	r) rounds=$OPTARG ;;
	s) secs=$OPTARG ;;
	R) rates=$OPTARG ;;
	c) collector=$OPTARG ;;
	*) sed -n '2,13p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
w=$(mktemp -d)
pid= wp=
cleanup() {
	[[ -n $pid ]] && kill "$pid" 2>/dev/null
	[[ -n $wp ]] && kill "$wp" 2>/dev/null
	wait 2>/dev/null || true
	rm -rf "$w"
}
trap cleanup EXIT

names=() bins=()
if (($# == 0)); then
	(cd "$root" && go build -o "$w/logmatch" ./cmd/logmatch)
	set -- "logmatch=$w/logmatch"
fi
for a in "$@"; do
	names+=("${a%%=*}") bins+=("${a#*=}")
done
if [[ -z $collector ]]; then
	(cd "$root/otelcol/cmd/otelcol-logmatch" && go build -o "$w/otelcol-logmatch" .)
	collector=$w/otelcol-logmatch
fi
names+=(collector) bins+=("$collector")

# measure NAME BIN RATE: one run; appends "NAME RATE us-a-line switches/s".
measure() {
	local name=$1 bin=$2 rate=$3 run=$w/run
	rm -rf "$run"
	mkdir -p "$run/logs" "$run/state"
	: >"$run/logs/a.log"
	if [[ $name == collector ]]; then
		cat >"$run/config.yaml" <<EOF
receivers:
  file_log:
    include: [$run/logs/*.log]
    start_at: end
processors:
  logmatch:
    match: body
    forward: none
    emit_incidents: true
    settle_time: 2s
exporters:
  debug:
    verbosity: basic
service:
  pipelines:
    logs:
      receivers: [file_log]
      processors: [logmatch]
      exporters: [debug]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
EOF
		"$bin" --config "$run/config.yaml" >/dev/null 2>"$run/err" &
	else
		"$bin" run --path "$run/logs/*.log" --state-dir "$run/state" --group-window 0 \
			--http-addr 127.0.0.1:0 >/dev/null 2>"$run/err" &
	fi
	pid=$!
	sleep 2
	if ! kill -0 "$pid" 2>/dev/null; then
		echo "$name did not start:" >&2
		cat "$run/err" >&2
		exit 1
	fi
	python3 "$root/scripts/write-at-rate.py" "$run/logs/a.log" "$rate" "$((secs + 3))" &
	wp=$!
	sleep 2
	perf stat -x, -e task-clock,context-switches -p "$pid" -- sleep "$secs" 2>&1 >/dev/null |
		awk -F, -v n="$name" -v r="$rate" -v s="$secs" '
		/task-clock/ {tc = $1} /context-switches/ {cs = $1}
		END {printf "%s %d %.3f %d\n", n, r, tc * 1000 / (s * r), cs / s}' >>"$w/results"
	kill "$pid" "$wp" 2>/dev/null || true
	wait "$pid" "$wp" 2>/dev/null || true
	pid= wp=
	tail -1 "$w/results" | awk -v k="$round" '{printf "round %d  %-12s %6d lines/s  %.3f us a line  %d switches/s\n", k, $1, $2, $3, $4}' >&2
}

n=${#names[@]}
for round in $(seq 1 "$rounds"); do
	for rate in $rates; do
		for i in $(seq 0 $((n - 1))); do
			j=$(((i + round) % n)) # turn the order every round
			measure "${names[j]}" "${bins[j]}" "$rate"
		done
	done
done

python3 - "$w/results" <<'PY'
import statistics, sys
from collections import defaultdict
cpu, sw, order = defaultdict(list), defaultdict(list), []
for ln in open(sys.argv[1]):
    name, rate, us, cs = ln.split()
    key = (int(rate), name)
    cpu[key].append(float(us)); sw[key].append(int(cs))
    if name not in order:
        order.append(name)
print("rate       program       us a line min / median   switches/s   share of the Collector's CPU (median of rounds)")
for rate in sorted({r for r, _ in cpu}):
    col = cpu.get((rate, "collector"), [])
    for name in order:
        v = cpu[(rate, name)]
        share = ""
        if name != "collector" and len(col) == len(v):
            share = "%.2f (1/%.2f)" % (statistics.median(a / b for a, b in zip(v, col)),
                                       1 / statistics.median(a / b for a, b in zip(v, col)))
        print("%-10d %-13s %6.3f / %6.3f          %8d     %s" % (
            rate, name, min(v), statistics.median(v), statistics.median(sw[(rate, name)]), share))
PY
