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
