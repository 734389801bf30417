#!/usr/bin/env python3
"""Measure `logmatch run` as a sidecar: steady CPU, line-to-alert latency, RSS.

A writer appends sglang-format lines to a log file at a fixed rate (default
1,000 lines/s), one in a hundred (--error-every) a numbered failure stamped with its write
time. logmatch follows the file with the embedded catalog plus one record for
the numbered failures and writes alerts to stdout, where this script stamps
their arrival. CPU is read from /proc/<pid>/stat over the steady part of the
run (after a warm-up), RSS from /proc/<pid>/status.

CPU per line is the user+sys time of the logmatch process over the steady
window divided by the lines it read in that window (logmatch_source_lines_total
from its /metrics), so a logmatch that falls behind does not look cheaper. Several binaries (--binary
NAME=PATH, repeatable) and rates (--rate, repeatable) are measured in
alternation, --runs times each, so drifting machine load falls on all of
them alike; the summary gives the minimum and median CPU per line and the
median latencies of each binary and rate.

Usage: scripts/measure-run.py [--binary [NAME=]PATH]... [--rate 1000]... [--runs 1] [--seconds 60]
(builds the binary with `go build` when --binary is not given)

Example, before and after a change, three alternating runs per rate:
  scripts/measure-run.py --binary main=/tmp/main --binary new=/tmp/new \
      --rate 1000 --rate 10000 --rate 50000 --runs 3 --seconds 20
"""

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import measurelib
from measurelib import cpu_seconds, memory

CATALOG = (
    '{"id":"bench000000000001","slug":"synthetic-failure",'
    '"messagePattern":"Synthetic failure #(\\\\d+) in request","errorClass":"RuntimeError",'
    '"severity":"error","solutions":["a","b"]}\n'
)

INFO = (
    "[{ts} TP0] Decode batch, #running-req: 41, #token: 30211, token usage: 0.37, "
    "cuda graph: True, gen throughput (token/s): 2210.53, #queue-req: 0\n"
)
FAIL = "[{ts} TP0] Synthetic failure #{n} in request\n"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def lines_read(addr):
    """logmatch_source_lines_total summed over sources, from /metrics."""
    with urllib.request.urlopen(f"http://{addr}/metrics", timeout=5) as resp:
        text = resp.read().decode()
    total = 0.0
    for line in text.splitlines():
        if line.startswith("logmatch_source_lines_total"):
            total += float(line.split()[-1])
    return total


