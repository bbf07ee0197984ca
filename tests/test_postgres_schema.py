"""PostgreSQL migrations and the triggers they install."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from events_calendar.backends.postgres import PostgresEngine
from events_calendar.backends.postgres_schema import MIGRATIONS, Migration
from events_calendar.errors import StorageUnavailable
from events_calendar.testing.postgres import TestDatabase, server_url, test_database


@pytest.fixture
def fresh() -> Iterator[TestDatabase]:
    """A new, empty database (not migrated)."""
    db = TestDatabase(server_url(), migrate=False)
    yield db
    db.drop()


def _tables(engine: PostgresEngine) -> list[str]:
    return engine.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1"
    ).first_column()


def _versions(engine: PostgresEngine) -> list[tuple[int, str]]:
    return [
        (row[0], row[1])
        for row in engine.execute("SELECT version, name FROM schema_migrations ORDER BY 1").rows
    ]


def test_migrations_create_every_table(fresh: TestDatabase) -> None:
    """Opening an empty database creates the whole schema."""
    engine = PostgresEngine(fresh.url)
    assert [
        "calendar_identity",
        "categories",
        "category_tree",
        "changes",
        "changes_horizon",
        "credentials",
        "data_generation",
        "event_block_counts",
        "event_categories",
        "event_day_counts",
        "event_organizers",
        "event_tags",
        "event_venues",
        "events",
        "import_keys",
        "link_day_counts",
        "organizers",
        "schema_migrations",
        "sequences",
        "slug_aliases",
        "tags",
        "users",
        "venues",
    ] == _tables(engine)
    engine.close()


def test_migrations_run_once(fresh: TestDatabase) -> None:
    """Opening a migrated database again applies nothing twice."""
    PostgresEngine(fresh.url).close()
    engine = PostgresEngine(fresh.url)
    assert [
        (1, "initial"),
        (2, "import_keys"),
        (3, "window_counts"),
        (4, "change_journal"),
        (5, "link_listing_index"),
        (6, "category_branch_counts"),
        (7, "calendar_identity"),
        (8, "search_indexes_fold_as_python"),
        (9, "name_keys_hashed"),
        (10, "anything_only_when_rows_change"),
        (11, "search_indexes_fold_accents"),
        (12, "event_search_text_stored"),
        (13, "links_read_from_an_index"),
        (14, "linked_search_text_stored"),
    ] == _versions(engine)
    engine.close()


def test_newer_schema_refuses_to_open(fresh: TestDatabase) -> None:
    """A database migrated by a newer version is refused with a clear message."""
    known = MIGRATIONS[-1].version
    engine = PostgresEngine(fresh.url)
    engine.execute(
        "INSERT INTO schema_migrations (version, name) VALUES (?, ?)", [known + 1, "future"]
    )
    engine.close()
    with pytest.raises(
        StorageUnavailable,
        match=rf"schema is at version {known + 1}, newer than this events-calendar knows"
        rf" \(version {known}\)",
    ):
        PostgresEngine(fresh.url)


def test_failed_migration_writes_nothing(fresh: TestDatabase) -> None:
    """A migration that fails leaves no table and no version behind."""
    next_version = MIGRATIONS[-1].version + 1
    broken = Migration(next_version, "broken", lambda: ["CREATE TABLE half (x int)", "SELECT nope"])
    with pytest.raises(StorageUnavailable, match='column "nope" does not exist'):
        PostgresEngine(fresh.url, migrations=(*MIGRATIONS, broken))
    engine = PostgresEngine(fresh.url)
    versions = [(m.version, m.name) for m in MIGRATIONS]
    assert (versions, False) == (
        _versions(engine),
        "half" in _tables(engine),
    )
    engine.close()


@pytest.fixture
def engine() -> Iterator[PostgresEngine]:
    db = test_database()
    db.reset()
    engine = PostgresEngine(db.url)
    yield engine
    engine.close()


def _event(engine: PostgresEngine, event_id: int, status: str) -> None:
    columns = {
        "id": event_id,
        "author": 1,
        "status": status,
        "slug": f"e{event_id}",
        "all_day": False,
        "show_map": False,
        "show_map_link": False,
        "hide_from_listings": False,
        "sticky": False,
        "featured": False,
        "post_parent": 0,
        "utc_start": 0,
        "utc_end": 0,
        "published": 0,
    }
    for text in ("date", "modified", "description", "excerpt", "image", "title", "start_date"):
        columns[text] = ""
    for text in ("end_date", "timezone", "cost", "password", "name_key"):
        columns[text] = ""
    names = ", ".join(columns)
    marks = ", ".join("?" * len(columns))
    engine.execute(f"INSERT INTO events ({names}) VALUES ({marks})", list(columns.values()))


def _count(engine: PostgresEngine) -> int:
    return int(engine.execute("SELECT count FROM categories WHERE id = 10").scalar())


@pytest.fixture
def linked(engine: PostgresEngine) -> PostgresEngine:
    """Category 10 linked to published event 1 and draft event 2."""
    engine.execute(
        "INSERT INTO categories (id, name, slug, description, parent, name_key)"
        " VALUES (10, 'Music', 'music', '', 0, 'music')"
    )
    _event(engine, 1, "publish")
    _event(engine, 2, "draft")
    engine.execute("INSERT INTO event_categories VALUES (1, 10, 0), (2, 10, 0)")
    return engine


def test_term_count_counts_published_links(linked: PostgresEngine) -> None:
    """A term's count is its linked published events."""
    assert 1 == _count(linked)


def test_term_count_follows_status_changes(linked: PostgresEngine) -> None:
    """Publishing the draft and unpublishing the other move the count."""
    linked.execute("UPDATE events SET status = 'publish' WHERE id = 2")
    published = _count(linked)
    linked.execute("UPDATE events SET status = 'trash' WHERE id IN (1, 2)")
    assert (2, 0) == (published, _count(linked))


def test_term_count_follows_event_delete(linked: PostgresEngine) -> None:
    """Deleting a published event lowers its terms' counts once."""
    deleted = linked.execute("DELETE FROM events WHERE id = 1").rowcount
    assert (1, 0) == (deleted, _count(linked))


def test_term_count_follows_unlinking(linked: PostgresEngine) -> None:
    """Removing a published event's link lowers the count; a draft's leaves it."""
    linked.execute("DELETE FROM event_categories WHERE event_id = 2")
    draft_gone = _count(linked)
    linked.execute("DELETE FROM event_categories WHERE event_id = 1")
    assert (1, 0) == (draft_gone, _count(linked))
