"""The bulk-load contract: ``bulk_create`` ends where creating the rows one by one ends.

A backend may load in bulk however it likes (deferred indexes, ``COPY``, aggregates counted
once), so the check is against the specification: the same rows created one by one with
``create`` on the in-memory reference backend must list, filter, search and count alike.
Then the two contracts: atomic (a failure in a later batch leaves nothing) and
``atomic=False`` (whole batches commit, ``BulkIncomplete`` says how many).
"""

from __future__ import annotations

from typing import Any

import pytest

import events_calendar as ec
from events_calendar.backends.memory import MemoryBackend
from events_calendar.errors import BulkIncomplete, InvalidParameter

from .contract_event_base import RANGE, CalendarWith, EventContractBase, snapshot, titles

__all__ = ["BulkContract"]

_ZONES = ("Europe/Paris", "America/New_York", "UTC")
_STATUSES = ("publish", "publish", "draft", "publish", "private")


def _rows(count: int, *, first: int = 0) -> list[dict[str, Any]]:
    """Varied rows: zones, all-day, statuses, flags, new categories and tags by name, the
    two shared venues and organizers by id (1 and 2, 3 and 4), words to search for."""
    rows = []
    for n in range(first, first + count):
        row: dict[str, Any] = {
            "title": f"{('Jazz', 'Poetry', 'Film')[n % 3]} night {n % 4}",
            "start_date": f"2031-03-{n % 27 + 1:02d} {10 + n % 9}:{15 * (n % 4):02d}",
            "end_date": f"2031-03-{n % 27 + 1:02d} 20:00",
            "timezone": _ZONES[n % 3],
            "status": _STATUSES[n % 5],
            "featured": n % 4 == 0,
            "hide_from_listings": n % 11 == 5,
            "categories": [f"Genre {n % 3}"] + (["Kids"] if n % 5 == 1 else []),
            "tags": [f"tag-{n % 4}", "Weekly"][: 1 + n % 2],
            "venue": [1 + n % 2],
            "organizer": [3 + n % 2] if n % 3 else [],
            "description": f"Evening number {n} with {'saxophone' if n % 6 == 0 else 'piano'}",
            "cost": ("", "Free", "10 EUR")[n % 3],
        }
        if n % 7 == 3:
            row |= {"all_day": True, "start_date": "2031-03-20", "end_date": "2031-03-21"}
        rows.append(row)
    return rows


def _linked(cal: ec.Calendar) -> None:
    """The venues and organizers rows name by id (ids 1 to 4 on a fresh calendar)."""
    cal.venues.create(venue="Grand Hall")
    cal.venues.create(venue="Salle Pleyel")
    cal.organizers.create(organizer="Acme Events")
    cal.organizers.create(organizer="Jane Doe")


def _listings(cal: ec.Calendar) -> dict[str, Any]:
    """Every list filter an event list takes, and the terms with their counts."""
    queries: dict[str, dict[str, Any]] = {
        "all": {},
        "category": {"categories": ["genre-1"]},
        "two categories": {"categories": ["genre-0", "kids"]},
        "tag": {"tags": ["tag-2"]},
        "venue": {"venue": [2]},
        "organizer": {"organizer": [3]},
        "featured": {"featured": True},
        "search": {"search": "saxophone"},
        "search title": {"search": "poetry night"},
        "draft": {"status": "draft"},
        "private": {"status": "private"},
        "ends before": {"end_date": "2031-03-10"},
        "starts after": {"start_date": "2031-03-15", "end_date": "2031-12-31"},
    }
    categories = cal.categories.list(hide_empty=False, per_page=50).items
    tags = cal.tags.list(hide_empty=False, per_page=50).items
    # Term ids depend on the order terms are created in (categories and tags share one
    # sequence), which a batch changes; their slugs do not.
    slug = {t.id: t.slug for t in (*categories, *tags)}
    found: dict[str, Any] = {}
    for name, query in queries.items():
        page = cal.events.list(**(RANGE | query), per_page=50)
        found[name] = (
            page.total,
            [
                (
                    e.title,
                    e.slug,
                    e.utc_start_date,
                    [slug[i] for i in e.categories],
                    [slug[i] for i in e.tags],
                    e.venue,
                    e.organizer,
                )
                for e in page.items
            ],
        )
    found["categories"] = [(t.slug, t.count) for t in categories]
    found["tags"] = [(t.slug, t.count) for t in tags]
    return found


