"""Writes real CPython tracebacks the way sglang and its neighbours log them.

Usage: python3 crash.py LOG WANT

LOG gets the log stream: records in sglang's own format (configure_logger:
"[%(asctime)s.%(msecs)03d TP1 EP1] %(message)s"), tracebacks embedded in a
record ("Scheduler hit an exception: " + traceback.format_exception) or
appended by logger.exception, and bare tracebacks printed as an uncaught
exception would be. WANT gets, as JSON, one object per traceback, in order:
the chain of exception lines as CPython itself renders them (root cause
first), which the Go test compares with what it parsed.
"""

import json
import logging
import sys
import traceback

log_path, want_path = sys.argv[1], sys.argv[2]
out = open(log_path, "w")
handler = logging.StreamHandler(out)
handler.setFormatter(logging.Formatter(
    "[%(asctime)s.%(msecs)03d TP1 EP1] %(message)s", datefmt="%Y-%m-%d %H:%M:%S"))
logger = logging.getLogger("sglang")
logger.addHandler(handler)
logger.setLevel(logging.INFO)
logger.propagate = False
want = []


class TransferError(Exception):
    pass


def exception_line(exc):
    """First line of CPython's own rendering of exc, split at ': '."""
    lines = "".join(traceback.format_exception_only(exc)).split("\n")
    # A SyntaxError's location lines come first, indented; notes come after.
    line = next(l for l in lines if l and not l.startswith(" "))
    typ, sep, msg = line.partition(": ")
    return {"type": typ, "message": msg}


def chain(exc):
    """Exception lines in print order: root cause first, exc last."""
    links = []
    while exc is not None:
        links.append(exception_line(exc))
        if exc.__cause__ is not None:
            exc = exc.__cause__
        elif exc.__context__ is not None and not exc.__suppress_context__:
            exc = exc.__context__
        else:
            exc = None
    return list(reversed(links))


def record(exc, how):
    want.append({"how": how, "chain": chain(exc)})
    if how == "scheduler":
        logger.error("Scheduler hit an exception: " + "".join(traceback.format_exception(exc)))
    elif how == "exception":
        try:
            raise exc
        except BaseException:
            logger.exception("Error in request: %s", exc)
    elif how == "raw":
        out.write("".join(traceback.format_exception(exc)))
        out.flush()


def capture(fn):
    try:
        fn()
    except BaseException as e:  # noqa: B902 - every kind is a test case
        return e
    raise AssertionError("no exception")


def context_chain():
    try:
        {}["model"]
    except KeyError:
        raise RuntimeError("Capture cuda graph failed: CUDA out of memory.\nPossible solutions:\n1. set --mem-fraction-static")


def cause_chain():
    try:
        int("x")
    except ValueError as e:
        raise TransferError("Ascend Transfer Engine initialization failed.") from e


def group():
    errors = []
    for i in range(2):
        try:
            raise ValueError(f"member {i}")
        except ValueError as e:
            errors.append(e)
    raise ExceptionGroup("unhandled errors in a TaskGroup", errors)


def recursion(n=0):
    return recursion(n + 1)


def noted():
    e = OSError(98, "Address already in use")
    e.add_note("port 30000 is taken")
    raise e


def syntax():
    compile("max_tokens = = 5\n", "<config>", "exec")


logger.info("Load weight begin. avail mem=60.12 GB")
record(capture(context_chain), "scheduler")
logger.info("Decode batch, #running-req: 31, #token: 80123, token usage: 0.97")
record(capture(cause_chain), "exception")
record(capture(group), "scheduler")
record(capture(recursion), "scheduler")
record(capture(noted), "scheduler")
record(capture(lambda: 1 / 0), "raw")
record(capture(syntax), "raw")
record(capture(lambda: [].pop()), "raw")
record(capture(lambda: (_ for _ in ()).throw(StopIteration)), "raw")
out.write("Killed\n")
out.close()
with open(want_path, "w") as f:
    json.dump(want, f)
