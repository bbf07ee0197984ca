"""SQLite's bulk load: what it drops for speed comes back exactly, also after a failure."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

import events_calendar as ec
from events_calendar.backends.sqlite import SQLiteBackend
from events_calendar.errors import InvalidParameter

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


def _schema(backend: SQLiteBackend) -> list[tuple[str, str, str]]:
    rows = backend.db.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
    return [tuple(row) for row in rows]


def _rows(count: int) -> list[dict[str, object]]:
    return [
        {
            "title": f"Row {n}",
            "start_date": f"2031-03-{n % 28 + 1:02d} 10:00",
            "end_date": f"2031-03-{n % 28 + 1:02d} 11:00",
            "categories": ["Music"],
        }
        for n in range(count)
    ]


@pytest.fixture
def backend(tmp_path: Path) -> SQLiteBackend:
    return SQLiteBackend(tmp_path / "bulk.db")


def _calendar(backend: SQLiteBackend) -> ec.Calendar:
    return ec.Calendar(backend, clock=ec.FixedClock(NOW), settings=ec.Settings(bulk_batch_size=3))


def test_bulk_load_into_an_empty_file_leaves_the_schema_as_migrated(
    backend: SQLiteBackend,
) -> None:
    """The indexes and triggers dropped for a load into an empty table are all back after."""
    before = _schema(backend)
    _calendar(backend).events.bulk_create(_rows(10))
    assert before == _schema(backend)


def test_bulk_load_beside_events_leaves_the_schema_as_migrated(backend: SQLiteBackend) -> None:
    """The count triggers dropped for a load into a non-empty table are back after."""
    cal = _calendar(backend)
    cal.events.bulk_create(_rows(4))
    before = _schema(backend)
    cal.events.bulk_create(_rows(10))
    assert before == _schema(backend)


def test_failed_bulk_load_leaves_the_schema_as_migrated(backend: SQLiteBackend) -> None:
    """A load that fails after writing batches rolls the dropped schema back with its rows."""
    before = _schema(backend)
    rows = _rows(10)
    rows[8]["start_date"] = "never"
    with pytest.raises(InvalidParameter, match=r"rows\[8\]\.start_date"):
        _calendar(backend).events.bulk_create(rows)
    assert before == _schema(backend)


def test_readers_see_nothing_of_a_load_in_progress(backend: SQLiteBackend) -> None:
    """Another connection, reading while a load has written batches, sees no event yet."""
    seen: list[int] = []
    reader = SQLiteBackend(backend.path)

    def watch(done: int, total: int | None) -> None:
        seen.append(reader.db.execute("SELECT count(*) FROM events").fetchone()[0])

    _calendar(backend).events.bulk_create(_rows(9), progress=watch)
    assert [0, 0, 0] == seen


def test_search_index_matches_a_rebuild_after_a_bulk_load(backend: SQLiteBackend) -> None:
    """The search index built at the end of a load passes FTS5's own integrity check."""
    _calendar(backend).events.bulk_create(_rows(10))
    backend.db.execute("INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)")
    assert 10 == backend.db.execute("SELECT count(*) FROM events_fts").fetchone()[0]
