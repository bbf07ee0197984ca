"""Access contract: which records each caller lists and reads."""

from __future__ import annotations

import pytest

import events_calendar as ec
from events_calendar.errors import (
    Forbidden,
    InvalidParameter,
)

from .contract_access_base import (
    POST_KINDS,
    AccessContractBase,
    collection,
    create,
    forbidden,
    ids,
    list_all,
)
from .contract_record_base import make_event

__all__ = ["VisibilityContract"]


class VisibilityContract(AccessContractBase):
    """Who sees which statuses, in lists and record by record."""

    # == visibility: lists ====================================================================
    def _one_of_each_status(self, cal: ec.Calendar, kind: str) -> dict[str, int]:
        """Records of ``kind`` by an administrator in every status, keyed by status."""
        admin = self.user_cal(cal, "administrator", "boss")
        made = {
            status: create(admin, kind, f"Is {status}", status=status).id
            for status in ("publish", "future", "draft", "pending", "private")
        }
        trashed = create(admin, kind, "Is trash")
        collection(admin, kind).delete(trashed.id)
        made["trash"] = trashed.id
        return made

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_anonymous_lists_only_published(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """Anonymous callers list only published records."""
        made = self._one_of_each_status(cal, kind)
        assert [made["publish"]] == ids(list_all(anon, kind))

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_subscriber_lists_only_published(self, cal: ec.Calendar, kind: str) -> None:
        """Subscribers list only published records."""
        made = self._one_of_each_status(cal, kind)
        subscriber = self.user_cal(cal, "subscriber")
        assert [made["publish"]] == ids(list_all(subscriber, kind))

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_contributor_lists_others_published_and_their_own(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """Contributors list others' published records and their own in every status but
        the trash (issue 9: others' drafts, which a single read refuses, stay out of lists)."""
        made = self._one_of_each_status(cal, kind)
        contributor = self.user_cal(cal, "contributor")
        mine = create(contributor, kind, "Mine").id
        assert sorted([made["publish"], mine]) == sorted(ids(list_all(contributor, kind)))

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_author_lists_own_private(self, cal: ec.Calendar, kind: str) -> None:
        """A non-editor lists their own private records."""
        author = self.user_cal(cal, "author")
        mine = create(author, kind, "Mine", status="private")
        create(cal, kind, "Not mine", status="private")
        assert [mine.id] == ids(list_all(author, kind, status="private"))

    @pytest.mark.parametrize("role", ["editor", "administrator"])
    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_editors_list_everything_but_trash(
        self, cal: ec.Calendar, kind: str, role: str
    ) -> None:
        """Editors list every status but the trash, others' private records included."""
        made = self._one_of_each_status(cal, kind)
        editor = self.user_cal(cal, role)
        expected = sorted(v for s, v in made.items() if s != "trash")
        assert expected == sorted(ids(list_all(editor, kind)))

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_editor_lists_the_trash_on_request(self, cal: ec.Calendar, kind: str) -> None:
        """Editors see trashed records when they ask for the trash."""
        made = self._one_of_each_status(cal, kind)
        editor = self.user_cal(cal, "editor")
        assert [made["trash"]] == ids(list_all(editor, kind, status="trash"))

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_anonymous_may_filter_on_publish(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """Anonymous callers may ask for exactly ``publish``."""
        made = self._one_of_each_status(cal, kind)
        assert [made["publish"]] == ids(list_all(anon, kind, status="publish"))

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_subscriber_status_filter_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """Subscribers may not filter on unpublished statuses either."""
        subscriber = self.user_cal(cal, "subscriber")
        with pytest.raises(InvalidParameter, match="status"):
            list_all(subscriber, kind, status="draft")

    @pytest.mark.parametrize("kind", ["category", "tag"])
    def test_anonymous_reads_terms(self, cal: ec.Calendar, anon: ec.Calendar, kind: str) -> None:
        """Terms are public: anonymous callers read and list them."""
        term = create(cal, kind, "Music")
        assert (term, [term.id]) == (
            collection(anon, kind).get(term.id),
            ids(collection(anon, kind).list(hide_empty=False)),
        )

    # == visibility: single records ===========================================================
    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_anonymous_reads_published(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """Published records are public."""
        record = create(cal, kind, "Public")
        assert record == collection(anon, kind).get(record.id)

    @pytest.mark.parametrize("status", ["draft", "pending", "private", "future"])
    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_anonymous_cannot_read_unpublished(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str, status: str
    ) -> None:
        """Anonymous reads of unpublished records are ``<kind>-not-accessible`` (403)."""
        record = create(cal, kind, "Hidden", status=status)
        with pytest.raises(Forbidden, match="not accessible") as info:
            collection(anon, kind).get(record.id)
        assert (f"{kind}-not-accessible", 403) == forbidden(info.value)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_anonymous_cannot_read_a_draft_by_slug(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """Reading a draft through its slug is refused the same way."""
        record = create(cal, kind, "Hidden", status="draft")
        with pytest.raises(Forbidden, match="not accessible") as info:
            collection(anon, kind).get_by_slug(record.slug)
        assert (f"{kind}-not-accessible", 403) == forbidden(info.value)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_subscriber_cannot_read_a_draft(self, cal: ec.Calendar, kind: str) -> None:
        """Subscribers cannot read drafts."""
        record = create(cal, kind, "Hidden", status="draft")
        subscriber = self.user_cal(cal, "subscriber")
        with pytest.raises(Forbidden, match="not accessible") as info:
            collection(subscriber, kind).get(record.id)
        assert (f"{kind}-not-accessible", 403) == forbidden(info.value)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_contributor_reads_own_draft(self, cal: ec.Calendar, kind: str) -> None:
        """A contributor reads their own draft."""
        contributor = self.user_cal(cal, "contributor")
        record = create(contributor, kind, "Mine")
        assert record == collection(contributor, kind).get(record.id)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_contributor_cannot_read_others_draft(self, cal: ec.Calendar, kind: str) -> None:
        """A contributor cannot read another user's draft by id."""
        record = create(cal, kind, "Hidden", status="draft")
        contributor = self.user_cal(cal, "contributor")
        with pytest.raises(Forbidden, match="not accessible") as info:
            collection(contributor, kind).get(record.id)
        assert (f"{kind}-not-accessible", 403) == forbidden(info.value)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_author_cannot_read_others_private(self, cal: ec.Calendar, kind: str) -> None:
        """An author cannot read another user's private record."""
        record = create(cal, kind, "Hidden", status="private")
        author = self.user_cal(cal, "author")
        with pytest.raises(Forbidden, match="not accessible") as info:
            collection(author, kind).get(record.id)
        assert (f"{kind}-not-accessible", 403) == forbidden(info.value)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_editor_reads_others_draft(self, cal: ec.Calendar, kind: str) -> None:
        """Editors read everyone's drafts."""
        record = create(self.user_cal(cal, "author"), kind, "Theirs", status="draft")
        editor = self.user_cal(cal, "editor")
        assert record == collection(editor, kind).get(record.id)

    @pytest.mark.parametrize("kind", ["venue", "organizer"])
    def test_anonymous_cannot_read_a_trashed_record(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """A trashed venue or organizer is not accessible to anonymous callers."""
        record = create(cal, kind, "Gone")
        collection(cal, kind).delete(record.id)
        with pytest.raises(Forbidden, match="not accessible") as info:
            collection(anon, kind).get(record.id)
        assert (f"{kind}-not-accessible", 403) == forbidden(info.value)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_editor_reads_a_trashed_record(self, cal: ec.Calendar, kind: str) -> None:
        """Editors still read a trashed record by id (the reference answers 200)."""
        record = create(cal, kind, "Gone")
        trashed = collection(cal, kind).delete(record.id)
        editor = self.user_cal(cal, "editor")
        assert trashed == collection(editor, kind).get(record.id)

    def test_anonymous_reading_a_trashed_event_is_not_accessible(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """A trashed event read anonymously is ``event-not-accessible`` (403), as recorded."""
        event = make_event(cal, "Gone")
        cal.events.delete(event.id)
        with pytest.raises(Forbidden, match="not accessible") as info:
            anon.events.get(event.id)
        assert ("event-not-accessible", 403) == forbidden(info.value)
