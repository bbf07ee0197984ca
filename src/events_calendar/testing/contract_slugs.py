"""Slug contract: long slugs through the trash and back (single and bulk writes), term slugs
made unique as WordPress makes them, and titles and names that make no slug (the trash's
slug rules on every write path: ``contract_trash_slugs``)."""

from __future__ import annotations

from typing import Any

import pytest

import events_calendar as ec

from .base import ContractBase
from .contract_record_base import make_event

__all__ = ["SlugContract"]

POST_KINDS = ("event", "venue", "organizer")
LONG = "x" * 300  # a title whose slug is cut to the longest slug, 200 characters


def posts(cal: ec.Calendar, kind: str) -> Any:
    """``cal.events``, ``cal.venues`` or ``cal.organizers``."""
    return {"event": cal.events, "venue": cal.venues, "organizer": cal.organizers}[kind]


def make_post(cal: ec.Calendar, kind: str, name: str) -> Any:
    """Create a post of ``kind`` named ``name``."""
    if kind == "event":
        return make_event(cal, name)
    return posts(cal, kind).create(**{kind: name})


class SlugContract(ContractBase):
    """Slugs as WordPress hands them out where the plain rules (``slugs``) do not say."""

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_a_long_slug_comes_back_whole_from_the_trash(self, cal: ec.Calendar, kind: str) -> None:
        """A slug cut to 191 characters in the trash is given back whole on leaving it
        (WordPress's ``_wp_desired_post_slug``), not the cut one."""
        record = make_post(cal, kind, "v" * 195)
        trashed = posts(cal, kind).delete(record.id)
        back = posts(cal, kind).update(record.id, status="publish")
        assert ("v" * 191 + "__trashed", "v" * 195) == (trashed.slug, back.slug)

    def test_a_numbered_trash_slug_keeps_the_whole_suffix(self, cal: ec.Calendar) -> None:
        """A second long slug sent to the trash is cut further to make room for the
        number, ``__trashed`` kept whole (numbering ate into it: ``__trash-2``)."""
        first, second = make_event(cal, LONG), make_event(cal, LONG)
        cal.events.delete(first.id)
        trashed = cal.events.delete(second.id)
        assert ("x" * 198 + "-2", "x" * 189 + "__trashed-2") == (second.slug, trashed.slug)

    def test_long_slugs_sharing_a_trash_slug_come_back_whole(self, cal: ec.Calendar) -> None:
        """Two records whose long slugs are one slug once cut both leave the trash with the
        slug they had, in either order; none keeps a trash suffix."""
        first, second = make_event(cal, LONG), make_event(cal, LONG)
        cal.events.delete(first.id)
        cal.events.delete(second.id)
        later = cal.events.update(second.id, status="publish")
        earlier = cal.events.update(first.id, status="draft")
        assert (first.slug, second.slug) == (earlier.slug, later.slug)

    def test_a_long_slug_taken_meanwhile_is_numbered_on_leaving_the_trash(
        self, cal: ec.Calendar
    ) -> None:
        """A live record that took the long slug keeps it; the restored record takes the
        next free one, made from the whole slug it had."""
        first = make_event(cal, LONG)
        cal.events.delete(first.id)
        second = make_event(cal, LONG)
        back = cal.events.update(first.id, status="publish")
        assert ("x" * 200, "x" * 198 + "-2") == (second.slug, back.slug)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_a_long_slug_another_record_held_in_between_comes_back_whole(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """A record takes the long slug of one in the trash, then goes to the trash too:
        the first leaves it with its whole slug, the second with the next free one made
        from it, as WordPress's ``_wp_desired_post_slug`` gives them (the second's former
        slug was kept for the second alone, and the first came back cut to 191)."""
        first = make_post(cal, kind, LONG)
        posts(cal, kind).delete(first.id)
        second = make_post(cal, kind, LONG)
        posts(cal, kind).delete(second.id)
        earlier = posts(cal, kind).update(first.id, status="publish")
        later = posts(cal, kind).update(second.id, status="publish")
        assert ("x" * 200, "x" * 200, "x" * 198 + "-2") == (
            second.slug,
            earlier.slug,
            later.slug,
        )

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_a_long_slug_another_record_renamed_away_from_comes_back_whole(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """A record takes the long slug of one in the trash and is renamed away: the first
        leaves the trash with its whole slug, not one cut to 191 characters."""
        first = make_post(cal, kind, LONG)
        posts(cal, kind).delete(first.id)
        second = make_post(cal, kind, LONG)
        posts(cal, kind).update(second.id, slug="elsewhere")
        back = posts(cal, kind).update(first.id, status="publish")
        assert "x" * 200 == back.slug

    # -- former slugs ------------------------------------------------------------------------
    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_a_former_slug_finds_the_first_record_after_another_renamed_away(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """A record took the former slug of a renamed one, then was renamed in turn: the
        former slug finds the first record again, as WordPress's ``wp_old_slug_redirect``
        finds the oldest ``_wp_old_slug`` (it found the second)."""
        first = make_post(cal, kind, "Old Name")
        posts(cal, kind).update(first.id, slug="new-name")
        second = make_post(cal, kind, "Old-Name")  # a venue of one name is reused
        posts(cal, kind).update(second.id, slug="other-name")
        assert ("old-name", first.id, second.id) == (
            second.slug,
            posts(cal, kind).get_by_slug("old-name").id,
            posts(cal, kind).get_by_slug("other-name").id,
        )

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_a_former_slug_finds_the_first_record_after_another_was_trashed(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """A record took the former slug of a renamed one, then went to the trash: the
        former slug finds the first record again (it found nothing: the trashed one), and
        the trashed one still gets the slug back on leaving the trash, once it is free."""
        first = make_post(cal, kind, "Old Name")
        posts(cal, kind).update(first.id, slug="new-name")
        second = make_post(cal, kind, "Old-Name")  # a venue of one name is reused
        posts(cal, kind).delete(second.id)
        found = posts(cal, kind).get_by_slug("old-name").id
        back = posts(cal, kind).update(second.id, status="publish")
        assert (first.id, "old-name") == (found, back.slug)

    def test_bulk_writes_give_long_slugs_back_whole(self, cal: ec.Calendar) -> None:
        """``delete_many`` numbers long trash slugs as ``delete`` does, and ``update_many``
        out of the trash gives each record the slug it had."""
        first, second = make_event(cal, LONG), make_event(cal, LONG)
        cal.events.delete_many([first.id, second.id])
        trashed = [cal.events.get(first.id).slug, cal.events.get(second.id).slug]
        back = cal.events.update_many([second.id, first.id], status="publish")
        assert (
            ["x" * 191 + "__trashed", "x" * 189 + "__trashed-2"],
            [second.slug, first.slug],
        ) == (trashed, [record.slug for record in back])

    # -- terms, and names that make no slug ------------------------------------------------
    def test_a_sub_category_of_a_taken_slug_takes_its_parents_slug(self, cal: ec.Calendar) -> None:
        """``Jazz`` under ``Music``, with a top-level ``jazz``, is ``jazz-music``, as
        WordPress's ``wp_unique_term_slug`` makes it; numbered only once that is taken too."""
        cal.categories.create(name="Jazz")
        music = cal.categories.create(name="Music")
        first = cal.categories.create(name="Jazz", parent=music.id)
        cal.categories.delete(first.id)
        cal.categories.create(name="Jazz Music")
        second = cal.categories.create(name="Jazz", parent=music.id)
        assert ("jazz-music", "jazz-music-2") == (first.slug, second.slug)

    def test_a_taken_slug_goes_up_the_ancestors(self, cal: ec.Calendar) -> None:
        """When the parent's slug after it is taken too, the grandparent's follows."""
        arts = cal.categories.create(name="Arts")
        music = cal.categories.create(name="Music", parent=arts.id)
        cal.categories.create(name="Jazz")
        cal.categories.create(name="Jazz Music")
        nested = cal.categories.create(name="Jazz", parent=music.id)
        assert "jazz-music-arts" == nested.slug

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_a_name_that_makes_no_slug_gives_the_id(self, cal: ec.Calendar, kind: str) -> None:
        """A post whose title makes no slug (``!!!``) takes its id as its slug, as
        WordPress's ``sanitize_title($title, $post_ID)`` gives it."""
        record = make_post(cal, kind, "!!!")
        assert str(record.id) == record.slug

    def test_a_term_name_that_makes_no_slug_gives_the_id(self, cal: ec.Calendar) -> None:
        """A category or tag whose name makes no slug takes its id, as ``wp_insert_term``
        sets it, in a create and among an event's new terms alike."""
        tag = cal.tags.create(name="???")
        event = make_event(cal, "Gala", categories=["!!!"])
        category = cal.categories.get(event.categories[0])
        assert (str(tag.id), str(category.id)) == (tag.slug, category.slug)

    def test_bulk_create_gives_the_id_to_a_title_that_makes_no_slug(self, cal: ec.Calendar) -> None:
        """``bulk_create`` slugs a title that makes no slug as ``create`` does: the id."""
        rows = [
            {"title": title, "start_date": "2031-01-01", "end_date": "2031-01-01"}
            for title in ("!!!", "???")
        ]
        events = [cal.events.get(record_id) for record_id in cal.events.bulk_create(rows)]
        assert [str(e.id) for e in events] == [e.slug for e in events]
