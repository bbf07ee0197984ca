"""PostgreSQL storage (``connect("postgresql://user@host:5432/db")``; extra ``postgres``).

The shared SQL layer plus four pieces: ``PostgresDialect`` (how PostgreSQL spells booleans,
case folding, ``IN`` lists and substring search), ``PostgresEngine`` (psycopg 3,
transactions, the cross-process generation), its connections (``postgres_pool``: a
``psycopg_pool`` pool that recovers from restarts and fails fast while the server is down)
and the migrations in ``postgres_schema``.

Concurrency: every outermost write transaction takes one transaction-level advisory lock
first, so writers from every thread, process and machine run one at a time and a
read-modify-write in the core never loses an update; readers never wait for it. Several reads
that must agree (a page and its total) share one ``REPEATABLE READ`` snapshot. Driver errors
become the library's own (``Conflict``, ``StorageUnavailable``) in ``_translating`` only.

"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qs, urlsplit

import psycopg
import psycopg.errors

from ..changes import ANYTHING
from ..errors import StorageUnavailable
from ..records import Kind
from .postgres_pool import Connections, reason
from .postgres_schema import BULK_LOAD_SETTING, MIGRATIONS, Migration, fold, search_text
from .sql.dialect import Dialect, Fragment
from .sql.engine import Engine, Result
from .sql.errors import DriverErrors, translating
from .sql.schema import LINKS
from .sql.store import SQLStore
from .sql.window_counts import raise_counts

__all__ = ["PostgresBackend", "PostgresDialect", "PostgresEngine", "describe_url"]

#: The advisory lock every outermost write transaction (and every migration) takes first.
WRITE_LOCK = 0x6563_616C_0001  # "ecal", 1
#: How long a writer waits for another's write lock before giving up with ``Conflict``, as
#: long as SQLite's busy timeout: the lock used to be waited for without limit.
WRITE_LOCK_TIMEOUT_SECONDS = 60.0
#: How long connecting may take before the database counts as unreachable.
CONNECT_TIMEOUT_SECONDS = 5
#: From this many rows on, an insert goes through ``COPY`` rather than ``INSERT``.
COPY_FROM = 50
#: Memory for building the indexes a bulk load deferred (``maintenance_work_mem``).
INDEX_BUILD_MEMORY = "256MB"
_ERRORS = DriverErrors(
    integrity=(psycopg.errors.IntegrityError,),
    busy=(
        psycopg.errors.LockNotAvailable,
        psycopg.errors.SerializationFailure,
        psycopg.errors.DeadlockDetected,
    ),
    # A table or a column missing (never created, or dropped under a running calendar) is a
    # database this code cannot use, as SQLite's "no such table" and "no such column" (each an
    # ``OperationalError``) are there: ``StorageUnavailable`` on both, not the driver's
    # ``UndefinedTable`` or ``UndefinedColumn`` on one.
    unavailable=(
        psycopg.OperationalError,
        psycopg.InterfaceError,
        psycopg.errors.UndefinedTable,
        psycopg.errors.UndefinedColumn,
    ),
)
_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\?|%")


def _prepare(sql: str) -> bool | None:
    """``False`` (never a prepared statement) for a statement matching a bound ``LIKE``
    pattern, psycopg's default (prepared from its sixth run on a connection) otherwise.

    How to run a search depends on how common its words are: a common one is found a few
    rows into the list's own order, a rare one from the trigram index. A prepared statement
    is planned for its values five times, then the server may keep a generic plan, blind to
    them: it took the index for every word and sorted every match, 10x slower for a word
    one event in four holds, whichever word it was (a search once looked slow on "café"
    only because it ran after "cafe", the same statement). Planning each time costs a
    fraction of a millisecond."""
    return False if " LIKE %s" in sql else None


def take_write_lock(connection: psycopg.Connection[Any]) -> None:
    """Take the write lock for the open transaction, waiting at most
    ``WRITE_LOCK_TIMEOUT_SECONDS`` for another writer (then PostgreSQL's ``LockNotAvailable``,
    which the engine turns into ``Conflict``).

    Uncontended, one statement, as before. The wait's limit is set only around the wait and
    put back after it, so the transaction's own statements (a bulk load's index drops, which
    wait for readers) keep the connection's setting."""
    taken = connection.execute("SELECT pg_try_advisory_xact_lock(%s)", [WRITE_LOCK]).fetchone()
    if taken == (True,):
        return
    found = connection.execute("SELECT current_setting('lock_timeout')").fetchone()
    wait = f"{round(WRITE_LOCK_TIMEOUT_SECONDS * 1000)}ms"
    connection.execute("SELECT set_config('lock_timeout', %s, true)", [wait])
    connection.execute("SELECT pg_advisory_xact_lock(%s)", [WRITE_LOCK])
    connection.execute("SELECT set_config('lock_timeout', %s, true)", [found[0] if found else "0"])


