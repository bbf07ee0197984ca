"""SQLite, the embedded default (``connect("sqlite:///events.db")``): the shared SQL layer plus
SQLite's dialect, connection and migrations.

Migrations are listed in ``sqlite_schema`` and applied with sqlite-utils when a file is opened,
so older files upgrade themselves; a file already up to date is used through ``sqlite3``
alone, without importing sqlite-utils (which imports pandas and numpy when they are there).
Substring search is served by FTS5 trigram indexes (words under three characters, which
trigrams cannot look up, are checked with ``instr``).

Concurrency: one connection per backend, guarded by a re-entrant lock, is shared by the
threads of a process; processes coordinate through SQLite's own locking. Writes open
``BEGIN IMMEDIATE`` transactions (taking the write lock up front, so two writers never deadlock
upgrading a read lock), WAL lets readers run beside a writer, and a busy timeout plus a bounded
retry keep "database is locked" from reaching a caller under ordinary contention. The log is
copied back into the file by a thread of its own (``sqlite_checkpoint``), not inside commits,
and the same thread merges the search indexes' segments (``sqlite_search_merge``).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Callable, Collection, Hashable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from ..changes import ANYTHING
from ..errors import READ_ONLY_DATABASE, Conflict, InvalidParameter, StorageUnavailable
from ..queries import fold
from ..records import Kind
from ..statuses import COUNTED_STATUSES
from .sql.dialect import SEARCH_SAMPLE, Dialect, Fragment
from .sql.engine import Engine, Result
from .sql.errors import DriverErrors, translate, translating
from .sql.schema import LINKS, LISTING_KEY
from .sql.store import SQLStore
from .sql.window_counts import count_events, raise_counts
from .sqlite_checkpoint import KEPT_LOG_BYTES, Checkpointer
from .sqlite_schema import (
    FOLDED_BY,
    INDEX_EVENTS_BETWEEN,
    JOURNAL_INSERT_TRIGGERS,
    MIGRATION_SET,
    MIGRATIONS_TABLE,
    REWRITE_TRIGGERS,
    SEARCH_INDEXES,
    STEPS,
    WINDOW_COUNT_TRIGGERS,
    migrations,
    refold_search_indexes,
)
from .sqlite_search_merge import SearchMerges

if TYPE_CHECKING:
    from sqlite_utils import Database

__all__ = ["SEARCH_BATCH", "SEARCH_PENDING", "SQLiteBackend", "SQLiteDialect", "SQLiteEngine"]

#: How long a writer waits for another process's transaction before giving up.
BUSY_TIMEOUT_SECONDS = 60.0
#: The writer connection's page cache (KiB) and memory-mapped window for its reads (bytes).
CACHE_KIB = 64 * 1024
MMAP_BYTES = 1024 * 1024 * 1024
#: Page cache of each thread's reader connection (KiB). Readers map nothing: a connection
#: that sees another connection's commit unmaps its whole window before its next read, and
#: the unmapping costs for every page it touched (18 ms after a search's count at a million
#: events), then each page faults back in. Reading through the disk cache with ``pread``
#: made every list at a million events faster after a write (bench/README.md).
READER_CACHE_KIB = 8 * 1024
#: The trigram index cannot look up fragments shorter than this.
_TRIGRAM = 3
#: Tables whose new rows wait in a table of their own before their text index takes them, a
#: batch at a time (migration 0011), and the batch size: a row indexed alone cost a write
#: more than everything else it did. Searches check the waiting rows' text directly.
SEARCH_PENDING = {"events": "events_search_pending"}
SEARCH_BATCH = 64
#: The triggers of migration 0004 that count a term's published events as links are added.
_COUNT_TRIGGERS = ("event_categories_count_insert", "event_tags_count_insert")
#: Events in one chunk of ``replace_many`` from which their upkeep is done set-wise
#: (``SQLiteBackend._rewrite``): below it, dropping and re-creating the triggers costs more.
SET_WISE = 64
#: FTS5's pending-terms hash (bytes) during a bulk load's indexing
#: (``SQLiteBackend._index_loaded``), FTS5's default for it, and the statement that sets it.
#: (``automerge`` stays 0 throughout since migration 0014: writers never merge, the
#: background thread does, ``sqlite_search_merge``.)
_FTS_LOAD_HASH = 64 * 1024 * 1024
_FTS_DEFAULT_HASH = 1024 * 1024
_FTS_HASH_SETTING = "INSERT INTO events_fts(events_fts, rank) VALUES ('hashsize', ?)"
#: Up to this many values go inline in ``IN (?, ...)``; more travel as one JSON array.
_INLINE = 500

T = TypeVar("T")


class SQLiteDialect(Dialect):
    name: ClassVar[str] = "sqlite"
    true: ClassVar[str] = "1"
    unlimited: ClassVar[str] = "-1"
    false: ClassVar[str] = "0"
    types: ClassVar[dict[type, str]] = {bool: "INTEGER", int: "INTEGER", str: "TEXT"}
    primary_key: ClassVar[str] = "INTEGER PRIMARY KEY"
    clustered: ClassVar[str] = " WITHOUT ROWID"

    def fold(self, expr: str) -> str:
        return f"fold({expr})"  # registered on the connection: Python's own ``queries.fold``

    def row_by_row(self, expr: str) -> str:
        # SQLite's documented way to keep a term off the indexes: a unary plus. Its planner
        # otherwise seeks the status index for a keyset page and sorts every match after it.
        return f"+{expr}"

    def in_(self, expr: str, values: Collection[Any]) -> Fragment:
        if not values:
            return self.false, []
        if len(values) <= _INLINE:
            return f"{expr} IN ({', '.join('?' * len(values))})", list(values)
        return f"{expr} IN (SELECT value FROM json_each(?))", [json.dumps(list(values))]

    def contains(self, expr: str, word: str) -> Fragment:
        return f"instr({self.fold(expr)}, ?) > 0", [word]

    def search(
        self, table: str, alias: str, fields: Sequence[str], words: Sequence[str], *, together: bool
    ) -> Fragment:
        long_words, short_words = _by_length(words)
        phrase = " AND ".join(_fts_phrase(w) for w in long_words)
        if together:
            clauses, params = [], []
            text = self._text(alias, fields)
            if long_words:
                indexed, more = self._indexed(table, alias, phrase, text, long_words)
                clauses.append(indexed)
                params.extend(more)
            if short_words:
                sql, more = self._every(text, short_words)
                clauses.append(sql)
                params.extend(more)
            return " AND ".join(clauses), params
        # One field must contain every word: per field, the index narrows by the long words
        # (a column filter) and instr() checks the short ones.
        per_field, params = [], []
        for field in fields:
            text = self._text(alias, [field])
            tests = []
            if short_words:
                sql, more = self._every(text, short_words)
                tests.append(sql)
                params.extend(more)
            if long_words:
                indexed, more = self._indexed(
                    table, alias, f"{{{field}}} : ({phrase})", text, long_words
                )
                tests.append(indexed)
                params.extend(more)
            per_field.append("(" + " AND ".join(tests) + ")")
        return "(" + " OR ".join(per_field) + ")", params

    def _text(self, alias: str, fields: Sequence[str]) -> str:
        """The fields of a row read as one text, NUL apart (as ``EventFilter.matches`` reads
        them): no field or search word holds a NUL, so no word is found across two fields."""
        return " || char(0) || ".join(f"{alias}.{self.quote(f)}" for f in fields)

    def _every(self, text: str, words: Sequence[str]) -> Fragment:
        """``text`` contains each of ``words`` (at least one), by ``instr``."""
        tests = [self.contains(text, word) for word in words]
        return " AND ".join(sql for sql, _ in tests), [v for _, more in tests for v in more]

    def _indexed(
        self, table: str, alias: str, query: str, text: str, words: Sequence[str]
    ) -> Fragment:
        """Rows the text index matches for ``query``, and rows it has yet to index
        (``SEARCH_PENDING``: written since its last batch) whose ``text`` holds the words."""
        fts = self.quote(f"{table}_fts")
        indexed = f"{alias}.id IN (SELECT rowid FROM {fts} WHERE {fts} MATCH ?)"
        pending = SEARCH_PENDING.get(table)
        if pending is None:
            return indexed, [query]
        checked, params = self._every(text, words)
        return (
            f"({indexed} OR ({alias}.id IN (SELECT id FROM {pending}) AND {checked}))",
            [query, *params],
        )

    def scan(
        self, table: str, alias: str, fields: Sequence[str], words: Sequence[str], *, together: bool
    ) -> Fragment:
        # Every word by ``instr`` on the folded text, as short words always are.
        groups = [list(fields)] if together else [[field] for field in fields]
        clauses: list[str] = []
        params: list[Any] = []
        for group in groups:
            checked, more = self._every(self._text(alias, group), words)
            clauses.append(f"({checked})")
            params.extend(more)
        return "(" + " OR ".join(clauses) + ")", params

    def search_matches(self, table: str, words: Sequence[str]) -> Fragment | None:
        match = _fts_match(words)
        if match is None:
            return None
        fts = self.quote(f"{table}_fts")
        pending = SEARCH_PENDING.get(table)
        waiting = f" UNION ALL SELECT id, 0 FROM {pending}" if pending else ""
        return (
            f"(SELECT rowid AS id, 1 AS indexed FROM {fts} WHERE {fts} MATCH ?{waiting}) matched",
            [match],
        )

    def search_matched(
        self, table: str, alias: str, fields: Sequence[str], words: Sequence[str]
    ) -> Fragment:
        # A row the index matched holds every long word: only a row still waiting for the
        # index (never in it too) is read for them. Short words are read on every row, as
        # ``search`` reads them. At a million events this took a tenth off a counted search.
        # (A driven search has a long word: ``search_matches`` needs one.)
        text = self._text(alias, fields)
        long_words, short_words = _by_length(words)
        waiting, params = self._every(text, long_words)
        clauses = [f"(matched.indexed OR ({waiting}))"]
        if short_words:
            sql, more = self._every(text, short_words)
            clauses.append(sql)
            params = [*params, *more]
        return " AND ".join(clauses), params

    def search_sample(self, table: str, words: Sequence[str]) -> Fragment | None:
        match = _fts_match(words)
        if match is None:
            return None
        fts = self.quote(f"{table}_fts")
        return (
            f"SELECT count(*), coalesce(max(rowid), 0) FROM (SELECT rowid FROM {fts}"
            f" WHERE {fts} MATCH ? ORDER BY rowid LIMIT {SEARCH_SAMPLE}) sampled",
            [match],
        )


def _url_options(url: str) -> dict[str, str]:
    """The ``?`` options of an SQLite URL (``mode=ro``); ``InvalidParameter`` naming the URL
    for any other, rather than a file named after the whole text."""
    query = url.partition("?")[2]
    options: dict[str, str] = {}
    for pair in filter(None, query.split("&")):
        name, _, value = pair.partition("=")
        if value not in _URL_OPTIONS.get(name, ()):
            raise InvalidParameter.one(
                "url", f"{url!r}: unknown SQLite URL option {pair!r}; the one option is mode=ro"
            )
        options[name] = value
    return options


def _fts_phrase(word: str) -> str:
    return '"' + word.replace('"', '""') + '"'


def _by_length(words: Sequence[str]) -> tuple[list[str], list[str]]:
    """The words the trigram index can look up, and those too short for it."""
    return [w for w in words if len(w) >= _TRIGRAM], [w for w in words if len(w) < _TRIGRAM]


def _fts_match(words: Sequence[str]) -> str | None:
    """The text index's query for every word it can look up (``None``: each is too short)."""
    long_words, _ = _by_length(words)
    return " AND ".join(_fts_phrase(w) for w in long_words) if long_words else None


