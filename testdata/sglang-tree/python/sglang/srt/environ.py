import os


class EnvBool:
    def __init__(self, default):
        self.default = default


class EnvBoolWithAlias(EnvBool):
    def __init__(self, default, deprecated_name):
        super().__init__(default)
        self.deprecated_name = deprecated_name


class Envs:
    SGLANG_ENABLE_STRICT_MEM_CHECK_DURING_IDLE = EnvBool(True)
    SGLANG_DSA_FUSE_TOPK = EnvBoolWithAlias(True, deprecated_name="SGLANG_NSA_FUSE_TOPK")


envs = Envs()


def killpg_on_exception():
    return os.environ.get("SGLANG_KILLPG_ON_SCHEDULER_EXCEPTION", "0") == "1"
