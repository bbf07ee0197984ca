"""Who used the machine's CPU during a load: the server, wrk, PostgreSQL, everything else.

On a 2-core machine the load generator, the server's workers and the database share the same
cores, so a second worker can only help as far as a core is left idle. ``CpuWindow`` reads
``/proc`` before and after a load and reports each party's CPU as a percentage of one core
(the machine's whole is ``100 x cores``):

- ``server``: every process in the server's process group (the uvicorn supervisor and its
  workers; ``run.Served`` starts each server in a group of its own);
- ``wrk``: the CPU of the children this process reaped in the window (``RUSAGE_CHILDREN``):
  wrk is the only one;
- ``postgres``: every ``postgres`` process of the server (other users of it included), and
  ``postgres_this_db`` the backends serving the benchmark's database (``pid_filter``);
- ``machine_busy``: all non-idle time in ``/proc/stat``; ``other`` is what the above leave.
Processes that exit inside the window take their CPU with them (only wrk does, and it is
counted through ``RUSAGE_CHILDREN``).
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["CpuWindow", "Proc", "processes", "settle"]

_TICK = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Proc:
    group: int
    name: str
    cpu: float  # user + system seconds


def processes() -> dict[int, Proc]:
    """Every process now: its process group, command name and CPU seconds."""
    found: dict[int, Proc] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        head, tail = stat.rsplit(")", 1)
        fields = tail.split()
        cpu = (int(fields[11]) + int(fields[12])) / _TICK
        found[int(entry.name)] = Proc(int(fields[2]), head.split("(", 1)[1], cpu)
    return found


def _machine() -> tuple[float, float]:
    """Busy and total CPU seconds of the whole machine since boot (``/proc/stat``)."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return (sum(values) - idle) / _TICK, sum(values) / _TICK


def _children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def settle(group: int, *, idle_share: float = 0.05, limit_s: float = 30.0) -> None:
    """Wait until the server's group is idle: requests a load left in flight finish first."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        before = sum(p.cpu for p in processes().values() if p.group == group)
        time.sleep(0.2)
        after = sum(p.cpu for p in processes().values() if p.group == group)
        if after - before < idle_share * 0.2:
            return


class CpuWindow:
    """CPU shares over one load: ``start()``, run the load, ``stop()``."""

    def __init__(self, group: int, pid_filter: Callable[[], set[int]] | None = None) -> None:
        self.group, self.pid_filter = group, pid_filter

    def start(self) -> None:
        self._before = processes()
        self._machine = _machine()
        self._children = _children()
        self._wall = time.monotonic()

    def stop(self) -> dict[str, Any]:
        after, (busy, total) = processes(), _machine()
        wall = time.monotonic() - self._wall
        ours = self.pid_filter() if self.pid_filter else set()

        def used(keep: Callable[[int, Proc], bool]) -> float:
            return sum(
                p.cpu - (self._before[pid].cpu if pid in self._before else 0.0)
                for pid, p in after.items()
                if keep(pid, p)
            )

        cores = (total - self._machine[1]) / wall
        shares = {
            "server": used(lambda _, p: p.group == self.group),
            "wrk": _children() - self._children,
            "postgres": used(lambda _, p: p.name == "postgres"),
            "postgres_this_db": used(lambda pid, _: pid in ours),
            "machine_busy": busy - self._machine[0],
        }
        shares["other"] = shares["machine_busy"] - shares["server"] - shares["wrk"]
        shares["other"] -= shares["postgres"]
        report: dict[str, Any] = {k: round(100 * v / wall, 1) for k, v in shares.items()}
        report["cores"] = round(cores)
        return report
