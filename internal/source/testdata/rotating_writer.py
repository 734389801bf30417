"""Write numbered sglang-format lines with Python's logging while
RotatingFileHandler renames the file away every ROTATE_SECONDS.

usage: rotating_writer.py PATH COUNT INTERVAL_SECONDS ROTATE_SECONDS [TIMES]

The handler rolls over the way it does on size (app.log.1 -> app.log.2 ...,
app.log -> app.log.1, a new app.log), but on a timer, so the test controls
how fast the live name changes. It prints the number of rollovers. With
TIMES, it writes there one line per rotated generation: its first and last
line numbers and the CLOCK_MONOTONIC seconds between which it certainly
was at PATH (after the rollover that created it, before the one that
renamed it).
"""
import logging
import logging.handlers
import sys
import time

path, count, interval, every = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
times = open(sys.argv[5], "w") if len(sys.argv) > 5 else None
handler = logging.handlers.RotatingFileHandler(path, maxBytes=0, backupCount=1000)
handler.setFormatter(logging.Formatter("[%(asctime)s TP0] %(message)s", datefmt="%Y-%m-%d %H:%M:%S"))
log = logging.getLogger("writer")
log.addHandler(handler)
log.setLevel(logging.INFO)
log.propagate = False
rollovers = 0
first, opened = 1, time.monotonic()
next_roll = opened + every
for i in range(1, count + 1):
    log.error("RuntimeError: CUDA error: an illegal memory access, line %d", i)
    time.sleep(interval)
    if time.monotonic() >= next_roll:
        closing = time.monotonic()
        handler.doRollover()
        rollovers += 1
        if times:
            times.write("%d %d %.6f %.6f\n" % (first, i, opened, closing))
        first, opened = i + 1, time.monotonic()
        next_roll = opened + every  # no catch-up burst after a stall
handler.close()
if times:
    times.close()
print(rollovers)
