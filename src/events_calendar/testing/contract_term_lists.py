"""Record contract: category and tag lists (spec 4.4)."""

from __future__ import annotations

from typing import Any

import pytest

import events_calendar as ec
from events_calendar.errors import (
    InvalidParameter,
)

from .base import ContractBase
from .contract_record_base import (
    TERM_KINDS,
    ids,
    link_field,
    links,
    make_event,
    terms,
)

__all__ = ["TermListContract"]


class TermListContract(ContractBase):
    """Category and tag lists: empty terms, order, search, filters, paging."""

    # == term lists (spec 4.4) ================================================================
    def _terms_in_use(self, cal: ec.Calendar, kind: str, names: list[str]) -> list[Any]:
        """Create terms with these names, each used by one published event."""
        made = [terms(cal, kind).create(name=name) for name in names]
        make_event(cal, "Uses all", **links(link_field(kind), [t.id for t in made]))
        return made

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_of_nothing_is_empty(self, cal: ec.Calendar, kind: str) -> None:
        """An empty taxonomy lists an empty first page."""
        page = terms(cal, kind).list()
        assert ((), 0, 0, 1) == (page.items, page.total, page.total_pages, page.page)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_hides_empty_terms_by_default(self, cal: ec.Calendar, kind: str) -> None:
        """Terms no published event uses are hidden unless ``hide_empty=False``."""
        (used,) = self._terms_in_use(cal, kind, ["Used"])
        terms(cal, kind).create(name="Unused")
        draft_only = terms(cal, kind).create(name="Draft only")
        make_event(cal, "Plan", status="draft", **links(link_field(kind), [draft_only.id]))
        assert [used.id] == ids(terms(cal, kind).list())

    @pytest.mark.parametrize("hide_empty", [False, "0", "false"])
    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_shows_empty_terms_on_request(
        self, cal: ec.Calendar, kind: str, hide_empty: object
    ) -> None:
        """``hide_empty`` false (or ``"0"``) lists unused terms with a count of 0."""
        (used,) = self._terms_in_use(cal, kind, ["Used"])
        unused = terms(cal, kind).create(name="Zero")
        page = terms(cal, kind).list(hide_empty=hide_empty)
        assert [(used.id, 1), (unused.id, 0)] == [(t.id, t.count) for t in page]

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_counts_published_events(self, cal: ec.Calendar, kind: str) -> None:
        """Listed terms carry the number of published events using them."""
        music, jazz = self._terms_in_use(cal, kind, ["Music", "Jazz"])
        make_event(cal, "Jam", **links(link_field(kind), [jazz.id]))
        make_event(cal, "Plan", status="draft", **links(link_field(kind), [jazz.id]))
        assert [(jazz.id, 2), (music.id, 1)] == [(t.id, t.count) for t in terms(cal, kind).list()]

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_orders_by_name_ignoring_case(self, cal: ec.Calendar, kind: str) -> None:
        """The default order is by name, ascending, ignoring case (``A, b, C``)."""
        spoken, outdoor, free = self._terms_in_use(cal, kind, ["spoken word", "Outdoor", "Free"])
        assert [free.id, outdoor.id, spoken.id] == ids(terms(cal, kind).list())

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_order_desc(self, cal: ec.Calendar, kind: str) -> None:
        """``order="desc"`` reverses the name order."""
        b, a, c = self._terms_in_use(cal, kind, ["b", "A", "C"])
        assert [c.id, b.id, a.id] == ids(terms(cal, kind).list(order="desc"))

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_orderby_id(self, cal: ec.Calendar, kind: str) -> None:
        """``orderby="id"`` lists terms in creation order."""
        made = self._terms_in_use(cal, kind, ["Zeta", "Alpha", "Mu"])
        assert ids(made) == ids(terms(cal, kind).list(orderby="id"))

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_orderby_slug_desc(self, cal: ec.Calendar, kind: str) -> None:
        """``orderby="slug"`` sorts by slug (here descending)."""
        made = [
            terms(cal, kind).create(name=name, slug=slug)
            for name, slug in (("Alpha", "zz"), ("Beta", "aa"), ("Gamma", "mm"))
        ]
        make_event(cal, "Uses all", **links(link_field(kind), ids(made)))
        assert [made[0].id, made[2].id, made[1].id] == ids(
            terms(cal, kind).list(orderby="slug", order="desc")
        )

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_orderby_count_desc_keeps_ties_by_id(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """By count, descending; equal counts stay in id order, as the reference lists them."""
        one_a, two, one_b = self._terms_in_use(cal, kind, ["One A", "Two", "One B"])
        make_event(cal, "Again", **links(link_field(kind), [two.id]))
        assert [two.id, one_a.id, one_b.id] == ids(
            terms(cal, kind).list(orderby="count", order="desc")
        )

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_unknown_orderby_sorts_by_name(self, cal: ec.Calendar, kind: str) -> None:
        """An unknown ``orderby`` falls back to name order, as WordPress does."""
        b, a = self._terms_in_use(cal, kind, ["B", "A"])
        assert [a.id, b.id] == ids(terms(cal, kind).list(orderby="bogus"))

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_search_in_name(self, cal: ec.Calendar, kind: str) -> None:
        """``search`` matches a case-insensitive substring of the name."""
        jazz, _ = self._terms_in_use(cal, kind, ["Jazz", "Rock"])
        assert [jazz.id] == ids(terms(cal, kind).list(search="JAZ"))

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_search_in_slug(self, cal: ec.Calendar, kind: str) -> None:
        """``search`` also matches the slug."""
        sports = terms(cal, kind).create(name="Sports", slug="sport-events")
        make_event(cal, "Match", **links(link_field(kind), [sports.id]))
        assert [sports.id] == ids(terms(cal, kind).list(search="events"))

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_include(self, cal: ec.Calendar, kind: str) -> None:
        """``include`` restricts the list to those ids (CSV accepted)."""
        a, _, c = self._terms_in_use(cal, kind, ["A", "B", "C"])
        assert [a.id, c.id] == ids(terms(cal, kind).list(include=f"{c.id},{a.id}"))

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_include_unknown_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """``include`` must name existing terms of the taxonomy."""
        with pytest.raises(InvalidParameter, match="include") as info:
            terms(cal, kind).list(include=[999999])
        assert ["include"] == list(info.value.fields)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_exclude(self, cal: ec.Calendar, kind: str) -> None:
        """``exclude`` leaves those ids out."""
        a, b, c = self._terms_in_use(cal, kind, ["A", "B", "C"])
        assert [b.id] == ids(terms(cal, kind).list(exclude=[a.id, c.id]))

    def test_category_list_parent_lists_direct_children(self, cal: ec.Calendar) -> None:
        """``parent`` lists the direct children of a category, not grandchildren."""
        music = cal.categories.create(name="Music")
        jazz = cal.categories.create(name="Jazz", parent=music.id)
        rock = cal.categories.create(name="Rock", parent=music.id)
        cal.categories.create(name="Bebop", parent=jazz.id)
        assert [jazz.id, rock.id] == ids(cal.categories.list(parent=music.id, hide_empty=False))

    def test_category_list_parent_zero_is_invalid(self, cal: ec.Calendar) -> None:
        """``parent`` must be an existing category: 0 is refused, as the reference does."""
        cal.categories.create(name="Music")
        with pytest.raises(InvalidParameter, match="parent") as info:
            cal.categories.list(parent=0, hide_empty=False)
        assert ["parent"] == list(info.value.fields)

    def test_category_list_unknown_parent_is_invalid(self, cal: ec.Calendar) -> None:
        """An unknown ``parent`` is refused."""
        with pytest.raises(InvalidParameter, match="parent"):
            cal.categories.list(parent=999999)

    def test_tag_list_parent_zero_lists_every_tag(self, cal: ec.Calendar) -> None:
        """Tags are flat: ``parent=0`` filters nothing out."""
        outdoor = cal.tags.create(name="Outdoor")
        family = cal.tags.create(name="Family")
        assert [family.id, outdoor.id] == ids(cal.tags.list(parent=0, hide_empty=False))

    @pytest.mark.parametrize("param", ["post", "event"])
    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_of_an_event(self, cal: ec.Calendar, kind: str, param: str) -> None:
        """``post`` (or its alias ``event``) lists the terms of that event."""
        music, jazz, _ = self._terms_in_use(cal, kind, ["Music", "Jazz", "Rock"])
        event = make_event(cal, "Gala", **links(link_field(kind), [music.id, jazz.id]))
        assert [jazz.id, music.id] == ids(terms(cal, kind).list(**{param: event.id}))

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_event_wins_over_post(self, cal: ec.Calendar, kind: str) -> None:
        """When both ``event`` and ``post`` are given, ``event`` is used."""
        music, jazz = self._terms_in_use(cal, kind, ["Music", "Jazz"])
        first = make_event(cal, "First", **links(link_field(kind), [music.id]))
        second = make_event(cal, "Second", **links(link_field(kind), [jazz.id]))
        assert [jazz.id] == ids(terms(cal, kind).list(post=first.id, event=second.id))

    @pytest.mark.parametrize("post", ["foo", 99999])
    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_post_is_checked_beside_event(
        self, cal: ec.Calendar, kind: str, post: object
    ) -> None:
        """``event`` wins the filter, but ``post`` is still checked, as the reference checks
        every argument given (it was ignored beside ``event``)."""
        (music,) = self._terms_in_use(cal, kind, ["Music"])
        event = make_event(cal, "Gala", **links(link_field(kind), [music.id]))
        with pytest.raises(InvalidParameter) as info:
            terms(cal, kind).list(event=event.id, post=post)
        assert ["post"] == list(info.value.fields)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_post_must_be_an_event(self, cal: ec.Calendar, kind: str) -> None:
        """``post`` must name an existing event."""
        venue = cal.venues.create(venue="Hall")
        with pytest.raises(InvalidParameter, match="post") as info:
            terms(cal, kind).list(post=venue.id)
        assert ["post"] == list(info.value.fields)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_slug(self, cal: ec.Calendar, kind: str) -> None:
        """``slug`` lists the term with exactly that slug."""
        sports = terms(cal, kind).create(name="Sports", slug="sport-events")
        terms(cal, kind).create(name="Sport")
        assert [sports.id] == ids(terms(cal, kind).list(slug="sport-events", hide_empty=False))

    @pytest.mark.parametrize("kind", TERM_KINDS)
    @pytest.mark.parametrize(
        ("given", "found"), [("SPORT-Events", True), ("sport events", True), ("!!!", False)]
    )
    def test_term_list_slug_is_read_as_slugs_are_made(
        self, cal: ec.Calendar, kind: str, given: str, found: bool
    ) -> None:
        """``slug`` is made a slug first, as WordPress's term query runs it through
        ``sanitize_title``: other cases and spaces find the term (they found nothing), and
        a text no slug is made of finds nothing."""
        sports = terms(cal, kind).create(name="Sports", slug="sport-events")
        listed = terms(cal, kind).list(slug=given, hide_empty=False)
        assert ([sports.id] if found else []) == ids(listed)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_second_page(self, cal: ec.Calendar, kind: str) -> None:
        """``page`` and ``per_page`` slice the ordered list."""
        made = self._terms_in_use(cal, kind, ["A", "B", "C", "D", "E"])
        page = terms(cal, kind).list(page=2, per_page=2)
        assert ([made[2].id, made[3].id], 5, 3) == (ids(page), page.total, page.total_pages)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_page_past_the_end_is_empty(self, cal: ec.Calendar, kind: str) -> None:
        """A term page past the last one is empty, not an error, and keeps the totals."""
        self._terms_in_use(cal, kind, ["A", "B", "C"])
        page = terms(cal, kind).list(page=50, per_page=2)
        assert ((), 3, 2, 50) == (page.items, page.total, page.total_pages, page.page)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_per_page_is_clamped_to_fifty(self, cal: ec.Calendar, kind: str) -> None:
        """A term ``per_page`` above the maximum is clamped."""
        assert 50 == terms(cal, kind).list(per_page=500).per_page
