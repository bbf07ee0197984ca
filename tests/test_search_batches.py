"""New events join SQLite's trigram index a batch at a time (migration 0011): searches find
them before and after their batch is indexed, text changes and deletions of waiting and of
indexed events reach the index, and the index stays consistent with the events."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

import events_calendar as ec
from events_calendar.backends.memory import MemoryBackend
from events_calendar.backends.sqlite import SEARCH_BATCH, SEARCH_PENDING, SQLiteBackend

NOW = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)
WORDS = ["jazz", "organ", "folk", "la", "night"]


@pytest.fixture
def calendars() -> Iterator[tuple[ec.Calendar, ec.Calendar]]:
    clock = ec.FixedClock(NOW)
    pair = (ec.Calendar(SQLiteBackend(), clock=clock), ec.Calendar(MemoryBackend(), clock=clock))
    yield pair
    for cal in pair:
        cal.close()


def _waiting(backend: SQLiteBackend) -> int:
    table = SEARCH_PENDING["events"]
    return int(backend.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])  # noqa: S608


def _consistent(backend: SQLiteBackend) -> None:
    """FTS5's own check of its index, and every event either indexed (a row of the index's
    document sizes) or waiting, never both."""
    run = backend.db.execute
    # With nothing waiting, check the index against the events' text too (rank 1).
    rank = 0 if _waiting(backend) else 1
    run("INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', ?)", [rank])
    indexed = {row[0] for row in run("SELECT id FROM events_fts_docsize")}
    waiting = {row[0] for row in run("SELECT id FROM events_search_pending")}
    events = {row[0] for row in run("SELECT id FROM events")}
    assert (set(), events) == (indexed & waiting, indexed | waiting)


def _found(cal: ec.Calendar, words: str) -> list[int]:
    return [e.id for e in cal.events.iter(search=words, start_date="2026-01-01")]


def _create(cal: ec.Calendar, n: int) -> int:
    words = " ".join(WORDS[(n + k) % len(WORDS)] for k in range(n % 3 + 1))
    return cal.events.create(
        title=f"Gig {n} {words}",
        description=f"{WORDS[n % len(WORDS)]} under the stars" if n % 2 else "",
        start_date=f"2026-12-{n % 28 + 1:02d} 20:00",
        end_date=f"2026-12-{n % 28 + 1:02d} 22:00",
    ).id


def test_new_events_wait_then_join_the_index_a_batch_at_a_time(
    calendars: tuple[ec.Calendar, ec.Calendar],
) -> None:
    sqlite, memory = calendars
    backend = sqlite.backend
    assert isinstance(backend, SQLiteBackend)
    for n in range(SEARCH_BATCH - 1):
        assert _create(sqlite, n) == _create(memory, n)
    assert SEARCH_BATCH - 1 == _waiting(backend)
    assert [_found(memory, w) for w in WORDS] == [_found(sqlite, w) for w in WORDS]
    _create(sqlite, SEARCH_BATCH - 1)
    _create(memory, SEARCH_BATCH - 1)
    assert 0 == _waiting(backend)
    assert [_found(memory, w) for w in WORDS] == [_found(sqlite, w) for w in WORDS]
    _consistent(backend)


def test_changes_and_deletions_reach_the_index_whether_waiting_or_indexed(
    calendars: tuple[ec.Calendar, ec.Calendar],
) -> None:
    """Events of the first batch are indexed, the later ones wait: each kind is renamed,
    trashed and deleted, and every search still answers what memory answers."""
    sqlite, memory = calendars
    backend = sqlite.backend
    assert isinstance(backend, SQLiteBackend)
    ids = [_create(cal, n) for n in range(SEARCH_BATCH + 10) for cal in (sqlite, memory)][::2]
    assert 10 == _waiting(backend)
    indexed, waiting = ids[3], ids[-3]
    for cal in (sqlite, memory):
        for event_id in (indexed, waiting):
            cal.events.update(event_id, title="Organ recital", description="folk night")
        cal.events.delete(ids[5], force=True)
        cal.events.delete(ids[-5], force=True)
        cal.events.delete(ids[7])
    assert 9 == _waiting(backend)
    assert [_found(memory, w) for w in [*WORDS, "organ recital"]] == [
        _found(sqlite, w) for w in [*WORDS, "organ recital"]
    ]
    _consistent(backend)
    for n in range(SEARCH_BATCH - 9):  # the last of a batch: nothing waits any more
        _create(sqlite, 100 + n)
        _create(memory, 100 + n)
    assert 0 == _waiting(backend)
    assert [_found(memory, w) for w in WORDS] == [_found(sqlite, w) for w in WORDS]
    _consistent(backend)


def test_raw_sql_writes_keep_the_index_consistent(
    calendars: tuple[ec.Calendar, ec.Calendar],
) -> None:
    """Another tool inserting, changing and deleting events by SQL goes through the same
    triggers."""
    sqlite, _ = calendars
    backend = sqlite.backend
    assert isinstance(backend, SQLiteBackend)
    first = _create(sqlite, 1)
    backend.db.execute("UPDATE events SET title = 'Jazz brunch' WHERE id = ?", [first])
    assert [first] == _found(sqlite, "brunch")
    for n in range(SEARCH_BATCH):
        _create(sqlite, n)
    backend.db.execute("UPDATE events SET title = 'Folk brunch' WHERE id = ?", [first])
    assert [first] == _found(sqlite, "folk brunch")
    backend.db.execute("DELETE FROM events WHERE id = ?", [first])
    assert [] == _found(sqlite, "brunch")
    _consistent(backend)
