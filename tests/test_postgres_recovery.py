"""PostgreSQL after its connections died (a restart, an administrator ending backends), and
with its schema's tables gone.

A restart is simulated by ending every other backend of the database from a connection of
the test's own (``pg_terminate_backend``), which kills the pool's idle connections as a
restart does. Each test has a database of its own: ending backends would also end the
shared test database's connection that empties it between tests.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator

import httpx
import psycopg
import pytest
from psycopg_pool import ConnectionPool

import events_calendar as ec
from events_calendar.backends.postgres import PostgresBackend, PostgresEngine
from events_calendar.errors import StorageUnavailable
from events_calendar.http import create_app
from events_calendar.testing.postgres import TestDatabase, server_url

GALA = {"start_date": "2031-06-15 19:00:00", "end_date": "2031-06-15 23:00:00"}
#: How many connections the pool holds (all idle, all killed) when the server "restarts".
POOLED = 4


@pytest.fixture(scope="module")
def database() -> TestDatabase:
    """A migrated database for this module alone (dropped at exit)."""
    return TestDatabase(server_url())


@pytest.fixture
def url(database: TestDatabase) -> Iterator[str]:
    """The module's database, emptied before each test."""
    database.reset()
    yield database.url
    if database._connection is not None:  # ended by the test's "restart": reconnect next time
        database._connection.close()


