"""Linked records read for event pages are kept until the change journal names them
(``Context.get_linked``, ``journal_cache``): not read again while nothing touches them, never
shown stale after a write, here or through another connection, committed or rolled back."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

import events_calendar as ec
from events_calendar.backends.sqlite import SQLiteBackend
from events_calendar.changes import Change, Changes
from events_calendar.journal_cache import JournalCache
from sql_backends import CALENDAR_KINDS, calendar_url

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
WINDOW = {"start_date": "2031-01-01", "end_date": "2031-12-31"}


def _calendar(url: str) -> tuple[ec.Calendar, dict[str, int]]:
    cal = ec.connect(url, clock=ec.FixedClock(NOW))
    hall = cal.venues.create(venue="Hall")
    chef = cal.organizers.create(organizer="Chef")
    music = cal.categories.create(name="Music")
    cal.events.create(
        title="Gala", start_date="2031-05-01 19:00", end_date="2031-05-01 23:00",
        venue=[hall.id], organizer=[chef.id], categories=[music.id], tags=["Outdoor"],
    )  # fmt: skip
    return cal, {"hall": hall.id, "chef": chef.id, "music": music.id}


def test_a_second_page_of_unchanged_data_reads_no_linked_record() -> None:
    """With no write in between, the second ``related()`` runs no statement on the venue,
    organizer, category or tag tables."""
    cal, _ = _calendar("sqlite://")
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend)
    page = cal.events.list(**WINDOW)

    def linked_reads() -> list[str]:
        seen: list[str] = []
        with backend.db.tracer(lambda sql, params: seen.append(sql)):
            cal.events.related(page.items)
        tables = ('FROM "venues"', 'FROM "organizers"', 'FROM "categories"', 'FROM "tags"')
        return [sql for sql in seen if any(table in sql for table in tables)]

    assert (4, 0) == (len(linked_reads()), len(linked_reads()))


@pytest.mark.parametrize("kind", CALENDAR_KINDS)
def test_linked_records_changed_by_another_connection_are_read_afresh(
    kind: str, tmp_path: Path
) -> None:
    """A venue renamed, an organizer trashed and a category recounted through another
    calendar on the same data show in the next ``related()`` of the first one."""
    url = calendar_url(kind, tmp_path)
    cal, ids = _calendar(url)
    other = cal if kind == "memory" else ec.connect(url, clock=ec.FixedClock(NOW))
    page = cal.events.list(**WINDOW)
    before = cal.events.related(page.items)
    other.venues.update(ids["hall"], venue="Barn")
    other.organizers.delete(ids["chef"])
    other.events.create(
        title="Fair", start_date="2031-05-02 19:00", end_date="2031-05-02 23:00",
        categories=[ids["music"]],
    )  # fmt: skip
    after = cal.events.related(page.items)
    assert (("Hall", "publish", 1), ("Barn", "trash", 2)) == tuple(
        (r.venues[ids["hall"]].venue, r.organizers[ids["chef"]].status.value,
         r.categories[ids["music"]].count)
        for r in (before, after)
    )  # fmt: skip


@pytest.mark.parametrize("kind", CALENDAR_KINDS)
def test_inside_a_transaction_linked_records_are_its_own_and_a_rollback_leaves_none(
    kind: str, tmp_path: Path
) -> None:
    """A venue renamed inside a transaction shows inside it, and the old name after it
    rolls back: nothing read inside is kept."""
    cal, ids = _calendar(calendar_url(kind, tmp_path))
    page = cal.events.list(**WINDOW)
    names = [cal.events.related(page.items).venues[ids["hall"]].venue]
    with pytest.raises(LookupError), cal.transaction():  # noqa: PT012 - the rollback's cause
        cal.venues.update(ids["hall"], venue="Barn")
        names.append(cal.events.related(page.items).venues[ids["hall"]].venue)
        raise LookupError
    names.append(cal.events.related(page.items).venues[ids["hall"]].venue)
    assert ["Hall", "Barn", "Hall"] == names


def test_a_new_event_makes_a_page_read_again_only_the_terms_it_recounted() -> None:
    """After a new event in the category, the next ``related()`` reads the category (its
    count moved) and nothing else: the venue, organizer and tag are kept."""
    cal, ids = _calendar("sqlite://")
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend)
    page = cal.events.list(**WINDOW)
    cal.events.related(page.items)
    cal.events.create(
        title="Fair", start_date="2031-05-02 19:00", end_date="2031-05-02 23:00",
        categories=[ids["music"]],
    )  # fmt: skip
    seen: list[str] = []
    with backend.db.tracer(lambda sql, params: seen.append(sql)):
        related = cal.events.related(page.items)
    tables = ('FROM "venues"', 'FROM "organizers"', 'FROM "categories"', 'FROM "tags"')
    read = [table for sql in seen for table in tables if table in sql]
    assert (['FROM "categories"'], 2) == (read, related.categories[ids["music"]].count)


class _Storage:
    """A generation and a journal, set by the test."""

    def __init__(self) -> None:
        self.generation_now: object = 1
        self.entries: list[Change] = []
        self.horizon = 0

    def generation(self) -> object:
        return self.generation_now

    def changes(self, since: int | None) -> Changes:
        cursor = len(self.entries)
        if since is None:
            return Changes(cursor, None)
        return Changes.of(cursor, self.horizon, since, self.entries[since:])


def test_the_cache_retires_what_the_journal_names_and_keeps_the_rest() -> None:
    storage, cache = _Storage(), JournalCache[str]()
    view = cache.view(storage, 1)
    assert view is not None
    for key in (("venue", 1), ("venue", 2), ("category", 3)):
        cache.put(key, view, f"{key}")
    storage.entries += [Change("venue", 2, "update"), Change("event", 9, "insert")]
    storage.generation_now = 2
    assert view == cache.view(storage, 1)  # not caught up yet: generation 1 is still served
    later = cache.view(storage, 2)
    assert later is not None
    assert later != view
    assert cache.view(storage, 1) is None  # now older than the cache and the storage
    assert ["('venue', 1)", None, "('category', 3)"] == [
        cache.get(key) for key in (("venue", 1), ("venue", 2), ("category", 3))
    ]
    cache.put(("venue", 2), view, "read before the catch-up")  # refused: an older view
    assert cache.get(("venue", 2)) is None
    storage.entries.append(Change("*", 0, "update"))  # the journal cannot say what changed
    storage.generation_now = 3
    cache.view(storage, 3)
    assert cache.get(("venue", 1)) is None


def test_the_cache_gives_no_view_inside_a_write_transaction() -> None:
    """A backend's generation inside a transaction equals nothing: two readings differ."""

    class Writing(_Storage):
        def generation(self) -> object:
            return object()

    storage, cache = Writing(), JournalCache[str]()
    assert cache.view(storage, storage.generation()) is None


def test_a_catch_up_waiting_on_the_journal_holds_up_no_reader() -> None:
    """While one reader waits for the journal (a writer holds the store), a reader inside
    that writer's transaction gets its answer (no view) and stored records are served: no
    deadlock between the store's lock and the cache's."""
    reading, release = threading.Event(), threading.Event()

    class Slow(_Storage):
        def changes(self, since: int | None) -> Changes:
            reading.set()
            assert release.wait(10)
            return super().changes(since)

    storage, cache = Slow(), JournalCache[str]()
    release.set()
    view = cache.view(storage, 1)
    assert view is not None
    cache.put(("venue", 1), view, "Hall")
    release.clear()
    storage.generation_now = 2
    catching_up = threading.Thread(target=cache.view, args=(storage, 2))
    catching_up.start()
    assert reading.wait(10)
    storage.generation_now = object()  # as a writer inside its transaction reads it
    assert cache.view(storage, object()) is None
    assert "Hall" == cache.get(("venue", 1))
    release.set()
    catching_up.join(10)
    assert not catching_up.is_alive()
