"""Ids named by a write are looked up once each, in batches, before any permission check.

Validation precedes permission (the reference's order), so anyone may make the server check
the ids of a body: each distinct id of a field is asked once, a thousand at a time, however
often the body repeats it (issue: a 500 KB body of one category id repeated kept a worker
thread busy 10 s, one storage query per id).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

import pytest

import events_calendar as ec
from events_calendar.backends.memory import MemoryBackend
from events_calendar.backends.postgres import PostgresBackend
from events_calendar.errors import Forbidden, InvalidParameter
from events_calendar.records import Record
from events_calendar.storage import Backend
from events_calendar.testing.postgres import test_database

DATES = {"start_date": "2031-06-15 19:00", "end_date": "2031-06-15 20:00"}


class CountingBackend:
    """A backend that records the ids each ``get_many`` asks for, by kind."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self.asked: list[tuple[str, list[int]]] = []

    def get_many(self, cls: type[Record], ids: Iterable[int]) -> Any:
        wanted = list(ids)
        self.asked.append((cls.kind, wanted))
        return self._backend.get_many(cls, wanted)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._backend, name)

    def of(self, kind: str) -> list[list[int]]:
        """The ids of each lookup of ``kind`` records so far."""
        return [ids for asked, ids in self.asked if asked == kind]


def _backend(name: str) -> Backend:
    if name == "memory":
        return MemoryBackend()
    if name == "sqlite":
        return ec.connect("sqlite://").backend
    database = test_database()
    database.reset()
    return PostgresBackend(database.url)


class Counted(NamedTuple):
    cal: ec.Calendar
    backend: CountingBackend
    ids: dict[str, int]  # of the one record each link field may name


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def counted(request: pytest.FixtureRequest) -> Iterator[Counted]:
    """A calendar with one venue, organizer, category and tag, over a counting backend."""
    backend = CountingBackend(_backend(request.param))
    cal = ec.Calendar(backend)  # type: ignore[arg-type]
    ids = {
        "venue": cal.venues.create(venue="Hall").id,
        "organizer": cal.organizers.create(organizer="Acme").id,
        "categories": cal.categories.create(name="Music").id,
        "tags": cal.tags.create(name="Jazz").id,
    }
    backend.asked.clear()
    yield Counted(cal, backend, ids)
    close = getattr(backend, "close", None)
    if close is not None:
        close()


KINDS = {"venue": "venue", "organizer": "organizer", "categories": "category", "tags": "tag"}


@pytest.mark.parametrize("field", list(KINDS))
def test_an_id_repeated_250000_times_is_looked_up_once(counted: Counted, field: str) -> None:
    """An anonymous create naming one id 250,000 times asks storage about it once, then 401."""
    cal, backend, ids = counted
    record_id = ids[field]
    with pytest.raises(Forbidden):
        cal.as_user(None).events.create(
            title="x", **DATES, **{field: ",".join([str(record_id)] * 250_000)}
        )
    assert [[record_id]] == backend.of(KINDS[field])


@pytest.mark.parametrize("field", list(KINDS))
def test_repeated_ids_are_stored_once_in_the_order_given(counted: Counted, field: str) -> None:
    """Ids given as ints and texts, again and again, link the record once, in one lookup."""
    cal, backend, ids = counted
    record_id = ids[field]
    event = cal.events.create(
        title="x", **DATES, **{field: [record_id, str(record_id)] * 1_000 + [f" {record_id}"]}
    )
    assert [[record_id]] == backend.of(KINDS[field])[:1]
    assert [record_id] == [getattr(linked, "id", linked) for linked in getattr(event, field)]


@pytest.mark.parametrize("field", list(KINDS))
def test_thousands_of_unknown_ids_stop_at_the_first_batch(counted: Counted, field: str) -> None:
    """5,000 distinct ids, the first existing and the rest not, are looked up a thousand at a
    time up to the first unknown one, which the error names."""
    cal, backend, ids = counted
    record_id = ids[field]
    unknown = list(range(10_001, 15_000))
    with pytest.raises(InvalidParameter, match="with id 10001; send an existing id"):
        cal.as_user(None).events.create(title="x", **DATES, **{field: [record_id, *unknown]})
    assert [1_000] == [len(ids) for ids in backend.of(KINDS[field])]


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ([7_777, "1.5"], "there is no category with id 7777; send an existing id"),
        (["Rock", 7_777, [1]], "there is no category with id 7777; send an existing id"),
        ([[1], 7_777], "send a list of category ids, names or slugs, not [1]"),
        (["12x", 7_777, "99"], "there is no category with id 7777; send an existing id"),
        (["99", 7_777], "there is no category with id 99; send an existing id"),
    ],
)
def test_the_first_bad_category_is_the_one_named(
    counted: Counted, value: list[object], why: str
) -> None:
    """Whatever is wrong with them, the first bad item of a list is the one the error names."""
    cal = counted.cal
    with pytest.raises(InvalidParameter) as raised:
        cal.events.create(title="x", **DATES, categories=value)
    assert {"categories": why} == raised.value.fields