def _fold(text: object) -> str | None:
    return None if text is None else fold(str(text))


_ERRORS = DriverErrors(integrity=(sqlite3.IntegrityError,), unavailable=(sqlite3.DatabaseError,))


class SQLiteEngine(Engine):
    """A file: one writer connection, and a reader connection per thread.

    Writers take the writer connection under a lock, one transaction at a time (``BEGIN
    IMMEDIATE``, so two writers never deadlock upgrading a read lock). Every other thread reads
    through a connection of its own: in WAL mode a reader never waits for a writer, so a write
    waiting for another process's lock stalls no reader. A private in-memory database has a
    single connection for everything (it cannot be opened twice).
    """

    dialect = SQLiteDialect()

    def __init__(self, path: Path | None, *, read_only: bool | None = None) -> None:
        """Open the file at ``path`` (``None``: a private in-memory database), read-only when
        ``read_only`` is true, or when it is ``None`` and the file is there but this process
        cannot write it (``cannot_write``)."""
        self.path = path
        self._name = f"sqlite:///{path}" if path is not None else "sqlite://"
        self._translate = translating(_ERRORS, self._name)
        #: Whether the file is opened read-only: reads work, a write transaction is
        #: ``StorageUnavailable`` with code ``READ_ONLY_DATABASE`` (``transaction``).
        self.read_only = path is not None and (
            cannot_write(path) if read_only is None else read_only
        )
        #: Whether a read-only file is read as immutable (``_connect_read_only``).
        self._immutable = False
        self._lock = threading.RLock()  # the writer connection, and writes
        self._depth = 0
        self._owner: int | None = None  # the thread in the write transaction
        self._closed = False  # set by ``close``, under ``_lock``
        self._commits = 0
        self._local = threading.local()  # this thread's reader connection and its snapshot
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        self._writer = self._connect(cache_kib=CACHE_KIB, mmap_bytes=MMAP_BYTES)
        self._utils: Database | None = None  # ``db``, made when first asked for
        #: The search indexes' merges done so far (``sqlite_search_merge``): by the checkpoint
        #: thread of a file; a private in-memory database has none.
        self.search_merges = SearchMerges(SEARCH_INDEXES, self._writer_alone)
        self._checkpoints: Checkpointer | None = None
        if path is not None and not self.read_only:  # a read-only file is never written
            self._retry(lambda: self._writer.execute("PRAGMA journal_mode = WAL"))
            self._writer.execute("PRAGMA wal_autocheckpoint = 0")  # ``sqlite_checkpoint``
            self._writer.execute(f"PRAGMA journal_size_limit = {KEPT_LOG_BYTES}")
            self._checkpoints = Checkpointer(
                lambda: self._connect(cache_kib=64),
                writes=lambda: self._lock,
                tidy=self.search_merges,
            )
        self._watch = self._connect(cache_kib=64) if path is not None else None
        self._watch_lock = threading.Lock()
        try:
            with translating(_ERRORS, self._name):
                if self._must_write_on_open():
                    if self.read_only:
                        raise _read_only(self._name, self._why_write_on_open())
                    with self.transaction():
                        self._migrate()  # all or nothing: SQLite's DDL is transactional
        except BaseException:
            self.close()
            raise

    @property
    def db(self) -> Database:
        """sqlite-utils' view of the writer connection, for tools and tests: statements it
        runs are the writer's, and its ``tracer`` sees every statement the engine runs,
        every thread's reads included. Made (and sqlite-utils imported) when first asked for.
        """
        with self._lock:
            if self._utils is None:
                from sqlite_utils import Database

                self._utils = Database(self._writer)
            return self._utils

    def _connect(
        self, *, cache_kib: int, mmap_bytes: int = 0, reads: bool = False
    ) -> sqlite3.Connection:
        """A new connection, set up (``_set_up``); ``reads`` for a reader's."""
        if self.read_only:
            return self._connect_read_only(cache_kib=cache_kib, mmap_bytes=mmap_bytes, reads=reads)
        with translating(_ERRORS, self._name):
            connection = sqlite3.connect(
                ":memory:" if self.path is None else str(self.path),
                check_same_thread=False,
                isolation_level=None,
                timeout=BUSY_TIMEOUT_SECONDS,
            )
        return self._set_up_or_close(
            connection, cache_kib=cache_kib, mmap_bytes=mmap_bytes, reads=reads
        )

    def _set_up_or_close(
        self, connection: sqlite3.Connection, *, cache_kib: int, mmap_bytes: int, reads: bool
    ) -> sqlite3.Connection:
        """``connection`` set up (``_set_up``), or closed if that fails: its first
        statements read the file, so one that is no database is refused here."""
        try:
            with translating(_ERRORS, self._name):
                self._set_up(connection, cache_kib=cache_kib, mmap_bytes=mmap_bytes, reads=reads)
        except BaseException:
            connection.close()
            raise
        return connection

    def _connect_read_only(
        self, *, cache_kib: int, mmap_bytes: int, reads: bool
    ) -> sqlite3.Connection:
        """A connection that cannot write the file (SQLite's ``mode=ro``).

        A WAL file is read beside its ``-shm`` index, which SQLite creates in the file's
        folder: in a folder this process cannot write, with no ``-shm`` there (no writer has
        the file open), ``mode=ro`` cannot read at all. The file is then read as immutable
        (``immutable=1``: no locks, no index), which is sound only while nobody writes it; so
        only when its write-ahead log is absent or empty, i.e. every commit is in the file
        itself. A log with frames in it is refused (``StorageUnavailable``) rather than read
        without them."""
        assert self.path is not None  # an in-memory database is never read-only
        with translating(_ERRORS, self._name):
            try:
                connection = self._open_read_only(self.path, immutable=self._immutable)
            except sqlite3.OperationalError:
                if self._immutable or not _log_is_empty(self.path):
                    raise
                connection = self._open_read_only(self.path, immutable=True)
                self._immutable = True
        return self._set_up_or_close(
            connection, cache_kib=cache_kib, mmap_bytes=mmap_bytes, reads=reads
        )

    @staticmethod
    def _open_read_only(path: Path, *, immutable: bool) -> sqlite3.Connection:
        """A ``mode=ro`` connection to ``path`` that has read the file (SQLite opens it at
        the first statement: a file it cannot read fails here, not mid-query)."""
        options = "mode=ro&immutable=1" if immutable else "mode=ro"
        connection = sqlite3.connect(
            f"{path.absolute().as_uri()}?{options}",
            uri=True,
            check_same_thread=False,
            isolation_level=None,
            timeout=BUSY_TIMEOUT_SECONDS,
        )
        try:
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except BaseException:
            connection.close()
            raise
        return connection

    def _set_up(
        self, connection: sqlite3.Connection, *, cache_kib: int, mmap_bytes: int, reads: bool
    ) -> None:
        """A new connection's functions and settings; ``reads`` for a reader's."""
        connection.create_function("fold", 1, _fold, deterministic=True)
        connection.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
        connection.execute("PRAGMA foreign_keys = ON")
        # A REPLACE that deletes a row fires its delete triggers (the search index's, the
        # counts') only with recursive triggers on (sqlite-utils turned them on for us when
        # it wrapped every connection).
        connection.execute("PRAGMA recursive_triggers = ON")
        if reads:
            # A reader's temporary tables (an ``IN`` list, a union's parts) in memory: with
            # SQLite's default, a statement needing two of them opened a temporary file,
            # 30 µs a statement, four times what reading a page's links costs. Readers only:
            # the writer's (a bulk load's index builds) grew a 100,000-event load's peak RSS
            # by a sixth.
            connection.execute("PRAGMA temp_store = MEMORY")
        if self.path is not None:
            connection.execute("PRAGMA synchronous = NORMAL")
            # SQLite's defaults (a 2 MiB page cache, no memory map) suit small files; a large
            # calendar's indexes thrash that cache on every bulk batch and every count.
            connection.execute(f"PRAGMA cache_size = -{cache_kib}")
            connection.execute(f"PRAGMA mmap_size = {mmap_bytes}")

    @contextmanager
    def _writer_alone(self) -> Iterator[sqlite3.Connection]:
        """The writer's connection, this process's writers held off (between transactions):
        what the background thread merges the search indexes through. Not traced."""
        with self._lock:
            yield self._writer

    def _reader(self) -> sqlite3.Connection:
        """This thread's reader connection."""
        self._check_open()
        reader: sqlite3.Connection | None = getattr(self._local, "db", None)
        if reader is None:
            reader = self._local.db = self._connect(cache_kib=READER_CACHE_KIB, reads=True)
            with self._readers_lock:
                self._readers.append(reader)
        return reader

    def read_connection(self) -> sqlite3.Connection:
        """The connection this thread's reads go through (for tracing and tools): its own
        reader connection, or the writer's inside its transaction or in memory."""
        return self._writer if self._writes_here() else self._reader()

    def _run(self, connection: sqlite3.Connection, sql: str, params: Any = ()) -> sqlite3.Cursor:
        """One statement, shown first to the tracer of ``db`` if one is set."""
        utils = self._utils
        if utils is not None and utils._tracer is not None:
            utils._tracer(sql, params)
        return connection.execute(sql, params)

    def _writes_here(self) -> bool:
        """Whether this thread uses the writer connection: it is in the write transaction, or
        the database is a private in-memory one."""
        return self.path is None or self._owner == threading.get_ident()

    def _must_write_on_open(self) -> bool:
        """Whether opening has anything to write: a migration the file lacks, or search
        indexes folded by another Unicode version than this Python's.

        Read outside any write transaction (in WAL a read waits for no writer), so opening a
        file that is up to date never waits for another process's open transaction: with
        ``BEGIN IMMEDIATE`` first, ``connect()`` waited for it and failed after the busy
        timeout. ``_migrate`` reads it all again under the write lock, since another opener
        may have written in between. A newer schema is refused here already."""
        if self._lacks_migrations():
            return True
        (folded_by,) = self._writer.execute(f"SELECT unicode FROM {FOLDED_BY}").fetchone()
        return bool(folded_by != unicodedata.unidata_version)

    def _why_write_on_open(self) -> str:
        """What a read-only file lacks that opening it would write (``_must_write_on_open``)."""
        if self._lacks_migrations():
            applied = set(self._applied_migrations())
            missing = [name for name, _ in STEPS if name not in applied]
            shown = missing if len(missing) <= 3 else [missing[0], "...", missing[-1]]
            what = f"{len(missing)} migrations this version applies ({', '.join(shown)})"
        else:
            what = (
                "its search indexes refolded for this Python's Unicode version "
                f"({unicodedata.unidata_version})"
            )
        return (
            f"it is read-only and needs {what}; open it once where it can be written "
            "(events-calendar migrate --db ...), then read-only again"
        )

    def _migrate(self) -> None:
        """Apply the migrations the file lacks; none, and sqlite-utils is not imported."""
        if self._lacks_migrations():
            applied = set(self._applied_migrations())
            migrations().apply(self.db)
            self.migrated = tuple(name for name, _ in STEPS if name not in applied)
        refold_search_indexes(self._writer.execute)

    def _lacks_migrations(self) -> bool:
        """Whether a migration of this code is not applied to the file yet. A file migrated
        by a newer version holds what this code cannot read correctly: it is refused whole
        rather than used half-understood."""
        applied = self._applied_migrations()
        known = {name for name, _ in STEPS}
        unknown = [name for name in applied if name not in known]
        if unknown:
            raise StorageUnavailable.of(
                self._name,
                f"its schema is newer than this version of events_calendar (migration "
                f"{unknown[-1]!r}); upgrade events_calendar to open it",
            )
        return not known.issubset(applied)

    def _applied_migrations(self) -> list[str]:
        """The names of the migrations applied to the file, in the order they were, read
        from sqlite-utils' record of them (none in a new file)."""
        table = self._writer.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [MIGRATIONS_TABLE]
        ).fetchone()
        if table is None:
            return []
        rows = self._writer.execute(
            f"SELECT name FROM [{MIGRATIONS_TABLE}] WHERE migration_set = ? ORDER BY rowid",
            [MIGRATION_SET],
        ).fetchall()
        return [name for (name,) in rows]

    def _retry(self, step: Callable[[], T]) -> T:
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
                        f"{self._name} stayed locked by another writer for "
                        f"{BUSY_TIMEOUT_SECONDS:.0f} s; try again."
                    ) from error
                time.sleep(delay)
                delay = min(delay * 2, 0.2)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        if self.read_only:  # before SQLite's own refusal, a driver error mid-write
            self._check_open()
            raise _read_only(
                self._name,
                "it is opened read-only (the file or its folder cannot be written, or the "
                "URL says ?mode=ro); writes need a database this process can write",
            )
        with self._lock:
            self._check_open()
            outer = self._depth == 0
            with self._translating():
                if outer:
                    self._retry(lambda: self._run(self._writer, "BEGIN IMMEDIATE"))
                    self._owner = threading.get_ident()
                else:
                    self._run(self._writer, f"SAVEPOINT sp{self._depth}")
            self._depth += 1
            try:
                yield
            except BaseException:
                self._depth -= 1
                with self._translating():
                    if outer:
                        self._owner = None
                        self._run(self._writer, "ROLLBACK")
                    else:
                        self._run(self._writer, f"ROLLBACK TO sp{self._depth}")
                        self._run(self._writer, f"RELEASE sp{self._depth}")
                raise
            self._depth -= 1
            if outer:
                try:
                    with self._translating():
                        self._retry(lambda: self._run(self._writer, "COMMIT"))
                finally:
                    self._owner = None
                self._commits += 1
                if self._checkpoints is not None:
                    self._checkpoints.committed()
            else:
                with self._translating():
                    self._run(self._writer, f"RELEASE sp{self._depth}")

    @contextmanager
    def reading(self) -> Iterator[None]:
        if self._writes_here():
            with self._lock:
                if self._depth:  # inside this thread's transaction: it sees its own writes
                    yield
                    return
                self._check_open()
                with self._translating():
                    self._retry(lambda: self._run(self._writer, "BEGIN"))
                try:
                    yield
                finally:
                    with self._translating():
                        self._run(self._writer, "COMMIT")
            return
        if getattr(self._local, "snapshot", False):
            yield
            return
        reader = self._reader()
        with self._translating():
            self._retry(lambda: self._run(reader, "BEGIN"))
        self._local.snapshot = True
        try:
            yield
        finally:
            self._local.snapshot = False
            with self._translating():
                self._run(reader, "COMMIT")

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        if self._writes_here():
            with self._lock:
                self._check_open()
                return self._execute(self._writer, sql, params)
        return self._execute(self._reader(), sql, params)

    def _translating(self) -> translating:
        return self._translate

    def _check_open(self) -> None:
        """Refuse any use after ``close``: its connections are gone, and a reader must not be
        opened afresh on the file as if nothing happened (the driver's own complaint was a
        ``sqlite3.ProgrammingError``, no error of this library's)."""
        if self._closed:
            raise StorageUnavailable.of(self._name, "the calendar was closed")

    def _execute(self, connection: sqlite3.Connection, sql: str, params: Sequence[Any]) -> Result:
        try:
            cursor = self._run(connection, sql, params)
            rows = cursor.fetchall()
        except BaseException as error:
            mapped = translate(_ERRORS, self._name, error)
            if mapped is None:
                raise
            raise mapped from error
        description = cursor.description
        columns = tuple(d[0] for d in description) if description else ()
        return Result(columns, rows, cursor.rowcount)

    def writing(self) -> bool:
        return self._owner == threading.get_ident()

    def generation(self) -> Hashable:
        """Changes whenever a write commits, from this process or another. A file is watched
        by a connection of its own, which never writes: its ``data_version`` moves with every
        commit of any other connection, the writer's included, and reading it waits for no
        writer. Inside this thread's open transaction, equal to nothing."""
        if self.writing():
            return object()
        if self._watch is None:  # a private in-memory database: only our writer commits
            with self._lock:
                self._check_open()
                return object() if self._depth else self._commits
        with self._watch_lock, self._translating():
            self._check_open()
            (version,) = self._watch.execute("PRAGMA data_version").fetchone()
        return int(version)

    def generation_nowait(self) -> Hashable | None:
        """A file's ``data_version``, unless another thread is reading it: the watching
        connection only reads the WAL index in shared memory, which waits for no writer.
        A private in-memory database's count sits behind the writer's lock: ``None``."""
        if self._watch is None or self.writing():
            return None
        if not self._watch_lock.acquire(blocking=False):
            return None
        try:
            self._check_open()
            with self._translating():
                (version,) = self._watch.execute("PRAGMA data_version").fetchone()
        finally:
            self._watch_lock.release()
        return int(version)

    def close(self) -> None:
        """Close every connection; any use afterwards raises ``StorageUnavailable``. Another
        thread's open transaction is waited for and commits; closing inside this thread's
        own transaction is refused (``RuntimeError``, nothing closed), as on every backend:
        closing the writer under it rolled it back here while PostgreSQL committed it.
        Closing twice does nothing."""
        if self.writing():
            raise RuntimeError(
                "close() inside the calendar's open transaction: end the transaction first"
            )
        with self._lock:
            if self._closed:
                return
            self._closed = True
        with self._readers_lock:
            for reader in self._readers:
                reader.close()
            self._readers.clear()
        if self._watch is not None:
            with self._watch_lock:
                self._watch.close()
        if self._checkpoints is not None:
            self._checkpoints.close()
        with self._lock:
            self._writer.close()


