"""Backend contract: venues, organizers, categories, tags and their lists.

Every test drives a ``Calendar`` through its public API on the backend a subclass provides
(``make_backend``), with the clock fixed at ``NOW``. Expected values come from the interface spec
(sections 4.3 and 4.4), ``DESIGN.md`` and the reference recordings (The Events Calendar 6.17.1).
A write that fails must leave the calendar exactly as it was; ``snapshot`` captures everything a
full-access caller can list so the tests can say so.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import events_calendar as ec
from events_calendar.errors import (
    InTrash,
    InvalidParameter,
    MissingParameter,
    NotFound,
    PageNotFound,
    TermExists,
)
from events_calendar.http.errors import status_of

from .base import NOW, ContractBase

__all__ = ["LINKED_KINDS", "TERM_KINDS", "RecordContract", "links", "make_event", "snapshot"]

LINKED_KINDS = ("venue", "organizer")
TERM_KINDS = ("category", "tag")
ALL_STATUSES = [status.value for status in ec.Status]


def snapshot(cal: ec.Calendar) -> dict[str, Any]:
    """Everything a full-access calendar can list, term counts and users included."""
    return {
        "events": cal.events.list(
            start_date="1970-01-01", end_date="2099-12-31", status=ALL_STATUSES, per_page=50
        ).items,
        "venues": cal.venues.list(status=ALL_STATUSES, per_page=50).items,
        "organizers": cal.organizers.list(status=ALL_STATUSES, per_page=50).items,
        "categories": [(t, t.count) for t in cal.categories.list(hide_empty=False, per_page=50)],
        "tags": [(t, t.count) for t in cal.tags.list(hide_empty=False, per_page=50)],
        "users": cal.users.list(),
    }


def linked(cal: ec.Calendar, kind: str) -> Any:
    """``cal.venues`` or ``cal.organizers``."""
    return cal.venues if kind == "venue" else cal.organizers


def make(cal: ec.Calendar, kind: str, name: str, **fields: Any) -> Any:
    """Create a venue or organizer named ``name``."""
    return linked(cal, kind).create(**{kind: name}, **fields)


def terms(cal: ec.Calendar, kind: str) -> Any:
    """``cal.categories`` or ``cal.tags``."""
    return cal.categories if kind == "category" else cal.tags


def make_event(
    cal: ec.Calendar,
    title: str,
    *,
    start: str = "2027-03-01 19:00:00",
    end: str | None = None,
    **fields: Any,
) -> ec.Event:
    """Create an event (two hours long unless ``end`` is given)."""
    if end is None:
        begin = datetime.fromisoformat(start)
        end = (begin + timedelta(hours=2)).strftime("%Y-%m-%d %H:%M:%S")
    return cal.events.create(title=title, start_date=start, end_date=end, **fields)


def links(field: str, values: list[int]) -> dict[str, Any]:
    """Keyword arguments linking a new event through ``field`` (``venue``, ``tags`` ...)."""
    return {field: values}


def link_field(kind: str) -> str:
    """The event field that links to a record of ``kind``."""
    return {"venue": "venue", "organizer": "organizer", "category": "categories"}.get(kind, "tags")


def ids(records: Any) -> list[int]:
    return [record.id for record in records]


def at(text: str) -> datetime:
    """A UTC instant from ``YYYY-MM-DD HH:MM:SS`` (the calendar's zone is UTC)."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


class RecordContract(ContractBase):
    """Venues, organizers, categories and tags, one behaviour per test."""

    # == venues and organizers: create =====================================================
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
            status_of(error),
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
            status_of(info.value),
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

    # -- reading ---------------------------------------------------------------------------
    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_get_by_slug(self, cal: ec.Calendar, kind: str) -> None:
        """A record is found by its slug."""
        record = make(cal, kind, "Salle Pleyel")
        assert record == linked(cal, kind).get_by_slug("salle-pleyel")

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_get_by_slug_ignores_case(self, cal: ec.Calendar, kind: str) -> None:
        """A slug is looked up in lower case, as WordPress sanitises it."""
        record = make(cal, kind, "Salle Pleyel")
        assert record.id == linked(cal, kind).get_by_slug("Salle-Pleyel").id

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_get_unknown_id_is_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """An unknown id is ``NotFound`` with the reference's 400 ``rest_invalid_param``."""
        with pytest.raises(NotFound, match=f"no {kind} with ID 999999") as info:
            linked(cal, kind).get(999999)
        assert ("rest_invalid_param", 400, ["id"]) == (
            info.value.code,
            status_of(info.value),
            list(info.value.fields),
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_get_id_of_other_kind_is_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """The id of another kind of post is not a record of this kind."""
        other = make(cal, "organizer" if kind == "venue" else "venue", "Other")
        with pytest.raises(NotFound, match=f"no {kind} with ID") as info:
            linked(cal, kind).get(other.id)
        assert ("rest_invalid_param", 400) == (info.value.code, status_of(info.value))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_get_unknown_slug_is_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """An unknown slug is ``NotFound`` naming ``slug``."""
        with pytest.raises(NotFound, match="no-such-record") as info:
            linked(cal, kind).get_by_slug("no-such-record")
        assert ("rest_invalid_param", 400, ["slug"]) == (
            info.value.code,
            status_of(info.value),
            list(info.value.fields),
        )

    # -- updating --------------------------------------------------------------------------
    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_changes_only_given_fields(self, cal: ec.Calendar, kind: str) -> None:
        """An update changes the fields given and keeps every other one."""
        record = make(
            cal, kind, "Corner Pub", description="Pub", phone="555-0100", website="https://a.org"
        )
        updated = linked(cal, kind).update(record.id, phone="555-0199")
        expected = {"description": "Pub", "phone": "555-0199", "website": "https://a.org"}
        assert expected == {name: getattr(updated, name) for name in expected}

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_is_stored(self, cal: ec.Calendar, kind: str) -> None:
        """What ``update`` returns is what ``get`` reads back."""
        record = make(cal, kind, "Corner Pub")
        updated = linked(cal, kind).update(record.id, phone="555-0199", description="Pub")
        assert updated == linked(cal, kind).get(record.id)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_sets_modified(self, cal: ec.Calendar, clock: ec.FixedClock, kind: str) -> None:
        """An update moves ``modified`` to now and keeps the publication date."""
        record = make(cal, kind, "Corner Pub", date="2021-01-03 10:00:00")
        clock.advance(timedelta(hours=1))
        updated = linked(cal, kind).update(record.id, phone="555-0199")
        assert (at("2021-01-03 10:00:00"), NOW + timedelta(hours=1)) == (
            updated.date,
            updated.modified,
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_create_with_a_date_sets_modified_to_it(self, cal: ec.Calendar, kind: str) -> None:
        """A record created with a publication date was last modified then (venue_main)."""
        record = make(cal, kind, "Corner Pub", date="2021-01-03 10:00:00")
        assert at("2021-01-03 10:00:00") == record.modified

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_with_empty_text_clears_it(self, cal: ec.Calendar, kind: str) -> None:
        """An empty string clears an optional field."""
        record = make(cal, kind, "Corner Pub", phone="555-0100")
        assert "" == linked(cal, kind).update(record.id, phone="").phone

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_name_keeps_the_slug(self, cal: ec.Calendar, kind: str) -> None:
        """Renaming a record does not change its slug."""
        record = make(cal, kind, "Corner Pub")
        updated = linked(cal, kind).update(record.id, **{kind: "Corner Pub & Grill"})
        assert ("Corner Pub & Grill", "corner-pub") == (updated.name, updated.slug)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_to_an_existing_name_is_allowed(self, cal: ec.Calendar, kind: str) -> None:
        """A record may be renamed to the name of another record."""
        make(cal, kind, "Grand Hall")
        other = make(cal, kind, "Corner Pub")
        assert "Grand Hall" == linked(cal, kind).update(other.id, **{kind: "Grand Hall"}).name

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_by_slug(self, cal: ec.Calendar, kind: str) -> None:
        """A record can be updated through its slug."""
        record = make(cal, kind, "Salle Pleyel")
        updated = linked(cal, kind).update_by_slug("salle-pleyel", description="Historic hall")
        assert (record.id, "Historic hall") == (updated.id, updated.description)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_slug_renames(self, cal: ec.Calendar, kind: str) -> None:
        """Sending a slug renames the record's slug."""
        record = make(cal, kind, "Salle Pleyel")
        assert "pleyel" == linked(cal, kind).update(record.id, slug="Pleyel").slug

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_renamed_slug_keeps_resolving(self, cal: ec.Calendar, kind: str) -> None:
        """After a slug rename the former slug still finds the record."""
        record = make(cal, kind, "Salle Pleyel")
        linked(cal, kind).update(record.id, slug="pleyel")
        assert (record.id, "pleyel") == (
            linked(cal, kind).get_by_slug("salle-pleyel").id,
            linked(cal, kind).get_by_slug("pleyel").slug,
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_by_slug_can_rename_the_slug(self, cal: ec.Calendar, kind: str) -> None:
        """Renaming through the by-slug route works."""
        record = make(cal, kind, "Salle Pleyel")
        updated = linked(cal, kind).update_by_slug("salle-pleyel", slug="pleyel")
        assert (record.id, "pleyel") == (updated.id, updated.slug)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_to_a_taken_slug_gets_a_number(self, cal: ec.Calendar, kind: str) -> None:
        """A slug rename onto another record's slug gets ``-2`` and leaves that record alone."""
        taken = make(cal, kind, "Grand Hall")
        other = make(cal, kind, "Corner Pub")
        updated = linked(cal, kind).update(other.id, slug="grand-hall")
        assert ("grand-hall-2", taken.id) == (
            updated.slug,
            linked(cal, kind).get_by_slug("grand-hall").id,
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_with_empty_name_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """An empty name is refused on update and the record is unchanged."""
        record = make(cal, kind, "Corner Pub")
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match=kind) as info:
            linked(cal, kind).update(record.id, **{kind: ""})
        assert [kind] == list(info.value.fields)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_with_bad_field_changes_nothing(self, cal: ec.Calendar, kind: str) -> None:
        """One bad field fails the whole update: the good fields are not applied either."""
        record = make(cal, kind, "Corner Pub")
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="website") as info:
            linked(cal, kind).update(record.id, phone="555-0199", website="ftp://nope")
        assert ["website"] == list(info.value.fields)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_unknown_id_is_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """Updating an unknown id is ``NotFound`` (400 ``rest_invalid_param``)."""
        before = snapshot(cal)
        with pytest.raises(NotFound, match="999999") as info:
            linked(cal, kind).update(999999, phone="555")
        assert ("rest_invalid_param", 400) == (info.value.code, status_of(info.value))
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_unknown_slug_is_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """Updating through an unknown slug is ``NotFound`` naming ``slug``."""
        make(cal, kind, "Corner Pub")
        before = snapshot(cal)
        with pytest.raises(NotFound, match="no-such-record") as info:
            linked(cal, kind).update_by_slug("no-such-record", phone="555")
        assert ["slug"] == list(info.value.fields)
        assert before == snapshot(cal)

    # -- deleting --------------------------------------------------------------------------
    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_delete_moves_to_trash(self, cal: ec.Calendar, kind: str) -> None:
        """Deleting returns the record in the trash with ``__trashed`` after its slug."""
        record = make(cal, kind, "Corner Pub")
        trashed = linked(cal, kind).delete(record.id)
        assert ("trash", "corner-pub__trashed") == (trashed.status, trashed.slug)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_delete_is_stored(self, cal: ec.Calendar, kind: str) -> None:
        """The trashed record reads back as ``delete`` returned it."""
        record = make(cal, kind, "Corner Pub")
        trashed = linked(cal, kind).delete(record.id)
        assert trashed == linked(cal, kind).get(record.id)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_trashed_record_leaves_the_default_list(self, cal: ec.Calendar, kind: str) -> None:
        """Trashed records are not listed unless the trash is asked for."""
        kept = make(cal, kind, "Grand Hall")
        gone = make(cal, kind, "Corner Pub")
        linked(cal, kind).delete(gone.id)
        assert ([kept.id], [gone.id]) == (
            ids(linked(cal, kind).list()),
            ids(linked(cal, kind).list(status="trash")),
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_trash_frees_the_slug(self, cal: ec.Calendar, kind: str) -> None:
        """A new record may take the slug of a trashed one."""
        record = make(cal, kind, "Corner Pub")
        linked(cal, kind).delete(record.id)
        assert "corner-pub" == make(cal, kind, "Corner Pub").slug

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_trashed_record_is_not_found_by_its_former_slug(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """After trashing, the former slug no longer resolves (the reference answers 400)."""
        record = make(cal, kind, "Corner Pub")
        linked(cal, kind).delete(record.id)
        with pytest.raises(NotFound, match="corner-pub") as info:
            linked(cal, kind).delete_by_slug("corner-pub")
        assert ("rest_invalid_param", 400, ["slug"]) == (
            info.value.code,
            status_of(info.value),
            list(info.value.fields),
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_delete_trashed_record_is_in_trash(self, cal: ec.Calendar, kind: str) -> None:
        """Deleting a trashed record again is ``InTrash`` (410) and changes nothing."""
        record = make(cal, kind, "Corner Pub")
        linked(cal, kind).delete(record.id)
        before = snapshot(cal)
        with pytest.raises(InTrash, match="force=True") as info:
            linked(cal, kind).delete(record.id)
        assert (f"{kind}-is-in-trash", 410) == (info.value.code, status_of(info.value))
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_delete_by_slug(self, cal: ec.Calendar, kind: str) -> None:
        """A record can be trashed through its slug."""
        record = make(cal, kind, "Corner Pub")
        trashed = linked(cal, kind).delete_by_slug("corner-pub")
        assert (record.id, "trash") == (trashed.id, trashed.status)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_force_delete_removes_for_good(self, cal: ec.Calendar, kind: str) -> None:
        """``force=True`` removes the record: reading it is then ``NotFound``."""
        record = make(cal, kind, "Corner Pub")
        linked(cal, kind).delete(record.id, force=True)
        with pytest.raises(NotFound, match=str(record.id)):
            linked(cal, kind).get(record.id)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_force_delete_returns_the_record_as_it_was(self, cal: ec.Calendar, kind: str) -> None:
        """A forced delete returns the record as it was before removal."""
        record = make(cal, kind, "Corner Pub")
        assert record == linked(cal, kind).delete(record.id, force=True)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_force_delete_removes_a_trashed_record(self, cal: ec.Calendar, kind: str) -> None:
        """A trashed record can be removed for good with ``force=True``."""
        record = make(cal, kind, "Corner Pub")
        linked(cal, kind).delete(record.id)
        linked(cal, kind).delete(record.id, force=True)
        assert 0 == linked(cal, kind).list(status="trash").total

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_delete_unknown_id_is_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """Deleting an unknown id is ``NotFound`` (400 ``rest_invalid_param``)."""
        make(cal, kind, "Corner Pub")
        before = snapshot(cal)
        with pytest.raises(NotFound, match="999999") as info:
            linked(cal, kind).delete(999999)
        assert ("rest_invalid_param", 400) == (info.value.code, status_of(info.value))
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_trashing_unlinks_events(self, cal: ec.Calendar, kind: str) -> None:
        """Events stop pointing at a trashed venue or organizer."""
        record = make(cal, kind, "Corner Pub")
        event = make_event(cal, "Pub Quiz", **links(kind, [record.id]))
        linked(cal, kind).delete(record.id)
        assert () == getattr(cal.events.get(event.id), kind)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_force_delete_unlinks_events(self, cal: ec.Calendar, kind: str) -> None:
        """Events stop pointing at a removed venue or organizer."""
        record = make(cal, kind, "Corner Pub")
        event = make_event(cal, "Pub Quiz", **links(kind, [record.id]))
        linked(cal, kind).delete(record.id, force=True)
        assert () == getattr(cal.events.get(event.id), kind)

    def test_trashing_an_organizer_keeps_the_others(self, cal: ec.Calendar) -> None:
        """Only the trashed organizer leaves an event; the others keep their order."""
        first, second, third = (make(cal, "organizer", n) for n in ("Ann", "Bob", "Cy"))
        event = make_event(cal, "Panel", organizer=[third.id, first.id, second.id])
        cal.organizers.delete(first.id)
        assert (third.id, second.id) == cal.events.get(event.id).organizer

    # == venue and organizer lists (spec 4.3) ===============================================
    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_list_of_nothing_is_an_empty_first_page(self, cal: ec.Calendar, kind: str) -> None:
        """An empty calendar lists an empty first page."""
        page = linked(cal, kind).list()
        assert ((), 0, 0, 1, 10) == (
            page.items,
            page.total,
            page.total_pages,
            page.page,
            page.per_page,
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_list_is_newest_first(self, cal: ec.Calendar, kind: str) -> None:
        """Records are listed by publication date, newest first."""
        old = make(cal, kind, "Old", date="2021-01-01 10:00:00")
        new = make(cal, kind, "New", date="2021-01-03 10:00:00")
        mid = make(cal, kind, "Mid", date="2021-01-02 10:00:00")
        assert [new.id, mid.id, old.id] == ids(linked(cal, kind).list())

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_list_same_date_newest_id_first(self, cal: ec.Calendar, kind: str) -> None:
        """Records published at the same instant are listed by id, highest first."""
        first = make(cal, kind, "First")
        second = make(cal, kind, "Second")
        assert [second.id, first.id] == ids(linked(cal, kind).list())

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_list_pages_by_ten(self, cal: ec.Calendar, kind: str) -> None:
        """The default page holds 10 records; total and total_pages count them all."""
        for number in range(12):
            make(cal, kind, f"Record {number}")
        page = linked(cal, kind).list()
        assert (10, 12, 2) == (len(page), page.total, page.total_pages)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_list_second_page(self, cal: ec.Calendar, kind: str) -> None:
        """``page`` and ``per_page`` pick a slice of the newest-first order."""
        made = [make(cal, kind, f"R{n}", date=f"2021-01-0{n + 1} 10:00:00") for n in range(5)]
        page = linked(cal, kind).list(page=2, per_page=2)
        assert ([made[2].id, made[1].id], 2, 2, 5, 3) == (
            ids(page),
            page.page,
            page.per_page,
            page.total,
            page.total_pages,
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_list_accepts_a_query_object(self, cal: ec.Calendar, kind: str) -> None:
        """``list`` takes a ``LinkedQuery`` as well as keyword filters."""
        make(cal, kind, "First")
        second = make(cal, kind, "Second")
        assert [second.id] == ids(linked(cal, kind).list(ec.LinkedQuery(per_page=1)))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_page_past_the_end_is_page_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """A page past the last one is ``PageNotFound`` (404) with the kind's code."""
        make(cal, kind, "Only")
        with pytest.raises(
            PageNotFound, match=f"This {kind} list has fewer than 11 {kind}s"
        ) as info:
            linked(cal, kind).list(page=2)
        assert (f"{kind}-archive-page-not-found", 404) == (info.value.code, status_of(info.value))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_per_page_is_clamped_to_fifty(self, cal: ec.Calendar, kind: str) -> None:
        """A ``per_page`` above the maximum is clamped, not refused."""
        assert 50 == linked(cal, kind).list(per_page=500).per_page

    @pytest.mark.parametrize(("param", "value"), [("page", 0), ("per_page", "foo")])
    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_bad_paging_is_invalid(
        self, cal: ec.Calendar, kind: str, param: str, value: object
    ) -> None:
        """``page`` and ``per_page`` must be positive whole numbers."""
        with pytest.raises(InvalidParameter, match=param) as info:
            linked(cal, kind).list(**{param: value})
        assert [param] == list(info.value.fields)

    def test_venue_search_needs_every_word_in_one_field(self, cal: ec.Calendar) -> None:
        """A venue matches when one field contains every word, in any order."""
        hall = cal.venues.create(venue="Hall", address="100, Avenue du Temple")
        cal.venues.create(venue="Pub", address="1 Temple Street")
        assert [hall.id] == ids(cal.venues.list(search="temple avenue"))

    def test_venue_search_words_in_different_fields_do_not_match(self, cal: ec.Calendar) -> None:
        """Words found only in different fields do not make a match."""
        cal.venues.create(venue="Grand Hall", address="1 Main Street", city="Springfield")
        assert 0 == cal.venues.list(search="springfield main").total

    def test_venue_search_ignores_case(self, cal: ec.Calendar) -> None:
        """Search is case-insensitive."""
        hall = cal.venues.create(venue="Salle Pleyel", city="Paris")
        assert [hall.id] == ids(cal.venues.list(search="PLEYEL"))

    @pytest.mark.parametrize(
        ("field", "value", "search"),
        [
            ("description", "A historic concert hall", "historic"),
            ("excerpt", "Concerts nightly", "nightly"),
            ("city", "Springfield", "springf"),
            ("province", "Ile-de-France", "ile-de"),
            ("state", "Illinois", "illin"),
            ("stateprovince", "IL-Sangamon", "sangamon"),
            ("zip", "62701", "627"),
            ("phone", "+1 217 555 0100", "217"),
        ],
    )
    def test_venue_search_fields(
        self, cal: ec.Calendar, field: str, value: str, search: str
    ) -> None:
        """Venue search looks in the name, texts and address fields."""
        hall = cal.venues.create(venue="Hall", **{field: value})
        assert [hall.id] == ids(cal.venues.list(search=search))

    @pytest.mark.parametrize(
        ("field", "value", "search"),
        [
            ("description", "We organise things", "organise"),
            ("phone", "+1 555 0101", "0101"),
            ("email", "info@common.com", "common.com"),
            ("website", "https://acme.example.com", "example"),
        ],
    )
    def test_organizer_search_fields(
        self, cal: ec.Calendar, field: str, value: str, search: str
    ) -> None:
        """Organizer search looks in the name, texts, phone, e-mail and website."""
        org = cal.organizers.create(organizer="Org", **{field: value})
        assert [org.id] == ids(cal.organizers.list(search=search))

    def test_search_splits_words_on_punctuation(self, cal: ec.Calendar) -> None:
        """Words are split on every character that is not a letter, digit or dash."""
        hall = cal.venues.create(venue="Hall", address="100, Avenue du Temple")
        assert [hall.id] == ids(cal.venues.list(search="temple,avenue"))

    def test_search_keeps_dashes_inside_words(self, cal: ec.Calendar) -> None:
        """A dash does not split a word: ``saint-honore`` must occur as written."""
        cal.venues.create(venue="Hall", address="Saint Honore street")
        assert 0 == cal.venues.list(search="saint-honore").total

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_search_without_match_is_empty(self, cal: ec.Calendar, kind: str) -> None:
        """A search that matches nothing is an empty page with a total of 0."""
        make(cal, kind, "Grand Hall")
        page = linked(cal, kind).list(search="nothing-like-this")
        assert ((), 0, 0) == (page.items, page.total, page.total_pages)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_empty_search_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """An empty search text is refused."""
        with pytest.raises(InvalidParameter, match="search") as info:
            linked(cal, kind).list(search=" ")
        assert ["search"] == list(info.value.fields)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_event_filter_lists_the_event_records(self, cal: ec.Calendar, kind: str) -> None:
        """``event`` lists the records linked to that event."""
        used = make(cal, kind, "Used")
        make(cal, kind, "Unused")
        event = make_event(cal, "Gala", **links(kind, [used.id]))
        assert [used.id] == ids(linked(cal, kind).list(event=event.id))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_event_filter_on_an_event_without_links(self, cal: ec.Calendar, kind: str) -> None:
        """An event with no such link gives an empty page."""
        make(cal, kind, "Unused")
        event = make_event(cal, "Gala")
        assert 0 == linked(cal, kind).list(event=event.id).total

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_event_filter_needs_an_event_id(self, cal: ec.Calendar, kind: str) -> None:
        """``event`` must name an existing event (not a venue or organizer)."""
        record = make(cal, kind, "Hall")
        with pytest.raises(InvalidParameter, match="event") as info:
            linked(cal, kind).list(event=record.id)
        assert ["event"] == list(info.value.fields)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_event_filter_hides_drafts_from_anonymous(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """A draft linked to the event is not listed to anonymous callers."""
        draft = make(cal, kind, "Hidden", status="draft")
        event = make_event(cal, "Gala", **links(kind, [draft.id]))
        assert 0 == linked(anon, kind).list(event=event.id).total

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_has_events_true(self, cal: ec.Calendar, kind: str) -> None:
        """``has_events=True`` lists records used by a published event."""
        used = make(cal, kind, "Used")
        make(cal, kind, "Unused")
        make_event(cal, "Gala", **links(kind, [used.id]))
        assert [used.id] == ids(linked(cal, kind).list(has_events=True))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_has_events_false(self, cal: ec.Calendar, kind: str) -> None:
        """``has_events=False`` lists records no event uses."""
        used = make(cal, kind, "Used")
        unused = make(cal, kind, "Unused")
        make_event(cal, "Gala", **links(kind, [used.id]))
        assert [unused.id] == ids(linked(cal, kind).list(has_events=False))

    @pytest.mark.parametrize("status", ["draft", "pending"])
    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_has_events_ignores_draft_and_pending_events(
        self, cal: ec.Calendar, kind: str, status: str
    ) -> None:
        """Draft and pending events do not count as events for ``has_events``."""
        record = make(cal, kind, "Planned")
        make_event(cal, "Plan", status=status, **links(kind, [record.id]))
        assert ([], [record.id]) == (
            ids(linked(cal, kind).list(has_events=True)),
            ids(linked(cal, kind).list(has_events=False)),
        )

    @pytest.mark.parametrize("status", ["private", "future"])
    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_has_events_counts_private_and_future_events(
        self, cal: ec.Calendar, kind: str, status: str
    ) -> None:
        """Private and scheduled events count for ``has_events``."""
        record = make(cal, kind, "Hall")
        make_event(cal, "Gala", status=status, **links(kind, [record.id]))
        assert [record.id] == ids(linked(cal, kind).list(has_events=True))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_has_events_counts_trashed_events(self, cal: ec.Calendar, kind: str) -> None:
        """A trashed event still counts for ``has_events`` (as in the reference)."""
        record = make(cal, kind, "Hall")
        event = make_event(cal, "Gala", **links(kind, [record.id]))
        cal.events.delete(event.id)
        assert [record.id] == ids(linked(cal, kind).list(has_events=True))

    @pytest.mark.parametrize(("value", "expected"), [("true", [0]), ("1", [0]), ("false", [1])])
    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_has_events_reads_strings(
        self, cal: ec.Calendar, kind: str, value: str, expected: list[int]
    ) -> None:
        """``has_events`` accepts the strings HTTP clients send."""
        used = make(cal, kind, "Used")
        unused = make(cal, kind, "Unused")
        make_event(cal, "Gala", **links(kind, [used.id]))
        records = [used.id, unused.id]
        assert [records[i] for i in expected] == ids(linked(cal, kind).list(has_events=value))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_only_with_upcoming(self, cal: ec.Calendar, kind: str) -> None:
        """``only_with_upcoming`` keeps records linked to an event starting now or later."""
        soon = make(cal, kind, "Soon")
        past = make(cal, kind, "Past")
        make(cal, kind, "Unused")
        make_event(cal, "Next", start="2026-11-29 18:00:00", **links(kind, [soon.id]))
        make_event(cal, "Last", start="2026-11-15 18:00:00", **links(kind, [past.id]))
        assert [soon.id] == ids(linked(cal, kind).list(only_with_upcoming=True))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_only_with_upcoming_counts_an_event_starting_now(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """An event starting exactly now is upcoming; one a second earlier is not."""
        now = make(cal, kind, "Now")
        before = make(cal, kind, "Before")
        make_event(cal, "Starts now", start="2026-11-22 10:00:00", **links(kind, [now.id]))
        make_event(cal, "Started", start="2026-11-22 09:59:59", **links(kind, [before.id]))
        assert [now.id] == ids(linked(cal, kind).list(only_with_upcoming="1"))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_only_with_upcoming_follows_the_clock(
        self, cal: ec.Calendar, clock: ec.FixedClock, kind: str
    ) -> None:
        """Whether an event is upcoming is measured against the calendar's clock."""
        record = make(cal, kind, "Hall")
        make_event(cal, "Next", start="2026-11-29 18:00:00", **links(kind, [record.id]))
        clock.advance(timedelta(days=30))
        assert 0 == linked(cal, kind).list(only_with_upcoming=True).total

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_only_with_upcoming_false_filters_nothing(self, cal: ec.Calendar, kind: str) -> None:
        """``only_with_upcoming=False`` applies no filter."""
        make(cal, kind, "Unused")
        past = make(cal, kind, "Past")
        make_event(cal, "Last", start="2026-11-15 18:00:00", **links(kind, [past.id]))
        assert 2 == linked(cal, kind).list(only_with_upcoming="false").total

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_only_with_upcoming_uses_the_callers_statuses(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """A draft upcoming event counts for full access but not for anonymous callers."""
        record = make(cal, kind, "Hall")
        make_event(
            cal, "Plan", start="2026-12-01 18:00:00", status="draft", **links(kind, [record.id])
        )
        assert ([record.id], []) == (
            ids(linked(cal, kind).list(only_with_upcoming=True)),
            ids(linked(anon, kind).list(only_with_upcoming=True)),
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_status_filter(self, cal: ec.Calendar, kind: str) -> None:
        """``status`` lists only records with that status."""
        make(cal, kind, "Public")
        draft = make(cal, kind, "Hidden", status="draft")
        assert [draft.id] == ids(linked(cal, kind).list(status="draft"))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_status_filter_takes_a_list(self, cal: ec.Calendar, kind: str) -> None:
        """``status`` accepts several statuses, as a list or CSV."""
        public = make(cal, kind, "Public", date="2021-01-01 10:00:00")
        draft = make(cal, kind, "Hidden", status="draft", date="2021-01-02 10:00:00")
        make(cal, kind, "Pending", status="pending")
        assert [draft.id, public.id] == ids(linked(cal, kind).list(status="draft,publish"))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_unknown_status_filter_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """An unknown status in the filter is refused."""
        with pytest.raises(InvalidParameter, match="status") as info:
            linked(cal, kind).list(status="bogus")
        assert ["status"] == list(info.value.fields)

    # == categories and tags ==================================================================
    def test_category_create_keeps_every_field(self, cal: ec.Calendar) -> None:
        """A category keeps its name, slug, description and parent; its count starts at 0."""
        music = cal.categories.create(name="Music")
        jazz = cal.categories.create(
            name="Jazz", slug="jazz-music", description="Swing and bebop", parent=music.id
        )
        assert ("Jazz", "jazz-music", "Swing and bebop", music.id, 0) == (
            jazz.name,
            jazz.slug,
            jazz.description,
            jazz.parent,
            jazz.count,
        )

    def test_tag_create_keeps_every_field(self, cal: ec.Calendar) -> None:
        """A tag keeps its name, slug and description; tags are flat."""
        tag = cal.tags.create(name="Family Friendly", slug="family", description="For all")
        assert ("Family Friendly", "family", "For all", 0, 0) == (
            tag.name,
            tag.slug,
            tag.description,
            tag.parent,
            tag.count,
        )

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_reads_back_equal(self, cal: ec.Calendar, kind: str) -> None:
        """What ``create`` returns is what ``get`` reads back."""
        term = terms(cal, kind).create(name="Outdoor", description="Open air")
        assert term == terms(cal, kind).get(term.id)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_slug_is_made_from_the_name(self, cal: ec.Calendar, kind: str) -> None:
        """The slug drops punctuation and joins words with dashes."""
        assert "rock-roll" == terms(cal, kind).create(name="Rock & Roll").slug

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_taken_slug_gets_a_number(self, cal: ec.Calendar, kind: str) -> None:
        """A term whose slug would clash with another's gets ``-2`` appended."""
        terms(cal, kind).create(name="Sports", slug="sport-events")
        assert "sport-events-2" == terms(cal, kind).create(name="Sport Events").slug

    def test_categories_and_tags_share_one_id_sequence(self, cal: ec.Calendar) -> None:
        """Categories and tags draw distinct ids from one sequence."""
        category = cal.categories.create(name="Music")
        tag = cal.tags.create(name="Music")
        assert category.id != tag.id

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_without_name_is_missing(self, cal: ec.Calendar, kind: str) -> None:
        """A term needs a name: ``MissingParameter`` naming ``name``."""
        before = snapshot(cal)
        with pytest.raises(MissingParameter, match="name") as info:
            terms(cal, kind).create(description="no name")
        assert ("rest_missing_callback_param", 400, ["name"]) == (
            info.value.code,
            status_of(info.value),
            list(info.value.fields),
        )
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_with_empty_name_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """An empty name is refused."""
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="name") as info:
            terms(cal, kind).create(name="")
        assert ["name"] == list(info.value.fields)
        assert before == snapshot(cal)

    @pytest.mark.parametrize(
        ("kind", "where"), [("category", "with this parent"), ("tag", "in this taxonomy")]
    )
    def test_duplicate_term_name_is_term_exists(
        self, cal: ec.Calendar, kind: str, where: str
    ) -> None:
        """A second term with the same name is ``TermExists`` carrying the existing id."""
        first = terms(cal, kind).create(name="Music")
        before = snapshot(cal)
        with pytest.raises(TermExists, match=f"already exists {where}") as info:
            terms(cal, kind).create(name="Music")
        error = info.value
        assert ("term_exists", 400, first.id, {"term_id": first.id}) == (
            error.code,
            status_of(error),
            error.term_id,
            error.data,
        )
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_duplicate_term_name_ignores_case(self, cal: ec.Calendar, kind: str) -> None:
        """Term names are compared ignoring case."""
        first = terms(cal, kind).create(name="Music")
        before = snapshot(cal)
        with pytest.raises(TermExists, match="already exists") as info:
            terms(cal, kind).create(name="MUSIC")
        assert first.id == info.value.term_id
        assert before == snapshot(cal)

    def test_same_category_name_under_another_parent(self, cal: ec.Calendar) -> None:
        """Categories with one name may live under different parents."""
        music = cal.categories.create(name="Music")
        dance = cal.categories.create(name="Dance")
        cal.categories.create(name="Modern", parent=music.id)
        modern = cal.categories.create(name="Modern", parent=dance.id)
        assert (dance.id, 4) == (
            modern.parent,
            cal.categories.list(hide_empty=False).total,
        )

    def test_category_with_unknown_parent_is_invalid(self, cal: ec.Calendar) -> None:
        """A parent that is not an existing category is refused."""
        tag = cal.tags.create(name="Outdoor")
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="parent") as info:
            cal.categories.create(name="Orphan", parent=tag.id)
        assert ["parent"] == list(info.value.fields)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_unknown_term_is_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """An unknown term id is ``NotFound`` (400 ``rest_invalid_param``)."""
        with pytest.raises(NotFound, match=f"no {kind} with ID 999999") as info:
            terms(cal, kind).get(999999)
        assert ("rest_invalid_param", 400, ["id"]) == (
            info.value.code,
            status_of(info.value),
            list(info.value.fields),
        )

    def test_tag_id_is_not_a_category(self, cal: ec.Calendar) -> None:
        """A term id of the other taxonomy is not found."""
        tag = cal.tags.create(name="Outdoor")
        with pytest.raises(NotFound, match="no category"):
            cal.categories.get(tag.id)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_update_changes_only_given_fields(self, cal: ec.Calendar, kind: str) -> None:
        """A term update changes the fields given and keeps the others."""
        term = terms(cal, kind).create(name="Workshops", description="Old")
        updated = terms(cal, kind).update(term.id, description="Hands-on sessions")
        assert ("Workshops", "workshops", "Hands-on sessions") == (
            updated.name,
            updated.slug,
            updated.description,
        )

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_update_is_stored(self, cal: ec.Calendar, kind: str) -> None:
        """What ``update`` returns is what ``get`` reads back."""
        term = terms(cal, kind).create(name="Workshops")
        updated = terms(cal, kind).update(term.id, name="Workshops & Classes", slug="classes")
        assert updated == terms(cal, kind).get(term.id)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_update_renames(self, cal: ec.Calendar, kind: str) -> None:
        """Name and slug can be changed together."""
        term = terms(cal, kind).create(name="Workshops")
        updated = terms(cal, kind).update(term.id, name="Workshops & Classes", slug="classes")
        assert ("Workshops & Classes", "classes") == (updated.name, updated.slug)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_rename_to_sibling_name_is_term_exists(self, cal: ec.Calendar, kind: str) -> None:
        """Renaming a term to a sibling's name is ``TermExists`` and changes nothing."""
        music = terms(cal, kind).create(name="Music")
        other = terms(cal, kind).create(name="Sports")
        before = snapshot(cal)
        with pytest.raises(TermExists, match="already exists") as info:
            terms(cal, kind).update(other.id, name="music")
        assert music.id == info.value.term_id
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_update_keeps_its_own_name(self, cal: ec.Calendar, kind: str) -> None:
        """Sending a term's own name again is not a duplicate."""
        term = terms(cal, kind).create(name="Music")
        assert "Music" == terms(cal, kind).update(term.id, name="Music").name

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_update_unknown_is_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """Updating an unknown term is ``NotFound``."""
        terms(cal, kind).create(name="Music")
        before = snapshot(cal)
        with pytest.raises(NotFound, match="999999") as info:
            terms(cal, kind).update(999999, name="Ghost")
        assert ("rest_invalid_param", 400) == (info.value.code, status_of(info.value))
        assert before == snapshot(cal)

    def test_category_reparent(self, cal: ec.Calendar) -> None:
        """A category can move under another parent."""
        music = cal.categories.create(name="Music")
        sports = cal.categories.create(name="Sports")
        rock = cal.categories.create(name="Rock", parent=music.id)
        assert sports.id == cal.categories.update(rock.id, parent=sports.id).parent

    def test_category_back_to_top_level(self, cal: ec.Calendar) -> None:
        """``parent=0`` makes a category top-level."""
        music = cal.categories.create(name="Music")
        rock = cal.categories.create(name="Rock", parent=music.id)
        assert 0 == cal.categories.update(rock.id, parent=0).parent

    def test_category_cannot_be_its_own_parent(self, cal: ec.Calendar) -> None:
        """A category may not be its own parent."""
        music = cal.categories.create(name="Music")
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="parent") as info:
            cal.categories.update(music.id, parent=music.id)
        assert ["parent"] == list(info.value.fields)
        assert before == snapshot(cal)

    def test_category_cannot_move_under_its_descendant(self, cal: ec.Calendar) -> None:
        """Moving a category under one of its descendants (a cycle) is refused."""
        music = cal.categories.create(name="Music")
        jazz = cal.categories.create(name="Jazz", parent=music.id)
        bebop = cal.categories.create(name="Bebop", parent=jazz.id)
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="parent") as info:
            cal.categories.update(music.id, parent=bebop.id)
        assert ["parent"] == list(info.value.fields)
        assert before == snapshot(cal)

    def test_category_update_with_unknown_parent_is_invalid(self, cal: ec.Calendar) -> None:
        """Re-parenting under an unknown category is refused."""
        music = cal.categories.create(name="Music")
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="parent"):
            cal.categories.update(music.id, parent=999999)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_delete_returns_the_term_as_it_was(self, cal: ec.Calendar, kind: str) -> None:
        """Deleting returns the term as it was, its count included."""
        term = terms(cal, kind).create(name="Outdoor", description="Open air")
        make_event(cal, "Picnic", **links(link_field(kind), [term.id]))
        deleted = terms(cal, kind).delete(term.id)
        assert (term, 1) == (deleted, deleted.count)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_delete_is_permanent(self, cal: ec.Calendar, kind: str) -> None:
        """A deleted term is gone: reading it is ``NotFound``."""
        term = terms(cal, kind).create(name="Temporary")
        terms(cal, kind).delete(term.id)
        with pytest.raises(NotFound, match=str(term.id)):
            terms(cal, kind).get(term.id)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_delete_twice_is_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """Deleting a deleted term is ``NotFound`` (400 ``rest_invalid_param``)."""
        term = terms(cal, kind).create(name="Temporary")
        terms(cal, kind).delete(term.id)
        before = snapshot(cal)
        with pytest.raises(NotFound, match=str(term.id)) as info:
            terms(cal, kind).delete(term.id)
        assert ("rest_invalid_param", 400) == (info.value.code, status_of(info.value))
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_events_lose_a_deleted_term(self, cal: ec.Calendar, kind: str) -> None:
        """Events no longer carry a deleted term and keep their other terms."""
        gone = terms(cal, kind).create(name="Gone")
        kept = terms(cal, kind).create(name="Kept")
        event = make_event(cal, "Picnic", **links(link_field(kind), [gone.id, kept.id]))
        terms(cal, kind).delete(gone.id)
        assert (kept.id,) == getattr(cal.events.get(event.id), link_field(kind))

    def test_deleting_a_category_moves_its_children_up(self, cal: ec.Calendar) -> None:
        """The children of a deleted category move to its parent, as WordPress does."""
        music = cal.categories.create(name="Music")
        jazz = cal.categories.create(name="Jazz", parent=music.id)
        bebop = cal.categories.create(name="Bebop", parent=jazz.id)
        cal.categories.delete(jazz.id)
        assert music.id == cal.categories.get(bebop.id).parent

    def test_deleting_a_top_category_makes_children_top_level(self, cal: ec.Calendar) -> None:
        """Children of a deleted top-level category become top-level."""
        music = cal.categories.create(name="Music")
        jazz = cal.categories.create(name="Jazz", parent=music.id)
        cal.categories.delete(music.id)
        assert 0 == cal.categories.get(jazz.id).parent

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_count_is_the_number_of_published_events(self, cal: ec.Calendar, kind: str) -> None:
        """``count`` counts published events only (not drafts, pending or private ones)."""
        term = terms(cal, kind).create(name="Music")
        field = link_field(kind)
        make_event(cal, "One", **links(field, [term.id]))
        make_event(cal, "Two", **links(field, [term.id]))
        for status in ("draft", "pending", "private"):
            make_event(cal, status, status=status, **links(field, [term.id]))
        assert 2 == terms(cal, kind).get(term.id).count

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_count_drops_when_an_event_is_trashed(self, cal: ec.Calendar, kind: str) -> None:
        """Trashing an event lowers the count of its terms."""
        term = terms(cal, kind).create(name="Music")
        event = make_event(cal, "One", **links(link_field(kind), [term.id]))
        cal.events.delete(event.id)
        assert 0 == terms(cal, kind).get(term.id).count

    # == term lists (spec 4.4) ================================================================
    def _terms_in_use(self, cal: ec.Calendar, kind: str, names: list[str]) -> list[Any]:
        """Create terms with these names, each used by one published event."""
        made = [terms(cal, kind).create(name=name) for name in names]
        make_event(cal, "Uses all", **links(link_field(kind), [t.id for t in made]))
        return made

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_of_nothing_is_empty(self, cal: ec.Calendar, kind: str) -> None:
        """An empty taxonomy lists an empty first page."""
        page = terms(cal, kind).list()
        assert ((), 0, 0, 1) == (page.items, page.total, page.total_pages, page.page)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_hides_empty_terms_by_default(self, cal: ec.Calendar, kind: str) -> None:
        """Terms no published event uses are hidden unless ``hide_empty=False``."""
        (used,) = self._terms_in_use(cal, kind, ["Used"])
        terms(cal, kind).create(name="Unused")
        draft_only = terms(cal, kind).create(name="Draft only")
        make_event(cal, "Plan", status="draft", **links(link_field(kind), [draft_only.id]))
        assert [used.id] == ids(terms(cal, kind).list())

    @pytest.mark.parametrize("hide_empty", [False, "0", "false"])
    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_shows_empty_terms_on_request(
        self, cal: ec.Calendar, kind: str, hide_empty: object
    ) -> None:
        """``hide_empty`` false (or ``"0"``) lists unused terms with a count of 0."""
        (used,) = self._terms_in_use(cal, kind, ["Used"])
        unused = terms(cal, kind).create(name="Zero")
        page = terms(cal, kind).list(hide_empty=hide_empty)
        assert [(used.id, 1), (unused.id, 0)] == [(t.id, t.count) for t in page]

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_counts_published_events(self, cal: ec.Calendar, kind: str) -> None:
        """Listed terms carry the number of published events using them."""
        music, jazz = self._terms_in_use(cal, kind, ["Music", "Jazz"])
        make_event(cal, "Jam", **links(link_field(kind), [jazz.id]))
        make_event(cal, "Plan", status="draft", **links(link_field(kind), [jazz.id]))
        assert [(jazz.id, 2), (music.id, 1)] == [(t.id, t.count) for t in terms(cal, kind).list()]

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_orders_by_name_ignoring_case(self, cal: ec.Calendar, kind: str) -> None:
        """The default order is by name, ascending, ignoring case (``A, b, C``)."""
        spoken, outdoor, free = self._terms_in_use(cal, kind, ["spoken word", "Outdoor", "Free"])
        assert [free.id, outdoor.id, spoken.id] == ids(terms(cal, kind).list())

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_order_desc(self, cal: ec.Calendar, kind: str) -> None:
        """``order="desc"`` reverses the name order."""
        b, a, c = self._terms_in_use(cal, kind, ["b", "A", "C"])
        assert [c.id, b.id, a.id] == ids(terms(cal, kind).list(order="desc"))

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_orderby_id(self, cal: ec.Calendar, kind: str) -> None:
        """``orderby="id"`` lists terms in creation order."""
        made = self._terms_in_use(cal, kind, ["Zeta", "Alpha", "Mu"])
        assert ids(made) == ids(terms(cal, kind).list(orderby="id"))

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_orderby_slug_desc(self, cal: ec.Calendar, kind: str) -> None:
        """``orderby="slug"`` sorts by slug (here descending)."""
        made = [
            terms(cal, kind).create(name=name, slug=slug)
            for name, slug in (("Alpha", "zz"), ("Beta", "aa"), ("Gamma", "mm"))
        ]
        make_event(cal, "Uses all", **links(link_field(kind), ids(made)))
        assert [made[0].id, made[2].id, made[1].id] == ids(
            terms(cal, kind).list(orderby="slug", order="desc")
        )

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_orderby_count_desc_keeps_ties_by_id(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """By count, descending; equal counts stay in id order, as the reference lists them."""
        one_a, two, one_b = self._terms_in_use(cal, kind, ["One A", "Two", "One B"])
        make_event(cal, "Again", **links(link_field(kind), [two.id]))
        assert [two.id, one_a.id, one_b.id] == ids(
            terms(cal, kind).list(orderby="count", order="desc")
        )

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_unknown_orderby_sorts_by_name(self, cal: ec.Calendar, kind: str) -> None:
        """An unknown ``orderby`` falls back to name order, as WordPress does."""
        b, a = self._terms_in_use(cal, kind, ["B", "A"])
        assert [a.id, b.id] == ids(terms(cal, kind).list(orderby="bogus"))

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_bad_order_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """``order`` must be ``asc`` or ``desc``."""
        with pytest.raises(InvalidParameter, match="order") as info:
            terms(cal, kind).list(order="sideways")
        assert ["order"] == list(info.value.fields)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_search_in_name(self, cal: ec.Calendar, kind: str) -> None:
        """``search`` matches a case-insensitive substring of the name."""
        jazz, _ = self._terms_in_use(cal, kind, ["Jazz", "Rock"])
        assert [jazz.id] == ids(terms(cal, kind).list(search="JAZ"))

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_search_in_slug(self, cal: ec.Calendar, kind: str) -> None:
        """``search`` also matches the slug."""
        sports = terms(cal, kind).create(name="Sports", slug="sport-events")
        make_event(cal, "Match", **links(link_field(kind), [sports.id]))
        assert [sports.id] == ids(terms(cal, kind).list(search="events"))

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_include(self, cal: ec.Calendar, kind: str) -> None:
        """``include`` restricts the list to those ids (CSV accepted)."""
        a, _, c = self._terms_in_use(cal, kind, ["A", "B", "C"])
        assert [a.id, c.id] == ids(terms(cal, kind).list(include=f"{c.id},{a.id}"))

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_include_unknown_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """``include`` must name existing terms of the taxonomy."""
        with pytest.raises(InvalidParameter, match="include") as info:
            terms(cal, kind).list(include=[999999])
        assert ["include"] == list(info.value.fields)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_exclude(self, cal: ec.Calendar, kind: str) -> None:
        """``exclude`` leaves those ids out."""
        a, b, c = self._terms_in_use(cal, kind, ["A", "B", "C"])
        assert [b.id] == ids(terms(cal, kind).list(exclude=[a.id, c.id]))

    def test_category_list_parent_lists_direct_children(self, cal: ec.Calendar) -> None:
        """``parent`` lists the direct children of a category, not grandchildren."""
        music = cal.categories.create(name="Music")
        jazz = cal.categories.create(name="Jazz", parent=music.id)
        rock = cal.categories.create(name="Rock", parent=music.id)
        cal.categories.create(name="Bebop", parent=jazz.id)
        assert [jazz.id, rock.id] == ids(cal.categories.list(parent=music.id, hide_empty=False))

    def test_category_list_parent_zero_is_invalid(self, cal: ec.Calendar) -> None:
        """``parent`` must be an existing category: 0 is refused, as the reference does."""
        cal.categories.create(name="Music")
        with pytest.raises(InvalidParameter, match="parent") as info:
            cal.categories.list(parent=0, hide_empty=False)
        assert ["parent"] == list(info.value.fields)

    def test_category_list_unknown_parent_is_invalid(self, cal: ec.Calendar) -> None:
        """An unknown ``parent`` is refused."""
        with pytest.raises(InvalidParameter, match="parent"):
            cal.categories.list(parent=999999)

    def test_tag_list_parent_zero_lists_every_tag(self, cal: ec.Calendar) -> None:
        """Tags are flat: ``parent=0`` filters nothing out."""
        outdoor = cal.tags.create(name="Outdoor")
        family = cal.tags.create(name="Family")
        assert [family.id, outdoor.id] == ids(cal.tags.list(parent=0, hide_empty=False))

    @pytest.mark.parametrize("param", ["post", "event"])
    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_of_an_event(self, cal: ec.Calendar, kind: str, param: str) -> None:
        """``post`` (or its alias ``event``) lists the terms of that event."""
        music, jazz, _ = self._terms_in_use(cal, kind, ["Music", "Jazz", "Rock"])
        event = make_event(cal, "Gala", **links(link_field(kind), [music.id, jazz.id]))
        assert [jazz.id, music.id] == ids(terms(cal, kind).list(**{param: event.id}))

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_event_wins_over_post(self, cal: ec.Calendar, kind: str) -> None:
        """When both ``event`` and ``post`` are given, ``event`` is used."""
        music, jazz = self._terms_in_use(cal, kind, ["Music", "Jazz"])
        first = make_event(cal, "First", **links(link_field(kind), [music.id]))
        second = make_event(cal, "Second", **links(link_field(kind), [jazz.id]))
        assert [jazz.id] == ids(terms(cal, kind).list(post=first.id, event=second.id))

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_post_must_be_an_event(self, cal: ec.Calendar, kind: str) -> None:
        """``post`` must name an existing event."""
        venue = cal.venues.create(venue="Hall")
        with pytest.raises(InvalidParameter, match="post") as info:
            terms(cal, kind).list(post=venue.id)
        assert ["post"] == list(info.value.fields)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_slug(self, cal: ec.Calendar, kind: str) -> None:
        """``slug`` lists the term with exactly that slug."""
        sports = terms(cal, kind).create(name="Sports", slug="sport-events")
        terms(cal, kind).create(name="Sport")
        assert [sports.id] == ids(terms(cal, kind).list(slug="sport-events", hide_empty=False))

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_second_page(self, cal: ec.Calendar, kind: str) -> None:
        """``page`` and ``per_page`` slice the ordered list."""
        made = self._terms_in_use(cal, kind, ["A", "B", "C", "D", "E"])
        page = terms(cal, kind).list(page=2, per_page=2)
        assert ([made[2].id, made[3].id], 5, 3) == (ids(page), page.total, page.total_pages)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_page_past_the_end_is_empty(self, cal: ec.Calendar, kind: str) -> None:
        """A term page past the last one is empty, not an error, and keeps the totals."""
        self._terms_in_use(cal, kind, ["A", "B", "C"])
        page = terms(cal, kind).list(page=50, per_page=2)
        assert ((), 3, 2, 50) == (page.items, page.total, page.total_pages, page.page)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_per_page_is_clamped_to_fifty(self, cal: ec.Calendar, kind: str) -> None:
        """A term ``per_page`` above the maximum is clamped."""
        assert 50 == terms(cal, kind).list(per_page=500).per_page

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_bad_page_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """A term ``page`` must be a positive whole number."""
        with pytest.raises(InvalidParameter, match="page") as info:
            terms(cal, kind).list(page=-1)
        assert ["page"] == list(info.value.fields)
