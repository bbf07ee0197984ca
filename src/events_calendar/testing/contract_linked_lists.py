"""Record contract: venue and organizer lists (spec 4.3)."""

from __future__ import annotations

from datetime import timedelta

import pytest

import events_calendar as ec
from events_calendar.errors import (
    InvalidParameter,
    PageNotFound,
)

from .base import ContractBase
from .contract_record_base import (
    LINKED_KINDS,
    ids,
    linked,
    links,
    make,
    make_event,
)

__all__ = ["LinkedListContract"]


class LinkedListContract(ContractBase):
    """Venue and organizer lists: order, paging, search and filters."""

    # == venue and organizer lists (spec 4.3) ===============================================
    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_list_of_nothing_is_an_empty_first_page(self, cal: ec.Calendar, kind: str) -> None:
        """An empty calendar lists an empty first page."""
        page = linked(cal, kind).list()
        assert ((), 0, 0, 1, 10) == (
            page.items,
            page.total,
            page.total_pages,
            page.page,
            page.per_page,
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_list_is_newest_first(self, cal: ec.Calendar, kind: str) -> None:
        """Records are listed by publication date, newest first."""
        old = make(cal, kind, "Old", date="2021-01-01 10:00:00")
        new = make(cal, kind, "New", date="2021-01-03 10:00:00")
        mid = make(cal, kind, "Mid", date="2021-01-02 10:00:00")
        assert [new.id, mid.id, old.id] == ids(linked(cal, kind).list())

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_list_same_date_newest_id_first(self, cal: ec.Calendar, kind: str) -> None:
        """Records published at the same instant are listed by id, highest first."""
        first = make(cal, kind, "First")
        second = make(cal, kind, "Second")
        assert [second.id, first.id] == ids(linked(cal, kind).list())

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_list_pages_by_ten(self, cal: ec.Calendar, kind: str) -> None:
        """The default page holds 10 records; total and total_pages count them all."""
        for number in range(12):
            make(cal, kind, f"Record {number}")
        page = linked(cal, kind).list()
        assert (10, 12, 2) == (len(page), page.total, page.total_pages)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_list_second_page(self, cal: ec.Calendar, kind: str) -> None:
        """``page`` and ``per_page`` pick a slice of the newest-first order."""
        made = [make(cal, kind, f"R{n}", date=f"2021-01-0{n + 1} 10:00:00") for n in range(5)]
        page = linked(cal, kind).list(page=2, per_page=2)
        assert ([made[2].id, made[1].id], 2, 2, 5, 3) == (
            ids(page),
            page.page,
            page.per_page,
            page.total,
            page.total_pages,
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_list_accepts_a_query_object(self, cal: ec.Calendar, kind: str) -> None:
        """``list`` takes a ``LinkedQuery`` as well as keyword filters."""
        make(cal, kind, "First")
        second = make(cal, kind, "Second")
        assert [second.id] == ids(linked(cal, kind).list(ec.LinkedQuery(per_page=1)))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_page_past_the_end_is_page_not_found(self, cal: ec.Calendar, kind: str) -> None:
        """A page past the last one is ``PageNotFound`` (404) with the kind's code."""
        make(cal, kind, "Only")
        with pytest.raises(
            PageNotFound, match=f"This {kind} list has fewer than 11 {kind}s"
        ) as info:
            linked(cal, kind).list(page=2)
        assert (f"{kind}-archive-page-not-found", 404) == (info.value.code, info.value.http_status)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_per_page_is_clamped_to_fifty(self, cal: ec.Calendar, kind: str) -> None:
        """A ``per_page`` above the maximum is clamped, not refused."""
        assert 50 == linked(cal, kind).list(per_page=500).per_page

    def test_venue_search_needs_every_word_in_one_field(self, cal: ec.Calendar) -> None:
        """A venue matches when one field contains every word, in any order."""
        hall = cal.venues.create(venue="Hall", address="100, Avenue du Temple")
        cal.venues.create(venue="Pub", address="1 Temple Street")
        assert [hall.id] == ids(cal.venues.list(search="temple avenue"))

    def test_venue_search_words_in_different_fields_do_not_match(self, cal: ec.Calendar) -> None:
        """Words found only in different fields do not make a match."""
        cal.venues.create(venue="Grand Hall", address="1 Main Street", city="Springfield")
        assert 0 == cal.venues.list(search="springfield main").total

    def test_venue_search_ignores_case(self, cal: ec.Calendar) -> None:
        """Search is case-insensitive."""
        hall = cal.venues.create(venue="Salle Pleyel", city="Paris")
        assert [hall.id] == ids(cal.venues.list(search="PLEYEL"))

    @pytest.mark.parametrize(
        ("field", "value", "search"),
        [
            ("description", "A historic concert hall", "historic"),
            ("excerpt", "Concerts nightly", "nightly"),
            ("city", "Springfield", "springf"),
            ("province", "Ile-de-France", "ile-de"),
            ("state", "Illinois", "illin"),
            ("stateprovince", "IL-Sangamon", "sangamon"),
            ("zip", "62701", "627"),
            ("phone", "+1 217 555 0100", "217"),
        ],
    )
    def test_venue_search_fields(
        self, cal: ec.Calendar, field: str, value: str, search: str
    ) -> None:
        """Venue search looks in the name, texts and address fields."""
        hall = cal.venues.create(venue="Hall", **{field: value})
        assert [hall.id] == ids(cal.venues.list(search=search))

    @pytest.mark.parametrize(
        ("field", "value", "search"),
        [
            ("description", "We organise things", "organise"),
            ("phone", "+1 555 0101", "0101"),
            ("email", "info@common.com", "common.com"),
            ("website", "https://acme.example.com", "example"),
        ],
    )
    def test_organizer_search_fields(
        self, cal: ec.Calendar, field: str, value: str, search: str
    ) -> None:
        """Organizer search looks in the name, texts, phone, e-mail and website."""
        org = cal.organizers.create(organizer="Org", **{field: value})
        assert [org.id] == ids(cal.organizers.list(search=search))

    def test_search_splits_words_on_punctuation(self, cal: ec.Calendar) -> None:
        """Words are split on every character that is not a letter, digit or dash."""
        hall = cal.venues.create(venue="Hall", address="100, Avenue du Temple")
        assert [hall.id] == ids(cal.venues.list(search="temple,avenue"))

    def test_search_keeps_dashes_inside_words(self, cal: ec.Calendar) -> None:
        """A dash does not split a word: ``saint-honore`` must occur as written."""
        cal.venues.create(venue="Hall", address="Saint Honore street")
        assert 0 == cal.venues.list(search="saint-honore").total

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_search_without_match_is_empty(self, cal: ec.Calendar, kind: str) -> None:
        """A search that matches nothing is an empty page with a total of 0."""
        make(cal, kind, "Grand Hall")
        page = linked(cal, kind).list(search="nothing-like-this")
        assert ((), 0, 0) == (page.items, page.total, page.total_pages)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_event_filter_lists_the_event_records(self, cal: ec.Calendar, kind: str) -> None:
        """``event`` lists the records linked to that event."""
        used = make(cal, kind, "Used")
        make(cal, kind, "Unused")
        event = make_event(cal, "Gala", **links(kind, [used.id]))
        assert [used.id] == ids(linked(cal, kind).list(event=event.id))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_event_filter_on_an_event_without_links(self, cal: ec.Calendar, kind: str) -> None:
        """An event with no such link gives an empty page."""
        make(cal, kind, "Unused")
        event = make_event(cal, "Gala")
        assert 0 == linked(cal, kind).list(event=event.id).total

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_event_filter_needs_an_event_id(self, cal: ec.Calendar, kind: str) -> None:
        """``event`` must name an existing event (not a venue or organizer)."""
        record = make(cal, kind, "Hall")
        with pytest.raises(InvalidParameter, match="event") as info:
            linked(cal, kind).list(event=record.id)
        assert ["event"] == list(info.value.fields)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_event_filter_hides_drafts_from_anonymous(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """A draft linked to the event is not listed to anonymous callers."""
        draft = make(cal, kind, "Hidden", status="draft")
        event = make_event(cal, "Gala", **links(kind, [draft.id]))
        assert 0 == linked(anon, kind).list(event=event.id).total

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_has_events_true(self, cal: ec.Calendar, kind: str) -> None:
        """``has_events=True`` lists records used by a published event."""
        used = make(cal, kind, "Used")
        make(cal, kind, "Unused")
        make_event(cal, "Gala", **links(kind, [used.id]))
        assert [used.id] == ids(linked(cal, kind).list(has_events=True))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_has_events_false(self, cal: ec.Calendar, kind: str) -> None:
        """``has_events=False`` lists records no event uses."""
        used = make(cal, kind, "Used")
        unused = make(cal, kind, "Unused")
        make_event(cal, "Gala", **links(kind, [used.id]))
        assert [unused.id] == ids(linked(cal, kind).list(has_events=False))

    @pytest.mark.parametrize("status", ["draft", "pending"])
    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_has_events_ignores_draft_and_pending_events(
        self, cal: ec.Calendar, kind: str, status: str
    ) -> None:
        """Draft and pending events do not count as events for ``has_events``."""
        record = make(cal, kind, "Planned")
        make_event(cal, "Plan", status=status, **links(kind, [record.id]))
        assert ([], [record.id]) == (
            ids(linked(cal, kind).list(has_events=True)),
            ids(linked(cal, kind).list(has_events=False)),
        )

    @pytest.mark.parametrize("status", ["private", "future"])
    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_has_events_counts_private_and_future_events(
        self, cal: ec.Calendar, kind: str, status: str
    ) -> None:
        """Private and scheduled events count for ``has_events``."""
        record = make(cal, kind, "Hall")
        make_event(cal, "Gala", status=status, **links(kind, [record.id]))
        assert [record.id] == ids(linked(cal, kind).list(has_events=True))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_has_events_counts_trashed_events(self, cal: ec.Calendar, kind: str) -> None:
        """A trashed event still counts for ``has_events`` (as in the reference)."""
        record = make(cal, kind, "Hall")
        event = make_event(cal, "Gala", **links(kind, [record.id]))
        cal.events.delete(event.id)
        assert [record.id] == ids(linked(cal, kind).list(has_events=True))

    @pytest.mark.parametrize(("value", "expected"), [("true", [0]), ("1", [0]), ("false", [1])])
    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_has_events_reads_strings(
        self, cal: ec.Calendar, kind: str, value: str, expected: list[int]
    ) -> None:
        """``has_events`` accepts the strings HTTP clients send."""
        used = make(cal, kind, "Used")
        unused = make(cal, kind, "Unused")
        make_event(cal, "Gala", **links(kind, [used.id]))
        records = [used.id, unused.id]
        assert [records[i] for i in expected] == ids(linked(cal, kind).list(has_events=value))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_only_with_upcoming(self, cal: ec.Calendar, kind: str) -> None:
        """``only_with_upcoming`` keeps records linked to an event starting now or later."""
        soon = make(cal, kind, "Soon")
        past = make(cal, kind, "Past")
        make(cal, kind, "Unused")
        make_event(cal, "Next", start="2026-11-29 18:00:00", **links(kind, [soon.id]))
        make_event(cal, "Last", start="2026-11-15 18:00:00", **links(kind, [past.id]))
        assert [soon.id] == ids(linked(cal, kind).list(only_with_upcoming=True))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_only_with_upcoming_counts_an_event_starting_now(
        self, cal: ec.Calendar, kind: str
    ) -> None:
        """An event starting exactly now is upcoming; one a second earlier is not."""
        now = make(cal, kind, "Now")
        before = make(cal, kind, "Before")
        make_event(cal, "Starts now", start="2026-11-22 10:00:00", **links(kind, [now.id]))
        make_event(cal, "Started", start="2026-11-22 09:59:59", **links(kind, [before.id]))
        assert [now.id] == ids(linked(cal, kind).list(only_with_upcoming="1"))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_only_with_upcoming_follows_the_clock(
        self, cal: ec.Calendar, clock: ec.FixedClock, kind: str
    ) -> None:
        """Whether an event is upcoming is measured against the calendar's clock."""
        record = make(cal, kind, "Hall")
        make_event(cal, "Next", start="2026-11-29 18:00:00", **links(kind, [record.id]))
        clock.advance(timedelta(days=30))
        assert 0 == linked(cal, kind).list(only_with_upcoming=True).total

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_only_with_upcoming_false_filters_nothing(self, cal: ec.Calendar, kind: str) -> None:
        """``only_with_upcoming=False`` applies no filter."""
        make(cal, kind, "Unused")
        past = make(cal, kind, "Past")
        make_event(cal, "Last", start="2026-11-15 18:00:00", **links(kind, [past.id]))
        assert 2 == linked(cal, kind).list(only_with_upcoming="false").total

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_only_with_upcoming_uses_the_callers_statuses(
        self, cal: ec.Calendar, anon: ec.Calendar, kind: str
    ) -> None:
        """A draft upcoming event counts for full access but not for anonymous callers."""
        record = make(cal, kind, "Hall")
        make_event(
            cal, "Plan", start="2026-12-01 18:00:00", status="draft", **links(kind, [record.id])
        )
        assert ([record.id], []) == (
            ids(linked(cal, kind).list(only_with_upcoming=True)),
            ids(linked(anon, kind).list(only_with_upcoming=True)),
        )

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_status_filter(self, cal: ec.Calendar, kind: str) -> None:
        """``status`` lists only records with that status."""
        make(cal, kind, "Public")
        draft = make(cal, kind, "Hidden", status="draft")
        assert [draft.id] == ids(linked(cal, kind).list(status="draft"))

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_status_filter_takes_a_list(self, cal: ec.Calendar, kind: str) -> None:
        """``status`` accepts several statuses, as a list or CSV."""
        public = make(cal, kind, "Public", date="2021-01-01 10:00:00")
        draft = make(cal, kind, "Hidden", status="draft", date="2021-01-02 10:00:00")
        make(cal, kind, "Pending", status="pending")
        assert [draft.id, public.id] == ids(linked(cal, kind).list(status="draft,publish"))
