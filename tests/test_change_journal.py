"""The change journal's bounds, backend by backend: pruning, and long catch-ups.

What every backend's journal must itemise is in the storage contract
(``testing.contract_storage``); here, how each keeps it bounded: SQLite and memory prune by
entries, PostgreSQL by generations (one per writing transaction).
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import psycopg
import pytest

import events_calendar as ec
from events_calendar.changes import KEPT
from events_calendar.storage import Backend
from events_calendar.testing.base import NOW
from events_calendar.testing.postgres import test_database


def _venues(backend: Backend, count: int) -> list[ec.Venue]:
    ids = backend.reserve_ids("post", count)
    return [ec.Venue(id=i, venue=f"V{i}", slug=f"v{i}", date=NOW, modified=NOW) for i in ids]


@pytest.mark.parametrize("scheme", ["memory", "sqlite"])
def test_a_cursor_behind_the_pruned_entries_is_told_anything(scheme: str, tmp_path: Path) -> None:
    """Past ``KEPT`` newer entries, an old cursor's entries are gone: "anything"."""
    url = "memory://" if scheme == "memory" else f"sqlite:///{tmp_path / 'cal.db'}"
    cal = ec.connect(url)
    try:
        backend = cal.backend
        start = backend.changes(None)
        backend.insert(_venues(backend, 3))
        recent = backend.changes(start.cursor)
        assert 3 == len(recent.records or ())
        backend.insert(_venues(backend, KEPT + 1100))
        assert (None, None) == (
            backend.changes(start.cursor).records,
            backend.changes(recent.cursor).records,
        )
        latest = backend.changes(None)
        backend.insert(_venues(backend, 2))
        assert 2 == len(backend.changes(latest.cursor).records or ())
    finally:
        cal.close()


def test_sql_backends_answer_a_long_catch_up_as_anything(tmp_path: Path) -> None:
    """More entries than a catch-up reads cost more than retiring everything."""
    cal = ec.connect(f"sqlite:///{tmp_path / 'cal.db'}")
    try:
        start = cal.backend.changes(None)
        cal.backend.insert(_venues(cal.backend, 5000))
        after = cal.backend.changes(start.cursor)
        assert (None, True) == (after.records, after.cursor >= start.cursor + 5000)
    finally:
        cal.close()


def test_postgres_prunes_by_generation() -> None:
    """Every 1,024th generation drops the entries ``KEPT`` generations behind it."""
    database = test_database()
    database.reset()
    cal = ec.connect(database.url)
    try:
        backend = cal.backend
        start = backend.changes(None)
        backend.insert(_venues(backend, 1))
        assert 1 == len(backend.changes(start.cursor).records or ())
        with psycopg.connect(database.url, autocommit=True) as raw:
            # The next writing transaction's generation: the first multiple of 1,024 at
            # least KEPT past every entry so far.
            raw.execute(
                "UPDATE data_generation SET value = ((value + %s) / 1024 + 1) * 1024 - 1", [KEPT]
            )
        backend.insert(_venues(backend, 1))
        assert (0, None) == (
            backend.generation() % 1024,  # type: ignore[operator]
            backend.changes(start.cursor).records,
        )
    finally:
        cal.close()


@pytest.mark.parametrize("scheme", ["memory", "sqlite"])
def test_generation_nowait_does_not_wait_for_a_writer(scheme: str, tmp_path: Path) -> None:
    """While another thread holds a write transaction, the event loop's read of the
    generation comes back at once: a file's from its watching connection, memory's as
    ``None`` (its lock is the writer's)."""
    url = "memory://" if scheme == "memory" else f"sqlite:///{tmp_path / 'cal.db'}"
    cal = ec.connect(url)
    backend = cal.backend
    inside, leave = threading.Event(), threading.Event()

    def write() -> None:
        with backend.transaction():
            backend.insert(_venues(backend, 1))
            inside.set()
            leave.wait(10)

    before = backend.generation()
    writer = threading.Thread(target=write)
    writer.start()
    try:
        assert inside.wait(10)
        during = backend.generation_nowait()
    finally:
        leave.set()
        writer.join()
    expected = None if scheme == "memory" else before
    assert (expected, True) == (during, backend.generation_nowait() != before)
    cal.close()


@pytest.mark.parametrize("scheme", ["sqlite", "postgresql"])
def test_a_reader_following_the_journal_misses_no_commit_of_concurrent_writers(
    scheme: str, tmp_path: Path
) -> None:
    """Two connections write at once while a third follows the journal cursor to cursor:
    every record either wrote is among the entries it read. A journal numbered in an order
    other than commit order would let the reader's cursor pass an entry not yet committed."""
    if scheme == "sqlite":
        url = f"sqlite:///{tmp_path / 'cal.db'}"
    else:
        database = test_database()
        database.reset()
        url = database.url
    reader = ec.connect(url)
    writers = [ec.connect(url) for _ in range(2)]
    written: list[int] = []
    seen: set[int] = set()
    done = threading.Event()

    def write(cal: ec.Calendar) -> None:
        for _ in range(40):
            venues = _venues(cal.backend, 1)
            cal.backend.insert(venues)
            written.append(venues[0].id)

    start = reader.backend.changes(None).cursor

    def follow() -> None:
        cursor = start
        while True:
            last = done.is_set()
            changes = reader.backend.changes(cursor)
            assert changes.records is not None
            seen.update(c.record_id for c in changes.records if c.kind == "venue")
            cursor = changes.cursor
            if last:
                return

    follower = threading.Thread(target=follow)
    follower.start()
    threads = [threading.Thread(target=write, args=(cal,)) for cal in writers]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        done.set()
        follower.join()
        for cal in (reader, *writers):
            cal.close()
    assert (80, set()) == (len(written), set(written) - seen)


def test_a_journal_restored_behind_a_cursor_is_told_anything(tmp_path: Path) -> None:
    """A live SQLite file restored from an older copy (``sqlite3``'s ``.restore``, or the
    backup API, as deploying.md's online backups are taken) brings the copy's journal, whose
    newest entry is behind a reader's cursor: "anything", and from then on the new entries
    after the restored journal's end, never "nothing changed" while the data moved back and
    later writes went unseen by every cache."""
    path = tmp_path / "cal.db"
    cal = ec.connect(f"sqlite:///{path}")
    try:
        backend = cal.backend
        backend.insert(_venues(backend, 2))
        copy = tmp_path / "copy.db"
        with sqlite3.connect(path) as live, sqlite3.connect(copy) as target:
            live.backup(target)
        backend.insert(_venues(backend, 5))
        cursor = backend.changes(None).cursor
        with sqlite3.connect(copy) as source, sqlite3.connect(path) as live:
            source.backup(live)  # the file now holds the copy, journal and all
        restored = backend.changes(cursor)
        backend.insert(_venues(backend, 1))
        after = backend.changes(restored.cursor)
    finally:
        cal.close()
    assert (None, True, 1) == (
        restored.records,
        restored.cursor < cursor,
        len(after.records or ()),
    )
