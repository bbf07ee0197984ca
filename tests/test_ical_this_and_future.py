"""iCalendar overrides with ``RANGE=THISANDFUTURE`` and a DURATION: each later occurrence
is its own row and lasts the override's DURATION, hours as elapsed time (RFC 5545 3.8.4.4
and 3.3.6), not the wall-clock end the expander computes."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

import events_calendar as ec
from events_calendar.io.ical import read_rows
from events_calendar.testing import NOW
from test_ical_read import WINDOW, _events


def _series(series_end: str, *override: str) -> bytes:
    """A daily noon series in Paris from 27 March 2031 (the clocks go forward in the night
    of 29 to 30 March), and an override from 28 March on."""
    return _events(
        (
            "UID:v@example.org",
            "SUMMARY:Vigil",
            "DTSTART;TZID=Europe/Paris:20310327T120000",
            series_end,
            "RRULE:FREQ=DAILY;COUNT=4",
        ),
        (
            "UID:v@example.org",
            "SUMMARY:Vigil, longer",
            "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Paris:20310328T120000",
            *override,
        ),
    )


def _read(data: bytes) -> list[tuple[str | None, datetime, datetime]]:
    return [
        (
            row.key,
            row.fields["start_date"].astimezone(UTC),
            row.fields["end_date"].astimezone(UTC),
        )
        for row in read_rows(data, where="f.ics", window=WINDOW)
    ]


def _utc(day: int, hour: int) -> datetime:
    return datetime(2031, 3, day, hour, tzinfo=UTC)


@pytest.mark.parametrize("series_end", ["DTEND;TZID=Europe/Paris:20310327T130000", "DURATION:PT1H"])
def test_later_occurrences_last_the_overrides_duration_in_elapsed_hours(series_end: str) -> None:
    """PT24H from noon on 29 March ends at 13:00 CEST (11:00 UTC), 24 hours on: the
    wall-clock end, noon CEST, would be 23."""
    data = _series(series_end, "DTSTART;TZID=Europe/Paris:20310328T120000", "DURATION:PT24H")
    assert [
        ("uid:v@example.org#20310327T110000Z", _utc(27, 11), _utc(27, 12)),
        ("uid:v@example.org#20310328T110000Z", _utc(28, 11), _utc(29, 11)),
        ("uid:v@example.org#20310329T110000Z", _utc(29, 11), _utc(30, 11)),
        ("uid:v@example.org#20310330T100000Z", _utc(30, 10), _utc(31, 10)),
    ] == _read(data)


def test_a_moved_override_moves_its_later_occurrences_and_keys_them_by_their_own_day() -> None:
    """An hour later from 28 March on, each lasting 90 elapsed minutes; each later
    occurrence keeps the key of the day it stands for."""
    data = _series(
        "DTEND;TZID=Europe/Paris:20310327T130000",
        "DTSTART;TZID=Europe/Paris:20310328T130000",
        "DURATION:PT1H30M",
    )
    ends = [(key, end - start) for key, start, end in _read(data)]
    assert [
        ("uid:v@example.org#20310327T110000Z", 60),
        ("uid:v@example.org#20310328T110000Z", 90),
        ("uid:v@example.org#20310329T110000Z", 90),
        ("uid:v@example.org#20310330T100000Z", 90),
    ] == [(key, length.total_seconds() / 60) for key, length in ends]


def test_a_days_duration_stays_on_the_wall_clock() -> None:
    """P1D from noon on 29 March ends at noon on 30 March, 23 hours on."""
    data = _series(
        "DTEND;TZID=Europe/Paris:20310327T130000",
        "DTSTART;TZID=Europe/Paris:20310328T120000",
        "DURATION:P1D",
    )
    assert (_utc(29, 11), _utc(30, 10)) == _read(data)[2][1:]


@pytest.mark.parametrize("url", ["memory://", "sqlite"])
def test_every_later_occurrence_is_imported(url: str, tmp_path: Path) -> None:
    """Each later occurrence is its own event, none refused as a repeat of the override."""
    url = f"sqlite:///{tmp_path / 'c.db'}" if url == "sqlite" else url
    path = tmp_path / "vigil.ics"
    path.write_bytes(
        _series(
            "DTEND;TZID=Europe/Paris:20310327T130000",
            "DTSTART;TZID=Europe/Paris:20310328T120000",
            "DURATION:PT24H",
        )
    )
    with ec.connect(url, clock=ec.FixedClock(NOW)) as cal:
        report = cal.import_file(path, window=("2031-01-01", "2031-12-31"))
        assert "created 4, updated 0, unchanged 0, refused 0" == report.summary()
        third = cal.events.get(report.ids[2])
        assert (_utc(29, 11), _utc(30, 11)) == (third.utc_start_date, third.utc_end_date)
        again = cal.import_file(path, window=("2031-01-01", "2031-12-31"))
        assert "created 0, updated 0, unchanged 4, refused 0" == again.summary()
