"""The SQL compiler has an entry for every filter field, and the SQLite dialect's pieces."""

from __future__ import annotations

import json

import attrs
import pytest

import events_calendar as ec
from events_calendar.backends.sql.compiler import (
    EVENT_ENTRIES,
    LINKED_ENTRIES,
    TERM_ENTRIES,
    compile_filter,
)
from events_calendar.backends.sqlite import SQLiteDialect
from events_calendar.queries import EventFilter, LinkedFilter, TermFilter
from events_calendar.testing.postgres import test_database


@pytest.mark.parametrize(
    ("filter_class", "entries"),
    [(EventFilter, EVENT_ENTRIES), (LinkedFilter, LINKED_ENTRIES), (TermFilter, TERM_ENTRIES)],
    ids=["event", "linked", "term"],
)
def test_every_filter_field_has_a_compiler_entry(
    filter_class: type, entries: dict[str, object]
) -> None:
    """A filter field without an entry (or an entry without a field) fails here."""
    assert sorted(f.name for f in attrs.fields(filter_class)) == sorted(entries)


def test_no_limit_compiles_to_no_limit_clause() -> None:
    """``limit=None`` asks for every match from the offset on."""
    sql, params = compile_filter(SQLiteDialect(), "event", EventFilter(limit=None)).rows_sql()
    assert ("LIMIT" not in sql, ["publish"]) == (True, params)


def test_an_offset_without_a_limit_is_valid_sqlite() -> None:
    """SQLite needs a LIMIT before OFFSET; -1 means none."""
    sql, params = compile_filter(
        SQLiteDialect(), "event", EventFilter(limit=None, offset=5)
    ).rows_sql()
    assert (sql.endswith("LIMIT -1 OFFSET ?"), 5) == (True, params[-1])


def test_long_id_lists_travel_as_one_json_parameter() -> None:
    """Past the inline limit an IN list is one JSON array, not thousands of placeholders."""
    ids = list(range(1, 2001))
    sql, params = SQLiteDialect().in_("id", ids)
    assert ("id IN (SELECT value FROM json_each(?))", ids) == (sql, json.loads(params[0]))


def test_an_empty_in_list_matches_nothing() -> None:
    """No ids: a false condition, no parameters."""
    assert ("0", []) == SQLiteDialect().in_("id", [])


def test_a_long_include_list_finds_its_events() -> None:
    """An include list longer than the inline limit answers the same events."""
    cal = ec.connect("sqlite://")
    ids = [
        cal.events.create(
            title=f"E{n}", start_date="2031-01-01 10:00", end_date="2031-01-01 11:00"
        ).id
        for n in range(3)
    ]
    found, total = cal.backend.query(
        ec.Event, EventFilter(include=frozenset([*ids, *range(10_000, 11_000)]), limit=None)
    )
    assert (ids, 3) == ([e.id for e in found], total)


def test_postgresql_orders_names_by_code_point_whatever_the_collation() -> None:
    """Term names sort as Python sorts them, not by the database's locale: folded by the
    function mirroring ``queries.fold`` (no case, no accents), then compared by code point."""
    from events_calendar.backends.postgres import PostgresDialect

    q = compile_filter(PostgresDialect(), "category", TermFilter(orderby="name"))
    assert 'search_fold(t.name) COLLATE "C", t.id' == q.order


@pytest.mark.parametrize("url", ["sqlite://", "memory://", "postgresql"])
def test_an_offset_without_a_limit_answers_the_rest(url: str) -> None:
    """Every backend answers ``offset=1, limit=None`` with all matches but the first."""
    if url == "postgresql":
        database = test_database()
        database.reset()
        url = database.url
    with ec.connect(url) as cal:
        ids = [
            cal.events.create(
                title=f"E{n}",
                start_date=f"2031-01-0{n + 1} 10:00",
                end_date=f"2031-01-0{n + 1} 11:00",
            ).id
            for n in range(3)
        ]
        found, _ = cal.backend.query(ec.Event, EventFilter(offset=1, limit=None), count=False)
        assert ids[1:] == [e.id for e in found]


def test_a_page_past_the_first_reads_its_ids_first() -> None:
    """Past the first page, the skipped rows are found by their ids and order alone and only
    the page's own rows are read whole (``Select.rows_sql``); the first page reads directly."""
    first = compile_filter(SQLiteDialect(), "event", EventFilter(limit=10)).rows_sql()[0]
    deep = compile_filter(SQLiteDialect(), "event", EventFilter(offset=30, limit=10)).rows_sql()
    assert "listed" not in first
    assert deep[0].startswith('SELECT e."id", ')
    assert "FROM (SELECT e.id AS row_id, e.utc_start AS k0, e.id AS k1 FROM" in deep[0]
    assert deep[0].endswith("WHERE e.id = listed.row_id ORDER BY listed.k0, listed.k1")
    assert deep[1][-2:] == [10, 30]


@pytest.mark.parametrize("url", ["sqlite://", "postgresql"])
@pytest.mark.parametrize("by_date", [False, True])
def test_a_page_past_the_first_lists_what_the_whole_list_holds(url: str, by_date: bool) -> None:
    """Every page, read by ids first, is its slice of the whole list, in order, ties of the
    order's first term (one start, one publication time) kept in id order."""
    if url == "postgresql":
        database = test_database()
        database.reset()
        url = database.url
    with ec.connect(url) as cal:
        for n in range(9):
            cal.events.create(
                title=f"E{n}",
                start_date=f"2031-01-0{n % 3 + 1} 10:00",
                end_date=f"2031-01-0{n % 3 + 1} 11:00",
            )
        flt = EventFilter(order_by_date=by_date)
        whole, _ = cal.backend.query(ec.Event, flt, count=False)
        pages = [
            cal.backend.query(ec.Event, attrs.evolve(flt, offset=o, limit=2), count=False)[0]
            for o in range(0, 10, 2)
        ]
        assert [e.id for e in whole] == [e.id for page in pages for e in page]
