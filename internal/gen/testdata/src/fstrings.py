"""f-strings: conversions, format specs, nested quotes, self-documenting fields."""


def raise_fstring_simple():
    rank = 2
    raise RuntimeError(f"Rank {rank} scheduler is dead. Please check if there are relevant logs.")


def raise_fstring_spec():
    avail = 1.23456
    need = 4
    raise RuntimeError(f"Not enough memory: available {avail:.2f} GB, need {need:>4d} GB")


def raise_fstring_conversion():
    path = "/models/qwen"
    raise FileNotFoundError(f"Can't load tokenizer for {path!r}. Check --tokenizer-path.")


def raise_fstring_nested_quotes():
    cfg = {"model_type": "qwen9"}
    raise ValueError(f"Unsupported model type {cfg['model_type']} in config.json of the checkpoint")


def raise_fstring_self_documenting():
    watchdog_timeout = 300
    raise TimeoutError(f"Scheduler watchdog timeout ({watchdog_timeout=}, soft=False)")


def raise_fstring_nested_spec():
    width, value = 6, 42
    raise ValueError(f"Value {value:>{width}} exceeds --max-running-requests")


def raise_fstring_raw():
    pattern = "x+"
    raise ValueError(rf"Regex \d+ and {pattern} are not allowed in --served-model-name")


def raise_fstring_escaped_braces():
    key = "rid"
    raise KeyError(f"Missing {{{key}}} in the request body of /generate")


def raise_fstring_method_call():
    names = ["a", "b"]
    raise ValueError(f"Unknown sampling params: {', '.join(names)} (see the docs)")
