"""The storage benchmark's report: machine facts, the issue's targets, a fixed-width table.

Kept apart from the measuring code so that the JSON layout and the table can change without
touching what is measured. Targets are stated for 1,000,000 events; they are checked at the
largest N a run measured, and the table says which N that was.
"""

from __future__ import annotations

import os
import platform
import sqlite3
import subprocess
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import events_calendar as ec

__all__ = ["build_report", "machine_info", "render_table", "targets"]

#: The issue's targets.
P50_LIMIT_MS = 2.0
RATIO_LIMIT = 3.0
LOAD_LIMIT = 50_000.0
SCALING_LIMIT = 2.0


def machine_info() -> dict[str, Any]:
    """What the figures depend on besides the code: interpreter, SQLite, hardware."""
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor()
    try:
        commit = subprocess.run(
            ["git", "describe", "--always", "--dirty"],  # noqa: S607 - a dev tool on PATH
            capture_output=True,
            text=True,
            check=False,
            cwd=Path(__file__).parent,
        ).stdout.strip()
    except OSError:
        commit = ""
    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "sqlite": sqlite3.sqlite_version,
        "events_calendar": ec.__version__,
        "platform": platform.platform(),
        "cpu": cpu,
        "cpu_count": os.cpu_count(),
        "memory_gb": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
        if hasattr(os, "sysconf")
        else None,
        "git": commit,
    }


def _target(name: str, n: int, value: float | None, limit: float, *, most: bool) -> dict[str, Any]:
    ok = value is not None and (value <= limit if most else value >= limit)
    return {"target": name, "n": n, "value": value, "limit": limit, "ok": ok}


def targets(runs: list[dict[str, Any]], *, windowed: Sequence[str]) -> list[dict[str, Any]]:
    """The issue's targets, checked at the largest N measured (they are stated for 1M)."""
    if not runs:
        return []
    runs = sorted(runs, key=lambda r: r["n"])
    big, small = runs[-1], runs[0]
    found = (
        []
        if big["load"].get("reused")  # --reuse: nothing was loaded
        else [
            _target(
                "bulk load events/s", big["n"], big["load"]["events_per_s"], LOAD_LIMIT, most=False
            )
        ]
    )
    for name, q in big["queries"].items():
        for side in _SIDES:
            if side in q:
                found.append(
                    _target(
                        f"{name} {_LABEL[side]} p50 ms",
                        big["n"],
                        q[side]["p50_ms"],
                        P50_LIMIT_MS,
                        most=True,
                    )
                )
        found.append(
            _target(f"{name} library/hand p50", big["n"], q["ratio_p50"], RATIO_LIMIT, most=True)
        )
    if big is not small:
        for name in windowed:
            for side in _SIDES:
                if side not in big["queries"][name] or side not in small["queries"][name]:
                    continue
                base = small["queries"][name][side]["p50_ms"]
                growth = round(big["queries"][name][side]["p50_ms"] / base, 2) if base else None
                found.append(
                    _target(
                        f"{name} {_LABEL[side]} p50 {big['n']:,} / {small['n']:,}",
                        big["n"],
                        growth,
                        SCALING_LIMIT,
                        most=True,
                    )
                )
    return found


#: The library's timed sides: repeated calls (a list's total may be cached), the first call
#: after a write (the total is counted) and the first after a new event (a kept total is
#: carried over it), when the run measured them.
_SIDES = ("library", "library_cold", "library_added")
_LABEL = {"library": "warm", "library_cold": "cold", "library_added": "added"}


def build_report(
    runs: list[dict[str, Any]], *, config: dict[str, Any], windowed: Sequence[str]
) -> dict[str, Any]:
    """Everything a later reader needs: machine, settings, every figure, the targets."""
    return {
        "benchmark": "storage",
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine_info(),
        "config": config,
        "runs": sorted(runs, key=lambda r: r["n"]),
        "targets": targets(runs, windowed=windowed),
    }


def render_table(report: dict[str, Any]) -> str:
    """The report as fixed-width text."""
    lines = []
    m = report["machine"]
    config = report["config"]
    database = (
        f"PostgreSQL {config.get('postgresql')} at {config.get('server')}"
        if config.get("backend") == "postgresql"
        else f"SQLite {m['sqlite']}"
    )
    lines.append(
        f"Python {m['python']}, {database}, {m['cpu_count']} CPUs ({m['cpu']}),"
        f" repeat {config['repeat']}, code {m['git']}"
    )
    for run in report["runs"]:
        load_ = run["load"]
        traced = load_["tracemalloc_peak_mb"]
        lines.append("")
        if load_.get("reused"):
            lines.append(
                f"N = {run['n']:,}: the file of an earlier run (--reuse), opened (and migrated)"
                f" in {load_['open_seconds']:,.1f} s, db {load_['db_bytes'] / 2**20:,.0f} MiB"
            )
        else:
            lines.append(
                f"N = {run['n']:,}: bulk_create {load_['events_per_s']:,.0f} events/s"
                f" ({load_['seconds']:,.1f} s), db {load_['db_bytes'] / 2**20:,.0f} MiB,"
                f" peak RSS {run['peak_rss_mb']:,.0f} MiB"
                f" (+{load_['load_rss_delta_mb']:,.0f} MiB during the load)"
                + (f", tracemalloc peak (load) {traced:,.0f} MiB" if traced is not None else "")
            )
            if "log_copy_seconds" in load_:
                lines.append(
                    f"  then {load_['log_copy_seconds']:,.1f} s more, untimed, until the load's"
                    " log was copied into the file, before any query"
                )
        lines.append(
            f"  {'query (ms)':<16}{'warm p50':>10}{'warm p95':>10}{'cold p50':>10}{'cold p95':>10}"
            f"{'added p50':>10}{'hand p50':>10}{'hand p95':>10}{'ratio':>7}{'total':>9}"
            f"{'stmts':>6}{'runs':>6}"
            "  same rows"
        )
        for name, q in run["queries"].items():
            lib, hw = q["library"], q["hand"]
            cold, added = q.get("library_cold"), q.get("library_added")
            total = q.get("total")
            lines.append(
                f"  {name:<16}{lib['p50_ms']:>10,.3f}{lib['p95_ms']:>10,.3f}"
                + (f"{cold['p50_ms']:>10,.3f}{cold['p95_ms']:>10,.3f}" if cold else " " * 20)
                + (f"{added['p50_ms']:>10,.3f}" if added else " " * 10)
                + f"{hw['p50_ms']:>10,.3f}{hw['p95_ms']:>10,.3f}"
                f"{q['ratio_p50'] or 0:>6.1f}x{'' if total is None else f'{total:,}':>9}"
                f"{q.get('library_statements', '?'):>6}{q['runs']:>6}"
                f"  {'yes' if q['ids_match'] else 'NO'}"
            )
        lines.append(
            "  warm: repeated calls (a list's total may come from the library's cache);"
            " cold: each call the first after a write (its total counted afresh);"
        )
        lines.append(
            "  added: each call the first after a new event (its kept total carried);"
            " ratio: cold (or warm) / hand"
        )
    if report["targets"]:
        lines.append("")
        lines.append("Targets (stated for 1,000,000 events; checked at the largest N run):")
        for t in report["targets"]:
            value = "n/a" if t["value"] is None else f"{t['value']:,.2f}"
            lines.append(
                f"  {'ok  ' if t['ok'] else 'MISS'} {t['target']:<48}"
                f" {value:>12} (limit {t['limit']:,})"
            )
    return "\n".join(lines)
