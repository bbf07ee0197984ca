"""Record contract: ``update_many`` and ``delete_many`` (checked first, one transaction)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import events_calendar as ec
from events_calendar.errors import Forbidden, InTrash, InvalidParameter, NotFound

from .base import ContractBase
from .contract_record_base import (
    ALL_STATUSES,
    at,
    ids,
    link_field,
    linked,
    links,
    make,
    make_event,
    snapshot,
    terms,
)

__all__ = ["BulkChangesContract"]


def _everything(cal: ec.Calendar) -> list[ec.Event]:
    return list(
        cal.events.iter(start_date="1970-01-01", end_date="2099-12-31", status=ALL_STATUSES)
    )


class BulkChangesContract(ContractBase):
    """Bulk changes: every record checked before the first write; errors name the record."""

    @pytest.fixture
    def three(self, cal: ec.Calendar) -> list[ec.Event]:
        """Three events on consecutive days of March 2027."""
        return [make_event(cal, f"E{n}", start=f"2027-03-0{n + 1} 19:00:00") for n in range(3)]

    def test_update_many_reschedules_every_event(
        self, cal: ec.Calendar, three: list[ec.Event]
    ) -> None:
        """The same new dates for every event given, returned in the order of the ids."""
        order = [three[2].id, three[0].id, three[1].id]
        updated = cal.events.update_many(
            order, start_date="2027-05-01 10:00:00", end_date="2027-05-01 12:00:00"
        )
        assert (order, {at("2027-05-01 10:00:00")}) == (
            ids(updated),
            {cal.events.get(i).start_date for i in order},
        )

    def test_update_many_takes_a_filter(self, cal: ec.Calendar, three: list[ec.Event]) -> None:
        """A mapping of list filters changes every event it matches, and only those."""
        hall = make(cal, "venue", "Hall")
        cal.events.update(three[1].id, venue=[hall.id])
        cal.events.update_many({"venue": hall.id}, featured=True)
        assert [False, True, False] == [cal.events.get(e.id).featured for e in three]

    def test_update_many_names_an_unknown_id_and_changes_nothing(
        self, cal: ec.Calendar, three: list[ec.Event]
    ) -> None:
        """An unknown id is ``NotFound`` naming its position and id; nothing changes."""
        before = snapshot(cal)
        with pytest.raises(NotFound, match="ID 999999 ") as caught:
            cal.events.update_many([three[0].id, 999999], featured=True)
        assert (["ids[1]"], before) == (list(caught.value.fields), snapshot(cal))

    def test_an_id_given_twice_leaves_the_positions_of_the_others_as_given(
        self, cal: ec.Calendar, three: list[ec.Event]
    ) -> None:
        """Positions count in the ids as given, repeats included: an unknown id after a
        repeated one, or an event a change cannot take, is named where it was given."""
        first, last = three[0].id, three[2].id
        with pytest.raises(NotFound, match=r"\(ids\[2\]\)") as unknown:
            cal.events.update_many([first, first, 999999], featured=True)
        with pytest.raises(InvalidParameter) as bad:
            cal.events.update_many([first, first, last], end_date="2027-03-02 23:00:00")
        with pytest.raises(NotFound) as gone:
            cal.events.delete_many([last, last, last, 999999])
        assert (["ids[2]"], ["ids[2].end_date"], ["ids[3]"]) == (
            list(unknown.value.fields),
            list(bad.value.fields),
            list(gone.value.fields),
        )

    def test_update_many_checks_every_event_before_writing(
        self, cal: ec.Calendar, three: list[ec.Event]
    ) -> None:
        """An end that falls before one event's start refuses the whole change, naming it."""
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match=f"event {three[2].id}") as caught:
            cal.events.update_many(ids(three), end_date="2027-03-02 23:00:00")
        assert (["ids[2].end_date"], before) == (list(caught.value.fields), snapshot(cal))

    def test_update_many_names_a_record_the_caller_may_not_edit(
        self, cal: ec.Calendar, three: list[ec.Event]
    ) -> None:
        """A contributor changing someone else's event is refused, the event named."""
        author = self.as_role(cal, "author")
        own = make_event(author, "Mine")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match=rf"ID {three[0].id} \(ids\[1\]\)"):
            author.events.update_many([own.id, three[0].id], featured=True)
        assert before == snapshot(cal)

    def test_update_many_names_an_item_that_is_not_an_id(self, cal: ec.Calendar) -> None:
        """An item that is no id is refused by position."""
        with pytest.raises(InvalidParameter, match=r"ids\[1\]"):
            cal.events.update_many([1, "two"], featured=True)

    def test_update_many_refuses_one_bare_id(self, cal: ec.Calendar) -> None:
        """One id that is not in an iterable is refused: ``update()`` changes one record."""
        with pytest.raises(InvalidParameter, match="update\\(\\)"):
            cal.events.update_many(3, featured=True)

    @pytest.mark.parametrize("kind", ["event", "tag"])
    def test_delete_many_of_one_bare_id_points_at_delete(self, cal: ec.Calendar, kind: str) -> None:
        """The hint names the single-record call of the operation asked for: it said
        ``update()`` to a ``delete_many``."""
        collection = cal.events if kind == "event" else cal.tags
        with pytest.raises(InvalidParameter) as caught:
            collection.delete_many(3)
        assert ("delete()" in caught.value.fields["ids"], "update()" in str(caught.value)) == (
            True,
            False,
        )

    def test_update_many_of_no_ids_changes_nothing(self, cal: ec.Calendar) -> None:
        """An empty list of ids is an empty result."""
        assert [] == cal.events.update_many([], featured=True)

    def test_update_many_refuses_bad_changes_up_front(self, cal: ec.Calendar) -> None:
        """Changes that no record could take are refused even when no record is given."""
        with pytest.raises(InvalidParameter, match="featured"):
            cal.events.update_many([], featured="maybe")

    def test_update_many_refuses_a_slug(self, cal: ec.Calendar, three: list[ec.Event]) -> None:
        """A slug names one record: ``update_many(slug=...)`` is refused."""
        with pytest.raises(InvalidParameter, match="slug"):
            cal.events.update_many(ids(three), slug="same")

    def test_update_many_reports_progress(self, cal: ec.Calendar, three: list[ec.Event]) -> None:
        """A ``progress`` callable hears (done, total) after each written batch."""
        calls: list[tuple[int, int | None]] = []
        cal.events.update_many(
            ids(three), featured=True, progress=lambda d, t: calls.append((d, t))
        )
        assert [(3, 3)] == calls

    def test_update_many_inside_a_failed_transaction_is_undone(
        self, cal: ec.Calendar, three: list[ec.Event]
    ) -> None:
        """A bulk change inside ``cal.transaction()`` goes with the rest when it fails."""
        before = snapshot(cal)

        def change_then_fail() -> None:
            with cal.transaction():
                cal.events.update_many(ids(three), featured=True)
                cal.events.update(999999, featured=True)

        with pytest.raises(NotFound):
            change_then_fail()
        assert before == snapshot(cal)

    def test_update_many_changes_venues(self, cal: ec.Calendar) -> None:
        """Venues change in bulk too."""
        made = [make(cal, "venue", f"V{n}") for n in range(3)]
        cal.venues.update_many(ids(made), city="Lyon")
        assert ["Lyon"] * 3 == [cal.venues.get(v.id).city for v in made]

    def test_delete_many_trashes_every_event(self, cal: ec.Calendar, three: list[ec.Event]) -> None:
        """Without ``force`` the events go to the trash; their ids are returned."""
        assert ids(three) == cal.events.delete_many(ids(three))
        assert {ec.Status.TRASH} == {e.status for e in _everything(cal)}

    def test_delete_many_names_an_event_already_in_the_trash(
        self, cal: ec.Calendar, three: list[ec.Event]
    ) -> None:
        """An event already trashed refuses the whole delete, named; nothing changes."""
        cal.events.delete(three[1].id)
        before = snapshot(cal)
        with pytest.raises(InTrash, match=rf"ID {three[1].id} \(ids\[1\]\)"):
            cal.events.delete_many(ids(three))
        assert before == snapshot(cal)

    def test_delete_many_with_force_removes_for_good(
        self, cal: ec.Calendar, three: list[ec.Event]
    ) -> None:
        """``force=True`` removes the events, trashed or not."""
        cal.events.delete(three[1].id)
        cal.events.delete_many(ids(three), force=True)
        assert [] == _everything(cal)

    def test_delete_many_takes_the_next_free_trash_slug(self, cal: ec.Calendar) -> None:
        """An event whose ``__trashed`` slug another trashed event holds goes to the trash
        under the next free one, as ``delete`` does."""
        first = make_event(cal, "Gala")
        cal.events.delete(first.id)
        second = make_event(cal, "Gala")
        cal.events.delete_many([second.id])
        assert ("gala__trashed", "gala__trashed-2") == (
            cal.events.get(first.id).slug,
            cal.events.get(second.id).slug,
        )

    def test_update_many_out_of_the_trash_gives_each_its_slug_back(self, cal: ec.Calendar) -> None:
        """Events leaving the trash together take back their slugs, numbered where two had
        one (the second trashed ``Gala`` was ``gala__trashed-2``); a trashed event whose
        changes keep it in the trash keeps its trash slug."""
        first = make_event(cal, "Gala")
        cal.events.delete(first.id)
        second, kept = make_event(cal, "Gala"), make_event(cal, "Fair")
        cal.events.delete_many([second.id, kept.id])
        assert "gala__trashed-2" == cal.events.get(second.id).slug
        cal.events.update_many([first.id, second.id], status="publish")
        cal.events.update_many([kept.id], title="Fair again")
        assert ("gala", "gala-2", "fair__trashed") == (
            cal.events.get(first.id).slug,
            cal.events.get(second.id).slug,
            cal.events.get(kept.id).slug,
        )

    def test_delete_many_unlinks_trashed_venues(self, cal: ec.Calendar) -> None:
        """Events stop pointing at venues trashed in bulk, as with ``delete``."""
        halls = [make(cal, "venue", f"Hall {n}") for n in range(2)]
        event = make_event(cal, "Show", venue=ids(halls))
        cal.venues.delete_many(ids(halls))
        assert () == cal.events.get(event.id).venue

    def test_update_many_to_the_trash_unlinks_venues(self, cal: ec.Calendar) -> None:
        """Events stop pointing at venues trashed by ``update_many``, as by ``delete_many``;
        a venue already in the trash is left as it is."""
        halls = [make(cal, "venue", f"Hall {n}") for n in range(3)]
        event = make_event(cal, "Show", venue=ids(halls))
        cal.venues.update_many(ids(halls[:2]), status="trash")
        assert (halls[2].id,) == cal.events.get(event.id).venue

    @pytest.mark.parametrize("kind", ["category", "tag"])
    def test_delete_many_removes_terms(self, cal: ec.Calendar, kind: str) -> None:
        """Terms are removed in bulk; events lose them."""
        collection = cal.categories if kind == "category" else cal.tags
        made = [collection.create(name=f"T{n}") for n in range(3)]
        field = link_field(kind)
        event = make_event(cal, "Tagged", **links(field, ids(made)))
        assert ids(made[:2]) == collection.delete_many(ids(made[:2]))
        assert (ids(made[2:]), (made[2].id,)) == (
            ids(collection.list(hide_empty=False)),
            getattr(cal.events.get(event.id), field),
        )

    def test_delete_many_of_terms_names_an_unknown_id(self, cal: ec.Calendar) -> None:
        """An unknown term id removes nothing and is named."""
        tag = cal.tags.create(name="Kept")
        with pytest.raises(NotFound, match=r"ids\[1\]"):
            cal.tags.delete_many([tag.id, 999999])
        assert [tag.id] == ids(cal.tags.list(hide_empty=False))

    @pytest.mark.parametrize("order", [[0, 1], [1, 0]], ids=["top-first", "middle-first"])
    def test_delete_many_with_force_moves_the_children_up(
        self, cal: ec.Calendar, order: list[int]
    ) -> None:
        """Events named as ``post_parent`` and removed in bulk leave their children with
        the nearest parent that is kept (none here), in either order; the children stay
        editable, and the untouched branch keeps its parent."""
        top = make_event(cal, "Festival")
        middle = make_event(cal, "Day one", post_parent=top.id)
        child = make_event(cal, "Talk", post_parent=middle.id)
        kept = make_event(cal, "Kept")
        below_kept = make_event(cal, "Below kept", post_parent=kept.id)
        gone = [(top, middle)[n].id for n in order]
        assert gone == cal.events.delete_many(gone, force=True)
        assert (0, "Talk!", kept.id) == (
            cal.events.get(child.id).post_parent,
            cal.events.update(child.id, title="Talk!").title,
            cal.events.get(below_kept.id).post_parent,
        )

    @pytest.mark.parametrize("kind", ["event", "venue", "organizer"])
    def test_delete_many_refuses_a_force_that_is_not_a_boolean(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """``force="no"`` is ``InvalidParameter`` (``invalid_boolean``) naming ``force``,
        in bulk and one at a time, for every post kind: nothing is removed or trashed."""
        made = [make_event(cal, "E")] if kind == "event" else [make(cal, kind, "R")]
        collection: Any = cal.events if kind == "event" else linked(cal, kind)
        before = snapshot(cal)
        with pytest.raises(InvalidParameter) as in_bulk:
            collection.delete_many(ids(made), force="no")
        with pytest.raises(InvalidParameter) as alone:
            collection.delete(made[0].id, force="no")
        assert [{"force": "invalid_boolean"}] * 2 == [in_bulk.value.codes, alone.value.codes]
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", ["category", "tag"])
    def test_a_term_delete_without_force_is_refused_as_terms_have_no_trash(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """``force=False`` asks for the trash, which terms lack: refused, naming ``force``,
        by ``delete`` and ``delete_many`` alike, and the terms stay (``delete`` removed
        them for good all the same, and ``delete_many`` took no ``force`` at all). The
        default, and ``force=True``, remove them."""
        kept, gone = (terms(cal, kind).create(name=n) for n in ("Kept", "Gone"))
        refused = []
        attempts: list[Callable[[], object]] = [
            lambda: terms(cal, kind).delete(kept.id, force=False),
            lambda: terms(cal, kind).delete_many([kept.id], force=False),
        ]
        for attempt in attempts:
            with pytest.raises(InvalidParameter) as caught:
                attempt()
            refused.append(list(caught.value.fields))
        removed = terms(cal, kind).delete_many([gone.id], force=True)
        assert ([["force"], ["force"]], kept, [gone.id]) == (
            refused,
            terms(cal, kind).get(kept.id),
            removed,
        )

    @pytest.mark.parametrize("kind", ["category", "tag"])
    def test_term_delete_refuses_a_force_that_is_not_a_boolean(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """Terms are always removed for good, but a ``force`` that is not a boolean is
        still refused rather than read as a yes."""
        term = terms(cal, kind).create(name="Kept")
        with pytest.raises(InvalidParameter) as caught:
            terms(cal, kind).delete(term.id, force="no")
        assert ({"force": "invalid_boolean"}, term) == (
            caught.value.codes,
            terms(cal, kind).get(term.id),
        )
