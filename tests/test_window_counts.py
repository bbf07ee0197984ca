"""Totals from the day-count tables (``sql.window_counts``) are the rows' own count, on SQLite
and PostgreSQL, after any mix of writes, bulk loads and migrations."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlite_utils import Database
from tests.sql_backends import WITH_SET_WISE, WITH_SET_WISE_IDS, Backend

import events_calendar as ec
from events_calendar.backends.postgres import PostgresBackend
from events_calendar.backends.sql.compiler import compile_filter
from events_calendar.backends.sql.schema import LINKS, LISTING_KEY
from events_calendar.backends.sql.window_counts import (
    EVENT_BLOCKS,
    EVENT_COUNTS,
    KEY_COLUMNS,
    LINK_COUNTS,
    block_of,
    counted_links,
    day_of,
    window_count,
)
from events_calendar.backends.sqlite import SQLiteBackend
from events_calendar.queries import EventFilter
from events_calendar.statuses import Status
from events_calendar.testing.postgres import test_database

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
STATUSES = ["publish", "draft", "pending", "private"]
#: Start times around ``NOW``: days apart (partial days), or months (whole 32-day blocks).
HOURS = st.integers(-72, 72) | st.integers(-24 * 150, 24 * 150)


@pytest.fixture(
    params=WITH_SET_WISE,
    ids=WITH_SET_WISE_IDS,
    scope="module",
)
def opened(request: pytest.FixtureRequest) -> Callable[[], Backend]:
    """A factory of empty backends (hypothesis runs many examples per test)."""
    factory: Callable[[], Backend] = request.param
    return factory


@pytest.fixture
def backend(opened: Callable[[], Backend]) -> Iterator[Backend]:
    made = opened()
    yield made
    made.close()


def _calendar(backend: Backend) -> ec.Calendar:
    return ec.Calendar(backend, clock=ec.FixedClock(NOW), settings=ec.Settings(bulk_batch_size=60))


#: Each category's branch (itself and every sub-category) from the parents alone, as an
#: independent check of the closure table the triggers keep.
BRANCHES = (
    "(WITH RECURSIVE t (term_id, ancestor_id) AS (SELECT id, id FROM categories UNION"
    " SELECT c.id, t.ancestor_id FROM categories c JOIN t ON c.parent = t.term_id)"
    " SELECT term_id, ancestor_id FROM t)"
)


def _stored_and_recounted(backend: Backend) -> tuple[list[tuple[Any, ...]], ...]:
    """Each count table's rows (those not at zero) beside a count of the rows themselves; the
    category branches are recounted from the parents, not from the closure table."""
    run = backend.engine.execute
    keys = ", ".join(f"e.{c}" for c in KEY_COLUMNS)
    branches = (
        f"(SELECT 'category_tree' AS link, p.target, {', '.join(KEY_COLUMNS)} FROM"  # noqa: S608
        f" (SELECT DISTINCT l.event_id, t.ancestor_id AS target, {keys} FROM event_categories l"
        f" JOIN {BRANCHES} t ON t.term_id = l.term_id JOIN events e ON e.id = l.event_id) p)"
    )
    links = f"(SELECT * FROM {counted_links('events')} l UNION ALL SELECT * FROM {branches} b)"  # noqa: S608
    found = []
    for table, key, source in (
        (EVENT_COUNTS, "status, hidden, start_day, end_day", "events"),
        (EVENT_BLOCKS, "status, hidden, start_block, end_day", "events"),
        (LINK_COUNTS, "link, target, status, hidden, start_day, end_day", links),
    ):
        width = key.count(",") + 1
        columns = key.replace("hidden", "hide_from_listings")
        columns = columns.replace("start_day", day_of("s.utc_start"))
        columns = columns.replace("start_block", block_of("s.utc_start"))
        columns = columns.replace("end_day", day_of("s.utc_end"))
        groups = ", ".join(str(n + 1) for n in range(width))
        # Our own table and column names, no values: nothing to bind.
        stored = run(f"SELECT {key}, n FROM {table} WHERE n <> 0 ORDER BY {groups}")  # noqa: S608
        counted = run(
            f"SELECT {columns}, count(*) FROM {source} s GROUP BY {groups} ORDER BY {groups}"  # noqa: S608
        )
        found += [[_plain(r) for r in stored.rows], [_plain(r) for r in counted.rows]]
    return tuple(found)


def _plain(row: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(int(v) if isinstance(v, bool) else v for v in row)


def _assert_exact(backend: Backend) -> None:
    events, recounted_events, blocks, recounted_blocks, links, recounted_links = (
        _stored_and_recounted(backend)
    )
    assert recounted_events == events
    assert recounted_blocks == blocks
    assert recounted_links == links
    closure = "SELECT term_id, ancestor_id FROM {} ORDER BY 1, 2"
    run = backend.engine.execute
    assert run(closure.format(BRANCHES + " b")).rows == run(closure.format("category_tree")).rows


def _both_counts(backend: Backend, flt: EventFilter) -> tuple[int, int]:
    """The total from the count tables and the total counted row by row."""
    fast = window_count(backend.dialect, "event", flt, branch=backend._branch(flt))
    assert fast is not None
    plain = compile_filter(backend.dialect, "event", flt).count_sql()
    run = backend.engine.execute
    return int(run(*fast).scalar()), int(run(*plain).scalar())


def _create(cal: ec.Calendar, data: st.DataObject, venues: list[int]) -> int:
    start = NOW + timedelta(hours=data.draw(HOURS))
    end = start + timedelta(minutes=data.draw(st.integers(0, 4 * 24 * 60)))
    event = cal.events.create(
        title="Event",
        start_date=f"{start:%Y-%m-%d %H:%M}",
        end_date=f"{end:%Y-%m-%d %H:%M}",
        timezone=data.draw(st.sampled_from(["UTC", "Europe/Paris", "Pacific/Kiritimati"])),
        status=data.draw(st.sampled_from(STATUSES)),
        hide_from_listings=data.draw(st.booleans()),
        venue=data.draw(st.lists(st.sampled_from(venues), max_size=1)),
        categories=data.draw(st.lists(st.sampled_from(CATEGORIES), max_size=2)),
    )
    return event.id


#: Categories of the property tests, each with its first parent (``Bebop`` under ``Jazz``
#: under ``Music``): events are filed under several of one branch.
CATEGORIES = ["Music", "Jazz", "Bebop", "Sport"]
PARENTS = {"Jazz": "Music", "Bebop": "Jazz"}


def _categories(cal: ec.Calendar) -> dict[str, int]:
    ids: dict[str, int] = {}
    for name in CATEGORIES:
        parent = ids.get(PARENTS.get(name, ""), 0)
        ids[name] = cal.categories.create(name=name, parent=parent).id
    return ids


def _change_category(cal: ec.Calendar, data: st.DataObject) -> None:
    """Move a category under another (or to the top), or delete one (its sub-categories
    move up to its parent)."""
    terms = cal.categories.list(per_page=50, hide_empty=False).items
    if not terms:
        return
    term = data.draw(st.sampled_from(terms))
    if data.draw(st.booleans()):
        cal.categories.delete(term.id)
        return
    parent = data.draw(st.sampled_from([0, *(t.id for t in terms)]))
    with contextlib.suppress(ec.errors.CalendarError):  # itself or a sub-category: refused
        cal.categories.update(term.id, parent=parent)


def _change(cal: ec.Calendar, data: st.DataObject, ids: list[int], venues: list[int]) -> None:
    """One random write to one of ``ids``: new dates, status, flag, links, trash or delete
    (a trashed or deleted event leaves ``ids``)."""
    event_id = data.draw(st.sampled_from(ids))
    what = data.draw(
        st.sampled_from(["dates", "status", "hidden", "links", "trash", "delete", "many"])
    )
    if what == "many":  # bulk changes (``update_many``) keep the counts too
        chosen = data.draw(st.lists(st.sampled_from(ids), min_size=1, unique=True))
        start = NOW + timedelta(hours=data.draw(HOURS))
        end = start + timedelta(minutes=data.draw(st.integers(0, 3 * 24 * 60)))
        changes = data.draw(
            st.sampled_from(
                [
                    {"start_date": f"{start:%Y-%m-%d %H:%M}", "end_date": f"{end:%Y-%m-%d %H:%M}"},
                    {"status": data.draw(st.sampled_from(STATUSES))},
                    {"hide_from_listings": data.draw(st.booleans())},
                    {"categories": data.draw(st.lists(st.sampled_from(CATEGORIES), max_size=2))},
                ]
            )
        )
        cal.events.update_many(chosen, **changes)
    elif what == "dates":
        start = NOW + timedelta(hours=data.draw(HOURS))
        end = start + timedelta(minutes=data.draw(st.integers(0, 3 * 24 * 60)))
        cal.events.update(
            event_id, start_date=f"{start:%Y-%m-%d %H:%M}", end_date=f"{end:%Y-%m-%d %H:%M}"
        )
    elif what == "status":
        cal.events.update(event_id, status=data.draw(st.sampled_from(STATUSES)))
    elif what == "hidden":
        cal.events.update(event_id, hide_from_listings=data.draw(st.booleans()))
    elif what == "links":
        cal.events.update(
            event_id,
            venue=data.draw(st.lists(st.sampled_from(venues), max_size=1)),
            categories=data.draw(st.lists(st.sampled_from(CATEGORIES), max_size=2)),
        )
    else:
        cal.events.delete(event_id, force=what == "delete")
        ids.remove(event_id)


def _filter(
    data: st.DataObject, links: dict[str, list[int]], branches: list[frozenset[int]]
) -> EventFilter:
    """A filter the count tables answer: any window (or none), statuses, hidden flag and at
    most one linked id or one category's whole branch."""
    low = data.draw(st.none() | HOURS)
    length = data.draw(st.integers(0, 150) | st.integers(0, 24 * 200))
    start = (
        None if low is None else NOW + timedelta(hours=low, seconds=data.draw(st.integers(0, 3599)))
    )
    end_from = start or NOW - timedelta(hours=100)
    end = data.draw(st.none() | st.just(end_from + timedelta(hours=length, seconds=-1)))
    field = data.draw(st.sampled_from([None, "branch", *sorted(f for f, i in links.items() if i)]))
    chosen: dict[str, frozenset[int]] = {}
    if field == "branch" and branches:
        chosen = {"category_ids": data.draw(st.sampled_from(branches))}
    elif field not in (None, "branch"):
        chosen = {field: frozenset({data.draw(st.sampled_from(links[field]))})}
    statuses = data.draw(st.sets(st.sampled_from(list(Status)), min_size=1))
    return EventFilter(
        start_min=start,
        end_max=end,
        statuses=frozenset(statuses),
        exclude_hidden=data.draw(st.booleans()),
        **chosen,
    )


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_window_totals_equal_a_row_count_after_random_writes(
    opened: Callable[[], Backend], data: st.DataObject
) -> None:
    """After random creates, reschedules, status and link changes, trashes, deletes and a
    bulk load, the count tables hold what the rows say and every window totals the same."""
    backend = opened()
    try:
        cal = _calendar(backend)
        venues = [cal.venues.create(venue=name).id for name in ("Hall", "Club")]
        _categories(cal)
        ids = [_create(cal, data, venues) for _ in range(data.draw(st.integers(1, 8)))]
        for _ in range(data.draw(st.integers(0, 10))):
            if data.draw(st.integers(0, 4)) == 0:
                _change_category(cal, data)
            elif ids:
                _change(cal, data, ids, venues)
        if data.draw(st.booleans()):
            cal.events.bulk_create(_rows(data.draw(st.integers(1, 70)), venue=venues[0]))
        _assert_exact(backend)
        terms = cal.categories.list(per_page=50, hide_empty=False).items
        links = {"venue_ids": venues, "category_ids": [t.id for t in terms]}
        branches = [_branch(terms, t.id) for t in terms]
        for _ in range(6):
            fast, plain = _both_counts(backend, _filter(data, links, branches))
            assert plain == fast
    finally:
        backend.close()


