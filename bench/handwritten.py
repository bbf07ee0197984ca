"""The benchmark's lower bound: the same queries written by hand with the stdlib ``sqlite3``.

Why: a latency figure alone does not say whether the library is slow or the question is
expensive. Counting 300,000 matching rows costs the same whoever asks, so each library query is
paired with the SQL a careful developer would write against the same file and schema, returning
the same rows (same ids, same order, same total, the columns and links needed to build the
records). The ratio library / hand-written is the library's own overhead.

Rules the hand-written side keeps, so that the comparison is fair:

- it computes its bounds itself (the calendar's zone, start of yesterday .. the end of the day
  24 months ahead) rather than borrowing the library's functions, so a bug in either shows up
  as a mismatch instead of being copied;
- it answers what the library answers for an anonymous caller: published, not hidden from
  listings, ordered by UTC start then id, ``LIMIT``/``OFFSET`` paging, plus the total count;
- it reads links with one statement per page (``UNION ALL`` over the four link tables);
- it states the bound the window implies: an event ends at or after it starts (the library
  refuses anything else), so "ends by ``high``" implies "starts by ``high``", and saying so
  turns an open-ended index range (every later event, checked row by row) into a closed one;
- it builds no objects: rows stay tuples. That is the floor, not a fair rival to records;
- its connection gets a 64 MiB page cache and a 1 GiB memory map, so that it never loses to
  the library on configuration alone.

It uses only the schema's existing indexes; it never adds one.
"""

from __future__ import annotations

import calendar
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, tzinfo
from pathlib import Path
from typing import Any

__all__ = [
    "ADDED_EVENT",
    "CACHE_KIB",
    "CATEGORY_TREE",
    "COLUMNS",
    "MMAP_BYTES",
    "WINDOW",
    "HandPage",
    "HandRow",
    "HandWritten",
    "Links",
    "day_end",
    "day_start",
    "default_window",
    "list_shapes",
]

#: What a benchmark's ticker adds before a list timed "after a new event": a draft far past
#: every window, which no timed list shows (``storage.Ticker.add``).
ADDED_EVENT = {
    "title": "Bench tick",
    "status": "draft",
    "start_date": "2090-01-01 10:00:00",
    "end_date": "2090-01-01 11:00:00",
}

#: Page cache (KiB) and memory-mapped window (bytes) of the hand-written connection.
CACHE_KIB = 64 * 1024
MMAP_BYTES = 1024 * 1024 * 1024

#: The event columns a record is built from (the library's own bookkeeping columns aside).
COLUMNS = (
    "id",
    "author",
    "status",
    "date",
    "modified",
    "slug",
    "description",
    "excerpt",
    "image",
    "title",
    "start_date",
    "end_date",
    "timezone",
    "all_day",
    "cost",
    "website",
    "show_map",
    "show_map_link",
    "hide_from_listings",
    "sticky",
    "featured",
    "post_parent",
    "password",
    "utc_start",
    "utc_end",
)
_SELECT = ", ".join(f"e.{c}" for c in COLUMNS)
_UTC_START = COLUMNS.index("utc_start")
_UTC_END = COLUMNS.index("utc_end")

#: venue ids, organizer ids, category ids, tag ids (each in link order).
Links = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
_NO_LINKS: Links = ((), (), (), ())

#: The link tables a page reads, in ``Links`` order, and the column naming the linked record.
_LINK_TABLES = (
    ("event_venues", "venue_id"),
    ("event_organizers", "organizer_id"),
    ("event_categories", "term_id"),
    ("event_tags", "term_id"),
)

#: A category and all its descendants, by slug.
CATEGORY_TREE = (
    "WITH RECURSIVE tree(id) AS (SELECT id FROM categories WHERE slug = ?"
    " UNION SELECT c.id FROM categories c JOIN tree ON c.parent = tree.id) "
)


@dataclass(frozen=True)
class HandRow:
    """One event as the hand-written SQL returns it: the raw row and its links."""

    row: tuple[Any, ...]
    links: Links

    @property
    def id(self) -> int:
        return int(self.row[0])

    @property
    def utc_start(self) -> int:
        return int(self.row[_UTC_START])

    @property
    def utc_end(self) -> int:
        return int(self.row[_UTC_END])


@dataclass(frozen=True)
class HandPage:
    """One page of events and the number of matches on all pages."""

    total: int
    items: list[HandRow] = field(default_factory=list)

    @property
    def ids(self) -> list[int]:
        return [item.id for item in self.items]


