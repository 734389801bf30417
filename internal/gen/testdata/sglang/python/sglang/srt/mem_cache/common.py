"""Allocation helpers of the memory pools (shaped like sglang's)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import torch

if TYPE_CHECKING:
    from sglang.srt.managers.schedule_batch import ScheduleBatch

logger = logging.getLogger(__name__)


def evict_from_tree_cache(tree_cache, num_tokens: int):
    if tree_cache is None:
        return
    allocator = tree_cache.token_to_kv_pool_allocator
    if allocator.available_size() < num_tokens:
        tree_cache.evict(num_tokens)


def alloc_token_slots(tree_cache, num_tokens: int, backup_state: bool = False):
    allocator = tree_cache.token_to_kv_pool_allocator
    evict_from_tree_cache(tree_cache, num_tokens)
    out_cache_loc = allocator.alloc(num_tokens)
    if out_cache_loc is None:
        error_msg = (
            f"Out of memory. Try to lower your batch size.\n"
            f"Try to allocate {num_tokens} tokens.\n"
            f"{available_and_evictable_str(tree_cache)}"
        )
        logger.error(error_msg)
        if tree_cache is not None:
            tree_cache.pretty_print()
        raise RuntimeError(error_msg)
    return out_cache_loc


def alloc_paged_token_slots_extend(tree_cache, prefix_lens, seq_lens, last_loc, extend_num_tokens):
    allocator = tree_cache.token_to_kv_pool_allocator
    num_tokens = extend_num_tokens + len(seq_lens) * allocator.page_size
    evict_from_tree_cache(tree_cache, num_tokens)
    out_cache_loc = allocator.alloc_extend(prefix_lens, seq_lens, last_loc, extend_num_tokens)
    if out_cache_loc is None:
        error_msg = (
            f"Prefill out of memory. Try to lower your batch size.\n"
            f"Try to allocate {extend_num_tokens} tokens.\n"
            f"{available_and_evictable_str(tree_cache)}"
        )
        logger.error(error_msg)
        raise RuntimeError(error_msg)
    return out_cache_loc


def alloc_req_slots(req_to_token_pool, num_reqs: int, reqs):
    req_pool_indices = req_to_token_pool.alloc(num_reqs, reqs)
    if req_pool_indices is None:
        raise RuntimeError(
            "alloc_req_slots runs out of memory. "
            "Please set a smaller number for `--max-running-requests`. "
            f"{req_to_token_pool.available_size()=}, "
            f"{num_reqs=}, "
        )
    return req_pool_indices


def alloc_for_decode(batch: ScheduleBatch, token_per_req: int) -> torch.Tensor:
    bs = batch.seq_lens.shape[0]
    if batch.tree_cache.page_size == 1:
        out_cache_loc = alloc_token_slots(batch.tree_cache, bs * token_per_req)
    else:
        last_loc = batch.req_to_token_pool.req_to_token[batch.req_pool_indices, batch.seq_lens - 1]
        out_cache_loc = alloc_paged_token_slots_decode(batch.tree_cache, batch.seq_lens, last_loc)
        if out_cache_loc is None:
            error_msg = (
                f"Decode out of memory. Try to lower your batch size.\n"
                f"Try to allocate {bs * token_per_req} tokens.\n"
                f"{available_and_evictable_str(batch.tree_cache)}"
            )
            logger.error(error_msg)
            raise RuntimeError(error_msg)
    return out_cache_loc


def available_and_evictable_str(tree_cache) -> str:
    allocator = tree_cache.token_to_kv_pool_allocator
    if isinstance(allocator, SWATokenToKVPoolAllocator):
        full_available_size = allocator.full_available_size()
        swa_available_size = allocator.swa_available_size()
        return (
            f"Available full tokens: {full_available_size + tree_cache.full_evictable_size()} "
            f"({full_available_size=} + {tree_cache.full_evictable_size()=})\n"
            f"Available swa tokens: {swa_available_size + tree_cache.swa_evictable_size()}\n"
        )
    available_size = allocator.available_size()
    evictable_size = tree_cache.evictable_size()
    return f"Available tokens: {available_size + evictable_size} ({available_size=} + {evictable_size=})\n"


def check_page_size(page_size: int, context_len: int):
    if page_size <= 0 or (page_size & (page_size - 1)) != 0:
        raise ValueError("page_size must be a power of two, got %r" % page_size)
    if context_len % page_size:
        logger.warning(
            "context_len (%d) is not a multiple of page_size (%d); the last page is partially used",
            context_len,
            page_size,
        )
    assert page_size < context_len, f"{page_size=} >= {context_len=}"


def release_kv_cache(req, tree_cache, is_insert: bool = True):
    if req.req_pool_idx is None:
        logger.critical(f"Request {req.rid} released twice: req_pool_idx is None")
        raise KeyError(req.rid)
    try:
        tree_cache.cache_finished_req(req, is_insert=is_insert)
    except Exception:
        logger.exception("Failed to release the KV cache of a finished request")
        raise
