"""Two storage benchmark reports side by side (typically SQLite and PostgreSQL).

Usage::

    .venv/bin/python bench/compare.py bench/results/storage-sqlite-pair.json \\
        bench/results/storage-postgres.json

For every size both reports measured, and every query: each report's library p50, warm and
cold, and its hand-written floor's p50; then each report's bulk load rate. Each backend is
compared with its own floor (the ratio column), never with the other backend's: the two floors
differ as much as the databases do. A size only one report measured is listed as missing.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["label", "main", "render"]


def label(report: dict[str, Any]) -> str:
    """A short name for a report's database: ``SQLite`` or ``PostgreSQL``."""
    backend = report.get("config", {}).get("backend", "sqlite")
    return "PostgreSQL" if backend == "postgresql" else "SQLite"


def _ms(query: dict[str, Any] | None, side: str) -> str:
    figure = (query or {}).get(side)
    return "-" if figure is None else f"{figure['p50_ms']:,.2f}"


def _ratio(query: dict[str, Any] | None) -> str:
    ratio = (query or {}).get("ratio_p50")
    return "-" if ratio is None else f"{ratio:.1f}x"


def render(reports: Sequence[dict[str, Any]]) -> str:
    """The side-by-side table, as fixed-width text."""
    names = [label(r) for r in reports]
    if len(set(names)) < len(names):  # two runs of one backend: tell them apart by position
        names = [f"{name} #{i + 1}" for i, name in enumerate(names)]
    by_n = [{run["n"]: run for run in r["runs"]} for r in reports]
    sizes = sorted(set().union(*by_n))
    width = 30
    lines = [
        "p50 in ms; warm: repeated calls (a list's total may be cached); cold: each call the"
        " first after a write; hand: the hand-written floor on the same database; ratio: cold"
        " (gets: warm) / that backend's own hand",
    ]
    for r, name in zip(reports, names, strict=True):
        m, c = r["machine"], r["config"]
        database = c.get("postgresql") or m.get("sqlite")
        lines.append(
            f"  {name}: {database}, repeat {c['repeat']}, code {m['git']}, created {r['created']}"
        )
    for n in sizes:
        runs = [runs_.get(n) for runs_ in by_n]
        lines.append("")
        lines.append(f"N = {n:,}")
        head = f"  {'query':<16}" + "".join(f"{name:^{width}}" for name in names)
        sub = f"  {'':<16}" + f"{'warm':>7}{'cold':>8}{'hand':>8}{'ratio':>7}" * len(names)
        lines += [head, sub]
        queries = list(dict.fromkeys(q for run in runs if run for q in run["queries"]))
        for q in queries:
            row = f"  {q:<16}"
            for run in runs:
                if run is None:
                    row += f"{'(not measured)':>{width}}"
                    continue
                query = run["queries"].get(q)
                row += (
                    f"{_ms(query, 'library'):>7}{_ms(query, 'library_cold'):>8}"
                    f"{_ms(query, 'hand'):>8}{_ratio(query):>7}"
                )
            lines.append(row)
        row = f"  {'load events/s':<16}"
        for run in runs:
            rate = "(not measured)" if run is None else f"{run['load']['events_per_s']:,.0f}"
            row += f"{rate:>{width}}"
        lines.append(row)
        row = f"  {'db size MiB':<16}"
        for run in runs:
            size = "-" if run is None else f"{run['load']['db_bytes'] / 2**20:,.0f}"
            row += f"{size:>{width}}"
        lines.append(row)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reports", nargs="+", type=Path, help="storage benchmark JSON reports")
    args = parser.parse_args(argv)
    print(render([json.loads(path.read_text()) for path in args.reports]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
