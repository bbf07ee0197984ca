"""The event contract: lists, related records and bulk loads."""

from __future__ import annotations

from typing import Any

import pytest

import events_calendar as ec
from events_calendar.errors import (
    Forbidden,
    InvalidParameter,
    MissingParameter,
    PageNotFound,
)
from events_calendar.http.errors import status_of

from .contract_event_base import (
    RANGE,
    CalendarWith,
    EventContractBase,
    given,
    titles,
)

__all__ = ["EventListContract"]


class EventListContract(EventContractBase):
    """Event lists (interface section 4.2), related records, bulk loads."""

    # == list: date windows ==================================================================
    def test_default_window_runs_from_yesterday_to_24_months_ahead(self, cal: ec.Calendar) -> None:
        """Without dates the list holds events within [yesterday 00:00, +24 months 23:59:59]."""
        self.add_event(cal, "Before", "2026-11-20 23:00:00", "2026-11-20 23:30:00")
        self.add_event(cal, "Ongoing", "2026-11-12 09:00:00", "2026-12-02 17:00:00")
        self.add_event(cal, "First In", "2026-11-21 00:00:00", "2026-11-21 01:00:00")
        self.add_event(cal, "Last In", "2028-11-22 22:00:00", "2028-11-22 23:59:59")
        self.add_event(cal, "After", "2028-11-22 23:00:00", "2028-11-23 00:00:00")
        assert ["First In", "Last In"] == titles(cal.events.list())

    def test_start_date_only_keeps_the_default_end(self, cal: ec.Calendar) -> None:
        """A start_date alone still ends the window 24 months ahead (evlist_start_only)."""
        self.add_event(cal, "In 2027", "2027-06-01 10:00", "2027-06-01 11:00")
        self.add_event(cal, "In 2031", "2031-06-01 10:00", "2031-06-01 11:00")
        assert ["In 2027"] == titles(cal.events.list(start_date="2026-01-01"))

    def test_end_date_only_keeps_the_default_start(self, cal: ec.Calendar) -> None:
        """An end_date alone still starts the window yesterday (evlist_end_only)."""
        self.add_event(cal, "Past", "2020-03-05 18:00", "2020-03-05 20:00")
        self.add_event(cal, "Soon", "2026-11-27 18:00", "2026-11-27 20:00")
        assert ["Soon"] == titles(cal.events.list(end_date="2031-01-01"))

    def test_start_and_end_select_contained_events(self, cal: ec.Calendar) -> None:
        """start_date and end_date keep events wholly inside them (evlist_contained_*)."""
        self.add_event(cal, "Jazz Festival", "2031-09-05 12:00:00", "2031-09-07 22:00:00")
        outside = cal.events.list(start_date="2031-09-01", end_date="2031-09-06")
        inside = cal.events.list(start_date="2031-09-05", end_date="2031-09-07")
        assert ([], ["Jazz Festival"]) == (titles(outside), titles(inside))

    def test_date_bounds_widen_to_whole_days(self, cal: ec.Calendar) -> None:
        """Without strict_dates, bounds cover whole days (evlist_day_nonstrict)."""
        self.add_event(cal, "Gala", "2031-06-15 19:00:00", "2031-06-15 23:00:00")
        page = cal.events.list(start_date="2031-06-15 20:00:00", end_date="2031-06-15 21:00:00")
        assert ["Gala"] == titles(page)

    def test_strict_dates_use_the_exact_times(self, cal: ec.Calendar) -> None:
        """With strict_dates the bounds apply to the second (evlist_day_strict)."""
        self.add_event(cal, "Gala", "2031-06-15 19:00:00", "2031-06-15 23:00:00")
        page = cal.events.list(
            start_date="2031-06-15 20:00:00", end_date="2031-06-15 21:00:00", strict_dates=True
        )
        assert [] == titles(page)

    def test_strict_bounds_are_inclusive(self, cal: ec.Calendar) -> None:
        """Strict start_date and end_date include events exactly on them."""
        self.add_event(cal, "Gala", "2031-06-15 19:00:00", "2031-06-15 23:00:00")
        page = cal.events.list(
            start_date="2031-06-15 19:00:00", end_date="2031-06-15 23:00:00", strict_dates="true"
        )
        assert ["Gala"] == titles(page)

    def test_strict_dates_false_text_rounds_to_days(self, cal: ec.Calendar) -> None:
        """``strict_dates='false'`` keeps whole-day rounding (evlist_strict_false)."""
        self.add_event(cal, "Gala", "2031-06-15 19:00:00", "2031-06-15 23:00:00")
        page = cal.events.list(
            start_date="2031-06-15 20:00", end_date="2031-06-15 21:00", strict_dates="false"
        )
        assert ["Gala"] == titles(page)

    def test_naive_bounds_are_read_in_the_calendar_zone(self, calendar_with: CalendarWith) -> None:
        """A date bound without a zone is a day on the calendar's clock."""
        paris = calendar_with(ec.Settings(timezone="Europe/Paris"))
        self.add_event(paris, "Late", "2031-06-15 00:30", "2031-06-15 01:30")
        page = paris.events.list(start_date="2031-06-15", end_date="2031-06-15")
        assert ["Late"] == titles(page)

    def test_starts_before_rounds_to_the_end_of_its_day(self, cal: ec.Calendar) -> None:
        """starts_before=D means before the end of D without strict_dates (evlist_starts_before)."""
        self.add_event(cal, "Gala", "2031-06-15 19:00:00", "2031-06-15 23:00:00")
        self.add_event(cal, "Next Day", "2031-06-16 09:00:00", "2031-06-16 10:00:00")
        assert ["Gala"] == titles(cal.events.list(starts_before="2031-06-15 08:00:00"))

    def test_starts_before_is_strict(self, cal: ec.Calendar) -> None:
        """An event starting exactly at a strict starts_before bound is left out."""
        self.add_event(cal, "Gala", "2031-06-15 19:00:00", "2031-06-15 23:00:00")
        self.add_event(cal, "Earlier", "2031-06-15 18:59:59", "2031-06-15 23:00:00")
        page = cal.events.list(starts_before="2031-06-15 19:00:00", strict_dates=True)
        assert ["Earlier"] == titles(page)

    def test_starts_after_rounds_to_the_end_of_its_day(self, cal: ec.Calendar) -> None:
        """starts_after=D means after the end of D (evlist_starts_after)."""
        self.add_event(cal, "Same Day", "2031-12-31 20:00", "2031-12-31 21:00")
        self.add_event(cal, "New Year", "2032-01-01 00:30", "2032-01-01 02:00")
        assert ["New Year"] == titles(cal.events.list(starts_after="2031-12-31 00:00:00"))

    def test_starts_after_is_strict(self, cal: ec.Calendar) -> None:
        """An event starting exactly at a strict starts_after bound is left out."""
        self.add_event(cal, "At", "2031-06-15 19:00:00", "2031-06-15 23:00:00")
        self.add_event(cal, "After", "2031-06-15 19:00:01", "2031-06-15 23:00:00")
        page = cal.events.list(starts_after="2031-06-15 19:00:00", strict_dates=True)
        assert ["After"] == titles(page)

    def test_ends_before_rounds_to_the_end_of_its_day(self, cal: ec.Calendar) -> None:
        """ends_before=D means ending before the end of D (evlist_ends_before)."""
        self.add_event(cal, "Talk", "2031-08-01 09:30", "2031-08-01 11:00")
        self.add_event(cal, "Late", "2031-08-01 22:00", "2031-08-02 01:00")
        page = cal.events.list(ends_before="2031-08-01 08:00:00", start_date="2031-01-01")
        assert ["Talk"] == titles(page)

    def test_ends_after_rounds_to_the_end_of_its_day(self, cal: ec.Calendar) -> None:
        """ends_after=D means ending after the end of D (evlist_ends_after)."""
        self.add_event(cal, "Same Day", "2032-02-01 10:00", "2032-02-01 23:00")
        self.add_event(cal, "Overnight", "2032-02-01 22:00", "2032-02-02 01:00")
        assert ["Overnight"] == titles(cal.events.list(ends_after="2032-02-01 00:00:00"))

    def test_ends_before_is_strict(self, cal: ec.Calendar) -> None:
        """An event ending exactly at a strict ends_before bound is left out."""
        self.add_event(cal, "At", "2031-06-15 19:00:00", "2031-06-15 23:00:00")
        self.add_event(cal, "Before", "2031-06-15 19:00:00", "2031-06-15 22:59:59")
        page = cal.events.list(ends_before="2031-06-15 23:00:00", strict_dates=True)
        assert ["Before"] == titles(page)

    def test_relative_bounds_alone_drop_the_default_window(self, cal: ec.Calendar) -> None:
        """With only relative bounds, events outside the default window are listed."""
        self.add_event(cal, "Past", "2020-03-05 18:00", "2020-03-05 20:00")
        self.add_event(cal, "Far", "2032-03-02 19:00", "2032-03-02 21:00")
        assert ["Past", "Far"] == titles(cal.events.list(starts_after="2019-01-01"))

    def test_relative_bound_with_start_date_drops_the_default_end(self, cal: ec.Calendar) -> None:
        """With a relative bound, a given start_date is not capped by the default end."""
        self.add_event(cal, "Gala", "2031-06-15 19:00", "2031-06-15 23:00")
        self.add_event(cal, "Later", "2031-07-14 10:00", "2031-07-14 11:00")
        page = cal.events.list(start_date="2031-01-01", starts_before="2031-07-01 00:00:00")
        assert ["Gala"] == titles(page)

    def test_relative_bounds_combine(self, cal: ec.Calendar) -> None:
        """starts_after and ends_before together keep events inside both (evlist_window_combo)."""
        self.add_event(cal, "May", "2031-05-30 10:00", "2031-05-30 11:00")
        self.add_event(cal, "June", "2031-06-15 19:00", "2031-06-15 23:00")
        self.add_event(cal, "Across", "2031-09-29 10:00", "2031-10-01 11:00")
        page = cal.events.list(starts_after="2031-06-01", ends_before="2031-09-30")
        assert ["June"] == titles(page)

    def test_end_date_before_start_date_gives_an_empty_page(self, cal: ec.Calendar) -> None:
        """Crossed bounds are not an error, just an empty list (evlist_end_before_start)."""
        self.add_event(cal)
        page = cal.events.list(start_date="2032-01-01", end_date="2031-01-01")
        assert ec.Page(items=(), total=0, page=1, per_page=10) == page

    # == list: paging ========================================================================

    def test_first_page_has_the_default_size(self, cal: ec.Calendar) -> None:
        """Page 1 of 12 events holds 10, with the totals (evlist_pp2_p1)."""
        events = self.add_month_of_events(cal, 12)
        page = cal.events.list(**RANGE)
        assert (tuple(events[:10]), 12, 2, 1, 10) == (
            page.items,
            page.total,
            page.total_pages,
            page.page,
            page.per_page,
        )

    def test_last_page_holds_the_rest(self, cal: ec.Calendar) -> None:
        """The last page holds what is left (evlist_pp2_last)."""
        events = self.add_month_of_events(cal, 12)
        page = cal.events.list(page=3, per_page=5, **RANGE)
        assert (tuple(events[10:]), 12, 3, 3, 5) == (
            page.items,
            page.total,
            page.total_pages,
            page.page,
            page.per_page,
        )

    def test_paging_text_values_are_read_as_numbers(self, cal: ec.Calendar) -> None:
        """page and per_page may be sent as text, as HTTP clients do."""
        events = self.add_month_of_events(cal, 5)
        page = cal.events.list(page="2", per_page="2", **RANGE)
        assert (tuple(events[2:4]), 2, 2) == (page.items, page.page, page.per_page)

    @pytest.mark.parametrize("per_page", [51, 1000, "500"])
    def test_per_page_is_clamped_to_the_maximum(self, cal: ec.Calendar, per_page: object) -> None:
        """A per_page above 50 is quietly lowered to 50 (evlist_pp_max, evlist_pp_huge)."""
        self.add_month_of_events(cal, 3)
        page = cal.events.list(per_page=per_page, **RANGE)
        assert (50, 3, 1) == (page.per_page, page.total, page.total_pages)

    def test_per_page_default_follows_the_settings(self, calendar_with: CalendarWith) -> None:
        """The default page size is the calendar's setting (the spec's "10 or 4")."""
        small = calendar_with(ec.Settings(per_page=4))
        self.add_month_of_events(small, 5)
        page = small.events.list(**RANGE)
        assert (4, 4, 2) == (len(page.items), page.per_page, page.total_pages)

    def test_page_past_the_end_is_not_found(self, cal: ec.Calendar) -> None:
        """A page after the last is event-archive-page-not-found (evlist_page_beyond)."""
        self.add_month_of_events(cal, 3)
        with pytest.raises(
            PageNotFound, match="This event list has fewer than 491 events"
        ) as caught:
            cal.events.list(page=99, per_page=5, **RANGE)
        assert ("event-archive-page-not-found", 404) == (caught.value.code, status_of(caught.value))

    def test_second_page_of_an_empty_list_is_not_found(self, cal: ec.Calendar) -> None:
        """Any page after the first of an empty list is past the end."""
        with pytest.raises(PageNotFound) as caught:
            cal.events.list(page=2)
        assert "event-archive-page-not-found" == caught.value.code

    def test_first_page_of_an_empty_list_is_an_empty_page(self, cal: ec.Calendar) -> None:
        """Page 1 with no match is an empty page, not an error (empty_events)."""
        assert ec.Page(items=(), total=0, page=1, per_page=10) == cal.events.list()

    def test_empty_page_has_no_pages(self, cal: ec.Calendar) -> None:
        """An empty list has total_pages 0."""
        assert 0 == cal.events.list().total_pages

    # == list: search ========================================================================
    def test_search_matches_titles_in_any_case(self, cal: ec.Calendar) -> None:
        """Search is a case-insensitive substring of the title (evlist_search_title)."""
        self.add_event(cal, "Summer Gala", "2031-06-15 19:00", "2031-06-15 23:00")
        self.add_event(cal, "Jazz Night", "2031-06-16 19:00", "2031-06-16 23:00")
        self.add_event(cal, "Gala Copy", "2031-06-17 19:00", "2031-06-17 23:00")
        assert ["Summer Gala", "Gala Copy"] == titles(cal.events.list(search="GAL", **RANGE))

    def test_search_matches_descriptions(self, cal: ec.Calendar) -> None:
        """Search looks in the description (evlist_search_desc)."""
        self.add_event(cal, "Bastille Day Picnic", description="Picnic by the river")
        self.add_event(cal, "Jazz Night", description="Swing")
        assert ["Bastille Day Picnic"] == titles(cal.events.list(search="river", **RANGE))

    def test_search_matches_excerpts(self, cal: ec.Calendar) -> None:
        """Search looks in the excerpt."""
        self.add_event(cal, "Summer Gala", excerpt="Annual gala")
        self.add_event(cal, "Jazz Night")
        assert ["Summer Gala"] == titles(cal.events.list(search="annual", **RANGE))

    def test_search_needs_every_word(self, cal: ec.Calendar) -> None:
        """Every word must occur, in any of the searched fields."""
        self.add_event(cal, "Bastille Day", "2031-07-14 10:00", "2031-07-14 12:00", excerpt="river")
        self.add_event(cal, "Bastille Night", "2031-07-14 20:00", "2031-07-14 23:00")
        assert ["Bastille Day"] == titles(cal.events.list(search="bastille RIVER", **RANGE))

    def test_search_words_may_be_separated_by_commas_and_plus_signs(self, cal: ec.Calendar) -> None:
        """Commas and plus signs separate search words, as spaces do."""
        self.add_event(cal, "Bastille Day", "2031-07-14 10:00", "2031-07-14 12:00", excerpt="river")
        self.add_event(cal, "Bastille Night", "2031-07-14 20:00", "2031-07-14 23:00")
        assert ["Bastille Day"] == titles(cal.events.list(search="bastille,river+day", **RANGE))

    def test_search_quoted_phrase_must_occur_as_written(self, cal: ec.Calendar) -> None:
        """A quoted phrase is one term, not two words."""
        self.add_event(cal, "Summer Gala", "2031-06-15 19:00", "2031-06-15 23:00")
        self.add_event(cal, "Gala of the Summer", "2031-06-16 19:00", "2031-06-16 23:00")
        assert ["Summer Gala"] == titles(cal.events.list(search='"summer gala"', **RANGE))

    def test_search_ignores_stopwords_and_single_letters(self, cal: ec.Calendar) -> None:
        """ "the" and "a" do not have to occur, as in WordPress's search."""
        self.add_event(cal, "Gala", "2031-06-15 19:00", "2031-06-15 23:00")
        assert ["Gala"] == titles(cal.events.list(search="the gala a", **RANGE))

    def test_event_search_without_match_is_empty(self, cal: ec.Calendar) -> None:
        """A search matching nothing gives an empty page (evlist_search_none)."""
        self.add_event(cal)
        assert [] == titles(cal.events.list(search="zzzz-no-match", **RANGE))

    # == list: categories and tags ===========================================================

    def test_category_id_includes_child_categories(self, cal: ec.Calendar) -> None:
        """A category filter also matches its sub-categories (evlist_cat_id)."""
        ids = self.add_term_events(cal)
        assert ["Gala", "Festival"] == titles(cal.events.list(categories=ids["music"], **RANGE))

    def test_category_slug_filters(self, cal: ec.Calendar) -> None:
        """A category slug filters like its id (evlist_cat_slug)."""
        self.add_term_events(cal)
        assert ["Festival"] == titles(cal.events.list(categories="jazz", **RANGE))

    def test_category_list_of_id_and_slug_is_any_of(self, cal: ec.Calendar) -> None:
        """Several categories match events in any of them (evlist_cat_multi)."""
        ids = self.add_term_events(cal)
        page = cal.events.list(categories=[ids["jazz"], "sport-events"], **RANGE)
        assert ["Picnic", "Festival"] == titles(page)

    def test_category_csv_is_any_of(self, cal: ec.Calendar) -> None:
        """A CSV text of category ids is read as a list (evlist_cat_csv)."""
        ids = self.add_term_events(cal)
        page = cal.events.list(categories=f"{ids['workshops']},{ids['jazz']}", **RANGE)
        assert ["Festival", "Workshop"] == titles(page)

    @pytest.mark.parametrize("value", ["no-such-category", "999999"])
    def test_unknown_category_filter_is_refused(self, cal: ec.Calendar, value: str) -> None:
        """An unknown category slug or id is rest_invalid_param (evlist_cat_unknown*)."""
        self.add_term_events(cal)
        with pytest.raises(InvalidParameter, match="categories") as caught:
            cal.events.list(categories=value, **RANGE)
        assert ["categories"] == list(caught.value.fields)

    def test_tag_id_filters(self, cal: ec.Calendar) -> None:
        """A tag id keeps the events with that tag (evlist_tag_id)."""
        ids = self.add_term_events(cal)
        assert ["Picnic", "Workshop"] == titles(cal.events.list(tags=ids["outdoor"], **RANGE))

    def test_tag_slug_filters(self, cal: ec.Calendar) -> None:
        """A tag slug filters like its id (evlist_tag_slug)."""
        self.add_term_events(cal)
        assert ["Picnic", "Festival"] == titles(cal.events.list(tags="family", **RANGE))

    def test_several_tags_match_any_of_them(self, cal: ec.Calendar) -> None:
        """Several tags match events with any of them (DESIGN 3: not only the first)."""
        ids = self.add_term_events(cal)
        page = cal.events.list(tags=["family", ids["outdoor"]], **RANGE)
        assert ["Picnic", "Festival", "Workshop"] == titles(page)

    def test_unknown_tag_filter_is_refused(self, cal: ec.Calendar) -> None:
        """An unknown tag is rest_invalid_param on tags (evlist_tag_unknown)."""
        self.add_term_events(cal)
        with pytest.raises(InvalidParameter, match="tags") as caught:
            cal.events.list(tags="nope-tag", **RANGE)
        assert ["tags"] == list(caught.value.fields)

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
        ("field", "value"), [("geoloc", True), ("geoloc_lat", 39.78), ("geoloc_lng", -89.65)]
    )
    def test_geolocation_filters_are_refused_as_not_supported(
        self, cal: ec.Calendar, field: str, value: object
    ) -> None:
        """Geolocation filters get a clear "not supported" error naming the field (the
        reference silently ignores them without its paid add-on)."""
        self.add_event(cal)
        with pytest.raises(InvalidParameter, match="not supported") as caught:
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
        calls: list[tuple[int, int]] = []
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

    def test_bulk_create_refused_row_writes_nothing(self, cal: ec.Calendar) -> None:
        """A row the caller may not write (another author) stops the load before any batch."""
        other = cal.users.create("other-author", role="author")
        author = self.as_role(cal, "author")
        rows = self.event_rows(3)
        rows[2]["author"] = other.id
        with pytest.raises(Forbidden, match="author"):
            author.events.bulk_create(rows, progress=None)
        assert [] == titles(cal.events.list(**RANGE))
