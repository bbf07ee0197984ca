"""Import a season from a spreadsheet, export it, and import the export again unchanged.

Run it with ``.venv/bin/python examples/csv_season.py [FOLDER]``: it reads
``examples/season.csv`` (the CSV layout of The Events Calendar's importer) into a new
in-memory calendar, writes the season to ``FOLDER/season-export.csv`` (a temporary folder
when none is given), and imports that file back: every row matches its event, nothing
changes. With iCalendar support installed (``events_calendar.io.ical``, the ``io`` extra) it
does the same through ``FOLDER/season.ics``.
"""

from __future__ import annotations

import importlib
import sys
import tempfile
from pathlib import Path

import events_calendar as ec

SEASON = Path(__file__).with_name("season.csv")


def _ics_available() -> bool:
    """Whether iCalendar support (``events_calendar.io.ical`` and its packages) imports."""
    try:
        importlib.import_module("events_calendar.io.ical")
    except ImportError:
        return False
    return True


#: Whether this installation reads and writes iCalendar files.
WITH_ICS = _ics_available()


def run(folder: Path) -> list[str]:
    """The season through CSV (and iCalendar when available); returns the lines printed."""
    lines: list[str] = []
    with ec.connect("memory://") as cal:
        report = cal.import_file(SEASON)
        lines.append(f"Imported {SEASON.name}: {report.summary()}")
        for fmt in ("csv", "ics") if WITH_ICS else ("csv",):
            path = folder / ("season-export.csv" if fmt == "csv" else "season.ics")
            written = cal.export_file(path)
            lines.append(f"Exported {written} events to {path.name}")
            again = cal.import_file(path, on_conflict="update")
            lines.append(f"Re-imported {path.name}: {again.summary()}")
    return lines


def main() -> None:
    if len(sys.argv) > 1:
        folder = Path(sys.argv[1])
        folder.mkdir(parents=True, exist_ok=True)
        print("\n".join(run(folder)))
        return
    with tempfile.TemporaryDirectory() as temporary:
        print("\n".join(run(Path(temporary))))


if __name__ == "__main__":
    main()