def cannot_write(path: Path) -> bool:
    """Whether ``path`` is an existing file this process cannot write: the file itself is
    read-only (``chmod 444``), or its folder is and the WAL's ``-wal`` and ``-shm`` files,
    which a writer creates there, are not both there and writable. A missing file is
    ``False``: opening it creates it, or fails saying why."""
    if not path.exists():
        return False
    if not os.access(path, os.W_OK):
        return True
    folder = path.absolute().parent
    if os.access(folder, os.W_OK | os.X_OK):
        return False
    companions = (path.with_name(path.name + suffix) for suffix in ("-wal", "-shm"))
    return not all(os.access(companion, os.W_OK) for companion in companions)


def _log_is_empty(path: Path) -> bool:
    """Whether the file's write-ahead log holds no commit (absent, or no frame in it)."""
    log = path.with_name(path.name + "-wal")
    try:
        return log.stat().st_size == 0
    except FileNotFoundError:
        return True


def _read_only(database: str, reason: str) -> StorageUnavailable:
    """``StorageUnavailable.of`` with the read-only code: a write or a migration a
    read-only database cannot take."""
    return StorageUnavailable(
        f"{database}: {reason}",
        code=READ_ONLY_DATABASE,
        data={"database": database, "reason": reason},
    )


#: The options an SQLite URL may carry after ``?``.
_URL_OPTIONS = {"mode": ("ro",)}


