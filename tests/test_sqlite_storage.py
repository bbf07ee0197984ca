"""What only the SQLite backend has: files, migrations, statements, concurrency, atomicity."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import attrs
import pytest
from sqlite_utils import Database

import events_calendar as ec
from events_calendar.backends import sqlite as sqlite_module
from events_calendar.backends import sqlite_schema
from events_calendar.backends.sqlite import MMAP_BYTES, SQLiteBackend
from events_calendar.backends.sqlite_schema import MIGRATIONS_TABLE, migrations
from events_calendar.errors import BulkIncomplete, Conflict, InvalidParameter, StorageUnavailable
from events_calendar.records import Record

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


def _calendar(url: str) -> ec.Calendar:
    return ec.connect(url, clock=ec.FixedClock(NOW))


def _event(cal: ec.Calendar, n: int, **extra: object) -> ec.Event:
    return cal.events.create(
        title=f"Event {n}",
        start_date=f"2031-01-{1 + n % 28:02d} 10:00",
        end_date=f"2031-01-{1 + n % 28:02d} 12:00",
        **extra,
    )


def test_sqlite_url_opens_a_file_that_keeps_its_data(tmp_path: Path) -> None:
    """connect('sqlite:///path') stores in that file; reopening finds the records."""
    path = tmp_path / "cal.db"
    with _calendar(f"sqlite:///{path}") as cal:
        gala = _event(cal, 1, categories=["Music"])
    with _calendar(f"sqlite:///{path}") as cal:
        assert "Event 1" == cal.events.get(gala.id).title
        assert ["music"] == [c.slug for c in cal.categories.list().items]


def test_sqlite_memory_url_is_private() -> None:
    """connect('sqlite://') gives a fresh database each time."""
    with _calendar("sqlite://") as first, _calendar("sqlite://") as second:
        _event(first, 1)
        assert (1, 0) == (
            first.events.list(start_date="2031-01-01", end_date="2031-12-31").total,
            second.events.list(start_date="2031-01-01", end_date="2031-12-31").total,
        )


def test_file_uses_wal_and_foreign_keys(tmp_path: Path) -> None:
    """Files are opened in WAL mode with foreign keys enforced."""
    backend = SQLiteBackend(tmp_path / "cal.db")
    assert ("wal", 1) == (
        backend.db.execute("PRAGMA journal_mode").fetchone()[0],
        backend.db.execute("PRAGMA foreign_keys").fetchone()[0],
    )
    backend.close()


def _writer_and_reader(tmp_path: Path, pragma: str) -> tuple[object, object]:
    """A new file's ``pragma`` on its writer connection and on a reader's (a connection of
    its own, not the writer's)."""
    backend = SQLiteBackend(tmp_path / "cal.db")
    engine = backend.engine
    try:
        reader = engine.read_connection()
        assert reader is not engine.db.conn
        return (
            engine.db.execute(f"PRAGMA {pragma}").fetchone()[0],
            reader.execute(f"PRAGMA {pragma}").fetchone()[0],
        )
    finally:
        backend.close()


def test_only_the_writer_maps_the_file(tmp_path: Path) -> None:
    """Reader connections read through the disk cache, not a memory map: a reader that sees
    another connection's commit would unmap its whole window before its next read."""
    assert (MMAP_BYTES, 0) == _writer_and_reader(tmp_path, "mmap_size")


def test_readers_keep_temporary_tables_in_memory(tmp_path: Path) -> None:
    """Readers (``PRAGMA temp_store`` 2): a statement needing two temporary tables (a page's
    links, an ``IN`` list in each part of a union) opened a temporary file with SQLite's
    default, several times what the statement itself cost. Not the writer (0, the default):
    a bulk load's temporary data stays on disk."""
    assert (0, 2) == _writer_and_reader(tmp_path, "temp_store")


def test_every_connection_fires_triggers_recursively(tmp_path: Path) -> None:
    """Writer and readers alike: a REPLACE that deletes a row fires its delete triggers
    only with recursive triggers on."""
    assert (1, 1) == _writer_and_reader(tmp_path, "recursive_triggers")


def test_the_applied_migrations_are_read_where_sqlite_utils_records_them(
    tmp_path: Path,
) -> None:
    """An up-to-date file is recognised without sqlite-utils, from its table of applied
    migrations: the table sqlite-utils names, read as sqlite-utils reads it."""
    from sqlite_utils.migrations import Migrations

    backend = SQLiteBackend(tmp_path / "cal.db")
    try:
        recorded = [m.name for m in migrations().applied(backend.db)]
        assert Migrations.migrations_table == MIGRATIONS_TABLE
        assert [name for name, _ in sqlite_schema.STEPS] == recorded
        assert recorded == backend.engine._applied_migrations()
    finally:
        backend.close()


def test_opening_an_older_file_applies_the_missing_migrations(tmp_path: Path) -> None:
    """A file written before the linked-search index gets it, with existing rows indexed."""
    path = tmp_path / "old.db"
    old = Database(path)
    migrations().apply(old, stop_before="0002_linked_search_index")
    old.execute(
        "INSERT INTO venues (id, author, status, date, modified, slug, description, excerpt,"
        " image, venue, address, city, country, province, state, zip, phone, stateprovince,"
        " website, show_map, show_map_link, name_key, published) VALUES (1, 0, 'publish',"
        " '2021-01-01T10:00:00+00:00', '2021-01-01T10:00:00+00:00', 'temple', '', '', '',"
        " 'Temple', '100, Avenue du Temple', 'Paris', '', '', '', '', '', '', '', 1, 1,"
        " 'temple', 1609495200)"
    )
    old.execute("UPDATE sequences SET value = 1 WHERE name = 'post'")
    old.close()
    with _calendar(f"sqlite:///{path}") as cal:
        applied = [m.name for m in migrations().applied(cal.backend.db)]  # type: ignore[attr-defined]
        assert [
            "0001_initial",
            "0002_linked_search_index",
            "0003_deferred_event_search_index",
            "0004_stored_term_counts_and_listing_index",
            "0005_text_indexes_follow_text_updates",
            "0006_import_keys",
            "0007_window_counts",
            "0008_change_journal",
            "0009_link_listing_index",
            "0010_category_branch_counts",
            "0011_pending_search_index",
            "0012_calendar_identity",
            "0013_links_read_from_an_index",
            "0014_search_indexes_merged_in_the_background",
            "0015_search_merges_take_sixteen_segments",
            "0016_search_indexes_hold_folded_text",
            "0017_search_indexes_fold_accents",
        ] == applied
        assert ["Temple"] == [v.venue for v in cal.venues.list(search="avenue temple").items]


def test_a_file_keeps_its_own_calendar_identity(tmp_path: Path) -> None:
    """Each new file makes its own identity and reads the same one when opened again."""
    first, second = tmp_path / "a.db", tmp_path / "b.db"
    made = []
    for path in (first, second, first):
        with _calendar(f"sqlite:///{path}") as cal:
            made.append(cal.backend.calendar_identity())
    assert (made[0], 2) == (made[2], len(set(made)))


def test_a_page_loads_its_links_in_a_fixed_number_of_queries() -> None:
    """Listing 2 or 20 linked events runs the same number of statements (no query per row)."""
    cal = _calendar("sqlite://")
    hall = cal.venues.create(venue="Hall")
    chef = cal.organizers.create(organizer="Chef")
    for n in range(20):
        _event(cal, n, venue=[hall.id], organizer=[chef.id], categories=["Music"], tags=["x"])
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend)

    def statements(per_page: int) -> list[str]:
        # A bulk load first: linked records are kept until the change journal names them
        # (``Context.get_linked``), and a bulk load, which the journal cannot itemise,
        # retires them all, so each page here reads them all.
        cal.events.bulk_create(
            [{"title": f"Later {per_page}", "start_date": "2035-01-01", "end_date": "2035-01-01"}]
        )
        seen: list[str] = []
        with backend.db.tracer(lambda sql, params: seen.append(sql)):
            page = cal.events.list(
                start_date="2031-01-01", end_date="2031-12-31", per_page=per_page
            )
            related = cal.events.related(page.items)
        assert per_page == len(page.items)
        assert [hall.id] == list(related.venues)
        # The total is counted once per data generation (events.py), or carried over new
        # events by reading the change journal (``kept_totals``): leave both out here.
        return [
            sql
            for sql in seen
            if sql.lstrip().upper().startswith("SELECT")
            and "count(*)" not in sql
            and "FROM changes" not in sql
        ]

    few, many = statements(2), statements(20)
    assert len(few) == len(many)
    assert 12 >= len(many)


