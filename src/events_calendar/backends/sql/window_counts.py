"""Exact totals of windowed event lists from counts kept per day, written once for every SQL
database.

Counting a list's total row by row costs what the window holds: 381,071 rows for the default
window at a million events (30 ms), the published events of a category or venue looked up one
by one (110-190 ms). The total is what every list page shows, so it is kept ready instead:

- ``event_day_counts``: how many events there are per (status, hidden from listings, UTC day of
  the start, UTC day of the end);
- ``event_block_counts``: the same by blocks of 32 start days, so a long window sums a few
  rows per month rather than a few per day;
- ``link_day_counts``: the day counts per linked record (``link`` is the event field,
  ``target`` the venue, organizer, category or tag id).

Triggers keep them in step with every write, in the writer's transaction (their text is built
here; each dialect's migration wraps it in its own trigger syntax). A window ``start >= S AND
end <= E`` (the listing windows are containment, ``queries.EventFilter``) then splits into three
disjoint parts: the events starting in the partial day after ``S`` (an index range over one
day), the events starting and ending on whole days inside the window (a sum over the count rows
of the window's blocks and the days around them), and the events ending in the partial day
before ``E`` (an index range on ``events_listing_end``). Several linked ids (a category with
its sub-categories) may share events, which the day counts would count once per id: their
events are counted from the link table's listing index instead (each link row keeps its
event's listing key), each once, without reading an event row. A filter neither can answer
exactly (any other condition) is counted as before, so a total never changes, only how fast
it comes.
"""

from __future__ import annotations

from typing import Any

import attrs

from ...queries import EventFilter
from ...records import Kind
from ...statuses import Status
from .category_tree import TREE, counted_tree
from .compiler import LINK_FILTERS, listing_conditions
from .dialect import Dialect, Fragment
from .schema import LINKS, LISTING_KEY

__all__ = [
    "BLOCK",
    "DAY",
    "EVENT_BLOCKS",
    "EVENT_COUNTS",
    "KEY_COLUMNS",
    "LINK_COUNTS",
    "add_events",
    "add_links",
    "block_of",
    "count_events",
    "counted_links",
    "create_tables",
    "day_of",
    "raise_counts",
    "window_count",
]

#: The width of a count bucket, in seconds: a UTC day.
DAY = 86_400
EVENT_COUNTS = "event_day_counts"
#: The same counts by block of ``BLOCK`` start days (and exact end day): a window of two years
#: sums ~700 rows of blocks instead of ~5,600 of days.
EVENT_BLOCKS = "event_block_counts"
BLOCK = 32
LINK_COUNTS = "link_day_counts"
#: The event columns a count's key is made of (``hidden`` is ``hide_from_listings``).
KEY_COLUMNS = LISTING_KEY


def _floor_div(expr: str, by: int) -> str:
    """``expr // by`` as Python rounds it (integer division truncates towards zero in SQL, so
    negative numbers, instants before 1970, need the other branch)."""
    return f"(CASE WHEN {expr} >= 0 THEN {expr} / {by} ELSE ({expr} + 1) / {by} - 1 END)"


def day_of(expr: str) -> str:
    """The UTC day number of an epoch-seconds ``expr``."""
    return _floor_div(expr, DAY)


def block_of(expr: str) -> str:
    """The block number of an epoch-seconds ``expr``: its day number ``// BLOCK``."""
    return _floor_div(day_of(expr), BLOCK)


def create_tables(dialect: Dialect) -> list[str]:
    """The two count tables, clustered on their key; the index the partial end day of a
    window is counted from; and ``events_listing`` again with the list order's ``id`` after
    the start, so a page (a deep one too: page 200 skips 1,990 rows) walks that index in list
    order, reading no table row it skips and sorting nothing."""
    flag, number = dialect.types[bool], dialect.types[int]
    key = (
        f"status TEXT NOT NULL, hidden {flag} NOT NULL, start_day {number} NOT NULL,"
        f" end_day {number} NOT NULL, n {number} NOT NULL"
    )
    blocks = key.replace("start_day", "start_block")
    return [
        f"CREATE TABLE {EVENT_COUNTS} ({key},"
        f" PRIMARY KEY (status, hidden, start_day, end_day)){dialect.clustered}",
        f"CREATE TABLE {EVENT_BLOCKS} ({blocks},"
        f" PRIMARY KEY (status, hidden, start_block, end_day)){dialect.clustered}",
        f"CREATE TABLE {LINK_COUNTS} (link TEXT NOT NULL, target {number} NOT NULL, {key},"
        f" PRIMARY KEY (link, target, status, hidden, start_day, end_day)){dialect.clustered}",
        "CREATE INDEX events_listing_end ON events"
        " (status, hide_from_listings, utc_end, utc_start)",
        "DROP INDEX events_listing",
        "CREATE INDEX events_listing ON events"
        " (status, hide_from_listings, utc_start, id, utc_end, featured, author)",
    ]


