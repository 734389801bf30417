"""Plain raise forms: literals, module-qualified classes, chained raises."""
import pkg.errors as perr


def raise_plain():
    raise RuntimeError("Ascend Transfer Engine initialization failed.")


def raise_single_quotes():
    raise ValueError('The tokenizer path does not exist on this node')


def raise_module_class():
    room = 8812
    raise perr.ConfigError(f"Decode transfer failed for request rank={room} with a bad config")


def raise_from():
    try:
        {}["missing"]
    except KeyError as e:
        raise RuntimeError("Failed to load the model weights from the cache") from e


def raise_concat_plus():
    name = "llama"
    raise ValueError("Unknown model family: " + name + ". Check --model-path.")


def raise_regex_chars():
    raise RuntimeError("Invalid value for --mem-fraction-static (must be in (0, 1]) [got 1.5?]")


def raise_keyword_arg():
    raise perr.KVTransferError(bootstrap_room=7, failure_reason="ignored by gen")


def raise_timeout():
    raise TimeoutError("Timed out waiting for the detokenizer heartbeat")


def not_extracted():
    err = RuntimeError("boom")
    raise err


def skipped_several_args():
    raise ValueError("Expected a positive batch size", 0)


def raise_variable_literal():
    msg = "The message was built before the raise statement"
    raise ValueError(msg)


def skipped_non_literal():
    raise ValueError(describe_failure())


def describe_failure():
    return "described elsewhere"


def skipped_no_message():
    raise NotImplementedError()


def skipped_lowercase_call():
    raise make_error("this is a factory, not a class")


def make_error(msg):
    return RuntimeError(msg)
