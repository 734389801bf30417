#!/usr/bin/env python3
"""Measure `logmatch run` under a storm of distinct incidents: RSS, state.db, CPU.

A log file holding N distinct tracebacks (each its own exception type, so
each is an incident of its own, as in internal/faultsuite) is followed from
its beginning by `logmatch run` with the stdout sink (to /dev/null). Once
logmatch has read every line (logmatch_source_lines_total on /metrics) and
the settle time has passed, the script waits --linger seconds (incidents
settle, windows tick, commits go on), then reports:

  - RSS now and peak (VmRSS, VmHWM from /proc/<pid>/status),
  - the size of state-dir/state.db,
  - the process's CPU (user+sys) to that point, and per 1,000 incidents.

The cost of one commit alone is measured by the Go benchmarks
(BenchmarkCommitStorm in internal/pipeline).

Several binaries (--binary NAME=PATH, repeatable) are measured in
alternation, --runs times each; the summary gives min and median.

Usage: scripts/measure-storm.py [--binary [NAME=]PATH]... [--incidents 200000] [--runs 1] [--linger 10]
"""

import argparse
import os
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.request

import measurelib
from measurelib import cpu_seconds, memory

TB = ("Traceback (most recent call last):\n"
      "  File \"/app/mod{i}.py\", line {j}, in handler{i}\n"
      "    run()\n"
      "StormError{i}: distinct failure {i}\n")
LINES_PER_TB = 4


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def metric(addr, name):
    with urllib.request.urlopen(f"http://{addr}/metrics", timeout=5) as resp:
        text = resp.read().decode()
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name):
            total += float(line.split()[-1])
    return total


def measure(binary, log, n, linger):
    work = tempfile.mkdtemp(prefix="logmatch-storm-")
    state = os.path.join(work, "state")
    addr = f"127.0.0.1:{free_port()}"
    start = time.time()
    proc = subprocess.Popen(
        [binary, "run", "--path", log, "--state-dir", state, "--http-addr", addr, "--sink", "stdout"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    want = n * LINES_PER_TB
    peak = 0.0
    read = 0.0
    while True:
        time.sleep(0.5)
        if proc.poll() is not None:
            raise SystemExit(f"{binary} exited with status {proc.returncode}")
        peak = max(peak, memory(proc.pid).get("VmRSS", 0))
        try:
            read = metric(addr, "logmatch_source_lines_total")
        except OSError:
            continue
        if read >= want:
            break
    done = time.time()
    for _ in range(int(linger * 2)):
        time.sleep(0.5)
        peak = max(peak, memory(proc.pid).get("VmRSS", 0))
    cpu = cpu_seconds(proc.pid)
    mem = memory(proc.pid)
    size = os.path.getsize(os.path.join(state, "state.db"))
    proc.terminate()
    proc.wait(timeout=60)
    size_stop = os.path.getsize(os.path.join(state, "state.db"))
    return {
        "read_s": done - start, "cpu_s": cpu, "cpu_ms_per_1k": 1000 * cpu / (n / 1000),
        "rss_mb": mem.get("VmRSS", 0), "hwm_mb": max(peak, mem.get("VmHWM", 0)),
        "db_mb": size / 1e6, "db_stop_mb": size_stop / 1e6,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", action="append", default=[], help="[NAME=]PATH of a logmatch binary (repeatable)")
    ap.add_argument("--incidents", type=int, default=200000)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--linger", type=float, default=10, help="seconds to keep running after the last line was read")
    args = ap.parse_args()

    binaries = measurelib.binaries(ap, args.binary)

    logdir = tempfile.mkdtemp(prefix="logmatch-storm-log-")
    log = os.path.join(logdir, "storm.log")
    with open(log, "w") as f:
        for i in range(args.incidents):
            f.write(TB.format(i=i, j=i + 1))

    results = {}
    for run in range(args.runs):
        order = binaries if run % 2 == 0 else binaries[::-1]
        for name, path in order:
            r = measure(path, log, args.incidents, args.linger)
            results.setdefault(name, []).append(r)
            print(name, " ".join(f"{k}={v:.2f}" for k, v in r.items()), flush=True)

    print(f"\n{args.incidents} distinct tracebacks, {args.runs} run(s) each: min / median")
    for name, rs in results.items():
        cols = []
        for k in rs[0]:
            vals = [r[k] for r in rs]
            cols.append(f"{k} {min(vals):.2f} / {statistics.median(vals):.2f}")
        print(f"{name}: " + ", ".join(cols))


if __name__ == "__main__":
    main()