def _branch(terms: list[ec.Category], root: int) -> frozenset[int]:
    """A category and all its sub-categories, from their parents."""
    branch = {root}
    while grown := {t.id for t in terms if t.parent in branch} - branch:
        branch |= grown
    return frozenset(branch)


def _rows(count: int, *, venue: int | None = None) -> list[dict[str, object]]:
    return [
        {
            "title": f"Row {n}",
            "start_date": f"2026-11-{n % 9 + 20:02d} {n % 24:02d}:30",
            "end_date": f"2026-11-{n % 9 + 21:02d} 01:00",
            "timezone": "Europe/Paris",
            "hide_from_listings": n % 5 == 0,
            "venue": [] if venue is None else [venue],
            "categories": ["Music"] if n % 2 else ["Music", "Jazz"],
        }
        for n in range(count)
    ]


@pytest.mark.parametrize(("before", "expected"), [(0, 92), (7, 97)], ids=["empty", "not-empty"])
def test_a_bulk_load_is_counted(backend: Backend, before: int, expected: int) -> None:
    """A bulk load into no events (indexes rebuilt at its end) or beside events leaves the
    counts exact."""
    cal = _calendar(backend)
    hall = cal.venues.create(venue="Hall")
    if before:
        cal.events.bulk_create(_rows(before, venue=hall.id))
    cal.events.bulk_create(_rows(130, venue=hall.id))
    _assert_exact(backend)
    window = cal.events.list(start_date="2026-11-21", end_date="2026-11-30", venue=[hall.id])
    assert expected == window.total


