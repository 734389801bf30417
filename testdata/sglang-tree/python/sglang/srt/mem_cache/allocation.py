def alloc_token_slots(num_tokens, available):
    if available < num_tokens:
        return _error(
            "Prefill out of memory. Try to lower your batch size.\n"
            f"Try to allocate {num_tokens} tokens.\n"
        )


def _error(message):
    return RuntimeError(message)