def _upsert(table: str, key: str, select: str) -> str:
    return (
        f"INSERT INTO {table} ({key}, n) {select}"
        f" ON CONFLICT ({key}) DO UPDATE SET n = {table}.n + excluded.n"
    )


def add_events(dialect: Dialect, source: str, *, sign: int = 1) -> list[str]:
    """Count the events of ``source`` (a relation with the ``KEY_COLUMNS``) ``sign`` times,
    by day and by block."""
    count = f"{'-' if sign < 0 else ''}count(*)"
    start, end = day_of("s.utc_start"), day_of("s.utc_end")
    block = block_of("s.utc_start")
    return [
        _upsert(
            table,
            f"status, hidden, {first}, end_day",
            f"SELECT s.status, s.hide_from_listings, {key}, {end}, {count} FROM {source} s"
            f" WHERE {dialect.true} GROUP BY 1, 2, 3, 4",
        )
        for table, first, key in (
            (EVENT_COUNTS, "start_day", start),
            (EVENT_BLOCKS, "start_block", block),
        )
    ]


def add_links(dialect: Dialect, source: str, *, sign: int = 1) -> str:
    """Count the links of ``source`` (a relation with ``link``, ``target`` and the
    ``KEY_COLUMNS`` of the linked event) ``sign`` times."""
    return _upsert(
        LINK_COUNTS,
        "link, target, status, hidden, start_day, end_day",
        f"SELECT s.link, s.target, s.status, s.hide_from_listings, {day_of('s.utc_start')},"
        f" {day_of('s.utc_end')}, {'-' if sign < 0 else ''}count(*) FROM {source} s"
        f" WHERE {dialect.true} GROUP BY 1, 2, 3, 4, 5, 6",
    )


def counted_links(events: str, *, where: str = "") -> str:
    """Every link of the events of the relation ``events`` (with ``id`` and the
    ``KEY_COLUMNS``), as the source ``add_links`` counts."""
    columns = ", ".join(f"e.{c}" for c in KEY_COLUMNS)
    return (
        "("
        + " UNION ALL ".join(
            f"SELECT '{link.field}' AS link, l.{link.column} AS target, {columns}"
            f" FROM {link.table} l JOIN {events} e ON e.id = l.event_id{where}"
            for link in LINKS.values()
        )
        + ")"
    )


def count_events(
    dialect: Dialect, picked: Fragment, linked: Fragment, *, sign: int = 1
) -> list[Fragment]:
    """What the count triggers would count (``sign`` times) for some events, their links and
    their category branches, in a few set-wise statements: ``picked`` bounds the ``events``
    rows, ``linked`` the same events' link rows (alias ``l``)."""
    (events, params), (links, link_params) = picked, linked
    where = f" WHERE {links}"
    return [
        *(
            (sql, params)
            for sql in add_events(dialect, f"(SELECT * FROM events WHERE {events})", sign=sign)
        ),
        (
            add_links(dialect, counted_links("events", where=where), sign=sign),
            link_params * len(LINKS),
        ),
        (add_links(dialect, counted_tree("events", where=where), sign=sign), link_params),
    ]


def raise_counts(dialect: Dialect, first: int, last: int) -> list[Fragment]:
    """What the insert triggers would have counted for the events with ids from ``first`` to
    ``last``, their links and their category branches (``category_tree``): run where a bulk
    load that set those triggers aside ends."""
    return count_events(
        dialect,
        ("id BETWEEN ? AND ?", [first, last]),
        ("l.event_id BETWEEN ? AND ?", [first, last]),
    )


