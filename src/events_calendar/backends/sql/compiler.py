"""Normalised filters compiled to SQL, one entry per filter field.

Each filter class (``EventFilter``, ``LinkedFilter``, ``TermFilter``) has a table here keyed by
its field names; an entry adds that field's condition (or its order, offset or limit) to a
``Select``. ``tests/test_sql_compiler.py`` fails when a filter field has no entry, so a new
filter cannot be forgotten by SQL backends. The meaning each entry compiles is the filter's
``matches()`` in the core; the dialect supplies only what databases spell differently.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, Literal

import attrs

from ...queries import (
    EVENT_SEARCH_FIELDS,
    LINKED_SEARCH_FIELDS,
    TERM_ORDER_FIELDS,
    EventFilter,
    LinkedFilter,
    TermFilter,
    fold,
)
from ...records import Kind
from ...statuses import Status
from .dialect import Dialect, Fragment
from .link_plans import Plan
from .schema import LINKS, TABLES, read_columns

__all__ = [
    "EVENT_ENTRIES",
    "LINKED_ENTRIES",
    "LINK_FILTERS",
    "TERM_ENTRIES",
    "Select",
    "compile_filter",
    "listing_conditions",
    "select_list",
]

#: The ``EventFilter`` fields that name linked ids, and the link (``schema.LINKS``) each reads.
LINK_FILTERS = {
    "category_ids": "categories",
    "tag_ids": "tags",
    "venue_ids": "venue",
    "organizer_ids": "organizer",
}


@attrs.define
class Select:
    """A SELECT over one table (``alias``) being built: conditions, order and paging."""

    dialect: Dialect
    kind: Kind
    alias: str
    #: How each link filter (an ``EventFilter`` field) is read; ``probe`` if not named.
    plans: Mapping[str, Plan] = attrs.field(factory=dict)
    #: What the rows are read from before the table (the driving links), and its parameters.
    driver: str = ""
    driver_params: list[Any] = attrs.field(factory=list)
    #: The list order's (start, id) columns when a link table's listing index drives the
    #: walk (the ``index`` plan): its own copy of the key, so its index order is the order.
    sort: tuple[str, str] | None = None
    where: list[str] = attrs.field(factory=list)
    params: list[Any] = attrs.field(factory=list)
    order: str = ""
    order_params: list[Any] = attrs.field(factory=list)
    #: The terms of ``order`` when an event list sets it (its last one unique), which a deep
    #: page's few rows are put back in order by (``rows_sql``).
    order_keys: tuple[str, ...] = ()
    offset: int = 0
    limit: int | None = None

    @property
    def source(self) -> str:
        table = f"{self.dialect.quote(TABLES[self.kind])} {self.alias}"
        # ``CROSS JOIN`` makes SQLite loop over the left side first (other databases read it as
        # a plain join and pick their own order).
        return f"{self.driver} CROSS JOIN {table}" if self.driver else table

    def add(self, clause: str, *params: Any) -> None:
        self.where.append(clause)
        self.params.extend(params)

    def add_first(self, clause: str, *params: Any) -> None:
        """A condition ahead of the others (SQLite bounds an index walk by the first range
        term it finds on the walked column)."""
        self.where.insert(0, clause)
        self.params[0:0] = params

    def add_fragment(self, fragment: Fragment, *, negate: bool = False) -> None:
        clause, params = fragment
        self.add(f"NOT ({clause})" if negate else clause, *params)

    def condition(self) -> str:
        return " AND ".join(self.where) if self.where else self.dialect.true

    def count_sql(self) -> Fragment:
        return (
            f"SELECT count(*) FROM {self.source} WHERE {self.condition()}",
            [*self.driver_params, *self.params],
        )

    def rows_sql(self) -> Fragment:
        """The page's rows. A page past the first of an event list finds its ids first and
        reads only its own rows: skipping the pages before it otherwise carries every row
        skipped, whole, into a sort (SQLite when several statuses are listed, PostgreSQL
        always): at 100,000 events, the last page of the default window took 385 ms on
        SQLite (an editor's, every status) and 146 on PostgreSQL (anyone's); 16 and 11 so."""
        columns = select_list(self.dialect, self.kind, self.alias)
        if not (self.offset and self.limit is not None and self.order_keys):
            return self._page_sql(columns)
        keys = ", ".join(f"{key} AS k{n}" for n, key in enumerate(self.order_keys))
        ids, params = self._page_sql(f"{self.alias}.id AS row_id, {keys}")
        table = f"{self.dialect.quote(TABLES[self.kind])} {self.alias}"
        order = ", ".join(f"listed.k{n}" for n in range(len(self.order_keys)))
        return (
            f"SELECT {columns} FROM ({ids}) listed CROSS JOIN {table}"
            f" WHERE {self.alias}.id = listed.row_id ORDER BY {order}",
            params,
        )

    def _page_sql(self, columns: str) -> Fragment:
        sql = f"SELECT {columns} FROM {self.source} WHERE {self.condition()}"
        params = [*self.driver_params, *self.params, *self.order_params]
        if self.order:
            sql += f" ORDER BY {self.order}"
        if self.limit is not None:
            sql += " LIMIT ?"
            params.append(self.limit)
        if self.offset:
            if self.limit is None:  # an OFFSET needs a LIMIT clause in some dialects
                sql += f" LIMIT {self.dialect.unlimited}"
            sql += " OFFSET ?"
            params.append(self.offset)
        return sql, params


@functools.lru_cache(maxsize=64)
def select_list(dialect: Dialect, kind: Kind, alias: str = "") -> str:
    """The columns a read of ``kind`` selects (``read_columns``), quoted, each after
    ``alias.`` when given: every list asks, and quoting them each time was a tenth of
    compiling its statement."""
    prefix = f"{alias}." if alias else ""
    return ", ".join(f"{prefix}{dialect.quote(c)}" for c in read_columns(kind))


#: An entry: given the Select, the field's value and the whole filter, add what it means.
Entry = Callable[[Select, Any, Any], None]


def _epoch(moment: datetime) -> int:
    return int(moment.timestamp())


def _bound(column: str, op: str, *, also_start: bool = False) -> Entry:
    def entry(q: Select, value: datetime | None, _: object) -> None:
        if value is None:
            return
        q.add(f"{q.alias}.{column} {op} ?", _epoch(value))
        # An event never ends before it starts, so an upper bound on the end bounds the
        # start too: said explicitly, the index range on utc_start stops early.
        if also_start:
            q.add(f"{q.alias}.utc_start {op} ?", _epoch(value))

    return entry


def _statuses(q: Select, statuses: frozenset[Status], flt: object) -> None:
    column = f"{q.alias}.status"
    if getattr(flt, "after", None) is not None:  # a keyset page: walk the order's index
        column = q.dialect.row_by_row(column)
    q.add_fragment(q.dialect.in_(column, _status_values(statuses)))


@functools.lru_cache(maxsize=64)
def _status_values(statuses: frozenset[Status]) -> tuple[str, ...]:
    """The statuses as stored, in a stable order (a list's statement text stays one)."""
    return tuple(sorted(s.value for s in statuses))


def _private_author(q: Select, author: int | None, flt: EventFilter | LinkedFilter) -> None:
    if author is not None and Status.PRIVATE in flt.statuses:
        q.add(f"({q.alias}.status != ? OR {q.alias}.author = ?)", Status.PRIVATE.value, author)


def _unpublished_author(q: Select, author: int | None, _: object) -> None:
    if author is not None:
        q.add(f"({q.alias}.status = ? OR {q.alias}.author = ?)", Status.PUBLISH.value, author)


def _linked_to(field: str) -> Entry:
    """Events linked to any of the ids, read as ``Select.plans`` says (``link_plans``)."""
    link = LINKS[LINK_FILTERS[field]]

    def entry(q: Select, ids: frozenset[int] | None, flt: EventFilter) -> None:
        if ids is None:
            return
        column, table = q.dialect.quote(link.column), q.dialect.quote(link.table)
        plan = q.plans.get(field, "probe")
        if plan in ("drive", "index") and q.driver:  # one driver at most: the others probe
            plan = "probe"
        if plan == "probe":
            # Several ids are checked on the walked event's own few links (the link table's
            # primary key, by event id), not sought one by one in the target index: SQLite
            # otherwise seeks (id, event) once per id for every walked event, 200 seeks an
            # event for 200 tags (a deep page of them: 1,010 ms at 100,000 events, 27 so).
            # One id is one seek either way, the target index's the cheaper (63 ms to 100).
            target = f"l.{column}" if len(ids) == 1 else q.dialect.row_by_row(f"l.{column}")
            inner, params = q.dialect.in_(target, sorted(ids))
            q.add(
                f"EXISTS (SELECT 1 FROM {table} l WHERE l.event_id = {q.alias}.id AND {inner})",
                *params,
            )
            return
        if plan == "index":
            _walk_listing(q, f"{table} d", f"d.{column}", ids, flt)
            return
        inner, params = q.dialect.in_(column, sorted(ids))
        if plan == "list":
            q.add(f"{q.alias}.id IN (SELECT event_id FROM {table} WHERE {inner})", *params)
            return
        q.driver = f"(SELECT DISTINCT event_id FROM {table} WHERE {inner}) linked"
        q.driver_params = params
        q.add(f"{q.alias}.id = linked.event_id")

    return entry


#: The ``EventFilter`` fields that bound or select by the listing key alone, stated on a link
#: table's copy of it by the same entries (its columns have the events' names).
_LISTING_BOUNDS = ("start_min", "start_after", "start_before", "end_max", "end_after", "end_before")


def listing_conditions(dialect: Dialect, flt: EventFilter, alias: str = "d") -> Select:
    """Every condition of ``flt`` on the listing key (``schema.LISTING_KEY``: statuses,
    bounds, hidden, the keyset cursor), stated on the copy of the key that the link table
    aliased ``alias`` keeps, by the entries that state them on events."""
    walk = Select(dialect, "event", alias)
    walk.add_fragment(dialect.in_(f"{alias}.status", sorted(s.value for s in flt.statuses)))
    for name in _LISTING_BOUNDS:
        EVENT_ENTRIES[name](walk, getattr(flt, name), flt)
    _hidden(walk, flt.exclude_hidden, flt)
    if flt.after is not None:
        lower = [t for t in (flt.start_min, flt.start_after) if t is not None]
        start = max([flt.after[0], *lower])
        _keyset(walk, "utc_start", flt.after, start=start, id_column="event_id")
    return walk


def _walk_listing(
    q: Select, source: str, target: str, ids: frozenset[int], flt: EventFilter
) -> None:
    """The ``index`` plan: the rows come from ``source`` (a link table aliased ``d``) walked
    along its listing index (``schema.Link.listing_index``) for the one id in ``ids``, with
    every listing-key condition of ``flt`` stated on ``d``'s copy of the key, in list order.
    The event's own conditions stay too (the same truths); only what they add is checked on
    the event rows the walk reaches."""
    (target_id,) = ids
    walk = listing_conditions(q.dialect, flt)
    q.driver = source
    q.where[0:0] = [f"{target} = ?", *walk.where, f"{q.alias}.id = d.event_id"]
    q.params[0:0] = [target_id, *walk.params]
    q.sort = ("d.utc_start", "d.event_id")


def _equal(column: str) -> Entry:
    def entry(q: Select, value: object, _: object) -> None:
        if value is not None:
            q.add(f"{q.alias}.{column} = ?", value)

    return entry


def _one_of(column: str, *, negate: bool = False) -> Entry:
    def entry(q: Select, ids: frozenset[int] | None, _: object) -> None:
        if ids is not None and (ids or not negate):
            q.add_fragment(q.dialect.in_(f"{q.alias}.{column}", sorted(ids)), negate=negate)

    return entry


def _included(q: Select, ids: frozenset[int] | None, _: object) -> None:
    """``include``; with the ``drive`` plan (a count of a few new events, ``kept_totals``)
    its ids are read first and each event is looked up by id. Left to weigh a few ids against
    a window, SQLite walks the window's index instead: 45-65 ms for five ids in the default
    window at a million events, against a tenth of a millisecond."""
    if ids is None:
        return
    if q.plans.get("include") == "drive" and not q.driver:
        inner, params = q.dialect.in_("id", sorted(ids))
        q.driver = f"(SELECT id FROM {q.dialect.quote(TABLES[q.kind])} WHERE {inner}) few"
        q.driver_params = params
        q.add(f"{q.alias}.id = few.id")
        return
    q.add_fragment(q.dialect.in_(f"{q.alias}.id", sorted(ids)))


def _offset(q: Select, value: int, _: object) -> None:
    q.offset = value


def _limit(q: Select, value: int | None, _: object) -> None:
    q.limit = value


def _hidden(q: Select, exclude: bool, _: object) -> None:
    if exclude:
        q.add(f"{q.alias}.hide_from_listings = {q.dialect.false}")


def _event_search(q: Select, words: tuple[str, ...], flt: EventFilter) -> None:
    if not words:
        return
    # ``probe``: common words are checked on the rows the walk reaches; ``drive``: a count
    # loops over the text index's matches and looks each event up (``link_plans``); a
    # driven row is checked by ``search_matched``, which trusts what the index matched.
    plan = q.plans.get("search")
    matches = q.dialect.search_matches("events", words) if plan == "drive" else None
    search = q.dialect.scan if plan == "probe" else q.dialect.search
    if matches is not None and not q.driver:
        q.driver, q.driver_params = matches[0], list(matches[1])
        q.add(f"{q.alias}.id = matched.id")
        anywhere, params = q.dialect.search_matched("events", q.alias, EVENT_SEARCH_FIELDS, words)
    else:
        anywhere, params = search("events", q.alias, EVENT_SEARCH_FIELDS, words, together=True)
    if not flt.locked_search_in_title:
        q.add_fragment((anywhere, params))
        return
    # A password-protected event is searched by its title alone (``locked_search_in_title``).
    # A title match is a match anywhere too, so the text index decides first and the password
    # (not in the listing index) is read only for the events it matched: at a million events,
    # reading it for every event in the window first made a counted search 7x slower.
    title, more = search("events", q.alias, ("title",), words, together=False)
    q.add(f"{anywhere} AND ({q.alias}.password = '' OR {title})", *params, *more)


def _event_search_excluded(q: Select, words: tuple[str, ...], flt: EventFilter) -> None:
    # Each word is read on the rows the walk reaches (no text index answers an absence);
    # a password-protected event is judged by its title alone, as ``search`` judges it.
    for word in words:
        anywhere, params = q.dialect.scan(
            "events", q.alias, EVENT_SEARCH_FIELDS, [word], together=True
        )
        if not flt.locked_search_in_title:
            q.add(f"NOT {anywhere}", *params)
            continue
        title, more = q.dialect.scan("events", q.alias, ("title",), [word], together=False)
        open_ = f"{q.alias}.password = ''"
        q.add(f"(({open_} AND NOT {anywhere}) OR (NOT {open_} AND NOT {title}))", *params, *more)


def _event_order(q: Select, by_date: bool, _: object) -> None:
    # (Link filters come before ``order_by_date`` among the filter's fields, so a link
    # table driving the walk has set ``q.sort`` by now.)
    start, record_id = q.sort or (f"{q.alias}.utc_start", f"{q.alias}.id")
    q.order_keys = (f"{q.alias}.published", f"{q.alias}.id") if by_date else (start, record_id)
    q.order = ", ".join(q.order_keys)


def _keyset(
    q: Select,
    column: str,
    after: tuple[datetime, int],
    *,
    start: datetime,
    descending: bool = False,
    id_column: str = "id",
) -> None:
    """Rows strictly past ``after`` (a time and an id) in ``(column, id)`` order: a row
    comparison (an index range on ``(column, id)`` for PostgreSQL), and first of all a plain
    bound on ``column`` from ``start`` (the cursor's time, or a tighter bound of the filter),
    which SQLite's planner takes as where its walk of the index begins."""
    key, record_id = f"{q.alias}.{column}", f"{q.alias}.{id_column}"
    q.add_first(f"{key} {'<=' if descending else '>='} ?", _epoch(start))
    q.add(f"({key}, {record_id}) {'<' if descending else '>'} (?, ?)", _epoch(after[0]), after[1])


def _event_after(q: Select, after: tuple[datetime, int] | None, flt: EventFilter) -> None:
    if after is None:
        return
    if flt.order_by_date:
        _keyset(q, "published", after, start=after[0])
        return
    lower = [t for t in (flt.start_min, flt.start_after) if t is not None]
    _keyset(q, "utc_start", after, start=max([after[0], *lower]))


def _linked_after(q: Select, after: tuple[datetime, int] | None, _: object) -> None:
    if after is not None:
        _keyset(q, "published", after, descending=True, start=after[0])


def _read_elsewhere(q: Select, value: object, flt: object) -> None:
    """A field another entry reads together with its own (e.g. ``has_events_statuses``)."""


EVENT_ENTRIES: dict[str, Entry] = {
    "start_min": _bound("utc_start", ">="),
    "start_after": _bound("utc_start", ">"),
    "start_before": _bound("utc_start", "<"),
    "end_max": _bound("utc_end", "<=", also_start=True),
    "end_after": _bound("utc_end", ">"),
    "end_before": _bound("utc_end", "<", also_start=True),
    "statuses": _statuses,
    "search": _event_search,
    "search_excluded": _event_search_excluded,
    **{field: _linked_to(field) for field in LINK_FILTERS},
    "featured": _equal("featured"),
    "include": _included,
    "post_parent": _equal("post_parent"),
    "exclude_hidden": _hidden,
    "private_author": _private_author,
    "unpublished_author": _unpublished_author,
    "locked_search_in_title": _read_elsewhere,
    "order_by_date": _event_order,
    "after": _event_after,
    "offset": _offset,
    "limit": _limit,
}


def _linked_search(q: Select, words: tuple[str, ...], _: object) -> None:
    if words:
        fields = LINKED_SEARCH_FIELDS[q.kind]
        q.add_fragment(q.dialect.search(TABLES[q.kind], q.alias, fields, words, together=False))


def _linked_event(q: Select, event_id: int | None, _: object) -> None:
    if event_id is not None:
        link = LINKS[q.kind]
        q.add(
            f"{q.alias}.id IN (SELECT {q.dialect.quote(link.column)}"
            f" FROM {q.dialect.quote(link.table)} WHERE event_id = ?)",
            event_id,
        )


def _has_events(q: Select, has: bool | None, flt: LinkedFilter) -> None:
    if has is None:
        return
    link = LINKS[q.kind]
    statuses, params = q.dialect.in_("e.status", sorted(s.value for s in flt.has_events_statuses))
    if flt.has_events_author is not None and flt.has_events_own_statuses:  # the caller's own
        own, own_params = q.dialect.in_(
            "e.status", sorted(s.value for s in flt.has_events_own_statuses)
        )
        statuses = f"({statuses} OR ({own} AND e.author = ?))"
        params = [*params, *own_params, flt.has_events_author]
    clause = (
        f"EXISTS (SELECT 1 FROM {q.dialect.quote(link.table)} l JOIN events e ON e.id = l.event_id"
        f" WHERE l.{q.dialect.quote(link.column)} = {q.alias}.id AND {statuses})"
    )
    q.add(clause if has else f"NOT {clause}", *params)


def _linked_offset(q: Select, value: int, flt: object) -> None:
    """A linked list has one order, newest first (publication date, then id); it is set
    with the paging it governs."""
    q.order = f"{q.alias}.published DESC, {q.alias}.id DESC"
    _offset(q, value, flt)


LINKED_ENTRIES: dict[str, Entry] = {
    "statuses": _statuses,
    "search": _linked_search,
    "event_id": _linked_event,
    "has_events": _has_events,
    "has_events_statuses": _read_elsewhere,
    "has_events_own_statuses": _read_elsewhere,
    "has_events_author": _read_elsewhere,
    "ids": _one_of("id"),
    "private_author": _private_author,
    "unpublished_author": _unpublished_author,
    "after": _linked_after,
    "offset": _linked_offset,
    "limit": _limit,
}


def _term_search(q: Select, text: str | None, _: object) -> None:
    if text:
        name = q.dialect.contains(f"{q.alias}.name", fold(text))
        slug = q.dialect.contains(f"{q.alias}.slug", fold(text))
        q.add(f"({name[0]} OR {slug[0]})", *name[1], *slug[1])


def _term_post(q: Select, event_id: int | None, _: object) -> None:
    if event_id is not None:
        link = LINKS["categories" if q.kind == "category" else "tags"]
        q.add(
            f"{q.alias}.id IN (SELECT term_id FROM {q.dialect.quote(link.table)}"
            " WHERE event_id = ?)",
            event_id,
        )


def _hide_empty(q: Select, hide: bool, _: object) -> None:
    if hide:
        q.add(f"{q.alias}.count > 0")


def _term_key(q: Select, flt: TermFilter) -> Fragment:
    """The SQL of ``TermFilter.sort_key``'s first part, and the parameters it binds."""
    if flt.orderby == "include" and flt.include_order:
        cases = " ".join("WHEN ? THEN ?" for _ in flt.include_order)
        params: list[Any] = []
        for position, term_id in enumerate(flt.include_order):
            params.extend((term_id, position))
        params.append(len(flt.include_order))
        return f"CASE {q.alias}.id {cases} ELSE ? END", params
    field = TERM_ORDER_FIELDS[flt.orderby]
    key = f"{q.alias}.{field}"
    if field in ("name", "description"):
        key = q.dialect.by_code_point(q.dialect.fold(key))
    elif field == "slug":
        key = q.dialect.by_code_point(key)
    return key, []


def _term_order(q: Select, orderby: str, flt: TermFilter) -> None:
    direction = " DESC" if flt.descending else ""
    key, params = _term_key(q, flt)
    q.order_params.extend(params)
    # Ties keep ascending ids in both directions, as the reference lists them.
    q.order = f"{key}{direction}, {q.alias}.id"


def _term_after(q: Select, after: tuple[object, int] | None, flt: TermFilter) -> None:
    if after is None:
        return
    key, params = _term_key(q, flt)
    past = "<" if flt.descending else ">"
    q.add(
        f"({key} {past} ? OR ({key} = ? AND {q.alias}.id > ?))",
        *params,
        after[0],
        *params,
        after[0],
        after[1],
    )


TERM_ENTRIES: dict[str, Entry] = {
    "search": _term_search,
    "include": _one_of("id"),
    "exclude": _one_of("id", negate=True),
    "orderby": _term_order,
    "descending": _read_elsewhere,
    "include_order": _read_elsewhere,
    "hide_empty": _hide_empty,
    "parents": _one_of("parent"),
    "post": _term_post,
    "slug": _equal("slug"),
    "after": _term_after,
    "offset": _offset,
    "limit": _limit,
}

_ENTRIES: dict[type, dict[str, Entry]] = {
    EventFilter: EVENT_ENTRIES,
    LinkedFilter: LINKED_ENTRIES,
    TermFilter: TERM_ENTRIES,
}


def compile_filter(
    dialect: Dialect,
    kind: Kind,
    flt: EventFilter | LinkedFilter | TermFilter,
    *,
    plans: Mapping[str, Plan] | None = None,
) -> Select:
    """The SELECT that answers ``flt`` over the table of ``kind``; ``plans``: how each link
    filter is read (``link_plans.choose``)."""
    alias: Literal["e", "r", "t"] = (
        "e" if kind == "event" else "t" if kind in ("category", "tag") else "r"
    )
    q = Select(dialect, kind, alias, plans=plans or {})
    entries = _ENTRIES[type(flt)]
    for field in attrs.fields(type(flt)):
        entries[field.name](q, getattr(flt, field.name), flt)
    return q
