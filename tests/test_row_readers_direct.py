"""The generated row readers fill a record's fields themselves (``backends/sql/rows.py``,
``_direct``): what they build must be what the class's own ``__init__`` builds, and a class
whose ``__init__`` does more must still be built by it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import attrs
import pytest

import events_calendar as ec
from events_calendar.backends.sql.rows import record_reader
from events_calendar.backends.sql.schema import link_fields
from events_calendar.backends.sqlite import SQLiteBackend
from events_calendar.records import Category, Event, Organizer, Record, Tag, User, Venue
from events_calendar.statuses import Status

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


def _typed(record: object) -> dict[str, Any]:
    """Every field's value and exact type, and the zone of each datetime."""
    found: dict[str, Any] = {}
    for field in attrs.fields(type(record)):
        value = getattr(record, field.name)
        zone = getattr(value, "tzinfo", None)
        found[field.name] = (value, type(value), None if zone is None else str(zone))
    return found


def _through_init(record: object) -> object:
    """The same record built by calling its class with its init fields' values."""
    fields = attrs.fields(type(record))
    return type(record)(**{f.name: getattr(record, f.name) for f in fields if f.init})


def test_records_read_directly_equal_those_their_init_builds() -> None:
    """Events in an IANA zone and at an offset, with links, a password, a draft status and
    a term's count: every field, its type and its zone as ``__init__`` makes them."""
    cal = ec.connect("sqlite://", clock=ec.FixedClock(NOW))
    music = cal.categories.create(name="Music")
    tag = cal.tags.create(name="Outdoor")
    hall = cal.venues.create(venue="Hall", show_map=False)
    band = cal.organizers.create(organizer="Band")
    events = [
        cal.events.create(
            title="Gala", start_date="2031-05-01 19:00", end_date="2031-05-01 23:00",
            timezone="Europe/Paris", venue=[hall.id], organizer=[band.id],
            categories=[music.id], tags=[tag.id], cost="$10", featured=True,
        ),
        cal.events.create(
            title="Dawn", start_date="2031-03-30 01:30", end_date="2031-03-30 04:00",
            timezone="UTC+5:30", password="pw", status="draft", all_day=True,
        ),
    ]  # fmt: skip
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend)
    groups: list[tuple[type[Record], list[int]]] = [
        (Event, [e.id for e in events]),
        (Venue, [hall.id]),
        (Organizer, [band.id]),
        (Category, [music.id]),
        (Tag, [tag.id]),
    ]
    for cls, ids in groups:
        result = backend._select(cls.kind, ids)
        found = backend._links(ids) if cls is Event else None
        links = None if found is None else [found[f] for f in link_fields(Event)]
        read = record_reader(cls, result.columns)
        for row in result.rows:
            record = read(row, links)
            assert _typed(_through_init(record)) == _typed(record)
    assert (Status.DRAFT, 1) == (
        backend.get_many(Event, [events[1].id])[events[1].id].status,
        backend.get_many(Category, [music.id])[music.id].count,
    )


def test_a_stored_value_the_enum_does_not_list_fails_as_the_converter_fails() -> None:
    """A role no member has goes through ``Role`` itself, which refuses it."""
    read = record_reader(User, ("id", "login", "role", "display_name", "email"))
    assert ec.Role.EDITOR == read((1, "ada", "editor", "", ""), None).role
    with pytest.raises(ValueError, match="'boss' is not a valid Role"):
        read((1, "ada", "boss", "", ""), None)


@attrs.frozen(kw_only=True)
class _Checked:
    """A class whose ``__init__`` validates and runs a hook: not for the direct path."""

    id: int = attrs.field(validator=attrs.validators.gt(0))
    name: str = ""
    seen: list[str] = attrs.field(init=False, factory=list)

    def __attrs_post_init__(self) -> None:
        self.seen.append("post-init")


def test_a_class_whose_init_does_more_is_built_by_its_init() -> None:
    """Validators and hooks still run: such a class is read by calling it."""
    read = record_reader(_Checked, ("id", "name"))  # type: ignore[type-var]
    assert ["post-init"] == read((3, "x"), None).seen
    with pytest.raises(ValueError, match="'id' must be > 0"):
        read((0, "x"), None)


@attrs.frozen(kw_only=True, cache_hash=True)
class _CachedHash:
    id: int
    name: str


def test_a_class_caching_its_hash_is_built_by_its_init() -> None:
    """Its ``__init__`` also resets the cached hash, which setting the fields would skip."""
    read = record_reader(_CachedHash, ("id", "name"))  # type: ignore[type-var]
    record = read((3, "x"), None)
    assert (hash(record), record) == (
        hash(_CachedHash(id=3, name="x")),
        _CachedHash(id=3, name="x"),
    )


@attrs.define(kw_only=True)
class _LeftUnset:
    """A field ``__init__`` neither takes nor sets (no default): it stays unset."""

    id: int
    later: str = attrs.field(init=False)


def test_a_field_init_leaves_unset_stays_unset() -> None:
    """Its ``__init__`` sets no value for ``later``: the reader must not set attrs' NOTHING
    marker there, as setting every field in turn would."""
    read = record_reader(_LeftUnset, ("id",))  # type: ignore[type-var]
    record = read((3,), None)
    assert (3, False) == (record.id, hasattr(record, "later"))
