#!/usr/bin/env python3
"""Measure `logmatch run` as a sidecar: steady CPU, line-to-alert latency, RSS.

A writer appends sglang-format lines to a log file at a fixed rate (default
1,000 lines/s), one in a hundred (--error-every) a numbered failure stamped with its write
time. logmatch follows the file with the embedded catalog plus one record for
the numbered failures and writes alerts to stdout, where this script stamps
their arrival. CPU is read from /proc/<pid>/stat over the steady part of the
run (after a warm-up), RSS from /proc/<pid>/status.

Usage: scripts/measure-run.py [--binary PATH] [--rate 1000] [--seconds 60]
(builds the binary with `go build` when --binary is not given)
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

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


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def memory(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:")):
                k, v = line.split(":", 1)
                out[k + ":"] = int(v.split()[0]) / 1024
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary")
    ap.add_argument("--rate", type=int, default=1000)
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--error-every", type=int, default=100, help="one numbered failure every N lines")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="logmatch-measure-")
    binary = args.binary
    if not binary:
        binary = os.path.join(work, "logmatch")
        subprocess.run(["go", "build", "-o", binary, "./cmd/logmatch"], check=True)
    catalog = os.path.join(work, "bench.jsonl")
    with open(catalog, "w") as f:
        f.write(CATALOG)
    logdir = os.path.join(work, "logs")
    os.makedirs(logdir)
    path = os.path.join(logdir, "server.log")
    open(path, "w").close()

    proc = subprocess.Popen(
        [binary, "run", "--catalog", catalog, "--path", os.path.join(logdir, "*.log"),
         "--state-dir", os.path.join(work, "state"), "--group-window", "0",
         "--http-addr", "127.0.0.1:0"],
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
    interval = 1.0 / args.rate
    start = time.time()
    cpu0 = None
    with open(path, "a", buffering=1) as f:
        i = 0
        while True:
            now = time.time()
            if now - start >= args.seconds:
                break
            if cpu0 is None and now - start >= args.warmup:
                cpu0, t0 = cpu_seconds(proc.pid), now
            ts = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(now))
            if i % args.error_every == args.error_every - 1:
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
    cpu1, t1 = cpu_seconds(proc.pid), time.time()
    mem = memory(proc.pid)
    time.sleep(3)
    proc.terminate()
    proc.wait(timeout=30)

    lat = sorted(arrived[k] - written[k] for k in written if k in arrived)
    missing = [k for k in written if k not in arrived]

    def pct(p):
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    print(f"lines written: {i} at {i / args.seconds:.0f}/s; failures: {n}; alerted: {len(lat)}; missing: {len(missing)}")
    print(f"steady CPU: {100 * (cpu1 - cpu0) / (t1 - t0):.2f}% of one core over {t1 - t0:.0f}s")
    print(f"latency line->alert: p50 {pct(0.5):.1f} ms, p99 {pct(0.99):.1f} ms, max {pct(1.0):.1f} ms")
    print(f"RSS: {mem.get('VmRSS:', 0):.1f} MiB now, {mem.get('VmHWM:', 0):.1f} MiB peak")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
