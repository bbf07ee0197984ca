"""Access contract: password-protected events."""

from __future__ import annotations

import pytest

import events_calendar as ec
from events_calendar.errors import (
    Forbidden,
)

from .contract_access_base import (
    AccessContractBase,
    forbidden,
)
from .contract_record_base import make_event

__all__ = ["ProtectedEventContract"]


class ProtectedEventContract(AccessContractBase):
    """Protected events: the password opens them; lists blank them."""

    # == password-protected events ============================================================
    def _protected(self, cal: ec.Calendar, author: ec.Calendar | None = None) -> ec.Event:
        """A published event with a password, a venue, a category and some content."""
        hall = cal.venues.create(venue="Members Hall")
        return make_event(
            author or cal,
            "Members Only Evening",
            description="Secret agenda",
            excerpt="Members only",
            cost="25",
            website="https://members.example.org",
            venue=[hall.id],
            categories=["Club"],
            password="s3cret",
        )

    def test_protected_event_needs_the_password(self, cal: ec.Calendar, anon: ec.Calendar) -> None:
        """Reading a protected event without its password is ``event-password-protected``."""
        event = self._protected(cal)
        with pytest.raises(Forbidden, match="without a password") as info:
            anon.events.get(event.id)
        assert ("event-password-protected", 403) == forbidden(info.value)

    def test_protected_event_refuses_a_wrong_password(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """A wrong password is refused the same way."""
        event = self._protected(cal)
        with pytest.raises(Forbidden, match="without a password") as info:
            anon.events.get(event.id, password="wrong")
        assert ("event-password-protected", 403) == forbidden(info.value)

    def test_protected_event_opens_with_the_password(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """With the right password the whole event is returned."""
        event = self._protected(cal)
        opened = anon.events.get(event.id, password="s3cret")
        assert (event, "Secret agenda", False) == (opened, opened.description, opened.locked)

    def test_protected_event_by_slug_needs_the_password(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """Reading by slug enforces the password too."""
        event = self._protected(cal)
        with pytest.raises(Forbidden, match="without a password") as info:
            anon.events.get_by_slug(event.slug)
        assert ("event-password-protected", 403) == forbidden(info.value)

    def test_protected_event_by_slug_opens_with_the_password(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """The password opens the event read by slug."""
        event = self._protected(cal)
        assert event == anon.events.get_by_slug(event.slug, password="s3cret")

    @pytest.mark.parametrize("role", ["administrator", "editor"])
    def test_editors_need_the_password_too(self, cal: ec.Calendar, role: str) -> None:
        """Signed-in users, editors included, need the password (deviation ``pw_read_admin``)."""
        event = self._protected(cal)
        editor = self.user_cal(cal, role)
        with pytest.raises(Forbidden, match="without a password") as info:
            editor.events.get(event.id)
        assert ("event-password-protected", 403) == forbidden(info.value)

    def test_editor_opens_a_protected_event_with_the_password(self, cal: ec.Calendar) -> None:
        """The password opens a protected event for an editor as for anyone."""
        event = self._protected(cal)
        editor = self.user_cal(cal, "editor")
        assert event == editor.events.get(event.id, password="s3cret")

    def test_owner_needs_the_password_too(self, cal: ec.Calendar) -> None:
        """The author of a protected event reads it with the password only."""
        author = self.user_cal(cal, "author")
        event = self._protected(cal, author)
        with pytest.raises(Forbidden, match="without a password"):
            author.events.get(event.id)

    def test_full_access_reads_a_protected_event(self, cal: ec.Calendar) -> None:
        """The full-access calendar (the edit context of scripts) needs no password."""
        event = self._protected(cal)
        opened = cal.events.get(event.id)
        assert (event, "Secret agenda", False) == (opened, opened.description, opened.locked)

    def test_other_author_needs_the_password(self, cal: ec.Calendar) -> None:
        """Another author, who may not edit the event, needs the password."""
        event = self._protected(cal)
        author = self.user_cal(cal, "author")
        with pytest.raises(Forbidden, match="without a password"):
            author.events.get(event.id)

    def test_protected_event_is_blanked_in_lists(self, cal: ec.Calendar, anon: ec.Calendar) -> None:
        """Lists keep a protected event with its content blanked and ``locked`` set."""
        event = self._protected(cal)
        (item,) = anon.events.list().items
        expected = {
            "id": event.id,
            "title": "Members Only Evening",
            "slug": event.slug,
            "start_date": event.start_date,
            "description": "",
            "excerpt": "",
            "cost": "",
            "website": "",
            "image": "",
            "venue": (),
            "organizer": (),
            "categories": (),
            "tags": (),
            "locked": True,
        }
        assert expected == {name: getattr(item, name) for name in expected}

    def test_locked_list_item_does_not_carry_the_password(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """A blanked list item must not reveal the password it hides behind."""
        self._protected(cal)
        (item,) = anon.events.list().items
        assert "" == item.password

    def test_protected_event_is_blanked_in_an_editors_list(self, cal: ec.Calendar) -> None:
        """Editors list a protected event blanked too: a list is not an edit context."""
        self._protected(cal)
        editor = self.user_cal(cal, "editor")
        (item,) = editor.events.list().items
        assert (True, "", ()) == (item.locked, item.description, item.venue)

    def test_protected_event_is_whole_in_a_full_access_list(self, cal: ec.Calendar) -> None:
        """The full-access calendar lists a protected event unblanked."""
        event = self._protected(cal)
        (item,) = cal.events.list().items
        assert (event, False, "Secret agenda") == (item, item.locked, item.description)