def _slugs(cal: ec.Calendar) -> list[tuple[int, str, int | None, int | None]]:
    """Every event's id and slug, and what its slug and its title's slug find."""
    found = []
    for event in cal.events.list(status=["publish", "trash"], per_page=50, **RANGE).items:
        by_title = ec.slugs.slugify(event.title)
        found.append((event.id, event.slug, _found(cal, event.slug), _found(cal, by_title)))
    return found


def _found(cal: ec.Calendar, slug: str) -> int | None:
    """The id ``get_by_slug`` finds (``None``: nothing, or a record in the trash)."""
    try:
        return cal.events.id_for_slug(slug)
    except ec.errors.NotFound:
        return None


class BulkContract(EventContractBase):
    """Bulk loads: like one-by-one creation, atomic, or stopping at a whole batch."""

    @pytest.fixture
    def reference(self, clock: ec.FixedClock) -> ec.Calendar:
        """The in-memory reference, on which rows are created one by one."""
        return ec.Calendar(MemoryBackend(), clock=clock)

    def _one_by_one(self, cal: ec.Calendar, rows: list[dict[str, Any]]) -> None:
        for row in rows:
            cal.events.create(**row)

    def test_bulk_into_an_empty_calendar_lists_like_one_by_one(
        self, calendar_with: CalendarWith, reference: ec.Calendar
    ) -> None:
        """Loaded into an empty calendar in several batches, every filter, search and term
        count answers what creating the rows one by one answers."""
        bulk = calendar_with(ec.Settings(bulk_batch_size=60))  # batches as large as COPY's
        for cal in (bulk, reference):
            _linked(cal)
        self._one_by_one(reference, _rows(130))
        bulk.events.bulk_create(_rows(130))
        assert _listings(reference) == _listings(bulk)

    def test_bulk_into_a_calendar_with_events_lists_like_one_by_one(
        self, calendar_with: CalendarWith, reference: ec.Calendar
    ) -> None:
        """Loaded beside events created before, every filter, search and term count
        answers what creating the rows one by one answers."""
        bulk = calendar_with(ec.Settings(bulk_batch_size=7))
        for cal in (bulk, reference):
            _linked(cal)
            self._one_by_one(cal, _rows(12))
        self._one_by_one(reference, _rows(30, first=12))
        bulk.events.bulk_create(_rows(30, first=12))
        assert _listings(reference) == _listings(bulk)

    def test_bulk_loaded_events_change_like_created_ones(
        self, calendar_with: CalendarWith, reference: ec.Calendar
    ) -> None:
        """After a bulk load, status changes, deletions and new links keep term counts and
        search as they keep them for events created one by one."""
        bulk = calendar_with(ec.Settings(bulk_batch_size=5))
        for cal in (bulk, reference):
            _linked(cal)
        self._one_by_one(reference, _rows(20))
        bulk.events.bulk_create(_rows(20))
        for cal in (bulk, reference):
            first, second, third = cal.events.list(**RANGE).items[:3]
            cal.events.update(first.id, status="draft", description="now with saxophone")
            cal.events.delete(second.id, force=True)
            cal.events.update(third.id, categories=["Genre 2", "Kids"])
        assert _listings(reference) == _listings(bulk)

    @pytest.mark.parametrize("size", [1, 2, 50])
    @pytest.mark.parametrize(
        "rows",
        [
            "trash:Gala live:Gala",
            "trash:Gala trash:Gala live:Gala live:Gala",
            "live:Gala trash:Gala",
            "trash:Gala live:Fair trash:Gala live:Gala live:Gala trash:Fair live:Fair",
            "trash:Held live:Held trash:Kept live:Kept trash:Live live:Live",
            "live:Live live:Live live:Live-2",
            "live:Gala live:Gala live:Gala-2 live:Gala-2-2 live:Gala-3",
            "trash:Live live:Live-2 live:Live",
            "trash:Live-2 live:Live live:Live-2",
            "live:Live-3 trash:Live live:Live trash:Live-3 live:Live-2",
            "live:Long live:Long live:Long",
        ],
    )
    def test_bulk_slugs_are_those_one_by_one_creates_give(
        self, calendar_with: CalendarWith, reference: ec.Calendar, rows: str, size: int
    ) -> None:
        """Rows created in the trash and live rows of one title, in one batch or across
        batches, beside stored trashed and live holders, end with the slugs creating them
        one by one gives: a live row takes the slug a row created in the trash took first,
        which moves to ``__trashed`` (a later batch numbered the live row ``gala-2``, one
        batch numbered the trashed row), and each slug and former slug finds the same
        record. A row asking for a numbered form of another row's base (``Live-2``) finds it
        taken when an earlier row was numbered to it (``live-2-2``; one batch handed out
        ``live-2`` twice, or numbered the earlier rows past it), and a long title is cut to
        make room for the number (``Long`` stands for a 200-character title)."""
        bulk = calendar_with(ec.Settings(bulk_batch_size=size))
        loaded = [
            {"title": title.replace("Long", "Long" * 50)}
            | {"status": "publish" if status == "live" else status}
            | {"start_date": "2031-01-01", "end_date": "2031-01-01"}
            for status, title in (pair.split(":") for pair in rows.split())
        ]
        for cal in (bulk, reference):
            for title, status in (("Held", "trash"), ("Live", "publish")):
                cal.events.create(title=title, status=status, **RANGE)
        made = [reference.events.create(**row).id for row in loaded]
        assert made == bulk.events.bulk_create(loaded)
        assert _slugs(reference) == _slugs(bulk)

    def test_atomic_failure_in_a_later_batch_leaves_nothing(
        self, calendar_with: CalendarWith
    ) -> None:
        """A bad row in the fifth batch, after four were written, leaves the calendar as it
        was: no event, no new category or tag, no count changed."""
        cal = calendar_with(ec.Settings(bulk_batch_size=2))
        _linked(cal)
        self._one_by_one(cal, _rows(3))
        before = snapshot(cal)
        rows = _rows(10, first=3)
        rows[8]["start_date"] = "not a date"
        with pytest.raises(InvalidParameter, match=r"rows\[8\]\.start_date"):
            cal.events.bulk_create(rows)
        assert before == snapshot(cal)

    def test_atomic_load_can_be_repeated_after_a_failure(self, calendar_with: CalendarWith) -> None:
        """After a failed load, the corrected rows load with the slugs a first try gets."""
        cal = calendar_with(ec.Settings(bulk_batch_size=2))
        rows = self.event_rows(5)
        rows[4]["end_date"] = "2031-01-01 00:00"
        with pytest.raises(InvalidParameter, match=r"rows\[4\]\.end_date"):
            cal.events.bulk_create(rows)
        ids = cal.events.bulk_create(self.event_rows(5))
        assert [f"row-{n}" for n in range(5)] == [cal.events.get(i).slug for i in ids]

    def _stopped(self, cal: ec.Calendar) -> BulkIncomplete:
        rows = self.event_rows(6)
        rows[3]["start_date"] = "not a date"
        with pytest.raises(BulkIncomplete) as caught:
            cal.events.bulk_create(rows, atomic=False)
        return caught.value

    def test_non_atomic_stop_reports_the_committed_rows(self, calendar_with: CalendarWith) -> None:
        """``atomic=False`` stopped by row 3 (second batch of two) reports 2 rows committed,
        their ids, the bad row's field and the cause."""
        cal = calendar_with(ec.Settings(bulk_batch_size=2))
        stopped = self._stopped(cal)
        listed = [e.id for e in cal.events.list(**RANGE).items]
        assert (2, listed, ["rows[3].start_date"], InvalidParameter, "bulk_incomplete") == (
            stopped.committed,
            stopped.ids,
            list(stopped.fields),
            type(stopped.__cause__),
            stopped.code,
        )

    def test_non_atomic_stop_keeps_whole_batches(self, calendar_with: CalendarWith) -> None:
        """``atomic=False`` keeps the batches before the bad row's, and nothing of its own."""
        cal = calendar_with(ec.Settings(bulk_batch_size=2))
        self._stopped(cal)
        assert ["Row 0", "Row 1"] == titles(cal.events.list(**RANGE))

    def test_non_atomic_load_stores_every_row(self, calendar_with: CalendarWith) -> None:
        """``atomic=False`` without a failure stores every row, in row order."""
        cal = calendar_with(ec.Settings(bulk_batch_size=2))
        ids = cal.events.bulk_create(self.event_rows(5), atomic=False)
        assert [f"Row {n}" for n in range(5)] == [cal.events.get(i).title for i in ids]

    def test_bulk_reads_a_generator_lazily(self, calendar_with: CalendarWith) -> None:
        """Rows from a generator are read a batch at a time; progress has no total."""
        cal = calendar_with(ec.Settings(bulk_batch_size=2))
        calls: list[tuple[int, int | None, int]] = []
        read: list[int] = []

        def rows() -> Any:
            for n, row in enumerate(self.event_rows(5)):
                read.append(n)
                yield row

        cal.events.bulk_create(
            rows(), progress=lambda done, total: calls.append((done, total, len(read)))
        )
        assert [(2, None, 2), (4, None, 4), (5, None, 5)] == calls
