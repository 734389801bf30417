"""Exception types raised by the other fixtures through a module alias."""


class KVTransferError(Exception):
    def __init__(self, bootstrap_room, failure_reason):
        super().__init__(failure_reason)
        self.bootstrap_room = bootstrap_room
        self.failure_reason = failure_reason

    def __str__(self):
        return f"KVTransferError(bootstrap_room={self.bootstrap_room}): {self.failure_reason}"


class ConfigError(ValueError):
    pass


def raise_config_error():
    path = "/etc/sglang/server.yaml"
    raise ConfigError(f"cannot parse the configuration file {path!r}")
