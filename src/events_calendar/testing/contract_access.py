"""Backend contract: who may do what, who sees what, passwords and users.

The role rules are the reference's (The Events Calendar on WordPress): administrators and editors
may change anyone's records; authors create, publish, edit and delete their own; contributors
create and edit their own until they are published and cannot publish (``publish`` is scaled back
to ``pending``, the default is ``draft``); subscribers and anonymous callers only read. Categories
need an author, tags an editor. Anonymous writes are ``Forbidden`` with status 401, writes by a
signed-in user without the right 403. Every refused write must leave the calendar unchanged.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import events_calendar as ec
from events_calendar.errors import (
    AuthenticationFailed,
    Forbidden,
    InvalidParameter,
    MissingParameter,
    NotFound,
)
from events_calendar.http.errors import status_of

from .base import ContractBase
from .contract_records import make_event, snapshot

__all__ = ["AccessContract"]

POST_KINDS = ("event", "venue", "organizer")
ALL_KINDS = (*POST_KINDS, "category", "tag")
ROLES = ("administrator", "editor", "author", "contributor", "subscriber")


def collection(cal: ec.Calendar, kind: str) -> Any:
    """The collection of ``kind`` on ``cal``."""
    return {
        "event": cal.events,
        "venue": cal.venues,
        "organizer": cal.organizers,
        "category": cal.categories,
        "tag": cal.tags,
    }[kind]


def create(cal: ec.Calendar, kind: str, name: str, **fields: Any) -> Any:
    """Create a record of ``kind`` named ``name`` (events get a date in 2027)."""
    if kind == "event":
        return make_event(cal, name, **fields)
    if kind in ("category", "tag"):
        return collection(cal, kind).create(name=name, **fields)
    return collection(cal, kind).create(**{kind: name}, **fields)


def name_change(kind: str) -> dict[str, str]:
    """A harmless update for ``kind``."""
    return {"title" if kind == "event" else "description": "Changed"}


def list_all(cal: ec.Calendar, kind: str, **params: Any) -> Any:
    """One page listing records of a post kind (events over every date)."""
    if kind == "event":
        params = {"start_date": "1970-01-01", "end_date": "2099-12-31", **params}
    return collection(cal, kind).list(per_page=50, **params)


def ids(records: Any) -> list[int]:
    return [record.id for record in records]


def forbidden(error: Forbidden) -> tuple[str, int]:
    return (error.code, status_of(error))


class AccessContract(ContractBase):
    """Roles, visibility, password-protected events and users, one behaviour per test."""

    def user_cal(self, cal: ec.Calendar, role: str, login: str | None = None) -> ec.Calendar:
        """``cal`` acting for a new user with ``role``."""
        return self.as_role(cal, role, login)

    # == anonymous callers ====================================================================
    @pytest.mark.parametrize("kind", ALL_KINDS)
    def test_anonymous_create_is_unauthorized(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """An anonymous create is ``Forbidden`` with status 401 and stores nothing."""
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="anonymous callers may not") as info:
            create(anon, kind, "Anon")
        assert ("rest_forbidden", 401) == forbidden(info.value)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", ALL_KINDS)
    def test_anonymous_update_is_unauthorized(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """An anonymous update is ``Forbidden`` (401) and changes nothing."""
        record = create(cal, kind, "Public")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="anonymous callers may not") as info:
            collection(anon, kind).update(record.id, **name_change(kind))
        assert ("rest_forbidden", 401) == forbidden(info.value)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", ALL_KINDS)
    def test_anonymous_delete_is_unauthorized(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """An anonymous delete is ``Forbidden`` (401) and changes nothing."""
        record = create(cal, kind, "Public")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="anonymous callers may not") as info:
            collection(anon, kind).delete(record.id)
        assert ("rest_forbidden", 401) == forbidden(info.value)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", ALL_KINDS)
    def test_anonymous_update_of_unknown_id_is_invalid(self, anon: ec.Calendar, kind: str) -> None:
        """The id is validated before the right to write is checked, as the reference
        validates arguments before permissions (fact sheet section 2): a 400, not a 401."""
        with pytest.raises(NotFound, match="999999") as info:
            collection(anon, kind).update(999999, **name_change(kind))
        assert ("rest_invalid_param", 400) == (info.value.code, status_of(info.value))

    @pytest.mark.parametrize("kind", ALL_KINDS)
    def test_anonymous_delete_of_unknown_id_is_invalid(self, anon: ec.Calendar, kind: str) -> None:
        """Deleting an unknown id anonymously is ``NotFound`` (400 ``rest_invalid_param``), as
        in the reference's VenueDeletionCest and CategoryDeletionCest (fact sheet section 2)."""
        with pytest.raises(NotFound, match="999999") as info:
            collection(anon, kind).delete(999999)
        assert ("rest_invalid_param", 400) == (info.value.code, status_of(info.value))

    @pytest.mark.parametrize("kind", ALL_KINDS)
    def test_anonymous_create_with_bad_input_is_invalid(self, anon: ec.Calendar, kind: str) -> None:
        """Missing required fields are reported before the anonymous caller is refused."""
        with pytest.raises(MissingParameter):
            collection(anon, kind).create()

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_contributor_update_of_unknown_id_is_not_found(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """A caller who may write this kind learns that the id does not exist."""
        contributor = self.user_cal(cal, "contributor")
        with pytest.raises(NotFound, match="999999"):
            collection(contributor, kind).update(999999, **name_change(kind))

    @pytest.mark.parametrize("kind", ["venue", "organizer"])
    def test_anonymous_update_by_slug_is_unauthorized(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """An anonymous update through a slug is ``Forbidden`` (401)."""
        record = create(cal, kind, "Public")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="anonymous callers may not") as info:
            collection(anon, kind).update_by_slug(record.slug, phone="0")
        assert ("rest_forbidden", 401) == forbidden(info.value)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", ["venue", "organizer"])
    def test_anonymous_delete_by_slug_is_unauthorized(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """An anonymous delete through a slug is ``Forbidden`` (401)."""
        record = create(cal, kind, "Public")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="anonymous callers may not") as info:
            collection(anon, kind).delete_by_slug(record.slug)
        assert ("rest_forbidden", 401) == forbidden(info.value)
        assert before == snapshot(cal)

    # == subscribers ==========================================================================
    @pytest.mark.parametrize("kind", ALL_KINDS)
    def test_subscriber_cannot_create(self, cal: ec.Calendar, kind: str) -> None:
        """A subscriber's create is ``Forbidden`` with status 403."""
        subscriber = self.user_cal(cal, "subscriber")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="your role may not") as info:
            create(subscriber, kind, "Mine")
        assert ("rest_forbidden", 403) == forbidden(info.value)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_subscriber_cannot_edit(self, cal: ec.Calendar, kind: str) -> None:
        """A subscriber may not edit a published record."""
        record = create(cal, kind, "Public")
        subscriber = self.user_cal(cal, "subscriber")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="your role may not") as info:
            collection(subscriber, kind).update(record.id, **name_change(kind))
        assert ("rest_forbidden", 403) == forbidden(info.value)
        assert before == snapshot(cal)

    # == contributors =========================================================================
    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_contributor_creates_drafts_by_default(self, cal: ec.Calendar, kind: str) -> None:
        """A contributor's record is a draft unless another status is asked for."""
        contributor = self.user_cal(cal, "contributor")
        assert "draft" == create(contributor, kind, "Mine").status

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_contributor_is_the_author(self, cal: ec.Calendar, kind: str) -> None:
        """A record created by a user has that user as its author."""
        contributor = self.user_cal(cal, "contributor")
        assert contributor.user is not None
        assert contributor.user.id == create(contributor, kind, "Mine").author

    @pytest.mark.parametrize("status", ["publish", "future"])
    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_contributor_publish_is_scaled_back_to_pending(
        self, cal: ec.Calendar, kind: str, status: str
    ) -> None:
        """A contributor asking to publish (or schedule) gets ``pending``."""
        contributor = self.user_cal(cal, "contributor")
        assert "pending" == create(contributor, kind, "Mine", status=status).status

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_contributor_may_ask_for_pending(self, cal: ec.Calendar, kind: str) -> None:
        """A contributor may submit a record for review."""
        contributor = self.user_cal(cal, "contributor")
        assert "pending" == create(contributor, kind, "Mine", status="pending").status

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_contributor_edits_own_draft(self, cal: ec.Calendar, kind: str) -> None:
        """A contributor may edit their own draft."""
        contributor = self.user_cal(cal, "contributor")
        record = create(contributor, kind, "Mine")
        updated = collection(contributor, kind).update(record.id, description="Better")
        assert ("Better", "draft") == (updated.description, updated.status)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_contributor_update_to_publish_is_pending(self, cal: ec.Calendar, kind: str) -> None:
        """A contributor publishing their draft by update gets ``pending``."""
        contributor = self.user_cal(cal, "contributor")
        record = create(contributor, kind, "Mine")
        assert "pending" == collection(contributor, kind).update(record.id, status="publish").status

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_contributor_deletes_own_draft(self, cal: ec.Calendar, kind: str) -> None:
        """A contributor may trash their own draft."""
        contributor = self.user_cal(cal, "contributor")
        record = create(contributor, kind, "Mine")
        assert "trash" == collection(contributor, kind).delete(record.id).status

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_contributor_cannot_edit_own_published(self, cal: ec.Calendar, kind: str) -> None:
        """Once published, a contributor's own record is out of their hands (403)."""
        contributor = self.user_cal(cal, "contributor")
        record = create(contributor, kind, "Mine")
        collection(cal, kind).update(record.id, status="publish")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="your role may not edit") as info:
            collection(contributor, kind).update(record.id, description="Better")
        assert ("rest_forbidden", 403) == forbidden(info.value)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_contributor_cannot_delete_own_published(self, cal: ec.Calendar, kind: str) -> None:
        """A contributor may not trash their own published record (403)."""
        contributor = self.user_cal(cal, "contributor")
        record = create(contributor, kind, "Mine")
        collection(cal, kind).update(record.id, status="publish")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="your role may not delete") as info:
            collection(contributor, kind).delete(record.id)
        assert ("rest_forbidden", 403) == forbidden(info.value)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_contributor_cannot_edit_others_draft(self, cal: ec.Calendar, kind: str) -> None:
        """A contributor may not edit another user's draft (403)."""
        admin = self.user_cal(cal, "administrator")
        record = create(admin, kind, "Theirs", status="draft")
        contributor = self.user_cal(cal, "contributor")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="your role may not edit") as info:
            collection(contributor, kind).update(record.id, description="Mine now")
        assert ("rest_forbidden", 403) == forbidden(info.value)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_contributor_cannot_delete_others(self, cal: ec.Calendar, kind: str) -> None:
        """A contributor may not trash another user's record (403)."""
        admin = self.user_cal(cal, "administrator")
        record = create(admin, kind, "Theirs")
        contributor = self.user_cal(cal, "contributor")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="your role may not delete") as info:
            collection(contributor, kind).delete(record.id)
        assert ("rest_forbidden", 403) == forbidden(info.value)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", ["category", "tag"])
    def test_contributor_cannot_create_terms(self, cal: ec.Calendar, kind: str) -> None:
        """Contributors may not create categories or tags (403)."""
        contributor = self.user_cal(cal, "contributor")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="your role may not") as info:
            create(contributor, kind, "Mine")
        assert ("rest_forbidden", 403) == forbidden(info.value)
        assert before == snapshot(cal)

    # == authors ==============================================================================
    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_author_publishes_by_default(self, cal: ec.Calendar, kind: str) -> None:
        """An author's record is published unless another status is asked for."""
        author = self.user_cal(cal, "author")
        assert "publish" == create(author, kind, "Mine").status

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_author_gets_the_status_asked_for(self, cal: ec.Calendar, kind: str) -> None:
        """An author may create a draft."""
        author = self.user_cal(cal, "author")
        assert "draft" == create(author, kind, "Mine", status="draft").status

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_author_edits_own_published(self, cal: ec.Calendar, kind: str) -> None:
        """An author may edit their own published record."""
        author = self.user_cal(cal, "author")
        record = create(author, kind, "Mine")
        assert (
            "Better" == collection(author, kind).update(record.id, description="Better").description
        )

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_author_deletes_own_published(self, cal: ec.Calendar, kind: str) -> None:
        """An author may trash their own published record."""
        author = self.user_cal(cal, "author")
        record = create(author, kind, "Mine")
        assert "trash" == collection(author, kind).delete(record.id).status

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_author_cannot_edit_others(self, cal: ec.Calendar, kind: str) -> None:
        """An author may not edit another user's record (403)."""
        record = create(self.user_cal(cal, "author", "first"), kind, "Theirs")
        author = self.user_cal(cal, "author", "second")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="your role may not edit") as info:
            collection(author, kind).update(record.id, description="Mine now")
        assert ("rest_forbidden", 403) == forbidden(info.value)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_author_cannot_delete_others(self, cal: ec.Calendar, kind: str) -> None:
        """An author may not trash another user's record (403)."""
        record = create(self.user_cal(cal, "author", "first"), kind, "Theirs")
        author = self.user_cal(cal, "author", "second")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="your role may not delete") as info:
            collection(author, kind).delete(record.id)
        assert ("rest_forbidden", 403) == forbidden(info.value)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_author_cannot_give_a_record_to_another_user(self, cal: ec.Calendar, kind: str) -> None:
        """Only editors may name another user as the author (403)."""
        other = cal.users.create("other", role="author")
        author = self.user_cal(cal, "author")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="set another user as the author") as info:
            create(author, kind, "Mine", author=other.id)
        assert ("rest_forbidden", 403) == forbidden(info.value)
        assert before == snapshot(cal)

    def test_author_manages_categories(self, cal: ec.Calendar) -> None:
        """Authors may create, edit and delete categories."""
        author = self.user_cal(cal, "author")
        music = author.categories.create(name="Music")
        author.categories.update(music.id, description="All music")
        author.categories.delete(music.id)
        assert 0 == cal.categories.list(hide_empty=False).total

    def test_author_cannot_create_tags(self, cal: ec.Calendar) -> None:
        """Tags need an editor: an author's create is ``Forbidden`` (403)."""
        author = self.user_cal(cal, "author")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="your role may not") as info:
            author.tags.create(name="Outdoor")
        assert ("rest_forbidden", 403) == forbidden(info.value)
        assert before == snapshot(cal)

    def test_author_cannot_edit_tags(self, cal: ec.Calendar) -> None:
        """An author may not edit a tag (403)."""
        tag = cal.tags.create(name="Outdoor")
        author = self.user_cal(cal, "author")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="your role may not") as info:
            author.tags.update(tag.id, name="Indoor")
        assert ("rest_forbidden", 403) == forbidden(info.value)
        assert before == snapshot(cal)

    def test_contributor_cannot_delete_categories(self, cal: ec.Calendar) -> None:
        """A contributor may not delete a category (403)."""
        music = cal.categories.create(name="Music")
        contributor = self.user_cal(cal, "contributor")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="your role may not") as info:
            contributor.categories.delete(music.id)
        assert ("rest_forbidden", 403) == forbidden(info.value)
        assert before == snapshot(cal)

    # == editors and administrators ===========================================================
    @pytest.mark.parametrize("role", ["editor", "administrator"])
    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_editors_edit_others(self, cal: ec.Calendar, kind: str, role: str) -> None:
        """Editors and administrators may edit anyone's record."""
        record = create(self.user_cal(cal, "author"), kind, "Theirs")
        editor = self.user_cal(cal, role)
        assert (
            "Edited" == collection(editor, kind).update(record.id, description="Edited").description
        )

    @pytest.mark.parametrize("role", ["editor", "administrator"])
    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_editors_delete_others(self, cal: ec.Calendar, kind: str, role: str) -> None:
        """Editors and administrators may trash anyone's record."""
        record = create(self.user_cal(cal, "author"), kind, "Theirs")
        editor = self.user_cal(cal, role)
        assert "trash" == collection(editor, kind).delete(record.id).status

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_editor_publishes_a_pending_record(self, cal: ec.Calendar, kind: str) -> None:
        """An editor may publish a contributor's pending record."""
        record = create(self.user_cal(cal, "contributor"), kind, "Theirs", status="pending")
        editor = self.user_cal(cal, "editor")
        assert "publish" == collection(editor, kind).update(record.id, status="publish").status

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_editor_reassigns_a_record(self, cal: ec.Calendar, kind: str) -> None:
        """An editor may hand an existing record to another user."""
        record = create(cal, kind, "Public")
        other = cal.users.create("other", role="author")
        editor = self.user_cal(cal, "editor")
        assert other.id == collection(editor, kind).update(record.id, author=other.id).author

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_author_cannot_reassign_own_record(self, cal: ec.Calendar, kind: str) -> None:
        """An author may not hand their record to another user (403)."""
        author = self.user_cal(cal, "author")
        record = create(author, kind, "Mine")
        other = cal.users.create("other", role="author")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="set another user as the author") as info:
            collection(author, kind).update(record.id, author=other.id)
        assert ("rest_forbidden", 403) == forbidden(info.value)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_editor_names_another_author(self, cal: ec.Calendar, kind: str) -> None:
        """An editor may create a record on another user's behalf."""
        other = cal.users.create("other", role="contributor")
        editor = self.user_cal(cal, "editor")
        assert other.id == create(editor, kind, "Theirs", author=other.id).author

    def test_editor_manages_tags(self, cal: ec.Calendar) -> None:
        """Editors may create, edit and delete tags."""
        editor = self.user_cal(cal, "editor")
        tag = editor.tags.create(name="Outdoor")
        editor.tags.update(tag.id, name="Open air")
        editor.tags.delete(tag.id)
        assert 0 == cal.tags.list(hide_empty=False).total

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
    def test_anonymous_other_status_filter_is_invalid(self, anon: ec.Calendar, kind: str) -> None:
        """Anonymous callers asking for any other status get ``InvalidParameter``."""
        with pytest.raises(InvalidParameter, match="status") as info:
            list_all(anon, kind, status="draft")
        assert ("rest_invalid_param", 400, ["status"]) == (
            info.value.code,
            status_of(info.value),
            list(info.value.fields),
        )

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

    # == users ================================================================================
    def test_create_user(self, cal: ec.Calendar) -> None:
        """A user has a login, a role and a display name (the login unless given)."""
        user = cal.users.create("alice", role="editor", email="alice@example.org")
        assert ("alice", "editor", "alice", "alice@example.org") == (
            user.login,
            user.role,
            user.display_name,
            user.email,
        )

    def test_get_user(self, cal: ec.Calendar) -> None:
        """A user is found by login."""
        user = cal.users.create("alice", role="author", display_name="Alice A.")
        assert user == cal.users.get("alice")

    def test_get_unknown_user_is_not_found(self, cal: ec.Calendar) -> None:
        """An unknown login is ``NotFound`` with code ``user-not-found``."""
        with pytest.raises(NotFound, match="no user 'ghost'") as info:
            cal.users.get("ghost")
        assert ("user-not-found", ["login"]) == (info.value.code, list(info.value.fields))

    def test_list_users_in_creation_order(self, cal: ec.Calendar) -> None:
        """Users are listed in creation order."""
        made = [
            cal.users.create(login, role=role) for login, role in zip("abc", ROLES, strict=False)
        ]
        assert made == cal.users.list()

    @pytest.mark.parametrize("role", ROLES)
    def test_every_role_can_be_given(self, cal: ec.Calendar, role: str) -> None:
        """Each of the five roles can be given to a user."""
        assert role == cal.users.create("someone", role=role).role

    def test_default_role_is_subscriber(self, cal: ec.Calendar) -> None:
        """A user created without a role is a subscriber."""
        assert "subscriber" == cal.users.create("reader").role

    def test_duplicate_login_is_invalid(self, cal: ec.Calendar) -> None:
        """A login can be used once."""
        cal.users.create("alice")
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="login") as info:
            cal.users.create("alice", role="editor")
        assert ["login"] == list(info.value.fields)
        assert before == snapshot(cal)

    @pytest.mark.parametrize("login", ["", "has space", "   "])
    def test_bad_login_is_invalid(self, cal: ec.Calendar, login: str) -> None:
        """A login must be non-empty and without spaces."""
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="login"):
            cal.users.create(login)
        assert before == snapshot(cal)

    def test_unknown_role_is_invalid(self, cal: ec.Calendar) -> None:
        """A role outside the five is refused."""
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="role") as info:
            cal.users.create("alice", role="superuser")
        assert ["role"] == list(info.value.fields)
        assert before == snapshot(cal)

    def test_remove_user(self, cal: ec.Calendar) -> None:
        """A removed user is gone."""
        cal.users.create("alice")
        removed = cal.users.remove("alice")
        assert ("alice", []) == (removed.login, cal.users.list())

    def test_remove_unknown_user_is_not_found(self, cal: ec.Calendar) -> None:
        """Removing an unknown login is ``NotFound`` and removes nobody."""
        cal.users.create("alice")
        before = snapshot(cal)
        with pytest.raises(NotFound, match="ghost"):
            cal.users.remove("ghost")
        assert before == snapshot(cal)

    def test_application_password_looks_like_wordpress(self, cal: ec.Calendar) -> None:
        """An application password is six groups of four letters or digits."""
        cal.users.create("alice")
        password = cal.users.issue_password("alice")
        assert re.fullmatch(r"[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}", password)

    def test_verify_password(self, cal: ec.Calendar) -> None:
        """The issued password authenticates its user."""
        user = cal.users.create("alice", role="author")
        password = cal.users.issue_password("alice")
        assert user == cal.users.verify_password("alice", password)

    def test_verify_password_ignores_spaces(self, cal: ec.Calendar) -> None:
        """Spaces in an application password do not matter."""
        user = cal.users.create("alice")
        password = cal.users.issue_password("alice")
        assert user == cal.users.verify_password("alice", password.replace(" ", ""))

    def test_wrong_password_fails(self, cal: ec.Calendar) -> None:
        """A wrong password is ``AuthenticationFailed`` (401)."""
        cal.users.create("alice")
        cal.users.issue_password("alice")
        with pytest.raises(AuthenticationFailed, match="not valid") as info:
            cal.users.verify_password("alice", "aaaa bbbb cccc dddd eeee ffff")
        assert ("incorrect_password", 401) == (info.value.code, status_of(info.value))

    def test_password_of_another_user_fails(self, cal: ec.Calendar) -> None:
        """A password authenticates only the user it was issued to."""
        cal.users.create("alice")
        cal.users.create("bob")
        password = cal.users.issue_password("bob")
        with pytest.raises(AuthenticationFailed, match="not valid"):
            cal.users.verify_password("alice", password)

    def test_password_with_unknown_login_fails(self, cal: ec.Calendar) -> None:
        """A password with an unknown login fails."""
        cal.users.create("alice")
        password = cal.users.issue_password("alice")
        with pytest.raises(AuthenticationFailed, match="not valid"):
            cal.users.verify_password("ghost", password)

    def test_every_issued_password_works(self, cal: ec.Calendar) -> None:
        """A user may hold several application passwords at once."""
        user = cal.users.create("alice")
        first = cal.users.issue_password("alice", label="laptop")
        second = cal.users.issue_password("alice", label="phone")
        assert [user, user] == [
            cal.users.verify_password("alice", first),
            cal.users.verify_password("alice", second),
        ]

    def test_verify_token(self, cal: ec.Calendar) -> None:
        """An issued bearer token authenticates its user."""
        user = cal.users.create("alice", role="editor")
        token = cal.users.issue_token("alice")
        assert user == cal.users.verify_token(token)

    def test_wrong_token_fails(self, cal: ec.Calendar) -> None:
        """An unknown token is ``AuthenticationFailed`` (401)."""
        cal.users.create("alice")
        token = cal.users.issue_token("alice")
        with pytest.raises(AuthenticationFailed, match="not valid") as info:
            cal.users.verify_token(token + "x")
        assert ("invalid_token", 401) == (info.value.code, status_of(info.value))

    def test_token_is_not_a_password(self, cal: ec.Calendar) -> None:
        """A bearer token does not work as an application password."""
        cal.users.create("alice")
        token = cal.users.issue_token("alice")
        with pytest.raises(AuthenticationFailed, match="not valid"):
            cal.users.verify_password("alice", token)

    def test_password_is_not_a_token(self, cal: ec.Calendar) -> None:
        """An application password does not work as a bearer token."""
        cal.users.create("alice")
        password = cal.users.issue_password("alice")
        with pytest.raises(AuthenticationFailed, match="not valid"):
            cal.users.verify_token(password.replace(" ", ""))

    def test_removed_user_password_fails(self, cal: ec.Calendar) -> None:
        """Removing a user revokes their application passwords."""
        cal.users.create("alice")
        password = cal.users.issue_password("alice")
        cal.users.remove("alice")
        with pytest.raises(AuthenticationFailed, match="not valid"):
            cal.users.verify_password("alice", password)

    def test_removed_user_token_fails(self, cal: ec.Calendar) -> None:
        """Removing a user revokes their bearer tokens."""
        user = cal.users.create("alice")
        token = cal.users.issue_token("alice")
        cal.users.remove("alice")
        with pytest.raises(AuthenticationFailed, match="not valid"):
            cal.users.verify_token(token)
        assert [] == list(cal.backend.credentials(user.id))

    def test_secrets_are_not_stored_in_clear(self, cal: ec.Calendar) -> None:
        """The backend keeps neither the password nor the token, only digests of them."""
        user = cal.users.create("alice")
        password = cal.users.issue_password("alice", label="laptop")
        token = cal.users.issue_token("alice", label="ci")
        stored = list(cal.backend.credentials(user.id))
        secrets = (password, password.replace(" ", ""), token)
        leaks = [
            secret
            for credential in stored
            for secret in secrets
            if secret in credential.secret_hash or secret in repr(credential)
        ]
        assert ([("password", "laptop"), ("token", "ci")], []) == (
            [(c.kind, c.label) for c in stored],
            leaks,
        )

    def test_issue_password_for_unknown_user_is_not_found(self, cal: ec.Calendar) -> None:
        """Secrets are issued only to existing users."""
        with pytest.raises(NotFound, match="ghost"):
            cal.users.issue_password("ghost")

    def test_administrator_manages_users(self, cal: ec.Calendar) -> None:
        """An administrator may create, list and remove users and issue their secrets."""
        admin = self.user_cal(cal, "administrator", "root")
        bob = admin.users.create("bob", role="editor")
        token = admin.users.issue_token("bob")
        assert (bob, [bob.login, "root"]) == (
            admin.users.verify_token(token),
            sorted(u.login for u in admin.users.list()),
        )

    @pytest.mark.parametrize("role", ROLES[1:])
    def test_only_administrators_create_users(self, cal: ec.Calendar, role: str) -> None:
        """Every other role is ``Forbidden`` (403) to create users."""
        other = self.user_cal(cal, role)
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="may not manage users") as info:
            other.users.create("mallory", role="administrator")
        assert ("rest_forbidden", 403) == forbidden(info.value)
        assert before == snapshot(cal)

    def test_anonymous_cannot_create_users(self, cal: ec.Calendar, anon: ec.Calendar) -> None:
        """Anonymous callers are ``Forbidden`` (401) to create users."""
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="may not manage users") as info:
            anon.users.create("mallory", role="administrator")
        assert ("rest_forbidden", 401) == forbidden(info.value)
        assert before == snapshot(cal)

    def test_editor_cannot_list_users(self, cal: ec.Calendar) -> None:
        """Listing users needs an administrator."""
        editor = self.user_cal(cal, "editor")
        with pytest.raises(Forbidden, match="may not manage users"):
            editor.users.list()

    def test_editor_cannot_remove_users(self, cal: ec.Calendar) -> None:
        """Removing users needs an administrator; the user stays."""
        cal.users.create("alice")
        editor = self.user_cal(cal, "editor")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="may not manage users"):
            editor.users.remove("alice")
        assert before == snapshot(cal)

    @pytest.mark.parametrize("issue", ["issue_password", "issue_token"])
    def test_editor_cannot_issue_secrets(self, cal: ec.Calendar, issue: str) -> None:
        """Issuing passwords or tokens needs an administrator; nothing is stored."""
        alice = cal.users.create("alice", role="administrator")
        editor = self.user_cal(cal, "editor")
        with pytest.raises(Forbidden, match="may not manage users"):
            getattr(editor.users, issue)("alice")
        assert [] == list(cal.backend.credentials(alice.id))
