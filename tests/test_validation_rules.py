"""Input validation that never reaches storage, run once on the in-memory backend.

These tests came out of the backend contract suite (``events_calendar.testing``): each one is
refused before any storage call (a recording backend saw none), so running it once per backend
only repeated it. They keep the contract's helpers and fixtures by deriving from its bases.
"""

from __future__ import annotations

import pytest

import events_calendar as ec
from events_calendar.backends.memory import MemoryBackend
from events_calendar.errors import InvalidParameter, MissingParameter, NotSupported
from events_calendar.slugs import slugify
from events_calendar.testing.base import ContractBase
from events_calendar.testing.contract_event_base import RANGE, EventContractBase, given
from events_calendar.testing.contract_record_base import LINKED_KINDS, TERM_KINDS, linked, terms


class TestRecordValidation(ContractBase):
    """Venue, organizer and term list parameters refused before any storage call."""

    def make_backend(self) -> MemoryBackend:
        return MemoryBackend()

    @pytest.mark.parametrize(("param", "value"), [("page", 0), ("per_page", "foo")])
    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_bad_paging_is_invalid(
        self, cal: ec.Calendar, kind: str, param: str, value: object
    ) -> None:
        """``page`` and ``per_page`` must be positive whole numbers."""
        with pytest.raises(InvalidParameter, match=param) as info:
            linked(cal, kind).list(**{param: value})
        assert [param] == list(info.value.fields)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_empty_search_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """An empty search text is refused."""
        with pytest.raises(InvalidParameter, match="search") as info:
            linked(cal, kind).list(search=" ")
        assert ["search"] == list(info.value.fields)

    @pytest.mark.parametrize("kind", LINKED_KINDS)
    def test_unknown_status_filter_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """An unknown status in the filter is refused."""
        with pytest.raises(InvalidParameter, match="status") as info:
            linked(cal, kind).list(status="bogus")
        assert ["status"] == list(info.value.fields)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_bad_order_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """``order`` must be ``asc`` or ``desc``."""
        with pytest.raises(InvalidParameter, match="order") as info:
            terms(cal, kind).list(order="sideways")
        assert ["order"] == list(info.value.fields)

    @pytest.mark.parametrize("kind", TERM_KINDS)
    def test_term_list_bad_page_is_invalid(self, cal: ec.Calendar, kind: str) -> None:
        """A term ``page`` must be a positive whole number."""
        with pytest.raises(InvalidParameter, match="page") as info:
            terms(cal, kind).list(page=-1)
        assert ["page"] == list(info.value.fields)


