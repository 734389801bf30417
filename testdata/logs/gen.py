#!/usr/bin/env python3
"""Write sglang-format log fixtures with real Python logging and real tracebacks.

Each scenario configures `logging` the way sglang's configure_logger does
(format "[%(asctime)s{prefix}] %(message)s", datefmt "%Y-%m-%d %H:%M:%S",
one StreamHandler on the root logger) and raises real exceptions, so the
tracebacks are CPython's own. Source files are registered under sglang's
real paths so frames, code lines and 3.11+ caret lines look as they do in a
deployment. The clock is fixed so the output is the same on every run.

Usage: gen.py OUTDIR        (run by `go generate ./cmd/logmatch`)
"""

import io
import linecache
import logging
import multiprocessing
import os
import sys
import time
import traceback

START = time.mktime((2026, 5, 28, 0, 11, 0, 0, 0, -1))
SGLANG = "/sgl-workspace/sglang/python/sglang/srt"


class FixedClock:
    """Gives log records deterministic, increasing creation times."""

    def __init__(self, start):
        self.now = start

    def tick(self, seconds=1.0):
        self.now += seconds
        return self.now


def configure(stream, prefix, clock):
    """Configure the root logger exactly as sglang's configure_logger does."""
    old_factory = logging.getLogRecordFactory()

    def factory(*args, **kwargs):
        record = old_factory(*args, **kwargs)
        record.created = clock.tick(0.25)
        record.msecs = (record.created - int(record.created)) * 1000
        return record

    logging.setLogRecordFactory(factory)
    handler = logging.StreamHandler(stream)
    handler.setFormatter(
        logging.Formatter(f"[%(asctime)s{prefix}] %(message)s", datefmt="%Y-%m-%d %H:%M:%S")
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    logging.Formatter.converter = time.gmtime


def load_module(path, source, namespace=None):
    """Compile source as if it lived at path, with its lines in linecache,
    so tracebacks print the real-looking file name, code and carets."""
    linecache.cache[path] = (len(source), None, source.splitlines(True), path)
    ns = {"__name__": path.rsplit("/", 1)[-1][:-3], "logging": logging}
    if namespace:
        ns.update(namespace)
    exec(compile(source, path, "exec"), ns)
    return ns


def get_exception_traceback():
    """What sglang.srt.utils.common.get_exception_traceback returns, less the
    frames of this generator script, which a deployment would not have."""
    etype, value, tb = sys.exc_info()
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    return "".join(traceback.format_exception(etype, value, tb))


SCHEDULER_SRC = '''
logger = logging.getLogger("sglang.srt.managers.scheduler")


class Scheduler:
    def __init__(self, server_args):
        self.server_args = server_args
        self.init_disaggregation()

    def init_disaggregation(self):
        self.transfer_engine = AscendTransferEngine(
            self.server_args["store_url"], self.server_args["session_id"], self.server_args["npu_id"]
        )


def run_scheduler_process(server_args, on_error):
    try:
        scheduler = Scheduler(server_args)
        scheduler.event_loop()
    except Exception:
        on_error()
'''

ASCEND_SRC = '''
logger = logging.getLogger("sglang.srt.disaggregation.ascend.transfer_engine")


class AscendTransferEngine:
    def __init__(self, store_url, session_id, npu_id):
        self.store_url = store_url
        self.session_id = session_id
        self.npu_id = npu_id
        self.initialize()

    def initialize(self):
        ret_value = -1
        if ret_value != 0:
            logger.error("Ascend Transfer Engine initialization failed.")
            raise RuntimeError("Ascend Transfer Engine initialization failed.")
'''


def startup(log, clock, prefix_log=None):
    log.info(
        "server_args=ServerArgs(model_path='/models/Qwen3-32B', tokenizer_path='/models/Qwen3-32B', "
        "tp_size=1, dp_size=1, mem_fraction_static=0.88, chunked_prefill_size=8192, "
        "disaggregation_mode='prefill', disaggregation_transfer_backend='ascend')"
    )


def scenario_seed_ascend(out):
    """The user's seed record: a logger.error line, the Scheduler's
    traceback ending in the same RuntimeError, then the main process."""
    clock = FixedClock(START)
    configure(out, " TP0", clock)
    main_log = logging.getLogger("sglang.srt.entrypoints.engine")
    ascend = load_module(f"{SGLANG}/disaggregation/ascend/transfer_engine.py", ASCEND_SRC)
    sched = load_module(
        f"{SGLANG}/managers/scheduler.py",
        SCHEDULER_SRC,
        {"AscendTransferEngine": ascend["AscendTransferEngine"]},
    )
    slog = logging.getLogger("sglang.srt.managers.scheduler")
    slog.info("Init torch distributed begin.")
    slog.info("Load weight begin. avail mem=61.23 GB")

    def on_error():
        slog.error(f"Scheduler hit an exception: {get_exception_traceback()}")

    sched["run_scheduler_process"](
        {"store_url": "etcd://10.0.0.7:2379", "session_id": "prefill-0", "npu_id": 0},
        on_error,
    )
    # The main process has no rank prefix.
    configure(out, "", clock)
    main_log.error("Received sigquit from a child process. It usually means the child failed.")


CHAIN_SRC = '''
import json


def read_config(path):
    with_defaults = {"rope_scaling": None}
    return with_defaults[path]


def load_model_config(path):
    try:
        return read_config(path)
    except KeyError:
        return int("abc")


def load_tokenizer_config(raw):
    try:
        return json.loads(raw)
    except ValueError as e:
        raise RuntimeError("tokenizer_config.json is not valid JSON") from e
'''


def scenario_unknown_chained(out):
    """An uncaught chained exception printed raw to stderr, as sys.excepthook
    does: no header, 'During handling of the above exception'."""
    clock = FixedClock(START + 60)
    configure(out, "", clock)
    mod = load_module(f"{SGLANG}/configs/model_config.py", CHAIN_SRC)
    logging.getLogger("sglang").info("Load weight begin. avail mem=71.02 GB")
    try:
        mod["load_model_config"]("config.json")
    except Exception:
        out.write(get_exception_traceback())
    logging.getLogger("sglang").info("Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=31.40 GB, mem usage=39.62 GB.")


def scenario_direct_cause(out):
    """'The above exception was the direct cause' inside a scheduler record."""
    clock = FixedClock(START + 120)
    configure(out, " DP0 TP0 EP0", clock)
    mod = load_module(f"{SGLANG}/configs/model_config.py", CHAIN_SRC)
    log = logging.getLogger("sglang.srt.managers.scheduler")
    try:
        mod["load_tokenizer_config"]("{not json")
    except Exception:
        log.error(f"Scheduler hit an exception: {get_exception_traceback()}")


CARET_SRC = '''
def compute_budget(req, limits):
    return limits["max_new_tokens"] + req.extra["budget"]


def schedule(reqs, limits):
    return [compute_budget(r, limits) for r in reqs]
'''


class Req:
    def __init__(self, extra):
        self.extra = extra


def scenario_carets(out):
    """Python 3.11+ caret lines under the failing expression."""
    clock = FixedClock(START + 180)
    configure(out, " TP1", clock)
    mod = load_module(f"{SGLANG}/managers/schedule_policy.py", CARET_SRC)
    log = logging.getLogger("sglang.srt.managers.scheduler")
    try:
        mod["schedule"]([Req({})], {"max_new_tokens": 128})
    except Exception:
        log.error(f"Scheduler hit an exception: {get_exception_traceback()}")


OOM_SRC = '''
class OutOfMemoryError(RuntimeError):
    pass


OutOfMemoryError.__module__ = "torch"


def forward_extend(batch, rank):
    raise OutOfMemoryError(
        "CUDA out of memory. Tried to allocate 2.00 GiB. GPU %d has a total capacity of 79.15 GiB "
        "of which 1.12 GiB is free. Process 4011 has 78.02 GiB memory in use." % rank
    )


def run_batch(batch, rank):
    return forward_extend(batch, rank)
'''


def rank_worker(path, rank, line_by_line, barrier):
    """One scheduler rank: logs like sglang and crashes with a CUDA OOM."""

    class LineWriter(io.TextIOBase):
        """Writes each line with its own write(2), as an unbuffered stderr
        pipe shared by several processes does, so ranks interleave by line."""

        def __init__(self, fd):
            self.fd = fd

        def write(self, s):
            for line in s.splitlines(True):
                os.write(self.fd, line.encode())
                time.sleep(0.0005)
            return len(s)

        def flush(self):
            pass

    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    if line_by_line:
        stream = LineWriter(fd)
    else:
        stream = os.fdopen(fd, "w", buffering=1 << 20)
    clock = FixedClock(START + 240)
    configure(stream, f" DP0 TP{rank}", clock)
    mod = load_module(f"{SGLANG}/model_executor/model_runner.py", OOM_SRC)
    log = logging.getLogger("sglang.srt.managers.scheduler")
    log.info("Prefill batch, #new-seq: 4, #new-token: 8192, #cached-token: 0, token usage: 0.91, #running-req: 12, #queue-req: 3")
    barrier.wait()
    try:
        mod["run_batch"](None, rank)
    except Exception:
        log.error(f"Scheduler hit an exception: {get_exception_traceback()}")
        for h in logging.getLogger().handlers:
            h.flush()
    stream.flush()


def scenario_ranks(path, line_by_line):
    open(path, "w").close()
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(8)
    procs = [ctx.Process(target=rank_worker, args=(path, r, line_by_line, barrier)) for r in range(8)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    with open(path, "a") as f:
        clock = FixedClock(START + 250)
        configure(f, "", clock)
        logging.getLogger("sglang").error(
            "SIGQUIT received. signum=None, frame=None. It usually means one child failed."
        )


ASGI_SRC = '''
async def app(scope, receive, send):
    await handle_chat(scope)


async def handle_chat(scope):
    body = scope["body"]
    return body.decode("utf-8")
'''


def scenario_uvicorn_asgi(out):
    """uvicorn's 'Exception in ASGI application' with sglang's patched format."""
    clock = FixedClock(START + 300)
    configure(out, "", clock)
    handler = logging.getLogger().handlers[0]

    class UvicornFormatter(logging.Formatter):
        def formatMessage(self, record):
            record.levelprefix = (record.levelname + ":").ljust(9)
            return super().formatMessage(record)

    handler.setFormatter(UvicornFormatter("[%(asctime)s] %(levelprefix)s %(message)s", datefmt="%Y-%m-%d %H:%M:%S"))
    mod = load_module(f"{SGLANG}/entrypoints/http_server.py", ASGI_SRC)
    log = logging.getLogger("uvicorn.error")
    access = logging.getLogger("uvicorn.access")
    access.info('10.244.1.7:48276 - "POST /v1/chat/completions HTTP/1.1" 200 OK')
    import asyncio

    try:
        asyncio.run(mod["app"]({"body": b"\xff\xfe"}, None, None))
    except Exception as exc:
        # Drop this script's frame: a deployment's traceback starts in uvicorn.
        exc.__traceback__ = exc.__traceback__.tb_next
        log.error("Exception in ASGI application\n", exc_info=exc)
    access.info('10.244.1.7:48290 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error')


PREFILL_SRC = '''
logger = logging.getLogger("sglang.srt.mem_cache.common")


def alloc_for_extend(num_tokens, available, evictable):
    error_msg = (
        f"Prefill out of memory. Try to lower your batch size.\\n"
        f"Try to allocate {num_tokens} tokens.\\n"
        f"{available=}, {evictable=}\\n"
    )
    logger.error(error_msg)
    raise RuntimeError(error_msg)
'''


def scenario_multiline_oom(out):
    """A multi-line logger.error message, then the same text raised."""
    clock = FixedClock(START + 360)
    configure(out, " TP0", clock)
    mod = load_module(f"{SGLANG}/mem_cache/common.py", PREFILL_SRC)
    log = logging.getLogger("sglang.srt.managers.scheduler")
    log.info("Prefill batch, #new-seq: 1, #new-token: 32768, #cached-token: 0, token usage: 0.98, #running-req: 30, #queue-req: 7")
    try:
        mod["alloc_for_extend"](32768, 1024, 0)
    except Exception:
        log.error(f"Scheduler hit an exception: {get_exception_traceback()}")


def scenario_clean(out):
    """A healthy start and a few minutes of serving: must produce nothing."""
    clock = FixedClock(START + 420)
    configure(out, "", clock)
    main = logging.getLogger("sglang")
    main.info(
        "server_args=ServerArgs(model_path='/models/Llama-3.1-8B-Instruct', tp_size=2, "
        "mem_fraction_static=0.85, chunked_prefill_size=8192, max_running_requests=256)"
    )
    for rank in range(2):
        configure(out, f" TP{rank}", clock)
        log = logging.getLogger("sglang.srt.model_executor.model_runner")
        log.info("Init torch distributed begin.")
        log.info("Init torch distributed ends. mem usage=0.43 GB")
        log.info("Load weight begin. avail mem=78.61 GB")
        log.info("Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=70.92 GB, mem usage=7.69 GB.")
        log.info("KV Cache is allocated. dtype: torch.bfloat16, #tokens: 456789, K size: 27.88 GB, V size: 27.88 GB")
        log.info("Memory pool end. avail mem=13.21 GB")
        log.info("max_total_num_tokens=456789, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=256, context_len=131072")
    configure(out, "", clock)
    main.info("INFO:     Started server process [41]")
    main.info("INFO:     Waiting for application startup.")
    main.info("INFO:     Application startup complete.")
    main.info("INFO:     Uvicorn running on http://0.0.0.0:30000 (Press CTRL+C to quit)")
    main.info("The server is fired up and ready to roll!")
    for i in range(40):
        configure(out, " TP0", clock)
        log = logging.getLogger("sglang.srt.managers.scheduler")
        if i % 4 == 0:
            log.info(f"Prefill batch, #new-seq: {1 + i % 3}, #new-token: {512 + i}, #cached-token: {i * 7}, token usage: 0.{10 + i % 50:02d}, #running-req: {i % 9}, #queue-req: 0")
        else:
            log.info(f"Decode batch, #running-req: {1 + i % 9}, #token: {4000 + 37 * i}, token usage: 0.{10 + i % 50:02d}, cuda graph: True, gen throughput (token/s): {1200 + i}.{i % 10}, #queue-req: 0")
        configure(out, "", clock)
        main.info(f'INFO:     10.244.3.{i % 250}:{40000 + i} - "POST /v1/chat/completions HTTP/1.1" 200 OK')


def scenario_crash_tp3(out):
    """One crash of an 8-rank server: TP3 runs out of CUDA memory inside the
    scheduler wrapper, the parent relays the child's SIGQUIT, and ten
    minutes later (torch's default NCCL timeout) the seven peers' watchdogs
    report the collective TP3 never joined. The peers' lines are torch's
    native c10d output, written here in its exact shape."""
    clock = FixedClock(START + 9)
    mod = load_module(f"{SGLANG}/model_executor/model_runner.py", OOM_SRC)
    for rank in range(8):
        configure(out, f" DP0 TP{rank}", clock)
        logging.getLogger("sglang.srt.managers.scheduler").info(
            "Decode batch, #running-req: 48, #token: 91234, token usage: 0.93, cuda graph: True, gen throughput (token/s): 2210.4, #queue-req: 5"
        )
    configure(out, " DP0 TP3", clock)
    log = logging.getLogger("sglang.srt.managers.scheduler")
    try:
        mod["run_batch"](None, 3)
    except Exception:
        log.error(f"Scheduler hit an exception: {get_exception_traceback()}")
    configure(out, "", clock)
    logging.getLogger("sglang.srt.entrypoints.engine").error(
        "Received sigquit from a child process. It usually means the child failed."
    )
    out.flush()
    ts = time.gmtime(clock.now + 600)
    for rank in (0, 1, 2, 4, 5, 6, 7):
        us = 100000 + rank * 37
        out.write(
            f"[rank{rank}]:[E{ts.tm_mon}{ts.tm_mday:02d} {time.strftime('%H:%M:%S', ts)}.{us:06d} ProcessGroupNCCL.cpp:632] "
            f"[Rank {rank}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=48211, OpType=ALLREDUCE, "
            f"NumelIn=4096, NumelOut=4096, Timeout(ms)=600000) ran for 600046 milliseconds before timing out.\n"
        )


def write(outdir, name, fn):
    path = os.path.join(outdir, name)
    with open(path, "w") as f:
        fn(f)
    return path


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(outdir, exist_ok=True)
    write(outdir, "seed-ascend.log", scenario_seed_ascend)
    write(outdir, "unknown-chained.log", scenario_unknown_chained)
    write(outdir, "direct-cause.log", scenario_direct_cause)
    write(outdir, "carets.log", scenario_carets)
    write(outdir, "uvicorn-asgi.log", scenario_uvicorn_asgi)
    write(outdir, "multiline-oom.log", scenario_multiline_oom)
    write(outdir, "clean.log", scenario_clean)
    write(outdir, "crash-tp3.log", scenario_crash_tp3)
    scenario_ranks(os.path.join(outdir, "ranks8.log"), line_by_line=False)
    scenario_ranks(os.path.join(outdir, "ranks8-lines.log"), line_by_line=True)


if __name__ == "__main__":
    main()
