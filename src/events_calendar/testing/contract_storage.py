"""What a new backend most needs to get right below the ``Calendar`` API: transactions that
nest and roll back, a generation that sees other connections' commits, concurrent writers, and
the database rules (unique slugs, typed reads).

Runs on the storage protocol directly. ``second_connection`` may open another connection to
the same database (another process or machine would see the data the same way); backends with
no such thing (in-process memory, a private in-memory SQLite) keep the default, the same
object.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime

import attrs
import pytest

import events_calendar as ec
from events_calendar.errors import Conflict
from events_calendar.storage import Backend

from .base import NOW, ContractBase

__all__ = ["StorageContract"]


def _venue(backend: Backend, name: str, *, slug: str | None = None) -> ec.Venue:
    """A new venue with a reserved id, not yet stored."""
    return ec.Venue(
        id=backend.reserve_ids("post")[0],
        venue=name,
        slug=slug or name.lower().replace(" ", "-"),
        date=NOW,
        modified=NOW,
    )


class StorageContract(ContractBase):
    """Transactions, generations and concurrency of a backend."""

    def second_connection(self, backend: Backend) -> Backend:
        """Another connection to the same database; by default the same object."""
        return backend

    @pytest.fixture
    def store(self) -> Iterator[Backend]:
        backend = self.make_backend()
        yield backend
        backend.close()  # a backend with a connection pool must not be left to the GC

    def test_a_failed_inner_transaction_keeps_the_outer_ones_writes(self, store: Backend) -> None:
        """A nested transaction that fails rolls back only its own writes."""

        def inner() -> None:
            with store.transaction():
                store.insert([_venue(store, "Dropped")])
                raise Conflict("undo the inner one")

        with store.transaction():
            store.insert([_venue(store, "Kept")])
            with pytest.raises(Conflict, match="undo the inner one"):
                inner()
        assert ["Kept"] == [v.venue for v in store.get_many(ec.Venue, range(1, 10)).values()]

    def test_a_failed_outer_transaction_undoes_its_committed_inner_ones(
        self, store: Backend
    ) -> None:
        """An inner transaction that finished is still undone with its outer one."""

        def outer() -> None:
            with store.transaction():
                with store.transaction():
                    store.insert([_venue(store, "Inner")])
                raise Conflict("undo everything")

        with pytest.raises(Conflict, match="undo everything"):
            outer()
        assert {} == store.get_many(ec.Venue, range(1, 10))

    def test_ids_committed_are_never_handed_out_again(self, store: Backend) -> None:
        """Reserved ids keep rising across transactions and deletes."""
        first = store.reserve_ids("post", 3)
        store.insert([_venue(store, "One")])
        store.remove("venue", max(store.get_many(ec.Venue, range(1, 10))))
        assert (range(1, 4), range(5, 7)) == (first, store.reserve_ids("post", 2))

    def test_generation_changes_when_another_connection_commits(self, store: Backend) -> None:
        """A cache keyed on ``generation()`` sees a write made through another connection."""
        other = self.second_connection(store)
        before, again = store.generation(), store.generation()
        other.insert([_venue(other, "Elsewhere")])
        after = store.generation()
        if other is not store:
            other.close()
        assert (True, False) == (before == again, before == after)

    def test_generation_inside_a_transaction_equals_nothing(self, store: Backend) -> None:
        """Nothing read inside an open transaction may be cached as current."""
        with store.transaction():
            assert store.generation() != store.generation()

    def test_an_id_another_post_holds_is_refused_and_nothing_stored(self, store: Backend) -> None:
        """Events, venues and organizers share one id sequence: an insert naming an id that a
        post of any of those kinds holds is a ``Conflict``, and no record of it is stored."""
        hall = _venue(store, "Hall")
        store.insert([hall])
        clash = ec.Event(
            id=hall.id,
            title="Clash",
            slug="clash",
            start_date=NOW,
            end_date=NOW,
            date=NOW,
            modified=NOW,
        )
        free = _venue(store, "Free")
        for records in ([clash], [free, attrs.evolve(_venue(store, "Twin"), id=hall.id)]):
            with pytest.raises(Conflict):
                store.insert(records)
        assert "venue" == store.post_kind(hall.id)
        assert {} == store.get_many(ec.Event, [hall.id])
        assert {} == store.get_many(ec.Venue, [free.id])
        assert {hall.id: "Hall"} == {
            i: v.venue for i, v in store.get_many(ec.Venue, [hall.id]).items()
        }

    def test_generation_nowait_is_the_generation_or_nothing(self, store: Backend) -> None:
        """Read without waiting, the generation is the one ``generation()`` gives, or
        ``None`` (the backend cannot say without waiting); never a value of its own."""
        store.insert([_venue(store, "Hall")])
        found = store.generation_nowait()
        assert found is None or found == store.generation()

    def test_the_journal_names_each_row_a_commit_touched(self, cal: ec.Calendar) -> None:
        """``changes`` after a cursor: the records written, the event whose links moved, and
        the terms whose stored counts moved; a rolled-back write journals nothing."""
        backend = cal.backend
        start = backend.changes(None)
        venue = cal.venues.create(venue="Hall")
        music = cal.categories.create(name="Music")
        when = {"start_date": "2031-06-01 10:00:00", "end_date": "2031-06-01 12:00:00"}
        event = cal.events.create(title="Gala", venue=venue.id, categories=[music.id], **when)
        created = backend.changes(start.cursor)

        def undone() -> None:
            with backend.transaction():
                cal.venues.create(venue="Undone")
                raise Conflict("roll back")

        with pytest.raises(Conflict):
            undone()
        cal.events.update(event.id, categories=[])
        moved = backend.changes(created.cursor)
        seen = {
            name: {(c.kind, c.record_id, c.op) for c in changes.records or ()}
            for name, changes in (("created", created), ("moved", moved))
        }
        assert {
            ("venue", venue.id, "insert"),
            ("category", music.id, "insert"),
            ("event", event.id, "insert"),
        } <= seen["created"]
        assert {("event", event.id, "update"), ("category", music.id, "update")} <= seen["moved"]
        assert not {c for c in seen["moved"] if c[0] == "venue"}  # the undone venue
        assert (None, True) == (start.records, created.cursor < moved.cursor)

    def test_the_journal_answers_anything_for_what_it_does_not_itemise(
        self, cal: ec.Calendar
    ) -> None:
        """A user added is not itemised (nor is a cursor from before the journal's horizon):
        the answer is "anything may have changed"."""
        backend = cal.backend
        start = backend.changes(None)
        cal.users.create("editor", role="editor")
        later = backend.changes(None)
        assert (None, (), None) == (
            backend.changes(start.cursor).records,
            backend.changes(later.cursor).records,
            backend.changes(-1).records,
        )

    def test_a_taken_slug_is_refused_and_writes_nothing(self, store: Backend) -> None:
        """Two venues with one slug: ``Conflict``, and the second is not stored."""
        store.insert([_venue(store, "Hall", slug="hall")])
        second = _venue(store, "Other Hall", slug="hall")
        with pytest.raises(Conflict):
            store.insert([second])
        assert {} == store.get_many(ec.Venue, [second.id])

    def test_slugs_starting_answers_every_slug_with_that_prefix(self, store: Backend) -> None:
        """The slugs a new ``gala`` would collide with, and no others."""
        for slug in ("gala", "gala-2", "galaxy", "gal", "fair"):
            store.insert([_venue(store, slug.title(), slug=slug)])
        assert {"gala", "gala-2", "galaxy"} == store.slugs_starting("venue", "gala")

    def test_a_former_slug_stays_with_the_first_record_to_leave_it(self, store: Backend) -> None:
        """A second record keeping the same former slug does not take it from the first."""
        first, second = _venue(store, "Hall", slug="new"), _venue(store, "Other", slug="other")
        store.insert([first, second])
        store.add_slug_alias("venue", first.id, "old")
        store.add_slug_alias("venue", second.id, "old")
        assert (first.id, {"old": first.id}) == (
            store.find_slug("venue", "old"),
            store.slug_aliases("venue"),
        )

    def test_get_many_answers_only_records_of_the_class_asked(self, store: Backend) -> None:
        """A venue id asked for as an organizer is absent, not a venue."""
        venue = _venue(store, "Hall")
        store.insert([venue])
        assert ({}, [venue.id]) == (
            store.get_many(ec.Organizer, [venue.id]),
            list(store.get_many(ec.Venue, [venue.id])),
        )

    def test_concurrent_writers_lose_nothing(self, store: Backend) -> None:
        """Four threads creating events with one title: every event stored, slugs unique."""
        cal = ec.Calendar(store, clock=ec.FixedClock(datetime(2026, 11, 22, tzinfo=UTC)))
        errors: list[BaseException] = []

        def work() -> None:
            try:
                for _ in range(10):
                    cal.events.create(
                        title="Open Day",
                        start_date="2031-03-01 10:00",
                        end_date="2031-03-01 11:00",
                        categories=["Talks"],
                    )
            except BaseException as error:  # collected and asserted below
                errors.append(error)

        threads = [threading.Thread(target=work) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        page = cal.events.list(start_date="2031-01-01", end_date="2031-12-31", per_page=50)
        slugs = {e.slug for e in page.items}
        talks = cal.categories.list().items
        assert ([], 40, 40, [40]) == (errors, page.total, len(slugs), [t.count for t in talks])

    def test_a_calendar_transaction_commits_many_writes_or_none(self, store: Backend) -> None:
        """``with cal.transaction()``: an error undoes every write made inside it."""
        cal = ec.Calendar(store, clock=ec.FixedClock(NOW))
        kept = cal.venues.create(venue="Kept Hall")

        def reschedule() -> None:
            with cal.transaction():
                cal.venues.update(kept.id, city="Lyon")
                cal.venues.create(venue="Second Hall")
                raise Conflict("undo both")

        with pytest.raises(Conflict, match="undo both"):
            reschedule()
        with cal.transaction():
            cal.venues.update(kept.id, city="Paris")
            cal.venues.create(venue="Third Hall")
        assert (["Kept Hall", "Third Hall"], "Paris") == (
            sorted(v.venue for v in cal.venues.list().items),
            cal.venues.get(kept.id).city,
        )