def measure(binary, rate, seconds, warmup, error_every):
    """One run of binary at rate lines/s; returns its figures as a dict."""
    work = tempfile.mkdtemp(prefix="logmatch-measure-")
    catalog = os.path.join(work, "bench.jsonl")
    with open(catalog, "w") as f:
        f.write(CATALOG)
    logdir = os.path.join(work, "logs")
    os.makedirs(logdir)
    path = os.path.join(logdir, "server.log")
    open(path, "w").close()

    addr = f"127.0.0.1:{free_port()}"
    proc = subprocess.Popen(
        [binary, "run", "--catalog", catalog, "--path", os.path.join(logdir, "*.log"),
         "--state-dir", os.path.join(work, "state"), "--group-window", "0",
         "--http-addr", addr],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    arrived = {}

    def reader():
        for line in proc.stdout:
            t = time.time()
            try:
                a = json.loads(line)
                arrived[int(a["match"]["groups"]["1"])] = t
            except (ValueError, KeyError):
                pass

    threading.Thread(target=reader, daemon=True).start()
    time.sleep(1)

    written = {}
    n = 0
    interval = 1.0 / rate
    start = time.time()
    cpu0 = None
    with open(path, "a", buffering=1) as f:
        i = 0
        while True:
            now = time.time()
            if now - start >= seconds:
                break
            if cpu0 is None and now - start >= warmup:
                cpu0, t0, read0 = cpu_seconds(proc.pid), now, lines_read(addr)
            ts = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(now))
            if i % error_every == error_every - 1:
                n += 1
                written[n] = time.time()
                f.write(FAIL.format(ts=ts, n=n))
            else:
                f.write(INFO.format(ts=ts))
            i += 1
            # Pace by the schedule, not by sleeps, so the rate holds.
            delay = start + i * interval - time.time()
            if delay > 0:
                time.sleep(delay)
    cpu1, t1, read1 = cpu_seconds(proc.pid), time.time(), lines_read(addr)
    mem = memory(proc.pid)
    time.sleep(3)
    proc.terminate()
    proc.wait(timeout=30)

    lat = sorted(arrived[k] - written[k] for k in written if k in arrived)
    missing = [k for k in written if k not in arrived]

    def pct(p):
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    # Per line read by logmatch in the window, not per line written: a
    # logmatch that falls behind its writer must not look cheaper.
    steady = read1 - read0
    return {
        "lines": i, "rate": i / seconds, "failures": n, "alerted": len(lat), "missing": len(missing),
        "cpu_pct": 100 * (cpu1 - cpu0) / (t1 - t0), "window": t1 - t0, "read": steady,
        "cpu_per_line_us": 1e6 * (cpu1 - cpu0) / steady if steady else float("nan"),
        "p50": pct(0.5), "p99": pct(0.99), "max": pct(1.0),
        "rss": mem.get("VmRSS", 0), "hwm": mem.get("VmHWM", 0),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", action="append", default=[], help="[NAME=]PATH of a logmatch binary (repeatable)")
    ap.add_argument("--rate", type=int, action="append", default=[], help="lines per second (repeatable; default 1000)")
    ap.add_argument("--runs", type=int, default=1, help="runs of every binary at every rate, alternated")
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--error-every", type=int, default=100, help="one numbered failure every N lines")
    args = ap.parse_args()
    rates = args.rate or [1000]
    if args.warmup >= args.seconds:
        ap.error("--warmup must be shorter than --seconds")

    binaries = measurelib.binaries(ap, args.binary)

    results = {}
    missing = 0
    for run in range(args.runs):
        for rate in rates:
            # Alternate the order too, so no binary always runs first.
            order = binaries if run % 2 == 0 else binaries[::-1]
            for name, path in order:
                r = measure(path, rate, args.seconds, args.warmup, args.error_every)
                results.setdefault((name, rate), []).append(r)
                missing += r["missing"]
                print(f"run {run + 1} {name} {rate}/s: lines written: {r['lines']} at {r['rate']:.0f}/s; "
                      f"failures: {r['failures']}; alerted: {r['alerted']}; missing: {r['missing']}")
                print(f"  steady CPU: {r['cpu_pct']:.2f}% of one core over {r['window']:.0f}s, "
                      f"{r['read']:.0f} lines read in it, {r['cpu_per_line_us']:.2f} us per line")
                print(f"  latency line->alert: p50 {r['p50']:.1f} ms, p99 {r['p99']:.1f} ms, max {r['max']:.1f} ms")
                print(f"  RSS: {r['rss']:.1f} MiB now, {r['hwm']:.1f} MiB peak", flush=True)

    print()
    print(f"{'binary':<12} {'rate':>7} {'runs':>4} {'cpu/line min':>13} {'median':>8} "
          f"{'p50 ms':>8} {'p99 ms':>8} {'missing':>7}")
    for rate in rates:
        for name, _ in binaries:
            rs = results[(name, rate)]
            cpl = [r["cpu_per_line_us"] for r in rs]
            print(f"{name:<12} {rate:>7} {len(rs):>4} {min(cpl):>10.2f} us {statistics.median(cpl):>5.2f} us "
                  f"{statistics.median(r['p50'] for r in rs):>8.1f} {statistics.median(r['p99'] for r in rs):>8.1f} "
                  f"{sum(r['missing'] for r in rs):>7}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
