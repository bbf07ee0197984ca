"""An event's links read for a few events (one statement for the four link tables) and for
many (one statement per table, ``SQLStore.links_apart``): the same lists, in stored order."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import events_calendar as ec
from events_calendar.backends.sqlite import SQLiteBackend

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
FIELDS = ("categories", "tags", "venue", "organizer")


def _calendar() -> tuple[ec.Calendar, SQLiteBackend, dict[int, dict[str, list[int]]]]:
    """Twelve events linked in varied orders (one with no links at all), and each one's
    links as sent."""
    cal = ec.connect("sqlite://", clock=ec.FixedClock(NOW))
    terms = [cal.categories.create(name=f"C{n}").id for n in range(4)]
    tags = [cal.tags.create(name=f"T{n}").id for n in range(3)]
    venues = [cal.venues.create(venue=f"V{n}").id for n in range(3)]
    people = [cal.organizers.create(organizer=f"O{n}").id for n in range(3)]
    sent: dict[int, dict[str, list[int]]] = {}
    for n in range(12):
        links = {
            "categories": terms[n % 4 :] + terms[: n % 4],
            "tags": tags[: n % 4],
            "venue": venues[n % 3 :: -1],
            "organizer": people[(n + 1) % 3 :],
        }
        if n == 11:
            links = {field: [] for field in FIELDS}
        event = cal.events.create(
            title=f"E{n}", start_date="2031-05-01 19:00", end_date="2031-05-01 20:00", **links
        )
        sent[event.id] = links
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend)
    return cal, backend, sent


@pytest.mark.parametrize("apart", [0, 1000])
def test_links_read_together_or_apart_are_the_lists_sent(apart: int) -> None:
    """Every event's four link lists, in the order given, whichever way they are read."""
    _, backend, sent = _calendar()
    backend.links_apart = apart
    found = backend._links(list(sent))
    read = {i: {field: found[field].get(i, []) for field in FIELDS} for i in sent}
    assert sent == read


@pytest.mark.parametrize(("apart", "statements"), [(0, 4), (1000, 1)])
def test_links_of_many_events_are_read_with_one_statement_per_link_table(
    apart: int, statements: int
) -> None:
    """At ``links_apart`` events or more, one statement per link table; below, one."""
    cal, backend, sent = _calendar()
    backend.links_apart = apart
    event_id = list(sent)[5]
    seen: list[str] = []
    with backend.db.tracer(lambda sql, params: seen.append(sql)):
        read = cal.events.get(event_id)
    assert statements == sum("ORDER BY" in sql and "position" in sql for sql in seen)
    assert sent[event_id] == {field: list(getattr(read, field)) for field in FIELDS}