def test_events_before_1970_are_counted_on_their_own_day(backend: Backend) -> None:
    """Day numbers round down before the epoch too, so an event of 1931 is in its window."""
    cal = _calendar(backend)
    cal.events.create(
        title="Old", start_date="1931-05-01 00:00", end_date="1931-05-01 00:30", timezone="UTC"
    )
    _assert_exact(backend)
    assert [1, 0] == [
        cal.events.list(start_date=day, end_date=day).total for day in ("1931-05-01", "1931-04-30")
    ]


@pytest.mark.parametrize(
    "changes",
    [
        {"search": ("jazz",)},
        {"venue_ids": frozenset({1}), "category_ids": frozenset({3})},
        {"featured": True},
        {"start_after": NOW},
        {"statuses": frozenset({Status.PRIVATE}), "private_author": 4},
    ],
)
def test_filters_the_tables_cannot_answer_are_counted_row_by_row(changes: dict[str, Any]) -> None:
    """A filter beside the window, several linked ids, a strict bound: no count-table SQL."""
    backend = SQLiteBackend()
    flt = EventFilter(start_min=NOW, end_max=NOW + timedelta(days=30), **changes)
    assert window_count(backend.dialect, "event", flt) is None
    backend.close()


def _music_and_jazz(backend: Backend) -> tuple[ec.Calendar, int, int, EventFilter]:
    """Music and its sub-category Jazz (their ids), an event filed under each, one under both
    and one under neither; and a month's filter of the two, as a category filter expands."""
    cal = _calendar(backend)
    music = cal.categories.create(name="Music")
    jazz = cal.categories.create(name="Jazz", parent=music.id)
    for categories in ([music.id], [jazz.id], [music.id, jazz.id], []):
        cal.events.create(
            title="Gig",
            start_date="2026-11-26 20:00",
            end_date="2026-11-26 22:00",
            categories=categories,
        )
    flt = EventFilter(
        start_min=NOW, end_max=NOW + timedelta(days=30), category_ids=frozenset({music.id, jazz.id})
    )
    return cal, music.id, jazz.id, flt


