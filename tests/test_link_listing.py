"""Link rows keep their event's listing key (``schema.LISTING_KEY``) exactly, however the
event or link was written (by the library, by another tool's SQL, by a migration of an older
file), and a list of one linked record walks that link table's listing index."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlite_utils import Database
from tests.sql_backends import WITH_SET_WISE, WITH_SET_WISE_IDS, Backend

import events_calendar as ec
from events_calendar.backends.postgres import PostgresBackend
from events_calendar.backends.sql import store
from events_calendar.backends.sql.schema import LINKS, LISTING_KEY
from events_calendar.backends.sqlite import SQLiteBackend

NOW = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)


@pytest.fixture(params=WITH_SET_WISE, ids=WITH_SET_WISE_IDS)
def cal(request: pytest.FixtureRequest) -> Iterator[ec.Calendar]:
    factory: Callable[[], Backend] = request.param
    calendar = ec.Calendar(factory(), clock=ec.FixedClock(NOW))
    yield calendar
    calendar.close()


def _stale_links(backend: Backend) -> list[tuple[str, int]]:
    """Link rows whose listing key is not their event's: (link table, event id)."""
    same = " AND ".join(f"l.{c} = e.{c}" for c in LISTING_KEY)
    found: list[tuple[str, int]] = []
    for link in LINKS.values():
        sql = (
            f"SELECT l.event_id FROM {link.table} l JOIN events e ON e.id = l.event_id"  # noqa: S608
            f" WHERE NOT ({same}) OR l.utc_start IS NULL ORDER BY 1"
        )
        rows = backend.engine.execute(sql).rows
        found += [(link.table, int(event_id)) for (event_id,) in rows]
    return found


def _gig(cal: ec.Calendar, **fields: object) -> ec.Event:
    hall = cal.venues.create(venue="Hall")
    band = cal.organizers.create(organizer="Band")
    return cal.events.create(
        title="Gig",
        start_date="2026-12-01 20:00",
        end_date="2026-12-01 23:00",
        venue=[hall.id],
        organizer=[band.id],
        categories=["Jazz"],
        tags=["late"],
        **fields,
    )


def test_links_written_by_the_library_carry_the_key(cal: ec.Calendar) -> None:
    gig = _gig(cal)
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend | PostgresBackend)
    assert [] == _stale_links(backend)
    row = backend.engine.execute(
        f"SELECT {', '.join(LISTING_KEY)} FROM event_venues WHERE event_id = ?",  # noqa: S608
        [gig.id],
    ).rows[0]
    start, end = int(gig.utc_start_date.timestamp()), int(gig.utc_end_date.timestamp())
    assert ("publish", False, start, end) == (row[0], bool(row[1]), row[2], row[3])


def test_an_event_passes_a_changed_key_on_to_its_links(cal: ec.Calendar) -> None:
    """Rescheduling, trashing and hiding an event move its links' copies with it."""
    gig = _gig(cal)
    cal.events.update(gig.id, start_date="2027-01-10 20:00", end_date="2027-01-10 22:00")
    cal.events.update(gig.id, hide_from_listings=True)
    cal.events.delete(gig.id)
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend | PostgresBackend)
    assert [] == _stale_links(backend)
    statuses = backend.engine.execute("SELECT DISTINCT status FROM event_tags").first_column()
    assert ["trash"] == statuses


def test_bulk_changes_pass_the_key_on(cal: ec.Calendar) -> None:
    gigs = [_gig(cal).id for _ in range(3)]
    cal.events.update_many(gigs, start_date="2027-03-01 19:00", end_date="2027-03-01 21:00")
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend | PostgresBackend)
    assert [] == _stale_links(backend)


def test_raw_sql_writes_keep_the_key(cal: ec.Calendar) -> None:
    """Another tool linking an event or moving it by SQL alone: the key still follows."""
    gig = _gig(cal)
    other = cal.venues.create(venue="Annex")
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend | PostgresBackend)
    with backend.engine.transaction():
        backend.engine.execute(
            "INSERT INTO event_venues (event_id, venue_id, position) VALUES (?, ?, 1)",
            [gig.id, other.id],
        )
        backend.engine.execute(
            "UPDATE events SET utc_start = utc_start + 86400, utc_end = utc_end + 86400,"
            " status = 'draft' WHERE id = ?",
            [gig.id],
        )
    assert [] == _stale_links(backend)


def test_a_list_of_one_venue_finds_its_events_in_order(cal: ec.Calendar) -> None:
    """The walk of the venue's index gives list order and the window's bounds."""
    hall = cal.venues.create(venue="Hall")
    days = ["2026-12-05", "2026-11-28", "2027-02-01", "2026-11-01", "2026-12-05"]
    ids = [
        cal.events.create(
            title=f"Gig {n}",
            start_date=f"{day} 20:00",
            end_date=f"{day} 22:00",
            venue=[hall.id],
        ).id
        for n, day in enumerate(days)
    ]
    page = cal.as_user(None).events.list(venue=[hall.id], end_date="2027-01-31", per_page=2)
    assert ([ids[1], ids[0]], 3) == ([e.id for e in page.items], page.total)
    second = cal.as_user(None).events.list(
        venue=[hall.id], end_date="2027-01-31", per_page=2, page=2
    )
    assert [ids[4]] == [e.id for e in second.items]
    assert [ids[1], ids[0], ids[4], ids[2]] == [
        e.id for e in cal.as_user(None).events.iter(venue=[hall.id], batch_size=1)
    ]


