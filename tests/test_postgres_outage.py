"""PostgreSQL while the server refuses connections: a request fails fast and typed, where it
waited the pool's 30 s timeout; a pool merely busy still waits.

The server "goes down" behind a TCP relay of the test's own (``Relay``): cutting it closes
every relayed connection, as a stopped server does, and stops listening, so a new
connection is refused. The real server stays up for every other test.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import psycopg
import pytest

import events_calendar as ec
from events_calendar.backends.postgres import PostgresBackend, PostgresEngine, describe_url
from events_calendar.backends.postgres_pool import _Pool
from events_calendar.errors import StorageUnavailable
from events_calendar.http import create_app
from events_calendar.testing.postgres import TestDatabase

GALA = {"start_date": "2031-06-15 19:00:00", "end_date": "2031-06-15 23:00:00"}
#: How long a request may take to fail while the server is down (it took 30 s).
FAST = 5.0


class Relay:
    """A loopback port relaying each connection to the PostgreSQL server, until ``cut``."""

    def __init__(self, target: tuple[str, int], port: int = 0) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", port))
        self.port: int = self.listener.getsockname()[1]
        self.relayed: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:  # cut
                return
            server = socket.create_connection(self.target)
            with self._lock:
                self.relayed += [client, server]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=_pump, args=(source, sink), daemon=True).start()

    def cut(self) -> None:
        """Refuse new connections and end the relayed ones."""
        self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread
        self.listener.close()
        with self._lock:
            for relayed in self.relayed:
                _end(relayed)


def _pump(source: socket.socket, sink: socket.socket) -> None:
    with contextlib.suppress(OSError):  # the relay was cut
        while data := source.recv(65536):
            sink.sendall(data)
    _end(sink)


def _end(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # already ended
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


@pytest.fixture(scope="module")
def database(module_database: TestDatabase) -> TestDatabase:
    """A migrated database for this module alone."""
    return module_database


@pytest.fixture
def relay(database: TestDatabase) -> Iterator[Relay]:
    """A relay to the server, cut at the end if the test has not cut it."""
    database.reset()
    parts = urlsplit(database.url)
    relay = Relay((parts.hostname or "127.0.0.1", parts.port or 5432))
    yield relay
    if relay.listener.fileno() != -1:
        relay.cut()


def relayed_url(database: TestDatabase, relay: Relay) -> str:
    """The database's URL through ``relay``."""
    parts = urlsplit(database.url)
    user = parts.netloc.rpartition("@")[0]
    netloc = f"{user}@127.0.0.1:{relay.port}" if user else f"127.0.0.1:{relay.port}"
    return urlunsplit(parts._replace(netloc=netloc))


def test_reads_and_writes_fail_fast_while_the_server_refuses_connections(
    database: TestDatabase, relay: Relay
) -> None:
    """Each read and write after the server went away fails within seconds with
    ``StorageUnavailable`` naming the database and the refusal, not after the pool's 30 s."""
    url = relayed_url(database, relay)
    cal = ec.connect(url)
    try:
        gala = cal.events.create(title="Gala", **GALA)
        relay.cut()
        raised: list[StorageUnavailable] = []
        took: list[float] = []
        for attempt in (
            lambda: cal.events.get(gala.id),
            lambda: cal.events.get(gala.id),
            lambda: cal.events.create(title="After", **GALA),
        ):
            started = time.monotonic()
            with pytest.raises(StorageUnavailable) as failed:
                attempt()
            took.append(time.monotonic() - started)
            raised.append(failed.value)
    finally:
        cal.close()
    assert [("storage_unavailable", 503, describe_url(url))] * 3 == [
        (error.code, error.http_status, error.data["database"]) for error in raised
    ]
    assert all("refused" in error.message for error in raised), [e.message for e in raised]
    assert max(took) < FAST, took


def test_an_http_request_is_answered_503_fast_while_the_server_is_down(
    database: TestDatabase, relay: Relay
) -> None:
    """Over HTTP the request is a 503 ``storage_unavailable`` within seconds."""
    cal = ec.connect(relayed_url(database, relay))
    gala = cal.events.create(title="Gala", status="publish", **GALA)
    app = create_app(cal)

    async def read() -> tuple[int, str]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            answer = await client.get(f"/wp-json/tribe/events/v1/events/{gala.id}")
            return answer.status_code, answer.json().get("code", "")

    try:
        relay.cut()
        started = time.monotonic()
        answer = asyncio.run(read())
        took = time.monotonic() - started
    finally:
        cal.close()
    assert (503, "storage_unavailable") == answer
    assert took < FAST, took