class TestEventValidation(EventContractBase):
    """Event fields and list parameters refused before any storage call."""

    def make_backend(self) -> MemoryBackend:
        return MemoryBackend()

    def test_create_without_fields_names_all_three_required(self, cal: ec.Calendar) -> None:
        """Creating with no fields names title, start_date and end_date (everr_empty_body)."""
        with pytest.raises(MissingParameter, match=r"title, start_date, end_date") as caught:
            cal.events.create()
        assert "rest_missing_callback_param" == caught.value.code
        assert ["title", "start_date", "end_date"] == list(caught.value.fields)

    def test_create_without_end_names_only_end_date(self, cal: ec.Calendar) -> None:
        """A missing end_date is reported alone (everr_missing_end)."""
        with pytest.raises(MissingParameter, match="end_date") as caught:
            cal.events.create(title="No End", start_date="2031-06-01 10:00:00")
        assert ["end_date"] == list(caught.value.fields)

    def test_create_with_a_none_title_reports_it_missing(self, cal: ec.Calendar) -> None:
        """``title=None`` counts as not given."""
        with pytest.raises(MissingParameter, match="title") as caught:
            cal.events.create(title=None, start_date="2031-06-01", end_date="2031-06-01")
        assert ["title"] == list(caught.value.fields)

    def test_create_with_an_unknown_field_names_it(self, cal: ec.Calendar) -> None:
        """A misspelt field is refused rather than silently dropped."""
        with pytest.raises(InvalidParameter, match="colour") as caught:
            self.add_event(cal, colour="red")
        assert ["colour"] == list(caught.value.fields)

    def test_yes_is_not_a_boolean_for_event_flags(self, cal: ec.Calendar) -> None:
        """Event flags take true/false, 1/0 and their strings only, not 'yes' (ev_bool_yes)."""
        with pytest.raises(InvalidParameter, match="featured") as caught:
            self.add_event(cal, featured="yes")
        assert ["featured"] == list(caught.value.fields)

    def test_non_boolean_flag_error_says_so(self, cal: ec.Calendar) -> None:
        """A flag that is not a boolean carries the ``invalid_boolean`` code (ev_bool_yes)."""
        with pytest.raises(InvalidParameter) as caught:
            self.add_event(cal, featured="yes")
        assert {"featured": "invalid_boolean"} == caught.value.codes

    def test_every_bad_field_is_named_at_once(self, cal: ec.Calendar) -> None:
        """Several bad fields are reported together, not one per attempt."""
        with pytest.raises(InvalidParameter) as caught:
            self.add_event(cal, status="bogus", timezone="Mars/Olympus", website="nope")
        assert {"status", "timezone", "website"} == set(caught.value.fields)

    def test_inline_venue_without_a_name_is_refused(self, cal: ec.Calendar) -> None:
        """Inline venue data must carry the venue's name."""
        with pytest.raises(InvalidParameter, match="venue") as caught:
            self.add_event(cal, venue={"city": "Lyon"})
        assert ["venue"] == list(caught.value.fields)

    def test_category_given_as_an_object_is_refused(self, cal: ec.Calendar) -> None:
        """Malformed linked data is a 400, never a crash."""
        with pytest.raises(InvalidParameter, match="categories") as caught:
            self.add_event(cal, categories=[{"name": "Music"}])
        assert ["categories"] == list(caught.value.fields)

    @pytest.mark.parametrize("cost", [-5, -0.5, "-5", " -5 ", "$-5", "-$5", "€ -10", "-.5"])
    def test_negative_cost_is_refused(self, cal: ec.Calendar, cost: object) -> None:
        """A negative number is not a cost, sent as a number or as text (a form, a CSV cell:
        ``"-5"`` was stored and shown as ``$5``)."""
        with pytest.raises(InvalidParameter, match="cost") as caught:
            self.add_event(cal, cost=cost)
        assert ["cost"] == list(caught.value.fields)

    @pytest.mark.parametrize("cost", ["10 - 20", "Free - 5", "$5", "5-10"])
    def test_a_range_dash_is_no_minus(self, cal: ec.Calendar, cost: str) -> None:
        """A dash between two parts of a cost is a range, kept as written."""
        assert cost == self.add_event(cal, cost=cost).cost

    @pytest.mark.parametrize(
        "field", ["start_date", "end_date", "starts_before", "starts_after", "ends_before"]
    )
    def test_unreadable_bound_is_refused_naming_it(self, cal: ec.Calendar, field: str) -> None:
        """A bound that is not a date is rest_invalid_param on that parameter (evlist_bad_*)."""
        with pytest.raises(InvalidParameter, match=field) as caught:
            cal.events.list(**given(field, "not-a-date"))
        assert ("rest_invalid_param", [field]) == (caught.value.code, list(caught.value.fields))

    def test_empty_strict_dates_is_refused(self, cal: ec.Calendar) -> None:
        """An empty strict_dates fails validation, as in the reference."""
        with pytest.raises(InvalidParameter, match="strict_dates") as caught:
            cal.events.list(strict_dates="")
        assert ["strict_dates"] == list(caught.value.fields)

    @pytest.mark.parametrize("page", [0, -1, "abc", "1.5", ""])
    def test_invalid_page_is_refused(self, cal: ec.Calendar, page: object) -> None:
        """page must be a positive whole number (evlist_page_zero, evlist_page_nonnum)."""
        with pytest.raises(InvalidParameter, match="page") as caught:
            cal.events.list(page=page, **RANGE)
        assert ("rest_invalid_param", ["page"]) == (caught.value.code, list(caught.value.fields))

    @pytest.mark.parametrize("per_page", [0, -3, "lots"])
    def test_invalid_per_page_is_refused(self, cal: ec.Calendar, per_page: object) -> None:
        """per_page must be a positive whole number (evlist_pp_zero, _negative, _nonnum)."""
        with pytest.raises(InvalidParameter, match="per_page") as caught:
            cal.events.list(per_page=per_page, **RANGE)
        assert ("rest_invalid_param", ["per_page"]) == (
            caught.value.code,
            list(caught.value.fields),
        )

    def test_blank_search_is_refused(self, cal: ec.Calendar) -> None:
        """An empty search text fails validation."""
        with pytest.raises(InvalidParameter, match="search") as caught:
            cal.events.list(search="  ")
        assert ["search"] == list(caught.value.fields)

    def test_unknown_status_filter_is_refused(self, cal: ec.Calendar) -> None:
        """An unknown status is rest_invalid_param (evlist_status_bogus)."""
        with pytest.raises(InvalidParameter, match="status") as caught:
            cal.events.list(status="bogus", **RANGE)
        assert ["status"] == list(caught.value.fields)

    def test_ticketed_true_is_refused_clearly(self, cal: ec.Calendar) -> None:
        """Asking for ticketed events is refused as not supported (evlist_ticketed_true)."""
        with pytest.raises((InvalidParameter, NotSupported), match="not supported") as caught:
            cal.events.list(ticketed=True, **RANGE)
        assert ("rest_invalid_param", {"ticketed": "event-tickets-not-active"}) == (
            caught.value.code,
            getattr(caught.value, "codes", None),
        )


@pytest.mark.parametrize("slug", ["é", "ß", "日本", "-_-"])
def test_a_slug_without_an_ascii_letter_or_digit_is_refused(slug: str) -> None:
    """``/doc`` promises slugs holding an ASCII letter or digit, and only those are taken:
    "é" used to be taken as "e", which no pattern can state."""
    calendar = ec.connect("memory://")
    with pytest.raises(InvalidParameter) as caught:
        calendar.venues.create(venue="Hall", slug=slug)
    assert list(caught.value.fields) == ["slug"]
    assert calendar.venues.list().total == 0
    with_digit = calendar.venues.create(venue="Hall", slug=f"{slug}1")
    assert with_digit.slug == slugify(f"{slug}1")


@pytest.mark.parametrize(
    ("kind", "field"), [("events", "title"), ("venues", "venue"), ("categories", "name")]
)
def test_a_name_that_is_only_markup_is_refused_for_a_writer_whose_markup_is_cleaned(
    kind: str, field: str
) -> None:
    """A name is never blank: one that cleaning its markup would leave empty (an author's
    ``<script>x</script>``) is refused, not stored as ``""``, which no backup could restore."""
    cal = ec.connect("memory://")
    author = cal.as_user(cal.users.create("writer", role="author"))
    fields = {field: "<script>x</script>"}
    if kind == "events":
        fields |= {"start_date": "2031-01-01", "end_date": "2031-01-01"}
    with pytest.raises(InvalidParameter, match="more than markup") as info:
        getattr(author, kind).create(**fields)
    assert [field] == list(info.value.fields)