def fill_pool(engine: PostgresEngine, count: int = POOLED) -> None:
    """Leave ``count`` connections idle in the pool: as many snapshots, held at once."""
    together = threading.Barrier(count)

    def hold() -> None:
        with engine.reading():
            engine.execute("SELECT 1")
            together.wait(timeout=10)

    threads = [threading.Thread(target=hold) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def restart(url: str) -> int:
    """End every other backend of the database, as a restart would, and wait until they are
    gone (their last words sent, their sockets closed); how many were ended."""
    with psycopg.connect(url, autocommit=True) as admin:
        ended = admin.execute(
            "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()) AS ended"
        ).fetchone()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            left = admin.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchone()
            if left == (0,):
                break
            time.sleep(0.01)
    return int(ended[0]) if ended else 0


def titles(url: str) -> list[str]:
    """The stored events' titles, read by a connection of its own."""
    with psycopg.connect(url) as reader:
        rows = reader.execute("SELECT title FROM events ORDER BY id").fetchall()
    return [title for (title,) in rows]


def test_a_read_and_a_write_after_a_restart_succeed(url: str) -> None:
    """Right after the server is back, a read and a write each succeed, and the write is
    stored once. Every pooled connection was dead, and the pool handed each out once: as
    many requests failed (``StorageUnavailable``, a 503) after the server had recovered."""
    backend = PostgresBackend(url)
    cal = ec.Calendar(backend)
    try:
        before = cal.events.create(title="Before", **GALA)
        fill_pool(backend.engine)
        ended = restart(url)
        started = time.monotonic()
        read = [cal.events.get(before.id).title for _ in range(POOLED + 1)]
        elapsed = time.monotonic() - started
        after = cal.events.create(title="After", **GALA)
        again = cal.events.get(after.id).title
    finally:
        cal.close()
    assert (True, ["Before"] * (POOLED + 1), "After") == (ended >= POOLED, read, again)
    assert elapsed < 1  # the dead connections were dropped together, not a backoff apart
    assert ["Before", "After"] == titles(url)


def test_a_write_first_after_a_restart_succeeds_once(url: str) -> None:
    """The first thing after the restart a write: it succeeds, and is stored once."""
    backend = PostgresBackend(url)
    cal = ec.Calendar(backend)
    try:
        fill_pool(backend.engine)
        restart(url)
        once = cal.events.create(title="Once", **GALA)
        read = cal.events.get(once.id).title
    finally:
        cal.close()
    assert ("Once", ["Once"]) == (read, titles(url))


def test_an_http_read_after_a_restart_is_answered(url: str) -> None:
    """Over HTTP the read right after recovery is a 200, not a 503 ``storage_unavailable``."""
    cal = ec.connect(url)
    gala = cal.events.create(title="Gala", status="publish", **GALA)
    app = create_app(cal)

    async def read() -> list[tuple[int, str]]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            answers = []
            for _ in range(POOLED + 1):
                answer = await client.get(f"/wp-json/tribe/events/v1/events/{gala.id}")
                answers.append((answer.status_code, answer.json().get("title", "")))
            return answers

    try:
        backend = cal.backend
        assert isinstance(backend, PostgresBackend)
        fill_pool(backend.engine)
        restart(url)
        answers = asyncio.run(read())
    finally:
        cal.close()
    assert [(200, "Gala")] * (POOLED + 1) == answers


def test_a_statement_outside_a_transaction_after_a_restart_succeeds(url: str) -> None:
    """A statement run alone (the generation a cache reads before anything else) leaves the
    pool on a live connection too: it is never retried once sent (it may have been
    applied), so the dead ones must be dropped before it is."""
    engine = PostgresEngine(url)
    try:
        fill_pool(engine)
        restart(url)
        answers = [engine.execute("SELECT 42").scalar() for _ in range(POOLED + 1)]
        generation = engine.generation()
    finally:
        engine.close()
    assert ([42] * (POOLED + 1), True) == (answers, isinstance(generation, int))


def test_a_transaction_begun_on_a_dead_connection_is_begun_again(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A connection that dies after the pool's check let it out (here: no check at all)
    fails at ``BEGIN``, before any statement of the transaction: it is begun again, once, on
    a fresh connection, and its body runs once. The other dead idle connections are dropped
    with it, so the second attempt does not meet one of them."""
    engine = PostgresEngine(url)
    try:
        engine.execute("DROP TABLE IF EXISTS written")
        engine.execute("CREATE TABLE written (n INTEGER)")
        fill_pool(engine)
        monkeypatch.setattr(engine._pool, "_check", None)
        restart(url)
        runs = 0
        with engine.transaction():
            runs += 1
            engine.execute("INSERT INTO written VALUES (1)")
        restart(url)
        with engine.reading():
            rows = engine.execute("SELECT n FROM written").first_column()
    finally:
        engine.close()
    assert (1, [1]) == (runs, rows)


def test_a_connection_ended_inside_a_transaction_is_not_retried(url: str) -> None:
    """Once a statement of the transaction ran, its connection breaking fails it
    (``StorageUnavailable``) and nothing is begun again: the body ran once, nothing of it is
    stored, and the next transaction succeeds."""
    engine = PostgresEngine(url)
    runs = 0

    def write() -> None:
        nonlocal runs
        with engine.transaction():
            runs += 1
            engine.execute("INSERT INTO written VALUES (1)")
            restart(url)
            engine.execute("INSERT INTO written VALUES (2)")

    try:
        engine.execute("DROP TABLE IF EXISTS written")
        engine.execute("CREATE TABLE written (n INTEGER)")
        with pytest.raises(StorageUnavailable):
            write()
        with engine.transaction():
            engine.execute("INSERT INTO written VALUES (3)")
        rows = engine.execute("SELECT n FROM written").first_column()
    finally:
        engine.close()
    assert (1, [3]) == (runs, rows)


def test_a_live_pooled_connection_is_let_out_without_a_round_trip(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool's check of a live idle connection asks the server nothing: the pool's own
    ``check_connection`` (an empty statement, a round trip per checkout) is never called for
    it, only for a connection whose socket holds something, a dead one after a restart."""
    asked: list[object] = []
    real = ConnectionPool.check_connection

    def check_connection(connection: psycopg.Connection[object]) -> None:
        asked.append(connection)
        real(connection)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(check_connection))
    engine = PostgresEngine(url)
    try:
        fill_pool(engine)
        for _ in range(10):
            engine.execute("SELECT 1")
            with engine.reading():
                engine.execute("SELECT 1")
            with engine.transaction():
                engine.execute("SELECT 1")
        live = len(asked)
        restart(url)
        engine.execute("SELECT 1")
    finally:
        engine.close()
    assert (0, True) == (live, len(asked) > 0)


def _failures_once_spoiled(change: str, read: Callable[[ec.Calendar, int], object]) -> list[str]:
    """Run ``change`` on a database of its own under a running calendar, then ``read``
    there and from the database opened again: both must fail with ``StorageUnavailable``
    (HTTP 503 ``storage_unavailable``) naming the database; their messages."""
    own = TestDatabase(server_url())  # spoiling the schema spoils it for every other test
    url = own.url
    cal = ec.connect(url)
    reopened: ec.Calendar | None = None
    try:
        gala = cal.events.create(title="Gala", **GALA)
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(change)
        with pytest.raises(StorageUnavailable) as running:
            read(cal, gala.id)
        reopened = ec.connect(url)
        with pytest.raises(StorageUnavailable) as opened:
            read(reopened, gala.id)
    finally:
        cal.close()
        if reopened is not None:
            reopened.close()
        own.drop()
    for raised in (running.value, opened.value):
        assert ("storage_unavailable", 503) == (raised.code, raised.http_status)
        assert raised.data["database"].endswith(url.rsplit("/", 1)[1])
    return [running.value.message, opened.value.message]


def test_a_dropped_table_is_storage_unavailable() -> None:
    """A table of the schema dropped under a running calendar, and the database opened again
    without it: reads fail with ``StorageUnavailable`` naming the database and the table, as
    SQLite's "no such table" does, not psycopg's untyped ``UndefinedTable``."""
    messages = _failures_once_spoiled("DROP TABLE events CASCADE", lambda cal, _: cal.events.list())
    assert all('relation "events" does not exist' in message for message in messages), messages


def test_a_dropped_column_is_storage_unavailable() -> None:
    """A column of the schema dropped the same way: the same typed failure, naming the
    column, as SQLite's "no such column" does, not psycopg's untyped ``UndefinedColumn``."""
    messages = _failures_once_spoiled(
        "ALTER TABLE events DROP COLUMN cost", lambda cal, event_id: cal.events.get(event_id)
    )
    assert all('column "cost" does not exist' in message for message in messages), messages
