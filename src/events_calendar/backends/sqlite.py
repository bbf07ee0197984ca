"""SQLite storage, the embedded default (``connect("sqlite:///events.db")``).

Built on sqlite-utils: the schema is a set of registered migrations (``sqlite_schema``), applied
when a file is opened, so older files upgrade themselves. Every filter is compiled to SQL
(``sqlite_query``) and served by an index; totals are counted in SQL; a page's links are loaded
with one query per link table, never one per row.

Concurrency: one connection per backend, guarded by a re-entrant lock, is shared by the threads
of a process; separate processes coordinate through SQLite's own locking. Writes open
``BEGIN IMMEDIATE`` transactions (taking the write lock up front, so two writers never deadlock
upgrading a read lock), WAL lets readers run beside a writer, and a generous busy timeout plus a
retry loop keep "database is locked" from ever reaching a caller under ordinary contention.
Driver errors are translated into the library's own errors here and only here.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Collection, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from sqlite_utils import Database

from ..converters import make_storage_converter
from ..errors import Conflict
from ..queries import EventFilter, LinkedFilter, TermFilter, fold
from ..records import (
    POST_KINDS,
    RECORD_CLASSES,
    Category,
    Credential,
    Event,
    Kind,
    Organizer,
    Record,
    Tag,
    User,
    Venue,
)
from .base import Family
from .sqlite_query import event_query, linked_query, term_query
from .sqlite_schema import LINK_TABLES, MIGRATIONS, TABLES, column_names, link_fields

__all__ = ["SQLiteBackend"]

#: How long a writer waits for another process's transaction before giving up.
BUSY_TIMEOUT_SECONDS = 60.0
#: Page cache per connection (KiB) and memory-mapped window for reads (bytes).
CACHE_KIB = 64 * 1024
MMAP_BYTES = 1024 * 1024 * 1024
_CHUNK = 900  # ids per IN (...) list, well under SQLite's variable limit
_EXTRA_COLUMNS = ("name_key", "utc_start", "utc_end", "published")
_LINK_TARGET: dict[str, Kind] = {
    "venue": "venue",
    "organizer": "organizer",
    "categories": "category",
    "tags": "tag",
}


def _chunks(ids: Sequence[int]) -> Iterator[Sequence[int]]:
    for at in range(0, len(ids), _CHUNK):
        yield ids[at : at + _CHUNK]


def _marks(values: Collection[Any]) -> str:
    return ", ".join("?" * len(values))


class SQLiteBackend:
    """A ``Backend`` on one SQLite database file (or a private in-memory database)."""

    def __init__(self, path: str | Path | None = None) -> None:
        """Open (creating and migrating as needed) the database at ``path``; ``None`` or
        ``":memory:"`` gives a private in-memory database."""
        self.path = None if path is None or str(path) == ":memory:" else Path(path)
        connection = sqlite3.connect(
            ":memory:" if self.path is None else str(self.path),
            check_same_thread=False,
            isolation_level=None,
            timeout=BUSY_TIMEOUT_SECONDS,
        )
        connection.create_function("fold", 1, _fold, deterministic=True)
        self.db = Database(connection)
        self._lock = threading.RLock()
        self._depth = 0
        self._commits = 0
        self._converter = make_storage_converter()
        self.db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
        self.db.execute("PRAGMA foreign_keys = ON")
        if self.path is not None:
            self._retry(lambda: self.db.execute("PRAGMA journal_mode = WAL"))
            self.db.execute("PRAGMA synchronous = NORMAL")
            # SQLite's defaults (a 2 MiB page cache, no memory map) suit small files; a large
            # calendar's indexes thrash that cache on every bulk batch and every count.
            self.db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
            self.db.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
        with self.transaction():
            MIGRATIONS.apply(self.db)

    # -- transactions ----------------------------------------------------------------------
    def _retry(self, step: Any) -> Any:
        """Run ``step``, retrying while another process holds the lock (bounded)."""
        deadline = time.monotonic() + BUSY_TIMEOUT_SECONDS
        delay = 0.005
        while True:
            try:
                return step()
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) and "busy" not in str(error):
                    raise
                if time.monotonic() > deadline:
                    raise Conflict(
                        "The database stayed locked by another writer for "
                        f"{BUSY_TIMEOUT_SECONDS:.0f} s; try again."
                    ) from error
                time.sleep(delay)
                delay = min(delay * 2, 0.2)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self._lock:
            outer = self._depth == 0
            if outer:
                self._retry(lambda: self.db.execute("BEGIN IMMEDIATE"))
            else:
                self.db.execute(f"SAVEPOINT sp{self._depth}")
            self._depth += 1
            try:
                yield
            except BaseException:
                self._depth -= 1
                if outer:
                    self.db.execute("ROLLBACK")
                else:
                    self.db.execute(f"ROLLBACK TO sp{self._depth}")
                    self.db.execute(f"RELEASE sp{self._depth}")
                raise
            self._depth -= 1
            if outer:
                self._retry(lambda: self.db.execute("COMMIT"))
                self._commits += 1
            else:
                self.db.execute(f"RELEASE sp{self._depth}")

    def generation(self) -> Hashable:
        """Changes whenever a write commits, here or in another connection to the file
        (SQLite's ``data_version`` counts the others' commits); inside an open transaction,
        equal to nothing."""
        with self._lock:
            if self._depth:
                return object()
            (version,) = self.db.conn.execute("PRAGMA data_version").fetchone()
            return self._commits, int(version)

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """Several reads that must see one snapshot (a page and its total)."""
        with self._lock:
            if self._depth:
                yield
                return
            self._retry(lambda: self.db.execute("BEGIN"))
            try:
                yield
            finally:
                self.db.execute("COMMIT")

    def _write(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        try:
            return self.db.execute(sql, list(params))
        except sqlite3.IntegrityError as error:
            raise Conflict(f"The write breaks a storage rule: {error}.") from error

    def close(self) -> None:
        with self._lock:
            self.db.close()

    # -- rows <-> records ------------------------------------------------------------------
    def _row(self, record: Record) -> dict[str, Any]:
        data = self._converter.unstructure(record)
        row = {name: data[name] for name in column_names(type(record))}
        row["name_key"] = record.name.casefold()
        if isinstance(record, Event):
            row["utc_start"] = int(record.utc_start_date.timestamp())
            row["utc_end"] = int(record.utc_end_date.timestamp())
        if isinstance(record, Event | Venue | Organizer):
            row["published"] = int(record.date_utc.timestamp())
        return row

    def _records(self, kind: Kind, rows: list[dict[str, Any]]) -> list[Record]:
        """Records from table rows, with their links loaded in bulk (one query per link
        table); term rows carry their stored ``count``."""
        cls = RECORD_CLASSES[kind]
        ids = [row["id"] for row in rows]
        extras: dict[int, dict[str, Any]] = {i: {} for i in ids}
        if kind == "event" and ids:
            for field in link_fields(Event):
                linked = self._links(field, ids)
                for event_id in ids:
                    extras[event_id][field] = linked.get(event_id, [])
        found = []
        for row in rows:
            data = {k: v for k, v in row.items() if k not in _EXTRA_COLUMNS}
            data.update(extras[row["id"]])
            found.append(self._converter.structure(data, cls))
        return found

    def _links(self, field: str, event_ids: Sequence[int]) -> dict[int, list[int]]:
        table, column = LINK_TABLES[field]
        found: dict[int, list[int]] = {}
        for chunk in _chunks(event_ids):
            for event_id, target in self.db.execute(
                f"SELECT event_id, [{column}] FROM [{table}] WHERE event_id IN ({_marks(chunk)})"
                " ORDER BY event_id, position",
                list(chunk),
            ):
                found.setdefault(event_id, []).append(target)
        return found

    def _select(self, kind: Kind, where: str, params: Sequence[Any]) -> list[dict[str, Any]]:
        cursor = self.db.execute(f"SELECT * FROM [{TABLES[kind]}] WHERE {where}", list(params))
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    # -- records ---------------------------------------------------------------------------
    def next_id(self, family: Family) -> int:
        return self.reserve_ids(family, 1)[0]

    def reserve_ids(self, family: Family, count: int) -> range:
        with self.transaction():
            (last,) = self.db.execute(
                "UPDATE sequences SET value = value + ? WHERE name = ? RETURNING value",
                [count, family],
            ).fetchone()
            return range(int(last) - count + 1, int(last) + 1)

    def taken_slugs(self, kind: Kind, slugs: Collection[str]) -> set[str]:
        wanted = sorted(slugs)
        with self._reading():
            return {
                row[0]
                for chunk in _chunks(wanted)  # type: ignore[arg-type]
                for row in self.db.execute(
                    f"SELECT slug FROM [{TABLES[kind]}] WHERE slug IN ({_marks(chunk)})",
                    list(chunk),
                )
            }

    def _check(self, record: Record) -> None:
        if isinstance(record, Event):
            if record.post_parent and self.post_kind(record.post_parent) != "event":
                raise Conflict(
                    "post_parent names no event.", fields={"post_parent": "use an event id"}
                )
        elif (
            isinstance(record, Category)
            and record.parent
            and not self.get_many("category", [record.parent])
        ):
            raise Conflict("parent names no category.", fields={"parent": "use a category id"})

    def _write_links(self, record: Record) -> None:
        if not isinstance(record, Event):
            return
        for field in link_fields(Event):
            table, column = LINK_TABLES[field]
            self._write(f"DELETE FROM [{table}] WHERE event_id = ?", [record.id])
            ids: tuple[int, ...] = getattr(record, field)
            if ids:
                self._write(
                    f"INSERT INTO [{table}] (event_id, [{column}], position) VALUES "
                    + ", ".join("(?, ?, ?)" for _ in ids),
                    [v for n, target in enumerate(ids) for v in (record.id, target, n)],
                )

    def insert(self, record: Record) -> None:
        with self.transaction():
            if record.kind in POST_KINDS and self.post_kind(record.id) is not None:
                raise Conflict(f"Id {record.id} is taken.")
            self._check(record)
            row = self._row(record)
            self._write(
                f"INSERT INTO [{TABLES[record.kind]}] ({', '.join(f'[{c}]' for c in row)})"
                f" VALUES ({_marks(row)})",
                list(row.values()),
            )
            self._write_links(record)

    def bulk_insert(self, records: Sequence[Record]) -> None:
        """One multi-row statement per table (and per link table) instead of one per record."""
        by_kind: dict[Kind, list[Record]] = {}
        for record in records:
            by_kind.setdefault(record.kind, []).append(record)
        with self.transaction():
            for kind, group in by_kind.items():
                ids = [r.id for r in group]
                if len(set(ids)) != len(ids) or self._any_taken(kind, ids):
                    raise Conflict(f"An id among {ids[:3]}... is taken.")
                for record in group:
                    self._check(record)
                rows = [self._row(r) for r in group]
                columns = list(rows[0])
                deferred = kind == "event" and len(group) > 1
                if deferred:  # index the batch in one statement (migration 0003)
                    self._write("INSERT INTO fts_deferred VALUES (?, ?)", [min(ids), max(ids)])
                self._write_many(
                    f"INSERT INTO [{TABLES[kind]}] ({', '.join(f'[{c}]' for c in columns)})"
                    f" VALUES ({_marks(columns)})",
                    [[row[c] for c in columns] for row in rows],
                )
                if deferred:
                    self._write(
                        "INSERT INTO events_fts(rowid, title, excerpt, description)"
                        " SELECT id, title, excerpt, description FROM events"
                        " WHERE id BETWEEN ? AND ?",
                        [min(ids), max(ids)],
                    )
                    self._write("DELETE FROM fts_deferred")
                for field in link_fields(RECORD_CLASSES[kind]):
                    table, column = LINK_TABLES[field]
                    self._write_many(
                        f"INSERT INTO [{table}] (event_id, [{column}], position) VALUES (?, ?, ?)",
                        [
                            (r.id, target, n)
                            for r in group
                            for n, target in enumerate(getattr(r, field))
                        ],
                    )

    def _any_taken(self, kind: Kind, ids: Sequence[int]) -> bool:
        """Whether any of ``ids`` is used by a record of that id sequence."""
        tables = [TABLES[k] for k in POST_KINDS] if kind in POST_KINDS else [TABLES[kind]]
        return any(
            self.db.execute(
                f"SELECT 1 FROM [{table}] WHERE id IN ({_marks(chunk)}) LIMIT 1", list(chunk)
            ).fetchone()
            for table in tables
            for chunk in _chunks(ids)
        )

    def _write_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        try:
            self.db.conn.executemany(sql, rows)
        except sqlite3.IntegrityError as error:
            raise Conflict(f"The write breaks a storage rule: {error}.") from error

    def replace(self, record: Record) -> None:
        with self.transaction():
            self._check(record)
            row = self._row(record)
            cursor = self._write(
                f"UPDATE [{TABLES[record.kind]}] SET {', '.join(f'[{c}] = ?' for c in row)}"
                " WHERE id = ?",
                [*row.values(), record.id],
            )
            if cursor.rowcount != 1:
                raise Conflict(f"No {record.kind} {record.id} to replace.")
            self._write_links(record)

    def remove(self, kind: Kind, record_id: int) -> None:
        with self.transaction():
            if kind == "category":
                self._write("UPDATE categories SET parent = 0 WHERE parent = ?", [record_id])
            self._write(f"DELETE FROM [{TABLES[kind]}] WHERE id = ?", [record_id])
            self._write(
                "DELETE FROM slug_aliases WHERE kind = ? AND record_id = ?", [kind, record_id]
            )

    def get_many(self, kind: Kind, ids: Iterable[int]) -> dict[int, Record]:
        wanted = sorted(set(ids))
        with self._reading():
            rows = [
                row
                for chunk in _chunks(wanted)
                for row in self._select(kind, f"id IN ({_marks(chunk)})", chunk)
            ]
            return {record.id: record for record in self._records(kind, rows)}

    def post_kind(self, record_id: int) -> Kind | None:
        found = self.db.execute(
            " UNION ALL ".join(
                f"SELECT '{kind}' FROM [{TABLES[kind]}] WHERE id = ?" for kind in POST_KINDS
            ),
            [record_id] * len(POST_KINDS),
        ).fetchone()
        return found[0] if found else None

    def find_slug(self, kind: Kind, slug: str) -> int | None:
        found = self.db.execute(
            f"SELECT id FROM [{TABLES[kind]}] WHERE slug = ? UNION ALL"
            " SELECT record_id FROM slug_aliases WHERE kind = ? AND slug = ? LIMIT 1",
            [slug, kind, slug],
        ).fetchone()
        return int(found[0]) if found else None

    def slug_taken(self, kind: Kind, slug: str) -> bool:
        return (
            self.db.execute(f"SELECT 1 FROM [{TABLES[kind]}] WHERE slug = ?", [slug]).fetchone()
            is not None
        )

    def add_slug_alias(self, kind: Kind, record_id: int, slug: str) -> None:
        with self.transaction():
            self._write(
                "INSERT INTO slug_aliases (kind, slug, record_id) VALUES (?, ?, ?)"
                " ON CONFLICT (kind, slug) DO UPDATE SET record_id = excluded.record_id",
                [kind, slug, record_id],
            )

    def find_by_name(self, kind: Kind, name: str) -> list[int]:
        return [
            row[0]
            for row in self.db.execute(
                f"SELECT id FROM [{TABLES[kind]}] WHERE name_key = ? ORDER BY id", [name.casefold()]
            )
        ]

    def find_terms(self, kind: Kind, keys: Collection[str]) -> dict[str, int]:
        keys = list(dict.fromkeys(keys))
        if not keys:
            return {}
        table = TABLES[kind]
        with self._reading():
            by_slug = dict(
                self.db.execute(
                    f"SELECT slug, id FROM [{table}] WHERE slug IN ({_marks(keys)})", keys
                ).fetchall()
            )
            folded = [key.casefold() for key in keys]
            by_name = dict(
                self.db.execute(
                    f"SELECT name_key, min(id) FROM [{table}] WHERE name_key IN ({_marks(folded)})"
                    " GROUP BY name_key",
                    folded,
                ).fetchall()
            )
        found: dict[str, int] = {}
        for key in keys:
            if key in by_slug:
                found[key] = by_slug[key]
            elif key.casefold() in by_name:
                found[key] = by_name[key.casefold()]
        return found

    def child_terms(self, kind: Kind, parent_ids: Collection[int]) -> list[int]:
        if kind != "category" or not parent_ids:
            return []
        parents = sorted(parent_ids)
        return [
            row[0]
            for row in self.db.execute(
                f"SELECT id FROM categories WHERE parent IN ({_marks(parents)}) ORDER BY id",
                parents,
            )
        ]

    def events_linked_to(self, kind: Kind, record_id: int) -> list[int]:
        field = {
            "venue": "venue",
            "organizer": "organizer",
            "category": "categories",
            "tag": "tags",
        }[kind]
        table, column = LINK_TABLES[field]
        return [
            row[0]
            for row in self.db.execute(
                f"SELECT event_id FROM [{table}] WHERE [{column}] = ? ORDER BY event_id",
                [record_id],
            )
        ]

    # -- lists -----------------------------------------------------------------------------
    def _page(
        self,
        kind: Kind,
        source: str,
        alias: str,
        where: str,
        params: list[Any],
        order: str,
        order_params: list[Any],
        offset: int,
        limit: int,
        count: bool = True,
    ) -> tuple[list[Record], int]:
        """One page of ``source`` (aliased ``alias``) rows and the count of all matches
        (-1 when ``count`` is false)."""
        with self._reading():
            total = -1
            if count:
                (total,) = self.db.execute(
                    f"SELECT count(*) FROM {source} WHERE {where}", params
                ).fetchone()
            rows: list[dict[str, Any]] = []
            if not count or total > offset:
                cursor = self.db.execute(
                    f"SELECT {alias}.* FROM {source} WHERE {where}"
                    f" ORDER BY {order} LIMIT ? OFFSET ?",
                    [*params, *order_params, limit, offset],
                )
                names = [d[0] for d in cursor.description]
                rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
            return self._records(kind, rows), int(total)

    def query_events(self, flt: EventFilter) -> tuple[list[Event], int]:
        where, params, order = event_query(flt)
        found, total = self._page(
            "event", "events e", "e", where, params, order, [], flt.offset, flt.limit
        )
        return [e for e in found if isinstance(e, Event)], total

    def query_event_page(self, flt: EventFilter) -> list[Event]:
        where, params, order = event_query(flt)
        found, _ = self._page(
            "event",
            "events e",
            "e",
            where,
            params,
            order,
            [],
            flt.offset,
            flt.limit,
            count=False,
        )
        return [e for e in found if isinstance(e, Event)]

    def query_linked(
        self, kind: Literal["venue", "organizer"], flt: LinkedFilter
    ) -> tuple[Sequence[Venue | Organizer], int]:
        where, params = linked_query(kind, flt)
        found, total = self._page(
            kind,
            f"[{TABLES[kind]}] r",
            "r",
            where,
            params,
            "r.published DESC, r.id DESC",
            [],
            flt.offset,
            flt.limit,
        )
        return [r for r in found if isinstance(r, Venue | Organizer)], total

    def query_terms(
        self, kind: Literal["category", "tag"], flt: TermFilter
    ) -> tuple[Sequence[Category | Tag], int]:
        source, where, params, order, order_params = term_query(kind, flt)
        found, total = self._page(
            kind, source, "t", where, params, order, order_params, flt.offset, flt.limit
        )
        return [t for t in found if isinstance(t, Category | Tag)], total

    # -- users -----------------------------------------------------------------------------
    def insert_user(self, user: User) -> None:
        with self.transaction():
            data = self._converter.unstructure(user)
            self._write(
                f"INSERT INTO users ({', '.join(data)}) VALUES ({_marks(data)})",
                list(data.values()),
            )

    def _user(self, where: str, params: list[Any]) -> User | None:
        cursor = self.db.execute(f"SELECT * FROM users WHERE {where}", params)
        row = cursor.fetchone()
        if row is None:
            return None
        names = [d[0] for d in cursor.description]
        return self._converter.structure(dict(zip(names, row, strict=True)), User)

    def get_user(self, user_id: int) -> User | None:
        return self._user("id = ?", [user_id])

    def find_user(self, login: str) -> User | None:
        return self._user("login = ?", [login])

    def list_users(self) -> list[User]:
        ids = [row[0] for row in self.db.execute("SELECT id FROM users ORDER BY id")]
        return [u for i in ids if (u := self.get_user(i)) is not None]

    def remove_user(self, user_id: int) -> None:
        with self.transaction():
            self._write("DELETE FROM users WHERE id = ?", [user_id])

    def insert_credential(self, credential: Credential) -> None:
        with self.transaction():
            data = self._converter.unstructure(credential)
            self._write(
                f"INSERT INTO credentials ({', '.join(data)}) VALUES ({_marks(data)})",
                list(data.values()),
            )

    def _credentials(self, where: str, params: list[Any]) -> list[Credential]:
        cursor = self.db.execute(f"SELECT * FROM credentials WHERE {where} ORDER BY id", params)
        names = [d[0] for d in cursor.description]
        return [
            self._converter.structure(dict(zip(names, row, strict=True)), Credential)
            for row in cursor.fetchall()
        ]

    def find_credential(self, secret_hash: str) -> Credential | None:
        found = self._credentials("secret_hash = ?", [secret_hash])
        return found[0] if found else None

    def iter_credentials(self, user_id: int) -> Iterator[Credential]:
        return iter(self._credentials("user_id = ?", [user_id]))


def _fold(text: object) -> str | None:
    return None if text is None else fold(str(text))
