"""PostgreSQL connections for one engine: a ``psycopg_pool`` pool, and what it does not do.

``Connections.lend()`` lends a connection for a block, as ``ConnectionPool.connection`` does,
with three things the pool alone got wrong, each measured against a server cut off and brought
back behind a relay (``tests/test_postgres_outage.py``, ``tests/test_postgres_recovery.py``,
``tests/test_postgres_busy_pool.py``):

Recovery: after the server restarts (or an administrator ends its backends) every pooled
connection is dead, and the pool used to hand each one out once, failing as many requests
after the server was back. A connection is now looked at as it leaves the pool
(``_check_pooled``, no round trip unless its socket already holds something), and a
transaction whose connection breaks before any statement of the caller's ran is begun again
once on a fresh one (``PostgresEngine._begin``): the server cannot have applied anything of it.

Outage: while the server refuses connections, a request that finds no idle connection used
to wait ``POOL_TIMEOUT_SECONDS`` for one the pool could not make. When none of the pool's
connections is lent (none can come back to serve it), a request now waits
``POOL_PATIENCE_SECONDS``, then tries one connection itself: refused by a server that is down,
it fails at once with ``StorageUnavailable`` (an HTTP 503), and so do later requests while a
new try is refused; made, or refused only for want of a free connection slot, it waits on
(``lend``, ``_raise_if_down``). A pool that is merely busy (connections lent) waits in the
pool's first-come, first-served queue as before, also when the server's or the role's
connection limit keeps the pool from growing. When a lent connection comes back broken and
the server then refuses a new one, the requests in that queue fail at once
(``_fail_waiting_if_down``): they waited the pool's whole timeout.

Return: after an outage the pool reconnects on its own schedule, backing off (1, 3, 7, 15,
31 ... s between tries); once the server takes a connection again, a request is served by a
connection of its own until the pool gives one, rather than at the pool's next try; the
request whose try found the server back is served by the connection that try made.
"""

from __future__ import annotations

import re
import select
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from ..errors import StorageUnavailable

__all__ = [
    "POOL_CATCHING_UP_SECONDS",
    "POOL_PATIENCE_SECONDS",
    "POOL_TIMEOUT_SECONDS",
    "Connections",
    "reason",
]

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


def reason(error: BaseException) -> str:
    """The first line of a driver error's text (the rest is libpq's hints), for a message."""
    text = str(error).strip()
    return text.splitlines()[0] if text else "failed"


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


class _Pool(ConnectionPool[psycopg.Connection[Any]]):
    """``ConnectionPool`` that can fail the requests waiting in its queue."""

    def fail_waiting(self, error: Callable[[], Exception]) -> int:
        """Fail every request waiting in the queue now, each with an ``error()`` of its
        own (raised by its ``getconn``); how many took it.

        The pool fails its waiters so only when it closes (``close``, by these same two
        private attributes); it has no public way to tell waiters that no connection will
        come. Without it a request queued behind a lent connection when the server went
        down waited the pool's whole timeout (``Connections._fail_waiting_if_down``)."""
        try:
            lock, queue = self._lock, self._waiting
        except AttributeError:  # another psycopg_pool: its waiters wait, as they did before
            return 0
        with lock:
            waiting = list(queue)
            queue.clear()
        return sum(client.fail(error()) for client in waiting)


