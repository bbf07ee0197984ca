"""What a process pays to start: opening a calendar, and a CLI command, in wall time and memory.

Every CLI command, every ``serve`` worker and every script starts a Python process that
imports the library and opens a calendar; what those imports pull in is paid each time, before
any work. Each case runs ``--runs`` times in a fresh interpreter; the script prints the median
and the range of the wall time and of the peak resident memory (``ru_maxrss`` of the child):

- ``import``: ``import events_calendar``;
- ``memory``, ``sqlite``: that, then ``connect()`` on a private in-memory calendar, or on an
  SQLite file already up to date (made once, untimed, before the runs);
- ``cli``: ``events-calendar users list --db <that file>``.

Run by hand, e.g.::

    .venv/bin/python bench/startup.py --runs 7
    PYTHONPATH=/tmp/base/src .venv/bin/python bench/startup.py   # another checkout's code

(``PYTHONPATH`` reaches the children, so the second line measures that code.)
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

CLI = [sys.executable, "-c", "from events_calendar.cli import main; raise SystemExit(main())"]


def _cases(db: Path) -> dict[str, list[str]]:
    url = f"sqlite:///{db}"
    return {
        "import": [sys.executable, "-c", "import events_calendar"],
        "memory": [sys.executable, "-c", _opening("memory://")],
        "sqlite": [sys.executable, "-c", _opening(url)],
        "cli": [*CLI, "users", "list", "--db", url],
    }


def _opening(url: str) -> str:
    return f"import events_calendar as ec\nec.connect({url!r}).close()"


def _measure(command: list[str], runs: int) -> dict[str, Any]:
    """``runs`` children of ``command``, each started from a fresh parent of its own so that
    the peak memory read is that child's alone."""
    probe = (
        "import json, resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "subprocess.run(json.loads(sys.argv[1]), check=True, stdout=subprocess.DEVNULL)\n"
        "wall = time.perf_counter() - t\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "print(json.dumps([wall, peak]))\n"
    )
    walls, peaks = [], []
    for _ in range(runs):
        out = subprocess.run(  # noqa: S603
            [sys.executable, "-c", probe, json.dumps(command)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        wall, peak = json.loads(out)
        walls.append(wall)
        peaks.append(peak)
    return {
        "wall_s_median": round(statistics.median(walls), 3),
        "wall_s_range": [round(min(walls), 3), round(max(walls), 3)],
        "peak_mib_median": round(statistics.median(peaks), 1),
        "peak_mib_range": [round(min(peaks), 1), round(max(peaks), 1)],
    }


def _spread(median: float, bounds: list[float], digits: int) -> str:
    low, high = bounds
    return f"{median:.{digits}f} ({low:.{digits}f}-{high:.{digits}f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--out", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "startup.db"
        subprocess.run([sys.executable, "-c", _opening(f"sqlite:///{db}")], check=True)  # noqa: S603
        results = {name: _measure(command, args.runs) for name, command in _cases(db).items()}
    import events_calendar

    print(f"code: {Path(events_calendar.__file__).parent}; {args.runs} runs each")
    print(f"{'case':8} {'wall s (median, range)':>26} {'peak MiB (median, range)':>28}")
    for name, r in results.items():
        wall = _spread(r["wall_s_median"], r["wall_s_range"], 3)
        peak = _spread(r["peak_mib_median"], r["peak_mib_range"], 1)
        print(f"{name:8} {wall:>26} {peak:>28}")
    if args.out:
        args.out.write_text(json.dumps({"runs": args.runs, "results": results}, indent=2) + "\n")


if __name__ == "__main__":
    main()
