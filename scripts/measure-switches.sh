#!/bin/bash
# measure-switches.sh BIN RATE [SECONDS] [VAR=VALUE...]
#
# Runs `BIN run` on one log file that a Python writer appends sglang
# scheduler lines to at RATE lines a second (no failures, so no alerts),
# and prints what `perf stat` counts for the process over SECONDS (default
# 8) of the steady part: task-clock (CPU), context switches, and CPU per
# line. VAR=VALUE arguments go into logmatch's environment (for example
# GOMAXPROCS=1). task-clock is exact where /proc's ticks are 10 ms, which
# at 1k lines/s is the whole signal. Needs perf.
set -euo pipefail
bin=$1 rate=$2 secs=${3:-8}
shift $(($# < 3 ? $# : 3))
w=$(mktemp -d)
trap 'kill "$pid" "$wp" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$w"' EXIT
mkdir -p "$w/logs"
: >"$w/logs/a.log"
env "$@" "$bin" run --path "$w/logs/*.log" --state-dir "$w/state" --group-window 0 \
	--http-addr 127.0.0.1:0 >/dev/null 2>"$w/err" &
pid=$!
sleep 1.5
python3 "$(dirname "$0")/write-at-rate.py" "$w/logs/a.log" "$rate" "$((secs + 3))" &
wp=$!
sleep 2
perf stat -x, -e task-clock,context-switches -p "$pid" -- sleep "$secs" 2>&1 >/dev/null |
	awk -F, -v r="$rate" -v s="$secs" -v e="$*" '
	/task-clock/ {tc = $1} /context-switches/ {cs = $1}
	END {printf "rate %d %s: cpu %.2f%% of a core, %.2f us a line, %d context switches a second\n", r, e, tc / (10 * s), tc * 1000 / (s * r), cs / s}'