@lru_cache(maxsize=4096)
def to_pyformat(sql: str) -> str:
    """``?`` placeholders become ``%s`` and literal ``%`` becomes ``%%`` (also inside quoted
    literals, which psycopg scans too); a ``?`` inside a quoted literal stays."""

    def replace(match: re.Match[str]) -> str:
        text = match.group()
        if text == "?":
            return "%s"
        return text.replace("%", "%%")

    return _PLACEHOLDER.sub(replace, sql)


def describe_url(url: str) -> str:
    """``postgresql://host:port/db`` for messages: no user name, no password, no options."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    host = parts.hostname or (query.get("host") or ["localhost"])[0]
    port = parts.port if _valid_port(url) else None
    return f"{parts.scheme}://{host}:{port or 5432}/{parts.path.lstrip('/') or '?'}"


def _valid_port(url: str) -> bool:
    try:
        urlsplit(url).port  # noqa: B018 - parsing the port is the check
    except ValueError:
        return False
    return True


class PostgresDialect(Dialect):
    """PostgreSQL's spelling; substring tests are served by ``pg_trgm`` GIN indexes."""

    name = "postgresql"
    true = "TRUE"
    false = "FALSE"
    types = {bool: "BOOLEAN", int: "BIGINT", str: "TEXT"}  # noqa: RUF012 - a ClassVar
    primary_key = "BIGINT PRIMARY KEY"

    def fold(self, expr: str) -> str:
        return fold(expr)

    def by_code_point(self, expr: str) -> str:
        return expr + ' COLLATE "C"'

    def in_(self, expr: str, values: Collection[Any]) -> Fragment:
        return f"{expr} = ANY(?)", [list(values)]

    def contains(self, expr: str, word: str) -> Fragment:
        return f"{self.fold(expr)} LIKE ?", [_like(word)]

    def search(
        self, table: str, alias: str, fields: Sequence[str], words: Sequence[str], *, together: bool
    ) -> Fragment:
        if not words:
            return self.true, []
        groups = [list(fields)] if together else [[field] for field in fields]
        clauses: list[str] = []
        params: list[Any] = []
        for group in groups:
            tests = []
            for word in words:
                # The indexed text joins the fields with a newline (PostgreSQL text holds no
                # NUL, which memory and SQLite join with): a word holding one is looked for
                # in each field, so that it is never found across two.
                each = [[f] for f in group] if "\n" in word and len(group) > 1 else [group]
                tests.append(
                    "(" + " OR ".join(f"{search_text(table, f, alias)} LIKE ?" for f in each) + ")"
                )
                params.extend(_like(word) for _ in each)
            clauses.append("(" + " AND ".join(tests) + ")")
        return "(" + " OR ".join(clauses) + ")", params


def _like(word: str) -> str:
    """A LIKE pattern matching ``word`` anywhere (its ``\\``, ``%`` and ``_`` taken literally)."""
    escaped = word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


class _Local(threading.local):
    """The current thread's open transaction or snapshot, if any."""

    connection: psycopg.Connection[Any] | None = None
    read_only = False


