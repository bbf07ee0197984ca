"""examples/csv_season.py: a season in from CSV, out again, and back in unchanged."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "csv_season.py"


def _with_ics() -> bool:
    """Whether the example goes through .ics too (it decides: iCalendar support imports)."""
    spec = importlib.util.spec_from_file_location("csv_season", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return bool(module.WITH_ICS)


def test_the_season_example_round_trips_unchanged(tmp_path: Path) -> None:
    """Ten events imported, exported and re-imported with nothing changed (through .ics
    too where iCalendar support is installed)."""
    done = subprocess.run(  # noqa: S603 - our own example script
        [sys.executable, str(EXAMPLE), str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    expected = [
        "Imported season.csv: created 10, updated 0, unchanged 0, refused 0",
        "Exported 10 events to season-export.csv",
        "Re-imported season-export.csv: created 0, updated 0, unchanged 10, refused 0",
    ]
    if _with_ics():
        expected += [
            "Exported 10 events to season.ics",
            "Re-imported season.ics: created 0, updated 0, unchanged 10, refused 0",
        ]
    assert expected == done.stdout.splitlines()
