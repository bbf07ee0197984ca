"""Record contract: creating venues and organizers, and reusing a same-named one."""

from __future__ import annotations

import pytest

import events_calendar as ec
from events_calendar.errors import (
    InvalidParameter,
    MissingParameter,
)

from .base import NOW, ContractBase
from .contract_record_base import (
    LINKED_KINDS,
    at,
    linked,
    make,
    make_event,
    snapshot,
)

__all__ = ["LinkedCreateContract"]


class LinkedCreateContract(ContractBase):
    """Venues and organizers: create, defaults, refusals, slugs, de-duplication."""

    # == venues and organizers: create =====================================================
    def test_names_of_thousands_of_characters_are_stored_and_found(self, cal: ec.Calendar) -> None:
        """A title or name of 3,000 three-byte letters in no repeating order is stored, and
        found by name, on every backend (a B-tree index on PostgreSQL refused entries past
        2,704 bytes once compressed)."""
        name = "".join(chr(0x4E00 + n * 7919 % 20000) for n in range(3000))
        event = cal.events.create(
            title=name, start_date="2031-05-01 10:00", end_date="2031-05-01 11:00"
        )
        cal.organizers.create(organizer=name)
        made = [
            cal.venues.create(venue=name).id,
            cal.categories.create(name=name).id,
            cal.tags.create(name=name).id,
        ]
        again = cal.events.create(
            title="Again", start_date="2031-05-02 10:00", end_date="2031-05-02 11:00",
            venue=[{"venue": name}], categories=[name], tags=[name],
        )  # fmt: skip
        assert (name, made) == (
            cal.events.get(event.id).title,
            [*again.venue, *again.categories, *again.tags],
        )

    def test_venue_create_keeps_every_field(self, cal: ec.Calendar) -> None:
        """A venue created with every writable field keeps each value."""
        owner = cal.users.create("owner", role="author")
        venue = cal.venues.create(
            venue="Grand Hall",
            author=owner.id,
            date="2021-01-01 10:00:00",
            status="publish",
            slug="the-grand-hall",
            description="A large concert hall.",
            excerpt="Concerts",
            image="https://img.example.org/hall.png",
            address="1 Main Street",
            city="Springfield",
            country="United States",
            province="Sangamon",
            state="IL",
            zip="62701",
            phone="+1 217 555 0100",
            stateprovince="IL",
            website="https://grandhall.example.org",
            show_map="false",
            show_map_link="true",
        )
        expected = {
            "venue": "Grand Hall",
            "author": owner.id,
            "date": at("2021-01-01 10:00:00"),
            "date_utc": at("2021-01-01 10:00:00"),
            "modified": at("2021-01-01 10:00:00"),
            "modified_utc": at("2021-01-01 10:00:00"),
            "status": "publish",
            "slug": "the-grand-hall",
            "description": "A large concert hall.",
            "excerpt": "Concerts",
            "image": "https://img.example.org/hall.png",
            "address": "1 Main Street",
            "city": "Springfield",
            "country": "United States",
            "province": "Sangamon",
            "state": "IL",
            "zip": "62701",
            "phone": "+1 217 555 0100",
            "stateprovince": "IL",
            "website": "https://grandhall.example.org",
            "show_map": False,
            "show_map_link": True,
        }
        assert expected == {name: getattr(venue, name) for name in expected}

    @pytest.mark.parametrize(
        ("given", "expected"),
        [
            ({"country": "France", "province": "Ile-de-France", "state": "X"}, "Ile-de-France"),
            ({"country": "United States", "province": "Sangamon", "state": "IL"}, "IL"),
            ({"state": "IL"}, "IL"),
            ({"country": "France"}, ""),
        ],
    )
    def test_venue_stateprovince_defaults_to_state_or_province(
        self, cal: ec.Calendar, given: dict[str, str], expected: str
    ) -> None:
        """Without a ``stateprovince``, a venue takes its state (United States or no country)
        or else its province (venue_paris)."""
        assert expected == cal.venues.create(venue="Hall", **given).stateprovince

    def test_venue_update_fills_an_empty_stateprovince(self, cal: ec.Calendar) -> None:
        """An update that gives a province fills a missing ``stateprovince``."""
        hall = cal.venues.create(venue="Hall", country="France")
        assert "Bretagne" == cal.venues.update(hall.id, province="Bretagne").stateprovince

    def test_organizer_create_keeps_every_field(self, cal: ec.Calendar) -> None:
        """An organizer created with every writable field keeps each value."""
        owner = cal.users.create("owner", role="author")
        organizer = cal.organizers.create(
            organizer="Acme Events",
            author=owner.id,
            date="2021-02-01 10:00:00",
            status="draft",
            slug="acme",
            description="We organise things.",
            excerpt="Organisers",
            image="https://img.example.org/acme.jpg",
            phone="+1 555 0101",
            website="https://acme.example.com",
            email="info@acme.example.com",
        )
        expected = {
            "organizer": "Acme Events",
            "author": owner.id,
            "date": at("2021-02-01 10:00:00"),
            "date_utc": at("2021-02-01 10:00:00"),
            "modified": at("2021-02-01 10:00:00"),
            "modified_utc": at("2021-02-01 10:00:00"),
            "status": "draft",
            "slug": "acme",
            "description": "We organise things.",
            "excerpt": "Organisers",
            "image": "https://img.example.org/acme.jpg",
            "phone": "+1 555 0101",
            "website": "https://acme.example.com",
            "email": "info@acme.example.com",
        }
        assert expected == {name: getattr(organizer, name) for name in expected}

    def test_venue_defaults(self, cal: ec.Calendar) -> None:
        """A venue created with its name only is published now, shows maps and has no text."""
        venue = cal.venues.create(venue="Corner Pub")
        expected = {
            "author": 0,
            "status": "publish",
            "date": NOW,
            "slug": "corner-pub",
            "address": "",
            "city": "",
            "website": "",
            "show_map": True,
            "show_map_link": True,
        }
        assert expected == {name: getattr(venue, name) for name in expected}

    def test_venue_show_map_accepts_booleans(self, cal: ec.Calendar) -> None:
        """``show_map``/``show_map_link`` accept real booleans as well as strings."""
        venue = cal.venues.create(venue="Grand Hall", show_map=False, show_map_link=True)
        assert (False, True) == (venue.show_map, venue.show_map_link)

    def test_date_utc_sets_the_publication_date(self, cal: ec.Calendar) -> None:
        """``date_utc`` is read in UTC and becomes the publication date."""
        venue = cal.venues.create(venue="Salle Pleyel", date_utc="2021-01-02 10:00:00")
        assert at("2021-01-02 10:00:00") == venue.date_utc

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_created_record_reads_back_equal(self, cal: ec.Calendar, kind: str) -> None:
        """What ``create`` returns is what ``get`` reads back from storage."""
        record = make(cal, kind, "Jane Doe", description="About", phone="555-0101")
        assert record == linked(cal, kind).get(record.id)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_records_share_one_id_sequence(self, cal: ec.Calendar, kind: str) -> None:
        """Venues, organizers and events draw distinct ids from one sequence."""
        first = make(cal, kind, "First")
        event = make_event(cal, "Gala")
        other = make(cal, "organizer" if kind == "venue" else "venue", "Other")
        assert 3 == len({first.id, event.id, other.id})

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_create_without_name_is_missing(self, cal: ec.Calendar, kind: str) -> None:
        """A create without the name raises ``MissingParameter`` and stores nothing."""
        before = snapshot(cal)
        with pytest.raises(MissingParameter, match=f"Missing parameter\\(s\\): {kind}") as info:
            linked(cal, kind).create(phone="555-0101")
        error = info.value
        assert ("rest_missing_callback_param", 400, [kind]) == (
            error.code,
            error.http_status,
            list(error.fields),
        )
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_create_with_empty_name_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """An empty name is an ``InvalidParameter`` naming the field."""
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match=kind) as info:
            make(cal, kind, "  ")
        assert ("rest_invalid_param", 400, [kind]) == (
            info.value.code,
            info.value.http_status,
            list(info.value.fields),
        )
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_create_with_unknown_status_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """A status that is not a post status is refused and nothing is stored."""
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="status") as info:
            make(cal, kind, "Weird Status", status="bogus")
        assert ["status"] == list(info.value.fields)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_create_with_bad_website_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """A website that is not an absolute http(s) URL is refused."""
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="website") as info:
            make(cal, kind, "Grand Hall", website="not a url")
        assert ["website"] == list(info.value.fields)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_create_with_unknown_author_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """An author id that names no user is refused."""
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="author") as info:
            make(cal, kind, "Grand Hall", author=999)
        assert ["author"] == list(info.value.fields)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_slug_is_made_from_the_name(self, cal: ec.Calendar, kind: str) -> None:
        """The slug folds the name to lower-case words joined by dashes."""
        assert "jane-q-doe" == make(cal, kind, "Jane Q. Doe").slug

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_taken_slug_gets_a_number(self, cal: ec.Calendar, kind: str) -> None:
        """A second record whose slug would clash gets ``-2`` appended."""
        make(cal, kind, "Grand Hall", description="one")
        assert "grand-hall-2" == make(cal, kind, "Grand Hall", description="two").slug

    # -- de-duplication --------------------------------------------------------------------
    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_same_name_returns_the_existing_record(self, cal: ec.Calendar, kind: str) -> None:
        """Creating a record whose name exists returns the existing record."""
        first = make(cal, kind, "Grand Hall")
        assert first == make(cal, kind, "Grand Hall")

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_same_name_stores_nothing_new(self, cal: ec.Calendar, kind: str) -> None:
        """A de-duplicated create leaves the calendar unchanged."""
        make(cal, kind, "Grand Hall", phone="555-0100")
        before = snapshot(cal)
        make(cal, kind, "Grand Hall", phone="555-0100")
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_same_name_other_field_value_creates_new(self, cal: ec.Calendar, kind: str) -> None:
        """A same-named record whose data differs in any given field is a new record."""
        first = make(cal, kind, "Grand Hall", phone="555-0100")
        second = make(cal, kind, "Grand Hall", phone="555-0199")
        total = linked(cal, kind).list().total
        assert (2, "555-0199", True) == (total, second.phone, first.id != second.id)

    def test_same_name_and_some_of_the_address_returns_existing(self, cal: ec.Calendar) -> None:
        """A venue given by name and some of the same address fields is the existing venue."""
        hall = cal.venues.create(venue="Grand Hall", address="1 Rue", city="Lyon", zip="69001")
        assert hall.id == cal.venues.create(venue="grand hall", city="Lyon", zip="69001").id

    def test_same_name_in_another_city_creates_new(self, cal: ec.Calendar) -> None:
        """A venue of the same name in another city is another venue."""
        lyon = cal.venues.create(venue="Grand Hall", city="Lyon")
        paris = cal.venues.create(venue="Grand Hall", city="Paris")
        assert (2, ("Lyon", "Paris")) == (cal.venues.list().total, (lyon.city, paris.city))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_same_name_ignores_case(self, cal: ec.Calendar, kind: str) -> None:
        """Names are compared ignoring case."""
        first = make(cal, kind, "Grand Hall")
        assert first.id == make(cal, kind, "GRAND hall").id

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_same_name_and_description_returns_existing(self, cal: ec.Calendar, kind: str) -> None:
        """When a description is sent, it must match too for the record to be reused."""
        first = make(cal, kind, "Grand Hall", description="A large hall")
        assert first.id == make(cal, kind, "Grand Hall", description="A large hall").id

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_same_name_other_description_creates_new(self, cal: ec.Calendar, kind: str) -> None:
        """A same-named record with another description is a new record."""
        first = make(cal, kind, "Grand Hall", description="A large hall")
        second = make(cal, kind, "Grand Hall", description="A small hall")
        assert (2, True) == (linked(cal, kind).list().total, first.id != second.id)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_same_name_as_trashed_creates_new(self, cal: ec.Calendar, kind: str) -> None:
        """A record in the trash is not reused."""
        first = make(cal, kind, "Grand Hall")
        linked(cal, kind).delete(first.id)
        assert first.id != make(cal, kind, "Grand Hall").id