class SQLiteBackend(SQLStore):
    """The calendar's storage in one SQLite file (or a private in-memory database)."""

    engine: SQLiteEngine

    @classmethod
    def from_url(cls, url: str) -> SQLiteBackend:
        """``sqlite:///relative.db``, ``sqlite:////absolute.db``; ``sqlite://`` in memory;
        ``?mode=ro`` after a file's path opens it read-only (``read_only``)."""
        path = cls.path_of(url)
        read_only = _url_options(url).get("mode") == "ro"
        if read_only and path is None:
            raise InvalidParameter.one(
                "url", f"{url!r}: mode=ro needs a file; an in-memory database is empty"
            )
        return cls(path, read_only=True if read_only else None)

    @staticmethod
    def path_of(url: str) -> str | None:
        """The file an SQLite URL names (as ``from_url`` reads it, without its ``?``
        options), ``None`` for a private in-memory database: what a caller checks before
        opening creates the file."""
        rest = url.partition("://")[2].partition("?")[0]
        path = rest[1:] if rest.startswith("/") else rest
        return None if path in ("", ":memory:") else path

    def __init__(self, path: str | Path | None = None, *, read_only: bool | None = None) -> None:
        """Open (creating and migrating as needed) the database at ``path``; ``None`` or
        ``":memory:"`` gives a private in-memory database.

        ``read_only=True`` opens the file without writing it; ``None`` (the default) does so
        when the file is there but this process cannot write it (``cannot_write``), so an
        export or a read works on a file shared read-only. Writes then raise
        ``StorageUnavailable`` with code ``READ_ONLY_DATABASE``; a file lacking migrations
        cannot be opened read-only and says so."""
        super().__init__(
            SQLiteEngine(
                None if path is None or str(path) == ":memory:" else Path(path),
                read_only=read_only,
            )
        )
        #: Whether a bulk load is in progress (its search index is built at its end).
        self._loading = False
        #: Moved events of a ``replace_many`` chunk from which their upkeep is set-wise.
        self._set_wise = SET_WISE

    @property
    def path(self) -> Path | None:
        return self.engine.path

    @property
    def db(self) -> Database:
        """sqlite-utils' view of the database (its ``tracer`` sees every statement)."""
        return self.engine.db

    @contextmanager
    def bulk_load(self, kind: Kind) -> Iterator[None]:
        """Inside the caller's write transaction: what many event inserts may build once, at
        the end, rather than row by row (``bulk.BulkLoading``).

        Always, the term-count triggers (migration 0004), the search index's insert trigger
        and the change journal's insert triggers (0008) are dropped for the load; at its end
        the search index takes the load's events in one statement (FTS5 merges far less than
        batch by batch), the counts go up once, from the links of those events, and the
        journal gets one "anything" entry. Into an empty events table the secondary indexes
        of the events and link tables go too, and are built once from the loaded rows
        (sorted index builds), except the unique slug index, which slug allocation reads and
        which guards uniqueness throughout.

        Everything dropped is re-created from its own text in ``sqlite_master``, so the
        schema ends up exactly as the migrations left it. SQLite's DDL is transactional: a
        failed load rolls the drops back with the rows, and readers (in WAL, on their own
        snapshot) never see the schema without them; no other writer can run meanwhile.
        """
        if kind != "event" or self._loading:
            yield
            return
        engine = self.engine
        empty = engine.execute("SELECT NOT EXISTS (SELECT 1 FROM events)").scalar() == 1
        names = [
            *_COUNT_TRIGGERS,
            *WINDOW_COUNT_TRIGGERS,
            *JOURNAL_INSERT_TRIGGERS,
            "events_fts_insert",
        ]
        tables = ["events", *(link.table for link in LINKS.values())]
        marks = ", ".join("?" * len(tables))
        indexes = (
            engine.execute(
                f"SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
                f" AND tbl_name IN ({marks}) AND name != 'events_slug'",
                tables,
            ).rows
            if empty
            else []
        )
        for name, _ in indexes:
            engine.execute(f"DROP INDEX [{name}]")
        triggers = self._drop_triggers(names)
        first = self.last_id("post") + 1
        self._loading = True
        try:
            yield
        finally:
            self._loading = False
        for _, sql in indexes:
            engine.execute(sql)
        last = self.last_id("post")
        self._index_loaded(first, last, empty=empty)
        self._raise_term_counts(first, last)
        for sql, params in raise_counts(self.dialect, first, last):
            engine.execute(sql, params)
        for sql in triggers:
            engine.execute(sql)
        engine.execute(  # one entry for the load, not one per row: "anything changed"
            "INSERT INTO changes (kind, record_id, op) VALUES (?, 0, 'insert')", [ANYTHING]
        )

    def _index_loaded(self, first: int, last: int, *, empty: bool) -> None:
        """The search index takes the loaded events (ids ``first`` to ``last``) in one
        statement.

        FTS5 writes its pending terms out as a new segment every ``hashsize`` bytes (1 MiB by
        default); merging segments as they pile up was most of a load's indexing at a million
        events when writers merged (before migration 0014), and it grows faster than the
        events do. A 64 MiB hash writes a segment a sixty-fourth as often, and into an empty
        index one ``optimize`` at the end leaves one segment, so searches are as fast as after
        a default build (measured at 500,000 events): indexing 1.1 million events took 137 s
        against 172 s, 100,000 took 5.7 s against 7.1 s. Beside indexed events the larger
        hash alone (an ``optimize`` would rewrite the whole index); the background thread
        merges what the load added (``sqlite_search_merge``). The hash goes back to FTS5's
        default afterwards, so later writes index as ever.
        """
        self.engine.execute(_FTS_HASH_SETTING, [_FTS_LOAD_HASH])
        self.engine.execute(INDEX_EVENTS_BETWEEN, [first, last])
        if empty:
            self.engine.execute("INSERT INTO events_fts(events_fts) VALUES ('optimize')")
        self.engine.execute(_FTS_HASH_SETTING, [_FTS_DEFAULT_HASH])

    def _drop_triggers(self, names: Sequence[str]) -> list[str]:
        """Drop the triggers of these names; the text that re-creates them as they were."""
        found = self.engine.execute(
            f"SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"
            f" AND name IN ({', '.join('?' * len(names))})",
            names,
        ).rows
        for name, _ in found:
            self.engine.execute(f"DROP TRIGGER [{name}]")
        return [sql for _, sql in found]

    @contextmanager
    def _rewrite(self, kind: Kind, ids: Sequence[int]) -> Iterator[None]:
        """Set-wise upkeep for a large chunk of rewritten events (``REWRITE_TRIGGERS``).

        Row by row, the update triggers count each moved event out and in again and copy its
        listing key into each of its link rows: about 220 µs an event, most of a reschedule's
        time. For a chunk, the counts of its events (their links and branches too) go out in
        a few statements before the writes and in again after them, and their link rows take
        their events' keys in one statement per link table: about half the work. The triggers
        are dropped for the writes and re-created from their own text; inside the caller's
        transaction (a savepoint at least), so an error undoes the drop with the writes.
        """
        if kind != "event" or len(ids) < self._set_wise or self._loading:
            yield
            return
        triggers = self._drop_triggers(REWRITE_TRIGGERS)
        picked, linked = self.dialect.in_("id", ids), self.dialect.in_("l.event_id", ids)
        for sql, params in count_events(self.dialect, picked, linked, sign=-1):
            self.engine.execute(sql, params)
        yield
        for sql, params in count_events(self.dialect, picked, linked):
            self.engine.execute(sql, params)
        keys = ", ".join(LISTING_KEY)
        inner, params = self.dialect.in_("event_id", ids)
        for link in LINKS.values():
            self.engine.execute(
                f"UPDATE [{link.table}] SET ({keys}) = (SELECT {keys} FROM events e"
                f" WHERE e.id = [{link.table}].event_id) WHERE {inner}",
                params,
            )
        for sql in triggers:
            self.engine.execute(sql)

    def _raise_term_counts(self, first: int, last: int) -> None:
        """What the dropped count triggers would have done for the events with ids from
        ``first`` to ``last``: each term's count goes up by its new links to counted
        events."""
        counted = ", ".join(f"'{status.value}'" for status in sorted(COUNTED_STATUSES))
        for field in ("categories", "tags"):
            link = LINKS[field]
            terms = self._tables[link.target]
            self.engine.execute(
                f"UPDATE {terms} SET count = count + d.n FROM"
                f" (SELECT l.{link.column} AS term, count(*) AS n FROM [{link.table}] l"
                " JOIN events e ON e.id = l.event_id"
                f" WHERE l.event_id BETWEEN ? AND ? AND e.status IN ({counted})"
                f" GROUP BY l.{link.column}) AS d WHERE {terms}.id = d.term",
                [first, last],
            )

    @contextmanager
    def _batch(self, kind: Kind, ids: Sequence[int]) -> Iterator[None]:
        """Index a batch of new events in one FTS5 statement (migration 0003): FTS5 indexes
        rows an order of magnitude faster from one ``INSERT ... SELECT`` than per row. A bulk
        load indexes all its events at its end instead (``bulk_load``)."""
        if kind != "event" or len(ids) < 2 or self._loading:
            yield
            return
        first, last = min(ids), max(ids)
        self.engine.execute("INSERT INTO fts_deferred VALUES (?, ?)", [first, last])
        yield
        self.engine.execute(INDEX_EVENTS_BETWEEN, [first, last])
        self.engine.execute("DELETE FROM fts_deferred")
