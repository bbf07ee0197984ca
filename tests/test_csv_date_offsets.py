"""CSV date cells that end with a time and a UTC offset, as spreadsheets and other tools'
exports write a moment (``2026-03-08 01:30:00-05:00``): read as a time cell's offset is."""

from __future__ import annotations

import io
from datetime import date, time, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

import events_calendar as ec
from events_calendar.io.csv_read import read_csv
from events_calendar.io.rows import SourceRow
from events_calendar.io.values import read_moment
from events_calendar.testing import NOW

NEW_YORK = ZoneInfo("America/New_York")
EST = timezone(timedelta(hours=-5))


def _rows(text: str) -> list[SourceRow]:
    return list(read_csv(io.BytesIO(text.encode()), where="f.csv", zone=NEW_YORK).rows)


@pytest.mark.parametrize(
    "text",
    [
        "2026-03-08 01:30:00-05:00",
        "2026-03-08T01:30-05:00",
        "2026-03-08T01:30:00.000-0500",
        "03/08/2026 1:30 am -05:00",
    ],
)
def test_a_date_cell_keeps_its_time_and_offset(text: str) -> None:
    assert (date(2026, 3, 8), time(1, 30, tzinfo=EST)) == read_moment(text)


@pytest.mark.parametrize(
    ("header", "row", "expected"),
    [
        # The spring-forward day: 01:30 EST, the hour before the clocks skip.
        (
            "Event Start Date,Event End Date",
            "2026-03-08 01:30:00-05:00,2026-03-08T04:00-04:00",
            ("2026-03-08 01:30:00", "2026-03-08 04:00:00"),
        ),
        # No end: the start's time and offset fill it, as for a time cell.
        ("Event Start Date", "2026-03-08T01:30-05:00", ("2026-03-08 01:30:00",) * 2),
        # The second pass of the repeated hour keeps its offset, which names it.
        (
            "Event Start Date,Event End Date",
            "2031-11-02 01:30:00-05:00,2031-11-02 01:45:00-05:00",
            ("2031-11-02 01:30:00-05:00", "2031-11-02 01:45:00-05:00"),
        ),
        # The same time in the time column agrees with the date cell; its offset wins.
        (
            "Event Start Date,Event Start Time",
            "2031-11-02 01:30:00-05:00,01:30",
            ("2031-11-02 01:30:00-05:00",) * 2,
        ),
        (
            "Event Start Date,Event Start Time",
            "2031-11-02 01:30:00-05:00,01:30:00-05:00",
            ("2031-11-02 01:30:00-05:00",) * 2,
        ),
    ],
)
def test_a_date_cell_with_an_offset_fills_the_time(
    header: str, row: str, expected: tuple[str, str]
) -> None:
    (found,) = _rows(f"Event Name,{header}\nShow,{row}\n")
    assert found.refused is None
    assert expected == (found.fields["start_date"], found.fields["end_date"])


@pytest.mark.parametrize(
    ("start", "cell"),
    [
        ("2031-11-02 01:30:00-05:00", "02:00"),  # another wall time
        ("2031-11-02 01:30:00-05:00", "01:30:00-04:00"),  # the other pass
    ],
)
def test_a_time_column_disagreeing_with_the_date_cell_refuses_the_row(
    start: str, cell: str
) -> None:
    (found,) = _rows(f"Event Name,Event Start Date,Event Start Time\nShow,{start},{cell}\n")
    assert (
        f"Event Start Time: {cell!r} is not the time the date cell gives ({start!r}); write "
        "the time in one of the two cells, or the same time in both"
    ) == found.refused


def test_a_date_cells_time_without_an_offset_is_still_overruled_by_the_time_column() -> None:
    (found,) = _rows("Event Name,Event Start Date,Event Start Time\nShow,2031-05-01 20:00,21:00\n")
    assert "2031-05-01 21:00:00" == found.fields["start_date"]


def test_an_offset_the_zone_lacks_names_the_date_cell() -> None:
    (found,) = _rows("Event Name,Event Start Date\nShow,2031-07-01T19:00:00-05:00\n")
    assert (
        "Event Start Date: '2031-07-01T19:00:00-05:00': America/New_York has no UTC offset "
        "-05:00 at 2031-07-01 19:00:00 (its offset is -04:00); write the time without an "
        "offset, or with its own to name the second pass of a repeated hour"
    ) == found.refused


def test_an_import_stores_the_moment_the_cell_names(tmp_path: Path) -> None:
    cal = ec.connect(
        "memory://", clock=ec.FixedClock(NOW), settings={"timezone": "America/New_York"}
    )
    path = tmp_path / "season.csv"
    path.write_text(
        "Event Name,Event Start Date,Event End Date\n"
        "Late show,2031-11-02T01:30-05:00,2031-11-02T02:15-05:00\n",
        encoding="utf-8",
    )
    report = cal.import_file(path)
    event = cal.events.get(report.ids[0])
    assert ("2031-11-02 06:30:00", "2031-11-02 07:15:00") == (
        str(event.utc_start_date)[:19],
        str(event.utc_end_date)[:19],
    )