def test_search_is_answered_by_the_trigram_index() -> None:
    """An event search of three letters or more goes through the FTS5 index."""
    cal = _calendar("sqlite://")
    _event(cal, 1)
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend)
    seen: list[str] = []
    with backend.db.tracer(lambda sql, params: seen.append(sql)):
        assert (
            1
            == cal.events.list(search="vent", start_date="2031-01-01", end_date="2031-12-31").total
        )
    assert any('"events_fts" MATCH' in sql for sql in seen)


class _FailsOnEvents(SQLiteBackend):
    """Fails the event insert itself, after the event's venue and terms were written."""

    def insert(self, records: Sequence[Record]) -> None:
        if any(isinstance(record, ec.Event) for record in records):
            raise Conflict("simulated failure")
        super().insert(records)


def test_a_failed_event_create_leaves_no_venue_or_category_behind() -> None:
    """Inline venue and new category are rolled back with the event that failed."""
    cal = ec.Calendar(_FailsOnEvents(), clock=ec.FixedClock(NOW))
    with pytest.raises(Conflict, match="simulated"):
        _event(cal, 1, venue={"venue": "Pop-up"}, categories=["Brand New"], tags=["t"])
    assert (0, 0, 0) == (
        cal.venues.list().total,
        cal.categories.list(hide_empty=False).total,
        cal.tags.list(hide_empty=False).total,
    )


