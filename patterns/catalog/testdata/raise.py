"""Reads [{"slug", "class", "message"}] as JSON on stdin. For each item it
raises an exception of that class (qualified names such as
torch.OutOfMemoryError get a stand-in class of that module and name) a
few frames deep, logs it the way an sglang scheduler does, with
configure_logger's format and the DP/TP/EP prefix, and prints
{"slug", "log"} with the text the logging module wrote."""
import builtins
import io
import json
import logging
import sys
import traceback

records = json.load(sys.stdin)
stream = io.StringIO()
handler = logging.StreamHandler(stream)
handler.setFormatter(logging.Formatter(
    "[%(asctime)s DP0 TP0 EP0] %(message)s", datefmt="%Y-%m-%d %H:%M:%S"))
logger = logging.getLogger("sglang.srt.managers.scheduler")
logger.addHandler(handler)
logger.propagate = False


def exception_class(name):
    module, _, short = name.rpartition(".")
    if not module and isinstance(getattr(builtins, short, None), type):
        return getattr(builtins, short)
    cls = type(short, (Exception,), {})
    cls.__module__ = module or "__main__"
    cls.__qualname__ = short
    return cls


def forward_batch(cls, message):
    raise cls(message)


def run_batch(cls, message):
    return forward_batch(cls, message)


for rec in records:
    stream.seek(0)
    stream.truncate()
    try:
        run_batch(exception_class(rec["class"]), rec["message"])
    except Exception:
        logger.error(f"Scheduler hit an exception: {traceback.format_exc()}")
    print(json.dumps({"slug": rec["slug"], "log": stream.getvalue()}))
