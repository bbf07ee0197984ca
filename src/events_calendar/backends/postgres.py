"""PostgreSQL storage (``connect("postgresql://user@host:5432/db")``; extra ``postgres``).

The shared SQL layer plus three pieces: ``PostgresDialect`` (how PostgreSQL spells booleans,
case folding, ``IN`` lists and substring search), ``PostgresEngine`` (psycopg 3 and a
``psycopg_pool`` connection pool, transactions, the cross-process generation) and the
migrations in ``postgres_schema``.

Concurrency: every outermost write transaction takes one transaction-level advisory lock
first, so writers from every thread, process and machine run one at a time and a
read-modify-write in the core never loses an update; readers never wait for it. Several reads
that must agree (a page and its total) share one ``REPEATABLE READ`` snapshot. Driver errors
become the library's own (``Conflict``, ``StorageUnavailable``) in ``_translating`` only.

Recovery: after the server restarts (or an administrator ends its backends) every pooled
connection is dead, and the pool used to hand each one out once, failing as many requests
after the server was back. A connection is now looked at as it leaves the pool
(``_check_pooled``, no round trip unless its socket already holds something), and a
transaction whose connection breaks before any statement of the caller's ran is begun again
once on a fresh one (``_begin``): the server cannot have applied anything of it.

Outage: while the server refuses connections, a request that finds no idle connection used
to wait ``POOL_TIMEOUT_SECONDS`` for one the pool could not make. When none of the pool's
connections is lent (none can come back to serve it), a request now waits
``POOL_PATIENCE_SECONDS``, then tries one connection itself: refused by a server that is down,
it fails at once with ``StorageUnavailable`` (an HTTP 503), and so do later requests while a
new try is refused; made, or refused only for want of a free connection slot, it waits on
(``_pooled``, ``_raise_if_down``). A pool that is merely busy (connections lent) waits in the
pool's first-come, first-served queue as before, also when the server's or the role's
connection limit keeps the pool from growing.
"""

from __future__ import annotations

import re
import select
import threading
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qs, urlsplit

import psycopg
import psycopg.errors
from psycopg_pool import ConnectionPool, PoolTimeout

from ..changes import ANYTHING
from ..errors import StorageUnavailable
from ..records import Kind
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
#: How long a statement waits for a pooled connection before giving up.
POOL_TIMEOUT_SECONDS = 30.0
#: How long a statement waits for a pooled connection, when none is lent, before asking
#: whether the server still takes connections (``_raise_if_down``): far longer than a healthy
#: server takes to accept one, far shorter than the pool's timeout.
POOL_PATIENCE_SECONDS = 0.5
#: How long a statement waits for a pooled connection while the pool catches up with a
#: server that came back (``_getconn``): it is then served by a connection of its own.
POOL_CATCHING_UP_SECONDS = 0.05
#: How PostgreSQL words a connection refused for want of a free slot (SQLSTATE 53300:
#: ``max_connections``, a role's or a database's ``CONNECTION LIMIT``, the reserved slots).
#: libpq gives no SQLSTATE for a failed connection, so the text is all there is; a server
#: answering in another language is taken as refusing (failing fast, as a down server does).
_NO_FREE_SLOT = re.compile(
    r"too many (?:clients|connections)|connection slots are reserved", re.IGNORECASE
)

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


def _reason(error: BaseException) -> str:
    """The first line of a driver error's text (the rest is libpq's hints), for a message."""
    text = str(error).strip()
    return text.splitlines()[0] if text else "failed"


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