def test_bulk_create_rolls_back_only_the_failing_batch(tmp_path: Path) -> None:
    """With ``atomic=False`` batches commit one by one; a storage failure undoes only its own
    batch, and the error says how many rows were committed."""
    calls = {"n": 0}

    class FailsThird(SQLiteBackend):
        """Writes the second batch's rows, then fails before its transaction commits."""

        def insert(self, records: Sequence[Record]) -> None:
            calls["n"] += 1
            super().insert(records)
            if calls["n"] == 2:
                raise Conflict("simulated failure")

    cal = ec.Calendar(
        FailsThird(tmp_path / "bulk.db"),
        clock=ec.FixedClock(NOW),
        settings=ec.Settings(bulk_batch_size=2),
    )
    rows = [
        {"title": f"Row {n}", "start_date": "2031-02-01 10:00", "end_date": "2031-02-01 11:00"}
        for n in range(4)
    ]
    with pytest.raises(BulkIncomplete) as caught:
        cal.events.bulk_create(rows, atomic=False)
    listed = cal.events.list(start_date="2031-01-01", end_date="2031-12-31")
    assert (["Row 0", "Row 1"], 2, Conflict) == (
        [e.title for e in listed.items],
        caught.value.committed,
        type(caught.value.__cause__),
    )


def test_bulk_create_with_a_bad_row_writes_nothing(tmp_path: Path) -> None:
    """Validation of every row happens before the first batch is written."""
    cal = _calendar(f"sqlite:///{tmp_path / 'bulk.db'}")
    rows = [
        {"title": "Good", "start_date": "2031-02-01", "end_date": "2031-02-01"},
        {"title": "Bad", "start_date": "never", "end_date": "2031-02-01"},
    ]
    with pytest.raises(InvalidParameter) as caught:
        cal.events.bulk_create(rows)
    assert ["rows[1].start_date"] == list(caught.value.fields)
    assert 0 == cal.events.list(start_date="2031-01-01", end_date="2031-12-31").total


