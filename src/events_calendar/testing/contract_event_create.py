"""The event contract: creating events, their fields, zones and date forms."""

from __future__ import annotations

from typing import Any

import pytest

import events_calendar as ec

from .base import NOW
from .contract_event_base import (
    CalendarWith,
    EventContractBase,
    span,
    wall,
)

__all__ = ["EventCreateContract"]


class EventCreateContract(EventContractBase):
    """Creating events: stored fields, time zones, all-day events, date input forms."""

    def test_create_stores_every_field(self, cal: ec.Calendar) -> None:
        """Every writable field given on create is stored and returned (ev_gala)."""
        hall = cal.venues.create(venue="Grand Hall")
        acme = cal.organizers.create(organizer="Acme Events")
        jane = cal.organizers.create(organizer="Jane Doe")
        music = cal.categories.create(name="Music")
        jazz = cal.categories.create(name="Jazz", parent=music.id)
        outdoor = cal.tags.create(name="Outdoor")
        festival = self.add_event(cal, title="Festival")
        gala = cal.events.create(
            title="Summer Gala",
            description="<p>An evening of <strong>music</strong>.</p>",
            excerpt="Annual gala",
            slug="summer-gala-2031",
            status="publish",
            timezone="America/New_York",
            all_day=False,
            start_date="2031-06-15 19:00:00",
            end_date="2031-06-15 23:00:00",
            date="2021-05-05 10:00:00",
            cost=25,
            website="https://gala.example.org",
            image="https://example.org/gala.jpg",
            show_map=True,
            show_map_link=True,
            hide_from_listings=False,
            sticky=True,
            featured=True,
            categories=[music.id, jazz.id],
            tags=[outdoor.id],
            venue=hall.id,
            organizer=[acme.id, jane.id],
            post_parent=festival.id,
            password="s3cret",
        )
        expected: dict[str, Any] = {
            "title": "Summer Gala",
            "description": "<p>An evening of <strong>music</strong>.</p>",
            "excerpt": "Annual gala",
            "slug": "summer-gala-2031",
            "status": "publish",
            "author": 0,
            "timezone": "America/New_York",
            "timezone_abbr": "EDT",
            "all_day": False,
            "span": (
                "2031-06-15 19:00:00",
                "2031-06-15 23:00:00",
                "2031-06-15 23:00:00",
                "2031-06-16 03:00:00",
            ),
            "date": "2021-05-05 14:00:00",  # read in New York, shown on the calendar's clock
            "cost": "25",
            "cost_values": ("25",),
            "website": "https://gala.example.org",
            "image": "https://example.org/gala.jpg",
            "show_map": True,
            "show_map_link": True,
            "hide_from_listings": False,
            "sticky": True,
            "featured": True,
            "categories": (music.id, jazz.id),
            "tags": (outdoor.id,),
            "venue": (hall.id,),
            "organizer": (acme.id, jane.id),
            "post_parent": festival.id,
            "password": "s3cret",
        }
        actual = {
            name: getattr(gala, name)
            for name in expected
            if name not in ("span", "date", "cost_values")
        }
        actual |= {
            "span": span(gala),
            "date": wall(gala.date),
            "cost_values": gala.cost_details.values,
        }
        assert expected == actual

    def test_get_returns_the_record_create_returned(self, cal: ec.Calendar) -> None:
        """What create returns is what a later get returns."""
        hall = cal.venues.create(venue="Grand Hall")
        gala = self.add_event(
            cal, timezone="Europe/Paris", cost="$15", featured=True, venue=hall.id, tags=["Jazz"]
        )
        assert gala == cal.events.get(gala.id)

    def test_create_fills_defaults(self, cal: ec.Calendar) -> None:
        """Omitted fields get the defaults the reference shows (ev_pw)."""
        event = self.add_event(cal, title="Members Only Evening")
        expected: dict[str, Any] = {
            "status": "publish",
            "author": 0,
            "timezone": "UTC",
            "timezone_abbr": "UTC",
            "all_day": False,
            "description": "",
            "excerpt": "",
            "image": "",
            "cost": "",
            "cost_details": ec.CostDetails(),
            "website": None,
            "show_map": False,
            "show_map_link": False,
            "hide_from_listings": False,
            "sticky": False,
            "featured": False,
            "categories": (),
            "tags": (),
            "venue": (),
            "organizer": (),
            "post_parent": 0,
            "password": "",
            "date": NOW,
            "modified": NOW,
        }
        assert expected == {name: getattr(event, name) for name in expected}

    def test_create_gives_new_events_increasing_ids(self, cal: ec.Calendar) -> None:
        """Each event gets a fresh id, larger than the previous one."""
        first = self.add_event(cal, title="First")
        second = self.add_event(cal, title="Second")
        assert first.id < second.id

    # == create: time zones ==================================================================
    def test_create_reads_dates_in_the_given_zone(self, cal: ec.Calendar) -> None:
        """Wall times are read in the event's zone and the UTC instants follow (ev_gala)."""
        gala = self.add_event(cal, timezone="America/New_York")
        expected = (
            "2031-06-15 19:00:00",
            "2031-06-15 23:00:00",
            "2031-06-15 23:00:00",
            "2031-06-16 03:00:00",
        )
        assert expected == span(gala)

    def test_create_gives_the_zone_abbreviation_in_effect(self, cal: ec.Calendar) -> None:
        """``timezone_abbr`` is the abbreviation at the event's start (EDT in June)."""
        gala = self.add_event(cal, timezone="America/New_York")
        assert ("America/New_York", "EDT") == (gala.timezone, gala.timezone_abbr)

    def test_create_in_paris_in_winter_is_cet(self, cal: ec.Calendar) -> None:
        """A Paris event in December is one hour ahead of UTC and abbreviated CET."""
        market = self.add_event(
            cal, start="2031-12-05 09:00", end="2031-12-05 17:00", timezone="Europe/Paris"
        )
        expected = (
            ("2031-12-05 09:00:00", "2031-12-05 17:00:00"),
            ("2031-12-05 08:00:00", "2031-12-05 16:00:00"),
            "CET",
        )
        assert expected == (span(market)[:2], span(market)[2:], market.timezone_abbr)

    def test_create_with_a_utc_offset_zone(self, cal: ec.Calendar) -> None:
        """``UTC+2`` is read as the reference reads it (ev_offset_tz): Eastern European time,
        so 09:30 on 1 August is 06:30 UTC; the label stays the name and abbreviation."""
        talk = self.add_event(
            cal, start="2031-08-01T09:30:00", end="2031-08-01T11:00:00", timezone="UTC+2"
        )
        expected = (
            "UTC+2",
            "UTC+2",
            (
                "2031-08-01 09:30:00",
                "2031-08-01 11:00:00",
                "2031-08-01 06:30:00",
                "2031-08-01 08:00:00",
            ),
        )
        assert expected == (talk.timezone, talk.timezone_abbr, span(talk))

    def test_create_stores_the_canonical_zone_name(self, cal: ec.Calendar) -> None:
        """A zone name in the wrong case is stored under its IANA spelling."""
        event = self.add_event(cal, timezone="europe/paris")
        assert "Europe/Paris" == event.timezone

    def test_create_without_zone_uses_the_calendar_zone(self, calendar_with: CalendarWith) -> None:
        """An event given no zone gets the calendar's and its dates are read there."""
        paris = calendar_with(ec.Settings(timezone="Europe/Paris"))
        event = self.add_event(paris)
        expected = (
            "Europe/Paris",
            (
                "2031-06-15 19:00:00",
                "2031-06-15 23:00:00",
                "2031-06-15 17:00:00",
                "2031-06-15 21:00:00",
            ),
        )
        assert expected == (event.timezone, span(event))

    def test_create_reads_a_date_with_an_offset_as_an_instant(self, cal: ec.Calendar) -> None:
        """A date carrying its own offset is that instant, shown on the event's clock."""
        event = self.add_event(
            cal, start="2031-06-15T19:00:00+02:00", end="2031-06-15T23:00:00+02:00"
        )
        expected = (
            "2031-06-15 17:00:00",
            "2031-06-15 21:00:00",
            "2031-06-15 17:00:00",
            "2031-06-15 21:00:00",
        )
        assert expected == span(event)

    # == create: all-day events ==============================================================
    def test_all_day_event_spans_the_whole_day(self, cal: ec.Calendar) -> None:
        """An all-day event runs 00:00:00 to 23:59:59 local (ev_allday)."""
        picnic = self.add_event(
            cal, start="2031-07-14", end="2031-07-14", timezone="Europe/Paris", all_day=True
        )
        expected = (
            "2031-07-14 00:00:00",
            "2031-07-14 23:59:59",
            "2031-07-13 22:00:00",
            "2031-07-14 21:59:59",
        )
        assert expected == span(picnic)

    def test_all_day_rounds_given_times_out_to_whole_days(self, cal: ec.Calendar) -> None:
        """Times on an all-day event widen to the start of the first and end of the last day."""
        fair = self.add_event(cal, start="2031-07-14 10:00", end="2031-07-16 12:00", all_day=True)
        expected = (
            "2031-07-14 00:00:00",
            "2031-07-16 23:59:59",
            "2031-07-14 00:00:00",
            "2031-07-16 23:59:59",
        )
        assert expected == span(fair)

    # == create: date input forms ============================================================
    @pytest.mark.parametrize(
        ("given", "expected"),
        [
            pytest.param("2031-08-01T09:30:00", "2031-08-01 09:30:00", id="iso-with-T"),
            pytest.param("2031-10-10 20:00", "2031-10-10 20:00:00", id="no-seconds"),
            pytest.param("2031/12/05", "2031-12-05 00:00:00", id="slashes"),
            pytest.param("2031/12/05 09:00:00", "2031-12-05 09:00:00", id="slashes-time"),
            pytest.param("November 3, 2031 10:00am", "2031-11-03 10:00:00", id="words"),
            pytest.param("November 3, 2031 4:00pm", "2031-11-03 16:00:00", id="words-pm"),
            pytest.param("2031-07-14", "2031-07-14 00:00:00", id="date-only"),
            pytest.param(1900000000, "2030-03-17 17:46:40", id="timestamp"),
            pytest.param("1900000000", "2030-03-17 17:46:40", id="timestamp-text"),
            pytest.param("tomorrow", "2026-11-23 00:00:00", id="tomorrow"),
            pytest.param("tomorrow 9am", "2026-11-23 09:00:00", id="tomorrow-9am"),
            pytest.param("+2 weeks", "2026-12-06 10:00:00", id="plus-2-weeks"),
            pytest.param("next monday 9am", "2026-11-23 09:00:00", id="next-monday"),
        ],
    )
    def test_create_accepts_date_form(self, cal: ec.Calendar, given: object, expected: str) -> None:
        """Every date form the reference accepts is read to the same wall time (ev_fmt_*)."""
        event = self.add_event(cal, start=given, end="2032-01-01 00:00:00")
        assert expected == wall(event.start_date)

    def test_create_reads_a_timestamp_as_an_instant(self, cal: ec.Calendar) -> None:
        """A Unix timestamp is an instant, shown on the event's own clock."""
        event = self.add_event(cal, start=1900000000, end=1900003600, timezone="Europe/Paris")
        expected = (
            "2030-03-17 18:46:40",
            "2030-03-17 19:46:40",
            "2030-03-17 17:46:40",
            "2030-03-17 18:46:40",
        )
        assert expected == span(event)

    def test_relative_dates_count_from_the_event_zone_clock(self, cal: ec.Calendar) -> None:
        """'tomorrow' is midnight of tomorrow on the event zone's clock (Tokyo is already 19:00)."""
        event = self.add_event(cal, start="tomorrow", end="tomorrow 5pm", timezone="Asia/Tokyo")
        expected = (
            "2026-11-23 00:00:00",
            "2026-11-23 17:00:00",
            "2026-11-22 15:00:00",
            "2026-11-23 08:00:00",
        )
        assert expected == span(event)
