"""The event contract: lists by date window, page, search words, categories and tags."""

from __future__ import annotations

import pytest

import events_calendar as ec
from events_calendar.errors import (
    InvalidParameter,
    PageNotFound,
)

from ..queries import fold
from .contract_event_base import (
    FOLDING_TEXTS,
    FOLDING_WORDS,
    RANGE,
    CalendarWith,
    EventContractBase,
    titles,
)

__all__ = ["EventListContract"]

_AT = {"start_date": "2031-06-15 19:00", "end_date": "2031-06-15 21:00"}


class EventListContract(EventContractBase):
    """Event lists: date windows, paging, search, categories and tags."""

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
        assert ("event-archive-page-not-found", 404) == (
            caught.value.code,
            caught.value.http_status,
        )

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

    @pytest.mark.parametrize(
        ("search", "found"),
        [
            ("-river", ["Jazz Night", "Gala"]),
            ("night -river", ["Jazz Night", "Gala"]),
            ("bastille,-day", []),
            ('"-summer gala"', ["Bastille Day", "Jazz Night"]),
            ('-"summer gala"', ["Gala"]),
            ("- gala", ["Gala"]),
        ],
    )
    def test_a_word_with_a_minus_must_not_occur(
        self, cal: ec.Calendar, search: str, found: list[str]
    ) -> None:
        """A term that starts with ``-`` excludes the events holding it in any searched
        field, as WordPress reads its exclusion prefix (a ``-`` alone is dropped, as a
        single character is, so ``-"summer gala"`` is the phrase itself and ``"-summer
        gala"`` its exclusion); it was looked for as the word ``-river``, and matched
        nothing. The total counts the same events."""
        self.add_event(cal, "Bastille Day", "2031-07-14 10:00", "2031-07-14 12:00", excerpt="river")
        self.add_event(cal, "Jazz Night", "2031-07-15 20:00", "2031-07-15 23:00")
        self.add_event(
            cal, "Gala", "2031-07-16 20:00", "2031-07-16 23:00", description="Summer Gala night"
        )
        page = cal.events.list(search=search, **RANGE)
        assert (found, len(found)) == (titles(page), page.total)

    def test_a_locked_event_is_excluded_by_its_title_alone(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """A password-protected event's hidden text answers no guess, for or against: an
        anonymous ``-secret`` leaves it listed when only its description holds the word."""
        self.add_event(cal, "Board", description="secret agenda", password="pw")
        self.add_event(cal, "Secret Board", password="pw")
        assert ["Board"] == titles(anon.events.list(search="-secret", **RANGE))

    def test_event_search_without_match_is_empty(self, cal: ec.Calendar) -> None:
        """A search matching nothing gives an empty page (evlist_search_none)."""
        self.add_event(cal)
        assert [] == titles(cal.events.list(search="zzzz-no-match", **RANGE))

    @pytest.mark.parametrize("word", FOLDING_WORDS)
    def test_search_folds_every_letter_as_queries_fold(self, cal: ec.Calendar, word: str) -> None:
        """Text and words are compared as ``queries.fold`` folds them (no case, no accents),
        letter for letter, on every backend, whether the text index or a direct read
        answers: the Turkish dotted capital I, a final sigma, Cherokee and Greek symbol
        letters, accents precomposed or combining, ligatures and fullwidth letters
        included."""
        cal.events.bulk_create(  # indexed at the load's end
            [
                {"title": f"{text} (indexed)", "start_date": "2031-06-15 19:00",
                 "end_date": "2031-06-15 21:00"}
                for text in FOLDING_TEXTS
            ]
        )  # fmt: skip
        for text in FOLDING_TEXTS:  # waiting for the index, on SQLite
            self.add_event(cal, f"{text} (new)", "2031-06-16 19:00", "2031-06-16 21:00")
        expected = [
            f"{text} ({how})"
            for how in ("indexed", "new")
            for text in FOLDING_TEXTS
            if fold(word) in fold(text)
        ]
        assert expected == titles(cal.events.list(search=word, per_page=50, **RANGE))

    def test_a_search_word_is_never_found_across_two_fields(self, cal: ec.Calendar) -> None:
        """A word (here one holding a line break) must occur in one field: a title ending
        with its first half and an excerpt starting with its second do not match it, whether
        the text index or a direct read answers (WordPress searches each field alone)."""
        split = {"title": "Gig", "excerpt": "Live", **_AT}
        whole = {"title": "Set", "description": "gig\nlive", **_AT}
        cal.events.bulk_create([split, whole])  # indexed at the load's end
        cal.events.create(**split)  # these two wait for the index, on SQLite
        cal.events.create(**{**whole, "title": "Set again"})
        found = titles(cal.events.list(search="gig\nlive", **RANGE))
        assert ["Set", "Set again"] == found

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
