"""The event contract: creating events, and failed writes changing nothing."""

from __future__ import annotations

from typing import Any

import pytest

import events_calendar as ec
from events_calendar.errors import (
    Forbidden,
    InvalidParameter,
)

from .base import NOW
from .contract_event_base import (
    CalendarWith,
    EventContractBase,
    given,
    snapshot,
    span,
    wall,
)

__all__ = ["EventCreateContract"]


class EventCreateContract(EventContractBase):
    """Creating events: fields, zones, dates, links, slugs, costs, refusals."""

    # == create: required and stored fields ==================================================
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