def test_threads_share_one_file_safely(tmp_path: Path) -> None:
    """Eight threads creating events at once lose nothing and see no lock errors."""
    cal = _calendar(f"sqlite:///{tmp_path / 'threads.db'}")
    errors: list[BaseException] = []

    def work(worker: int) -> None:
        try:
            for n in range(15):
                _event(cal, worker * 100 + n, categories=[f"cat {worker % 3}"])
                cal.events.list(start_date="2031-01-01", end_date="2031-12-31")
        except BaseException as error:  # collected and asserted below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [] == errors
    assert 120 == cal.events.list(start_date="2031-01-01", end_date="2031-12-31").total


def _process_worker(path: str, worker: int, count: int) -> None:
    cal = ec.connect(f"sqlite:///{path}", clock=ec.FixedClock(NOW))
    for n in range(count):
        _event(cal, worker * 1000 + n, venue={"venue": f"Hall {worker}"})
    cal.close()


def test_processes_share_one_file_safely(tmp_path: Path) -> None:
    """Four processes writing one file at once all succeed and every row arrives."""
    path = str(tmp_path / "procs.db")
    ec.connect(f"sqlite:///{path}").close()  # created and migrated once
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_process_worker, args=(path, w, 25)) for w in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert [0, 0, 0, 0] == [w.exitcode for w in workers]
    with _calendar(f"sqlite:///{path}") as cal:
        assert 100 == cal.events.list(start_date="2031-01-01", end_date="2031-12-31").total
        assert 4 == cal.venues.list().total


def test_driver_errors_do_not_leak(tmp_path: Path) -> None:
    """A storage rule broken below the core surfaces as the library's Conflict."""
    backend = SQLiteBackend(tmp_path / "raw.db")
    cal = ec.Calendar(backend, clock=ec.FixedClock(NOW))
    gala = _event(cal, 1)
    with pytest.raises(Conflict, match=r"UNIQUE constraint failed: events\.slug") as caught:
        backend.insert([attrs.evolve(gala, id=999)])  # same slug, new id
    assert isinstance(caught.value.__cause__, sqlite3.IntegrityError)


def test_a_list_total_is_counted_once_per_data_generation() -> None:
    """Repeating a list reuses its total until a write commits; the next list counts again."""
    cal = _calendar("sqlite://")
    _event(cal, 1)
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend)
    window = {"start_date": "2031-01-01", "end_date": "2031-12-31"}

    def counts() -> int:
        seen: list[str] = []
        with backend.db.tracer(lambda sql, params: seen.append(sql)):
            cal.events.list(**window)
        return sum("count(*)" in sql for sql in seen)

    first, again = counts(), counts()
    _event(cal, 2)
    after_write = counts()
    totals = cal.events.list(**window).total
    assert (1, 0, 1, 2) == (first, again, after_write, totals)


def test_a_list_inside_a_transaction_sees_its_own_writes() -> None:
    """A cached total is never used while a transaction holds uncommitted writes."""
    cal = _calendar("sqlite://")
    _event(cal, 1)
    window = {"start_date": "2031-01-01", "end_date": "2031-12-31"}
    assert 1 == cal.events.list(**window).total
    with cal.backend.transaction():
        _event(cal, 2)
        inside = cal.events.list(**window).total
    assert (2, 2) == (inside, cal.events.list(**window).total)


def test_a_common_title_finds_its_free_slug_in_one_query() -> None:
    """The 31st "Open Day" asks storage once for taken slugs, not once per candidate."""
    cal = _calendar("sqlite://")

    def open_day() -> ec.Event:
        return cal.events.create(
            title="Open Day", start_date="2031-01-01 10:00", end_date="2031-01-01 12:00"
        )

    for _ in range(30):
        open_day()
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend)
    seen: list[str] = []
    with backend.db.tracer(lambda sql, params: seen.append(sql)):
        created = open_day()
    slug_queries = [sql for sql in seen if sql.startswith('SELECT slug FROM "events"')]
    assert ("open-day-31", 1) == (created.slug, len(slug_queries))


