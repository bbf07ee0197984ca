"""PostgreSQL's event search reads the folded text PostgreSQL stores on every write
(migration 12), not the fold function run on each row, and its statements are planned for
their words each time: a common word was 10x slower once a connection had run the search
five times, whatever the word, accented or not. Venue and organizer searches read each
field's stored folded text too (migration 14)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import TypeVar

import psycopg
import pytest

import events_calendar as ec
from events_calendar.backends.memory import MemoryBackend
from events_calendar.backends.postgres import COPY_FROM, PostgresBackend, PostgresEngine
from events_calendar.backends.postgres_schema import FOLDED_TEXT, MIGRATIONS, folded_column
from events_calendar.backends.sql.schema import TABLES
from events_calendar.backends.sql.store import SQLStore
from events_calendar.queries import EVENT_SEARCH_FIELDS, LINKED_SEARCH_FIELDS, fold
from events_calendar.testing.contract_event_base import FOLDING_TEXTS, FOLDING_WORDS
from events_calendar.testing.postgres import TestDatabase, server_url, test_database

T = TypeVar("T")
NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
DAY = {"start_date": "2027-01-05 19:00", "end_date": "2027-01-05 21:00"}


@pytest.fixture
def backend() -> Iterator[PostgresBackend]:
    """A calendar on the shared test database, emptied; one pooled connection, so that
    every statement runs on the same one."""
    database = test_database()
    database.reset()
    backend = PostgresBackend(database.url, max_connections=1)
    yield backend
    backend.close()


def _calendar(backend: ec.Storage) -> ec.Calendar:
    return ec.Calendar(backend, clock=ec.FixedClock(NOW))


def _fill(cal: ec.Calendar) -> None:
    """The folding texts as titles, excerpts and descriptions."""
    for text in FOLDING_TEXTS:
        cal.events.create(title=text, **DAY)
        cal.events.create(title="Plain", excerpt=text, description=f"Une {text}", **DAY)


def _found(cal: ec.Calendar) -> dict[str, list[str]]:
    """Each folding word's hits: their titles, excerpts and descriptions."""
    return {
        word: sorted(
            f"{e.title}|{e.excerpt}|{e.description}"
            for e in cal.events.iter(search=word, start_date="2027-01-01")
        )
        for word in FOLDING_WORDS
    }


def _stored(engine: PostgresEngine) -> list[tuple[str, str]]:
    """Each event's stored folded text beside ``queries.fold`` of its search fields."""
    fields = ", ".join(f'"{f}"' for f in EVENT_SEARCH_FIELDS)
    rows = engine.execute(f'SELECT "{FOLDED_TEXT}", {fields} FROM events ORDER BY id').rows
    return [(row[0], fold("\n".join(row[1:]))) for row in rows]


def _search_plans(
    engine: PostgresEngine, table: str, fields: tuple[str, ...], word: str, *, together: bool
) -> list[str]:
    """The plans of a search of ``table`` for ``word``: for its word, then generic (as the
    server could keep for a prepared statement), the sequential scan ruled out."""
    where, params = engine.dialect.search(table, "r", fields, [fold(word)], together=together)
    plans = []
    for mode in ("force_custom_plan", "force_generic_plan"):
        with engine.transaction():
            engine.execute("SET LOCAL enable_seqscan = off")
            engine.execute(f"SET LOCAL plan_cache_mode = {mode}")
            prepared = f"SELECT r.id FROM {table} r WHERE {where}".replace("?", "$1")
            engine.execute(f"PREPARE searching (text) AS {prepared}")
            pattern = "'" + params[0].replace("'", "''") + "'"  # EXPLAIN binds no parameter
            rows = engine.execute(f"EXPLAIN (VERBOSE) EXECUTE searching({pattern})")
            engine.execute("DEALLOCATE searching")
        plans.append("\n".join(rows.first_column()))
    return plans


def test_an_event_search_folds_no_text_on_the_rows_it_reads(backend: PostgresBackend) -> None:
    """The plan of an event search, for its words or generic, reads the stored text from
    the trigram index and checks it: no ``search_fold`` call per row."""
    plans = _search_plans(backend.engine, "events", EVENT_SEARCH_FIELDS, "Café", together=True)
    assert [(True, False)] * 2 == [("events_search" in p, "search_fold" in p) for p in plans]


def test_the_folded_text_is_kept_on_every_write(backend: PostgresBackend) -> None:
    """An event created, updated, or loaded in bulk (``COPY``) stores its search fields'
    text folded as ``queries.fold`` folds it."""
    cal = _calendar(backend)
    gala = cal.events.create(title="ΟΔΟΣ Gala", excerpt="Café", description="Müller", **DAY)
    cal.events.create(title="İstanbul", **DAY)
    cal.events.update(gala.id, title="Ｃafé ǅ", description="ﬁn")
    rows = [
        {"title": f"{FOLDING_TEXTS[n % len(FOLDING_TEXTS)]} {n}", **DAY} for n in range(COPY_FROM)
    ]
    cal.events.bulk_create(rows)
    stored = _stored(backend.engine)
    assert (COPY_FROM + 2, []) == (len(stored), [s for s in stored if s[0] != s[1]])


def test_a_search_statement_is_never_prepared(backend: PostgresBackend) -> None:
    """A search run a dozen times on one connection is planned for its words each time:
    the server keeps no prepared statement of it (whose generic plan, blind to the words,
    read and sorted every match of a common one)."""
    cal = _calendar(backend)
    _fill(cal)
    for _ in range(12):
        cal.events.list(search="cafe", start_date="2027-01-01")
    prepared = backend.engine.execute(
        "SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%LIKE%'"
    ).first_column()
    assert [] == prepared