# -- bounds, computed independently of the library ------------------------------------------
def day_start(day: date, zone: tzinfo) -> int:
    """Epoch of 00:00:00 of ``day`` in ``zone``."""
    return int(datetime.combine(day, time(0, 0, 0), tzinfo=zone).timestamp())


def day_end(day: date, zone: tzinfo) -> int:
    """Epoch of 23:59:59 of ``day`` in ``zone`` (the later one if that hour repeats)."""
    return int(datetime.combine(day, time(23, 59, 59), tzinfo=zone).replace(fold=1).timestamp())


def _plus_months(day: date, months: int) -> date:
    years, month0 = divmod(day.month - 1 + months, 12)
    year = day.year + years
    return date(year, month0 + 1, min(day.day, calendar.monthrange(year, month0 + 1)[1]))


def default_window(now: datetime, zone: tzinfo) -> tuple[int, int]:
    """The default list window: start of yesterday to the end of the day 24 months ahead."""
    today = now.astimezone(zone).date()
    return day_start(today - timedelta(days=1), zone), day_end(_plus_months(today, 24), zone)


#: Contained in [low, high], plus the start bound that containment implies (see above).
WINDOW = "e.utc_start >= ? AND e.utc_start <= ? AND e.utc_end <= ?"


def list_shapes(public: str, search: str) -> dict[str, tuple[str, str]]:
    """(WITH prefix, WHERE) of each list query, given what an anonymous caller may list and
    the search condition (one parameter) in a dialect's spelling."""
    return {
        "window": ("", f"{public} AND {WINDOW}"),
        "category_window": (
            CATEGORY_TREE,
            "e.id IN (SELECT event_id FROM event_categories"
            f" WHERE term_id IN (SELECT id FROM tree)) AND {public} AND {WINDOW}",
        ),
        "venue": (
            "",
            f"e.id IN (SELECT event_id FROM event_venues WHERE venue_id = ?) AND {public}"
            f" AND {WINDOW}",
        ),
        "search": ("", f"{search} AND {public} AND {WINDOW}"),
    }


