"""Reading .ics times around clock changes: the repeated hour and durations across a change."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

import events_calendar as ec
from events_calendar.io.ical import read_rows
from events_calendar.testing import NOW
from sql_backends import CALENDAR_KINDS, calendar_url
from test_ical_read import WINDOW, one_event

#: Google's way: UTC times and the calendar's zone. 06:30Z is 01:30 EST, the second 01:30 of
#: New York's fall-back night.
LATE_SHOW = one_event(
    "UID:z@example.org",
    "SUMMARY:Late show",
    "DTSTART:20311102T063000Z",
    "DTEND:20311102T064500Z",
    calendar=("X-WR-TIMEZONE:America/New_York",),
)


@pytest.fixture(params=CALENDAR_KINDS)
def cal(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ec.Calendar]:
    """An empty calendar on each backend."""
    calendar = ec.connect(calendar_url(request.param, tmp_path), clock=ec.FixedClock(NOW))
    yield calendar
    calendar.close()


def _instants(data: bytes) -> list[tuple[datetime, datetime]]:
    """The (start, end) instants of each row of ``data``, in UTC."""
    return [
        (row.fields["start_date"].astimezone(UTC), row.fields["end_date"].astimezone(UTC))
        for row in read_rows(data, where="f.ics", window=WINDOW)
    ]


def test_a_utc_time_in_the_second_pass_of_x_wr_timezone_keeps_its_instant() -> None:
    """06:30Z is read as 01:30 EST (the second pass), not 01:30 EDT an hour earlier."""
    assert [
        (datetime(2031, 11, 2, 6, 30, tzinfo=UTC), datetime(2031, 11, 2, 6, 45, tzinfo=UTC))
    ] == _instants(LATE_SHOW)


def test_an_x_wr_timezone_event_in_the_repeated_hour_is_stored_at_its_instant(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """Imported, the second-pass event starts at 06:30 UTC and shows 01:30 EST, on every
    backend."""
    path = tmp_path / "google.ics"
    path.write_bytes(LATE_SHOW)
    (event_id,) = cal.import_file(path, window=("2031-01-01", "2031-12-31")).ids
    event = cal.events.get(event_id)
    assert (datetime(2031, 11, 2, 6, 30, tzinfo=UTC), "2031-11-02 01:30:00-05:00") == (
        event.utc_start_date,
        str(event.start_date),
    )
