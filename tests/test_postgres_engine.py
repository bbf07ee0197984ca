"""The PostgreSQL engine: the engine contract, placeholders, dialect, errors, indexes."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import psycopg
import pytest

from events_calendar.backends import postgres as postgres_module
from events_calendar.backends import postgres_pool
from events_calendar.backends.postgres import (
    WRITE_LOCK,
    PostgresEngine,
    describe_url,
    to_pyformat,
)
from events_calendar.errors import Conflict, StorageUnavailable
from events_calendar.testing.engine_contract import EngineContract
from events_calendar.testing.postgres import (
    TestDatabase,
    database_url,
    server_url,
    test_database,
)


@pytest.fixture
def database() -> TestDatabase:
    """The session's database, emptied."""
    db = test_database()
    db.reset()
    return db


class TestPostgresEngine(EngineContract):
    """Every engine behaviour on PostgreSQL."""

    @pytest.fixture(autouse=True)
    def _empty(self, database: TestDatabase) -> None:
        self.url = database.url

    def make_engine(self) -> PostgresEngine:
        return PostgresEngine(self.url)


@pytest.fixture
def engine(database: TestDatabase) -> Iterator[PostgresEngine]:
    engine = PostgresEngine(database.url)
    yield engine
    engine.close()


def test_placeholders_become_pyformat() -> None:
    """`?` becomes %s and a literal % is doubled, also inside quoted literals."""
    assert "SELECT %s, 'a%%?' WHERE x LIKE %s || '%%'" == to_pyformat(
        "SELECT ?, 'a%?' WHERE x LIKE ? || '%'"
    )


def test_percent_literal_runs(engine: PostgresEngine) -> None:
    """A statement with a literal % and a bound value runs as written."""
    assert "50%-x" == engine.execute("SELECT '50%-' || ?", ["x"]).scalar()


def test_described_url_hides_credentials() -> None:
    """A URL in messages keeps scheme, host, port and database, never user or password."""
    assert "postgresql://db.example:6543/cal" == describe_url(
        "postgresql://ann:secret@db.example:6543/cal?sslmode=require"
    )


def test_unreachable_server_is_one_clear_line() -> None:
    """A server that refuses connections gives one line naming it, within a second or two."""
    started = time.monotonic()
    with pytest.raises(StorageUnavailable) as raised:
        PostgresEngine("postgresql://postgres@127.0.0.1:1/test")
    message = raised.value.message
    assert (True, 1, True) == (
        message.startswith("postgresql://127.0.0.1:1/test: connection failed"),
        len(message.splitlines()),
        time.monotonic() - started < 3,
    )


def test_missing_database_is_named() -> None:
    """A database that does not exist says so, in one line."""
    with pytest.raises(StorageUnavailable, match=r'database "no_such_db_x" does not exist$'):
        PostgresEngine(database_url(server_url(), "no_such_db_x"))


def test_in_matches_any_listed_value(engine: PostgresEngine) -> None:
    """The dialect's IN is one array parameter; an empty list matches nothing."""
    sql, params = engine.dialect.in_("x", [2, 3])
    empty_sql, empty = engine.dialect.in_("x", [])
    found = engine.execute(f"SELECT x FROM generate_series(1, 4) x WHERE {sql}", params)
    none = engine.execute(f"SELECT x FROM generate_series(1, 4) x WHERE {empty_sql}", empty)
    assert ([2, 3], []) == (found.first_column(), none.first_column())


def test_contains_takes_wildcards_literally(engine: PostgresEngine) -> None:
    """A substring test with % and _ in the word matches only those characters."""
    sql, params = engine.dialect.contains("t", "0%_")
    rows = engine.execute(
        f"SELECT t FROM unnest(ARRAY['100%_OFF', '100 off', '10%x']) t WHERE {sql}", params
    )
    assert ["100%_OFF"] == rows.first_column()


def test_fold_agrees_with_python(engine: PostgresEngine) -> None:
    """lower() in the test database folds accented capitals as str.lower does."""
    assert "été à paris" == engine.execute("SELECT lower(?)", ["ÉTÉ À Paris"]).scalar()


def _plan(engine: PostgresEngine, sql: str, params: list[object]) -> str:
    with engine.transaction():
        engine.execute("SET LOCAL enable_seqscan = off")
        rows = engine.execute(f"EXPLAIN {sql}", params).first_column()
    return "\n".join(rows)


def test_event_search_uses_trigram_index(engine: PostgresEngine) -> None:
    """An event search over title, excerpt and description is served by its GIN index."""
    where, params = engine.dialect.search(
        "events", "e", ["title", "excerpt", "description"], ["jazz", "gala"], together=True
    )
    assert "events_search" in _plan(engine, f"SELECT e.id FROM events e WHERE {where}", params)