def _listed(cal: ec.Calendar, **filters: Any) -> tuple[list[ec.Event], list[tuple[str, Any]]]:
    """An anonymous list on an SQLite calendar, and the statements it ran."""
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend)
    seen: list[tuple[str, Any]] = []
    with backend.db.tracer(lambda sql, params: seen.append((sql, params))):
        page = cal.as_user(None).events.list(**filters)
    return list(page.items), seen


def _plan(cal: ec.Calendar, statement: tuple[str, Any]) -> list[str]:
    """SQLite's plan for one statement, a line per step."""
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend)
    return [
        row[3] for row in backend.db.execute(f"EXPLAIN QUERY PLAN {statement[0]}", statement[1])
    ]


def test_sqlite_walks_the_venue_index_and_counts_no_links(tmp_path: Path) -> None:
    """One venue: the page reads ``event_venues_listing``; no link count is asked for."""
    cal = ec.Calendar(SQLiteBackend(tmp_path / "cal.db"), clock=ec.FixedClock(NOW))
    gig = _gig(cal)
    shown, seen = _listed(cal, venue=gig.venue)
    assert [gig.id] == [e.id for e in shown]
    (listing,) = [(sql, p) for sql, p in seen if "ORDER BY" in sql and '"event_venues" d' in sql]
    assert "event_venues_listing" in " ".join(_plan(cal, listing))
    assert not any("LIMIT 16385" in sql for sql, _ in seen)
    cal.close()


def test_sqlite_reads_an_events_links_from_an_index_alone(tmp_path: Path) -> None:
    """Reading the links of the events a list shows visits no link table (migration 0013):
    each part of the statement is answered from the link table's ``_of_event`` index."""
    cal = ec.Calendar(SQLiteBackend(tmp_path / "cal.db"), clock=ec.FixedClock(NOW))
    gig = _gig(cal)
    (one,), seen = _listed(cal)
    assert (gig.id, gig.venue, gig.organizer) == (one.id, one.venue, one.organizer)
    (links,) = [(sql, p) for sql, p in seen if " AS target, position" in sql]
    plan = _plan(cal, links)
    for link in LINKS.values():
        assert any(f"USING COVERING INDEX {link.table}_of_event " in step for step in plan), plan
    cal.close()


def test_an_older_sqlite_file_gets_its_links_keyed(tmp_path: Path) -> None:
    """Opening a file written before migration 0009 copies every event's key to its links."""
    path = tmp_path / "old.db"
    cal = ec.Calendar(SQLiteBackend(path), clock=ec.FixedClock(NOW))
    gig = _gig(cal)
    cal.close()
    old = Database(path)
    old.execute("DROP INDEX event_categories_ending")  # 0010, after, goes too
    old.execute("DROP TABLE category_tree")
    for (trigger,) in old.execute(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%category_tree%'"
    ).fetchall():
        old.execute(f"DROP TRIGGER [{trigger}]")
    old.execute("DELETE FROM link_day_counts WHERE link = 'category_tree'")
    old.execute("DELETE FROM _sqlite_migrations WHERE name = '0010_category_branch_counts'")
    old.execute("DROP TRIGGER events_listing_key")
    for link in LINKS.values():
        old.execute(f"DROP TRIGGER [{link.table}_listing_key]")
        old.execute(f"DROP INDEX [{link.listing_index}]")
        for column in LISTING_KEY:
            old.execute(f"ALTER TABLE [{link.table}] DROP COLUMN [{column}]")
    old.execute("DELETE FROM _sqlite_migrations WHERE name = '0009_link_listing_index'")
    old.conn.commit()
    old.close()
    backend = SQLiteBackend(path)
    assert [] == _stale_links(backend)
    reopened = ec.Calendar(backend, clock=ec.FixedClock(NOW))
    assert [gig.id] == [e.id for e in reopened.as_user(None).events.list(venue=gig.venue).items]
    reopened.close()


def test_sqlite_probes_several_ids_on_the_events_own_links(tmp_path: Path) -> None:
    """A probe of several ids reads the walked event's own links by its id (the primary key)
    and checks each against the list, instead of seeking each id's (target, event) pair: 200
    tags were 200 seeks an event, a deep page of them 1 s at 100,000 events."""
    cal = ec.Calendar(SQLiteBackend(tmp_path / "cal.db"), clock=ec.FixedClock(NOW))
    gig = _gig(cal)
    wanted = [cal.tags.list().items[0].id, cal.tags.create(name="free").id]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store, "choose", lambda links, *_, **__: dict.fromkeys(links, "probe"))
        shown, seen = _listed(cal, tags=wanted)
    assert [gig.id] == [e.id for e in shown]
    (listing,) = [(sql, p) for sql, p in seen if "ORDER BY" in sql and '"event_tags" l ' in sql]
    plan = _plan(cal, listing)
    assert "SEARCH l USING COVERING INDEX sqlite_autoindex_event_tags_1 (event_id=?)" in plan, plan
    cal.close()
