"""Import and export speed: events from a CSV file into SQLite, and back out.

Usage::

    .venv/bin/python bench/import_export.py [--events 100000] [--db-dir DIR] [--ics] [--reimports N]

Writes a CSV season of ``--events`` rows in the reference importer's layout (a few venues,
organizers, categories and tags shared by many events, as a real season has), then times:

- the import into a new SQLite file (``cal.import_file``: parse, check, bulk insert);
- the export of every event back to CSV (``cal.export_file``);
- the re-import of that export into the same calendar (every row matched, nothing written);
- with ``--ics`` (needs ``events_calendar.io.ical``): the same events exported to .ics and
  imported into another new SQLite file.

Prints events per second for each step. The figures depend on ``bulk_create``'s insert path;
the target is 20,000 events/s for an import.
"""

from __future__ import annotations

import argparse
import csv
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import events_calendar as ec

HEADER = [
    "Event Name",
    "Event Description",
    "Event Start Date",
    "Event Start Time",
    "Event End Time",
    "Event Timezone",
    "Event Venue Name",
    "Event Organizer Name(s) or ID(s)",
    "Event Category",
    "Event Tags",
    "Event Cost",
    "Feature Event",
]


def write_season(path: Path, events: int) -> None:
    """``events`` rows, each a distinct title and start, sharing a few linked records."""
    first = datetime(2031, 1, 1, 9, 0)  # noqa: DTZ001 - a wall clock for the CSV cells
    with path.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(HEADER)
        for n in range(events):
            start = first + timedelta(minutes=17 * n)
            writer.writerow(
                [
                    f"Event {n}",
                    f"Description of event {n}",
                    start.strftime("%m/%d/%Y"),
                    start.strftime("%H:%M"),
                    (start + timedelta(hours=2)).strftime("%H:%M"),
                    "Europe/London",
                    f"Hall {n % 20}",
                    f"Organizer {n % 10}",
                    f"Music, Series {n % 5}",
                    "evening" if n % 2 else "matinee",
                    f"{5 + n % 30}",
                    "yes" if n % 50 == 0 else "no",
                ]
            )


def timed(label: str, count: int, step: Callable[[], Any]) -> Any:
    """Run ``step`` and print its rate."""
    began = time.perf_counter()
    result = step()
    seconds = time.perf_counter() - began
    print(f"{label:<38} {count:>9,} events {seconds:8.2f} s {count / seconds:>10,.0f} events/s")
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--db-dir", type=Path, help="where the databases go (default: a temp dir)")
    parser.add_argument("--ics", action="store_true", help="also through an .ics file")
    parser.add_argument(
        "--reimports", type=int, default=1, help="how many times to time the CSV re-import"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.db_dir or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        season = folder / "season.csv"
        write_season(season, args.events)
        for name in ("bench.db", "bench-ics.db"):
            (folder / name).unlink(missing_ok=True)
        with ec.connect(f"sqlite:///{folder / 'bench.db'}") as cal:
            report = timed("CSV import into SQLite", args.events, lambda: cal.import_file(season))
            assert report.created == args.events, report.summary()
            out = folder / "export.csv"
            timed("CSV export", args.events, lambda: cal.export_file(out))
            for _ in range(args.reimports):
                again = timed(
                    "CSV re-import (all rows unchanged)",
                    args.events,
                    lambda: cal.import_file(out, on_conflict="update"),
                )
                assert again.unchanged == args.events, again.summary()
            if args.ics:
                ics = folder / "season.ics"
                timed(".ics export", args.events, lambda: cal.export_file(ics))
                with ec.connect(f"sqlite:///{folder / 'bench-ics.db'}") as other:
                    done = timed(
                        ".ics import into SQLite", args.events, lambda: other.import_file(ics)
                    )
                    print(f"  .ics import: {done.summary()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
