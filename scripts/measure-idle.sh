#!/usr/bin/env bash
# Idle CPU of `logmatch run` following quiet files: the share of one core
# the process uses (user+sys from /proc/PID/stat) while nothing is written.
#
#   scripts/measure-idle.sh [BINARY] [SECONDS] [FILES]
#
# BINARY defaults to a fresh build of ./cmd/logmatch, SECONDS to 60, FILES
# to 4. Each file gets a few sglang lines first, so the tailer follows them
# with a checkpoint; the measurement starts 5 s after start-up.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
bin=${1:-}
secs=${2:-60}
files=${3:-4}
if [[ -z $bin ]]; then
  (cd "$root" && go build -o "$work/logmatch" ./cmd/logmatch)
  bin=$work/logmatch
fi
mkdir -p "$work/logs" "$work/state"
for i in $(seq 1 "$files"); do
  printf '[2026-05-28 00:00:0%d TP0] Prefill batch. #new-seq: 1\n' "$((i % 10))" >"$work/logs/server-$i.log"
done
"$bin" run --path "$work/logs/*.log" --sink stdout --state-dir "$work/state" --http-addr 127.0.0.1:0 >/dev/null 2>"$work/err" &
pid=$!
sleep 5
ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
t0=$(ticks)
sleep "$secs"
t1=$(ticks)
awk -v a="$t0" -v b="$t1" -v hz="$hz" -v s="$secs" 'BEGIN { printf "idle CPU: %.3f%% of one core (%d ticks in %d s)\n", (b - a) / hz / s * 100, b - a, s }'
