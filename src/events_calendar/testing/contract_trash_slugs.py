"""Trash slug contract: every write that moves a post in or out of the trash, or gives it a
slug a trashed post holds, treats the slug as WordPress's ``wp_insert_post`` does.

(a) a post trashed by an update (not only by a delete) takes ``<slug>__trashed``; (b) one
restored by an update asks back the slug it had; (c) a post not in the trash that takes a
slug a trashed post holds gets it, and the trashed post takes its trash slug. Before, an
update to ``status="trash"`` kept the slug: a new "Slug Trap" was numbered ``slug-trap-2``
and ``by-slug/slug-trap`` found the trashed record.
"""

from __future__ import annotations

from typing import Any

import pytest

import events_calendar as ec

from .base import ContractBase
from .contract_record_base import make_event

__all__ = ["TrashSlugContract"]

POST_KINDS = ("event", "venue", "organizer")


def posts(cal: ec.Calendar, kind: str) -> Any:
    """``cal.events``, ``cal.venues`` or ``cal.organizers``."""
    return {"event": cal.events, "venue": cal.venues, "organizer": cal.organizers}[kind]


def make_post(cal: ec.Calendar, kind: str, name: str, **fields: Any) -> Any:
    """Create a post of ``kind`` named ``name``."""
    if kind == "event":
        return make_event(cal, name, **fields)
    return posts(cal, kind).create(**{kind: name}, **fields)


def slug_of(cal: ec.Calendar, kind: str, record_id: int) -> str:
    """The slug the post with that id holds now."""
    return str(posts(cal, kind).get(record_id).slug)