def _opened_after(
    before: int, fill: Callable[[ec.Calendar], None], read: Callable[[PostgresBackend], T]
) -> tuple[int, T]:
    """A database migrated up to migration ``before`` (not included), filled by ``fill``,
    then opened as this version opens it: its schema's version then, and what ``read``
    read."""
    database = TestDatabase(server_url(), migrate=False)
    try:
        older = PostgresEngine(
            database.url, migrations=[m for m in MIGRATIONS if m.version < before]
        )
        fill(_calendar(SQLStore(older)))
        older.close()
        backend = PostgresBackend(database.url)
        try:
            found = read(backend)
        finally:
            backend.close()
        with psycopg.connect(database.url) as connection:
            version = connection.execute("SELECT max(version) FROM schema_migrations").fetchone()
    finally:
        database.drop()
    return (version[0] if version else 0), found


def test_a_database_of_version_11_gets_the_stored_text_on_open() -> None:
    """Events written before migration 12 get their stored text as the database opens, and
    every folding word finds what it finds on the memory backend."""
    version, (found, stored) = _opened_after(
        12, _fill, lambda backend: (_found(_calendar(backend)), _stored(backend.engine))
    )
    memory = _calendar(MemoryBackend())
    _fill(memory)
    assert (MIGRATIONS[-1].version, 2 * len(FOLDING_TEXTS)) == (version, len(stored))
    assert [] == [s for s in stored if s[0] != s[1]]
    assert _found(memory) == found


#: Words of the linked records' own, beside the folding words.
PLACES = ("Zürich", "zurich", "café", "CAFE", "Genève", "geneve", "Ørsted")


def _fill_linked(cal: ec.Calendar) -> None:
    """Venues and organizers holding the folding texts and a few places, each in another
    search field."""
    texts = (*FOLDING_TEXTS, "Zürich Hall", "Café Genève", "Ørsted Plads")
    for n, text in enumerate(texts):
        cal.venues.create(venue=text, status="publish")
        cal.venues.create(venue=f"Venue {n}", city=text, description=f"In {text}", status="publish")
        cal.organizers.create(organizer=text, status="publish")
        cal.organizers.create(organizer=f"Org {n}", excerpt=text, status="publish")


def _found_linked(cal: ec.Calendar) -> dict[str, list[str]]:
    """Each word's venue and organizer hits, by name and city or excerpt."""
    return {
        f"{kind}:{word}": sorted(
            f"{r.name}|{getattr(r, 'city', '')}|{r.excerpt}"
            for r in getattr(cal, kind).iter(search=word, status=["publish"])
        )
        for kind in ("venues", "organizers")
        for word in (*FOLDING_WORDS, *PLACES)
    }


def test_a_venue_or_organizer_search_folds_no_text_on_the_rows_it_reads(
    backend: PostgresBackend,
) -> None:
    """The plan of a venue or organizer search, for its words or generic, reads each
    field's stored folded text from its trigram index: no ``search_fold`` call per row (it
    folded every field of every venue a search read)."""
    plans = []
    for kind in ("venue", "organizer"):
        table, fields = TABLES[kind], LINKED_SEARCH_FIELDS[kind]
        for plan in _search_plans(backend.engine, table, fields, "Zürich", together=False):
            indexes = [f"{table}_search_{field}" in plan for field in fields]
            plans.append((table, all(indexes), "search_fold" in plan))
    expected = [(t, True, False) for t in ("venues", "organizers") for _ in range(2)]
    assert expected == plans


def test_the_linked_folded_fields_are_kept_on_every_write(backend: PostgresBackend) -> None:
    """A venue or organizer created or updated stores each search field folded as
    ``queries.fold`` folds it."""
    cal = _calendar(backend)
    hall = cal.venues.create(venue="Zürich Hall", city="Genève", description="Café", zip="8001")
    cal.venues.update(hall.id, venue="ΟΔΟΣ İstanbul", address="Straße 1")
    cal.organizers.create(organizer="Ｃafé ǅ", email="x@example.org", phone="ﬁn")
    differing = []
    for kind in ("venue", "organizer"):
        fields = LINKED_SEARCH_FIELDS[kind]
        stored = ", ".join(f'"{folded_column(f)}"' for f in fields)
        plain = ", ".join(f'"{f}"' for f in fields)
        rows = backend.engine.execute(f"SELECT {stored}, {plain} FROM {TABLES[kind]}").rows
        for row in rows:
            half = len(fields)
            differing += [row for a, b in zip(row[:half], row[half:], strict=True) if a != fold(b)]
    assert [] == differing


def test_venue_and_organizer_searches_find_what_memory_finds(backend: PostgresBackend) -> None:
    """Every folding word and place name (``Zürich``, ``café`` ...) finds the venues and
    organizers it finds on the memory backend."""
    postgres, memory = _calendar(backend), _calendar(MemoryBackend())
    _fill_linked(postgres)
    _fill_linked(memory)
    found = _found_linked(postgres)
    assert found["venues:Zürich"] == found["venues:zurich"] != []
    assert _found_linked(memory) == found


def test_a_database_of_version_13_gets_the_linked_stored_text_on_open() -> None:
    """Venues and organizers written before migration 14 get their stored text as the
    database opens, and find what they find on the memory backend."""
    version, found = _opened_after(
        14, _fill_linked, lambda backend: _found_linked(_calendar(backend))
    )
    memory = _calendar(MemoryBackend())
    _fill_linked(memory)
    assert (MIGRATIONS[-1].version, _found_linked(memory)) == (version, found)
