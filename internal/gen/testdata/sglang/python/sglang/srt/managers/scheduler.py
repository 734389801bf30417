"""A scheduler that manages a tensor parallel GPU worker (shaped like sglang's)."""

import faulthandler
import logging
import os
import signal
import sys
import time
from typing import List, Optional

import psutil
import setproctitle
import torch
import zmq

from sglang.srt.environ import envs
from sglang.srt.mem_cache.common import alloc_for_decode, alloc_for_extend
from sglang.srt.utils import configure_logger, get_exception_traceback, kill_itself_when_parent_died

logger = logging.getLogger(__name__)

# Test retract decode for debugging purposes
TEST_RETRACT = envs.SGLANG_TEST_RETRACT.get()
RECORD_STEP_TIME = get_bool_env_var("SGLANG_RECORD_STEP_TIME")


class Scheduler:
    """A scheduler that manages a tensor parallel GPU worker."""

    def __init__(self, server_args, port_args, gpu_id: int, tp_rank: int, dp_rank: Optional[int]):
        self.server_args = server_args
        self.tp_rank = tp_rank
        self.dp_rank = dp_rank
        self.max_running_requests = server_args.max_running_requests
        if self.max_running_requests is not None and self.max_running_requests <= 0:
            raise ValueError(
                f"max_running_requests must be positive, got {self.max_running_requests}"
            )
        if server_args.enable_overlap_schedule and server_args.speculative_algorithm:
            logger.warning(
                "Overlap scheduler is disabled because of using eagle speculative decoding."
            )
        self.init_tokenizer()
        self.init_memory_pool_and_cache()

    def init_tokenizer(self):
        server_args = self.server_args
        if server_args.skip_tokenizer_init:
            self.tokenizer = self.processor = None
            return
        try:
            self.tokenizer = get_tokenizer(server_args.tokenizer_path)
        except OSError as e:
            raise RuntimeError(
                f"Failed to load the tokenizer from {server_args.tokenizer_path!r}. "
                "Pass --tokenizer-path or check HF_TOKEN for gated models."
            ) from e

    def init_memory_pool_and_cache(self):
        server_args = self.server_args
        self.max_total_num_tokens = self.tp_worker.max_total_num_tokens
        if self.max_total_num_tokens <= 0:
            raise RuntimeError(
                "Not enough memory. Please try to increase --mem-fraction-static. "
                f"Current value: {server_args.mem_fraction_static=}"
            )
        logger.info(
            f"max_total_num_tokens={self.max_total_num_tokens}, "
            f"chunked_prefill_size={server_args.chunked_prefill_size}, "
            f"max_prefill_tokens={self.max_prefill_tokens}"
        )

    def check_memory(self):
        available_size = self.token_to_kv_pool_allocator.available_size()
        evictable_size = self.tree_cache.evictable_size()
        memory_leak = available_size + evictable_size != self.max_total_num_tokens
        if memory_leak:
            msg = (
                "token_to_kv_pool_allocator memory leak detected! "
                f"{available_size=}, {evictable_size=}, "
                f"{self.max_total_num_tokens=}\n"
            )
            raise ValueError(msg)
        if len(self.req_to_token_pool.free_slots) != self.req_to_token_pool.size:
            msg = (
                "req_to_token_pool memory leak detected!"
                f"available_size={len(self.req_to_token_pool.free_slots)}, "
                f"total_size={self.req_to_token_pool.size}\n"
            )
            if envs.SGLANG_WARN_ON_MEMORY_LEAK.get():
                logger.warning(msg)
            else:
                raise ValueError(msg)

    def update_running_batch(self, batch):
        if not batch.check_decode_mem(self.decode_mem_cache_buf_multiplier):
            old_ratio = self.new_token_ratio
            retracted_reqs, new_token_ratio, reqs_to_abort = batch.retract_decode(self.server_args)
            self.new_token_ratio = new_token_ratio
            logger.warning(
                "KV cache pool is full. Retract requests. "
                f"#retracted_reqs: {len(retracted_reqs)}, "
                f"#aborted_retracted_reqs: {len(reqs_to_abort)}, "
                f"#new_token_ratio: {old_ratio:.4f} -> {new_token_ratio:.4f}"
            )
        return batch

    def handle_generate_request(self, recv_req):
        if recv_req.input_ids is not None and len(recv_req.input_ids) >= self.max_req_input_len:
            error_msg = (
                "Input length ({}) exceeds the maximum allowed length ({}). "
                "Use a shorter input or enable --allow-auto-truncate.".format(
                    len(recv_req.input_ids), self.max_req_input_len
                )
            )
            logger.error(error_msg)
            return
        if recv_req.sampling_params.max_new_tokens is not None and recv_req.sampling_params.max_new_tokens < 0:
            logger.error("Request %s has a negative max_new_tokens: %d", recv_req.rid, recv_req.sampling_params.max_new_tokens)
            return
        if recv_req.session_params is not None:
            session = self.sessions.get(recv_req.session_params.id)
            if session is None:
                logger.warning(f"session id {recv_req.session_params.id} does not exist, cannot delete.")
                return

    def abort_request(self, recv_req):
        for req in self.waiting_queue:
            if req.rid.startswith(recv_req.rid):
                logger.debug(f"Abort queued request. {req.rid=}")

    def flush_cache(self):
        if len(self.waiting_queue) == 0 and self.running_batch.is_empty():
            self.tree_cache.reset()
            logger.info("Cache flushed successfully!")
            return True
        logging.warning(
            f"Cache not flushed because there are pending requests. "
            f"#queue-req: {len(self.waiting_queue)}, "
            f"#running-req: {len(self.running_batch.reqs)}"
        )
        return False

    def load_lora_adapter(self, recv_req):
        if recv_req.lora_name in self.loaded_loras:
            raise ValueError(f"LoRA adapter {recv_req.lora_name} is already loaded")
        if len(self.loaded_loras) >= self.server_args.max_loaded_loras:
            raise RuntimeError(
                "Cannot load LoRA adapter %s: max_loaded_loras (%d) reached. "
                "Unload an adapter first." % (recv_req.lora_name, self.server_args.max_loaded_loras)
            )
        raise NotImplementedError


def run_scheduler_process(server_args, port_args, gpu_id, tp_rank, moe_ep_rank, pp_rank, dp_rank, pipe_writer):
    prefix = ""
    if dp_rank is not None:
        prefix += f" DP{dp_rank}"
    if server_args.tp_size > 1:
        prefix += f" TP{tp_rank}"
    setproctitle.setproctitle(f"sglang::scheduler{prefix.replace(' ', '_')}")
    faulthandler.enable()
    configure_logger(server_args, prefix=prefix)
    parent_process = psutil.Process().parent()
    try:
        scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)
        pipe_writer.send({"status": "ready", "max_total_num_tokens": scheduler.max_total_num_tokens})
        scheduler.event_loop_overlap()
    except Exception:
        traceback = get_exception_traceback()
        logger.error(f"Scheduler hit an exception: {traceback}")
        parent_process.send_signal(signal.SIGQUIT)
        if envs.SGLANG_KILLPG_ON_SCHEDULER_EXCEPTION.get():
            os.killpg(0, signal.SIGKILL)
