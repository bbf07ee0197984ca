"""Linked records read for event pages are kept for one data generation (``Context.get_linked``):
not read again while nothing is written, never shown stale after a write."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

import events_calendar as ec
from events_calendar.backends.sqlite import SQLiteBackend

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


@pytest.mark.parametrize("kind", ["memory", "sqlite-file"])
def test_linked_records_changed_by_another_connection_are_read_afresh(
    kind: str, tmp_path: Path
) -> None:
    """A venue renamed, an organizer trashed and a category recounted through another
    calendar on the same data show in the next ``related()`` of the first one."""
    url = "memory://" if kind == "memory" else f"sqlite:///{tmp_path / 'cal.db'}"
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
