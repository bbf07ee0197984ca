"""Record contract: reading, updating and deleting venues and organizers."""

from __future__ import annotations

from datetime import timedelta

import pytest

import events_calendar as ec
from events_calendar.errors import (
    InTrash,
    InvalidParameter,
    NotFound,
)

from .base import NOW, ContractBase
from .contract_record_base import (
    LINKED_KINDS,
    at,
    ids,
    linked,
    links,
    make,
    make_event,
    snapshot,
)

__all__ = ["LinkedChangeContract"]


class LinkedChangeContract(ContractBase):
    """Venues and organizers: get, update and delete, by id and by slug."""

    # -- reading ---------------------------------------------------------------------------
    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_get_by_slug(self, cal: ec.Calendar, kind: str) -> None:
        """A record is found by its slug."""
        record = make(cal, kind, "Salle Pleyel")
        assert record == linked(cal, kind).get_by_slug("salle-pleyel")

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_get_by_slug_ignores_case(self, cal: ec.Calendar, kind: str) -> None:
        """A slug is looked up in lower case, as WordPress sanitises it."""
        record = make(cal, kind, "Salle Pleyel")
        assert record.id == linked(cal, kind).get_by_slug("Salle-Pleyel").id

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_get_unknown_id_is_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """An unknown id is ``NotFound`` with the reference's 400 ``rest_invalid_param``."""
        with pytest.raises(NotFound, match=f"no {kind} with ID 999999") as info:
            linked(cal, kind).get(999999)
        assert ("rest_invalid_param", 400, ["id"]) == (
            info.value.code,
            info.value.http_status,
            list(info.value.fields),
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_get_id_of_other_kind_is_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """The id of another kind of post is not a record of this kind."""
        other = make(cal, "organizer" if kind == "venue" else "venue", "Other")
        with pytest.raises(NotFound, match=f"no {kind} with ID") as info:
            linked(cal, kind).get(other.id)
        assert ("rest_invalid_param", 400) == (info.value.code, info.value.http_status)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_get_unknown_slug_is_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """An unknown slug is ``NotFound`` naming ``slug``."""
        with pytest.raises(NotFound, match="no-such-record") as info:
            linked(cal, kind).get_by_slug("no-such-record")
        assert ("rest_invalid_param", 400, ["slug"]) == (
            info.value.code,
            info.value.http_status,
            list(info.value.fields),
        )

    # -- updating --------------------------------------------------------------------------
    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_changes_only_given_fields(self, cal: ec.Calendar, kind: str) -> None:
        """An update changes the fields given and keeps every other one."""
        record = make(
            cal, kind, "Corner Pub", description="Pub", phone="555-0100", website="https://a.org"
        )
        updated = linked(cal, kind).update(record.id, phone="555-0199")
        expected = {"description": "Pub", "phone": "555-0199", "website": "https://a.org"}
        assert expected == {name: getattr(updated, name) for name in expected}

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_is_stored(self, cal: ec.Calendar, kind: str) -> None:
        """What ``update`` returns is what ``get`` reads back."""
        record = make(cal, kind, "Corner Pub")
        updated = linked(cal, kind).update(record.id, phone="555-0199", description="Pub")
        assert updated == linked(cal, kind).get(record.id)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_sets_modified(self, cal: ec.Calendar, clock: ec.FixedClock, kind: str) -> None:
        """An update moves ``modified`` to now and keeps the publication date."""
        record = make(cal, kind, "Corner Pub", date="2021-01-03 10:00:00")
        clock.advance(timedelta(hours=1))
        updated = linked(cal, kind).update(record.id, phone="555-0199")
        assert (at("2021-01-03 10:00:00"), NOW + timedelta(hours=1)) == (
            updated.date,
            updated.modified,
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_create_with_a_date_sets_modified_to_it(self, cal: ec.Calendar, kind: str) -> None:
        """A record created with a publication date was last modified then (venue_main)."""
        record = make(cal, kind, "Corner Pub", date="2021-01-03 10:00:00")
        assert at("2021-01-03 10:00:00") == record.modified

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_with_empty_text_clears_it(self, cal: ec.Calendar, kind: str) -> None:
        """An empty string clears an optional field."""
        record = make(cal, kind, "Corner Pub", phone="555-0100")
        assert "" == linked(cal, kind).update(record.id, phone="").phone

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_name_keeps_the_slug(self, cal: ec.Calendar, kind: str) -> None:
        """Renaming a record does not change its slug."""
        record = make(cal, kind, "Corner Pub")
        updated = linked(cal, kind).update(record.id, **{kind: "Corner Pub & Grill"})
        assert ("Corner Pub & Grill", "corner-pub") == (updated.name, updated.slug)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_to_an_existing_name_is_allowed(self, cal: ec.Calendar, kind: str) -> None:
        """A record may be renamed to the name of another record."""
        make(cal, kind, "Grand Hall")
        other = make(cal, kind, "Corner Pub")
        assert "Grand Hall" == linked(cal, kind).update(other.id, **{kind: "Grand Hall"}).name

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_by_slug(self, cal: ec.Calendar, kind: str) -> None:
        """A record can be updated through its slug."""
        record = make(cal, kind, "Salle Pleyel")
        updated = linked(cal, kind).update_by_slug("salle-pleyel", description="Historic hall")
        assert (record.id, "Historic hall") == (updated.id, updated.description)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_slug_renames(self, cal: ec.Calendar, kind: str) -> None:
        """Sending a slug renames the record's slug."""
        record = make(cal, kind, "Salle Pleyel")
        assert "pleyel" == linked(cal, kind).update(record.id, slug="Pleyel").slug

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_renamed_slug_keeps_resolving(self, cal: ec.Calendar, kind: str) -> None:
        """After a slug rename the former slug still finds the record."""
        record = make(cal, kind, "Salle Pleyel")
        linked(cal, kind).update(record.id, slug="pleyel")
        assert (record.id, "pleyel") == (
            linked(cal, kind).get_by_slug("salle-pleyel").id,
            linked(cal, kind).get_by_slug("pleyel").slug,
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_by_slug_can_rename_the_slug(self, cal: ec.Calendar, kind: str) -> None:
        """Renaming through the by-slug route works."""
        record = make(cal, kind, "Salle Pleyel")
        updated = linked(cal, kind).update_by_slug("salle-pleyel", slug="pleyel")
        assert (record.id, "pleyel") == (updated.id, updated.slug)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_to_a_taken_slug_gets_a_number(self, cal: ec.Calendar, kind: str) -> None:
        """A slug rename onto another record's slug gets ``-2`` and leaves that record alone."""
        taken = make(cal, kind, "Grand Hall")
        other = make(cal, kind, "Corner Pub")
        updated = linked(cal, kind).update(other.id, slug="grand-hall")
        assert ("grand-hall-2", taken.id) == (
            updated.slug,
            linked(cal, kind).get_by_slug("grand-hall").id,
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_with_empty_name_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """An empty name is refused on update and the record is unchanged."""
        record = make(cal, kind, "Corner Pub")
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match=kind) as info:
            linked(cal, kind).update(record.id, **{kind: ""})
        assert [kind] == list(info.value.fields)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_with_bad_field_changes_nothing(self, cal: ec.Calendar, kind: str) -> None:
        """One bad field fails the whole update: the good fields are not applied either."""
        record = make(cal, kind, "Corner Pub")
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="website") as info:
            linked(cal, kind).update(record.id, phone="555-0199", website="ftp://nope")
        assert ["website"] == list(info.value.fields)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_unknown_id_is_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """Updating an unknown id is ``NotFound`` (400 ``rest_invalid_param``)."""
        before = snapshot(cal)
        with pytest.raises(NotFound, match="999999") as info:
            linked(cal, kind).update(999999, phone="555")
        assert ("rest_invalid_param", 400) == (info.value.code, info.value.http_status)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_update_unknown_slug_is_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """Updating through an unknown slug is ``NotFound`` naming ``slug``."""
        make(cal, kind, "Corner Pub")
        before = snapshot(cal)
        with pytest.raises(NotFound, match="no-such-record") as info:
            linked(cal, kind).update_by_slug("no-such-record", phone="555")
        assert ["slug"] == list(info.value.fields)
        assert before == snapshot(cal)

    # -- deleting --------------------------------------------------------------------------
    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_delete_moves_to_trash(self, cal: ec.Calendar, kind: str) -> None:
        """Deleting returns the record in the trash with ``__trashed`` after its slug."""
        record = make(cal, kind, "Corner Pub")
        trashed = linked(cal, kind).delete(record.id)
        assert ("trash", "corner-pub__trashed") == (trashed.status, trashed.slug)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_delete_of_a_second_record_of_a_trashed_slug(self, cal: ec.Calendar, kind: str) -> None:
        """A record whose ``__trashed`` slug another trashed record holds goes to the trash
        under the next free one (it used to break the storage's unique slugs)."""
        first = make(cal, kind, "Corner Pub")
        linked(cal, kind).delete(first.id)
        second = make(cal, kind, "Corner Pub", slug="corner-pub")
        trashed = linked(cal, kind).delete(second.id)
        assert ("trash", "corner-pub__trashed-2") == (trashed.status, trashed.slug)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_leaving_the_trash_gives_the_slug_back(self, cal: ec.Calendar, kind: str) -> None:
        """An update out of the trash restores the slug the record had, as WordPress's
        ``wp_insert_post`` restores ``_wp_desired_post_slug``; the slug stayed
        ``corner-pub__trashed``, a slug no live record can hold."""
        record = make(cal, kind, "Corner Pub")
        linked(cal, kind).delete(record.id)
        back = linked(cal, kind).update(record.id, status="publish")
        assert ("publish", "corner-pub", record.id) == (
            back.status,
            back.slug,
            linked(cal, kind).get_by_slug("corner-pub").id,
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_a_slug_taken_meanwhile_is_numbered_on_leaving_the_trash(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """A live record that took the slug keeps it; the restored one takes the next free."""
        first = make(cal, kind, "Corner Pub")
        linked(cal, kind).delete(first.id)
        second = make(cal, kind, "Corner Pub")
        back = linked(cal, kind).update(first.id, status="draft")
        assert ("corner-pub", "corner-pub-2") == (
            linked(cal, kind).get(second.id).slug,
            back.slug,
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_a_record_made_in_the_trash_keeps_its_slug_on_leaving_it(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """A record created with the status ``trash`` holds its plain slug, as WordPress
        gives it; leaving the trash keeps it (it was renumbered against itself). A live
        record asking for that slug meanwhile takes it (``contract_trash_slugs``)."""
        first = make(cal, kind, "Corner Pub", status="trash")
        back = linked(cal, kind).update(first.id, status="publish")
        assert ("corner-pub", "corner-pub") == (first.slug, back.slug)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_delete_is_stored(self, cal: ec.Calendar, kind: str) -> None:
        """The trashed record reads back as ``delete`` returned it."""
        record = make(cal, kind, "Corner Pub")
        trashed = linked(cal, kind).delete(record.id)
        assert trashed == linked(cal, kind).get(record.id)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_trashed_record_leaves_the_default_list(self, cal: ec.Calendar, kind: str) -> None:
        """Trashed records are not listed unless the trash is asked for."""
        kept = make(cal, kind, "Grand Hall")
        gone = make(cal, kind, "Corner Pub")
        linked(cal, kind).delete(gone.id)
        assert ([kept.id], [gone.id]) == (
            ids(linked(cal, kind).list()),
            ids(linked(cal, kind).list(status="trash")),
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_trash_frees_the_slug(self, cal: ec.Calendar, kind: str) -> None:
        """A new record may take the slug of a trashed one."""
        record = make(cal, kind, "Corner Pub")
        linked(cal, kind).delete(record.id)
        assert "corner-pub" == make(cal, kind, "Corner Pub").slug

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_trashed_record_is_not_found_by_its_former_slug(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """After trashing, the former slug no longer resolves (the reference answers 400)."""
        record = make(cal, kind, "Corner Pub")
        linked(cal, kind).delete(record.id)
        with pytest.raises(NotFound, match="corner-pub") as info:
            linked(cal, kind).delete_by_slug("corner-pub")
        assert ("rest_invalid_param", 400, ["slug"]) == (
            info.value.code,
            info.value.http_status,
            list(info.value.fields),
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_delete_trashed_record_is_in_trash(self, cal: ec.Calendar, kind: str) -> None:
        """Deleting a trashed record again is ``InTrash`` (410) and changes nothing."""
        record = make(cal, kind, "Corner Pub")
        linked(cal, kind).delete(record.id)
        before = snapshot(cal)
        with pytest.raises(InTrash, match="force=True") as info:
            linked(cal, kind).delete(record.id)
        assert (f"{kind}-is-in-trash", 410) == (info.value.code, info.value.http_status)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_delete_by_slug(self, cal: ec.Calendar, kind: str) -> None:
        """A record can be trashed through its slug."""
        record = make(cal, kind, "Corner Pub")
        trashed = linked(cal, kind).delete_by_slug("corner-pub")
        assert (record.id, "trash") == (trashed.id, trashed.status)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_force_delete_removes_for_good(self, cal: ec.Calendar, kind: str) -> None:
        """``force=True`` removes the record: reading it is then ``NotFound``."""
        record = make(cal, kind, "Corner Pub")
        linked(cal, kind).delete(record.id, force=True)
        with pytest.raises(NotFound, match=str(record.id)):
            linked(cal, kind).get(record.id)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_force_delete_returns_the_record_as_it_was(self, cal: ec.Calendar, kind: str) -> None:
        """A forced delete returns the record as it was before removal."""
        record = make(cal, kind, "Corner Pub")
        assert record == linked(cal, kind).delete(record.id, force=True)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_force_delete_removes_a_trashed_record(self, cal: ec.Calendar, kind: str) -> None:
        """A trashed record can be removed for good with ``force=True``."""
        record = make(cal, kind, "Corner Pub")
        linked(cal, kind).delete(record.id)
        linked(cal, kind).delete(record.id, force=True)
        assert 0 == linked(cal, kind).list(status="trash").total

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_delete_unknown_id_is_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """Deleting an unknown id is ``NotFound`` (400 ``rest_invalid_param``)."""
        make(cal, kind, "Corner Pub")
        before = snapshot(cal)
        with pytest.raises(NotFound, match="999999") as info:
            linked(cal, kind).delete(999999)
        assert ("rest_invalid_param", 400) == (info.value.code, info.value.http_status)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_trashing_unlinks_events(self, cal: ec.Calendar, kind: str) -> None:
        """Events stop pointing at a trashed venue or organizer."""
        record = make(cal, kind, "Corner Pub")
        event = make_event(cal, "Pub Quiz", **links(kind, [record.id]))
        linked(cal, kind).delete(record.id)
        assert () == getattr(cal.events.get(event.id), kind)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_trashing_by_an_update_unlinks_events(self, cal: ec.Calendar, kind: str) -> None:
        """An update to the trash (``PATCH {"status": "trash"}``) unlinks as ``delete`` does;
        restoring it links nothing back, as after a delete."""
        record = make(cal, kind, "Corner Pub")
        event = make_event(cal, "Pub Quiz", **links(kind, [record.id]))
        linked(cal, kind).update(record.id, status="trash")
        assert () == getattr(cal.events.get(event.id), kind)
        linked(cal, kind).update(record.id, status="publish")
        assert () == getattr(cal.events.get(event.id), kind)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_force_delete_unlinks_events(self, cal: ec.Calendar, kind: str) -> None:
        """Events stop pointing at a removed venue or organizer."""
        record = make(cal, kind, "Corner Pub")
        event = make_event(cal, "Pub Quiz", **links(kind, [record.id]))
        linked(cal, kind).delete(record.id, force=True)
        assert () == getattr(cal.events.get(event.id), kind)

    def test_trashing_an_organizer_keeps_the_others(self, cal: ec.Calendar) -> None:
        """Only the trashed organizer leaves an event; the others keep their order."""
        first, second, third = (make(cal, "organizer", n) for n in ("Ann", "Bob", "Cy"))
        event = make_event(cal, "Panel", organizer=[third.id, first.id, second.id])
        cal.organizers.delete(first.id)
        assert (third.id, second.id) == cal.events.get(event.id).organizer
