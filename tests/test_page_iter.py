"""A property of ``iter``: whatever the data and the batch size, it is every list page."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import attrs
from hypothesis import given
from hypothesis import strategies as st

import events_calendar as ec
from events_calendar.backends.sql.compiler import compile_filter
from events_calendar.backends.sqlite import SQLiteBackend
from events_calendar.listing import event_filter
from events_calendar.permissions import Actor
from events_calendar.queries import EventFilter, EventQuery

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


def _pages(cal: ec.Calendar, **params: object) -> list[int]:
    found: list[int] = []
    page = 1
    while True:
        listed = cal.events.list(page=page, per_page=7, **params)
        found.extend(e.id for e in listed)
        if page >= listed.total_pages:
            return found
        page += 1


@given(
    starts=st.lists(st.integers(min_value=0, max_value=5), min_size=0, max_size=30),
    batch=st.integers(min_value=1, max_value=8),
    featured=st.sampled_from([None, True, False]),
)
def test_iter_is_every_page_whatever_the_ties(
    starts: list[int], batch: int, featured: bool | None
) -> None:
    """Events on few distinct start times (many ties) stream in list order in any batch size."""
    cal = ec.connect("memory://", clock=ec.FixedClock(NOW))
    for n, day in enumerate(starts):
        begin = NOW + timedelta(days=day)
        cal.events.create(
            title=f"E{n}",
            start_date=begin,
            end_date=begin + timedelta(hours=1),
            featured=n % 2 == 0,
        )
    params = {} if featured is None else {"featured": featured}
    assert _pages(cal, **params) == [e.id for e in cal.events.iter(batch_size=batch, **params)]


def test_iter_keywords_add_to_a_query_object() -> None:
    """``iter(EventQuery(...), featured=True)``: the keywords refine the query object."""
    cal = ec.connect("memory://", clock=ec.FixedClock(NOW))
    for n in range(4):
        begin = NOW + timedelta(days=n)
        cal.events.create(title=f"E{n}", start_date=begin, end_date=begin, featured=n % 2 == 1)
    query = ec.EventQuery(start_date="2026-11-23")
    assert ["E1", "E3"] == [e.title for e in cal.events.iter(query, featured=True)]


def test_a_keyset_page_walks_the_start_index_from_the_cursor() -> None:
    """On SQLite an ``iter`` page is one walk of the start index, begun at the cursor and
    cut at the page size: no sort of every match after it (which made pages quadratic)."""
    backend = SQLiteBackend(None)
    query = EventQuery(start_date="2020-01-01", end_date="2030-01-01", status=["publish", "draft"])
    flt = event_filter(query, Actor.full_access(), backend, ec.Settings(), UTC, NOW)
    page = attrs.evolve(flt, after=EventFilter.BEFORE_ALL, limit=100)
    sql, params = compile_filter(backend.dialect, "event", page).rows_sql()
    plan = [row[-1] for row in backend.engine.execute("EXPLAIN QUERY PLAN " + sql, params).rows]
    assert ["SEARCH e USING INDEX events_start (utc_start>? AND utc_start<?)"] == plan
