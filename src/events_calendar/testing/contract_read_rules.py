"""Backend contract: one read rule for every place a record comes out (issue 9, item 2).

A record the caller may not read on its own (``Actor.can_read``: published, or theirs, or the
caller is an editor) must not come out of a list, a search, a count, an ``event=`` filter, a
link made by id or a record reused by name either. Each backend answers lists from normalised
filters, so these tests hold every backend to the same rule.
"""

from __future__ import annotations

from typing import Any

import pytest

import events_calendar as ec
from events_calendar.errors import InvalidParameter

from .base import ContractBase
from .contract_records import make_event

__all__ = ["ReadRulesContract"]

LINKED = ("venue", "organizer")


def _collection(cal: ec.Calendar, kind: str) -> Any:
    return {"event": cal.events, "venue": cal.venues, "organizer": cal.organizers}[kind]


def _make(cal: ec.Calendar, kind: str, name: str, **fields: Any) -> Any:
    if kind == "event":
        return make_event(cal, name, **fields)
    return _collection(cal, kind).create(**{kind: name}, **fields)


def _link(kind: str, record_id: int) -> dict[str, Any]:
    """Event fields linking the event to one venue or organizer."""
    return {kind: [record_id]}


def _ids(page: Any) -> list[int]:
    return sorted(record.id for record in page)


def _every_date(kind: str) -> dict[str, str]:
    return {"start_date": "1970-01-01", "end_date": "2099-12-31"} if kind == "event" else {}


