"""Access contract: what contributors, authors, editors and administrators may write."""

from __future__ import annotations

from collections.abc import Callable

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
)
from .contract_record_base import snapshot

__all__ = ["RoleContract"]


class RoleContract(AccessContractBase):
    """Each writing role's rights over its own and others' records and terms."""

    # == contributors =========================================================================
    @pytest.mark.parametrize("role", ["contributor", "author"])
    def test_terms_an_event_creates_lose_the_markup_their_writer_may_not_write(
        self, cal: ec.Calendar, role: str
    ) -> None:
        """A category or tag an event names, and so creates, is read as a term's own name:
        a contributor's or author's script is removed (it was stored as sent, and shown to
        every visitor), and a name that is only markup is refused, as on the term routes."""
        writer = self.user_cal(cal, role)
        day = {"start_date": "2031-01-10 10:00", "end_date": "2031-01-10 11:00"}
        event = writer.events.create(
            title="T",
            categories=["<img src=x onerror=alert(1)>Cat"],
            tags=["<script>alert(1)</script>Tg", "<b>Bold</b>"],
            **day,
        )
        before = snapshot(cal)
        with pytest.raises(InvalidParameter) as refused:
            writer.events.create(title="U", tags=["<svg onload=alert(2)>"], **day)
        assert (["Cat"], ["Tg", "<b>Bold</b>"], ["tags"], before) == (
            [cal.categories.get(i).name for i in event.categories],
            [cal.tags.get(i).name for i in event.tags],
            list(refused.value.fields),
            snapshot(cal),
        )

    def test_a_cleaned_name_is_trimmed_and_finds_its_duplicate(self, cal: ec.Calendar) -> None:
        """Markup an author may not write is removed, and the text trimmed again: texts are
        trimmed as they are read, and the venue ``Hall <script>...`` is the venue ``Hall``,
        which the duplicate check then finds, not a second ``Hall `` beside it."""
        hall = cal.venues.create(venue="Hall")
        author = self.user_cal(cal, "author")
        again = author.venues.create(venue="Hall <script>alert(1)</script>")
        gala = author.events.create(
            title="<b>Gala</b> <script>alert(1)</script>",
            description=" <script>alert(1)</script> <p>Dress up</p> ",
            start_date="2031-01-10 10:00",
            end_date="2031-01-10 11:00",
        )
        assert (hall.id, "Hall", "<b>Gala</b>", "<p>Dress up</p>") == (
            again.id,
            cal.venues.get(hall.id).venue,
            gala.title,
            gala.description,
        )

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
    @pytest.mark.parametrize("was", ["publish", "draft"])
    def test_the_trash_is_closed_to_contributors(
        self, cal: ec.Calendar, kind: str, was: str
    ) -> None:
        """A contributor's record in the trash is out of their hands (403): no edit, no
        restore, no removal. WordPress judges a trashed post by its status before the trash,
        which records do not keep; an editor trashing a published record used to hand its
        contributor back the rights publishing had taken (a rewrite, a restore, a ``force``
        delete). An editor restores a contributor's trashed draft."""
        contributor = self.user_cal(cal, "contributor")
        record = create(contributor, kind, "Mine")
        collection(cal, kind).update(record.id, status=was)
        collection(cal, kind).delete(record.id)
        before = snapshot(cal)
        refused = []
        mine = collection(contributor, kind)
        attempts: list[Callable[[], object]] = [
            lambda: mine.update(record.id, description="Better"),
            lambda: mine.update(record.id, status="pending"),
            lambda: mine.delete(record.id, force=True),
        ]
        for attempt in attempts:
            with pytest.raises(Forbidden) as info:
                attempt()
            refused.append(forbidden(info.value))
        assert ([("rest_forbidden", 403)] * 3, before, False) == (
            refused,
            snapshot(cal),
            collection(contributor, kind).may_edit(record.id),
        )

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
