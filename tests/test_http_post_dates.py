"""Publication dates on a calendar whose zone is not UTC: ``date`` is the site's local time and
``date_utc`` is UTC, as the reference shows ``post_date`` and ``post_date_gmt``; when both are
sent, each is kept as sent."""

from __future__ import annotations

from typing import Any

import pytest

import events_calendar as ec
from http_helpers import Site

GALA = {"title": "Gala", "start_date": "2031-06-15 19:00:00", "end_date": "2031-06-15 23:00:00"}
#: The fixed clock (2031-01-10 12:00 UTC) on New York's wall (UTC-5 in January).
NOW_LOCAL, NOW_UTC = "2031-01-10 07:00:00", "2031-01-10 12:00:00"


@pytest.fixture
def site() -> Site:
    return Site(settings=ec.Settings(timezone="America/New_York"))


def dates(record: dict[str, Any]) -> tuple[str, str, str, str]:
    return (record["date"], record["date_utc"], record["modified"], record["modified_utc"])


def test_event_read_back_shows_local_date_and_utc_date(site: Site) -> None:
    """GET /events/<id> shows ``date``/``modified`` on the site's clock, the ``_utc`` in UTC."""
    created = site.event(**GALA)
    read = site.get(f"/events/{created['id']}").json()
    assert (NOW_LOCAL, NOW_UTC, NOW_LOCAL, NOW_UTC) == dates(read)


def test_event_list_shows_local_date_and_utc_date(site: Site) -> None:
    """GET /events lists each event's post date on the site's clock and in UTC."""
    site.event(**GALA)
    (listed,) = site.get("/events").json()["events"]
    assert (NOW_LOCAL, NOW_UTC, NOW_LOCAL, NOW_UTC) == dates(listed)


@pytest.mark.parametrize(("collection", "name"), [("venues", "venue"), ("organizers", "organizer")])
def test_venue_and_organizer_read_back_show_local_date(
    site: Site, collection: str, name: str
) -> None:
    """A venue or organizer read back shows its post date on the site's clock and in UTC."""
    created = site.make(collection, {name: "Hall"})
    read = site.get(f"/{collection}/{created['id']}").json()
    assert (NOW_LOCAL, NOW_UTC, NOW_LOCAL, NOW_UTC) == dates(read)


def test_date_alone_is_local_and_gives_its_utc(site: Site) -> None:
    """A ``date`` alone is read on the site's clock; ``date_utc`` is the same instant in UTC."""
    created = site.event(**GALA, date="2031-01-05 09:00:00")
    read = site.get(f"/events/{created['id']}").json()
    assert ("2031-01-05 09:00:00", "2031-01-05 14:00:00") == (read["date"], read["date_utc"])


def test_date_utc_alone_is_utc_and_gives_its_local_date(site: Site) -> None:
    """A ``date_utc`` alone is read in UTC; ``date`` is the same instant on the site's clock."""
    created = site.event(**GALA, date_utc="2031-01-05 09:00:00")
    read = site.get(f"/events/{created['id']}").json()
    assert ("2031-01-05 04:00:00", "2031-01-05 09:00:00") == (read["date"], read["date_utc"])


@pytest.mark.parametrize(
    "body",
    [
        {"date": "2031-01-05 09:00:00", "date_utc": "2031-01-05 09:00:00"},
        {"date_utc": "2031-01-05 09:00:00", "date": "2031-01-05 09:00:00"},
    ],
)
def test_event_date_and_date_utc_sent_together_are_each_kept(
    site: Site, body: dict[str, str]
) -> None:
    """``date`` and ``date_utc`` sent together on create are each stored and shown as sent."""
    created = site.event(**GALA, **body)
    read = site.get(f"/events/{created['id']}").json()
    assert ("2031-01-05 09:00:00", "2031-01-05 09:00:00") == (read["date"], read["date_utc"])


def test_venue_date_and_date_utc_sent_together_are_each_kept(site: Site) -> None:
    """A venue created with ``date`` and ``date_utc`` keeps each as sent."""
    body = {"venue": "Hall", "date": "2031-01-05 09:00:00", "date_utc": "2031-01-05 19:00:00"}
    created = site.make("venues", body)
    read = site.get(f"/venues/{created['id']}").json()
    assert ("2031-01-05 09:00:00", "2031-01-05 19:00:00") == (read["date"], read["date_utc"])
