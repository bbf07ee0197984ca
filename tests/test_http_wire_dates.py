"""The date renderings only the wire needs (``events_calendar.http.wire_dates``)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from events_calendar.dates import resolve_zone
from events_calendar.http.wire_dates import date_details, stated_isoformat

PARIS = ZoneInfo("Europe/Paris")


def test_date_details_are_zero_padded_strings_in_order() -> None:
    """date_details matches the reference's *_date_details objects."""
    details = date_details(datetime(2031, 8, 1, 9, 30, tzinfo=PARIS))
    expected = {
        "year": "2031",
        "month": "08",
        "day": "01",
        "hour": "09",
        "minutes": "30",
        "seconds": "00",
    }
    assert list(expected.items()) == list(details.items())


def test_stated_isoformat_shows_the_offset_a_label_names() -> None:
    """An event at "UTC+2" states +02:00 in winter too, as the reference's JSON-LD does."""
    moment = datetime(2031, 1, 1, 9, 30, tzinfo=resolve_zone("UTC+2"))
    assert "2031-01-01T09:30:00+02:00" == stated_isoformat(moment)


def test_stated_isoformat_of_an_iana_zone_is_plain_isoformat() -> None:
    """A named zone keeps its real offset."""
    assert "2031-01-01T09:30:00+01:00" == stated_isoformat(
        datetime(2031, 1, 1, 9, 30, tzinfo=PARIS)
    )
