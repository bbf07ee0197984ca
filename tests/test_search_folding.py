"""Search indexes hold text folded as ``queries.fold`` folds it (SQLite migrations 0016 and
0017, PostgreSQL migrations 8 and 11), so a search finds the same events on every backend
whichever path answers it; an older file's indexes are refilled folded, and refilled again
when the Unicode version that folded them is not this Python's."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

import events_calendar as ec
from events_calendar.backends import sqlite as sqlite_backend
from events_calendar.backends.postgres import PostgresBackend, PostgresEngine
from events_calendar.backends.postgres_schema import MIGRATIONS, search_text
from events_calendar.backends.sqlite import SEARCH_BATCH, SQLiteBackend
from events_calendar.backends.sqlite_schema import MIGRATION_SET, STEPS
from events_calendar.queries import EVENT_SEARCH_FIELDS, LINKED_SEARCH_FIELDS, fold
from events_calendar.testing.contract_event_base import FOLDING_TEXTS, FOLDING_WORDS
from events_calendar.testing.postgres import TestDatabase, server_url, test_database

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


def _calendar(backend: ec.Storage) -> ec.Calendar:
    return ec.Calendar(backend, clock=ec.FixedClock(NOW))


def _fill(cal: ec.Calendar) -> None:
    """Events the index holds (a bulk load) and events waiting for it, and venues."""
    rows = [
        {"title": text, "start_date": "2027-01-05 19:00", "end_date": "2027-01-05 21:00"}
        for text in FOLDING_TEXTS
    ]
    cal.events.bulk_create(rows)
    for row in rows:
        cal.events.create(**{**row, "title": f"{row['title']} again"})
    for text in FOLDING_TEXTS:
        cal.venues.create(venue=text)


def _found(cal: ec.Calendar) -> dict[str, tuple[list[str], list[str]]]:
    return {
        word: (
            sorted(e.title for e in cal.events.iter(search=word, start_date="2027-01-01")),
            sorted(v.venue for v in cal.venues.iter(search=word)),
        )
        for word in FOLDING_WORDS
    }


def _expected() -> dict[str, tuple[list[str], list[str]]]:
    return {
        word: (
            sorted(
                title
                for text in FOLDING_TEXTS
                for title in (text, f"{text} again")
                if fold(word) in fold(title)
            ),
            sorted(text for text in FOLDING_TEXTS if fold(word) in fold(text)),
        )
        for word in FOLDING_WORDS
    }


@pytest.fixture
def before_folding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A file written by the version before migration 0016, holding ``_fill``'s records."""
    path = tmp_path / "old.db"
    with _before(monkeypatch, "0016", refold_search_indexes=lambda execute: False):
        backend = SQLiteBackend(path)
        _fill(_calendar(backend))
        assert _expected() != _found(_calendar(backend))  # the index folded its own way
        backend.close()
    return path


@contextmanager
def _before(monkeypatch: pytest.MonkeyPatch, migration: str, **patches: Any) -> Iterator[None]:
    """SQLite files opened in the block are written by the version before ``migration``:
    its steps only, and the module's ``patches`` (how that version folded)."""
    steps = [(name, step) for name, step in STEPS if name < migration]
    old = Migrations(MIGRATION_SET)
    for name, step in steps:
        old(name=name)(step)
    with monkeypatch.context() as patched:
        patched.setattr(sqlite_backend, "STEPS", steps)
        patched.setattr(sqlite_backend, "migrations", lambda: old)
        for name, value in patches.items():
            patched.setattr(sqlite_backend, name, value)
        yield


def test_an_older_file_is_searched_as_every_backend_searches(before_folding: Path) -> None:
    """Opening a file from before migration 0016 refills its indexes folded: every search
    finds what ``queries.fold`` finds, on indexed and waiting events and on venues."""
    backend = SQLiteBackend(before_folding)
    try:
        assert _expected() == _found(_calendar(backend))
    finally:
        backend.close()


