"""Writes an sglang scheduler crash as a Kubernetes container log.

sglang's logging (configure_logger) is reproduced exactly: the root logger,
format "[%(asctime)s TP0] %(message)s", datefmt "%Y-%m-%d %H:%M:%S", and a
scheduler that logs "Scheduler hit an exception: " + the formatted traceback
of a real RuntimeError. The handler writes what containerd writes for a
container's stderr: one CRI line "<RFC 3339 time> stderr F <line>" per
physical line. An uvicorn access line goes to stdout in between, as in a
real pod log where both streams share one file.

usage: python3 sglang_crash.py LOGFILE
"""

import datetime
import logging
import sys
import traceback


class CRIHandler(logging.Handler):
    """Formats a record and appends it as CRI-framed lines of one stream."""

    def __init__(self, path, stream):
        super().__init__()
        self.path = path
        self.stream = stream

    def emit(self, record):
        write_cri(self.path, self.stream, self.format(record))


def write_cri(path, stream, text):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    with open(path, "a", encoding="utf-8") as f:
        for line in text.split("\n"):
            f.write(f"{now} {stream} F {line}\n")


class AscendTransferEngine:
    def initialize(self):
        ret_value = -1  # what the native engine returns when the store is unreachable
        if ret_value != 0:
            logging.getLogger("sglang.srt.disaggregation.ascend.transfer_engine").error(
                "Ascend Transfer Engine initialization failed."
            )
            raise RuntimeError("Ascend Transfer Engine initialization failed.")


def run_scheduler_process():
    AscendTransferEngine().initialize()


def main(path):
    handler = CRIHandler(path, "stderr")
    handler.setFormatter(
        logging.Formatter("[%(asctime)s TP0] %(message)s", datefmt="%Y-%m-%d %H:%M:%S")
    )
    logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)
    log = logging.getLogger("sglang.srt.managers.scheduler")
    log.info("Load weight begin. avail mem=61.20 GB")
    try:
        run_scheduler_process()
    except Exception:
        write_cri(path, "stdout", datetime.datetime.now().strftime("[%Y-%m-%d %H:%M:%S]")
                  + ' INFO:     127.0.0.1:40192 - "POST /generate HTTP/1.1" 200 OK')
        log.error("Scheduler hit an exception: " + "".join(traceback.format_exception(*sys.exc_info())))
    logging.getLogger("sglang.srt.entrypoints.engine").info(
        "Received sigquit from a child process. It usually means the child failed."
    )


if __name__ == "__main__":
    main(sys.argv[1])