class PostgresEngine(Engine):
    """One PostgreSQL database behind a connection pool; migrated when opened."""

    dialect = PostgresDialect()

    def __init__(
        self,
        url: str,
        *,
        max_connections: int = 10,
        migrations: Sequence[Migration] = MIGRATIONS,
        connect_timeout: int = CONNECT_TIMEOUT_SECONDS,
    ) -> None:
        """Connect to ``url`` (failing fast, in one line, if the server cannot be reached),
        apply the migrations the database lacks, and open the pool."""
        self.url = url
        self.database = describe_url(url)
        self._local = _Local()
        #: Held by this process's outermost write transaction, taken before it borrows a
        #: connection: writers queued behind another's transaction wait here, holding no
        #: connection, so at most one of this process's connections waits on the advisory
        #: lock and readers always find one in the pool. (Borrowing first, a dozen queued
        #: writers held every pooled connection and a read failed after the pool timeout.)
        self._writers = threading.Lock()
        self._closed = False  # set by ``close``
        options: dict[str, Any] = {"autocommit": True, "connect_timeout": connect_timeout}
        try:
            with psycopg.connect(url, **options) as connection:
                self.migrate(connection, migrations)
        except psycopg.Error as error:
            raise StorageUnavailable.of(self.database, reason(error)) from error
        self._connections = Connections(url, self.database, options, max_size=max_connections)
        #: The pool itself, for what looks into it (tests, a deployment's statistics).
        self._pool = self._connections.pool

    # -- migrations --------------------------------------------------------------------------
    def migrate(self, connection: psycopg.Connection[Any], migrations: Sequence[Migration]) -> None:
        """Apply the migrations the database lacks, each in its own transaction (under the
        write lock, so concurrent openers migrate once). Refuses a schema newer than
        ``migrations``.

        The schema's version is read first without the lock: a database that needs nothing
        is opened without waiting for any writer (taking the lock first, opening waited
        without limit for every open write transaction of every process). Each migration
        reads it again under the lock, since another opener may have applied it meanwhile.
        """
        known = max((m.version for m in migrations), default=0)
        with self._translating():
            newest = self._schema_version(connection)
        if newest is None or newest < known:
            with self._translating(), connection.transaction():
                take_write_lock(connection)
                connection.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY,"
                    " name TEXT NOT NULL, applied TIMESTAMPTZ NOT NULL DEFAULT now())"
                )
                newest = self._schema_version(connection)
        newest = newest or 0
        if newest > known:
            raise StorageUnavailable.of(
                self.database,
                f"the database schema is at version {newest}, newer than this events-calendar"
                f" knows (version {known}); upgrade events-calendar to open it",
            )
        for migration in migrations:
            if migration.version <= newest:
                continue
            with self._translating(), connection.transaction():
                take_write_lock(connection)
                done = connection.execute(
                    "SELECT 1 FROM schema_migrations WHERE version = %s", [migration.version]
                ).fetchone()
                if done:
                    continue
                for statement in migration.statements():
                    connection.execute(statement)
                connection.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                    [migration.version, migration.name],
                )
            self.migrated += (f"{migration.version:04d}_{migration.name}",)

    @staticmethod
    def _schema_version(connection: psycopg.Connection[Any]) -> int | None:
        """The newest migration applied (0 when none), ``None`` when there is no
        ``schema_migrations`` table yet. Takes no lock a writer holds."""
        table = connection.execute("SELECT to_regclass('schema_migrations') IS NOT NULL")
        if table.fetchone() != (True,):
            return None
        found = connection.execute("SELECT max(version) FROM schema_migrations").fetchone()
        return int(found[0]) if found and found[0] is not None else 0

    # -- transactions ------------------------------------------------------------------------
    @contextmanager
    def _translating(self) -> Iterator[None]:
        with translating(_ERRORS, self.database):
            yield

    def _begin(
        self,
        held: ExitStack,
        *,
        read_only: bool,
        first: Callable[[psycopg.Connection[Any]], None] | None,
    ) -> psycopg.Connection[Any]:
        """A pooled connection with a transaction begun (and ``first`` run in it: the write
        lock), both left for ``held`` to end.

        When the connection turns out broken here (it died after the pool's check looked at
        it), the pool is checked and this is done once more on another connection. Safe:
        nothing of the caller's ran yet, and ``BEGIN`` and the write lock change nothing, so
        the server cannot have applied anything; a failure later in the transaction is never
        retried (its statements may have been applied, and its body has already run)."""
        for last in (False, True):
            attempt = ExitStack()
            connection = attempt.enter_context(self._connections.lend())
            try:
                connection.read_only = read_only or None
                connection.isolation_level = (
                    psycopg.IsolationLevel.REPEATABLE_READ if read_only else None
                )
                attempt.enter_context(connection.transaction())
                if first is not None:
                    first(connection)
            except psycopg.OperationalError as error:
                broken = connection.broken  # read before the pool closes it
                attempt.__exit__(type(error), error, error.__traceback__)
                if last or not broken:
                    raise
                self._connections.pool.check()
                continue
            except BaseException as error:
                attempt.__exit__(type(error), error, error.__traceback__)
                raise
            held.enter_context(attempt)
            return connection
        raise AssertionError("unreachable: the last attempt returns or raises")

    @contextmanager
    def _borrowed(
        self,
        *,
        read_only: bool,
        first: Callable[[psycopg.Connection[Any]], None] | None = None,
    ) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection as the thread's current one, for one transaction (begun, and
        ``first`` run in it, by ``_begin``)."""
        self._check_open()
        with self._translating(), ExitStack() as held:
            connection = self._begin(held, read_only=read_only, first=first)
            self._local.connection, self._local.read_only = connection, read_only
            try:
                yield connection
            finally:
                self._local.connection, self._local.read_only = None, False

    @contextmanager
    def transaction(self) -> Iterator[None]:
        connection = self._local.connection
        if connection is None:
            self._check_open()  # before queueing behind this process's writers
            with self._writers, self._borrowed(read_only=False, first=take_write_lock):
                yield
            return
        if self._local.read_only:
            raise RuntimeError("a write transaction cannot open inside reading()")
        with self._translating(), connection.transaction():
            yield

    @contextmanager
    def reading(self) -> Iterator[None]:
        if self._local.connection is not None:
            yield
            return
        with self._borrowed(read_only=True):
            yield

    # -- statements --------------------------------------------------------------------------
    def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        connection = self._local.connection
        if connection is not None:
            return self._run(connection, to_pyformat(sql), params)
        self._check_open()
        with self._translating(), self._connections.lend() as connection:
            return self._run(connection, to_pyformat(sql), params)

    def _run(self, connection: psycopg.Connection[Any], sql: str, params: Sequence[Any]) -> Result:
        with self._translating(), connection.cursor() as cursor:
            cursor.execute(sql, list(params), prepare=_prepare(sql))
            if cursor.description is None:
                return Result(rowcount=cursor.rowcount)
            columns = tuple(column.name for column in cursor.description)
            return Result(columns, cursor.fetchall(), cursor.rowcount)

    def copy(self, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
        """``COPY table (columns) FROM STDIN``: many rows in one statement, streamed, without
        parsing a statement or binding parameters per row. Statement triggers fire once, as
        for one multi-row ``INSERT``. Inside the current transaction (or one of its own)."""
        names = ", ".join(self.dialect.quote(c) for c in columns)
        statement = f"COPY {table} ({names}) FROM STDIN"
        with self.transaction(), self._translating():
            connection = self._local.connection
            assert connection is not None  # set by transaction()
            with connection.cursor() as cursor, cursor.copy(statement) as copy:
                for row in rows:
                    copy.write_row(row)

    def writing(self) -> bool:
        return self._local.connection is not None and not self._local.read_only

    def generation(self) -> Hashable:
        """The ``data_generation`` counter, bumped by triggers in every writer's transaction:
        it moves on commits from any process or machine."""
        if self.writing():
            return object()
        return int(self.execute("SELECT value FROM data_generation").scalar())

    def _check_open(self) -> None:
        """Refuse a new transaction or statement after ``close``, in the words every backend
        uses (the pool's own complaint named the pool, not the calendar)."""
        if self._closed:
            raise StorageUnavailable.of(self.database, "the calendar was closed")

    def close(self) -> None:
        """Close the pool; any use afterwards raises ``StorageUnavailable``. Another thread's
        open transaction keeps its connection until it ends (and commits). Closing inside
        this thread's own transaction is refused (``RuntimeError``, nothing closed), as on
        every backend: it used to commit here when the block ended, and roll back on SQLite.
        Closing twice does nothing."""
        if self.writing():
            raise RuntimeError(
                "close() inside the calendar's open transaction: end the transaction first"
            )
        if self._closed:
            return
        self._closed = True
        self._connections.close()


#: A load analyses the tables it grew (``PostgresBackend._analyze_if_grown``) when it added
#: at least this many events plus this share of those counted before: autovacuum's own
#: defaults (``autovacuum_analyze_threshold``, ``autovacuum_analyze_scale_factor``).
_ANALYZE_BASE = 50
_ANALYZE_SHARE = 0.1
#: The link tables a load writes.
_LOADED_LINKS = tuple(link.table for link in LINKS.values())


class PostgresBackend(SQLStore):
    """The calendar's storage in a PostgreSQL database (migrated when opened)."""

    engine: PostgresEngine

    @classmethod
    def from_url(cls, url: str) -> PostgresBackend:
        """``postgresql://user:password@host:port/database`` (libpq options may follow ``?``)."""
        return cls(url)

    def __init__(self, url: str, *, max_connections: int = 10) -> None:
        super().__init__(PostgresEngine(url, max_connections=max_connections))

    @contextmanager
    def bulk_load(self, kind: Kind) -> Iterator[None]:
        """Inside the caller's write transaction: a load of events into an empty events table
        builds the link tables' foreign keys and the events' secondary indexes (the trigram
        search index first of all) once, after the rows (``bulk.BulkLoading``).

        Checking a foreign key costs two index lookups per link row, and the trigram index
        dozens of entries per event; built at the end, each is one sorted pass. The unique
        slug index stays (slug allocation reads it; it guards uniqueness throughout). Term
        counts and the generation counter need nothing: their triggers run once per
        statement already. Day counts (migration 3) are raised once at the end, into an empty
        table or not, and the change journal (4) gets one "anything" entry for the load, its
        row inserts journaling nothing. Everything dropped is re-created from the database's
        own definition of it (``pg_get_constraintdef``, ``pg_indexes``), so the schema ends
        up as the migrations left it; PostgreSQL's DDL is transactional, so a failed load
        rolls the drops back with the rows. The cost: dropping takes an exclusive lock on the events
        and link tables until the load commits, so readers of the (empty) calendar wait for
        it rather than seeing it empty. Into a calendar with events nothing is dropped.
        """
        engine = self.engine
        if kind != "event":
            yield
            return
        first = self._defer_day_counts()
        if engine.execute("SELECT EXISTS (SELECT 1 FROM events)").scalar():
            yield
            self._raise_day_counts(first)
            self._journal_load()
            self._analyze_if_grown(first)
            return
        links = [link.table for link in LINKS.values()]
        foreign = engine.execute(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)"
            " FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text = ANY(?)",
            [links],
        ).rows
        indexes = engine.execute(
            "SELECT indexname, indexdef FROM pg_indexes"
            " WHERE schemaname = current_schema() AND tablename = ANY(?)"
            " AND indexname <> 'events_slug' AND indexname NOT IN"
            " (SELECT conname FROM pg_constraint WHERE contype IN ('p', 'u'))",
            [["events", *links]],
        ).rows
        quote = self.dialect.quote
        for table, name, _ in foreign:
            engine.execute(f"ALTER TABLE {quote(table)} DROP CONSTRAINT {quote(name)}")
        for name, _ in indexes:
            engine.execute(f"DROP INDEX {quote(name)}")
        yield
        engine.execute(f"SET LOCAL maintenance_work_mem = '{INDEX_BUILD_MEMORY}'")
        for _, definition in indexes:
            engine.execute(definition)
        for table, name, definition in foreign:
            engine.execute(f"ALTER TABLE {quote(table)} ADD CONSTRAINT {quote(name)} {definition}")
        self._raise_day_counts(first)
        self._journal_load()
        self._analyze_if_grown(first)

    def _analyze_if_grown(self, first: int) -> None:
        """Refresh the planner's statistics of the events and link tables when the load
        (ids from ``first`` on) grew them by a tenth or more, as autovacuum would, in case it
        is off or has yet to run. A load of 50,000 events into a calendar of 36 left the
        planner counting 36: an anonymous venue's list then took 16 s, a category's 50 s,
        against 0.05 s once analysed. ``ANALYZE`` samples a bounded number of rows (about a
        second at a million events) and runs in the load's transaction; a batch that adds
        little to a large calendar skips it."""
        added = self.last_id("post") - first + 1
        before = self.engine.execute(
            "SELECT reltuples FROM pg_class WHERE oid = 'events'::regclass"
        ).scalar()
        if added >= _ANALYZE_BASE + _ANALYZE_SHARE * max(float(before or 0), 0.0):
            tables = ", ".join(self.dialect.quote(t) for t in ("events", *_LOADED_LINKS))
            self.engine.execute(f"ANALYZE {tables}")

    def _journal_load(self) -> None:
        """The load's one journal entry (its row inserts journal nothing): "anything"."""
        self.engine.execute(
            "INSERT INTO changes VALUES (journal_generation(), ?, 0, 'insert')", [ANYTHING]
        )

    def _defer_day_counts(self) -> int:
        """Turn the day-count insert triggers off for the rest of the load's transaction
        (migration 3); returns the first id the load may take."""
        self.engine.execute(f"SET LOCAL {BULK_LOAD_SETTING} = 'on'")
        return self.last_id("post") + 1

    def _raise_day_counts(self, first: int) -> None:
        """Count the load's events and links (ids from ``first`` on) by day, once, and turn
        the triggers back on."""
        self.engine.execute(f"SET LOCAL {BULK_LOAD_SETTING} = 'off'")
        for sql, params in raise_counts(self.dialect, first, self.last_id("post")):
            self.engine.execute(sql, params)

    def _insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """A few rows as one ``INSERT``; a batch through ``COPY``, several times faster."""
        if len(rows) < COPY_FROM:
            super()._insert_rows(table, columns, rows)
        else:
            self.engine.copy(table, columns, rows)
