"""The benchmarks' one percentile, one way to print a spread of timings, the CPU
time of a process, and the machine's CPU time stolen by its hypervisor.

Percentiles are nearest-rank (the smallest sample with at least q% of the samples at
or below it), as every figure in docs/benchmarks.md since this module reports them.
The function itself is ``games/bots/arena.py``'s (the bot arena ships with the site
and reports it too); the benchmarks take it from here.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Sequence
from typing import NamedTuple

from games.bots.arena import percentile

__all__ = ["MachineTimes", "cpu_seconds", "machine_times", "percentile", "spread",
           "stolen_share", "tree_cpu_seconds"]

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class MachineTimes(NamedTuple):
    """The whole machine's CPU time so far (clock ticks, all CPUs): the total, and the
    part its hypervisor gave to other machines (``steal``)."""

    total: int
    steal: int


def machine_times(stat: str | None = None) -> MachineTimes:
    """From the ``cpu`` line of /proc/stat (``stat``: its text, read when None)."""
    if stat is None:
        with open("/proc/stat") as file:
            stat = file.read()
    fields = [int(f) for f in stat.splitlines()[0].split()[1:]]
    # user nice system idle iowait irq softirq steal guest guest_nice; guest time is
    # already counted in user and nice.
    return MachineTimes(total=sum(fields[:8]), steal=fields[7] if len(fields) > 7 else 0)


def stolen_share(before: MachineTimes, after: MachineTimes) -> float:
    """The share of the machine's CPU time between two readings that its hypervisor
    gave to other machines: a benchmark measured while it is high ran on a busy host
    (slower, with stalls), and compares only with runs beside it."""
    total = after.total - before.total
    return (after.steal - before.steal) / total if total > 0 else float("nan")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (all its threads), 0 if it is gone."""
    fields = _stat(pid)
    if fields is None:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def tree_cpu_seconds(root: int) -> float:
    """CPU time of process ``root`` and of all its children, those still running and
    those that have exited (the kernel adds a child's time to its parent's once the
    parent has reaped it): for the PostgreSQL server, its postmaster's pid gives every
    backend's and background worker's time, however short-lived the backend."""
    children = 0.0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None and int(fields[1]) == root:
                children += sum(int(f) for f in fields[11:15]) / CLOCK_TICKS
    fields = _stat(root)
    if fields is None:
        return 0.0
    return children + sum(int(f) for f in fields[11:15]) / CLOCK_TICKS


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (state first)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def spread(
    values: Sequence[float],
    *,
    points: Sequence[float] = (50, 95, 99),
    scale: float = 1.0,
    width: int = 6,
    digits: int = 1,
    unit: str = " ms",
    count: bool = False,
    mean: bool = False,
) -> str:
    """``p50 … ms  p95 … ms  p99 … ms`` of ``values`` times ``scale`` (seconds to ms:
    1000); ``count`` puts ``n=`` first, ``mean`` adds the mean."""
    def shown(value: float) -> str:
        return f"{value * scale:{width}.{digits}f}{unit}"

    parts = [f"n={len(values):4d}"] if count else []
    parts += [f"p{q:g} {shown(percentile(values, q))}" for q in points]
    if mean:
        parts.append(f"mean {shown(statistics.fmean(values)) if values else 'nan'}")
    return "  ".join(parts)
