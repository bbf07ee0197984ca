"""Imports and exports around clock changes: times in the hour the clocks repeat."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

import events_calendar as ec
from events_calendar.io import SourceRow
from events_calendar.io.importer import import_rows
from events_calendar.testing import NOW
from sql_backends import CALENDAR_KINDS, calendar_url

NEW_YORK = {"timezone": "America/New_York"}


@pytest.fixture(params=CALENDAR_KINDS)
def cal(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ec.Calendar]:
    """An empty calendar in New York's zone on each backend."""
    calendar = ec.connect(
        calendar_url(request.param, tmp_path), clock=ec.FixedClock(NOW), settings=NEW_YORK
    )
    yield calendar
    calendar.close()


def _late_show(start: str, end: str) -> SourceRow:
    return SourceRow(
        "UID late",
        "event",
        {"title": "Late show", "start_date": start, "end_date": end},
        key="uid:late@example.org",
    )


def test_a_row_moving_an_event_between_the_passes_of_a_repeated_hour_updates_it(
    cal: ec.Calendar,
) -> None:
    """01:30 (the first pass, EDT) over an event at 01:30 EST is an hour earlier: updated."""
    import_rows(cal, [_late_show("2031-11-02T01:30:00-05:00", "2031-11-02T01:45:00-05:00")])
    report = import_rows(
        cal, [_late_show("2031-11-02 01:30:00", "2031-11-02 01:45:00")], on_conflict="update"
    )
    event = cal.events.get(report.ids[0])
    assert (
        "created 0, updated 1, unchanged 0, refused 0",
        datetime(2031, 11, 2, 5, 30, tzinfo=UTC),
        datetime(2031, 11, 2, 5, 45, tzinfo=UTC),
    ) == (report.summary(), event.utc_start_date, event.utc_end_date)


def _late_show_in(cal: ec.Calendar) -> ec.Event:
    return cal.events.create(
        title="Late show",
        start_date="2031-11-02T01:30:00-05:00",
        end_date="2031-11-02T01:45:00-05:00",
    )


def test_a_csv_export_writes_the_offset_of_a_second_pass_time(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """01:30 EST is written ``01:30:00-05:00``; 01:30 EDT and other times have no offset."""
    _late_show_in(cal)
    cal.events.create(
        title="Early show", start_date="2031-11-02T01:30:00-04:00", end_date="2031-11-02 03:00"
    )
    path = tmp_path / "export.csv"
    cal.export_file(path)
    rows = [line.split(",") for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    assert [
        ["Early show", "01:30:00", "03:00:00"],
        ["Late show", "01:30:00-05:00", "01:45:00-05:00"],
    ] == [[row[0], row[4], row[6]] for row in rows]


def test_a_csv_export_of_a_second_pass_event_imports_at_its_instant(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """Imported elsewhere, the 01:30 EST event starts at 06:30 UTC; imported again into its
    own calendar with on_conflict="update", it is unchanged."""
    _late_show_in(cal)
    path = tmp_path / "export.csv"
    cal.export_file(path)
    elsewhere = ec.connect("memory://", settings=NEW_YORK)
    (copy_id,) = elsewhere.import_file(path).ids
    copy = elsewhere.events.get(copy_id)
    assert (
        datetime(2031, 11, 2, 6, 30, tzinfo=UTC),
        datetime(2031, 11, 2, 6, 45, tzinfo=UTC),
        "created 0, updated 0, unchanged 1, refused 0",
    ) == (
        copy.utc_start_date,
        copy.utc_end_date,
        cal.import_file(path, on_conflict="update").summary(),
    )


def test_a_first_pass_row_is_another_start_than_a_second_pass_event(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """By title and start, 01:30 (EDT) does not match the event at 01:30 EST: a new event."""
    _late_show_in(cal)
    path = tmp_path / "season.csv"
    path.write_text(
        "Event Name,Event Start Date,Event Start Time,Event End Time\n"
        "Late show,2031-11-02,01:30:00,01:45:00\n",
        encoding="utf-8",
    )
    assert "created 1, updated 0, unchanged 0, refused 0" == (
        cal.import_file(path, on_conflict="update").summary()
    )


@pytest.mark.parametrize(
    ("day", "cell", "why"),
    [
        ("2031-11-02", "01:30:00-07:00", "its offset is -04:00 or -05:00"),
        ("2031-07-01", "19:00:00-05:00", "its offset is -04:00"),
        ("2031-03-09", "02:30:00-05:00", "that time is skipped"),
    ],
)
def test_a_time_with_an_offset_its_zone_lacks_is_refused(
    cal: ec.Calendar, tmp_path: Path, day: str, cell: str, why: str
) -> None:
    """An offset may only choose between the passes of the wall time: another is refused,
    naming the offsets that wall time has."""
    path = tmp_path / "season.csv"
    path.write_text(
        f"Event Name,Event Start Date,Event Start Time\nShow,{day},{cell}\n", encoding="utf-8"
    )
    offset, wall = cell[8:], f"{day} {cell[:8]}"
    assert (
        f"line 2: refused: Event Start Time: {cell!r}: America/New_York has no UTC offset "
        f"{offset} at {wall} ({why}); write the time without an offset, or with its own to "
        "name the second pass of a repeated hour"
    ) == cal.import_file(path).lines()[0]
