"""Messages formatted with % and str.format."""


def raise_percent_single():
    port = 30000
    raise OSError("Cannot bind the HTTP server to port %d" % port)


def raise_percent_tuple():
    rank, code = 3, -9
    raise RuntimeError("Rank %d scheduler died during initialization (exit code: %s)" % (rank, code))


def raise_percent_mapping():
    info = {"used": 70.5, "total": 80}
    raise MemoryError("GPU memory used %(used).1f GiB of %(total)d GiB: 100%% full" % info)


def raise_percent_flags():
    ratio = 0.8765
    raise ValueError("The requested ratio %-8.3f is above the limit of 100%%" % ratio)


def raise_format_positional():
    a, b = 4, 8
    raise ValueError("tp_size {} must divide the number of attention heads {}".format(a, b))


def raise_format_kwargs():
    arch = "FooForCausalLM"
    raise ValueError(
        "Model architectures [{arch}] are not supported for now. See {url} for the list.".format(
            arch=arch, url="https://docs.sglang.io/supported_models"
        )
    )


def raise_format_indexed():
    x, y = "bf16", "fp8"
    raise TypeError("Cannot cast the KV cache from {1} to {0}: {1!r} is unsupported".format(x, y))


def raise_format_braces():
    n = 3
    raise ValueError("Expected a JSON object like {{\"k\": v}} but got {} items".format(n))
