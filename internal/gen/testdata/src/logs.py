"""logger and logging calls."""
import logging

logger = logging.getLogger(__name__)


def log_error_fstring():
    exitcode = -9
    logger.error(f"Subprocess scheduler_0 crashed with exit code {exitcode}. Triggering SIGQUIT.")


def log_warning_percent_args():
    n, ratio = 3, 0.5
    logger.warning("KV cache pool is full. Retract requests. #retracted_reqs: %d, #new_token_ratio: %.4f", n, ratio)


def log_critical():
    logger.critical("Health check failed. Server couldn't get a response from detokenizer")


def log_exception_with_exc_info():
    try:
        raise ValueError("inner")
    except ValueError as e:
        logger.exception(f"Error in request: {e}", exc_info=True)


def log_error_exc_info_kw():
    logger.error("Scheduler hit an exception while handling a batch", exc_info=True, stack_info=False)


def log_module_logging():
    logging.error("Received sigquit from a child process. It usually means the child failed.")


def log_percent_without_args():
    logger.warning("Memory usage is at 95% of the static pool limit")


def log_multiline_call():
    tp_rank, total = 1, 8
    logger.error(
        "Rank %d of %d lost its NCCL communicator; "
        "restart the whole group",
        tp_rank,
        total,
    )


def not_extracted_info():
    logger.info("Load weight begin. This is informational only.")


def skipped_short():
    logger.error("Bad input")


def log_via_variable():
    n = 64
    error_msg = (
        "Decode out of memory. Try to lower your batch size.\n"
        f"Try to allocate {n} tokens.\n"
    )
    logger.error(error_msg)
