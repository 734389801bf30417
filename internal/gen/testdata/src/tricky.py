"""Forms that are easy to tokenize wrongly."""
# raise RuntimeError("this is a comment and must not become a record")


def raise_escaped_quotes():
    raise ValueError("The chat template \"chatml\" is missing the 'messages' loop")


def raise_nested_parens():
    budget = (1 + 2) * 3
    raise RuntimeError(("Capture cuda graph failed: budget (%s) exceeded ((nested))" % (budget,)))


def raise_triple_quoted():
    raise RuntimeError(
        """Prefill out of memory. Try to lower your batch size.
Try to allocate the tokens again later."""
    )


def raise_concat_lines():
    raise ValueError(
        "Weights are not ready after waiting; "
        'the remote weight source did not answer '
        f"within the timeout"
    )


def raise_backslash_continuation():
    raise RuntimeError("Decode out of memory. " \
        "Try to lower your batch size.")


def raise_escape_sequences():
    raise ValueError("Tab\there and a unicode arrow \u2192 then a backslash \\ done")


def raise_string_continuation():
    raise RuntimeError("The NCCL communicator could not be \
created on this rank")


def docstring_only():
    """raise ValueError("inside a docstring, not code")"""
    return None


def skipped_too_short():
    raise ValueError("bad")


def skipped_only_placeholders():
    a, b = "x", "y"
    raise ValueError(f"{a}: {b}")


def raise_via_variable():
    n = 5
    msg = f"KV cache leak detected in the pool: {n} slots are missing"
    raise RuntimeError(msg)


def skipped_variable_from_other_function():
    raise ValueError(msg)


msg = "a module-level message that belongs to no function"


def raise_assert_message():
    page_size, context_len = 64, 32
    assert page_size < context_len, f"page_size {page_size} must be below the context length {context_len}"


def not_extracted_bare_assert():
    assert 1 + 1 == 3
