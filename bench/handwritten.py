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
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, tzinfo
from pathlib import Path
from typing import Any

__all__ = [
    "CACHE_KIB",
    "COLUMNS",
    "MMAP_BYTES",
    "HandPage",
    "HandRow",
    "HandWritten",
    "Links",
    "day_end",
    "day_start",
    "default_window",
]

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

#: What an anonymous caller may list.
_PUBLIC = "e.status = 'publish' AND e.hide_from_listings = 0"

#: venue ids, organizer ids, category ids, tag ids (each in link order).
Links = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
_NO_LINKS: Links = ((), (), (), ())

_LINKS_SQL = (
    "SELECT event_id, 0, venue_id, position FROM event_venues WHERE event_id IN ({marks})"
    " UNION ALL SELECT event_id, 1, organizer_id, position FROM event_organizers"
    " WHERE event_id IN ({marks})"
    " UNION ALL SELECT event_id, 2, term_id, position FROM event_categories"
    " WHERE event_id IN ({marks})"
    " UNION ALL SELECT event_id, 3, term_id, position FROM event_tags WHERE event_id IN ({marks})"
    " ORDER BY 1, 2, 4"
)

#: A category and all its descendants, by slug.
_CATEGORY_TREE = (
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


class HandWritten:
    """Hand-written queries on their own read-only connection to the benchmark file."""

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

    # -- building blocks -------------------------------------------------------------------
    def links(self, ids: list[int]) -> dict[int, Links]:
        """The links of these events, in one statement."""
        if not ids:
            return {}
        found: dict[int, list[list[int]]] = {i: [[], [], [], []] for i in ids}
        sql = _LINKS_SQL.format(marks=", ".join("?" * len(ids)))
        for event_id, kind, target, _ in self.conn.execute(sql, ids * 4):
            found[event_id][kind].append(target)
        return {
            i: (tuple(lists[0]), tuple(lists[1]), tuple(lists[2]), tuple(lists[3]))
            for i, lists in found.items()
        }

    def page(self, where: str, params: list[Any], *, page: int = 1, prefix: str = "") -> HandPage:
        """Total, then (if the page exists) the page's rows and their links.

        ``prefix`` is a ``WITH`` clause whose parameters come first in ``params``.
        """
        total = self.conn.execute(
            f"{prefix}SELECT count(*) FROM events e WHERE {where}", params
        ).fetchone()[0]
        offset = (page - 1) * self.per_page
        if total <= offset:
            return HandPage(total)
        rows = self.conn.execute(
            f"{prefix}SELECT {_SELECT} FROM events e WHERE {where}"
            " ORDER BY e.utc_start, e.id LIMIT ? OFFSET ?",
            [*params, self.per_page, offset],
        ).fetchall()
        links = self.links([r[0] for r in rows])
        return HandPage(total, [HandRow(r, links[r[0]]) for r in rows])

    def sql_of(self, shape: str) -> str:
        """The main statement of a query shape (a list's count, a get's select), for
        ``EXPLAIN QUERY PLAN`` in the report."""
        if shape in _GETS:
            return f"SELECT {_SELECT} FROM events e WHERE {_GETS[shape]}"
        prefix, where = _SHAPES[shape]
        return f"{prefix}SELECT count(*) FROM events e WHERE {where}"

    # -- the benchmark's queries -----------------------------------------------------------
    def window(self, low: int, high: int, *, page: int = 1) -> HandPage:
        """Events contained in [low, high] (the default window and the month query)."""
        return self.page(_SHAPES["window"][1], [low, high, high], page=page)

    def category_window(self, slug: str, low: int, high: int) -> HandPage:
        """Events of a category or any of its sub-categories, within [low, high]."""
        prefix, where = _SHAPES["category_window"]
        return self.page(where, [slug, low, high, high], prefix=prefix)

    def venue_window(self, venue_id: int, low: int, high: int) -> HandPage:
        return self.page(_SHAPES["venue"][1], [venue_id, low, high, high])

    def search_window(self, word: str, low: int, high: int) -> HandPage:
        """Events whose title, excerpt or description contains ``word`` (any case)."""
        phrase = '"' + word.replace('"', '""') + '"'
        return self.page(_SHAPES["search"][1], [phrase, low, high, high])

    def _one(self, shape: str, value: object) -> HandRow:
        where = _GETS[shape]
        row = self.conn.execute(f"SELECT {_SELECT} FROM events e WHERE {where}", [value]).fetchone()
        if row is None:
            raise LookupError(f"no published event where {where} ({value!r})")
        return HandRow(row, self.links([row[0]]).get(row[0], _NO_LINKS))

    def get(self, event_id: int) -> HandRow:
        return self._one("get_by_id", event_id)

    def get_by_slug(self, slug: str) -> HandRow:
        return self._one("get_by_slug", slug)


#: Contained in [low, high], plus the start bound that containment implies (see above).
_WINDOW = "e.utc_start >= ? AND e.utc_start <= ? AND e.utc_end <= ?"
#: (WITH prefix, WHERE) of each list query.
_SHAPES: dict[str, tuple[str, str]] = {
    "window": ("", f"{_PUBLIC} AND {_WINDOW}"),
    "category_window": (
        _CATEGORY_TREE,
        "e.id IN (SELECT event_id FROM event_categories"
        f" WHERE term_id IN (SELECT id FROM tree)) AND {_PUBLIC} AND {_WINDOW}",
    ),
    "venue": (
        "",
        f"e.id IN (SELECT event_id FROM event_venues WHERE venue_id = ?) AND {_PUBLIC}"
        f" AND {_WINDOW}",
    ),
    "search": (
        "",
        "e.id IN (SELECT rowid FROM events_fts WHERE events_fts MATCH ?)"
        f" AND {_PUBLIC} AND {_WINDOW}",
    ),
}
#: WHERE of the single-event reads (published only: the caller is anonymous). ``slug != ''``
#: lets SQLite use the partial unique index ``events_slug`` (declared ``WHERE slug != ''``);
#: without it, ``slug = ?`` cannot use that index and scans the whole table.
_GETS: dict[str, str] = {
    "get_by_id": "e.id = ? AND e.status = 'publish'",
    "get_by_slug": "e.slug = ? AND e.slug != '' AND e.status = 'publish'",
}