def test_a_request_after_the_server_is_back_succeeds(database: TestDatabase, relay: Relay) -> None:
    """A refusal is not remembered: once the server takes connections again, a request is
    served (the pool reconnects; the request waits for it as before)."""
    url = relayed_url(database, relay)
    cal = ec.connect(url)
    try:
        gala = cal.events.create(title="Gala", **GALA)
        relay.cut()
        with pytest.raises(StorageUnavailable):
            cal.events.get(gala.id)
        back = Relay(relay.target, port=relay.port)
        try:
            title = cal.events.get(gala.id).title
        finally:
            back.cut()
    finally:
        cal.close()
    assert "Gala" == title


def test_a_request_is_served_at_once_when_the_server_is_back_before_the_pool(
    database: TestDatabase, relay: Relay
) -> None:
    """After a few seconds down the pool reconnects on its own backing-off schedule (its
    tries 1, 3, 7 ... s apart): the first request once the server is back is served by a
    connection of its own at once, not at the pool's next try (23 s after a 35 s outage)."""
    url = relayed_url(database, relay)
    cal = ec.connect(url)
    try:
        gala = cal.events.create(title="Gala", **GALA)
        relay.cut()
        down_until = time.monotonic() + 4.5  # the pool's tries fail at about 0, 1 and 3 s
        while time.monotonic() < down_until:
            with pytest.raises(StorageUnavailable):
                cal.events.get(gala.id)
            time.sleep(0.5)
        back = Relay(relay.target, port=relay.port)
        try:
            took, titles = [], []
            for _ in range(3):
                started = time.monotonic()
                titles.append(cal.events.get(gala.id).title)
                took.append(time.monotonic() - started)
        finally:
            back.cut()
    finally:
        cal.close()
    assert ["Gala"] * 3 == titles
    assert max(took) < 1.5, took


def test_a_busy_pool_still_waits_for_a_connection(database: TestDatabase) -> None:
    """With every pooled connection lent and the server well, a request waits for one to
    come back and is served: a busy pool is not a server down."""
    database.reset()
    backend = PostgresBackend(database.url, max_connections=1)
    engine = backend.engine
    lent = threading.Event()

    def hold() -> None:
        with engine.reading():
            engine.execute("SELECT 1")
            lent.set()
            time.sleep(1.5)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert lent.wait(timeout=10)
        started = time.monotonic()
        answer = engine.execute("SELECT 42").scalar()
        took = time.monotonic() - started
    finally:
        holder.join()
        backend.close()
    assert 42 == answer
    assert took > 1.0, took  # it waited for the lent connection


