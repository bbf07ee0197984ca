"""The .ics benchmark (``bench/ical.py``) still runs, so it cannot rot between its runs."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def test_the_ics_benchmark_loads_and_exports_every_event(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 60-event run reads, loads and exports all 60 events and prints each phase."""
    monkeypatch.syspath_prepend(str(BENCH))
    bench = importlib.import_module("ical")
    status = bench.main(["--events", "60", "--db", str(tmp_path / "ical.db")])
    printed = capsys.readouterr().out.splitlines()
    assert (0, "60 events, 0.0 MB of iCalendar", ["parse", "write", "total", "export"]) == (
        status,
        printed[0],
        [line.split()[0] for line in printed[2:]],
    )