def test_a_file_with_a_newer_schema_is_refused(tmp_path: Path) -> None:
    """A migration this code does not know: a clear refusal, and the file is left as it was."""
    path = tmp_path / "newer.db"
    SQLiteBackend(path).close()
    raw = sqlite3.connect(path)
    raw.execute(
        "INSERT INTO _sqlite_migrations (migration_set, name, applied_at)"
        " VALUES ('events_calendar', '0099_from_the_future', '2031-01-01')"
    )
    raw.commit()
    raw.close()
    with pytest.raises(StorageUnavailable, match=r"schema is newer .* '0099_from_the_future'"):
        SQLiteBackend(path)


def test_an_up_to_date_file_opens_beside_another_writers_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening a file that needs no migration writes nothing, so it waits for no other
    process's open write transaction (a second connection holds it here): it opens at once
    and reads. Opening used to take the write lock first and fail after the busy timeout."""
    monkeypatch.setattr(sqlite_module, "BUSY_TIMEOUT_SECONDS", 3.0)
    path = tmp_path / "busy.db"
    with _calendar(f"sqlite:///{path}") as cal:
        event = _event(cal, 1)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # the write lock, held
        started = time.monotonic()
        with _calendar(f"sqlite:///{path}") as cal:
            assert "Event 1" == cal.events.get(event.id).title
        assert time.monotonic() - started < 1.5
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_a_file_to_migrate_waits_for_another_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file that does need writing on open (here its search indexes folded by another
    Unicode version) still takes the write lock, and says so when it stays held."""
    monkeypatch.setattr(sqlite_module, "BUSY_TIMEOUT_SECONDS", 0.5)
    path = tmp_path / "refold.db"
    SQLiteBackend(path).close()
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("UPDATE search_fold SET unicode = '6.1.0'")
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(Conflict, match="stayed locked"):
            SQLiteBackend(path)
        other.execute("ROLLBACK")
        SQLiteBackend(path).close()
        assert [(unicodedata.unidata_version,)] == other.execute(
            "SELECT unicode FROM search_fold"
        ).fetchall()
    finally:
        other.close()


def test_a_failed_migration_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Migrations apply in one transaction: when the last one fails, the file stays empty."""

    def broken(db: Database) -> None:
        db.execute("CREATE TABLE half_done (x INTEGER)")
        raise sqlite3.OperationalError("simulated failure")

    monkeypatch.setattr(sqlite_schema, "STEPS", [*sqlite_schema.STEPS, ("0099_broken", broken)])
    migrations.cache_clear()
    path = tmp_path / "failed.db"
    try:
        with pytest.raises(StorageUnavailable, match="simulated failure"):
            SQLiteBackend(path)
    finally:
        migrations.cache_clear()
    raw = sqlite3.connect(path)
    tables = raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    raw.close()
    assert [] == tables


def test_changing_dates_leaves_the_text_index_alone(tmp_path: Path) -> None:
    """Search still finds an event after its dates change, and by its new title only after
    a rename: the text index follows text updates and only them."""
    with _calendar(f"sqlite:///{tmp_path / 'cal.db'}") as cal:
        event = cal.events.create(
            title="Jazz night", start_date="2027-01-01 10:00", end_date="2027-01-01 11:00"
        )
        cal.events.update(event.id, start_date="2027-01-02 10:00", end_date="2027-01-02 11:00")
        cal.events.update(event.id, title="Rock night")
        found = [
            [e.title for e in cal.events.iter(search=word, start_date="2000-01-01")]
            for word in ("jazz", "rock")
        ]
        assert [[], ["Rock night"]] == found