#: Fields of an event filter ``window_count`` reads itself; any other must be at its default.
_READ = frozenset(
    {
        "start_min",
        "end_max",
        "statuses",
        "exclude_hidden",
        "private_author",
        "unpublished_author",
        "locked_search_in_title",
        "order_by_date",
        "offset",
        "limit",
        "category_ids",
        "tag_ids",
        "venue_ids",
        "organizer_ids",
    }
)
_DEFAULTS = {f.name: f.default for f in attrs.fields(EventFilter) if f.name not in _READ}


def _answerable(flt: EventFilter) -> tuple[str, frozenset[int]] | bool | None:
    """Whether the count tables or a link's listing index answer ``flt``: False if not,
    else the one link filtered on (its ``LINKS`` field and ids), or None for none."""
    if any(getattr(flt, name) != default for name, default in _DEFAULTS.items()):
        return False
    if flt.private_author is not None and Status.PRIVATE in flt.statuses:
        return False
    if flt.unpublished_author is not None and not flt.statuses <= {Status.PUBLISH}:
        return False
    links = [(f, ids) for f in LINK_FILTERS if (ids := getattr(flt, f)) is not None]
    if not links:
        return None
    if len(links) > 1 or not links[0][1]:
        return False
    field, ids = links[0]
    return LINK_FILTERS[field], ids


def _distinct_links(
    dialect: Dialect, flt: EventFilter, field: str, ids: frozenset[int]
) -> Fragment:
    """The events linked to any of several ids, counted from the link table's listing index
    alone (each link row keeps its event's listing key): a category with its sub-categories,
    whose events the day counts would count once per term they are filed under."""
    link = LINKS[field]
    inner, params = dialect.in_(f"d.{dialect.quote(link.column)}", sorted(ids))
    walk = listing_conditions(dialect, flt)
    return (
        f"SELECT count(*) FROM (SELECT DISTINCT d.event_id FROM {dialect.quote(link.table)} d"
        f" WHERE {inner} AND {walk.condition()}) linked",
        [*params, *walk.params],
    )


@attrs.frozen
class _Linked:
    """The one link filter a windowed total is counted for: its ``LINKS`` field and ids, and
    the ``link_day_counts`` rows (link, target) that count its events each once."""

    field: str
    ids: frozenset[int]
    counted_as: tuple[str, int]

    def check(self, dialect: Dialect, alias: str) -> Fragment:
        """The events (``e``) or link rows (``d``) of this link."""
        link = LINKS[self.field]
        column = dialect.quote(link.column)
        if alias == "d":
            return dialect.in_(f"d.{column}", sorted(self.ids))
        inner, params = dialect.in_(f"l.{column}", sorted(self.ids))
        table = dialect.quote(link.table)
        return f"EXISTS (SELECT 1 FROM {table} l WHERE l.event_id = e.id AND {inner})", params

    def reads_links(self, side: str) -> bool:
        """Whether a partial day is counted from the link rows (their copies of the listing
        key) rather than from the events: always the first day (a range of the start, which
        the listing index holds); the last (a range of the end) where the link table has
        an index by end too (``category_tree.ENDING``)."""
        return side == "first" or self.field == "categories"


