"""SQLite's set-wise upkeep of a large ``update_many`` (``SQLiteBackend._rewrite``): the same
counts, listing keys and schema as the row-by-row triggers, and nothing left half done."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

import events_calendar as ec
from events_calendar.backends.sql.schema import LINKS, LISTING_KEY
from events_calendar.backends.sqlite import SET_WISE, SQLiteBackend
from events_calendar.backends.sqlite_schema import REWRITE_TRIGGERS
from test_window_counts import _assert_exact

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
MANY = SET_WISE + 36  # over the threshold, and not a multiple of anything


@pytest.fixture
def cal() -> Iterator[ec.Calendar]:
    calendar = ec.Calendar(SQLiteBackend(), clock=ec.FixedClock(NOW))
    yield calendar
    calendar.close()


def _backend(cal: ec.Calendar) -> SQLiteBackend:
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend)
    return backend


def _schema(backend: SQLiteBackend) -> list[tuple[Any, ...]]:
    return backend.engine.execute(
        "SELECT type, name, sql FROM sqlite_master ORDER BY type, name"
    ).rows


def _stale_links(backend: SQLiteBackend) -> int:
    same = " AND ".join(f"l.{c} IS e.{c}" for c in LISTING_KEY)
    return sum(
        backend.engine.execute(
            f"SELECT count(*) FROM {link.table} l JOIN events e ON e.id = l.event_id"  # noqa: S608
            f" WHERE NOT ({same})"
        ).scalar()
        for link in LINKS.values()
    )


def _count(cal: ec.Calendar, slug: str) -> int:
    """A category's stored count (published events filed under it)."""
    (term_id,) = cal.categories.ids_for([slug])
    return cal.categories.get(term_id).count


def _season(cal: ec.Calendar) -> list[int]:
    hall = cal.venues.create(venue="Hall")
    rows = [
        {
            "title": f"Night {n}",
            "start_date": f"2026-12-{n % 28 + 1:02d} 20:00",
            "end_date": f"2026-12-{n % 28 + 1:02d} 23:00",
            "venue": [hall.id],
            "categories": ["Jazz"] if n % 2 else ["Jazz", "Blues"],
            "tags": ["late"],
            "status": "publish" if n % 3 else "draft",
        }
        for n in range(MANY)
    ]
    return list(cal.events.bulk_create(rows))


def _dropped(cal: ec.Calendar, action: Any) -> list[str]:
    """The triggers ``action`` dropped (from the statements it ran)."""
    seen: list[str] = []
    backend = _backend(cal)
    backend.db._tracer = lambda sql, params: seen.append(sql)
    try:
        action()
    finally:
        backend.db._tracer = None
    return [sql.split("[")[1].rstrip("]") for sql in seen if sql.startswith("DROP TRIGGER")]


def test_a_large_reschedule_is_kept_set_wise_and_exact(cal: ec.Calendar) -> None:
    ids = _season(cal)
    backend = _backend(cal)
    before = _schema(backend)
    dropped = _dropped(
        cal,
        lambda: cal.events.update_many(
            ids, start_date="2027-02-01 19:00", end_date="2027-02-03 01:00", status="publish"
        ),
    )
    assert sorted(REWRITE_TRIGGERS) == sorted(set(dropped))
    assert before == _schema(backend)  # every trigger back, word for word
    _assert_exact(backend)
    assert 0 == _stale_links(backend)
    window = cal.events.list(start_date="2027-02-01", end_date="2027-02-03", categories=["jazz"])
    assert MANY == window.total
    assert MANY == _count(cal, "jazz")


def test_new_links_for_many_events_are_counted_once(cal: ec.Calendar) -> None:
    ids = _season(cal)
    backend = _backend(cal)
    club = cal.venues.create(venue="Club")
    cal.events.update_many(ids, venue=[club.id], categories=["Blues"], tags=[])
    _assert_exact(backend)
    assert 0 == _stale_links(backend)
    published = sum(1 for n in range(MANY) if n % 3)
    visitor = cal.as_user(None)
    assert published == visitor.events.list(venue=[club.id], start_date="2026-12-01").total
    assert (published, 0) == (_count(cal, "blues"), _count(cal, "jazz"))


def test_a_small_change_keeps_the_row_triggers(cal: ec.Calendar) -> None:
    ids = _season(cal)
    dropped = _dropped(
        cal,
        lambda: cal.events.update_many(
            ids[:3], start_date="2027-01-05 10:00", end_date="2027-01-05 12:00"
        ),
    )
    assert [] == dropped
    _assert_exact(_backend(cal))
    assert 0 == _stale_links(_backend(cal))


def test_a_failed_rewrite_caught_inside_a_transaction_leaves_the_schema_whole(
    cal: ec.Calendar, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The writes fail after the triggers went and the counts were taken out; the caller
    catches the error and commits the rest of its transaction: the rewrite left nothing."""
    ids = _season(cal)
    backend = _backend(cal)
    before = _schema(backend)

    def broken(field: str, events: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(backend, "_insert_links", broken)
    with cal.transaction():
        cal.venues.create(venue="Annex")
        with pytest.raises(RuntimeError, match="disk on fire"):
            cal.events.update_many(
                ids,
                categories=["Blues"],
                start_date="2027-03-01 10:00",
                end_date="2027-03-01 11:00",
            )
    monkeypatch.undo()
    assert before == _schema(backend)
    _assert_exact(backend)
    assert 0 == _stale_links(backend)
    assert {"2026-12"} == {event.start_date.strftime("%Y-%m") for event in cal.events.iter()}
    assert ["Annex", "Hall"] == sorted(v.venue for v in cal.venues.iter())