def _has_input(connection: psycopg.Connection[Any]) -> bool:
    """Whether an idle connection's socket can be read (or is closed) right now, without
    waiting: one ``poll`` system call, no round trip.

    A healthy idle connection has nothing to read: the server speaks only when asked. A
    backend that was terminated (a restart, ``pg_terminate_backend``) sent its last error and
    closed the socket, which then reads as ready. So "nothing to read" means alive, cheaply;
    "something" means it must be asked (``_check_pooled``)."""
    try:
        socket = connection.fileno()
    except psycopg.Error:  # no socket at all: certainly not usable
        return True
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(socket, select.POLLIN)
        return bool(poller.poll(0))
    readable, _, _ = select.select([socket], [], [], 0)  # Windows: no poll for sockets
    return bool(readable)


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
        self._options = options
        #: How many pooled connections are lent now (``_pooled``): while any is, a request
        #: waits for one in the pool's queue rather than asking whether the server is down.
        self._lent = 0
        self._lending = threading.Lock()
        #: Held while one thread tries a connection for ``_raise_if_down``: the others wait
        #: for its verdict rather than each opening one more connection to the server.
        self._probing = threading.Lock()
        #: How many tries ``_raise_if_down`` has finished, and why the last was refused by a
        #: server that is down (``None``: it was not). Written only under ``_probing``.
        self._probes = 0
        self._refusal: psycopg.Error | None = None
        #: A try found the server back after refusing ours; the pool, backing off, may not
        #: have reconnected yet (``_getconn``). Set under ``_probing``; cleared, with
        #: ``_pool_behind``, once the pool gives a connection again.
        self._back_after_refusal = False
        self._pool_behind = False
        try:
            with psycopg.connect(url, **options) as connection:
                self.migrate(connection, migrations)
        except psycopg.Error as error:
            raise StorageUnavailable.of(self.database, _reason(error)) from error
        self._pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            url,
            kwargs=options,
            min_size=1,
            max_size=max_connections,
            timeout=POOL_TIMEOUT_SECONDS,
            open=False,
            name=self.database,
            check=self._check_pooled,
        )
        self._pool.open(wait=False)

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

    def _check_pooled(self, connection: psycopg.Connection[Any]) -> None:
        """The pool's check of a connection it is about to hand out: raises when it is dead,
        and the pool then discards it and takes another.

        Free for a live connection (``_has_input``: one ``poll``, no round trip, where the
        pool's own ``check_connection`` costs one per checkout). A socket with something to
        read is asked with an empty statement. A dead one means the server went away, so every
        idle connection is probably dead too: the pool is checked whole (``check``, a round
        trip per idle connection, paid once, at recovery), or the pool would find them one at
        a time, backing off a second, then two, four, ... between them. While the server is
        still down, a request then waits for a new connection, and ``_pooled`` fails it soon
        (``_raise_if_down``)."""
        if not _has_input(connection):
            return
        try:
            ConnectionPool.check_connection(connection)
        except psycopg.Error:
            self._pool.check()
            raise

    @contextmanager
    def _pooled(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection for the block, lent as ``ConnectionPool.connection`` lends it
        (committed or rolled back at the end, then given back; ``_lent`` counts it), but not
        waited for while the server is down (``_getconn``)."""
        connection, pooled = self._getconn()
        if not pooled:  # the pool is behind the server: a connection of its own
            with connection:  # committed or rolled back, then closed
                yield connection
            return
        with self._lending:
            self._lent += 1
        try:
            with connection:
                yield connection
        finally:
            with self._lending:
                self._lent -= 1
            self._pool.putconn(connection)

    def _own_connection(self) -> psycopg.Connection[Any] | None:
        """A connection outside the pool (``_getconn``); ``None`` when the server has no free
        slot for it (the caller then waits for the pool's)."""
        try:
            return psycopg.connect(self.url, **self._options)
        except psycopg.Error as error:
            if _NO_FREE_SLOT.search(str(error)):
                return None
            raise StorageUnavailable.of(self.database, _reason(error)) from error

    def _getconn(self) -> tuple[psycopg.Connection[Any], bool]:
        """A connection from the pool, waited for up to ``POOL_TIMEOUT_SECONDS``, and
        ``True``; sooner ``StorageUnavailable`` when the server is down; a connection of its
        own, and ``False``, when the server is back but the pool is not yet.

        While another request holds one of the pool's connections, this one waits in the
        pool's queue, once, the full timeout: the lent connection comes back to serve it, in
        the order the requests came, and the server gets no extra connection. (Leaving the
        queue after ``POOL_PATIENCE_SECONDS`` to ask the server, then joining it again at its
        end, served later requests first, and a pool that could not grow past a connection
        limit failed requests the lent connections would have served.) Only when none is
        lent, so none can come back, is the wait cut at ``POOL_PATIENCE_SECONDS`` to ask
        ``_raise_if_down``. After a refusal every request asks first, so that those that
        find a connection lent fail fast too while the server stays down. (The pool's own
        ``pool_size`` cannot tell "none lent": it counts the reconnections it keeps retrying
        while the server is down, so it stays above 0 then.) A request that finds one lent
        in the instant the server goes down, before any refusal, still waits the timeout.

        After an outage the pool reconnects on its own schedule, backing off (1, 3, 7, 15,
        31 ... s between tries): once the server is back, a request would wait for the
        pool's next try, past the timeout after a long outage. So when the server takes a
        connection again, as a try here finds, while the pool still has none to give, the
        request is served by a connection of its own, until the pool gives one
        again; meanwhile a request waits ``POOL_CATCHING_UP_SECONDS`` for the pool, not
        ``POOL_PATIENCE_SECONDS``."""
        if self._refusal is not None:
            self._raise_if_down()
        with self._lending:
            any_lent = self._lent > 0
        if any_lent:
            return self._pool.getconn(timeout=POOL_TIMEOUT_SECONDS), True
        behind = self._pool_behind or self._back_after_refusal
        try:
            connection = self._pool.getconn(
                timeout=POOL_CATCHING_UP_SECONDS if behind else POOL_PATIENCE_SECONDS
            )
        except PoolTimeout:
            if not behind:
                self._raise_if_down()
            if behind or self._back_after_refusal:
                self._pool_behind = True
                own = self._own_connection()
                if own is not None:
                    return own, False
        else:
            self._pool_behind = self._back_after_refusal = False
            return connection, True
        try:
            return self._pool.getconn(timeout=POOL_TIMEOUT_SECONDS - POOL_PATIENCE_SECONDS), True
        except PoolTimeout:  # the wait in all, not its second part
            raise PoolTimeout(
                f"couldn't get a connection after {POOL_TIMEOUT_SECONDS:.2f} sec"
            ) from None

    def _raise_if_down(self) -> None:
        """``StorageUnavailable`` now, with libpq's reason, when the server refuses a new
        connection (down, or not listening); nothing when it takes one, or refuses it only
        for want of a free slot (SQLSTATE 53300, ``_NO_FREE_SLOT``).

        The pool retries a failed connection in the background, backing off, and its callers
        wait ``POOL_TIMEOUT_SECONDS`` whatever the failure: 30 s per request while the server
        was down. Its own attempts are not asked why they failed (that is private to it), so
        one connection is tried here. A server at its connection limit is up, and the
        connections it holds of ours come back to serve the request: it is not "down".

        One thread tries at a time (``_probing``): the others wait for that try and take its
        verdict, so however many requests wait, the server gets at most one connection more
        than the pool's, and the verdict is never written by two threads at once."""
        asked = self._probes
        with self._probing:
            if self._probes == asked:  # no try finished since this request asked: try
                was_refused = self._refusal is not None
                self._refusal = self._try_connecting()
                self._probes += 1
                if was_refused and self._refusal is None:
                    self._back_after_refusal = True
            refusal = self._refusal
        if refusal is not None:
            raise StorageUnavailable.of(self.database, _reason(refusal)) from refusal

    def _try_connecting(self) -> psycopg.Error | None:
        """Why the server refuses a new connection because it is down; ``None`` when it took
        it, or refused it for want of a free slot only (it is up: wait for a lent one)."""
        try:
            psycopg.connect(self.url, **self._options).close()
        except psycopg.Error as error:
            return None if _NO_FREE_SLOT.search(str(error)) else error
        return None

    def _begin(
        self,
        held: ExitStack,
        *,
        read_only: bool,
        first: Callable[[psycopg.Connection[Any]], None] | None,
    ) -> psycopg.Connection[Any]:
        """A pooled connection with a transaction begun (and ``first`` run in it: the write
        lock), both left for ``held`` to end.

        When the connection turns out broken here (it died after ``_check_pooled`` looked at
        it), the pool is checked and this is done once more on another connection. Safe:
        nothing of the caller's ran yet, and ``BEGIN`` and the write lock change nothing, so
        the server cannot have applied anything; a failure later in the transaction is never
        retried (its statements may have been applied, and its body has already run)."""
        for last in (False, True):
            attempt = ExitStack()
            connection = attempt.enter_context(self._pooled())
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
                self._pool.check()
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
        with self._translating(), self._pooled() as connection:
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
        self._pool.close()


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
