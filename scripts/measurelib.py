"""What the measurement scripts beside this file share: the binaries to
compare, and what /proc tells of a process."""

import os
import subprocess
import tempfile


def binaries(ap, specs):
    """The (name, path) pairs of --binary NAME=PATH (or PATH) arguments;
    without any, a fresh build of ./cmd/logmatch. A path that is not an
    executable file is an error of the argument parser ap."""
    out = []
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep:
            name, path = os.path.basename(spec), spec
        if not os.access(path, os.X_OK):
            ap.error(f"--binary {spec}: {path} is not an executable file")
        out.append((name, path))
    if not out:
        path = os.path.join(tempfile.mkdtemp(prefix="logmatch-build-"), "logmatch")
        subprocess.run(["go", "build", "-o", path, "./cmd/logmatch"], check=True)
        out.append(("logmatch", path))
    return out


def cpu_seconds(pid):
    """User plus system CPU time of pid so far, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def memory(pid):
    """Resident memory of pid now and at its peak, in MB: {"VmRSS": .., "VmHWM": ..}."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:")):
                k, v = line.split(":", 1)
                out[k] = int(v.split()[0]) / 1024
    return out
