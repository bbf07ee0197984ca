"""Rows of the SQL store read back as records: the generated readers (``backends/sql/rows.py``)
build what the generic storage converter builds, and links keep their stored order."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import attrs

import events_calendar as ec
from events_calendar.backends.sql.engine import Result
from events_calendar.backends.sql.rows import Links, record_reader
from events_calendar.backends.sql.schema import link_fields
from events_calendar.backends.sqlite import SQLiteBackend
from events_calendar.records import Category, Credential, Event, Organizer, Record, Tag, Venue

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


def _calendar() -> ec.Calendar:
    return ec.connect("sqlite://", clock=ec.FixedClock(NOW))


def _rows(
    backend: SQLiteBackend, cls: type[Record], ids: list[int]
) -> tuple[Result, list[dict[str, Any]]]:
    """The stored rows of these records as the store reads them, and each as a dict with
    an event's link lists (what the storage converter structures)."""
    result = backend._select(cls.kind, ids)
    rows = result.dicts()
    if cls is Event:
        links = backend._links(ids)
        for row in rows:
            for field in link_fields(Event):
                row[field] = links[field].get(row["id"], [])
    return result, rows


def _links(backend: SQLiteBackend, cls: type[Record], ids: list[int]) -> Links:
    if cls is not Event:
        return None
    found = backend._links(ids)
    return [found[field] for field in link_fields(Event)]


def _typed(record: Record) -> dict[str, Any]:
    """Every field's value and exact type, the zone of each datetime, and the eq=False ones."""
    found: dict[str, Any] = {}
    for field in attrs.fields(type(record)):
        value = getattr(record, field.name)
        zone = getattr(value, "tzinfo", None)
        found[field.name] = (value, type(value), str(zone) if zone is not None else None)
    return found


def test_generated_readers_build_what_the_storage_converter_builds() -> None:
    """For every kind, with offset and IANA zones, a null website and set booleans, the
    generated reader's record equals the converter's in every field, type and zone."""
    cal = _calendar()
    music = cal.categories.create(name="Music")
    jazz = cal.categories.create(name="Jazz", parent=music.id)
    tag = cal.tags.create(name="Outdoor")
    hall = cal.venues.create(venue="Hall", city="Lyon", show_map=False)
    band = cal.organizers.create(organizer="Band", email="band@example.org")
    paris = cal.events.create(
        title="Gala", start_date="2031-05-01 19:00", end_date="2031-05-01 23:00",
        timezone="Europe/Paris", venue=[hall.id], organizer=[band.id],
        categories=[jazz.id, music.id], tags=[tag.id], cost="$10", featured=True,
    )  # fmt: skip
    offset = cal.events.create(
        title="Dawn", start_date="2031-03-30 01:30", end_date="2031-03-30 04:00",
        timezone="UTC+5:30", all_day=False, password="pw", sticky=True,
    )  # fmt: skip
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend)
    converter = backend._converter
    groups: list[tuple[type[Record], list[int]]] = [
        (Event, [paris.id, offset.id]),
        (Venue, [hall.id]),
        (Organizer, [band.id]),
        (Category, [music.id, jazz.id]),
        (Tag, [tag.id]),
    ]
    for cls, ids in groups:
        result, rows = _rows(backend, cls, ids)
        read = record_reader(cls, result.columns)
        links = _links(backend, cls, ids)
        assert len(rows) == len(ids)
        for stored, row in zip(result.rows, rows, strict=True):
            generic = converter.structure(row, cls)
            assert _typed(generic) == _typed(read(stored, links))
    assert (True, None, 1) == (
        paris.featured,
        paris.website,
        backend.get_many(Tag, [tag.id])[tag.id].count,
    )


def test_users_and_credentials_read_as_the_storage_converter_reads_them() -> None:
    """A sign-in reads a credential and a user through generated readers too: the same
    records, field types (``Role``, an aware ``created``) and all."""
    cal = _calendar()
    cal.users.create("ada", role="editor", display_name="Ada", email="ada@example.org")
    cal.users.issue_password("ada", label="laptop")
    cal.users.issue_token("ada")
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend)
    converter = backend._converter
    users = backend._run("SELECT * FROM users ORDER BY id", [])
    credentials = backend._run("SELECT * FROM credentials ORDER BY id", [])
    assert len(credentials.rows) == 2
    for cls, result in ((ec.User, users), (Credential, credentials)):
        read = record_reader(cls, result.columns)
        for stored, row in zip(result.rows, result.dicts(), strict=True):
            assert _typed(converter.structure(row, cls)) == _typed(read(stored, None))
    stored = backend.credentials(backend.find_user("ada").id)  # type: ignore[union-attr]
    assert [(c.kind, c.label, c.created) for c in stored] == [
        ("password", "laptop", NOW),
        ("token", "", NOW),
    ]
    assert backend.find_user("ada") == ec.User(
        id=stored[0].user_id, login="ada", role=ec.Role.EDITOR, display_name="Ada",
        email="ada@example.org",
    )  # fmt: skip


def test_links_keep_the_order_they_were_given_in() -> None:
    """An event's categories, venues and organizers come back in the order sent, not by id."""
    cal = _calendar()
    first, second, third = (cal.categories.create(name=n) for n in ("A", "B", "C"))
    venues = [cal.venues.create(venue=n) for n in ("V1", "V2")]
    people = [cal.organizers.create(organizer=n) for n in ("O1", "O2", "O3")]
    event = cal.events.create(
        title="Order", start_date="2031-05-01 19:00", end_date="2031-05-01 20:00",
        categories=[third.id, first.id, second.id], venue=[venues[1].id, venues[0].id],
        organizer=[people[2].id, people[0].id, people[1].id],
    )  # fmt: skip
    read = cal.events.get(event.id)
    assert (
        (third.id, first.id, second.id),
        (venues[1].id, venues[0].id),
        (people[2].id, people[0].id, people[1].id),
    ) == (read.categories, read.venue, read.organizer)