def test_several_linked_ids_are_counted_from_the_link_index_once_per_event(
    backend: Backend,
) -> None:
    """A category with its sub-category: an event filed under both is counted once, and the
    count reads the link table's listing index, not the events."""
    cal, _, _, flt = _music_and_jazz(backend)
    counted = window_count(backend.dialect, "event", flt)
    assert counted is not None
    assert 'FROM "event_categories" d' in counted[0]
    assert "FROM events" not in counted[0]
    assert 3 == backend.engine.execute(*counted).scalar()
    assert 3 == cal.events.list(start_date="2026-11-21", categories=["music"]).total


def test_a_category_branch_is_counted_from_its_day_counts(backend: Backend) -> None:
    """A category and its sub-category, as a category filter expands: the total sums the
    branch's day counts (each event once), and reads no link row."""
    _, music, jazz, flt = _music_and_jazz(backend)
    assert music == backend._branch(flt)
    counted = window_count(backend.dialect, "event", flt, branch=music)
    assert counted is not None
    assert "link_day_counts" in counted[0]
    assert "category_tree" in counted[1]
    assert 3 == backend.engine.execute(*counted).scalar()
    assert backend._branch(attrs.evolve(flt, category_ids=frozenset({jazz, 999}))) is None


def test_a_default_window_total_reads_the_count_table() -> None:
    """An anonymous list of a window sums day counts instead of counting its rows."""
    cal = _calendar(SQLiteBackend())
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend)
    seen: list[str] = []
    with backend.db.tracer(lambda sql, params: seen.append(sql)):
        assert 0 == cal.as_user(None).events.list().total
    assert 1 == sum(EVENT_COUNTS in sql for sql in seen)