class TrashSlugContract(ContractBase):
    """The trash's slug rules on every path that writes a post, for every post kind."""

    # -- (a) into the trash by an update ------------------------------------------------------
    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_an_update_to_the_trash_frees_the_slug(self, cal: ec.Calendar, kind: str) -> None:
        """``update(status="trash")`` suffixes the slug as ``delete`` does: a new post of
        the same name takes the slug, and the slug finds it, not the trashed one."""
        old = make_post(cal, kind, "Slug Trap")
        trashed = posts(cal, kind).update(old.id, status="trash")
        new = make_post(cal, kind, "Slug Trap")
        found = posts(cal, kind).get_by_slug("slug-trap")
        assert ("slug-trap__trashed", "slug-trap", new.id) == (trashed.slug, new.slug, found.id)

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_an_update_by_slug_to_the_trash_frees_the_slug(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """``update_by_slug`` follows the same rule as ``update``."""
        make_post(cal, kind, "Slug Trap")
        trashed = posts(cal, kind).update_by_slug("slug-trap", status="trash")
        assert "slug-trap__trashed" == trashed.slug

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_update_many_to_the_trash_frees_the_slugs(self, cal: ec.Calendar, kind: str) -> None:
        """``update_many(status="trash")`` suffixes each slug, numbered as ``delete_many``
        numbers two trashed posts that held one slug."""
        first = make_post(cal, kind, "Slug Trap")
        posts(cal, kind).delete(first.id)
        second = make_post(cal, kind, "Slug Trap")
        third = make_post(cal, kind, "Other")
        done = posts(cal, kind).update_many([second.id, third.id], status="trash")
        assert ["slug-trap__trashed-2", "other__trashed"] == [r.slug for r in done]

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_a_rename_into_the_trash_trashes_the_new_slug(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """A rename in the same update as the trash is made first: the new slug is
        suffixed, and it is the one given back on leaving the trash."""
        old = make_post(cal, kind, "Slug Trap")
        trashed = posts(cal, kind).update(old.id, slug="renamed", status="trash")
        back = posts(cal, kind).update(old.id, status="publish")
        assert ("renamed__trashed", "renamed") == (trashed.slug, back.slug)

    # -- (b) out of the trash by an update ----------------------------------------------------
    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_an_update_out_of_the_trash_gives_the_slug_back(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """A post trashed by an update takes its slug back when an update restores it, by
        id and by ``update_many`` alike."""
        one, two = make_post(cal, kind, "Slug Trap"), make_post(cal, kind, "Other")
        posts(cal, kind).update(one.id, status="trash")
        posts(cal, kind).update_many([two.id], status="trash")
        back = posts(cal, kind).update(one.id, status="draft")
        [again] = posts(cal, kind).update_many([two.id], status="publish")
        assert ("slug-trap", "other") == (back.slug, again.slug)

    # -- (c) a trashed holder gives its slug up ----------------------------------------------
    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_a_new_post_takes_the_slug_a_trashed_post_holds(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """A post created in the trash keeps its slug (WordPress suffixes only a post that
        had another status); a live post asking for it takes it, the trashed one is
        suffixed and asks the slug back, numbered, when it leaves the trash."""
        held = make_post(cal, kind, "Slug Trap", status="trash")
        new = make_post(cal, kind, "Slug Trap")
        moved = slug_of(cal, kind, held.id)
        back = posts(cal, kind).update(held.id, status="publish")
        assert ("slug-trap", "slug-trap", "slug-trap__trashed", "slug-trap-2") == (
            held.slug,
            new.slug,
            moved,
            back.slug,
        )

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_a_rename_takes_the_slug_a_trashed_post_holds(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """Renaming a live post to the slug a trashed post holds gives it that slug."""
        held = make_post(cal, kind, "Slug Trap", status="trash")
        other = make_post(cal, kind, "Other")
        renamed = posts(cal, kind).update(other.id, slug="slug-trap")
        assert ("slug-trap", "slug-trap__trashed") == (renamed.slug, slug_of(cal, kind, held.id))

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_a_restore_takes_its_slug_from_a_trashed_holder(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """A post leaving the trash takes the slug it had from a post created in the trash
        since, which moves to the next free trash slug."""
        first = make_post(cal, kind, "Slug Trap")
        posts(cal, kind).delete(first.id)
        held = make_post(cal, kind, "Slug Trap", status="trash")
        back = posts(cal, kind).update(first.id, status="publish")
        assert ("slug-trap", "slug-trap", "slug-trap__trashed-2") == (
            held.slug,
            back.slug,
            slug_of(cal, kind, held.id),
        )

    @pytest.mark.parametrize("kind", POST_KINDS)
    def test_update_many_out_of_the_trash_takes_slugs_from_trashed_holders(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """``update_many`` restores as ``update`` does; a post it restores itself is no
        trashed holder to move (it leaves the trash too), so it keeps its slug and the
        other is numbered."""
        first, second = make_post(cal, kind, "Slug Trap"), make_post(cal, kind, "Other")
        posts(cal, kind).delete_many([first.id, second.id])
        held = make_post(cal, kind, "Other", status="trash")
        mixed = make_post(cal, kind, "Slug Trap", status="trash")
        done = posts(cal, kind).update_many([second.id, first.id, mixed.id], status="publish")
        assert (["other", "slug-trap-2", "slug-trap"], "other__trashed-2") == (
            [r.slug for r in done],
            slug_of(cal, kind, held.id),
        )

    def test_bulk_create_takes_the_slug_a_trashed_event_holds(self, cal: ec.Calendar) -> None:
        """``bulk_create`` (and the imports built on it) moves a trashed holder as
        ``create`` does; a row created in the trash keeps its slug."""
        held = make_event(cal, "Slug Trap", status="trash")
        row = {"title": "Slug Trap", "start_date": "2031-01-01", "end_date": "2031-01-01"}
        trashed_row = {**row, "title": "Kept", "status": "trash"}
        new, kept = cal.events.bulk_create([row, trashed_row])
        assert ("slug-trap", "slug-trap__trashed", "kept") == (
            slug_of(cal, "event", new),
            slug_of(cal, "event", held.id),
            slug_of(cal, "event", kept),
        )

    def test_bulk_create_moves_a_row_of_its_batch_as_create_does(self, cal: ec.Calendar) -> None:
        """A row created in the trash never makes a live row of the same batch take a
        number: it gives the slug up for its trash slug, as two creates do (across batches
        and beside stored holders, ``BulkContract``; SQLite's deferred search index,
        ``tests/test_bulk_slugs.py``)."""
        row = {"title": "Gala", "start_date": "2031-01-01", "end_date": "2031-01-01"}
        trash, live = cal.events.bulk_create([{**row, "status": "trash"}, row])
        assert ("gala__trashed", "gala") == (
            slug_of(cal, "event", trash),
            slug_of(cal, "event", live),
        )