class HandWritten:
    """Hand-written queries on their own read-only connection to the benchmark file.

    The SQL is written once, with ``?`` placeholders; what a database spells differently (the
    anonymous filter's boolean, search, ``IN`` lists, the slug lookup) lives in the class
    attributes and hooks a subclass overrides (``handwritten_pg.HandWrittenPG``).
    """

    #: The backend it reads, for the report.
    dialect = "sqlite"

    def __init__(self, path: Path, *, per_page: int = 10) -> None:
        # Read-only: the lower bound must not be able to change what the library reads.
        self.conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        # A floor must not lose on configuration: a generous page cache and a memory map, at
        # least what the library gives its own connection (the report records both).
        self.conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        self.conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
        self.per_page = per_page

    def close(self) -> None:
        self.conn.close()

    # -- what a dialect spells differently ----------------------------------------------------
    #: (WITH prefix, WHERE) of each list query.
    shapes = list_shapes(
        "e.status = 'publish' AND e.hide_from_listings = 0",
        "e.id IN (SELECT rowid FROM events_fts WHERE events_fts MATCH ?)",
    )
    #: WHERE of the single-event reads (published only: the caller is anonymous).
    #: ``slug != ''`` lets SQLite use the partial unique index ``events_slug`` (declared
    #: ``WHERE slug != ''``); without it, ``slug = ?`` cannot use that index and scans the
    #: whole table.
    gets = {  # noqa: RUF012 - read-only, replaced (never mutated) by a subclass
        "get_by_id": "e.id = ? AND e.status = 'publish'",
        "get_by_slug": "e.slug = ? AND e.slug != '' AND e.status = 'publish'",
    }

    def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.conn.execute(sql, list(params)).fetchall()

    def in_list(self, column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        """``column`` is one of ``values``."""
        return f"{column} IN ({', '.join('?' * len(values))})", list(values)

    def search_param(self, word: str) -> str:
        """The parameter of the search shape: an FTS5 phrase."""
        return '"' + word.replace('"', '""') + '"'

    def plan(self, sql: str, params: Sequence[Any] = ()) -> list[str]:
        """The query plan of one statement, one line per step."""
        try:
            return [row[3] for row in self.conn.execute(f"EXPLAIN QUERY PLAN {sql}", list(params))]
        except sqlite3.Error as error:  # e.g. the library's fold() is not on this connection
            return [f"(no plan: {error})"]

    def settings(self) -> dict[str, Any]:
        """The connection settings that move read latency the most."""
        names = ("cache_size", "mmap_size", "journal_mode", "synchronous", "page_size")
        return {name: self.conn.execute(f"PRAGMA {name}").fetchone()[0] for name in names}

    # -- building blocks -------------------------------------------------------------------
    def links(self, ids: list[int]) -> dict[int, Links]:
        """The links of these events, in one statement."""
        if not ids:
            return {}
        found: dict[int, list[list[int]]] = {i: [[], [], [], []] for i in ids}
        params: list[Any] = []
        clauses = []
        for kind, (table, column) in enumerate(_LINK_TABLES):
            where, values = self.in_list("event_id", ids)
            clauses.append(
                f"SELECT event_id, {kind}, {column}, position FROM {table} WHERE {where}"
            )
            params += values
        sql = " UNION ALL ".join(clauses) + " ORDER BY 1, 2, 4"
        for event_id, kind, target, _ in self.fetchall(sql, params):
            found[event_id][kind].append(target)
        return {
            i: (tuple(lists[0]), tuple(lists[1]), tuple(lists[2]), tuple(lists[3]))
            for i, lists in found.items()
        }

    def page(self, where: str, params: list[Any], *, page: int = 1, prefix: str = "") -> HandPage:
        """Total, then (if the page exists) the page's rows and their links.

        ``prefix`` is a ``WITH`` clause whose parameters come first in ``params``.
        """
        total = self.fetchall(f"{prefix}SELECT count(*) FROM events e WHERE {where}", params)[0][0]
        offset = (page - 1) * self.per_page
        if total <= offset:
            return HandPage(total)
        rows = self.fetchall(
            f"{prefix}SELECT {_SELECT} FROM events e WHERE {where}"
            " ORDER BY e.utc_start, e.id LIMIT ? OFFSET ?",
            [*params, self.per_page, offset],
        )
        links = self.links([r[0] for r in rows])
        return HandPage(total, [HandRow(r, links[r[0]]) for r in rows])

    def sql_of(self, shape: str) -> str:
        """The main statement of a query shape (a list's count, a get's select), for the
        query plan in the report."""
        if shape in self.gets:
            return f"SELECT {_SELECT} FROM events e WHERE {self.gets[shape]}"
        prefix, where = self.shapes[shape]
        return f"{prefix}SELECT count(*) FROM events e WHERE {where}"

    def published(self, ids: Sequence[int]) -> list[tuple[int, str]]:
        """(id, slug) of the published events among ``ids``, by id."""
        where, params = self.in_list("id", ids)
        sql = f"SELECT id, slug FROM events WHERE status = 'publish' AND {where} ORDER BY id"
        return [(int(i), str(s)) for i, s in self.fetchall(sql, params)]

    # -- the benchmark's queries -----------------------------------------------------------
    def window(self, low: int, high: int, *, page: int = 1) -> HandPage:
        """Events contained in [low, high] (the default window and the month query)."""
        return self.page(self.shapes["window"][1], [low, high, high], page=page)

    def category_window(self, slug: str, low: int, high: int) -> HandPage:
        """Events of a category or any of its sub-categories, within [low, high]."""
        prefix, where = self.shapes["category_window"]
        return self.page(where, [slug, low, high, high], prefix=prefix)

    def venue_window(self, venue_id: int, low: int, high: int) -> HandPage:
        return self.page(self.shapes["venue"][1], [venue_id, low, high, high])

    def search_window(self, word: str, low: int, high: int) -> HandPage:
        """Events whose title, excerpt or description contains ``word`` (any case)."""
        return self.page(self.shapes["search"][1], [self.search_param(word), low, high, high])

    def _one(self, shape: str, value: object) -> HandRow:
        where = self.gets[shape]
        rows = self.fetchall(f"SELECT {_SELECT} FROM events e WHERE {where}", [value])
        if not rows:
            raise LookupError(f"no published event where {where} ({value!r})")
        row = rows[0]
        return HandRow(row, self.links([row[0]]).get(row[0], _NO_LINKS))

    def get(self, event_id: int) -> HandRow:
        return self._one("get_by_id", event_id)

    def get_by_slug(self, slug: str) -> HandRow:
        return self._one("get_by_slug", slug)