class Connections:
    """The pool of one engine's connections, lent by ``lend`` (see the module's docstring)."""

    def __init__(self, url: str, database: str, options: dict[str, Any], *, max_size: int) -> None:
        """Open the pool (without waiting for its first connection) for ``url``;
        ``database`` names it in errors, ``options`` are every connection's."""
        self._url = url
        self._database = database
        self._options = options
        #: How many pooled connections are lent now (``lend``): while any is, a request
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
        #: A try found the server back after refusing ours, and the pool, backing off, has
        #: not given a connection since (``_getconn``). Set under ``_probing``; cleared once
        #: the pool gives one again.
        self._catching_up = False
        self.pool = _Pool(
            url,
            kwargs=options,
            min_size=1,
            max_size=max_size,
            timeout=POOL_TIMEOUT_SECONDS,
            open=False,
            name=database,
            check=self._check_pooled,
        )
        self.pool.open(wait=False)

    def close(self) -> None:
        self.pool.close()

    def _check_pooled(self, connection: psycopg.Connection[Any]) -> None:
        """The pool's check of a connection it is about to hand out: raises when it is dead,
        and the pool then discards it and takes another.

        Free for a live connection (``_has_input``: one ``poll``, no round trip, where the
        pool's own ``check_connection`` costs one per checkout). A socket with something to
        read is asked with an empty statement. A dead one means the server went away, so every
        idle connection is probably dead too: the pool is checked whole (``check``, a round
        trip per idle connection, paid once, at recovery), or the pool would find them one at
        a time, backing off a second, then two, four, ... between them. While the server is
        still down, a request then waits for a new connection, and ``lend`` fails it soon
        (``_raise_if_down``)."""
        if not _has_input(connection):
            return
        try:
            ConnectionPool.check_connection(connection)
        except psycopg.Error:
            self.pool.check()
            raise

    @contextmanager
    def lend(self) -> Iterator[psycopg.Connection[Any]]:
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
            broken = connection.broken  # read before the pool closes it
            with self._lending:
                self._lent -= 1
                last = self._lent == 0
            self.pool.putconn(connection)
            if broken and last:  # another lent one may still come back whole
                self._fail_waiting_if_down()

    def _fail_waiting_if_down(self) -> None:
        """After the last lent connection broke: when requests wait in the pool's queue and
        the server now refuses connections, fail them all with ``StorageUnavailable``.

        The last only: a server may refuse new connections and keep serving those it has
        (``ALLOW_CONNECTIONS false``, a rotated password, a smart shutdown), so one ended
        backend says nothing of the others lent, which may come back and serve the queue;
        on a server that is down they break too, and the last to break fails the queue.

        They queued behind the lent connection (``_getconn``: first come, first served, for
        the pool's whole timeout), and it will not come back: the pool discards it and
        cannot make another while the server is down. They waited those 30 s. Asking the
        server (``_verdict``, shared with every request asking at the same time) costs a
        refused connection attempt; it is made only when a lent connection broke and
        someone waits. A server that takes the connection (one backend was ended, not the
        server) leaves them waiting for the pool's replacement, in their order."""
        if not self.pool.get_stats().get("requests_waiting"):
            return
        refusal, made = self._verdict()
        if made is not None:  # back already: the pool's next connection serves the queue
            made.close()
        if refusal is not None:
            self.pool.fail_waiting(lambda: self._unavailable(refusal))

    def _idle(self) -> bool:
        """Whether the pool holds a connection no one has borrowed: after a refusal, a
        request takes it rather than asking the server first (a server refusing new
        connections may still serve the pool's; one that is down fails the statement,
        which says so as ``StorageUnavailable``)."""
        return bool(self.pool.get_stats().get("pool_available"))

    def _unavailable(self, refusal: psycopg.Error) -> StorageUnavailable:
        """``StorageUnavailable`` for a server that refused a connection with ``refusal``."""
        error = StorageUnavailable.of(self._database, reason(refusal))
        error.__cause__ = refusal
        return error

    def _connect(self) -> psycopg.Connection[Any] | None:
        """A new connection outside the pool; ``None`` when the server refused it only for
        want of a free slot (it is up); a ``psycopg.Error`` when it refused otherwise."""
        try:
            return psycopg.connect(self._url, **self._options)
        except psycopg.Error as error:
            if _NO_FREE_SLOT.search(str(error)):
                return None
            raise

    def _own_connection(self) -> psycopg.Connection[Any] | None:
        """A connection outside the pool for one request (``_getconn``); ``None`` when the
        server has no free slot for it (the caller then waits for the pool's)."""
        try:
            return self._connect()
        except psycopg.Error as error:
            raise StorageUnavailable.of(self._database, reason(error)) from error

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
        in the instant the server goes down waits until that connection breaks (its
        borrower's next statement, or its commit), then fails with the rest of the queue
        (``_fail_waiting_if_down``); it waited the whole timeout.

        After an outage the pool reconnects on its own schedule, backing off (1, 3, 7, 15,
        31 ... s between tries): once the server is back, a request would wait for the
        pool's next try, past the timeout after a long outage. So when the server takes a
        connection again, as a try here finds, while the pool still has none to give, the
        request is served by a connection of its own, until the pool gives one
        again; meanwhile a request waits ``POOL_CATCHING_UP_SECONDS`` for the pool, not
        ``POOL_PATIENCE_SECONDS``."""
        if self._refusal is not None and not self._idle():
            made = self._raise_if_down()
            if made is not None:  # the server is back, and this try found it
                return made, False
        with self._lending:
            any_lent = self._lent > 0
        if any_lent:
            return self.pool.getconn(timeout=POOL_TIMEOUT_SECONDS), True
        catching_up = self._catching_up
        try:
            connection = self.pool.getconn(
                timeout=POOL_CATCHING_UP_SECONDS if catching_up else POOL_PATIENCE_SECONDS
            )
        except PoolTimeout:
            if not catching_up:
                made = self._raise_if_down()  # may find the server back: catching up from now
                if made is not None:
                    return made, False
            if self._catching_up:
                own = self._own_connection()
                if own is not None:
                    return own, False
        else:
            self._catching_up = False
            return connection, True
        try:
            return self.pool.getconn(timeout=POOL_TIMEOUT_SECONDS - POOL_PATIENCE_SECONDS), True
        except PoolTimeout:  # the wait in all, not its second part
            raise PoolTimeout(
                f"couldn't get a connection after {POOL_TIMEOUT_SECONDS:.2f} sec"
            ) from None

    def _raise_if_down(self) -> psycopg.Connection[Any] | None:
        """``StorageUnavailable`` now, with libpq's reason, when the server refuses a new
        connection (down, or not listening); nothing when it takes one, or refuses it only
        for want of a free slot (SQLSTATE 53300, ``_NO_FREE_SLOT``). When this request's try
        found the server back after a refusal, the connection it made, for the request to
        use as its own (``_verdict``).

        The pool retries a failed connection in the background, backing off, and its callers
        wait ``POOL_TIMEOUT_SECONDS`` whatever the failure: 30 s per request while the server
        was down. Its own attempts are not asked why they failed (that is private to it), so
        one connection is tried here. A server at its connection limit is up, and the
        connections it holds of ours come back to serve the request: it is not "down".

        One thread tries at a time (``_probing``): the others wait for that try and take its
        verdict, so however many requests wait, the server gets at most one connection more
        than the pool's, and the verdict is never written by two threads at once."""
        refusal, made = self._verdict()
        if refusal is not None:
            raise self._unavailable(refusal)
        return made

    def _verdict(self) -> tuple[psycopg.Error | None, psycopg.Connection[Any] | None]:
        """Why the server refuses a new connection because it is down (``None``: it is up),
        tried now or by a try that finished while this one waited for it (``_probing``);
        and the connection this thread's try made when it found the server back after a
        refusal (the pool then has none to give), else ``None``.

        That connection serves the request that made it (``_getconn``): it was closed here,
        and the request opened another at once, two connections where one serves. Only the
        thread that tried gets it; it is new and unused, made as every connection of the
        pool is (``_connect``). A try that finds the server up without a refusal before
        closes its connection: the pool has connections to give then."""
        asked = self._probes
        made: psycopg.Connection[Any] | None = None
        with self._probing:
            if self._probes == asked:  # no try finished since this request asked: try
                was_refused = self._refusal is not None
                self._refusal, made = self._try_connecting()
                self._probes += 1
                if was_refused and self._refusal is None:
                    self._catching_up = True
                elif made is not None:
                    made.close()
                    made = None
            return self._refusal, made

    def _try_connecting(self) -> tuple[psycopg.Error | None, psycopg.Connection[Any] | None]:
        """Why the server refuses a new connection because it is down (``None`` when it took
        it, or refused it for want of a free slot only: it is up, wait for a lent one), and
        the connection when it took one."""
        try:
            return None, self._connect()
        except psycopg.Error as error:
            return error, None
