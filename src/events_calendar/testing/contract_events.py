"""The event part of the backend contract suite.

Every test goes through the public ``Calendar`` API (``cal.events`` and the collections it links
to), so the same expectations hold whatever stores the records. Expected values come from the
interface spec, DESIGN.md and the reference recordings (``reference/replay/recordings``); the
step a test mirrors is named in its docstring where there is one (``ev_gala``, ``evlist_*`` ...).

The fixed clock stands at ``NOW`` (2026-11-22 10:00 UTC, a Sunday); the calendar's zone is UTC,
10 events per page, at most 50. Dates are compared as wall-clock text (``YYYY-MM-DD HH:MM:SS``),
the way the reference prints them, so a test fails on a wrong zone as well as on a wrong instant.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

import attrs
import pytest

import events_calendar as ec
from events_calendar.errors import (
    Forbidden,
    InTrash,
    InvalidParameter,
    MissingParameter,
    NotFound,
    NotSupported,
    PageNotFound,
    WrongKind,
)

from .base import NOW, ContractBase

__all__ = ["EventContract"]

#: The recordings' "2031-2032" window (the default window ends in 2028).
RANGE: dict[str, Any] = {"start_date": "2031-01-01", "end_date": "2032-12-31"}

CalendarWith = Callable[[ec.Settings], ec.Calendar]


def wall(dt: datetime) -> str:
    """A datetime on its own wall clock, as the reference prints it."""
    return dt.strftime("%Y-%m-%d %H:%M:%S")


def span(event: ec.Event) -> tuple[str, str, str, str]:
    """Local start, local end, UTC start, UTC end of an event."""
    return (
        wall(event.start_date),
        wall(event.end_date),
        wall(event.utc_start_date),
        wall(event.utc_end_date),
    )


def given(field: str, value: object) -> dict[str, Any]:
    """One keyword argument, for tests parametrized over the field name."""
    return {field: value}


def titles(page: ec.Page[ec.Event]) -> list[str]:
    """The titles of a page of events, in list order."""
    return [event.title for event in page.items]


def snapshot(cal: ec.Calendar) -> dict[str, tuple[Any, ...]]:
    """Everything a full-access caller can list: what a failed write must leave as it was."""
    return {
        "events": cal.events.list(starts_after="1970-01-01", per_page=50).items,
        "trash": cal.events.list(starts_after="1970-01-01", status="trash", per_page=50).items,
        "venues": cal.venues.list(per_page=50).items,
        "organizers": cal.organizers.list(per_page=50).items,
        "categories": cal.categories.list(hide_empty=False, per_page=50).items,
        "tags": cal.tags.list(hide_empty=False, per_page=50).items,
    }


class EventContract(ContractBase):
    """Events through the ``Calendar`` API: create, read, update, delete, list, bulk loads."""

    # -- helpers ----------------------------------------------------------------------------
    @staticmethod
    def add_event(
        cal: ec.Calendar,
        title: str = "Summer Gala",
        start: object = "2031-06-15 19:00:00",
        end: object = "2031-06-15 23:00:00",
        **fields: Any,
    ) -> ec.Event:
        """Create an event with sensible defaults (a June 2031 evening, UTC)."""
        return cal.events.create(title=title, start_date=start, end_date=end, **fields)

    @pytest.fixture
    def calendar_with(self, clock: ec.FixedClock) -> Iterator[CalendarWith]:
        """Calendars with other settings, on fresh backends, at the same fixed clock."""
        made: list[ec.Calendar] = []

        def make(settings: ec.Settings) -> ec.Calendar:
            calendar = ec.Calendar(self.make_backend(), settings=settings, clock=clock)
            made.append(calendar)
            return calendar

        yield make
        for calendar in made:
            calendar.close()

    # == create: required and stored fields ==================================================
    def test_create_without_fields_names_all_three_required(self, cal: ec.Calendar) -> None:
        """Creating with no fields names title, start_date and end_date (everr_empty_body)."""
        with pytest.raises(MissingParameter, match=r"title, start_date, end_date") as caught:
            cal.events.create()
        assert "rest_missing_callback_param" == caught.value.code
        assert ["title", "start_date", "end_date"] == list(caught.value.fields)

    def test_create_without_end_names_only_end_date(self, cal: ec.Calendar) -> None:
        """A missing end_date is reported alone (everr_missing_end)."""
        with pytest.raises(MissingParameter, match="end_date") as caught:
            cal.events.create(title="No End", start_date="2031-06-01 10:00:00")
        assert ["end_date"] == list(caught.value.fields)

    def test_create_with_a_none_title_reports_it_missing(self, cal: ec.Calendar) -> None:
        """``title=None`` counts as not given."""
        with pytest.raises(MissingParameter, match="title") as caught:
            cal.events.create(title=None, start_date="2031-06-01", end_date="2031-06-01")
        assert ["title"] == list(caught.value.fields)

    def test_create_with_an_unknown_field_names_it(self, cal: ec.Calendar) -> None:
        """A misspelt field is refused rather than silently dropped."""
        with pytest.raises(InvalidParameter, match="colour") as caught:
            self.add_event(cal, colour="red")
        assert ["colour"] == list(caught.value.fields)

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

    def test_anonymous_callers_may_not_create_events(self, anon: ec.Calendar) -> None:
        """Creating anonymously is refused with rest_forbidden (everr_anon)."""
        with pytest.raises(Forbidden, match="may not create") as caught:
            self.add_event(anon, title="Anon Event")
        assert "rest_forbidden" == caught.value.code
        assert 401 == caught.value.status

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

    # == create: invalid input ===============================================================
    def test_end_before_start_is_refused_naming_end_date(self, cal: ec.Calendar) -> None:
        """An end before the start is a 400 naming end_date (everr_end_before_start deviation)."""
        with pytest.raises(InvalidParameter, match="end_date") as caught:
            self.add_event(cal, title="Backwards", start="2018-06-02 10:00", end="2018-06-01 10:00")
        assert "rest_invalid_param" == caught.value.code
        assert ["end_date"] == list(caught.value.fields)

    def test_end_equal_to_start_is_accepted(self, cal: ec.Calendar) -> None:
        """An event may end the second it starts."""
        event = self.add_event(cal, start="2031-06-15 19:00", end="2031-06-15 19:00")
        assert event.start_date == event.end_date

    def test_end_before_start_compares_instants_across_zones(self, cal: ec.Calendar) -> None:
        """An end given with an offset that puts it before the start is refused."""
        with pytest.raises(InvalidParameter, match="end_date") as caught:
            self.add_event(cal, start="2031-06-15 19:00", end="2031-06-15T20:00:00+02:00")
        assert ["end_date"] == list(caught.value.fields)

    @pytest.mark.parametrize(
        ("field", "value"),
        [
            pytest.param("start_date", "not-a-date", id="start"),
            pytest.param("end_date", "2031-13-45 99:00:00", id="end"),
            pytest.param("status", "bogus", id="status"),
            pytest.param("timezone", "Mars/Olympus", id="timezone"),
            pytest.param("website", "not a url", id="website"),
            pytest.param("website", "ftp://example.org", id="website-scheme"),
            pytest.param("image", 999999, id="image-id"),
            pytest.param("image", "https://example.org/page.html", id="image-not-an-image"),
            pytest.param("image", "http://127.0.0.1:9/poster.jpg", id="image-loopback"),
            pytest.param("image", "http://localhost/poster.jpg", id="image-localhost"),
            pytest.param("image", "http://10.0.0.7/poster.jpg", id="image-private-network"),
            pytest.param("all_day", "maybe", id="all-day"),
            pytest.param("cost", True, id="cost-boolean"),
            pytest.param("author", 999999, id="author"),
            pytest.param("post_parent", 999999, id="post-parent"),
        ],
    )
    def test_invalid_value_is_refused_naming_the_field(
        self, cal: ec.Calendar, field: str, value: object
    ) -> None:
        """A bad value is a rest_invalid_param naming exactly that field (everr_*)."""
        data: dict[str, Any] = {
            "title": "Bad",
            "start_date": "2031-06-01 10:00:00",
            "end_date": "2031-06-01 11:00:00",
        }
        with pytest.raises(InvalidParameter, match=field) as caught:
            cal.events.create(**(data | {field: value}))
        assert "rest_invalid_param" == caught.value.code
        assert [field] == list(caught.value.fields)

    def test_yes_is_not_a_boolean_for_event_flags(self, cal: ec.Calendar) -> None:
        """Event flags take true/false, 1/0 and their strings only, not 'yes' (ev_bool_yes)."""
        with pytest.raises(InvalidParameter, match="featured") as caught:
            self.add_event(cal, featured="yes")
        assert ["featured"] == list(caught.value.fields)

    def test_non_boolean_flag_error_says_so(self, cal: ec.Calendar) -> None:
        """A flag that is not a boolean carries the ``invalid_boolean`` code (ev_bool_yes)."""
        with pytest.raises(InvalidParameter) as caught:
            self.add_event(cal, featured="yes")
        assert {"featured": "invalid_boolean"} == caught.value.codes

    def test_boolean_strings_are_read_as_booleans(self, cal: ec.Calendar) -> None:
        """'false', 'true', '1' and '0' are read as booleans (ev_bool_strings)."""
        event = self.add_event(
            cal,
            all_day="false",
            featured="true",
            sticky="1",
            show_map="0",
            hide_from_listings="false",
        )
        expected = (False, True, True, False, False)
        actual = (
            event.all_day,
            event.featured,
            event.sticky,
            event.show_map,
            event.hide_from_listings,
        )
        assert expected == actual

    def test_every_bad_field_is_named_at_once(self, cal: ec.Calendar) -> None:
        """Several bad fields are reported together, not one per attempt."""
        with pytest.raises(InvalidParameter) as caught:
            self.add_event(cal, status="bogus", timezone="Mars/Olympus", website="nope")
        assert {"status", "timezone", "website"} == set(caught.value.fields)

    def test_image_url_is_stored(self, cal: ec.Calendar) -> None:
        """An image given as the URL of an image file is kept as given."""
        event = self.add_event(cal, image="https://example.org/poster.jpg")
        assert "https://example.org/poster.jpg" == event.image

    @pytest.mark.parametrize(
        ("field", "value"),
        [
            pytest.param("venue", 999999, id="venue"),
            pytest.param("venue", [999999], id="venue-list"),
            pytest.param("organizer", [999999], id="organizer"),
            pytest.param("organizer", "999999", id="organizer-csv"),
            pytest.param("categories", [999999], id="categories"),
            pytest.param("tags", [999999], id="tags"),
            pytest.param("venue", {"id": 999999}, id="venue-object"),
        ],
    )
    def test_unknown_linked_id_is_refused_naming_the_field(
        self, cal: ec.Calendar, field: str, value: object
    ) -> None:
        """An id naming no record of the right kind is a 400 on that field (everr_unknown_*)."""
        with pytest.raises(InvalidParameter, match=field) as caught:
            self.add_event(cal, **given(field, value))
        assert "rest_invalid_param" == caught.value.code
        assert [field] == list(caught.value.fields)

    def test_venue_id_given_as_organizer_is_refused(self, cal: ec.Calendar) -> None:
        """A venue's id is not an organizer id, although both are posts."""
        hall = cal.venues.create(venue="Grand Hall")
        with pytest.raises(InvalidParameter, match="organizer") as caught:
            self.add_event(cal, organizer=[hall.id])
        assert ["organizer"] == list(caught.value.fields)

    def test_tag_id_given_as_category_is_refused(self, cal: ec.Calendar) -> None:
        """Category and tag ids share a sequence, so a tag's id is not a category."""
        outdoor = cal.tags.create(name="Outdoor")
        with pytest.raises(InvalidParameter, match="categories") as caught:
            self.add_event(cal, categories=[outdoor.id])
        assert ["categories"] == list(caught.value.fields)

    def test_inline_venue_without_a_name_is_refused(self, cal: ec.Calendar) -> None:
        """Inline venue data must carry the venue's name."""
        with pytest.raises(InvalidParameter, match="venue") as caught:
            self.add_event(cal, venue={"city": "Lyon"})
        assert ["venue"] == list(caught.value.fields)

    def test_category_given_as_an_object_is_refused(self, cal: ec.Calendar) -> None:
        """Malformed linked data is a 400, never a crash."""
        with pytest.raises(InvalidParameter, match="categories") as caught:
            self.add_event(cal, categories=[{"name": "Music"}])
        assert ["categories"] == list(caught.value.fields)

    # == create: categories and tags =========================================================
    def test_categories_by_id_link_those_categories(self, cal: ec.Calendar) -> None:
        """Category ids link the categories, in the order given."""
        music = cal.categories.create(name="Music")
        jazz = cal.categories.create(name="Jazz", parent=music.id)
        event = self.add_event(cal, categories=[jazz.id, music.id])
        assert (jazz.id, music.id) == event.categories

    def test_category_given_by_slug_resolves(self, cal: ec.Calendar) -> None:
        """A category slug links the existing category (ev_float_cost 'rock-roll')."""
        rock = cal.categories.create(name="Rock & Roll")
        event = self.add_event(cal, categories=["rock-roll"])
        assert ((rock.id,), 1) == (event.categories, cal.categories.list(hide_empty=False).total)

    def test_category_given_by_name_resolves(self, cal: ec.Calendar) -> None:
        """A category name links the existing category (quirk_ev_tag_slugs)."""
        classes = cal.categories.create(name="Workshops & Classes", slug="classes")
        event = self.add_event(cal, categories=["Workshops & Classes"])
        assert ((classes.id,), 1) == (event.categories, cal.categories.list(hide_empty=False).total)

    def test_unknown_category_name_creates_the_category(self, cal: ec.Calendar) -> None:
        """A category name that matches none creates it (ev_unknown_cat_name)."""
        event = self.add_event(cal, categories=["Poetry Slam"])
        (created,) = cal.categories.list(hide_empty=False).items
        expected = (("Poetry Slam", "poetry-slam", 0), (created.id,))
        assert expected == ((created.name, created.slug, created.parent), event.categories)

    def test_categories_as_csv_text_resolve_each_item(self, cal: ec.Calendar) -> None:
        """A comma-separated text of slugs and ids is read as a list."""
        music = cal.categories.create(name="Music")
        jazz = cal.categories.create(name="Jazz")
        event = self.add_event(cal, categories=f"music,{jazz.id}")
        assert (music.id, jazz.id) == event.categories

    def test_same_category_given_twice_is_linked_once(self, cal: ec.Calendar) -> None:
        """An id and the slug of the same category link it once."""
        music = cal.categories.create(name="Music")
        event = self.add_event(cal, categories=[music.id, "music", "Music"])
        assert (music.id,) == event.categories

    def test_tags_given_by_slug_and_name_resolve(self, cal: ec.Calendar) -> None:
        """Tags given by slug or name link the existing tags (quirk_ev_tag_* deviation)."""
        outdoor = cal.tags.create(name="Outdoor")
        family = cal.tags.create(name="Family Friendly", slug="family")
        event = self.add_event(cal, tags=["outdoor", "Family Friendly"])
        expected = ((outdoor.id, family.id), 2)
        assert expected == (event.tags, cal.tags.list(hide_empty=False).total)

    def test_unknown_tag_name_creates_the_tag(self, cal: ec.Calendar) -> None:
        """A tag name that matches none creates it, slugged (ev_unknown_cat_name)."""
        event = self.add_event(cal, tags=["spoken word"])
        (created,) = cal.tags.list(hide_empty=False).items
        assert (("spoken word", "spoken-word"), (created.id,)) == (
            (created.name, created.slug),
            event.tags,
        )

    # == create: venues and organizers =======================================================
    def test_venue_by_id_links_it(self, cal: ec.Calendar) -> None:
        """A venue id links that venue; a one-item list does the same (ev_venue_list)."""
        hall = cal.venues.create(venue="Grand Hall")
        by_id = self.add_event(cal, venue=hall.id)
        by_list = self.add_event(cal, venue=[hall.id])
        assert ((hall.id,), (hall.id,)) == (by_id.venue, by_list.venue)

    def test_inline_venue_creates_a_venue(self, cal: ec.Calendar) -> None:
        """Inline venue data creates the venue and links it (ev_inline_linked)."""
        event = self.add_event(
            cal, venue={"venue": "Inline Bistro", "city": "Lyon", "country": "France"}
        )
        (venue_id,) = event.venue
        bistro = cal.venues.get(venue_id)
        assert ("Inline Bistro", "Lyon", "France") == (bistro.venue, bistro.city, bistro.country)

    def test_inline_venue_reuses_a_same_named_venue(self, cal: ec.Calendar) -> None:
        """Inline data naming an existing venue (any case) links it instead of a copy."""
        hall = cal.venues.create(venue="Grand Hall")
        event = self.add_event(cal, venue={"venue": "grand hall"})
        assert ((hall.id,), 1) == (event.venue, cal.venues.list().total)

    def test_inline_organizers_and_ids_keep_their_order(self, cal: ec.Calendar) -> None:
        """Organizers given as data and ids are linked in the order given (ev_inline_linked)."""
        acme = cal.organizers.create(organizer="Acme Events")
        event = self.add_event(
            cal, organizer=[{"organizer": "Inline Chef", "email": "chef@example.com"}, acme.id]
        )
        chef_id, acme_id = event.organizer
        chef = cal.organizers.get(chef_id)
        assert (("Inline Chef", "chef@example.com"), acme.id) == (
            (chef.organizer, chef.email),
            acme_id,
        )

    def test_id_objects_link_existing_records(self, cal: ec.Calendar) -> None:
        """``{"id": n}`` objects link records like bare ids (ev_inline_existing)."""
        pleyel = cal.venues.create(venue="Salle Pleyel")
        acme = cal.organizers.create(organizer="Acme Events")
        jane = cal.organizers.create(organizer="Jane Doe")
        event = self.add_event(cal, venue={"id": pleyel.id}, organizer=[{"id": acme.id}, jane.id])
        assert ((pleyel.id,), (acme.id, jane.id)) == (event.venue, event.organizer)

    def test_single_organizer_id_is_a_list_of_one(self, cal: ec.Calendar) -> None:
        """A bare organizer id links that one organizer (ev_multiday)."""
        jane = cal.organizers.create(organizer="Jane Doe")
        event = self.add_event(cal, organizer=jane.id)
        assert (jane.id,) == event.organizer

    # == create: slugs =======================================================================
    def test_slug_is_made_from_the_title(self, cal: ec.Calendar) -> None:
        """Without a slug, the title's slug is used (ev_dup_title)."""
        assert "summer-gala" == self.add_event(cal, title="Summer Gala").slug

    def test_slug_folds_accents(self, cal: ec.Calendar) -> None:
        """Accented titles give ASCII slugs."""
        assert "fete-a-noel" == self.add_event(cal, title="Fête à Noël").slug

    def test_given_slug_is_slugified(self, cal: ec.Calendar) -> None:
        """A given slug is used, normalised like a title."""
        assert "summer-gala-2031" == self.add_event(cal, slug="Summer Gala 2031").slug

    def test_taken_slugs_get_numbered_suffixes(self, cal: ec.Calendar) -> None:
        """A taken slug gets -2, then -3."""
        slugs = [self.add_event(cal, title="Summer Gala").slug for _ in range(3)]
        assert ["summer-gala", "summer-gala-2", "summer-gala-3"] == slugs

    def test_given_slug_that_is_taken_gets_a_suffix(self, cal: ec.Calendar) -> None:
        """A given slug that another event has gets -2 (ev_slug_collision)."""
        self.add_event(cal, slug="summer-gala-2031")
        copy = self.add_event(cal, title="Gala Copy", slug="summer-gala-2031")
        assert "summer-gala-2031-2" == copy.slug

    def test_slugs_are_unique_per_kind_only(self, cal: ec.Calendar) -> None:
        """A venue's slug does not block an event of the same name."""
        cal.venues.create(venue="Grand Hall")
        assert "grand-hall" == self.add_event(cal, title="Grand Hall").slug

    # == create: cost ========================================================================
    @pytest.mark.parametrize(
        ("given", "text", "details"),
        [
            pytest.param(25, "25", ec.CostDetails(values=("25",)), id="int"),
            pytest.param(12.5, "12.5", ec.CostDetails(values=("12.5",)), id="float"),
            pytest.param(
                "$15", "$15", ec.CostDetails("$", "", "prefix", ("15",)), id="dollar-prefix"
            ),
            pytest.param("20€", "20€", ec.CostDetails("€", "", "postfix", ("20",)), id="postfix"),
            pytest.param("10 - 20", "10 - 20", ec.CostDetails(values=("10", "20")), id="range"),
            pytest.param("20-10", "20-10", ec.CostDetails(values=("10", "20")), id="sorted"),
            pytest.param("25,55", "25,55", ec.CostDetails(values=("25.55",)), id="comma"),
            pytest.param("Free", "Free", ec.CostDetails(values=("free",)), id="free"),
            pytest.param("0", "", ec.CostDetails(), id="zero-is-none"),
            pytest.param([10, "20"], "10, 20", ec.CostDetails(values=("10", "20")), id="list"),
        ],
    )
    def test_cost_is_stored_with_its_details(
        self, cal: ec.Calendar, given: object, text: str, details: ec.CostDetails
    ) -> None:
        """The cost text is stored and its details derived from it (ev_* cost steps)."""
        event = self.add_event(cal, cost=given)
        assert (text, details) == (event.cost, event.cost_details)

    def test_negative_cost_is_refused(self, cal: ec.Calendar) -> None:
        """A negative number is not a cost."""
        with pytest.raises(InvalidParameter, match="cost") as caught:
            self.add_event(cal, cost=-5)
        assert ["cost"] == list(caught.value.fields)

    # == create: publication date and status =================================================
    def test_publication_date_is_stored(self, cal: ec.Calendar) -> None:
        """A given publication date is kept, UTC alongside (ev_dated)."""
        event = self.add_event(cal, date="2021-05-05 10:00:00")
        assert ("2021-05-05 10:00:00", "2021-05-05 10:00:00") == (
            wall(event.date),
            wall(event.date_utc),
        )

    def test_publication_date_is_read_in_the_event_zone(self, cal: ec.Calendar) -> None:
        """Like start and end, ``date`` is read in the zone sent with it."""
        event = self.add_event(cal, date="2021-05-05 10:00:00", timezone="Europe/Paris")
        assert "2021-05-05 08:00:00" == wall(event.date_utc)

    def test_publication_date_utc_is_read_in_utc(self, calendar_with: CalendarWith) -> None:
        """``date_utc`` is read as UTC whatever the zones."""
        paris = calendar_with(ec.Settings(timezone="Europe/Paris"))
        event = self.add_event(paris, date_utc="2021-05-05 10:00:00")
        assert ("2021-05-05 12:00:00", "2021-05-05 10:00:00") == (
            wall(event.date),
            wall(event.date_utc),
        )

    @pytest.mark.parametrize("status", ["publish", "draft", "pending", "private", "future"])
    def test_full_access_gets_the_requested_status(self, cal: ec.Calendar, status: str) -> None:
        """A full-access caller's event gets exactly the status asked for (ev_draft ...)."""
        assert status == self.add_event(cal, status=status).status

    def test_drafts_get_a_slug(self, cal: ec.Calendar) -> None:
        """Drafts have a real slug (ev_draft deviation: the reference gives "")."""
        draft = self.add_event(cal, title="Draft Planning Meeting", status="draft")
        assert "draft-planning-meeting" == draft.slug

    # == errors change nothing ===============================================================
    def test_failed_create_with_unknown_category_changes_nothing(self, cal: ec.Calendar) -> None:
        """A refused create leaves no venue, organizer, tag or event behind."""
        self.add_event(cal, title="Existing", venue={"venue": "Grand Hall"}, tags=["Outdoor"])
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="categories"):
            self.add_event(
                cal,
                venue={"venue": "Half Hall"},
                organizer=[{"organizer": "Half Org"}],
                tags=["Half Tag"],
                categories=[999999],
            )
        assert before == snapshot(cal)

    def test_failed_create_with_end_before_start_changes_nothing(self, cal: ec.Calendar) -> None:
        """An end before the start creates neither the event nor its new links."""
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="end_date"):
            self.add_event(
                cal,
                start="2031-06-02",
                end="2031-06-01",
                venue={"venue": "Half Hall"},
                categories=["Half Category"],
                tags=["Half Tag"],
            )
        assert before == snapshot(cal)

    def test_create_refused_after_resolving_links_changes_nothing(self, cal: ec.Calendar) -> None:
        """An author who may not name another author leaves no half-made venue or category."""
        other = cal.users.create("other-author", role="author")
        author = self.as_role(cal, "author")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="author"):
            self.add_event(
                author,
                author=other.id,
                venue={"venue": "Half Hall"},
                organizer=[{"organizer": "Half Org"}],
                categories=["Half Category"],
                tags=["Half Tag"],
            )
        assert before == snapshot(cal)

    def test_failed_update_leaves_the_event_unchanged(self, cal: ec.Calendar) -> None:
        """An update with one bad field changes none of the good ones (evupd_status_bogus)."""
        event = self.add_event(cal)
        with pytest.raises(InvalidParameter, match="status"):
            cal.events.update(event.id, title="Renamed", featured=True, status="bogus")
        assert event == cal.events.get(event.id)

    def test_failed_update_with_unknown_venue_changes_nothing(self, cal: ec.Calendar) -> None:
        """An unknown venue id on update creates no category and keeps the event."""
        event = self.add_event(cal, categories=["Music"])
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="venue"):
            cal.events.update(event.id, categories=["New Category"], venue=999999)
        assert before == snapshot(cal)

    def test_update_refused_after_resolving_links_changes_nothing(self, cal: ec.Calendar) -> None:
        """An update refused mid-way leaves the event, venues and terms as they were."""
        other = cal.users.create("other-author", role="author")
        author = self.as_role(cal, "author")
        event = self.add_event(author, title="Mine")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="author"):
            author.events.update(
                event.id,
                title="Changed",
                author=other.id,
                venue={"venue": "Half Hall"},
                categories=["Half Category"],
            )
        assert before == snapshot(cal)

    def test_failed_update_with_end_before_start_changes_nothing(self, cal: ec.Calendar) -> None:
        """Moving the end before the start is refused and creates no new links."""
        event = self.add_event(cal)
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="end_date"):
            cal.events.update(
                event.id,
                end_date="2031-06-14 09:00:00",
                venue={"venue": "Half Hall"},
                tags=["Half Tag"],
            )
        assert before == snapshot(cal)

    # == update ==============================================================================
    def test_update_changes_only_the_given_field(self, cal: ec.Calendar) -> None:
        """Every field not given keeps its value (evupd_post_title, DESIGN 3)."""
        hall = cal.venues.create(venue="Grand Hall")
        jane = cal.organizers.create(organizer="Jane Doe")
        event = self.add_event(
            cal,
            title="Rock Night",
            timezone="Europe/Paris",
            cost="$15",
            website="https://rock.example.org",
            venue=hall.id,
            organizer=[jane.id],
            categories=["Rock"],
            tags=["Loud"],
            featured=True,
            sticky=True,
            show_map=True,
            show_map_link=True,
            all_day=True,
            excerpt="Guitars",
            date="2021-05-05 10:00:00",
        )
        updated = cal.events.update(event.id, title="Rock Night Deluxe")
        # ``modified`` is the one server-kept field an update moves (to now: the creation
        # took it from the publication date, as the reference does in ev_dated).
        assert attrs.evolve(event, title="Rock Night Deluxe", modified=updated.modified) == updated

    def test_update_keeps_organizers_zone_and_flags(self, cal: ec.Calendar) -> None:
        """Organizers, time zone and booleans survive an update that omits them (DESIGN 3)."""
        jane = cal.organizers.create(organizer="Jane Doe")
        event = self.add_event(
            cal,
            organizer=[jane.id],
            timezone="America/New_York",
            featured=True,
            sticky=True,
            show_map=True,
            hide_from_listings=True,
        )
        updated = cal.events.update(event.id, cost="5 - 50")
        expected = ((jane.id,), "America/New_York", True, True, True, True, span(event))
        actual = (
            updated.organizer,
            updated.timezone,
            updated.featured,
            updated.sticky,
            updated.show_map,
            updated.hide_from_listings,
            span(updated),
        )
        assert expected == actual

    def test_update_is_what_get_returns(self, cal: ec.Calendar) -> None:
        """The record an update returns is the stored one (evupd_read_after)."""
        event = self.add_event(cal)
        updated = cal.events.update(event.id, title="Renamed", tags=["New"])
        assert updated == cal.events.get(event.id)

    def test_update_sets_modified_from_the_clock(
        self, cal: ec.Calendar, clock: ec.FixedClock
    ) -> None:
        """An update stamps ``modified`` and leaves the publication date alone."""
        event = self.add_event(cal)
        clock.advance(timedelta(hours=1))
        updated = cal.events.update(event.id, title="Later")
        assert (NOW, NOW + timedelta(hours=1)) == (updated.date, updated.modified)

    def test_update_replaces_the_venue(self, cal: ec.Calendar) -> None:
        """Giving a venue replaces the linked one (evupd_put_venue)."""
        hall = cal.venues.create(venue="Grand Hall")
        pleyel = cal.venues.create(venue="Salle Pleyel")
        event = self.add_event(cal, venue=hall.id)
        assert (pleyel.id,) == cal.events.update(event.id, venue=pleyel.id).venue

    @pytest.mark.parametrize("empty", [None, 0, [], ""], ids=["none", "zero", "list", "text"])
    def test_update_clears_the_venue(self, cal: ec.Calendar, empty: object) -> None:
        """``venue`` None, 0, [] or "" removes the venue (evupd_clear_venue deviation)."""
        hall = cal.venues.create(venue="Grand Hall")
        event = self.add_event(cal, venue=hall.id)
        assert () == cal.events.update(event.id, venue=empty).venue

    def test_update_clears_organizers_with_an_empty_list(self, cal: ec.Calendar) -> None:
        """``organizer=[]`` removes every organizer (evupd_clear_org)."""
        jane = cal.organizers.create(organizer="Jane Doe")
        event = self.add_event(cal, organizer=[jane.id])
        assert () == cal.events.update(event.id, organizer=[]).organizer

    def test_update_clears_categories_and_tags(self, cal: ec.Calendar) -> None:
        """``categories=[]`` and ``tags=[]`` remove every term (evupd_clear_cats)."""
        event = self.add_event(cal, categories=["Music"], tags=["Free"])
        updated = cal.events.update(event.id, categories=[], tags=[])
        assert ((), ()) == (updated.categories, updated.tags)

    def test_update_replaces_categories(self, cal: ec.Calendar) -> None:
        """Giving categories replaces the linked ones (evupd_patch_cats)."""
        music = cal.categories.create(name="Music")
        rock = cal.categories.create(name="Rock", parent=music.id)
        event = self.add_event(cal, categories=[music.id])
        assert (rock.id, music.id) == cal.events.update(
            event.id, categories=[rock.id, music.id]
        ).categories

    def test_update_with_inline_venue_creates_it(self, cal: ec.Calendar) -> None:
        """Inline venue data on update creates and links the venue (evupd_inline_venue)."""
        event = self.add_event(cal)
        updated = cal.events.update(
            event.id, venue={"venue": "Update Inline Venue", "city": "Berlin"}
        )
        (venue_id,) = updated.venue
        venue = cal.venues.get(venue_id)
        assert ("Update Inline Venue", "Berlin") == (venue.venue, venue.city)

    def test_update_cost_recomputes_its_details(self, cal: ec.Calendar) -> None:
        """A new cost brings new details (evupd_cost_range)."""
        event = self.add_event(cal, cost="$15")
        updated = cal.events.update(event.id, cost="20-10")
        assert ("20-10", ec.CostDetails(values=("10", "20"))) == (
            updated.cost,
            updated.cost_details,
        )

    def test_update_slug_renames_and_keeps_the_old_slug(self, cal: ec.Calendar) -> None:
        """After a rename both slugs resolve to the event (evupd_slug_read_old)."""
        event = self.add_event(cal, title="New Year Concert")
        cal.events.update(event.id, slug="new-year-concert-2032")
        by_new = cal.events.get_by_slug("new-year-concert-2032")
        by_old = cal.events.get_by_slug("new-year-concert")
        assert (event.id, event.id, "new-year-concert-2032") == (by_new.id, by_old.id, by_old.slug)

    def test_update_by_slug_can_rename(self, cal: ec.Calendar) -> None:
        """A by-slug update may change the slug (evupd_slug_put_slug deviation)."""
        event = self.add_event(cal, title="New Year Concert")
        updated = cal.events.update_by_slug("new-year-concert", slug="new-year-concert-2032")
        assert (event.id, "new-year-concert-2032") == (updated.id, updated.slug)

    def test_update_by_slug_through_the_old_slug(self, cal: ec.Calendar) -> None:
        """A former slug still addresses the event for updates."""
        event = self.add_event(cal, title="New Year Concert")
        cal.events.update(event.id, slug="new-year-concert-2032")
        updated = cal.events.update_by_slug("new-year-concert", all_day=True)
        assert (event.id, True) == (updated.id, updated.all_day)

    def test_update_by_unknown_slug_names_the_slug(self, cal: ec.Calendar) -> None:
        """An unknown slug is a rest_invalid_param on slug (evupd_unknown_slug deviation)."""
        with pytest.raises(NotFound, match="no-such-event") as caught:
            cal.events.update_by_slug("no-such-event", title="Ghost")
        assert ("rest_invalid_param", ["slug"]) == (caught.value.code, list(caught.value.fields))

    def test_update_timezone_keeps_the_wall_clock(self, cal: ec.Calendar) -> None:
        """Changing only the zone keeps the local times and moves the instants."""
        event = self.add_event(cal, start="2031-10-11 20:00:00", end="2031-10-11 23:59:00")
        updated = cal.events.update(event.id, timezone="Europe/Paris")
        expected = (
            (
                "2031-10-11 20:00:00",
                "2031-10-11 23:59:00",
                "2031-10-11 18:00:00",
                "2031-10-11 21:59:00",
            ),
            "Europe/Paris",
            "CEST",
        )
        assert expected == (span(updated), updated.timezone, updated.timezone_abbr)

    def test_update_dates_with_timezone_reads_them_in_it(self, cal: ec.Calendar) -> None:
        """Dates sent with a new zone are read in that zone (evupd_patch_dates)."""
        event = self.add_event(cal, start="2031-10-10 20:00", end="2031-10-10 23:30")
        updated = cal.events.update(
            event.id,
            start_date="2031-10-11 20:00:00",
            end_date="2031-10-11 23:59:00",
            timezone="Europe/Paris",
        )
        expected = (
            "2031-10-11 20:00:00",
            "2031-10-11 23:59:00",
            "2031-10-11 18:00:00",
            "2031-10-11 21:59:00",
        )
        assert expected == span(updated)

    def test_update_dates_alone_are_read_in_the_event_zone(self, cal: ec.Calendar) -> None:
        """Dates sent without a zone are read in the event's own zone, not the calendar's."""
        event = self.add_event(cal, timezone="Europe/Paris")
        updated = cal.events.update(event.id, start_date="2031-06-15 20:00:00")
        assert ("2031-06-15 20:00:00", "2031-06-15 18:00:00") == (
            wall(updated.start_date),
            wall(updated.utc_start_date),
        )

    def test_update_start_past_the_end_names_end_date(self, cal: ec.Calendar) -> None:
        """A new start after the kept end is refused naming end_date (evupd_end_before_start)."""
        event = self.add_event(cal)
        with pytest.raises(InvalidParameter, match="end_date") as caught:
            cal.events.update(event.id, start_date="2031-06-16 10:00:00")
        assert ["end_date"] == list(caught.value.fields)

    def test_update_all_day_rounds_the_kept_times(self, cal: ec.Calendar) -> None:
        """Turning all_day on widens the stored times to whole days (evupd_slug_patch)."""
        event = self.add_event(cal, start="2032-01-01 00:30:00", end="2032-01-01 02:00:00")
        updated = cal.events.update(event.id, all_day=True)
        expected = (
            "2032-01-01 00:00:00",
            "2032-01-01 23:59:59",
            "2032-01-01 00:00:00",
            "2032-01-01 23:59:59",
        )
        assert expected == span(updated)

    def test_update_status(self, cal: ec.Calendar) -> None:
        """A full-access caller may move an event between statuses (evupd_status_*)."""
        event = self.add_event(cal, status="pending")
        assert "draft" == cal.events.update(event.id, status="draft").status

    def test_update_unknown_event_id_is_not_found(self, cal: ec.Calendar) -> None:
        """Updating an id that names nothing is a 400 on id (evupd_unknown)."""
        with pytest.raises(NotFound, match="999999") as caught:
            cal.events.update(999999, title="Ghost")
        assert ("rest_invalid_param", 400) == (caught.value.code, caught.value.status)

    def test_update_of_a_venue_id_is_the_wrong_kind(self, cal: ec.Calendar) -> None:
        """Updating a venue through events is "not an event"."""
        hall = cal.venues.create(venue="Grand Hall")
        with pytest.raises(WrongKind, match="not a valid event") as caught:
            cal.events.update(hall.id, title="Hall Event")
        assert ("rest_invalid_param", 400) == (caught.value.code, caught.value.status)

    def test_anonymous_callers_may_not_update_events(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """An anonymous update is refused and changes nothing (evupd_anon)."""
        event = self.add_event(cal)
        with pytest.raises(Forbidden) as caught:
            anon.events.update(event.id, title="Hacked")
        assert ("rest_forbidden", event) == (caught.value.code, cal.events.get(event.id))

    # == read ================================================================================
    def test_get_by_slug_finds_the_event(self, cal: ec.Calendar) -> None:
        """An event is found by its slug (evread_slug)."""
        event = self.add_event(cal, title="Bastille Day Picnic")
        assert event == cal.events.get_by_slug("bastille-day-picnic")

    def test_get_unknown_event_id_is_not_found(self, cal: ec.Calendar) -> None:
        """An id that names nothing is a 400 on id (evread_unknown)."""
        with pytest.raises(NotFound, match="Event with ID 999999 does not exist") as caught:
            cal.events.get(999999)
        assert ("rest_invalid_param", 400, ["id"]) == (
            caught.value.code,
            caught.value.status,
            list(caught.value.fields),
        )

    def test_get_of_event_id_zero_is_rest_event_not_found(self, cal: ec.Calendar) -> None:
        """Id 0, which the reference's id validation lets through, is its handler's 404."""
        with pytest.raises(NotFound, match="Event with ID 0 does not exist") as caught:
            cal.events.get(0)
        assert ("rest-event-not-found", 404) == (caught.value.code, caught.value.status)

    def test_get_unknown_slug_names_the_slug(self, cal: ec.Calendar) -> None:
        """An unknown slug is rest_invalid_param on slug (evread_unknown_slug)."""
        with pytest.raises(NotFound, match="no-such-event") as caught:
            cal.events.get_by_slug("no-such-event")
        assert ("rest_invalid_param", ["slug"]) == (caught.value.code, list(caught.value.fields))

    def test_get_of_a_venue_id_is_the_wrong_kind(self, cal: ec.Calendar) -> None:
        """A venue's id on the events collection is "not an event" (evread_venue_as_event)."""
        hall = cal.venues.create(venue="Grand Hall")
        with pytest.raises(WrongKind, match="not a valid event") as caught:
            cal.events.get(hall.id)
        assert ("rest_invalid_param", 400) == (caught.value.code, caught.value.status)

    @pytest.mark.parametrize("status", ["draft", "pending", "private", "future"])
    def test_anonymous_get_of_an_unpublished_event_is_refused(
        self, cal: ec.Calendar, anon: ec.Calendar, status: str
    ) -> None:
        """Anonymous callers may not read unpublished events (evread_draft_anon)."""
        event = self.add_event(cal, status=status)
        with pytest.raises(Forbidden, match="not accessible") as caught:
            anon.events.get(event.id)
        assert "event-not-accessible" == caught.value.code

    def test_full_access_reads_a_draft(self, cal: ec.Calendar) -> None:
        """A full-access caller reads drafts (evread_draft_admin)."""
        draft = self.add_event(cal, status="draft")
        assert draft == cal.events.get(draft.id)

    def test_hidden_event_can_still_be_read(self, cal: ec.Calendar, anon: ec.Calendar) -> None:
        """Hiding from listings does not hide the event itself."""
        market = self.add_event(cal, title="Winter Market", hide_from_listings=True)
        assert market == anon.events.get(market.id)

    # == passwords ===========================================================================
    def test_password_protected_event_is_refused_without_it(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """Reading a protected event without the password is refused (pw_read_anon deviation)."""
        event = self.add_event(cal, password="s3cret")
        with pytest.raises(Forbidden, match="password") as caught:
            anon.events.get(event.id)
        assert "event-password-protected" == caught.value.code

    def test_password_protected_event_is_refused_with_a_wrong_one(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """A wrong password is refused like none (pw_read_anon_bad deviation)."""
        event = self.add_event(cal, password="s3cret")
        with pytest.raises(Forbidden, match="password") as caught:
            anon.events.get_by_slug(event.slug, password="wrong")
        assert "event-password-protected" == caught.value.code

    def test_password_protected_event_is_read_with_it(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """The right password unlocks the event (pw_read_anon_good)."""
        event = self.add_event(cal, password="s3cret", description="Members only")
        read = anon.events.get(event.id, password="s3cret")
        assert ("Members only", False) == (read.description, read.locked)

    def test_password_is_enforced_for_administrators_too(self, cal: ec.Calendar) -> None:
        """An administrator reading without the password is refused (pw_read_admin deviation)."""
        event = self.add_event(cal, password="s3cret")
        admin = self.as_role(cal, "administrator")
        with pytest.raises(Forbidden, match="password") as caught:
            admin.events.get(event.id)
        assert "event-password-protected" == caught.value.code

    def test_password_protected_event_is_blanked_in_lists(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """Lists keep a protected event but blank its content (pw_list_anon deviation)."""
        hall = cal.venues.create(venue="Grand Hall")
        event = self.add_event(
            cal,
            title="Members Only Evening",
            password="s3cret",
            description="Secret",
            excerpt="Hush",
            cost="$30",
            venue=hall.id,
            categories=["Music"],
        )
        (listed,) = anon.events.list(**RANGE).items
        expected = ("Members Only Evening", span(event), "", "", "", "", (), (), True)
        actual = (
            listed.title,
            span(listed),
            listed.description,
            listed.excerpt,
            listed.cost,
            listed.password,
            listed.venue,
            listed.categories,
            listed.locked,
        )
        assert expected == actual

    def test_update_sets_a_password(self, cal: ec.Calendar, anon: ec.Calendar) -> None:
        """A password set by update protects the event from then on (evupd_password)."""
        event = self.add_event(cal)
        cal.events.update(event.id, password="s3cret")
        with pytest.raises(Forbidden, match="password"):
            anon.events.get(event.id)

    # == delete ==============================================================================
    def test_delete_moves_the_event_to_the_trash(self, cal: ec.Calendar) -> None:
        """Deleting trashes the event and suffixes its slug (del_ev)."""
        event = self.add_event(cal, title="Summer Gala")
        trashed = cal.events.delete(event.id)
        assert (event.id, "trash", "summer-gala__trashed") == (
            trashed.id,
            trashed.status,
            trashed.slug,
        )

    def test_full_access_reads_a_trashed_event(self, cal: ec.Calendar) -> None:
        """A trashed event is still readable with full access (del_ev_read_admin)."""
        event = self.add_event(cal, title="Summer Gala")
        trashed = cal.events.delete(event.id)
        assert trashed == cal.events.get(event.id)

    def test_anonymous_get_of_a_trashed_event_is_refused(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """Anonymous callers may not read a trashed event (del_ev_read_anon)."""
        event = self.add_event(cal)
        cal.events.delete(event.id)
        with pytest.raises(Forbidden, match="not accessible") as caught:
            anon.events.get(event.id)
        assert "event-not-accessible" == caught.value.code

    def test_delete_of_a_trashed_event_is_refused(self, cal: ec.Calendar) -> None:
        """Deleting a trashed event again is event-is-in-trash (del_ev_again)."""
        event = self.add_event(cal)
        cal.events.delete(event.id)
        with pytest.raises(InTrash, match="already in the trash") as caught:
            cal.events.delete(event.id)
        assert ("event-is-in-trash", 410, {}) == (
            caught.value.code,
            caught.value.status,
            caught.value.fields,
        )

    def test_force_delete_of_a_trashed_event_removes_it(self, cal: ec.Calendar) -> None:
        """``force=True`` removes a trashed event for good; it is then not found."""
        event = self.add_event(cal)
        cal.events.delete(event.id)
        removed = cal.events.delete(event.id, force=True)
        with pytest.raises(NotFound, match=f"Event with ID {event.id} does not exist") as caught:
            cal.events.get(event.id)
        assert (event.id, "rest_invalid_param") == (removed.id, caught.value.code)

    def test_force_delete_of_a_live_event_removes_it(self, cal: ec.Calendar) -> None:
        """``force=True`` on a live event skips the trash."""
        event = self.add_event(cal)
        removed = cal.events.delete(event.id, force=True)
        with pytest.raises(NotFound) as caught:
            cal.events.get(event.id)
        assert (event, "rest_invalid_param") == (removed, caught.value.code)

    def test_trashed_events_leave_the_default_list(self, cal: ec.Calendar) -> None:
        """Trashed events are listed only when the trash is asked for (del_ev_list_*)."""
        kept = self.add_event(cal, title="Kept")
        gone = self.add_event(cal, title="Gone")
        cal.events.delete(gone.id)
        default = cal.events.list(**RANGE)
        trash = cal.events.list(status="trash", **RANGE)
        assert ([kept.id], [gone.id]) == ([e.id for e in default], [e.id for e in trash])

    def test_trashing_frees_the_slug(self, cal: ec.Calendar) -> None:
        """A new event may take the slug of a trashed one."""
        old = self.add_event(cal, title="Summer Gala")
        cal.events.delete(old.id)
        new = self.add_event(cal, title="Summer Gala")
        assert ("summer-gala", new.id) == (new.slug, cal.events.get_by_slug("summer-gala").id)

    def test_delete_by_slug_trashes_the_event(self, cal: ec.Calendar) -> None:
        """An event can be trashed through its slug (del_ev_slug)."""
        event = self.add_event(cal, title="Gala Copy")
        trashed = cal.events.delete_by_slug("gala-copy")
        assert (event.id, "trash", "gala-copy__trashed") == (
            trashed.id,
            trashed.status,
            trashed.slug,
        )

    def test_slug_of_a_trashed_event_no_longer_resolves(self, cal: ec.Calendar) -> None:
        """After trashing, the old slug addresses nothing (del_ev_slug_again)."""
        self.add_event(cal, title="Gala Copy")
        cal.events.delete_by_slug("gala-copy")
        with pytest.raises(NotFound, match="gala-copy") as caught:
            cal.events.delete_by_slug("gala-copy")
        assert ("rest_invalid_param", ["slug"]) == (caught.value.code, list(caught.value.fields))

    def test_delete_unknown_event_id_is_not_found(self, cal: ec.Calendar) -> None:
        """Deleting an id that names nothing is a 400 on id (del_ev_unknown)."""
        with pytest.raises(NotFound) as caught:
            cal.events.delete(999999)
        assert ("rest_invalid_param", 400) == (caught.value.code, caught.value.status)

    def test_delete_of_a_venue_id_is_the_wrong_kind(self, cal: ec.Calendar) -> None:
        """Deleting a venue through events is refused as "not an event" and keeps it."""
        hall = cal.venues.create(venue="Grand Hall")
        with pytest.raises(WrongKind) as caught:
            cal.events.delete(hall.id)
        assert ("rest_invalid_param", hall) == (caught.value.code, cal.venues.get(hall.id))

    def test_anonymous_callers_may_not_delete_events(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """An anonymous delete is refused and the event stays (del_ev_anon)."""
        event = self.add_event(cal)
        with pytest.raises(Forbidden) as caught:
            anon.events.delete(event.id)
        assert ("rest_forbidden", 401, event) == (
            caught.value.code,
            caught.value.status,
            cal.events.get(event.id),
        )

    # == list: date windows ==================================================================
    def test_default_window_runs_from_yesterday_to_24_months_ahead(self, cal: ec.Calendar) -> None:
        """Without dates the list holds events within [yesterday 00:00, +24 months 23:59:59]."""
        self.add_event(cal, "Before", "2026-11-20 23:00:00", "2026-11-20 23:30:00")
        self.add_event(cal, "Ongoing", "2026-11-12 09:00:00", "2026-12-02 17:00:00")
        self.add_event(cal, "First In", "2026-11-21 00:00:00", "2026-11-21 01:00:00")
        self.add_event(cal, "Last In", "2028-11-22 22:00:00", "2028-11-22 23:59:59")
        self.add_event(cal, "After", "2028-11-22 23:00:00", "2028-11-23 00:00:00")
        assert ["First In", "Last In"] == titles(cal.events.list())

    def test_start_date_only_keeps_the_default_end(self, cal: ec.Calendar) -> None:
        """A start_date alone still ends the window 24 months ahead (evlist_start_only)."""
        self.add_event(cal, "In 2027", "2027-06-01 10:00", "2027-06-01 11:00")
        self.add_event(cal, "In 2031", "2031-06-01 10:00", "2031-06-01 11:00")
        assert ["In 2027"] == titles(cal.events.list(start_date="2026-01-01"))

    def test_end_date_only_keeps_the_default_start(self, cal: ec.Calendar) -> None:
        """An end_date alone still starts the window yesterday (evlist_end_only)."""
        self.add_event(cal, "Past", "2020-03-05 18:00", "2020-03-05 20:00")
        self.add_event(cal, "Soon", "2026-11-27 18:00", "2026-11-27 20:00")
        assert ["Soon"] == titles(cal.events.list(end_date="2031-01-01"))

    def test_start_and_end_select_contained_events(self, cal: ec.Calendar) -> None:
        """start_date and end_date keep events wholly inside them (evlist_contained_*)."""
        self.add_event(cal, "Jazz Festival", "2031-09-05 12:00:00", "2031-09-07 22:00:00")
        outside = cal.events.list(start_date="2031-09-01", end_date="2031-09-06")
        inside = cal.events.list(start_date="2031-09-05", end_date="2031-09-07")
        assert ([], ["Jazz Festival"]) == (titles(outside), titles(inside))

    def test_date_bounds_widen_to_whole_days(self, cal: ec.Calendar) -> None:
        """Without strict_dates, bounds cover whole days (evlist_day_nonstrict)."""
        self.add_event(cal, "Gala", "2031-06-15 19:00:00", "2031-06-15 23:00:00")
        page = cal.events.list(start_date="2031-06-15 20:00:00", end_date="2031-06-15 21:00:00")
        assert ["Gala"] == titles(page)

    def test_strict_dates_use_the_exact_times(self, cal: ec.Calendar) -> None:
        """With strict_dates the bounds apply to the second (evlist_day_strict)."""
        self.add_event(cal, "Gala", "2031-06-15 19:00:00", "2031-06-15 23:00:00")
        page = cal.events.list(
            start_date="2031-06-15 20:00:00", end_date="2031-06-15 21:00:00", strict_dates=True
        )
        assert [] == titles(page)

    def test_strict_bounds_are_inclusive(self, cal: ec.Calendar) -> None:
        """Strict start_date and end_date include events exactly on them."""
        self.add_event(cal, "Gala", "2031-06-15 19:00:00", "2031-06-15 23:00:00")
        page = cal.events.list(
            start_date="2031-06-15 19:00:00", end_date="2031-06-15 23:00:00", strict_dates="true"
        )
        assert ["Gala"] == titles(page)

    def test_strict_dates_false_text_rounds_to_days(self, cal: ec.Calendar) -> None:
        """``strict_dates='false'`` keeps whole-day rounding (evlist_strict_false)."""
        self.add_event(cal, "Gala", "2031-06-15 19:00:00", "2031-06-15 23:00:00")
        page = cal.events.list(
            start_date="2031-06-15 20:00", end_date="2031-06-15 21:00", strict_dates="false"
        )
        assert ["Gala"] == titles(page)

    def test_naive_bounds_are_read_in_the_calendar_zone(self, calendar_with: CalendarWith) -> None:
        """A date bound without a zone is a day on the calendar's clock."""
        paris = calendar_with(ec.Settings(timezone="Europe/Paris"))
        self.add_event(paris, "Late", "2031-06-15 00:30", "2031-06-15 01:30")
        page = paris.events.list(start_date="2031-06-15", end_date="2031-06-15")
        assert ["Late"] == titles(page)

    def test_starts_before_rounds_to_the_end_of_its_day(self, cal: ec.Calendar) -> None:
        """starts_before=D means before the end of D without strict_dates (evlist_starts_before)."""
        self.add_event(cal, "Gala", "2031-06-15 19:00:00", "2031-06-15 23:00:00")
        self.add_event(cal, "Next Day", "2031-06-16 09:00:00", "2031-06-16 10:00:00")
        assert ["Gala"] == titles(cal.events.list(starts_before="2031-06-15 08:00:00"))

    def test_starts_before_is_strict(self, cal: ec.Calendar) -> None:
        """An event starting exactly at a strict starts_before bound is left out."""
        self.add_event(cal, "Gala", "2031-06-15 19:00:00", "2031-06-15 23:00:00")
        self.add_event(cal, "Earlier", "2031-06-15 18:59:59", "2031-06-15 23:00:00")
        page = cal.events.list(starts_before="2031-06-15 19:00:00", strict_dates=True)
        assert ["Earlier"] == titles(page)

    def test_starts_after_rounds_to_the_end_of_its_day(self, cal: ec.Calendar) -> None:
        """starts_after=D means after the end of D (evlist_starts_after)."""
        self.add_event(cal, "Same Day", "2031-12-31 20:00", "2031-12-31 21:00")
        self.add_event(cal, "New Year", "2032-01-01 00:30", "2032-01-01 02:00")
        assert ["New Year"] == titles(cal.events.list(starts_after="2031-12-31 00:00:00"))

    def test_starts_after_is_strict(self, cal: ec.Calendar) -> None:
        """An event starting exactly at a strict starts_after bound is left out."""
        self.add_event(cal, "At", "2031-06-15 19:00:00", "2031-06-15 23:00:00")
        self.add_event(cal, "After", "2031-06-15 19:00:01", "2031-06-15 23:00:00")
        page = cal.events.list(starts_after="2031-06-15 19:00:00", strict_dates=True)
        assert ["After"] == titles(page)

    def test_ends_before_rounds_to_the_end_of_its_day(self, cal: ec.Calendar) -> None:
        """ends_before=D means ending before the end of D (evlist_ends_before)."""
        self.add_event(cal, "Talk", "2031-08-01 09:30", "2031-08-01 11:00")
        self.add_event(cal, "Late", "2031-08-01 22:00", "2031-08-02 01:00")
        page = cal.events.list(ends_before="2031-08-01 08:00:00", start_date="2031-01-01")
        assert ["Talk"] == titles(page)

    def test_ends_after_rounds_to_the_end_of_its_day(self, cal: ec.Calendar) -> None:
        """ends_after=D means ending after the end of D (evlist_ends_after)."""
        self.add_event(cal, "Same Day", "2032-02-01 10:00", "2032-02-01 23:00")
        self.add_event(cal, "Overnight", "2032-02-01 22:00", "2032-02-02 01:00")
        assert ["Overnight"] == titles(cal.events.list(ends_after="2032-02-01 00:00:00"))

    def test_ends_before_is_strict(self, cal: ec.Calendar) -> None:
        """An event ending exactly at a strict ends_before bound is left out."""
        self.add_event(cal, "At", "2031-06-15 19:00:00", "2031-06-15 23:00:00")
        self.add_event(cal, "Before", "2031-06-15 19:00:00", "2031-06-15 22:59:59")
        page = cal.events.list(ends_before="2031-06-15 23:00:00", strict_dates=True)
        assert ["Before"] == titles(page)

    def test_relative_bounds_alone_drop_the_default_window(self, cal: ec.Calendar) -> None:
        """With only relative bounds, events outside the default window are listed."""
        self.add_event(cal, "Past", "2020-03-05 18:00", "2020-03-05 20:00")
        self.add_event(cal, "Far", "2032-03-02 19:00", "2032-03-02 21:00")
        assert ["Past", "Far"] == titles(cal.events.list(starts_after="2019-01-01"))

    def test_relative_bound_with_start_date_drops_the_default_end(self, cal: ec.Calendar) -> None:
        """With a relative bound, a given start_date is not capped by the default end."""
        self.add_event(cal, "Gala", "2031-06-15 19:00", "2031-06-15 23:00")
        self.add_event(cal, "Later", "2031-07-14 10:00", "2031-07-14 11:00")
        page = cal.events.list(start_date="2031-01-01", starts_before="2031-07-01 00:00:00")
        assert ["Gala"] == titles(page)

    def test_relative_bounds_combine(self, cal: ec.Calendar) -> None:
        """starts_after and ends_before together keep events inside both (evlist_window_combo)."""
        self.add_event(cal, "May", "2031-05-30 10:00", "2031-05-30 11:00")
        self.add_event(cal, "June", "2031-06-15 19:00", "2031-06-15 23:00")
        self.add_event(cal, "Across", "2031-09-29 10:00", "2031-10-01 11:00")
        page = cal.events.list(starts_after="2031-06-01", ends_before="2031-09-30")
        assert ["June"] == titles(page)

    def test_end_date_before_start_date_gives_an_empty_page(self, cal: ec.Calendar) -> None:
        """Crossed bounds are not an error, just an empty list (evlist_end_before_start)."""
        self.add_event(cal)
        page = cal.events.list(start_date="2032-01-01", end_date="2031-01-01")
        assert ec.Page(items=(), total=0, page=1, per_page=10) == page

    @pytest.mark.parametrize(
        "field", ["start_date", "end_date", "starts_before", "starts_after", "ends_before"]
    )
    def test_unreadable_bound_is_refused_naming_it(self, cal: ec.Calendar, field: str) -> None:
        """A bound that is not a date is rest_invalid_param on that parameter (evlist_bad_*)."""
        with pytest.raises(InvalidParameter, match=field) as caught:
            cal.events.list(**given(field, "not-a-date"))
        assert ("rest_invalid_param", [field]) == (caught.value.code, list(caught.value.fields))

    def test_empty_strict_dates_is_refused(self, cal: ec.Calendar) -> None:
        """An empty strict_dates fails validation, as in the reference."""
        with pytest.raises(InvalidParameter, match="strict_dates") as caught:
            cal.events.list(strict_dates="")
        assert ["strict_dates"] == list(caught.value.fields)

    # == list: paging ========================================================================
    def add_month_of_events(self, cal: ec.Calendar, count: int) -> list[ec.Event]:
        """``count`` events on consecutive days of 2031, in start order."""
        return [
            self.add_event(cal, f"Day {n:02d}", f"2031-03-{n:02d} 10:00", f"2031-03-{n:02d} 11:00")
            for n in range(1, count + 1)
        ]

    def test_first_page_has_the_default_size(self, cal: ec.Calendar) -> None:
        """Page 1 of 12 events holds 10, with the totals (evlist_pp2_p1)."""
        events = self.add_month_of_events(cal, 12)
        page = cal.events.list(**RANGE)
        assert (tuple(events[:10]), 12, 2, 1, 10) == (
            page.items,
            page.total,
            page.total_pages,
            page.page,
            page.per_page,
        )

    def test_last_page_holds_the_rest(self, cal: ec.Calendar) -> None:
        """The last page holds what is left (evlist_pp2_last)."""
        events = self.add_month_of_events(cal, 12)
        page = cal.events.list(page=3, per_page=5, **RANGE)
        assert (tuple(events[10:]), 12, 3, 3, 5) == (
            page.items,
            page.total,
            page.total_pages,
            page.page,
            page.per_page,
        )

    def test_paging_text_values_are_read_as_numbers(self, cal: ec.Calendar) -> None:
        """page and per_page may be sent as text, as HTTP clients do."""
        events = self.add_month_of_events(cal, 5)
        page = cal.events.list(page="2", per_page="2", **RANGE)
        assert (tuple(events[2:4]), 2, 2) == (page.items, page.page, page.per_page)

    @pytest.mark.parametrize("per_page", [51, 1000, "500"])
    def test_per_page_is_clamped_to_the_maximum(self, cal: ec.Calendar, per_page: object) -> None:
        """A per_page above 50 is quietly lowered to 50 (evlist_pp_max, evlist_pp_huge)."""
        self.add_month_of_events(cal, 3)
        page = cal.events.list(per_page=per_page, **RANGE)
        assert (50, 3, 1) == (page.per_page, page.total, page.total_pages)

    def test_per_page_default_follows_the_settings(self, calendar_with: CalendarWith) -> None:
        """The default page size is the calendar's setting (the spec's "10 or 4")."""
        small = calendar_with(ec.Settings(per_page=4))
        self.add_month_of_events(small, 5)
        page = small.events.list(**RANGE)
        assert (4, 4, 2) == (len(page.items), page.per_page, page.total_pages)

    @pytest.mark.parametrize("page", [0, -1, "abc", "1.5", ""])
    def test_invalid_page_is_refused(self, cal: ec.Calendar, page: object) -> None:
        """page must be a positive whole number (evlist_page_zero, evlist_page_nonnum)."""
        with pytest.raises(InvalidParameter, match="page") as caught:
            cal.events.list(page=page, **RANGE)
        assert ("rest_invalid_param", ["page"]) == (caught.value.code, list(caught.value.fields))

    @pytest.mark.parametrize("per_page", [0, -3, "lots"])
    def test_invalid_per_page_is_refused(self, cal: ec.Calendar, per_page: object) -> None:
        """per_page must be a positive whole number (evlist_pp_zero, _negative, _nonnum)."""
        with pytest.raises(InvalidParameter, match="per_page") as caught:
            cal.events.list(per_page=per_page, **RANGE)
        assert ("rest_invalid_param", ["per_page"]) == (
            caught.value.code,
            list(caught.value.fields),
        )

    def test_page_past_the_end_is_not_found(self, cal: ec.Calendar) -> None:
        """A page after the last is event-archive-page-not-found (evlist_page_beyond)."""
        self.add_month_of_events(cal, 3)
        with pytest.raises(PageNotFound, match="page does not exist") as caught:
            cal.events.list(page=99, per_page=5, **RANGE)
        assert ("event-archive-page-not-found", 404) == (caught.value.code, caught.value.status)

    def test_second_page_of_an_empty_list_is_not_found(self, cal: ec.Calendar) -> None:
        """Any page after the first of an empty list is past the end."""
        with pytest.raises(PageNotFound) as caught:
            cal.events.list(page=2)
        assert "event-archive-page-not-found" == caught.value.code

    def test_first_page_of_an_empty_list_is_an_empty_page(self, cal: ec.Calendar) -> None:
        """Page 1 with no match is an empty page, not an error (empty_events)."""
        assert ec.Page(items=(), total=0, page=1, per_page=10) == cal.events.list()

    def test_empty_page_has_no_pages(self, cal: ec.Calendar) -> None:
        """An empty list has total_pages 0."""
        assert 0 == cal.events.list().total_pages

    # == list: search ========================================================================
    def test_search_matches_titles_in_any_case(self, cal: ec.Calendar) -> None:
        """Search is a case-insensitive substring of the title (evlist_search_title)."""
        self.add_event(cal, "Summer Gala", "2031-06-15 19:00", "2031-06-15 23:00")
        self.add_event(cal, "Jazz Night", "2031-06-16 19:00", "2031-06-16 23:00")
        self.add_event(cal, "Gala Copy", "2031-06-17 19:00", "2031-06-17 23:00")
        assert ["Summer Gala", "Gala Copy"] == titles(cal.events.list(search="GAL", **RANGE))

    def test_search_matches_descriptions(self, cal: ec.Calendar) -> None:
        """Search looks in the description (evlist_search_desc)."""
        self.add_event(cal, "Bastille Day Picnic", description="Picnic by the river")
        self.add_event(cal, "Jazz Night", description="Swing")
        assert ["Bastille Day Picnic"] == titles(cal.events.list(search="river", **RANGE))

    def test_search_matches_excerpts(self, cal: ec.Calendar) -> None:
        """Search looks in the excerpt."""
        self.add_event(cal, "Summer Gala", excerpt="Annual gala")
        self.add_event(cal, "Jazz Night")
        assert ["Summer Gala"] == titles(cal.events.list(search="annual", **RANGE))

    def test_search_needs_every_word(self, cal: ec.Calendar) -> None:
        """Every word must occur, in any of the searched fields."""
        self.add_event(cal, "Bastille Day", "2031-07-14 10:00", "2031-07-14 12:00", excerpt="river")
        self.add_event(cal, "Bastille Night", "2031-07-14 20:00", "2031-07-14 23:00")
        assert ["Bastille Day"] == titles(cal.events.list(search="bastille RIVER", **RANGE))

    def test_search_words_may_be_separated_by_commas_and_plus_signs(self, cal: ec.Calendar) -> None:
        """Commas and plus signs separate search words, as spaces do."""
        self.add_event(cal, "Bastille Day", "2031-07-14 10:00", "2031-07-14 12:00", excerpt="river")
        self.add_event(cal, "Bastille Night", "2031-07-14 20:00", "2031-07-14 23:00")
        assert ["Bastille Day"] == titles(cal.events.list(search="bastille,river+day", **RANGE))

    def test_search_quoted_phrase_must_occur_as_written(self, cal: ec.Calendar) -> None:
        """A quoted phrase is one term, not two words."""
        self.add_event(cal, "Summer Gala", "2031-06-15 19:00", "2031-06-15 23:00")
        self.add_event(cal, "Gala of the Summer", "2031-06-16 19:00", "2031-06-16 23:00")
        assert ["Summer Gala"] == titles(cal.events.list(search='"summer gala"', **RANGE))

    def test_search_ignores_stopwords_and_single_letters(self, cal: ec.Calendar) -> None:
        """ "the" and "a" do not have to occur, as in WordPress's search."""
        self.add_event(cal, "Gala", "2031-06-15 19:00", "2031-06-15 23:00")
        assert ["Gala"] == titles(cal.events.list(search="the gala a", **RANGE))

    def test_event_search_without_match_is_empty(self, cal: ec.Calendar) -> None:
        """A search matching nothing gives an empty page (evlist_search_none)."""
        self.add_event(cal)
        assert [] == titles(cal.events.list(search="zzzz-no-match", **RANGE))

    def test_blank_search_is_refused(self, cal: ec.Calendar) -> None:
        """An empty search text fails validation."""
        with pytest.raises(InvalidParameter, match="search") as caught:
            cal.events.list(search="  ")
        assert ["search"] == list(caught.value.fields)

    # == list: categories and tags ===========================================================
    def add_term_events(self, cal: ec.Calendar) -> dict[str, int]:
        """Categories Music > Jazz, Sports, Workshops, tags Outdoor, Family, and five events."""
        music = cal.categories.create(name="Music")
        jazz = cal.categories.create(name="Jazz", parent=music.id)
        sports = cal.categories.create(name="Sports", slug="sport-events")
        workshops = cal.categories.create(name="Workshops")
        outdoor = cal.tags.create(name="Outdoor")
        family = cal.tags.create(name="Family Friendly", slug="family")
        self.add_event(cal, "Gala", "2031-06-15 19:00", "2031-06-15 23:00", categories=[music.id])
        self.add_event(
            cal, "Picnic", "2031-07-14 10:00", "2031-07-14 16:00",
            categories=[sports.id], tags=[outdoor.id, family.id],
        )  # fmt: skip
        self.add_event(
            cal, "Festival", "2031-09-05 12:00", "2031-09-07 22:00",
            categories=[jazz.id], tags=[family.id],
        )  # fmt: skip
        self.add_event(
            cal, "Workshop", "2031-11-03 10:00", "2031-11-03 16:00",
            categories=[workshops.id], tags=[outdoor.id],
        )  # fmt: skip
        self.add_event(cal, "Plain", "2031-12-01 10:00", "2031-12-01 11:00")
        return {
            "music": music.id,
            "jazz": jazz.id,
            "sports": sports.id,
            "workshops": workshops.id,
            "outdoor": outdoor.id,
            "family": family.id,
        }

    def test_category_id_includes_child_categories(self, cal: ec.Calendar) -> None:
        """A category filter also matches its sub-categories (evlist_cat_id)."""
        ids = self.add_term_events(cal)
        assert ["Gala", "Festival"] == titles(cal.events.list(categories=ids["music"], **RANGE))

    def test_category_slug_filters(self, cal: ec.Calendar) -> None:
        """A category slug filters like its id (evlist_cat_slug)."""
        self.add_term_events(cal)
        assert ["Festival"] == titles(cal.events.list(categories="jazz", **RANGE))

    def test_category_list_of_id_and_slug_is_any_of(self, cal: ec.Calendar) -> None:
        """Several categories match events in any of them (evlist_cat_multi)."""
        ids = self.add_term_events(cal)
        page = cal.events.list(categories=[ids["jazz"], "sport-events"], **RANGE)
        assert ["Picnic", "Festival"] == titles(page)

    def test_category_csv_is_any_of(self, cal: ec.Calendar) -> None:
        """A CSV text of category ids is read as a list (evlist_cat_csv)."""
        ids = self.add_term_events(cal)
        page = cal.events.list(categories=f"{ids['workshops']},{ids['jazz']}", **RANGE)
        assert ["Festival", "Workshop"] == titles(page)

    @pytest.mark.parametrize("value", ["no-such-category", "999999"])
    def test_unknown_category_filter_is_refused(self, cal: ec.Calendar, value: str) -> None:
        """An unknown category slug or id is rest_invalid_param (evlist_cat_unknown*)."""
        self.add_term_events(cal)
        with pytest.raises(InvalidParameter, match="categories") as caught:
            cal.events.list(categories=value, **RANGE)
        assert ["categories"] == list(caught.value.fields)

    def test_tag_id_filters(self, cal: ec.Calendar) -> None:
        """A tag id keeps the events with that tag (evlist_tag_id)."""
        ids = self.add_term_events(cal)
        assert ["Picnic", "Workshop"] == titles(cal.events.list(tags=ids["outdoor"], **RANGE))

    def test_tag_slug_filters(self, cal: ec.Calendar) -> None:
        """A tag slug filters like its id (evlist_tag_slug)."""
        self.add_term_events(cal)
        assert ["Picnic", "Festival"] == titles(cal.events.list(tags="family", **RANGE))

    def test_several_tags_match_any_of_them(self, cal: ec.Calendar) -> None:
        """Several tags match events with any of them (DESIGN 3: not only the first)."""
        ids = self.add_term_events(cal)
        page = cal.events.list(tags=["family", ids["outdoor"]], **RANGE)
        assert ["Picnic", "Festival", "Workshop"] == titles(page)

    def test_unknown_tag_filter_is_refused(self, cal: ec.Calendar) -> None:
        """An unknown tag is rest_invalid_param on tags (evlist_tag_unknown)."""
        self.add_term_events(cal)
        with pytest.raises(InvalidParameter, match="tags") as caught:
            cal.events.list(tags="nope-tag", **RANGE)
        assert ["tags"] == list(caught.value.fields)

    # == list: venues, organizers, flags =====================================================
    def add_linked_events(self, cal: ec.Calendar) -> dict[str, int]:
        """Two venues and two organizers, linked to four events in different combinations."""
        hall = cal.venues.create(venue="Grand Hall")
        pleyel = cal.venues.create(venue="Salle Pleyel")
        acme = cal.organizers.create(organizer="Acme Events")
        jane = cal.organizers.create(organizer="Jane Doe")
        self.add_event(
            cal, "Gala", "2031-06-15 19:00", "2031-06-15 23:00",
            venue=hall.id, organizer=[acme.id, jane.id], featured=True, categories=["Music"],
        )  # fmt: skip
        self.add_event(
            cal, "Picnic", "2031-07-14 10:00", "2031-07-14 16:00",
            venue=pleyel.id, categories=["Music"],
        )  # fmt: skip
        self.add_event(
            cal, "Festival", "2031-09-05 12:00", "2031-09-07 22:00",
            venue=hall.id, organizer=[jane.id], categories=["Jazz"], featured=True,
        )  # fmt: skip
        self.add_event(cal, "Quiz", "2031-10-10 20:00", "2031-10-10 23:00", organizer=[acme.id])
        return {"hall": hall.id, "pleyel": pleyel.id, "acme": acme.id, "jane": jane.id}

    def test_venue_filters(self, cal: ec.Calendar) -> None:
        """A venue id keeps that venue's events (evlist_venue)."""
        ids = self.add_linked_events(cal)
        assert ["Gala", "Festival"] == titles(cal.events.list(venue=ids["hall"], **RANGE))

    def test_venue_list_is_any_of(self, cal: ec.Calendar) -> None:
        """Several venues match events at any of them (evlist_venue_multi)."""
        ids = self.add_linked_events(cal)
        page = cal.events.list(venue=[ids["hall"], ids["pleyel"]], **RANGE)
        assert ["Gala", "Picnic", "Festival"] == titles(page)

    def test_venue_csv_is_any_of(self, cal: ec.Calendar) -> None:
        """A CSV text of venue ids is read as a list (DESIGN 3)."""
        ids = self.add_linked_events(cal)
        page = cal.events.list(venue=f"{ids['pleyel']},{ids['hall']}", **RANGE)
        assert ["Gala", "Picnic", "Festival"] == titles(page)

    def test_organizer_filters(self, cal: ec.Calendar) -> None:
        """An organizer id keeps that organizer's events (evlist_organizer)."""
        ids = self.add_linked_events(cal)
        assert ["Gala", "Festival"] == titles(cal.events.list(organizer=ids["jane"], **RANGE))

    def test_organizer_csv_is_any_of(self, cal: ec.Calendar) -> None:
        """A CSV text of organizer ids matches events with any of them (DESIGN 3)."""
        ids = self.add_linked_events(cal)
        page = cal.events.list(organizer=f"{ids['acme']},{ids['jane']}", **RANGE)
        assert ["Gala", "Festival", "Quiz"] == titles(page)

    @pytest.mark.parametrize("field", ["venue", "organizer"])
    def test_unknown_venue_or_organizer_filter_is_refused(
        self, cal: ec.Calendar, field: str
    ) -> None:
        """An id that is no venue (organizer) is rest_invalid_param on that filter."""
        self.add_linked_events(cal)
        with pytest.raises(InvalidParameter, match=field) as caught:
            cal.events.list(**given(field, 999999), **RANGE)
        assert [field] == list(caught.value.fields)

    def test_filters_combine_with_and(self, cal: ec.Calendar) -> None:
        """Category, venue and featured must all hold (evlist_combined)."""
        ids = self.add_linked_events(cal)
        page = cal.events.list(
            categories="music", venue=ids["hall"], featured=True, organizer=ids["acme"], **RANGE
        )
        assert ["Gala"] == titles(page)

    def test_featured_true_keeps_featured_events(self, cal: ec.Calendar) -> None:
        """featured=true keeps featured events only (evlist_featured_true)."""
        self.add_linked_events(cal)
        assert ["Gala", "Festival"] == titles(cal.events.list(featured="true", **RANGE))

    def test_featured_false_keeps_the_others(self, cal: ec.Calendar) -> None:
        """featured=false keeps events not featured (evlist_featured_false)."""
        self.add_linked_events(cal)
        assert ["Picnic", "Quiz"] == titles(cal.events.list(featured=False, **RANGE))

    def test_hidden_events_are_left_out_of_lists(self, cal: ec.Calendar) -> None:
        """Events hidden from listings never appear in lists (ev_fmt_slashes)."""
        self.add_event(cal, "Winter Market", hide_from_listings=True)
        self.add_event(cal, "Shown")
        assert ["Shown"] == titles(cal.events.list(**RANGE))

    def test_post_parent_keeps_the_children(self, cal: ec.Calendar) -> None:
        """post_parent keeps the children of that event, not the event itself."""
        parent = self.add_event(cal, "Festival", "2031-09-05 12:00", "2031-09-07 22:00")
        self.add_event(
            cal, "Opening", "2031-09-05 12:00", "2031-09-05 13:00", post_parent=parent.id
        )
        self.add_event(cal, "Other", "2031-09-06 12:00", "2031-09-06 13:00")
        assert ["Opening"] == titles(cal.events.list(post_parent=parent.id, **RANGE))

    @pytest.mark.parametrize("value", [0, 999999, "abc"])
    def test_bad_post_parent_is_refused(self, cal: ec.Calendar, value: object) -> None:
        """post_parent must name an event (evlist_post_parent_zero)."""
        with pytest.raises(InvalidParameter, match="post_parent") as caught:
            cal.events.list(post_parent=value, **RANGE)
        assert ["post_parent"] == list(caught.value.fields)

    # == list: statuses ======================================================================
    def add_status_events(self, cal: ec.Calendar) -> None:
        """One event in each status, the trashed one deleted."""
        for day, status in enumerate(["publish", "draft", "pending", "private", "future"], 1):
            self.add_event(
                cal, status.title(), f"2031-06-{day:02d} 10:00", f"2031-06-{day:02d} 11:00",
                status=status,
            )  # fmt: skip
        trashed = self.add_event(cal, "Trash", "2031-06-06 10:00", "2031-06-06 11:00")
        cal.events.delete(trashed.id)

    def test_full_access_lists_every_status_but_trash(self, cal: ec.Calendar) -> None:
        """Without a status filter, full access sees all but the trash (evlist_range_admin)."""
        self.add_status_events(cal)
        expected = ["Publish", "Draft", "Pending", "Private", "Future"]
        assert expected == titles(cal.events.list(**RANGE))

    def test_anonymous_lists_published_events_only(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """Anonymous callers see only published events (evlist_range)."""
        self.add_status_events(cal)
        assert ["Publish"] == titles(anon.events.list(**RANGE))

    def test_status_filter_keeps_that_status(self, cal: ec.Calendar) -> None:
        """status=draft keeps drafts only (evlist_status_draft_admin)."""
        self.add_status_events(cal)
        assert ["Draft"] == titles(cal.events.list(status="draft", **RANGE))

    def test_status_csv_keeps_each_status(self, cal: ec.Calendar) -> None:
        """A CSV of statuses keeps each of them (evlist_status_multi_admin)."""
        self.add_status_events(cal)
        assert ["Publish", "Draft"] == titles(cal.events.list(status="draft,publish", **RANGE))

    def test_anonymous_may_ask_for_published_events(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """status=publish is allowed anonymously."""
        self.add_status_events(cal)
        assert ["Publish"] == titles(anon.events.list(status="publish", **RANGE))

    def test_anonymous_may_not_ask_for_drafts(self, cal: ec.Calendar, anon: ec.Calendar) -> None:
        """Asking for drafts anonymously is rest_invalid_param (evlist_status_draft_anon)."""
        self.add_status_events(cal)
        with pytest.raises(InvalidParameter, match="status") as caught:
            anon.events.list(status="draft", **RANGE)
        assert ("rest_invalid_param", ["status"]) == (caught.value.code, list(caught.value.fields))

    def test_unknown_status_filter_is_refused(self, cal: ec.Calendar) -> None:
        """An unknown status is rest_invalid_param (evlist_status_bogus)."""
        with pytest.raises(InvalidParameter, match="status") as caught:
            cal.events.list(status="bogus", **RANGE)
        assert ["status"] == list(caught.value.fields)

    # == list: include =======================================================================
    def test_include_ignores_date_filters(self, cal: ec.Calendar) -> None:
        """include lists the given events whatever the dates (evlist_include_dates_ignored)."""
        past = self.add_event(cal, "Retro Meetup", "2020-03-05 18:00", "2020-03-05 20:00")
        self.add_event(cal, "Gala")
        page = cal.events.list(include=[past.id], start_date="2031-01-01", end_date="2031-12-31")
        assert ["Retro Meetup"] == titles(page)

    def test_include_escapes_the_default_window(self, cal: ec.Calendar) -> None:
        """include without dates is not limited by the default window (evlist_include_csv)."""
        past = self.add_event(cal, "Retro Meetup", "2020-03-05 18:00", "2020-03-05 20:00")
        far = self.add_event(cal, "Gala", "2031-06-15 19:00", "2031-06-15 23:00")
        self.add_event(cal, "Other")
        page = cal.events.list(include=f"{far.id},{past.id}")
        assert {"Retro Meetup", "Gala"} == set(titles(page))

    def test_include_orders_by_publication_date_then_id(self, cal: ec.Calendar) -> None:
        """Included events come by publication date, then id, not by start."""
        first = self.add_event(cal, "Published 2022", "2020-01-01", "2020-01-01", date="2022-01-01")
        second = self.add_event(
            cal, "Published 2021", "2031-01-01", "2031-01-01", date="2021-01-01"
        )
        third = self.add_event(cal, "Also 2021", "2025-01-01", "2025-01-01", date="2021-01-01")
        page = cal.events.list(include=[first.id, second.id, third.id])
        assert ["Published 2021", "Also 2021", "Published 2022"] == titles(page)

    def test_include_of_unknown_ids_is_empty(self, cal: ec.Calendar) -> None:
        """Ids that name no event give an empty page (evlist_include_unknown)."""
        self.add_event(cal)
        assert ec.Page(items=(), total=0, page=1, per_page=10) == cal.events.list(include="999999")

    def test_include_still_hides_unpublished_events_from_anonymous(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """include does not widen what a caller may see."""
        draft = self.add_event(cal, "Draft", status="draft")
        shown = self.add_event(cal, "Shown")
        assert ["Shown"] == titles(anon.events.list(include=[draft.id, shown.id]))

    # == list: order, unsupported filters, query objects =====================================
    def test_events_are_ordered_by_start_then_id(self, cal: ec.Calendar) -> None:
        """Events come by start; events starting together come by id."""
        self.add_event(cal, "B same start", "2031-06-15 19:00", "2031-06-15 23:00")
        self.add_event(cal, "A earlier", "2031-06-10 19:00", "2031-06-10 23:00")
        self.add_event(cal, "C same start", "2031-06-15 19:00", "2031-06-15 20:00")
        expected = ["A earlier", "B same start", "C same start"]
        assert expected == titles(cal.events.list(**RANGE))

    def test_order_compares_instants_not_wall_clocks(self, cal: ec.Calendar) -> None:
        """An 20:00 Paris event (18:00 UTC) comes before a 19:00 UTC one."""
        self.add_event(cal, "London", "2031-06-15 19:00", "2031-06-15 23:00")
        self.add_event(
            cal, "Paris", "2031-06-15 20:00", "2031-06-15 23:00", timezone="Europe/Paris"
        )
        assert ["Paris", "London"] == titles(cal.events.list(**RANGE))

    def test_ticketed_true_is_refused_clearly(self, cal: ec.Calendar) -> None:
        """Asking for ticketed events is refused as not supported (evlist_ticketed_true)."""
        with pytest.raises((InvalidParameter, NotSupported), match="not supported") as caught:
            cal.events.list(ticketed=True, **RANGE)
        assert ("rest_invalid_param", {"ticketed": "event-tickets-not-active"}) == (
            caught.value.code,
            getattr(caught.value, "codes", None),
        )

    @pytest.mark.parametrize(
        ("field", "value"), [("geoloc", True), ("geoloc_lat", 39.78), ("geoloc_lng", -89.65)]
    )
    def test_geolocation_filters_are_refused_as_not_supported(
        self, cal: ec.Calendar, field: str, value: object
    ) -> None:
        """Geolocation filters get a clear "not supported" error naming the field (the
        reference silently ignores them without its paid add-on)."""
        self.add_event(cal)
        with pytest.raises(InvalidParameter, match="not supported") as caught:
            cal.events.list(**given(field, value), **RANGE)
        assert ("rest_invalid_param", [field]) == (caught.value.code, list(caught.value.fields))

    def test_ticketed_false_is_accepted(self, cal: ec.Calendar) -> None:
        """ticketed=false filters nothing out (evlist_ticketed_false)."""
        self.add_event(cal)
        assert ["Summer Gala"] == titles(cal.events.list(ticketed="false", **RANGE))

    def test_query_object_equals_keyword_form(self, cal: ec.Calendar) -> None:
        """``list(EventQuery(...))`` is ``list(...)`` with the same keywords."""
        self.add_term_events(cal)
        params: dict[str, Any] = {"categories": "music", "per_page": 1, "page": 2} | RANGE
        by_query = cal.events.list(ec.EventQuery(**params))
        assert (cal.events.list(**params), ["Festival"]) == (by_query, titles(by_query))

    # == related records =====================================================================
    def test_related_gathers_linked_records_by_id(self, cal: ec.Calendar) -> None:
        """``related`` returns the venues, organizers and terms of a page, keyed by id."""
        hall = cal.venues.create(venue="Grand Hall")
        jane = cal.organizers.create(organizer="Jane Doe")
        gala = self.add_event(
            cal, venue=hall.id, organizer=[jane.id], categories=["Music"], tags=["Free"]
        )
        related = cal.events.related(cal.events.list(**RANGE))
        (music_id,), (free_id,) = gala.categories, gala.tags
        expected = (
            {hall.id: "Grand Hall"},
            {jane.id: "Jane Doe"},
            {music_id: "Music"},
            {free_id: "Free"},
        )
        actual = tuple(
            {i: record.name for i, record in found.items()}
            for found in (related.venues, related.organizers, related.categories, related.tags)
        )
        assert expected == actual

    def test_related_keeps_linked_drafts_but_not_as_readable(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """A draft venue stays part of its event for anonymous callers, marked not readable
        (the reference shows a draft organizer in del_venue_event_after)."""
        secret = cal.venues.create(venue="Secret Garden", status="draft")
        self.add_event(cal, venue=secret.id)
        related = anon.events.related(anon.events.list(**RANGE))
        assert ([secret.id], frozenset()) == (list(related.venues), related.readable)

    def test_related_lists_terms_by_name(self, cal: ec.Calendar) -> None:
        """An event's categories come back by name, not in the order given (ev_gala)."""
        gala = self.add_event(cal, categories=["Music", "Jazz"])
        related = cal.events.related([gala])
        assert ["Jazz", "Music"] == [term.name for term in related.categories_of(gala)]

    # == bulk_create =========================================================================
    def event_rows(self, count: int) -> list[dict[str, Any]]:
        """``count`` valid event rows on consecutive days of March 2031."""
        return [
            {
                "title": f"Row {n}",
                "start_date": f"2031-03-{n + 1:02d} 10:00",
                "end_date": f"2031-03-{n + 1:02d} 11:00",
            }
            for n in range(count)
        ]

    def test_bulk_create_creates_rows_in_order(self, cal: ec.Calendar) -> None:
        """Rows become events in row order; their ids are returned in that order."""
        ids = cal.events.bulk_create(self.event_rows(3))
        assert (["Row 0", "Row 1", "Row 2"], sorted(ids)) == (
            [cal.events.get(i).title for i in ids],
            ids,
        )

    def test_bulk_created_events_are_listed(self, cal: ec.Calendar) -> None:
        """Bulk-created events are stored like created ones."""
        cal.events.bulk_create(self.event_rows(3))
        assert ["Row 0", "Row 1", "Row 2"] == titles(cal.events.list(**RANGE))

    def test_bulk_create_reports_progress_per_batch(self, calendar_with: CalendarWith) -> None:
        """progress(done, total) is called after each batch."""
        small = calendar_with(ec.Settings(bulk_batch_size=2))
        calls: list[tuple[int, int]] = []
        small.events.bulk_create(
            self.event_rows(5), progress=lambda done, total: calls.append((done, total))
        )
        assert [(2, 5), (4, 5), (5, 5)] == calls

    def test_bulk_create_gives_duplicate_titles_unique_slugs(self, cal: ec.Calendar) -> None:
        """Rows with one title get -2, -3 slugs, as single creates do."""
        rows = [row | {"title": "Summer Gala"} for row in self.event_rows(3)]
        ids = cal.events.bulk_create(rows)
        expected = ["summer-gala", "summer-gala-2", "summer-gala-3"]
        assert expected == [cal.events.get(i).slug for i in ids]

    def test_bulk_rows_naming_one_new_category_share_it(self, cal: ec.Calendar) -> None:
        """A new category named by several rows is created once."""
        rows = [row | {"categories": ["Poetry Slam"]} for row in self.event_rows(3)]
        ids = cal.events.bulk_create(rows)
        (poetry,) = cal.categories.list(hide_empty=False).items
        assert [(poetry.id,)] * 3 == [cal.events.get(i).categories for i in ids]

    def test_bulk_create_bad_row_names_it_and_writes_nothing(
        self, calendar_with: CalendarWith
    ) -> None:
        """A bad row is reported as rows[N].field and no row is written."""
        small = calendar_with(ec.Settings(bulk_batch_size=2))
        rows = self.event_rows(5)
        rows[3]["start_date"] = "not-a-date"
        with pytest.raises(InvalidParameter, match=r"rows\[3\]\.start_date") as caught:
            small.events.bulk_create(rows)
        assert (["rows[3].start_date"], []) == (
            list(caught.value.fields),
            titles(small.events.list(**RANGE)),
        )

    def test_bulk_create_missing_field_names_the_row(self, cal: ec.Calendar) -> None:
        """A row without a title is reported as rows[N].title."""
        rows = self.event_rows(3)
        del rows[2]["title"]
        with pytest.raises(MissingParameter, match=r"rows\[2\]\.title") as caught:
            cal.events.bulk_create(rows)
        assert (["rows[2].title"], []) == (
            list(caught.value.fields),
            titles(cal.events.list(**RANGE)),
        )

    def test_bulk_create_row_ending_before_start_writes_nothing(
        self, calendar_with: CalendarWith
    ) -> None:
        """A row ending before it starts is found before any batch is written."""
        small = calendar_with(ec.Settings(bulk_batch_size=2))
        rows = self.event_rows(5)
        rows[4]["end_date"] = "2031-03-01 09:00"
        with pytest.raises(InvalidParameter, match=r"rows\[4\]\.end_date") as caught:
            small.events.bulk_create(rows)
        assert (["rows[4].end_date"], []) == (
            list(caught.value.fields),
            titles(small.events.list(**RANGE)),
        )

    def test_bulk_create_refused_row_writes_nothing(self, cal: ec.Calendar) -> None:
        """A row the caller may not write (another author) stops the load before any batch."""
        other = cal.users.create("other-author", role="author")
        author = self.as_role(cal, "author")
        rows = self.event_rows(3)
        rows[2]["author"] = other.id
        with pytest.raises(Forbidden, match="author"):
            author.events.bulk_create(rows, progress=None)
        assert [] == titles(cal.events.list(**RANGE))

    def test_bulk_create_needs_permission(self, anon: ec.Calendar) -> None:
        """Anonymous callers may not bulk-create."""
        with pytest.raises(Forbidden) as caught:
            anon.events.bulk_create(self.event_rows(1))
        assert "rest_forbidden" == caught.value.code
