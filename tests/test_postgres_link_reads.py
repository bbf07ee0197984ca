"""PostgreSQL reads an event's links from an index alone (migration 13): the statements
``SQLStore._links`` runs scan an index holding the event, the position and the target, in
the order asked, where they read the primary key's index, fetched each row for its position
and sorted them (half of ``iter``'s time at 30,000 events)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

import events_calendar as ec
from events_calendar.backends.postgres import PostgresBackend
from events_calendar.backends.sql.engine import Result
from events_calendar.backends.sql.schema import LINKS
from sql_backends import postgres

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
DAY = {"start_date": "2027-01-05 19:00", "end_date": "2027-01-05 21:00"}


@pytest.fixture
def backend() -> Iterator[PostgresBackend]:
    """A calendar on the shared test database, emptied."""
    backend = postgres()
    yield backend
    backend.close()


def _linked_events(backend: PostgresBackend) -> list[ec.Event]:
    """A few events, each with a venue, two organizers, two categories and two tags."""
    cal = ec.Calendar(backend, clock=ec.FixedClock(NOW))
    venue = cal.venues.create(venue="Hall")
    organizers = [cal.organizers.create(organizer=f"Org {n}").id for n in range(2)]
    categories = [cal.categories.create(name=f"Cat {n}").id for n in range(2)]
    tags = [cal.tags.create(name=f"Tag {n}").id for n in range(2)]
    return [
        cal.events.create(
            title=f"Gala {n}",
            venue=venue.id,
            organizer=organizers[::-1] if n % 2 else organizers,
            categories=categories,
            tags=tags[::-1],
            **DAY,
        )
        for n in range(6)
    ]


def _link_statements(
    backend: PostgresBackend, monkeypatch: pytest.MonkeyPatch, ids: list[int]
) -> list[tuple[str, list[Any]]]:
    """The statements (and their parameters) that read these events' links, one per link
    table (as for a batch of ``iter``)."""
    seen: list[tuple[str, list[Any]]] = []
    execute = backend.engine.execute

    def recording(sql: str, params: Any = ()) -> Result:
        seen.append((sql, list(params)))
        return execute(sql, params)

    monkeypatch.setattr(backend, "links_apart", 0)
    monkeypatch.setattr(backend.engine, "execute", recording)
    backend._links(ids)
    monkeypatch.undo()
    return seen


def test_an_events_links_are_read_from_an_index_alone(
    backend: PostgresBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each link table's read is an index-only scan of its ``_of_event`` index, in the
    order asked: no table row fetched for its position, no sort (before migration 13: the
    primary key's index, then a sort by position)."""
    events = _linked_events(backend)
    statements = _link_statements(backend, monkeypatch, [e.id for e in events])
    engine = backend.engine
    plans = []
    with engine.transaction():
        engine.execute("SET LOCAL enable_seqscan = off")  # a few rows: as on a large table
        engine.execute("SET LOCAL enable_bitmapscan = off")
        for sql, params in statements:
            plans.append(engine.execute(f"EXPLAIN {sql}", params).first_column())
    tables = sorted(link.table for link in LINKS.values())
    assert [f"Index Only Scan using {t}_of_event on {t}" for t in tables] == sorted(
        plan[0].split("  (")[0] for plan in plans
    ), plans
    assert [] == [line for plan in plans for line in plan if "Sort" in line]


def test_links_read_from_the_index_keep_their_order(backend: PostgresBackend) -> None:
    """Read back, each event's links come in the order they were given."""
    events = _linked_events(backend)
    backend.links_apart = 0  # one statement per link table, as ``iter`` reads a batch
    cal = ec.Calendar(backend, clock=ec.FixedClock(NOW))
    read = [cal.events.get(e.id) for e in events]
    many = list(cal.events.iter(start_date="2027-01-01"))
    expected = [(e.id, e.venue, e.organizer, e.categories, e.tags) for e in events]
    assert expected == [(e.id, e.venue, e.organizer, e.categories, e.tags) for e in read]
    assert expected == sorted((e.id, e.venue, e.organizer, e.categories, e.tags) for e in many)
