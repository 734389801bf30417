"""Runs every raise_* and log_* function of the fixtures under src/ and
prints one JSON object per message Python produced: the file and line of
the raise or logging call, the exception type, and the exception line as
traceback prints it (or the logged message)."""
import importlib
import json
import logging
import os
import sys
import traceback

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "src")
sys.path.insert(0, ROOT)
out = []


def rel(path):
    return os.path.relpath(path, ROOT).replace(os.sep, "/")


class Collect(logging.Handler):
    def emit(self, record):
        out.append({"file": rel(record.pathname), "line": record.lineno,
                    "class": "", "text": record.getMessage()})


logging.getLogger().addHandler(Collect())
logging.getLogger().setLevel(logging.DEBUG)

for dirpath, dirnames, filenames in sorted(os.walk(ROOT)):
    dirnames.sort()
    for name in sorted(filenames):
        if not name.endswith(".py"):
            continue
        modname = rel(os.path.join(dirpath, name))[:-3].replace("/", ".")
        mod = importlib.import_module(modname)
        for fname in sorted(vars(mod)):
            fn = getattr(mod, fname)
            if not callable(fn) or not fname.startswith(("raise_", "log_")):
                continue
            if getattr(fn, "__module__", None) != modname:
                continue
            try:
                fn()
            except Exception as e:
                frame = traceback.extract_tb(e.__traceback__)[-1]
                text = "".join(traceback.format_exception_only(type(e), e)).rstrip("\n")
                out.append({"file": rel(frame.filename), "line": frame.lineno,
                            "class": type(e).__name__, "text": text})

for o in out:
    print(json.dumps(o))
