"""Slug contract: long slugs through the trash and back, in single and bulk writes."""

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
    """Slugs longer than the trash leaves room for, as WordPress keeps the desired slug."""

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
