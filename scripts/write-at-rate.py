#!/usr/bin/env python3
"""Append a routine sglang decode-batch line to PATH at RATE lines a second
for SECS seconds, line-buffered, as a server under load writes its log.
Used by measure-switches.sh and bench-run-vs-collector.sh."""
import sys
import time

path, rate, secs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
line = ("[2026-05-28 00:00:00 TP0] Decode batch, #running-req: 41, #token: 30211, "
        "token usage: 0.37, cuda graph: True, gen throughput (token/s): 2210.53, #queue-req: 0\n")
with open(path, "a", buffering=1) as f:
    start, i = time.time(), 0
    while time.time() - start < secs:
        f.write(line)
        i += 1
        delay = start + i / rate - time.time()
        if delay > 0:
            time.sleep(delay)
