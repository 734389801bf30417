"""Write numbered sglang-format log lines with Python's logging.

usage: writer.py PATH COUNT INTERVAL_SECONDS MODE
MODE "watched" uses WatchedFileHandler (reopens when the path is renamed or
deleted, as with logrotate's create); "plain" uses FileHandler (append mode,
kept open, as with copytruncate).
"""
import logging
import logging.handlers
import sys
import time

path, count, interval, mode = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
if mode == "watched":
    handler = logging.handlers.WatchedFileHandler(path)
else:
    handler = logging.FileHandler(path)
handler.setFormatter(logging.Formatter("[%(asctime)s TP0] %(message)s", datefmt="%Y-%m-%d %H:%M:%S"))
log = logging.getLogger("writer")
log.addHandler(handler)
log.setLevel(logging.INFO)
log.propagate = False
for i in range(1, count + 1):
    log.info("Decode batch. #running-req: 1, #token: %d, line %d", i * 7, i)
    time.sleep(interval)
handler.close()
