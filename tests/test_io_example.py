"""examples/csv_season.py: a season in from CSV, out again, and back in unchanged."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _ics_available() -> bool:
    """Whether iCalendar support (``events_calendar.io.ical`` and its packages) imports."""
    try:
        importlib.import_module("events_calendar.io.ical")
    except ImportError:
        return False
    return True


WITH_ICS = _ics_available()


def test_the_season_example_round_trips_unchanged(tmp_path: Path) -> None:
    """Ten events imported, exported and re-imported with nothing changed (through .ics
    too where iCalendar support is installed)."""
    done = subprocess.run(  # noqa: S603 - our own example script
        [sys.executable, str(ROOT / "examples" / "csv_season.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    expected = [
        "Imported season.csv: created 10, updated 0, unchanged 0, refused 0",
        "Exported 10 events to season-export.csv",
        "Re-imported season-export.csv: created 0, updated 0, unchanged 10, refused 0",
    ]
    if WITH_ICS:
        expected += [
            "Exported 10 events to season.ics",
            "Re-imported season.ics: created 0, updated 0, unchanged 10, refused 0",
        ]
    assert expected == done.stdout.splitlines()
