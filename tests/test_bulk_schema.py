"""SQLite's and PostgreSQL's bulk loads: what they drop for speed comes back exactly, also
after a failure, and the rebuilt indexes and keys work."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

import events_calendar as ec
from events_calendar.backends.postgres import PostgresBackend
from events_calendar.backends.sqlite import SQLiteBackend
from events_calendar.backends.sqlite_search_merge import CRISIS_SEGMENTS, LEVEL_SEGMENTS
from events_calendar.errors import InvalidParameter
from events_calendar.testing.postgres import test_database

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
Backend = SQLiteBackend | PostgresBackend


def _sqlite(tmp_path: Path) -> SQLiteBackend:
    return SQLiteBackend(tmp_path / "bulk.db")


def _postgres(tmp_path: Path) -> PostgresBackend:
    database = test_database()
    database.reset()
    return PostgresBackend(database.url)


@pytest.fixture(params=[_sqlite, _postgres], ids=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    opened: Backend = request.param(tmp_path)
    yield opened
    opened.close()


def _schema(backend: Backend) -> list[tuple[str, ...]]:
    """Every index, trigger and constraint, with its definition."""
    sql = (
        "SELECT type, name, sql FROM sqlite_master ORDER BY name"
        if isinstance(backend, SQLiteBackend)
        else "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()"
        " UNION ALL SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
        " UNION ALL SELECT tgname, pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal"
        " ORDER BY 1, 2"
    )
    return [tuple(row) for row in backend.engine.execute(sql).rows]


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


def _calendar(backend: Backend) -> ec.Calendar:
    """Batches of 60: large enough for PostgreSQL's ``COPY``."""
    return ec.Calendar(backend, clock=ec.FixedClock(NOW), settings=ec.Settings(bulk_batch_size=60))


def test_bulk_load_into_an_empty_table_leaves_the_schema_as_migrated(backend: Backend) -> None:
    """What a load into an empty events table drops is all back after it."""
    before = _schema(backend)
    _calendar(backend).events.bulk_create(_rows(130))
    assert before == _schema(backend)


def test_bulk_load_beside_events_leaves_the_schema_as_migrated(backend: Backend) -> None:
    """What a load into a table with events drops is all back after it."""
    cal = _calendar(backend)
    cal.events.bulk_create(_rows(4))
    before = _schema(backend)
    cal.events.bulk_create(_rows(130))
    assert before == _schema(backend)


def test_failed_bulk_load_leaves_the_schema_as_migrated(backend: Backend) -> None:
    """A load that fails after writing batches rolls the dropped schema back with its rows."""
    before = _schema(backend)
    rows = _rows(130)
    rows[125]["start_date"] = "never"
    with pytest.raises(InvalidParameter, match=r"rows\[125\]\.start_date"):
        _calendar(backend).events.bulk_create(rows)
    assert before == _schema(backend)


def test_links_cascade_from_a_bulk_loaded_event(backend: Backend) -> None:
    """Deleting a bulk-loaded event removes its links and lowers its term's count (the
    rebuilt keys and triggers are in force)."""
    cal = _calendar(backend)
    ids = cal.events.bulk_create(_rows(130))
    cal.events.delete(ids[0], force=True)
    assert (129, 129) == (
        backend.engine.execute("SELECT count(*) FROM event_categories").scalar(),
        cal.categories.list().items[0].count,
    )


def test_readers_see_nothing_of_a_load_in_progress(tmp_path: Path) -> None:
    """Another SQLite connection, reading while a load has written batches, sees no event."""
    backend = _sqlite(tmp_path)
    reader = SQLiteBackend(backend.path)
    seen: list[int] = []

    def watch(done: int, total: int | None) -> None:
        seen.append(reader.engine.execute("SELECT count(*) FROM events").scalar())

    _calendar(backend).events.bulk_create(_rows(130), progress=watch)
    assert [0, 0, 0] == seen


def test_search_index_is_whole_after_a_bulk_load(tmp_path: Path) -> None:
    """SQLite's search index, built once at the end, passes FTS5's integrity check."""
    backend = _sqlite(tmp_path)
    _calendar(backend).events.bulk_create(_rows(130))
    backend.engine.execute("INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)")
    assert 130 == backend.engine.execute("SELECT count(*) FROM events_fts").scalar()


def _fts_settings(backend: SQLiteBackend) -> dict[str, int]:
    """The FTS5 settings stored for the search index that differ from the ones kept between
    loads: FTS5's default hash, no merging by writers (migration 0014: the background
    thread merges, ``sqlite_search_merge``) and its merges' widths (migration 0015)."""
    kept = {
        "automerge": 0,
        "hashsize": 1024 * 1024,
        "usermerge": LEVEL_SEGMENTS,
        "crisismerge": CRISIS_SEGMENTS,
    }
    rows = dict(
        backend.engine.execute("SELECT k, v FROM events_fts_config WHERE k != 'version'").rows
    )
    return {k: rows.get(k) for k in kept.keys() | rows.keys() if kept.get(k) != rows.get(k)}


@pytest.mark.parametrize("beside", [0, 4], ids=["empty", "beside-events"])
def test_search_index_settings_are_the_kept_ones_after_a_bulk_load(
    tmp_path: Path, beside: int
) -> None:
    """A load indexes with a larger FTS5 hash and, into an empty index, one ``optimize`` at
    the end; afterwards the index takes single writes with the kept settings (FTS5's hash,
    writers never merging), and a search finds both loaded and later events."""
    backend = _sqlite(tmp_path)
    cal = _calendar(backend)
    cal.events.bulk_create(_rows(beside))
    cal.events.bulk_create(_rows(130))
    assert {} == _fts_settings(backend)
    backend.engine.execute("INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)")
    cal.events.create(title="Row late", start_date="2031-03-01 10:00", end_date="2031-03-01 11:00")
    page = cal.events.list(search="row", start_date="2031-01-01", end_date="2032-01-01")
    assert beside + 131 == page.total


def test_postgres_analyses_what_a_load_grew(tmp_path: Path) -> None:
    """A load that grows the events by a tenth or more refreshes the planner's statistics
    (its row counts, here), as autovacuum would: on a server where it is off, a load of
    50,000 into a calendar of 36 left every anonymous venue list planned for 36 (16 s). A
    batch adding little to a large table skips the cost."""
    backend = _postgres(tmp_path)
    try:
        cal = _calendar(backend)
        run = backend.engine.execute
        cal.events.bulk_create(_rows(3))
        run("ANALYZE events")  # the planner counts the 3
        cal.events.bulk_create(_rows(600))
        grown = run("SELECT reltuples FROM pg_class WHERE oid = 'events'::regclass").scalar()
        linked = run(
            "SELECT reltuples FROM pg_class WHERE oid = 'event_categories'::regclass"
        ).scalar()
        cal.events.bulk_create(_rows(20))  # 20 < 50 + 60: not worth a new sample
        kept = run("SELECT reltuples FROM pg_class WHERE oid = 'events'::regclass").scalar()
        assert (603, 603, 603) == (grown, linked, kept)
    finally:
        backend.close()