def test_the_indexes_are_refolded_when_the_unicode_version_changes(tmp_path: Path) -> None:
    """A file whose index text another Unicode version folded is re-indexed when opened,
    once, waiting events left waiting; later edits and deletes still reach the index."""
    path = tmp_path / "cal.db"
    backend = SQLiteBackend(path)
    _fill(_calendar(backend))
    backend.close()
    db = Database(path)
    db.execute("UPDATE search_fold SET unicode = '6.1.0'")
    for table in ("events", "venues", "organizers"):  # what a refill must restore
        db.execute(f"INSERT INTO [{table}_fts]([{table}_fts]) VALUES ('delete-all')")  # noqa: S608
    db.conn.commit()
    db.close()
    backend = SQLiteBackend(path)
    try:
        cal = _calendar(backend)
        assert _expected() == _found(cal)
        version = backend.engine.execute("SELECT unicode FROM search_fold").scalar()
        assert unicodedata.unidata_version == version
        for n in range(SEARCH_BATCH - len(FOLDING_TEXTS)):  # the waiting join the index
            cal.events.create(title=f"Single {n}", start_date="2027-01-06", end_date="2027-01-06")
        pending = backend.engine.execute("SELECT count(*) FROM events_search_pending").scalar()
        istanbul = [e for e in cal.events.iter(start_date="2027-01-01") if "İ" in e.title]
        for event in istanbul:
            cal.events.update(event.id, title="Ankara nights")
        assert (0, []) == (pending, [e.title for e in cal.events.iter(search="istanbul")])
        assert 2 == cal.events.list(search="ankara", start_date="2027-01-01").total
    finally:
        backend.close()


def test_postgres_folds_every_letter_as_python() -> None:
    """The text PostgreSQL searches is folded as ``queries.fold`` folds it, for every code
    point, for a sigma at a word's end and for accents, precomposed or combining."""
    database = test_database()
    database.reset()
    backend = PostgresBackend(database.url)
    try:
        letters = [chr(c) for c in range(1, 0x110000) if not 0xD800 <= c < 0xE000]
        column = backend.engine.dialect.fold("x")
        folded = backend.engine.execute(
            f"SELECT {column} FROM unnest(?::text[]) WITH ORDINALITY u(x, n) ORDER BY n",  # noqa: S608
            [letters],
        ).first_column()
        assert [fold(c) for c in letters] == folded
        one = backend.engine.dialect.fold("CAST(? AS text)")
        for text in ("ΟΔΟΣ ΣΑ İSTANBUL", "Ｃafe\u0301 Mu\u0308ller ﬁ ǅ", "AΣ\u0301 ｶﾞ 한"):
            assert fold(text) == backend.engine.execute(f"SELECT {one}", [text]).scalar()
    finally:
        backend.close()


@pytest.fixture
def before_accents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A file written by the version before migration 0017 (its indexes folded by
    ``str.lower``, accents kept), holding ``_fill``'s records."""
    path = tmp_path / "old.db"
    with _before(monkeypatch, "0017", fold=str.lower):  # the SQL function's folding
        backend = SQLiteBackend(path)
        _fill(_calendar(backend))
        backend.close()
    return path


def test_an_indexed_accent_is_found_without_it_after_migration_0017(before_accents: Path) -> None:
    """Opening a file whose indexes kept accents refills them folded without: ``cafe``
    finds the indexed ``Café`` as it finds the one waiting for the index, and later edits
    and deletes still reach the index."""
    backend = SQLiteBackend(before_accents)
    try:
        cal = _calendar(backend)
        assert _expected() == _found(cal)
        cafes = [e for e in cal.events.iter(start_date="2027-01-01") if "Müller" in e.title]
        for event in cafes:
            cal.events.update(event.id, title="Kaffeehaus")
        assert [] == [e.title for e in cal.events.iter(search="muller", start_date="2027-01-01")]
        assert 2 == cal.events.list(search="kaffeehaus", start_date="2027-01-01").total
    finally:
        backend.close()


def test_postgres_search_indexes_are_rebuilt_over_the_folded_text() -> None:
    """Migration 11 builds the trigram indexes over the text searches now read: a database
    migrated before it answers a search from its index, not by reading every row."""
    database = TestDatabase(server_url(), migrate=False)
    try:
        PostgresEngine(database.url, migrations=[m for m in MIGRATIONS if m.version < 11]).close()
        backend = PostgresBackend(database.url)
        try:
            _fill(_calendar(backend))
            assert _expected() == _found(_calendar(backend))
        finally:
            backend.close()
        searches = [("events", "events_search", EVENT_SEARCH_FIELDS)]
        searches += [("venues", f"venues_search_{f}", (f,)) for f in LINKED_SEARCH_FIELDS["venue"]]
        with psycopg.connect(database.url) as connection:
            connection.execute("SET enable_seqscan = off")
            for table, index, fields in searches:
                plan = connection.execute(
                    f"EXPLAIN SELECT id FROM {table} WHERE {search_text(table, fields)}"  # noqa: S608
                    " LIKE '%cafe%'"
                ).fetchall()
                assert index in " ".join(row[0] for row in plan)
    finally:
        database.drop()