def test_requests_waiting_together_ask_the_server_one_at_a_time(
    database: TestDatabase, relay: Relay, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Requests that wait together while the server is down all fail fast, but try at most
    one connection at a time, taking each other's verdict: each used to open its own (one
    more than the pool's ``max_size`` apiece), and to write the verdict concurrently."""
    backend = PostgresBackend(relayed_url(database, relay), max_connections=2)
    engine = backend.engine
    trying, tried, most = 0, 0, 0
    counting = threading.Lock()
    connect = psycopg.connect  # the engine's own tries; the pool connects otherwise

    def counted(*args: Any, **kwargs: Any) -> psycopg.Connection[Any]:
        nonlocal trying, tried, most
        with counting:
            trying, tried = trying + 1, tried + 1
            most = max(most, trying)
        try:
            time.sleep(0.2)  # a slow refusal, so that overlapping tries would show
            return connect(*args, **kwargs)
        finally:
            with counting:
                trying -= 1

    raised: list[BaseException] = []

    def read() -> None:
        try:
            engine.execute("SELECT 1")
        except BaseException as error:  # collected for the assertion
            raised.append(error)

    try:
        engine.execute("SELECT 1")
        monkeypatch.setattr(psycopg, "connect", counted)
        relay.cut()
        readers = [threading.Thread(target=read) for _ in range(6)]
        started = time.monotonic()
        for reader in readers:
            reader.start()
        for reader in readers:
            reader.join()
        took = time.monotonic() - started
    finally:
        backend.close()
    assert [StorageUnavailable] * 6 == [type(error) for error in raised], raised
    assert 1 == most
    assert tried < 6, tried
    assert took < FAST, took


def test_a_server_back_but_full_leaves_the_request_waiting_for_the_pool(
    database: TestDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the pool catches up after an outage a request opens a connection of its own;
    a server with no free slot for it ("too many clients") is up, so the request waits for
    the pool's instead of failing."""
    engine = PostgresEngine(database.url, max_connections=1)
    try:
        engine.execute("SELECT 1")  # the pool has its one connection
        engine._connections._catching_up = True  # as after an outage: each may open its own
        opened: list[str] = []

        def full(*args: Any, **kwargs: Any) -> psycopg.Connection[Any]:
            opened.append("refused")
            raise psycopg.OperationalError("FATAL:  sorry, too many clients already")

        monkeypatch.setattr(psycopg, "connect", full)
        hold = engine._pool.getconn()  # none idle: the request must wait, then tries its own
        threading.Timer(0.3, engine._pool.putconn, (hold,)).start()
        started = time.monotonic()
        (row,) = engine.execute("SELECT 41 + 1").rows
        took = time.monotonic() - started
    finally:
        engine.close()
    assert (row, opened) == ((42,), ["refused"])
    assert 0.2 < took < FAST, took


def test_a_request_waiting_for_a_lent_connection_fails_fast_when_the_server_goes_down(
    database: TestDatabase, relay: Relay
) -> None:
    """A request queued for the pool's one connection, lent in the instant the server goes
    down, fails with ``StorageUnavailable`` as soon as the lent connection breaks: it waited
    the pool's whole 30 s for a connection the pool could not make."""
    engine = PostgresEngine(relayed_url(database, relay), max_connections=1)
    lent, cut = threading.Event(), threading.Event()
    raised: list[BaseException] = []

    def hold() -> None:
        with contextlib.suppress(StorageUnavailable), engine.reading():
            engine.execute("SELECT 1")
            lent.set()
            assert cut.wait(timeout=10)
            engine.execute("SELECT 2")  # the server is gone: the lent connection breaks

    def request() -> None:
        try:
            engine.execute("SELECT 42")
        except BaseException as error:  # collected for the assertion
            raised.append(error)

    holder, waiter = threading.Thread(target=hold), threading.Thread(target=request)
    holder.start()
    try:
        assert lent.wait(timeout=10)
        waiter.start()
        deadline = time.monotonic() + 10
        while engine._pool.get_stats().get("requests_waiting", 0) < 1:  # queued for it
            assert time.monotonic() < deadline, "the request never queued"
            time.sleep(0.01)
        started = time.monotonic()
        relay.cut()
        cut.set()
        waiter.join(timeout=60)
        took = time.monotonic() - started
    finally:
        cut.set()
        holder.join()
        waiter.join()
        engine.close()
    assert [StorageUnavailable] == [type(error) for error in raised], raised
    assert "refused" in str(raised[0]), raised
    assert took < FAST, took


def test_the_request_that_finds_the_server_back_is_served_by_the_probes_connection(
    database: TestDatabase, relay: Relay, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a refusal, the request whose try finds the server back (the pool still
    reconnecting on its own schedule) is served by the connection that try made: it closed
    it and opened another, two connections where one serves."""
    url = relayed_url(database, relay)
    cal = ec.connect(url)
    opened: list[str] = []
    connect = psycopg.connect  # the engine's own tries; the pool connects otherwise

    def counted(*args: Any, **kwargs: Any) -> psycopg.Connection[Any]:
        opened.append("opened")
        return connect(*args, **kwargs)

    try:
        gala = cal.events.create(title="Gala", **GALA)
        relay.cut()
        cut_at = time.monotonic()
        with pytest.raises(StorageUnavailable):
            cal.events.get(gala.id)
        # The pool's tries fail at about 0, 1 and 3 s; its next comes at about 7 s.
        time.sleep(max(0.0, cut_at + 3.5 - time.monotonic()))
        back = Relay(relay.target, port=relay.port)
        monkeypatch.setattr(psycopg, "connect", counted)
        try:
            title = cal.events.get(gala.id).title
        finally:
            monkeypatch.undo()
            back.cut()
    finally:
        cal.close()
    assert ("Gala", ["opened"]) == (title, opened)


def test_a_pool_without_the_queue_it_fails_by_leaves_its_waiters_waiting() -> None:
    """Failing the queue reads two private attributes of psycopg_pool's pool (as its own
    ``close`` does): a release without them must leave waiters to the pool's timeout, as
    before, rather than raise in the thread that returned a broken connection."""
    pool = _Pool("postgresql://127.0.0.1:1/none", open=False)
    del pool._waiting
    assert 0 == pool.fail_waiting(lambda: RuntimeError("down"))