def window_count(
    dialect: Dialect, kind: Kind, flt: object, *, branch: int | None = None
) -> Fragment | None:
    """The total of an event list from the count tables, or None when they cannot answer it
    exactly (the caller counts the rows then). ``branch``: the category whose whole branch
    the filter's category ids are (``category_tree.branch_root``), if any."""
    if kind != "event" or not isinstance(flt, EventFilter) or not flt.statuses:
        return None
    answerable = _answerable(flt)
    if answerable is False:
        return None
    assert answerable is None or isinstance(answerable, tuple)
    link: _Linked | None = None
    if answerable is not None:
        field, ids = answerable
        if len(ids) == 1:
            link = _Linked(field, ids, (field, next(iter(ids))))
        elif field == "categories" and branch is not None and branch in ids:
            link = _Linked(field, ids, (TREE, branch))
        else:
            return _distinct_links(dialect, flt, field, ids)
    start = None if flt.start_min is None else int(flt.start_min.timestamp())
    end = None if flt.end_max is None else int(flt.end_max.timestamp())
    first_day = None if start is None else -(-start // DAY)  # the first whole day
    past_day = None if end is None else (end + 1) // DAY  # the day after the last whole one
    statuses = sorted(s.value for s in flt.statuses)
    hidden = [False] if flt.exclude_hidden else [False, True]
    flags = ", ".join(dialect.false if not h else dialect.true for h in hidden)

    def rows(alias: str, ranges: list[tuple[str, str, Any]]) -> Fragment:
        """The conditions on the rows of ``alias`` (events ``e``, a link table ``d``, a count
        table ``c``): statuses, hidden flags, ``(column, operator, value)`` ranges (the first
        names the column walked), the link."""
        clause, params = dialect.in_(f"{alias}.status", statuses)
        hidden_column = "hidden" if alias == "c" else "hide_from_listings"
        clauses = [clause, f"{alias}.{hidden_column} IN ({flags})"]
        walked = ranges[0][0] if ranges else None
        for column, op, value in ranges:
            term = f"{alias}.{column}"
            if alias == "d" and column != walked:
                # Only narrows the walked column's index range: checked on its rows (else
                # SQLite, which keeps no statistics, may walk the other index by it).
                term = dialect.row_by_row(term)
            clauses.append(f"{term} {op} ?")
            params.append(value)
        if link is not None and alias == "c":
            clauses[0:0] = ["c.link = ?", "c.target = ?"]
            params[0:0] = link.counted_as
        elif link is not None and alias == "d":
            check, more = link.check(dialect, alias)
            clauses.insert(0, check)
            params[0:0] = more
        elif link is not None:
            check, more = link.check(dialect, alias)
            clauses.append(check)
            params.extend(more)
        return " AND ".join(clauses), params

    def partial(side: str, ranges: list[tuple[str, str, Any]]) -> Fragment:
        """The events of a partial first or last day: an index range of the events, or of
        the link rows (each keeps its event's listing key; several ids: each event once)."""
        if link is None or not link.reads_links(side):
            where, params = rows("e", ranges)
            return f"(SELECT count(*) FROM events e WHERE {where})", params
        where, params = rows("d", ranges)
        table = dialect.quote(LINKS[link.field].table)
        if len(link.ids) == 1:
            return f"(SELECT count(*) FROM {table} d WHERE {where})", params
        return f"(SELECT count(DISTINCT d.event_id) FROM {table} d WHERE {where})", params

    parts: list[Fragment] = []
    if start is not None and first_day is not None:
        ranges = [("utc_start", ">=", start), ("utc_start", "<", first_day * DAY)]
        if end is not None:
            ranges.append(("utc_end", "<=", end))
        parts.append(partial("first", ranges))
    for table, column, low, high in _whole(link is not None, first_day, past_day):
        whole: list[tuple[str, str, Any]] = []
        if low is not None:
            whole.append((column, ">=", low))
        if high is not None:
            whole.append((column, "<", high))
        if past_day is not None:
            whole.append(("end_day", "<", past_day))
        where, params = rows("c", whole)
        parts.append((f"(SELECT coalesce(sum(c.n), 0) FROM {table} c WHERE {where})", params))
    if end is not None and past_day is not None:
        ranges = [("utc_end", ">=", past_day * DAY), ("utc_end", "<=", end)]
        if first_day is not None:
            ranges.append(("utc_start", ">=", first_day * DAY))
        parts.append(partial("last", ranges))
    return "SELECT " + " + ".join(p[0] for p in parts), [v for p in parts for v in p[1]]


def _whole(
    linked: bool, first_day: int | None, past_day: int | None
) -> list[tuple[str, str, int | None, int | None]]:
    """Where the events starting on whole days from ``first_day`` to before ``past_day`` are
    counted: (table, start column, from, before) ranges, ``None`` for no bound. Whole blocks
    from the block table, the days around them from the day table; a link's from its day
    counts."""
    if linked:
        return [(LINK_COUNTS, "start_day", first_day, past_day)]
    first = None if first_day is None else -(-first_day // BLOCK)  # the first whole block
    past = None if past_day is None else past_day // BLOCK
    if first is not None and past is not None and first >= past:  # no whole block
        return [(EVENT_COUNTS, "start_day", first_day, past_day)]
    found = [(EVENT_BLOCKS, "start_block", first, past)]
    if first is not None:
        found.append((EVENT_COUNTS, "start_day", first_day, first * BLOCK))
    if past is not None:
        found.append((EVENT_COUNTS, "start_day", past * BLOCK, past_day))
    return found