class ReadRulesContract(ContractBase):
    """Lists, searches, filters and links never show what a single read refuses."""

    @pytest.mark.parametrize("status", ["draft", "pending", "future"])
    @pytest.mark.parametrize("role", ["contributor", "author"])
    @pytest.mark.parametrize("kind", ["event", *LINKED])
    def test_lists_hide_others_unpublished_records(
        self, cal: ec.Calendar, kind: str, role: str, status: str
    ) -> None:
        """``status=<unpublished>`` lists only the caller's own records of that status."""
        _make(cal, kind, "Theirs", status=status)
        caller = self.as_role(cal, role)
        mine = _make(caller, kind, "Mine", status="draft" if status == "future" else status)
        listed = _collection(caller, kind).list(status="any", **_every_date(kind))
        assert [mine.id] == [r.id for r in listed if r.status != ec.Status.PUBLISH]

    @pytest.mark.parametrize("role", ["contributor", "author"])
    def test_lists_hide_others_trash(self, cal: ec.Calendar, role: str) -> None:
        """``status=trash`` lists none of another user's trashed events."""
        cal.events.delete(make_event(cal, "Gone").id)
        caller = self.as_role(cal, role)
        page = caller.events.list(status="trash", start_date="1970-01-01", end_date="2099-12-31")
        assert (0, []) == (page.total, _ids(page))

    def test_editors_still_list_others_drafts(self, cal: ec.Calendar) -> None:
        """Editors read everyone's drafts, so they list them."""
        draft = make_event(cal, "Draft", status="draft")
        editor = self.as_role(cal, "editor")
        assert [draft.id] == _ids(editor.events.list(status="draft", start_date="1970-01-01"))

    def test_search_does_not_match_a_protected_events_hidden_text(self, cal: ec.Calendar) -> None:
        """An anonymous search for a word of a protected event's description finds nothing."""
        make_event(cal, "Gala", description="secretword inside", password="pw")
        page = cal.as_user(None).events.list(search="secretword")
        assert (0, []) == (page.total, _ids(page))

    def test_search_still_matches_a_protected_events_title(self, cal: ec.Calendar) -> None:
        """The title of a protected event is shown in lists, so it is searchable."""
        gala = make_event(cal, "Gala", description="secretword", password="pw")
        assert [gala.id] == _ids(cal.as_user(None).events.list(search="gala"))

    def test_full_access_searches_protected_text(self, cal: ec.Calendar) -> None:
        """The full-access calendar reads protected content, so its search matches it."""
        gala = make_event(cal, "Gala", description="secretword", password="pw")
        assert [gala.id] == _ids(cal.events.list(search="secretword"))

    @pytest.mark.parametrize("kind", ["category", "tag"])
    def test_terms_of_an_unreadable_event_are_not_listed(self, cal: ec.Calendar, kind: str) -> None:
        """``event=<draft id>`` on a term list is refused as an unknown event."""
        draft = make_event(cal, "Draft", status="draft")
        terms = cal.as_user(None).categories if kind == "category" else cal.as_user(None).tags
        with pytest.raises(InvalidParameter) as caught:
            terms.list(event=draft.id)
        assert ["event"] == list(caught.value.fields)

    @pytest.mark.parametrize("kind", LINKED)
    def test_links_of_an_unreadable_event_are_not_listed(self, cal: ec.Calendar, kind: str) -> None:
        """``event=<draft id>`` on a venue or organizer list answers like an unknown id."""
        draft = make_event(cal, "Draft", status="draft")
        with pytest.raises(InvalidParameter) as caught:
            _collection(cal.as_user(None), kind).list(event=draft.id)
        assert ["event"] == list(caught.value.fields)

    def test_terms_of_a_protected_event_are_not_listed(self, cal: ec.Calendar) -> None:
        """A password-protected event's categories are as hidden as its content."""
        locked = make_event(cal, "Locked", password="pw", categories=["Music"])
        with pytest.raises(InvalidParameter):
            cal.as_user(None).categories.list(event=locked.id)

    @pytest.mark.parametrize("kind", LINKED)
    def test_has_events_ignores_others_private_events(self, cal: ec.Calendar, kind: str) -> None:
        """A record linked only to a private event does not "have events" for the public."""
        record = _make(cal, kind, "Only private")
        make_event(cal, "Private", status="private", **_link(kind, record.id))
        listed = _collection(cal.as_user(None), kind).list(has_events=True)
        assert [] == _ids(listed)

    @pytest.mark.parametrize("kind", LINKED)
    def test_has_events_counts_the_callers_own_private_events(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """An author reads their own private events, so those count for them, and not for
        another author or a subscriber (nor do the full-access calendar's, authored by 0)."""
        mine, theirs, system = (_make(cal, kind, name) for name in ("Mine", "Theirs", "Sys"))
        author = self.as_role(cal, "author", "ann")
        other = self.as_role(cal, "author", "bob")
        make_event(author, "Mine", status="private", **_link(kind, mine.id))
        make_event(other, "Theirs", status="private", **_link(kind, theirs.id))
        make_event(cal, "Sys", status="private", **_link(kind, system.id))
        subscriber = self.as_role(cal, "subscriber", "sue")
        assert ([mine.id], [theirs.id], []) == tuple(
            _ids(_collection(who, kind).list(has_events=True))
            for who in (author, other, subscriber)
        )

    @pytest.mark.parametrize("kind", LINKED)
    def test_has_events_counts_private_events_for_editors(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """Editors read private events, so they count."""
        record = _make(cal, kind, "Only private")
        make_event(cal, "Private", status="private", **_link(kind, record.id))
        editor = self.as_role(cal, "editor")
        assert [record.id] == _ids(_collection(editor, kind).list(has_events=True))

    @pytest.mark.parametrize("status", ["future", "trash"])
    @pytest.mark.parametrize("kind", LINKED)
    def test_has_events_counts_scheduled_and_trashed_events_for_those_who_read_them(
        self, cal: ec.Calendar, kind: str, status: str
    ) -> None:
        """Another's scheduled or trashed event is as unreadable as a private one, so it
        makes no record "have events" for the public, a subscriber or another author; it
        does for its author and for editors, who may read it (the reference counts both)."""
        record = _make(cal, kind, "Annex")
        author = self.as_role(cal, "author", "ann")
        event = make_event(
            author,
            "Launch",
            status="future" if status == "future" else "publish",
            date="2031-01-01",
            **_link(kind, record.id),
        )
        if status == "trash":
            author.events.delete(event.id)
        viewers = (
            cal.as_user(None),
            self.as_role(cal, "subscriber", "sue"),
            self.as_role(cal, "author", "bob"),
            author,
            self.as_role(cal, "editor", "eve"),
        )
        assert [[], [], [], [record.id], [record.id]] == [
            _ids(_collection(who, kind).list(has_events=True)) for who in viewers
        ]

    @pytest.mark.parametrize("status", ["draft", "private"])
    @pytest.mark.parametrize("kind", LINKED)
    def test_an_unreadable_record_cannot_be_linked_by_id(
        self, cal: ec.Calendar, kind: str, status: str
    ) -> None:
        """A contributor linking someone's draft or private record by id hears "no such id"."""
        hidden = _make(cal, kind, "Hidden", status=status)
        contributor = self.as_role(cal, "contributor")
        with pytest.raises(InvalidParameter) as caught:
            make_event(contributor, "Mine", **_link(kind, hidden.id))
        assert [kind] == list(caught.value.fields)

    @pytest.mark.parametrize("kind", LINKED)
    def test_an_unreadable_record_is_not_reused_by_name(self, cal: ec.Calendar, kind: str) -> None:
        """Creating a record named like someone's draft makes a new one, not theirs."""
        hidden = _make(cal, kind, "Hidden", status="draft", phone="555")
        contributor = self.as_role(cal, "contributor")
        made = _make(contributor, kind, "Hidden")
        assert (True, "") == (made.id != hidden.id, made.phone)

    @pytest.mark.parametrize("kind", LINKED)
    def test_a_readable_record_is_still_reused_by_name(self, cal: ec.Calendar, kind: str) -> None:
        """A published record of the same name is reused, as the reference does."""
        shown = _make(cal, kind, "Shown")
        contributor = self.as_role(cal, "contributor")
        assert shown.id == _make(contributor, kind, "Shown").id
