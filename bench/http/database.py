"""The database the HTTP benchmark serves: N generated events in SQLite, built once per N.

``events-calendar serve`` reads the real clock (it has no clock option), so the data is
generated around a "now" taken from the real date: the first day of the current month, 14:30
UTC. The default list window (yesterday .. 24 months ahead) then covers the dense part of the
data, as on a live site, whatever day the benchmark runs. The file name carries N, the seed
and that anchor, and a sidecar ``.json`` written after the load says the file is complete, so
a later run (the same month) reuses it and a half-written file is never served.

The rows are ``bench/dataset.py``'s (the storage benchmark's generator), loaded through the
library's own ``cal.events.bulk_create``.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

_BENCH = Path(__file__).resolve().parent.parent
if str(_BENCH) not in sys.path:  # bench/dataset.py is a sibling script, not a package
    sys.path.insert(0, str(_BENCH))

from dataset import CatalogSpec, create_catalog, event_rows  # noqa: E402

import events_calendar as ec  # noqa: E402

__all__ = [
    "CALENDAR_ZONE",
    "DEFAULT_DB_DIR",
    "DEFAULT_SEED",
    "anchor_now",
    "database_path",
    "ensure_database",
    "serve_environment",
]

#: The calendar's zone (as in the storage benchmark): not UTC, so day rounding is real work.
CALENDAR_ZONE = "Europe/Paris"
DEFAULT_SEED = 20260615
#: Where databases are built and kept between runs unless ``--db-dir`` says otherwise.
DEFAULT_DB_DIR = Path(tempfile.gettempdir()) / "ec-http-bench"


def anchor_now(today: datetime | None = None) -> datetime:
    """The "now" the data is generated around: 14:30 UTC on the first of the current month."""
    today = today or datetime.now(UTC)
    return datetime(today.year, today.month, 1, 14, 30, tzinfo=UTC)


def database_path(db_dir: Path, events: int, seed: int, anchor: datetime) -> Path:
    return db_dir / f"http-events-{events}-s{seed}-{anchor:%Y%m%d}.db"


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".json")


def ensure_database(
    db_dir: Path, events: int, *, seed: int = DEFAULT_SEED, anchor: datetime | None = None
) -> tuple[Path, dict[str, Any]]:
    """The path of a complete database of ``events`` events, building it if needed.

    Returns the path and its facts (``reused``, load time, anchor, seed).
    """
    anchor = anchor or anchor_now()
    db_dir.mkdir(parents=True, exist_ok=True)
    path = database_path(db_dir, events, seed, anchor)
    sidecar = _sidecar(path)
    if path.exists() and sidecar.exists():
        facts: dict[str, Any] = json.loads(sidecar.read_text())
        if facts.get("events") == events and facts.get("complete"):
            return path, {**facts, "reused": True}
    for leftover in path.parent.glob(path.name + "*"):
        leftover.unlink()
    print(f"Building {path} ({events:,} events around {anchor:%Y-%m-%d})", flush=True)
    started = time.perf_counter()
    cal = ec.connect(
        f"sqlite:///{path}",
        clock=ec.FixedClock(anchor),
        settings=ec.Settings(timezone=CALENDAR_ZONE),
    )
    try:
        catalog = create_catalog(cal, CatalogSpec(), seed=seed)
        rows = list(event_rows(events, catalog, seed=seed, now=anchor))
        last = [time.perf_counter()]

        def progress(done: int, total: int) -> None:
            now = time.perf_counter()
            if done == total or now - last[0] > 5:
                last[0] = now
                print(f"  {done:>9,}/{total:,} events committed", flush=True)

        ids = cal.events.bulk_create(rows, progress=progress)
    finally:
        cal.close()
    facts = {
        "events": len(ids),
        "seed": seed,
        "anchor": anchor.isoformat(),
        "calendar_zone": CALENDAR_ZONE,
        "build_seconds": round(time.perf_counter() - started, 1),
        "bytes": path.stat().st_size,
        "complete": True,
    }
    sidecar.write_text(json.dumps(facts, indent=2) + "\n")
    return path, {**facts, "reused": False}


def serve_environment(path: Path) -> dict[str, str]:
    """The settings ``events-calendar serve`` is given, as the variables its app factory reads
    (for building the same app in-process)."""
    from events_calendar.http import server

    settings = ec.Settings(timezone=CALENDAR_ZONE)
    return server.environment(f"sqlite:///{path}", settings, "/wp-json", "tribe")