def test_venue_search_uses_field_indexes(engine: PostgresEngine) -> None:
    """A venue search (one field holds every word) is served by each field's GIN index."""
    where, params = engine.dialect.search(
        "venues", "r", ["venue", "city"], ["hall"], together=False
    )
    plan = _plan(engine, f"SELECT r.id FROM venues r WHERE {where}", params)
    assert (True, True) == ("venues_search_venue" in plan, "venues_search_city" in plan)


def test_an_up_to_date_database_opens_beside_an_open_write_transaction(
    database: TestDatabase,
) -> None:
    """Opening a database that needs no migration takes no write lock, so another process's
    open write transaction (a connection holding the advisory lock here) does not hold it
    up: it opens at once and reads. It used to wait for the lock without limit."""
    opened: list[object] = []

    def open_and_read() -> None:
        try:
            engine = PostgresEngine(database.url)
            opened.append(engine.execute("SELECT count(*) FROM events").scalar())
            engine.close()
        except Exception as error:  # reported by the assertion below
            opened.append(error)

    with psycopg.connect(database.url) as other:
        other.execute("SELECT pg_advisory_xact_lock(%s)", [WRITE_LOCK])  # held till the end
        opener = threading.Thread(target=open_and_read, daemon=True)
        started = time.monotonic()
        opener.start()
        opener.join(timeout=5)
        elapsed = time.monotonic() - started
        other.rollback()  # lets an opener that waits for the lock finish
    opener.join()
    assert ([0], True) == (opened, elapsed < 2)


def test_queued_writers_leave_readers_a_connection(
    database: TestDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writers waiting behind a long transaction wait without a pooled connection, so a
    reader in the same process answers at once, as readers never wait for writers. When
    each borrowed a connection first, a dozen of them held the whole pool (10) and the
    reader failed when the pool's timeout ran out."""
    monkeypatch.setattr(postgres_pool, "POOL_TIMEOUT_SECONDS", 3.0)
    engine = PostgresEngine(database.url)
    inside, release = threading.Event(), threading.Event()
    written: list[int] = []

    def hold() -> None:
        with engine.transaction():
            inside.set()
            release.wait(timeout=30)

    def write(n: int) -> None:
        with engine.transaction():
            engine.execute("SELECT 1")
            written.append(n)

    holder = threading.Thread(target=hold)
    writers = [threading.Thread(target=write, args=(n,)) for n in range(12)]
    try:
        holder.start()
        assert inside.wait(timeout=10)
        for writer in writers:
            writer.start()
        time.sleep(0.5)  # the writers queue
        started = time.monotonic()
        answer = engine.execute("SELECT 42").scalar()
        elapsed = time.monotonic() - started
    finally:
        release.set()
        holder.join()
        for writer in writers:
            writer.join()
        engine.close()
    assert (42, True, 12) == (answer, elapsed < 2, len(written))


def test_a_writer_gives_up_on_a_lock_held_too_long(
    database: TestDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write waits for another process's write lock at most ``WRITE_LOCK_TIMEOUT_SECONDS``
    (SQLite's busy timeout is as long), then fails with ``Conflict`` and writes nothing; it
    used to wait without limit. A lock freed within the limit is waited for, and the limit
    does not outlive the wait: the transaction's own statements keep the connection's
    setting (none)."""
    monkeypatch.setattr(postgres_module, "WRITE_LOCK_TIMEOUT_SECONDS", 0.3)
    engine = PostgresEngine(database.url)
    engine.execute("CREATE TABLE waited (n INTEGER)")
    try:
        with psycopg.connect(database.url) as other:
            other.execute("SELECT pg_advisory_xact_lock(%s)", [WRITE_LOCK])  # held till rollback
            started = time.monotonic()
            refused = pytest.raises(Conflict, match="stayed locked by another writer")
            with refused, engine.transaction():
                engine.execute("INSERT INTO waited VALUES (1)")
            waited = time.monotonic() - started
            other.rollback()
            monkeypatch.setattr(postgres_module, "WRITE_LOCK_TIMEOUT_SECONDS", 10.0)
            other.execute("SELECT pg_advisory_xact_lock(%s)", [WRITE_LOCK])
            freeing = threading.Timer(0.2, other.rollback)
            freeing.start()
            with engine.transaction():
                engine.execute("INSERT INTO waited VALUES (2)")
                setting = engine.execute("SELECT current_setting('lock_timeout')").scalar()
            freeing.join()
        rows = engine.execute("SELECT n FROM waited").first_column()
    finally:
        engine.close()
    assert ([2], "0", True) == (rows, setting, 0.25 < waited < 5)
