"""What /proc tells of a process, for the measurement scripts beside this file."""

import os


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
