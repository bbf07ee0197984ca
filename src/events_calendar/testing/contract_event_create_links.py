"""The event contract: invalid input on create, and the records an event links to."""

from __future__ import annotations

from typing import Any

import pytest

import events_calendar as ec
from events_calendar.errors import (
    InvalidParameter,
)

from .contract_event_base import (
    RANGE,
    EventContractBase,
    given,
    titles,
)

__all__ = ["EventCreateLinksContract"]


class EventCreateLinksContract(EventContractBase):
    """Creating events: invalid input, categories, tags, venues and organizers."""

    # == create: terms named with commas ======================================================
    def test_an_item_of_a_term_list_is_one_name_commas_and_all(self, cal: ec.Calendar) -> None:
        """A list's item names one category, ``Rock, Paper`` included, on create and in a
        list filter (it was split into two new ones), as the reference's ``list_to_array``
        splits only a text; a text is still a CSV list."""
        rock = cal.categories.create(name="Rock, Paper")
        listed = self.add_event(cal, title="Listed", categories=["Rock, Paper"])
        csv = self.add_event(cal, title="Csv", categories="Jazz, Blues")
        assert (
            [rock.id],
            ["Jazz", "Blues"],
            ["Listed"],
            ["Rock, Paper", "Jazz", "Blues"],
        ) == (
            list(listed.categories),
            [cal.categories.get(i).name for i in csv.categories],
            titles(cal.events.list(categories=["Rock, Paper"], **RANGE)),
            [c.name for c in cal.categories.list(hide_empty=False, orderby="id").items],
        )

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
