"""PostgreSQL's bulk load: what it drops for speed comes back exactly, also after a failure."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

import events_calendar as ec
from events_calendar.backends.postgres import PostgresBackend
from events_calendar.errors import InvalidParameter
from events_calendar.testing.postgres import test_database

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


@pytest.fixture
def backend() -> Iterator[PostgresBackend]:
    database = test_database()
    database.reset()
    opened = PostgresBackend(database.url)
    yield opened
    opened.close()


def _schema(backend: PostgresBackend) -> list[tuple[str, ...]]:
    """Every index and constraint definition, by name."""
    rows = backend.engine.execute(
        "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()"
        " UNION ALL SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
        " ORDER BY 1, 2"
    ).rows
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


def _calendar(backend: PostgresBackend) -> ec.Calendar:
    return ec.Calendar(backend, clock=ec.FixedClock(NOW), settings=ec.Settings(bulk_batch_size=60))


def test_bulk_load_into_an_empty_database_leaves_the_schema_as_migrated(
    backend: PostgresBackend,
) -> None:
    """The indexes and foreign keys dropped for a load into an empty table are all back."""
    before = _schema(backend)
    _calendar(backend).events.bulk_create(_rows(130))
    assert before == _schema(backend)


def test_failed_bulk_load_leaves_the_schema_as_migrated(backend: PostgresBackend) -> None:
    """A load that fails after writing batches rolls the dropped schema back with its rows."""
    before = _schema(backend)
    rows = _rows(130)
    rows[125]["start_date"] = "never"
    with pytest.raises(InvalidParameter, match=r"rows\[125\]\.start_date"):
        _calendar(backend).events.bulk_create(rows)
    assert before == _schema(backend)


def test_foreign_keys_guard_links_again_after_a_bulk_load(backend: PostgresBackend) -> None:
    """Deleting a bulk-loaded event still removes its links (the foreign keys cascade)."""
    cal = _calendar(backend)
    ids = cal.events.bulk_create(_rows(130))
    cal.events.delete(ids[0], force=True)
    assert (129, 129) == (
        backend.engine.execute("SELECT count(*) FROM event_categories").scalar(),
        cal.categories.list().items[0].count,
    )
