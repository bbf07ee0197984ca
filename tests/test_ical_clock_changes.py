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
from test_ical_read import WINDOW, _events, one_event

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


def _paris_noon(duration: str, *more: str) -> tuple[str, ...]:
    """The lines of an event from noon in Paris on 29 March 2031 (the clocks go forward
    that night)."""
    return (
        "UID:p@example.org",
        "SUMMARY:Vigil",
        "DTSTART;TZID=Europe/Paris:20310329T120000",
        f"DURATION:{duration}",
        *more,
    )


@pytest.mark.parametrize(
    ("duration", "end"),
    [
        ("PT24H", datetime(2031, 3, 30, 11, tzinfo=UTC)),  # 24 elapsed hours: 13:00 CEST
        ("P1D", datetime(2031, 3, 30, 10, tzinfo=UTC)),  # one day: noon CEST, 23 hours on
        ("P1DT1H", datetime(2031, 3, 30, 11, tzinfo=UTC)),  # the day first, then the hour
        ("PT90M", datetime(2031, 3, 29, 12, 30, tzinfo=UTC)),
    ],
)
def test_duration_hours_are_elapsed_time_and_days_wall_clock_days(
    duration: str, end: datetime
) -> None:
    """RFC 5545 3.3.6: a DURATION's days are nominal, its hours, minutes, seconds exact."""
    assert [(datetime(2031, 3, 29, 11, tzinfo=UTC), end)] == _instants(
        _events(_paris_noon(duration))
    )


def test_an_hour_from_the_first_pass_of_a_repeated_hour_ends_in_the_second() -> None:
    """01:30 EDT plus PT1H is 01:30 EST (06:30 UTC), not 02:30 EST."""
    data = one_event(
        "UID:n@example.org",
        "SUMMARY:Night shift",
        "DTSTART;TZID=America/New_York:20311102T013000",
        "DURATION:PT1H",
    )
    assert [
        (datetime(2031, 11, 2, 5, 30, tzinfo=UTC), datetime(2031, 11, 2, 6, 30, tzinfo=UTC))
    ] == _instants(data)


def test_each_occurrence_of_a_series_lasts_its_duration_in_elapsed_hours() -> None:
    """A daily series of PT24H lasts 24 hours each day, the day the clocks go forward too;
    an override with its own DURATION lasts that."""
    data = _events(
        _paris_noon("PT24H", "RRULE:FREQ=DAILY;COUNT=3"),
        (
            "UID:p@example.org",
            "SUMMARY:Vigil, moved",
            "RECURRENCE-ID;TZID=Europe/Paris:20310330T120000",
            "DTSTART;TZID=Europe/Paris:20310330T130000",
            "DURATION:PT2H",
        ),
    )
    assert [
        (datetime(2031, 3, 29, 11, tzinfo=UTC), datetime(2031, 3, 30, 11, tzinfo=UTC)),
        (datetime(2031, 3, 30, 11, tzinfo=UTC), datetime(2031, 3, 30, 13, tzinfo=UTC)),
        (datetime(2031, 3, 31, 10, tzinfo=UTC), datetime(2031, 4, 1, 10, tzinfo=UTC)),
    ] == _instants(data)


def test_a_duration_across_a_clock_change_is_stored_as_read(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """Imported, a PT24H event from noon before the change lasts 24 hours, on every backend."""
    path = tmp_path / "vigil.ics"
    path.write_bytes(_events(_paris_noon("PT24H")))
    (event_id,) = cal.import_file(path, window=("2031-01-01", "2031-12-31")).ids
    event = cal.events.get(event_id)
    assert (datetime(2031, 3, 30, 11, tzinfo=UTC), "2031-03-30 13:00:00+02:00") == (
        event.utc_end_date,
        str(event.end_date),
    )
