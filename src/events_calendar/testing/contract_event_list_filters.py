"""The event contract: lists by venue, organizer, flags, status and include, related
records and bulk loads."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import events_calendar as ec
from events_calendar.errors import (
    Forbidden,
    InvalidParameter,
    MissingParameter,
)
from events_calendar.queries import EventFilter

from .contract_event_base import (
    RANGE,
    CalendarWith,
    EventContractBase,
    given,
    titles,
)

__all__ = ["EventListFilterContract"]


class EventListFilterContract(EventContractBase):
    """Event lists by venue, organizer, flags, status and include; related records; bulk loads."""

    # == list: venues, organizers, flags =====================================================

    def test_venue_filters(self, cal: ec.Calendar) -> None:
        """A venue id keeps that venue's events (evlist_venue)."""
        ids = self.add_linked_events(cal)
        assert ["Gala", "Festival"] == titles(cal.events.list(venue=ids["hall"], **RANGE))

    def test_venue_list_is_any_of(self, cal: ec.Calendar) -> None:
        """Several venues match events at any of them (evlist_venue_multi)."""
        ids = self.add_linked_events(cal)
        page = cal.events.list(venue=[ids["hall"], ids["pleyel"]], **RANGE)
        assert ["Gala", "Picnic", "Festival"] == titles(page)

    def test_venue_csv_is_any_of(self, cal: ec.Calendar) -> None:
        """A CSV text of venue ids is read as a list (DESIGN 3)."""
        ids = self.add_linked_events(cal)
        page = cal.events.list(venue=f"{ids['pleyel']},{ids['hall']}", **RANGE)
        assert ["Gala", "Picnic", "Festival"] == titles(page)

    def test_organizer_filters(self, cal: ec.Calendar) -> None:
        """An organizer id keeps that organizer's events (evlist_organizer)."""
        ids = self.add_linked_events(cal)
        assert ["Gala", "Festival"] == titles(cal.events.list(organizer=ids["jane"], **RANGE))

    def test_organizer_csv_is_any_of(self, cal: ec.Calendar) -> None:
        """A CSV text of organizer ids matches events with any of them (DESIGN 3)."""
        ids = self.add_linked_events(cal)
        page = cal.events.list(organizer=f"{ids['acme']},{ids['jane']}", **RANGE)
        assert ["Gala", "Festival", "Quiz"] == titles(page)

    @pytest.mark.parametrize("field", ["venue", "organizer"])
    def test_unknown_venue_or_organizer_filter_is_refused(
        self, cal: ec.Calendar, field: str
    ) -> None:
        """An id that is no venue (organizer) is rest_invalid_param on that filter."""
        self.add_linked_events(cal)
        with pytest.raises(InvalidParameter, match=field) as caught:
            cal.events.list(**given(field, 999999), **RANGE)
        assert [field] == list(caught.value.fields)

    def test_filters_combine_with_and(self, cal: ec.Calendar) -> None:
        """Category, venue and featured must all hold (evlist_combined)."""
        ids = self.add_linked_events(cal)
        page = cal.events.list(
            categories="music", venue=ids["hall"], featured=True, organizer=ids["acme"], **RANGE
        )
        assert ["Gala"] == titles(page)

    def test_featured_true_keeps_featured_events(self, cal: ec.Calendar) -> None:
        """featured=true keeps featured events only (evlist_featured_true)."""
        self.add_linked_events(cal)
        assert ["Gala", "Festival"] == titles(cal.events.list(featured="true", **RANGE))

    def test_featured_false_keeps_the_others(self, cal: ec.Calendar) -> None:
        """featured=false keeps events not featured (evlist_featured_false)."""
        self.add_linked_events(cal)
        assert ["Picnic", "Quiz"] == titles(cal.events.list(featured=False, **RANGE))

    def test_hidden_events_are_left_out_of_lists(self, cal: ec.Calendar) -> None:
        """Events hidden from listings never appear in lists (ev_fmt_slashes)."""
        self.add_event(cal, "Winter Market", hide_from_listings=True)
        self.add_event(cal, "Shown")
        assert ["Shown"] == titles(cal.events.list(**RANGE))

    def test_post_parent_keeps_the_children(self, cal: ec.Calendar) -> None:
        """post_parent keeps the children of that event, not the event itself."""
        parent = self.add_event(cal, "Festival", "2031-09-05 12:00", "2031-09-07 22:00")
        self.add_event(
            cal, "Opening", "2031-09-05 12:00", "2031-09-05 13:00", post_parent=parent.id
        )
        self.add_event(cal, "Other", "2031-09-06 12:00", "2031-09-06 13:00")
        assert ["Opening"] == titles(cal.events.list(post_parent=parent.id, **RANGE))

    @pytest.mark.parametrize("value", [0, 999999, "abc"])
    def test_bad_post_parent_is_refused(self, cal: ec.Calendar, value: object) -> None:
        """post_parent must name an event (evlist_post_parent_zero)."""
        with pytest.raises(InvalidParameter, match="post_parent") as caught:
            cal.events.list(post_parent=value, **RANGE)
        assert ["post_parent"] == list(caught.value.fields)

    # == list: statuses ======================================================================

    def test_full_access_lists_every_status_but_trash(self, cal: ec.Calendar) -> None:
        """Without a status filter, full access sees all but the trash (evlist_range_admin)."""
        self.add_status_events(cal)
        expected = ["Publish", "Draft", "Pending", "Private", "Future"]
        assert expected == titles(cal.events.list(**RANGE))

    def test_anonymous_lists_published_events_only(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """Anonymous callers see only published events (evlist_range)."""
        self.add_status_events(cal)
        assert ["Publish"] == titles(anon.events.list(**RANGE))

    def test_status_filter_keeps_that_status(self, cal: ec.Calendar) -> None:
        """status=draft keeps drafts only (evlist_status_draft_admin)."""
        self.add_status_events(cal)
        assert ["Draft"] == titles(cal.events.list(status="draft", **RANGE))

    def test_status_csv_keeps_each_status(self, cal: ec.Calendar) -> None:
        """A CSV of statuses keeps each of them (evlist_status_multi_admin)."""
        self.add_status_events(cal)
        assert ["Publish", "Draft"] == titles(cal.events.list(status="draft,publish", **RANGE))

    def test_anonymous_may_ask_for_published_events(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """status=publish is allowed anonymously."""
        self.add_status_events(cal)
        assert ["Publish"] == titles(anon.events.list(status="publish", **RANGE))

    def test_anonymous_may_not_ask_for_drafts(self, cal: ec.Calendar, anon: ec.Calendar) -> None:
        """Asking for drafts anonymously is rest_invalid_param (evlist_status_draft_anon)."""
        self.add_status_events(cal)
        with pytest.raises(InvalidParameter, match="status") as caught:
            anon.events.list(status="draft", **RANGE)
        assert ("rest_invalid_param", ["status"]) == (caught.value.code, list(caught.value.fields))

    # == list: include =======================================================================
    def test_include_ignores_date_filters(self, cal: ec.Calendar) -> None:
        """include lists the given events whatever the dates (evlist_include_dates_ignored)."""
        past = self.add_event(cal, "Retro Meetup", "2020-03-05 18:00", "2020-03-05 20:00")
        self.add_event(cal, "Gala")
        page = cal.events.list(include=[past.id], start_date="2031-01-01", end_date="2031-12-31")
        assert ["Retro Meetup"] == titles(page)

    def test_include_escapes_the_default_window(self, cal: ec.Calendar) -> None:
        """include without dates is not limited by the default window (evlist_include_csv)."""
        past = self.add_event(cal, "Retro Meetup", "2020-03-05 18:00", "2020-03-05 20:00")
        far = self.add_event(cal, "Gala", "2031-06-15 19:00", "2031-06-15 23:00")
        self.add_event(cal, "Other")
        page = cal.events.list(include=f"{far.id},{past.id}")
        assert {"Retro Meetup", "Gala"} == set(titles(page))

    def test_include_orders_by_publication_date_then_id(self, cal: ec.Calendar) -> None:
        """Included events come by publication date, then id, not by start."""
        first = self.add_event(cal, "Published 2022", "2020-01-01", "2020-01-01", date="2022-01-01")
        second = self.add_event(
            cal, "Published 2021", "2031-01-01", "2031-01-01", date="2021-01-01"
        )
        third = self.add_event(cal, "Also 2021", "2025-01-01", "2025-01-01", date="2021-01-01")
        page = cal.events.list(include=[first.id, second.id, third.id])
        assert ["Published 2021", "Also 2021", "Published 2022"] == titles(page)

    def test_include_of_unknown_ids_is_empty(self, cal: ec.Calendar) -> None:
        """Ids that name no event give an empty page (evlist_include_unknown)."""
        self.add_event(cal)
        assert ec.Page(items=(), total=0, page=1, per_page=10) == cal.events.list(include="999999")

    def test_include_still_hides_unpublished_events_from_anonymous(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """include does not widen what a caller may see."""
        draft = self.add_event(cal, "Draft", status="draft")
        shown = self.add_event(cal, "Shown")
        assert ["Shown"] == titles(anon.events.list(include=[draft.id, shown.id]))

    # == list: order, unsupported filters, query objects =====================================
    def test_events_are_ordered_by_start_then_id(self, cal: ec.Calendar) -> None:
        """Events come by start; events starting together come by id."""
        self.add_event(cal, "B same start", "2031-06-15 19:00", "2031-06-15 23:00")
        self.add_event(cal, "A earlier", "2031-06-10 19:00", "2031-06-10 23:00")
        self.add_event(cal, "C same start", "2031-06-15 19:00", "2031-06-15 20:00")
        expected = ["A earlier", "B same start", "C same start"]
        assert expected == titles(cal.events.list(**RANGE))

    def test_order_compares_instants_not_wall_clocks(self, cal: ec.Calendar) -> None:
        """An 20:00 Paris event (18:00 UTC) comes before a 19:00 UTC one."""
        self.add_event(cal, "London", "2031-06-15 19:00", "2031-06-15 23:00")
        self.add_event(
            cal, "Paris", "2031-06-15 20:00", "2031-06-15 23:00", timezone="Europe/Paris"
        )
        assert ["Paris", "London"] == titles(cal.events.list(**RANGE))

    @pytest.mark.parametrize(
        ("field", "value"), [("geoloc", True), ("geoloc_lat", 39.78), ("geoloc_lng", "-89.65")]
    )
    def test_geolocation_filters_filter_nothing(
        self, cal: ec.Calendar, field: str, value: object
    ) -> None:
        """Geolocation filters list every event, as the reference without its paid add-on
        lists them (evlist_geoloc*): no venue here holds coordinates."""
        self.add_event(cal)
        assert ["Summer Gala"] == titles(cal.events.list(**given(field, value), **RANGE))

    @pytest.mark.parametrize(
        ("field", "value"), [("geoloc", "maybe"), ("geoloc_lat", "north"), ("geoloc_lng", "inf")]
    )
    def test_a_geolocation_value_of_the_wrong_type_is_refused(
        self, cal: ec.Calendar, field: str, value: object
    ) -> None:
        """``geoloc`` is a boolean and the coordinates numbers, as the reference types them."""
        with pytest.raises(InvalidParameter) as caught:
            cal.events.list(**given(field, value), **RANGE)
        assert ("rest_invalid_param", [field]) == (caught.value.code, list(caught.value.fields))

    def test_ticketed_false_is_accepted(self, cal: ec.Calendar) -> None:
        """ticketed=false filters nothing out (evlist_ticketed_false)."""
        self.add_event(cal)
        assert ["Summer Gala"] == titles(cal.events.list(ticketed="false", **RANGE))

    def test_query_object_equals_keyword_form(self, cal: ec.Calendar) -> None:
        """``list(EventQuery(...))`` is ``list(...)`` with the same keywords."""
        self.add_term_events(cal)
        params: dict[str, Any] = {"categories": "music", "per_page": 1, "page": 2} | RANGE
        by_query = cal.events.list(ec.EventQuery(**params))
        assert (cal.events.list(**params), ["Festival"]) == (by_query, titles(by_query))

    @pytest.mark.parametrize("field", ["categories", "tags"])
    def test_a_term_filter_holding_nul_is_refused_by_name(
        self, cal: ec.Calendar, field: str
    ) -> None:
        """A NUL in a term slug or name is ``InvalidParameter`` naming the filter on every
        backend (PostgreSQL's driver refused it with an untyped ``DataError``)."""
        params: dict[str, Any] = {field: ["jazz\x00"]}
        with pytest.raises(InvalidParameter) as info:
            cal.events.list(**params)
        assert [field] == list(info.value.fields)

    @pytest.mark.parametrize("missing", [None, float("nan")])
    def test_a_missing_page_is_the_first(self, cal: ec.Calendar, missing: object) -> None:
        """``page=None`` or ``NaN`` (a DataFrame cell) is a page not given, as a missing
        ``per_page`` is the default size: the first page, on every kind of list."""
        self.add_event(cal)
        pages = [
            cal.events.list(page=missing, **RANGE).page,
            cal.venues.list(page=missing).page,
            cal.tags.list(page=missing).page,
        ]
        assert [1, 1, 1] == pages

    def test_keywords_beside_a_query_object_change_it(self, cal: ec.Calendar) -> None:
        """``list(query, page=2)`` is the query's second page: keywords win over the query
        object, as they do for ``iter`` (they were silently ignored)."""
        self.add_term_events(cal)
        query = ec.EventQuery(categories="music", per_page=1, **RANGE)
        assert ["Festival"] == titles(cal.events.list(query, page=2))

    @pytest.mark.parametrize(
        "call",
        [
            lambda cal: cal.events.list(colour="red"),
            lambda cal: cal.events.list({"colour": "red"}),
            lambda cal: list(cal.events.iter(colour="red")),
            lambda cal: cal.events.update_many({"colour": "red"}, featured=True),
            lambda cal: cal.events.delete_many({"colour": "red"}),
            lambda cal: cal.venues.list(colour="red"),
            lambda cal: cal.categories.delete_many({"colour": "red"}),
            lambda cal: cal.tags.list(colour="red"),
        ],
    )
    def test_a_parameter_no_list_takes_is_refused_by_name(
        self, cal: ec.Calendar, call: Any
    ) -> None:
        """An unknown list parameter is ``InvalidParameter`` naming it, as ``create`` names an
        unknown field (it was a bare ``TypeError``), and nothing changes."""
        self.add_event(cal)
        with pytest.raises(InvalidParameter) as info:
            call(cal)
        assert (["colour"], ["Summer Gala"]) == (
            list(info.value.fields),
            titles(cal.events.list(**RANGE)),
        )

    # == related records =====================================================================
    def test_related_gathers_linked_records_by_id(self, cal: ec.Calendar) -> None:
        """``related`` returns the venues, organizers and terms of a page, keyed by id."""
        hall = cal.venues.create(venue="Grand Hall")
        jane = cal.organizers.create(organizer="Jane Doe")
        gala = self.add_event(
            cal, venue=hall.id, organizer=[jane.id], categories=["Music"], tags=["Free"]
        )
        related = cal.events.related(cal.events.list(**RANGE))
        (music_id,), (free_id,) = gala.categories, gala.tags
        expected = (
            {hall.id: "Grand Hall"},
            {jane.id: "Jane Doe"},
            {music_id: "Music"},
            {free_id: "Free"},
        )
        actual = tuple(
            {i: record.name for i, record in found.items()}
            for found in (related.venues, related.organizers, related.categories, related.tags)
        )
        assert expected == actual

    def test_related_keeps_linked_drafts_but_not_as_readable(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """A draft venue stays part of its event for anonymous callers, marked not readable
        (the reference shows a draft organizer in del_venue_event_after)."""
        secret = cal.venues.create(venue="Secret Garden", status="draft")
        self.add_event(cal, venue=secret.id)
        related = anon.events.related(anon.events.list(**RANGE))
        assert ([secret.id], frozenset()) == (list(related.venues), related.readable)

    def test_related_shows_an_unreadable_record_only_through_a_readable_event(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """A private organizer is shown to an anonymous caller as part of a published event
        that links it, not because an event handed in names it: one made up, or a stored
        one the caller may not read (its private links stay unknown too)."""
        secret = cal.organizers.create(organizer="Secret", email="ceo@corp.example")
        secret = cal.organizers.update(secret.id, status="private")
        public = self.add_event(cal, organizer=[secret.id])
        hidden = self.add_event(cal, title="Board", organizer=[secret.id], status="private")
        made_up = attrs.evolve(public, id=hidden.id + 1000)
        found = [
            list(anon.events.related(events).organizers)
            for events in (
                [public],
                [hidden],
                [made_up],
                [attrs.evolve(hidden, status=ec.Status.PUBLISH)],
            )
        ]
        assert [[secret.id], [], [], []] == found

    def test_batches_of_a_filter_built_by_hand_keep_to_the_read_rule(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """``batches`` takes a normalised filter; one built by hand asking for every status
        is narrowed to what the caller may read, as a query is: no private event or draft
        reaches an anonymous caller, whatever the filter says."""
        self.add_event(cal, title="Open")
        self.add_event(cal, title="Board", status="private")
        self.add_event(cal, title="Plan", status="draft")
        every = EventFilter(statuses=frozenset(ec.Status))
        assert (["Open"], ["Board", "Open", "Plan"]) == (
            sorted(e.title for batch in anon.events.batches(every) for e in batch),
            sorted(e.title for batch in cal.events.batches(every) for e in batch),
        )

    def test_related_lists_terms_by_name(self, cal: ec.Calendar) -> None:
        """An event's categories come back by name, not in the order given (ev_gala)."""
        gala = self.add_event(cal, categories=["Music", "Jazz"])
        related = cal.events.related([gala])
        assert ["Jazz", "Music"] == [term.name for term in related.categories_of(gala)]

    # == bulk_create =========================================================================

    def test_bulk_create_creates_rows_in_order(self, cal: ec.Calendar) -> None:
        """Rows become events in row order; their ids are returned in that order."""
        ids = cal.events.bulk_create(self.event_rows(3))
        assert (["Row 0", "Row 1", "Row 2"], sorted(ids)) == (
            [cal.events.get(i).title for i in ids],
            ids,
        )

    def test_bulk_created_events_are_listed(self, cal: ec.Calendar) -> None:
        """Bulk-created events are stored like created ones."""
        cal.events.bulk_create(self.event_rows(3))
        assert ["Row 0", "Row 1", "Row 2"] == titles(cal.events.list(**RANGE))

    def test_bulk_create_reports_progress_per_batch(self, calendar_with: CalendarWith) -> None:
        """progress(done, total) is called after each batch."""
        small = calendar_with(ec.Settings(bulk_batch_size=2))
        calls: list[tuple[int, int | None]] = []
        small.events.bulk_create(
            self.event_rows(5), progress=lambda done, total: calls.append((done, total))
        )
        assert [(2, 5), (4, 5), (5, 5)] == calls

    def test_bulk_create_gives_duplicate_titles_unique_slugs(self, cal: ec.Calendar) -> None:
        """Rows with one title get -2, -3 slugs, as single creates do."""
        rows = [row | {"title": "Summer Gala"} for row in self.event_rows(3)]
        ids = cal.events.bulk_create(rows)
        expected = ["summer-gala", "summer-gala-2", "summer-gala-3"]
        assert expected == [cal.events.get(i).slug for i in ids]

    def test_bulk_rows_naming_one_new_category_share_it(self, cal: ec.Calendar) -> None:
        """A new category named by several rows is created once."""
        rows = [row | {"categories": ["Poetry Slam"]} for row in self.event_rows(3)]
        ids = cal.events.bulk_create(rows)
        (poetry,) = cal.categories.list(hide_empty=False).items
        assert [(poetry.id,)] * 3 == [cal.events.get(i).categories for i in ids]

    def test_bulk_create_bad_row_names_it_and_writes_nothing(
        self, calendar_with: CalendarWith
    ) -> None:
        """A bad row is reported as rows[N].field and no row is written."""
        small = calendar_with(ec.Settings(bulk_batch_size=2))
        rows = self.event_rows(5)
        rows[3]["start_date"] = "not-a-date"
        with pytest.raises(InvalidParameter, match=r"rows\[3\]\.start_date") as caught:
            small.events.bulk_create(rows)
        assert (["rows[3].start_date"], []) == (
            list(caught.value.fields),
            titles(small.events.list(**RANGE)),
        )

    def test_bulk_create_missing_field_names_the_row(self, cal: ec.Calendar) -> None:
        """A row without a title is reported as rows[N].title."""
        rows = self.event_rows(3)
        del rows[2]["title"]
        with pytest.raises(MissingParameter, match=r"rows\[2\]\.title") as caught:
            cal.events.bulk_create(rows)
        assert (["rows[2].title"], []) == (
            list(caught.value.fields),
            titles(cal.events.list(**RANGE)),
        )

    def test_bulk_create_row_ending_before_start_writes_nothing(
        self, calendar_with: CalendarWith
    ) -> None:
        """A row ending before it starts is found before any batch is written."""
        small = calendar_with(ec.Settings(bulk_batch_size=2))
        rows = self.event_rows(5)
        rows[4]["end_date"] = "2031-03-01 09:00"
        with pytest.raises(InvalidParameter, match=r"rows\[4\]\.end_date") as caught:
            small.events.bulk_create(rows)
        assert (["rows[4].end_date"], []) == (
            list(caught.value.fields),
            titles(small.events.list(**RANGE)),
        )

    @pytest.mark.parametrize("bad", ["oops", 7, None, ["title", "x"]])
    def test_bulk_create_row_that_is_no_mapping_is_named(
        self, cal: ec.Calendar, bad: object
    ) -> None:
        """A row that is not a mapping of fields is ``InvalidParameter`` naming its position
        (it was an ``AttributeError``), and no row is written."""
        rows: list[Any] = [*self.event_rows(2), bad]
        with pytest.raises(InvalidParameter) as info:
            cal.events.bulk_create(rows, progress=None)
        assert (["rows[2]"], []) == (list(info.value.fields), titles(cal.events.list(**RANGE)))

    def test_bulk_create_refused_row_writes_nothing(self, cal: ec.Calendar) -> None:
        """A row the caller may not write (another author) stops the load before any batch."""
        other = cal.users.create("other-author", role="author")
        author = self.as_role(cal, "author")
        rows = self.event_rows(3)
        rows[2]["author"] = other.id
        with pytest.raises(Forbidden, match="author"):
            author.events.bulk_create(rows, progress=None)
        assert [] == titles(cal.events.list(**RANGE))
