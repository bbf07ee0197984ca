"""The event contract: reading, password protection and deleting."""

from __future__ import annotations

import pytest

import events_calendar as ec
from events_calendar.errors import (
    Forbidden,
    InTrash,
    NotFound,
    WrongKind,
)

from .contract_event_base import (
    RANGE,
    EventContractBase,
    span,
)

__all__ = ["EventReadContract"]


class EventReadContract(EventContractBase):
    """Reading, password protection and deleting events."""

    # == read ================================================================================
    def test_get_by_slug_finds_the_event(self, cal: ec.Calendar) -> None:
        """An event is found by its slug (evread_slug)."""
        event = self.add_event(cal, title="Bastille Day Picnic")
        assert event == cal.events.get_by_slug("bastille-day-picnic")

    @pytest.mark.parametrize(
        "asked",
        [
            "Bastille Day Picnic",
            "bastille.day.picnic",
            "Bastille-Day-Picnic!",
            "bastille--day-picnic-",
        ],
    )
    def test_a_slug_is_looked_up_as_slugs_are_made(self, cal: ec.Calendar, asked: str) -> None:
        """WordPress sanitises a requested slug before the lookup (lower case, ``.`` and
        spaces to ``-``, other signs dropped), so each of these finds the event, for reads
        and writes by slug alike; they were unknown slugs (only case and the spaces around
        were forgiven)."""
        event = self.add_event(cal, title="Bastille Day Picnic")
        renamed = cal.events.update_by_slug(asked, title="Picnic")
        assert (event.id, event.id) == (cal.events.get_by_slug(asked).id, renamed.id)

    def test_get_unknown_event_id_is_not_found(self, cal: ec.Calendar) -> None:
        """An id that names nothing is a 400 on id (evread_unknown)."""
        with pytest.raises(NotFound, match="Event with ID 999999 does not exist") as caught:
            cal.events.get(999999)
        assert ("rest_invalid_param", 400, ["id"]) == (
            caught.value.code,
            caught.value.http_status,
            list(caught.value.fields),
        )

    def test_get_of_event_id_zero_is_an_invalid_id(self, cal: ec.Calendar) -> None:
        """Id 0 is a 400 on id, like every other unknown id."""
        with pytest.raises(NotFound, match="Event with ID 0 does not exist") as caught:
            cal.events.get(0)
        assert ("rest_invalid_param", 400, ["id"]) == (
            caught.value.code,
            caught.value.http_status,
            list(caught.value.fields),
        )

    def test_get_unknown_slug_names_the_slug(self, cal: ec.Calendar) -> None:
        """An unknown slug is rest_invalid_param on slug (evread_unknown_slug)."""
        with pytest.raises(NotFound, match="no-such-event") as caught:
            cal.events.get_by_slug("no-such-event")
        assert ("rest_invalid_param", ["slug"]) == (caught.value.code, list(caught.value.fields))

    def test_get_of_a_venue_id_is_the_wrong_kind(self, cal: ec.Calendar) -> None:
        """A venue's id on the events collection is "not an event" (evread_venue_as_event)."""
        hall = cal.venues.create(venue="Grand Hall")
        with pytest.raises(WrongKind, match="not a valid event") as caught:
            cal.events.get(hall.id)
        assert ("rest_invalid_param", 400) == (caught.value.code, caught.value.http_status)

    @pytest.mark.parametrize("status", ["draft", "pending", "private", "future"])
    def test_anonymous_get_of_an_unpublished_event_is_refused(
        self, cal: ec.Calendar, anon: ec.Calendar, status: str
    ) -> None:
        """Anonymous callers may not read unpublished events (evread_draft_anon)."""
        event = self.add_event(cal, status=status)
        with pytest.raises(Forbidden, match="not accessible") as caught:
            anon.events.get(event.id)
        assert "event-not-accessible" == caught.value.code

    def test_full_access_reads_a_draft(self, cal: ec.Calendar) -> None:
        """A full-access caller reads drafts (evread_draft_admin)."""
        draft = self.add_event(cal, status="draft")
        assert draft == cal.events.get(draft.id)

    def test_hidden_event_can_still_be_read(self, cal: ec.Calendar, anon: ec.Calendar) -> None:
        """Hiding from listings does not hide the event itself."""
        market = self.add_event(cal, title="Winter Market", hide_from_listings=True)
        assert market == anon.events.get(market.id)

    # == passwords ===========================================================================
    def test_password_protected_event_is_refused_without_it(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """Reading a protected event without the password is refused (pw_read_anon deviation)."""
        event = self.add_event(cal, password="s3cret")
        with pytest.raises(Forbidden, match="password") as caught:
            anon.events.get(event.id)
        assert "event-password-protected" == caught.value.code

    def test_password_protected_event_is_refused_with_a_wrong_one(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """A wrong password is refused like none (pw_read_anon_bad deviation)."""
        event = self.add_event(cal, password="s3cret")
        with pytest.raises(Forbidden, match="password") as caught:
            anon.events.get_by_slug(event.slug, password="wrong")
        assert "event-password-protected" == caught.value.code

    def test_password_protected_event_is_read_with_it(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """The right password unlocks the event (pw_read_anon_good)."""
        event = self.add_event(cal, password="s3cret", description="Members only")
        read = anon.events.get(event.id, password="s3cret")
        assert ("Members only", False) == (read.description, read.locked)

    def test_password_is_enforced_for_administrators_too(self, cal: ec.Calendar) -> None:
        """An administrator reading without the password is refused (pw_read_admin deviation)."""
        event = self.add_event(cal, password="s3cret")
        admin = self.as_role(cal, "administrator")
        with pytest.raises(Forbidden, match="password") as caught:
            admin.events.get(event.id)
        assert "event-password-protected" == caught.value.code

    def test_password_protected_event_is_blanked_in_lists(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """Lists keep a protected event but blank its content (pw_list_anon deviation)."""
        hall = cal.venues.create(venue="Grand Hall")
        event = self.add_event(
            cal,
            title="Members Only Evening",
            password="s3cret",
            description="Secret",
            excerpt="Hush",
            cost="$30",
            venue=hall.id,
            categories=["Music"],
        )
        (listed,) = anon.events.list(**RANGE).items
        expected = ("Members Only Evening", span(event), "", "", "", "", (), (), True)
        actual = (
            listed.title,
            span(listed),
            listed.description,
            listed.excerpt,
            listed.cost,
            listed.password,
            listed.venue,
            listed.categories,
            listed.locked,
        )
        assert expected == actual

    def test_update_sets_a_password(self, cal: ec.Calendar, anon: ec.Calendar) -> None:
        """A password set by update protects the event from then on (evupd_password)."""
        event = self.add_event(cal)
        cal.events.update(event.id, password="s3cret")
        with pytest.raises(Forbidden, match="password"):
            anon.events.get(event.id)

    # == delete ==============================================================================
    def test_delete_moves_the_event_to_the_trash(self, cal: ec.Calendar) -> None:
        """Deleting trashes the event and suffixes its slug (del_ev)."""
        event = self.add_event(cal, title="Summer Gala")
        trashed = cal.events.delete(event.id)
        assert (event.id, "trash", "summer-gala__trashed") == (
            trashed.id,
            trashed.status,
            trashed.slug,
        )

    def test_full_access_reads_a_trashed_event(self, cal: ec.Calendar) -> None:
        """A trashed event is still readable with full access (del_ev_read_admin)."""
        event = self.add_event(cal, title="Summer Gala")
        trashed = cal.events.delete(event.id)
        assert trashed == cal.events.get(event.id)

    def test_anonymous_get_of_a_trashed_event_is_refused(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """Anonymous callers may not read a trashed event (del_ev_read_anon)."""
        event = self.add_event(cal)
        cal.events.delete(event.id)
        with pytest.raises(Forbidden, match="not accessible") as caught:
            anon.events.get(event.id)
        assert "event-not-accessible" == caught.value.code

    def test_delete_of_a_trashed_event_is_refused(self, cal: ec.Calendar) -> None:
        """Deleting a trashed event again is event-is-in-trash (del_ev_again)."""
        event = self.add_event(cal)
        cal.events.delete(event.id)
        with pytest.raises(InTrash, match="already in the trash") as caught:
            cal.events.delete(event.id)
        assert ("event-is-in-trash", 410, {}) == (
            caught.value.code,
            caught.value.http_status,
            caught.value.fields,
        )

    def test_force_delete_of_a_trashed_event_removes_it(self, cal: ec.Calendar) -> None:
        """``force=True`` removes a trashed event for good; it is then not found."""
        event = self.add_event(cal)
        cal.events.delete(event.id)
        removed = cal.events.delete(event.id, force=True)
        with pytest.raises(NotFound, match=f"Event with ID {event.id} does not exist") as caught:
            cal.events.get(event.id)
        assert (event.id, "rest_invalid_param") == (removed.id, caught.value.code)

    def test_force_delete_of_a_live_event_removes_it(self, cal: ec.Calendar) -> None:
        """``force=True`` on a live event skips the trash."""
        event = self.add_event(cal)
        removed = cal.events.delete(event.id, force=True)
        with pytest.raises(NotFound) as caught:
            cal.events.get(event.id)
        assert (event, "rest_invalid_param") == (removed, caught.value.code)

    def test_trashed_events_leave_the_default_list(self, cal: ec.Calendar) -> None:
        """Trashed events are listed only when the trash is asked for (del_ev_list_*)."""
        kept = self.add_event(cal, title="Kept")
        gone = self.add_event(cal, title="Gone")
        cal.events.delete(gone.id)
        default = cal.events.list(**RANGE)
        trash = cal.events.list(status="trash", **RANGE)
        assert ([kept.id], [gone.id]) == ([e.id for e in default], [e.id for e in trash])

    def test_trashing_frees_the_slug(self, cal: ec.Calendar) -> None:
        """A new event may take the slug of a trashed one."""
        old = self.add_event(cal, title="Summer Gala")
        cal.events.delete(old.id)
        new = self.add_event(cal, title="Summer Gala")
        assert ("summer-gala", new.id) == (new.slug, cal.events.get_by_slug("summer-gala").id)

    def test_delete_by_slug_trashes_the_event(self, cal: ec.Calendar) -> None:
        """An event can be trashed through its slug (del_ev_slug)."""
        event = self.add_event(cal, title="Gala Copy")
        trashed = cal.events.delete_by_slug("gala-copy")
        assert (event.id, "trash", "gala-copy__trashed") == (
            trashed.id,
            trashed.status,
            trashed.slug,
        )

    def test_slug_of_a_trashed_event_no_longer_resolves(self, cal: ec.Calendar) -> None:
        """After trashing, the old slug addresses nothing (del_ev_slug_again)."""
        self.add_event(cal, title="Gala Copy")
        cal.events.delete_by_slug("gala-copy")
        with pytest.raises(NotFound, match="gala-copy") as caught:
            cal.events.delete_by_slug("gala-copy")
        assert ("rest_invalid_param", ["slug"]) == (caught.value.code, list(caught.value.fields))

    def test_delete_unknown_event_id_is_not_found(self, cal: ec.Calendar) -> None:
        """Deleting an id that names nothing is a 400 on id (del_ev_unknown)."""
        with pytest.raises(NotFound) as caught:
            cal.events.delete(999999)
        assert ("rest_invalid_param", 400) == (caught.value.code, caught.value.http_status)

    def test_delete_of_a_venue_id_is_the_wrong_kind(self, cal: ec.Calendar) -> None:
        """Deleting a venue through events is refused as "not an event" and keeps it."""
        hall = cal.venues.create(venue="Grand Hall")
        with pytest.raises(WrongKind) as caught:
            cal.events.delete(hall.id)
        assert ("rest_invalid_param", hall) == (caught.value.code, cal.venues.get(hall.id))

    def test_anonymous_callers_may_not_delete_events(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """An anonymous delete is refused and the event stays (del_ev_anon)."""
        event = self.add_event(cal)
        with pytest.raises(Forbidden) as caught:
            anon.events.delete(event.id)
        assert ("rest_forbidden", 401, event) == (
            caught.value.code,
            caught.value.http_status,
            cal.events.get(event.id),
        )
