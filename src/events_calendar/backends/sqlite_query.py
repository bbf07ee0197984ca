"""Compiling normalised filters to SQL (shared by the SQLite backend's list methods).

Each function returns SQL text and its bound parameters; values are never interpolated. The
``fold()`` SQL function is registered by the backend and folds case exactly as
``queries.fold`` does, so substring tests agree with the in-memory backend.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any, Literal

from ..queries import (
    EVENT_SEARCH_FIELDS,
    LINKED_SEARCH_FIELDS,
    EventFilter,
    LinkedFilter,
    TermFilter,
)
from ..statuses import Status
from .sqlite_schema import LINK_TABLES, TABLES

__all__ = ["Compiled", "event_query", "linked_query", "term_query"]

#: (WHERE clause, parameters)
Compiled = tuple[str, list[Any]]

#: The trigram index cannot look up fragments shorter than this.
_TRIGRAM = 3


def _epoch(moment: datetime) -> int:
    return int(moment.timestamp())


def _marks(values: Collection[Any]) -> str:
    return ", ".join("?" * len(values))


class _Where:
    def __init__(self) -> None:
        self.clauses: list[str] = []
        self.params: list[Any] = []

    def add(self, clause: str, *params: Any) -> None:
        self.clauses.append(clause)
        self.params.extend(params)

    def add_in(self, column: str, values: Collection[Any]) -> None:
        if not values:
            self.clauses.append("0")
        else:
            self.add(f"{column} IN ({_marks(values)})", *sorted(values))

    def sql(self) -> str:
        return " AND ".join(self.clauses) if self.clauses else "1"


def _statuses(
    where: _Where,
    column: str,
    statuses: frozenset[Status],
    private_author: int | None,
    author_column: str,
) -> None:
    where.add_in(column, [s.value for s in statuses])
    if private_author is not None and Status.PRIVATE in statuses:
        where.add(f"({column} != 'private' OR {author_column} = ?)", private_author)


def _fts_phrase(word: str) -> str:
    return '"' + word.replace('"', '""') + '"'


def event_query(flt: EventFilter) -> tuple[str, list[Any], str]:
    """(WHERE clause, parameters, ORDER BY clause) selecting ``events e``."""
    where = _Where()
    for column, op, bound in (
        ("e.utc_start", ">=", flt.start_min),
        ("e.utc_start", ">", flt.start_after),
        ("e.utc_start", "<", flt.start_before),
        ("e.utc_end", "<=", flt.end_max),
        ("e.utc_end", ">", flt.end_after),
        ("e.utc_end", "<", flt.end_before),
    ):
        if bound is not None:
            where.add(f"{column} {op} ?", _epoch(bound))
    # An event never ends before it starts, so an upper bound on the end bounds the start too:
    # said explicitly, it lets the index range on utc_start stop instead of running to the end.
    if flt.end_max is not None:
        where.add("e.utc_start <= ?", _epoch(flt.end_max))
    if flt.end_before is not None:
        where.add("e.utc_start < ?", _epoch(flt.end_before))
    _statuses(where, "e.status", flt.statuses, flt.private_author, "e.author")
    if flt.exclude_hidden:
        where.add("e.hide_from_listings = 0")
    if flt.featured is not None:
        where.add("e.featured = ?", int(flt.featured))
    if flt.post_parent is not None:
        where.add("e.post_parent = ?", flt.post_parent)
    if flt.include is not None:
        where.add_in("e.id", flt.include)
    for ids, field in (
        (flt.venue_ids, "venue"),
        (flt.organizer_ids, "organizer"),
        (flt.category_ids, "categories"),
        (flt.tag_ids, "tags"),
    ):
        if ids is not None:
            table, column = LINK_TABLES[field]
            where.add(
                f"e.id IN (SELECT event_id FROM [{table}] WHERE [{column}] IN ({_marks(ids)}))",
                *sorted(ids),
            )
    long_words = [w for w in flt.search if len(w) >= _TRIGRAM]
    if long_words:
        where.add(
            "e.id IN (SELECT rowid FROM events_fts WHERE events_fts MATCH ?)",
            " AND ".join(_fts_phrase(w) for w in long_words),
        )
    text = " || char(10) || ".join(f"e.[{f}]" for f in EVENT_SEARCH_FIELDS)
    for word in flt.search:
        if len(word) < _TRIGRAM:
            where.add(f"instr(fold({text}), ?) > 0", word)
    order = "e.published, e.id" if flt.order_by_date else "e.utc_start, e.id"
    return where.sql(), where.params, order


def linked_query(kind: Literal["venue", "organizer"], flt: LinkedFilter) -> Compiled:
    """WHERE clause and parameters selecting ``<venues|organizers> r``."""
    where = _Where()
    table, column = LINK_TABLES[kind]
    _statuses(where, "r.status", flt.statuses, flt.private_author, "r.author")
    if flt.event_id is not None:
        where.add(f"r.id IN (SELECT [{column}] FROM [{table}] WHERE event_id = ?)", flt.event_id)
    if flt.search:
        # One field must contain every word: per field, the index narrows by the long words
        # (a column filter) and instr() checks the short ones the trigram index cannot see.
        fts = f"{TABLES[kind]}_fts"
        long_words = [w for w in flt.search if len(w) >= _TRIGRAM]
        per_field = []
        for field in LINKED_SEARCH_FIELDS[kind]:
            tests = [f"instr(fold(r.[{field}]), ?) > 0" for w in flt.search if len(w) < _TRIGRAM]
            where.params.extend(w for w in flt.search if len(w) < _TRIGRAM)
            if long_words:
                tests.append(f"r.id IN (SELECT rowid FROM [{fts}] WHERE [{fts}] MATCH ?)")
                where.params.append(
                    f"{{{field}}} : (" + " AND ".join(_fts_phrase(w) for w in long_words) + ")"
                )
            per_field.append("(" + " AND ".join(tests) + ")")
        where.clauses.append("(" + " OR ".join(per_field) + ")")
    linked_events = (
        f"SELECT 1 FROM [{table}] l JOIN events e ON e.id = l.event_id WHERE l.[{column}] = r.id"
    )
    if flt.has_events is not None:
        statuses = [s.value for s in flt.has_events_statuses]
        clause = f"EXISTS ({linked_events} AND e.status IN ({_marks(statuses)}))"
        where.add(clause if flt.has_events else f"NOT {clause}", *statuses)
    if flt.ids is not None:
        ids = sorted(flt.ids)
        where.add(f"r.id IN ({_marks(ids)})" if ids else "0", *ids)
    return where.sql(), where.params


_TERM_ORDER = {
    "name": "fold(t.name)",
    "description": "fold(t.description)",
    "slug": "t.slug",
    "count": "count",
    "id": "t.id",
    "term_group": "t.id",
    "include": "t.id",
}


def term_query(
    kind: Literal["category", "tag"], flt: TermFilter
) -> tuple[str, str, list[Any], str, list[Any]]:
    """(source, WHERE, its parameters, ORDER BY, its parameters) over ``<categories|tags> t``,
    each row with its ``count`` of published events."""
    table = TABLES[kind]
    link_table, column = LINK_TABLES["categories" if kind == "category" else "tags"]
    source = f"[{table}] t"  # ``count`` is stored, kept current by triggers (migration 0004)
    where = _Where()
    if flt.post is not None:
        where.add(f"t.id IN (SELECT [{column}] FROM [{link_table}] WHERE event_id = ?)", flt.post)
    if flt.parent is not None:
        where.add("t.parent = ?" if kind == "category" else "? = 0", flt.parent)
    if flt.include is not None:
        where.add_in("t.id", flt.include)
    if flt.exclude:
        where.add(f"t.id NOT IN ({_marks(flt.exclude)})", *sorted(flt.exclude))
    if flt.hide_empty:
        where.add("t.count > 0")
    if flt.slug is not None:
        where.add("t.slug = ?", flt.slug)
    if flt.search:
        where.add(
            "(instr(fold(t.name), fold(?)) > 0 OR instr(fold(t.slug), fold(?)) > 0)",
            flt.search,
            flt.search,
        )
    direction = " DESC" if flt.descending else ""
    order_params: list[Any] = []
    if flt.orderby == "include" and flt.include_order:
        cases = " ".join("WHEN ? THEN ?" for _ in flt.include_order)
        for position, term_id in enumerate(flt.include_order):
            order_params.extend((term_id, position))
        order_params.append(len(flt.include_order))
        order = f"CASE t.id {cases} ELSE ? END{direction}, t.id"
    else:  # ties keep ascending ids in both directions, as the reference lists them
        order = f"{_TERM_ORDER[flt.orderby]}{direction}, t.id"
    return source, where.sql(), where.params, order, order_params
