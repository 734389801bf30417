"""Sites a message reaches indirectly, short f-strings, and wordings that
are Python's, torch's or pydantic's own."""
import logging

logger = logging.getLogger(__name__)


def returned_exception(path):
    return FileNotFoundError(f"Checkpoint shard is missing on this node: {path}")


def returned_object_is_not_a_message(path):
    return Config(f"Checkpoint config for the loader at {path}")


def message_in_branches(prefill):
    if prefill:
        message = "Prefill batch could not be scheduled on this rank"
    else:
        message = "Decode batch could not be scheduled on this rank"
    raise RuntimeError(message)


def message_extended(rid, reason):
    msg = f"Abort request {rid} because the client disconnected"
    msg += f"; reason={reason}"
    logger.error(msg)


def message_reused(n):
    msg = f"KV transfer queue overflow with {n} pending chunks"
    logger.error(msg)
    msg = f"KV transfer queue recovered after {n} retries"
    logger.error(msg)


def short_fstrings(e, name):
    raise RuntimeError(f"NCCL error: {e}")


def too_short_fstrings(e, name):
    logger.error(f"Error: {e}")
    logger.error(f"{name} failed: {e}")


def python_own(obj, name):
    raise AttributeError(f"'{type(obj).__name__}' object has no attribute '{name}'")


def torch_own(size):
    raise RuntimeError(f"CUDA out of memory. Tried to allocate {size} GiB")


def pydantic_own(n, model):
    raise ValueError(f"{n} validation errors for {model}")


def a_warning(n):
    logger.warning(f"Using the default kernel config for {n} experts; performance might be sub-optimal")
