"""PostgreSQL with every pooled connection lent: a request waits for one to come back, in the
order the requests came, and is served; it is not failed as if the server were down, also
when the server's or the role's connection limit keeps the pool from growing (SQLSTATE 53300).

A role with ``CONNECTION LIMIT 2`` stands for a hosting plan's limit, or for
``max_connections`` reached by several workers' pools.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from events_calendar.backends.postgres import PostgresBackend, PostgresEngine
from events_calendar.errors import StorageUnavailable
from events_calendar.testing.postgres import TestDatabase, server_url

#: The limited role's connection limit.
LIMIT = 2


@pytest.fixture(scope="module")
def database(module_database: TestDatabase) -> TestDatabase:
    """A migrated database for this module alone."""
    return module_database


@pytest.fixture
def limited_url(database: TestDatabase) -> Iterator[str]:
    """The database's URL as a role of its own that may hold ``LIMIT`` connections at once
    (not a superuser: superusers are exempt from a role's limit)."""
    role = f"ec_test_role_{secrets.token_hex(4)}"
    with psycopg.connect(database.url, autocommit=True) as admin:
        admin.execute(f'CREATE ROLE "{role}" LOGIN CONNECTION LIMIT {LIMIT}')
        admin.execute(f'GRANT SELECT ON ALL TABLES IN SCHEMA public TO "{role}"')
    parts = urlsplit(database.url)
    host = parts.netloc.rpartition("@")[2]
    yield urlunsplit(parts._replace(netloc=f"{role}@{host}"))
    with psycopg.connect(database.url, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", [role]
        )
        admin.execute(f'REVOKE ALL ON ALL TABLES IN SCHEMA public FROM "{role}"')
        admin.execute(f'DROP ROLE "{role}"')


def _wait_for(condition: object, what: str, seconds: float = 10.0) -> None:
    """Poll ``condition`` (a callable) until it is true; fail naming ``what`` after
    ``seconds``."""
    assert callable(condition)
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def _waiting(engine: PostgresEngine) -> int:
    """How many requests wait in the engine's pool's queue."""
    return int(engine._pool.get_stats().get("requests_waiting", 0))


def test_a_pool_at_the_roles_connection_limit_waits_for_a_lent_connection(
    limited_url: str,
) -> None:
    """Both of the role's connections lent, the pool cannot grow (the server refuses it a
    third: too many connections for the role), and a request waits for a lent one and is
    served, as are the requests after it; it was failed with ``StorageUnavailable`` after
    0.5 s, and so were later requests."""
    backend = PostgresBackend(limited_url, max_connections=LIMIT + 2)
    engine = backend.engine
    go = threading.Barrier(LIMIT + 1)

    def hold() -> None:
        with engine.reading():
            engine.execute("SELECT 1")
            go.wait(timeout=10)
            time.sleep(1.5)

    holders = [threading.Thread(target=hold) for _ in range(LIMIT)]
    for holder in holders:
        holder.start()
    try:
        go.wait(timeout=10)  # every connection the role may hold is lent
        started = time.monotonic()
        answer = engine.execute("SELECT 42").scalar()
        took = time.monotonic() - started
        later = engine.execute("SELECT 43").scalar()
    finally:
        for holder in holders:
            holder.join()
        backend.close()
    assert (42, 43) == (answer, later)
    assert took > 1.0, took  # it waited for a lent connection


def test_a_pool_that_lost_its_connection_at_the_limit_waits_for_a_free_slot(
    database: TestDatabase, limited_url: str
) -> None:
    """The pool's one connection ended by the server and the role's slots taken elsewhere:
    the server is up, refusing only for want of a slot, and the request waits until one is
    free and is served, rather than failing as if the server were down."""
    backend = PostgresBackend(limited_url, max_connections=LIMIT)
    engine = backend.engine
    role = urlsplit(limited_url).username
    others: list[psycopg.Connection[object]] = []
    try:
        _wait_for(lambda: engine._pool.get_stats().get("pool_available") == 1, "the pool")
        with psycopg.connect(database.url, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s",
                [role],
            )
            _wait_for(
                lambda: (
                    not admin.execute(
                        "SELECT 1 FROM pg_stat_activity WHERE usename = %s", [role]
                    ).fetchall()
                ),
                "the pool's connection to end",
            )
        others = [psycopg.connect(limited_url, autocommit=True) for _ in range(LIMIT)]
        freed = threading.Timer(1.5, others.pop().close)
        freed.start()
        started = time.monotonic()
        answer = engine.execute("SELECT 42").scalar()
        took = time.monotonic() - started
        freed.join()
    finally:
        for other in others:
            other.close()
        backend.close()
    assert 42 == answer
    assert took > 1.0, took  # it waited for the slot


def test_waiting_requests_are_served_in_the_order_they_came(database: TestDatabase) -> None:
    """With the one pooled connection lent past ``POOL_PATIENCE_SECONDS``, the request that
    came first is served first: it used to leave the pool's queue after 0.5 s and join it
    again behind those that came after it (and the pool counted each such wait as a failed
    request)."""
    database.reset()
    backend = PostgresBackend(database.url, max_connections=1)
    engine = backend.engine
    served: list[str] = []
    lent, release = threading.Event(), threading.Event()

    def hold() -> None:
        with engine.reading():
            engine.execute("SELECT 1")
            lent.set()
            assert release.wait(timeout=10)

    def request(name: str) -> None:
        with engine.reading():
            engine.execute("SELECT 1")
            served.append(name)

    holder = threading.Thread(target=hold)
    holder.start()
    waiters = [threading.Thread(target=request, args=(name,)) for name in ("first", "second")]
    try:
        assert lent.wait(timeout=10)
        started = time.monotonic()
        waiters[0].start()
        _wait_for(lambda: _waiting(engine) == 1, "the first request to queue")
        waiters[1].start()
        _wait_for(lambda: _waiting(engine) == 2, "the second request to queue")
        assert time.monotonic() - started < 0.4  # both queued within the first's patience
        time.sleep(1.0 - (time.monotonic() - started))  # past the first's patience
        release.set()
    finally:
        release.set()
        holder.join()
        for waiter in waiters:
            waiter.join()
        errors = engine._pool.get_stats().get("requests_errors", 0)
        backend.close()
    assert ["first", "second"] == served
    assert 0 == errors


def test_a_lent_connection_ended_with_the_server_up_still_serves_the_waiter(
    database: TestDatabase,
) -> None:
    """The pool's one connection, lent, is ended by the server (``pg_terminate_backend``)
    while a request waits for it: the server is up, so the request is served by the pool's
    next connection, not failed as if the server were down."""
    database.reset()
    backend = PostgresBackend(database.url, max_connections=1)
    engine = backend.engine
    lent, ended = threading.Event(), threading.Event()
    pids: list[int] = []
    answers: list[object] = []

    def hold() -> None:
        with contextlib.suppress(StorageUnavailable), engine.reading():
            pids.append(int(engine.execute("SELECT pg_backend_pid()").scalar()))
            lent.set()
            assert ended.wait(timeout=10)
            engine.execute("SELECT 1")  # its backend is gone: the connection breaks

    holder = threading.Thread(target=hold)
    waiter = threading.Thread(target=lambda: answers.append(engine.execute("SELECT 42").scalar()))
    holder.start()
    try:
        assert lent.wait(timeout=10)
        waiter.start()
        _wait_for(lambda: _waiting(engine) == 1, "the request to queue")
        with psycopg.connect(database.url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", pids)
        ended.set()
        waiter.join(timeout=40)
    finally:
        ended.set()
        holder.join()
        waiter.join()
        backend.close()
    assert [42] == answers


@contextlib.contextmanager
def _new_connections_refused(database: TestDatabase) -> Iterator[psycopg.Connection]:
    """The database up, serving the connections it has, refusing new ones (as a rotated
    password, ``NOLOGIN`` or a smart shutdown would); an admin connection from elsewhere."""
    with psycopg.connect(server_url(), autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{database.name}" ALLOW_CONNECTIONS false')
        try:
            yield admin
        finally:
            admin.execute(f'ALTER DATABASE "{database.name}" ALLOW_CONNECTIONS true')


def test_one_ended_backend_fails_no_waiter_while_another_lent_connection_lives(
    database: TestDatabase,
) -> None:
    """Both pooled connections lent, a request waiting, the server refusing new connections
    but serving its own, and one lent connection's backend ended: the waiter is served by
    the other when it comes back, and a later request by the healthy connection idle in the
    pool. The waiter was failed with ``StorageUnavailable`` at once, and every later request
    after it, the idle connection notwithstanding."""
    engine = PostgresEngine(database.url, max_connections=2)
    pids: dict[str, int] = {}
    outcome: dict[str, object] = {}
    release = {name: threading.Event() for name in ("ended", "alive")}
    held = threading.Barrier(3)

    def hold(name: str) -> None:
        try:
            with engine.reading():
                pids[name] = int(engine.execute("SELECT pg_backend_pid()").scalar())
                held.wait()
                release[name].wait(10)
                outcome[name] = engine.execute("SELECT 'alive'").scalar()
        except StorageUnavailable as error:
            outcome[name] = error

    def wait() -> None:
        try:
            outcome["waiter"] = engine.execute("SELECT 'served'").scalar()
        except StorageUnavailable as error:
            outcome["waiter"] = error

    holders = [threading.Thread(target=hold, args=(name,)) for name in release]
    waiter = threading.Thread(target=wait)
    try:
        for thread in holders:
            thread.start()
        held.wait(10)
        waiter.start()
        _wait_for(lambda: _waiting(engine) == 1, "the request to queue")
        with _new_connections_refused(database) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", [pids["ended"]])
            release["ended"].set()
            holders[0].join(10)
            time.sleep(0.3)  # the waiter would have been failed by now
            release["alive"].set()
            holders[1].join(10)
            waiter.join(10)
            later = engine.execute("SELECT 'later'").scalar()
        assert (True, "alive", "served", "later") == (
            isinstance(outcome["ended"], StorageUnavailable),
            outcome["alive"],
            outcome["waiter"],
            later,
        )
    finally:
        for event in release.values():
            event.set()
        engine.close()
