import logging

logger = logging.getLogger(__name__)


class Scheduler:
    def event_loop(self):
        try:
            self.run_batch()
        except Exception as e:
            logger.error(f"Scheduler hit an exception: {e}")
            raise

    def check_memory(self, available, total):
        if available < total:
            msg = (
                "token_to_kv_pool_allocator memory leak detected! "
                f"available_size={available}, max_total_num_tokens={total}"
            )
            raise ValueError(msg)

    def retract(self, n, old, new):
        logger.info(
            f"KV cache pool is full. Retract requests. "
            f"#retracted_reqs: {n}, #new_token_ratio: {old:.4f} -> {new:.4f}"
        )