def test_migration_counts_the_events_of_an_older_file(tmp_path: Path) -> None:
    """Opening a file written before the count tables fills them from its events."""
    path = tmp_path / "old.db"
    with _calendar(SQLiteBackend(path)) as cal:
        hall = cal.venues.create(venue="Hall")
        cal.events.bulk_create(_rows(40, venue=hall.id))
    old = Database(path)
    for name in ("event_day_counts", "event_block_counts", "link_day_counts", "category_tree"):
        old.execute(f"DROP TABLE {name}")
    for (trigger,) in old.execute(
        "SELECT name FROM sqlite_master WHERE type = 'trigger'"
        " AND (name LIKE '%day_counts%' OR name LIKE 'category_tree%')"
    ).fetchall():
        old.execute(f"DROP TRIGGER [{trigger}]")
    old.execute("DROP INDEX events_listing_end")
    old.execute("DROP INDEX event_categories_ending")
    old.execute(  # 0010 (the branch counts) goes too, as it came after
        "DELETE FROM _sqlite_migrations"
        " WHERE name IN ('0007_window_counts', '0010_category_branch_counts')"
    )
    old.conn.commit()
    old.close()
    backend = SQLiteBackend(path)
    _assert_exact(backend)
    assert (
        28 == _calendar(backend).events.list(start_date="2026-11-21", end_date="2026-11-30").total
    )
    backend.close()


def test_postgres_migration_counts_the_events_of_an_older_database() -> None:
    """A PostgreSQL database at schema version 2 gets its events counted by versions 3 on."""
    database = test_database()
    database.reset()
    with _calendar(PostgresBackend(database.url)) as cal:
        hall = cal.venues.create(venue="Hall")
        cal.events.bulk_create(_rows(40, venue=hall.id))
    backend = PostgresBackend(database.url)
    run = backend.engine.execute
    with backend.engine.transaction():
        run("DROP TABLE event_day_counts, event_block_counts, link_day_counts")
        run("DROP INDEX events_listing_end")
        run("DROP TABLE changes, changes_horizon")  # versions 4 to 6 go too
        run("DROP TABLE category_tree")
        run("DROP TABLE calendar_identity")  # version 7
        run("DROP INDEX event_categories_ending")
        patterns = [["%day_counts%", "%journal%", "%listing_key%", "category_tree%"]]
        for trigger, table in run(
            "SELECT tgname, tgrelid::regclass::text FROM pg_trigger WHERE tgname LIKE ANY (?)",
            patterns,
        ).rows:
            run(f'DROP TRIGGER "{trigger}" ON "{table}"')
        for (function,) in run(
            "SELECT proname FROM pg_proc WHERE proname LIKE ANY (?)", patterns
        ).rows:
            run(f'DROP FUNCTION "{function}"()')
        for link in LINKS.values():
            run(f'DROP INDEX "{link.listing_index}"')
            run(
                f'ALTER TABLE "{link.table}" '
                + ", ".join(f"DROP COLUMN {column}" for column in LISTING_KEY)
            )
        run("DELETE FROM schema_migrations WHERE version >= 3")
    backend.close()
    backend = PostgresBackend(database.url)
    _assert_exact(backend)
    assert (
        28 == _calendar(backend).events.list(start_date="2026-11-21", end_date="2026-11-30").total
    )
    backend.close()
