"""Record contract: ``iter()`` streams every page of a list, in list order (keyset paging)."""

from __future__ import annotations

from typing import Any

import pytest

import events_calendar as ec
from events_calendar.errors import InvalidParameter

from .base import ContractBase
from .contract_record_base import ALL_STATUSES, ids, make, make_event, terms

__all__ = ["IterContract"]

#: Small batches, so that a few records span several of them and ties cross a batch edge.
BATCH = 3


def every_page(collection: Any, **params: Any) -> list[Any]:
    """Every record ``list()`` gives with ``params``, page after page (4 a page)."""
    found: list[Any] = []
    page = 1
    while True:
        listed = collection.list(page=page, per_page=4, **params)
        found.extend(listed.items)
        if page >= listed.total_pages:
            return found
        page += 1


class IterContract(ContractBase):
    """``iter`` equals the concatenation of ``list()``'s pages, for every kind and filter."""

    @pytest.fixture
    def season(self, cal: ec.Calendar) -> ec.Calendar:
        """Eleven events over four start times (ties cross batch edges), with links."""
        hall = make(cal, "venue", "Hall")
        club = make(cal, "venue", "Club", date="2026-01-02 10:00:00")
        bob = make(cal, "organizer", "Bob")
        starts = ["2027-03-01 19:00:00", "2027-03-02 19:00:00", "2027-03-01 19:00:00"]
        for n in range(11):
            make_event(
                cal,
                f"Concert {n}",
                start=starts[n % 3] if n < 9 else "2027-02-01 10:00:00",
                venue=[hall.id if n % 2 else club.id],
                organizer=[bob.id] if n % 4 == 0 else [],
                categories=["Jazz" if n % 2 else "Rock", "Live"],
                tags=[f"t{n % 5}"],
                featured=n % 3 == 0,
                status="draft" if n == 5 else "publish",
                password="secret" if n == 7 else "",
            )
        return cal

    @pytest.mark.parametrize(
        "params",
        [
            {},
            {"venue": 1},
            {"categories": "jazz"},
            {"featured": True},
            {"search": "concert"},
            {"status": ALL_STATUSES},
            {"include": "4,6,8,10,12"},
            {"start_date": "2027-03-01", "end_date": "2027-03-01 23:59:59"},
        ],
    )
    def test_event_iter_is_every_list_page(
        self, season: ec.Calendar, params: dict[str, Any]
    ) -> None:
        """Events from ``iter`` are the events of every ``list()`` page, in order."""
        assert every_page(season.events, **params) == list(
            season.events.iter(batch_size=BATCH, **params)
        )

    def test_event_iter_blanks_protected_events_as_list_does(self, season: ec.Calendar) -> None:
        """An anonymous ``iter`` blanks a password-protected event, like ``list()``."""
        anon = season.as_user(None)
        streamed = list(anon.events.iter(batch_size=BATCH))
        assert every_page(anon.events) == streamed
        assert [True] == [e.locked for e in streamed if e.title == "Concert 7"]

    def test_event_iter_hides_drafts_from_anonymous_callers(self, season: ec.Calendar) -> None:
        """A draft is not in an anonymous ``iter``, as it is not in their list."""
        titles = [e.title for e in season.as_user(None).events.iter(batch_size=BATCH)]
        assert ("Concert 5" in titles, len(titles)) == (False, 10)

    @pytest.mark.parametrize("kind", ["venue", "organizer"])
    @pytest.mark.parametrize("params", [{}, {"has_events": True}, {"search": "b"}])
    def test_linked_iter_is_every_list_page(
        self, season: ec.Calendar, kind: str, params: dict[str, Any]
    ) -> None:
        """Venues and organizers from ``iter`` are those of every list page, newest first."""
        collection = season.venues if kind == "venue" else season.organizers
        for n in range(5):
            make(season, kind, f"Extra {n}", date="2026-01-02 10:00:00")  # tied dates
        assert every_page(collection, **params) == list(collection.iter(batch_size=BATCH, **params))

    @pytest.mark.parametrize("kind", ["category", "tag"])
    @pytest.mark.parametrize(
        "params",
        [
            {},
            {"hide_empty": False},
            {"orderby": "count", "order": "desc"},
            {"orderby": "slug"},
            {"orderby": "include", "include": "new", "hide_empty": False},
            {"search": "t"},
        ],
    )
    def test_term_iter_is_every_list_page(
        self, season: ec.Calendar, kind: str, params: dict[str, Any]
    ) -> None:
        """Categories and tags from ``iter`` are those of every list page, in its order."""
        collection = terms(season, kind)
        made = [collection.create(name=name) for name in ("Zed", "alpha", "Mid")]
        if params.get("include") == "new":  # the new terms, in an order of their own
            params = {**params, "include": ",".join(str(t.id) for t in made[::-1])}
        assert [(t.id, t.count) for t in every_page(collection, **params)] == [
            (t.id, t.count) for t in collection.iter(batch_size=BATCH, **params)
        ]

    @pytest.mark.parametrize("order", ["asc", "desc"])
    def test_term_iter_by_name_folds_as_the_list_orders(self, cal: ec.Calendar, order: str) -> None:
        """Names whose letters fold unlike ASCII's (a dotted capital I, a final sigma,
        accented capitals) are streamed once each in name order: the cursor is compared
        with the key the backend sorts by."""
        names = ["İz", "İa", "ia", "iz", "ΟΔΟΣ", "οδοσ x", "Éb", "éa", "Zed", "Ωmega", "ωa"]
        made = {cal.tags.create(name=name).id for name in names}
        listed = [t.id for t in cal.tags.list(hide_empty=False, order=order, per_page=50)]
        streamed = [t.id for t in cal.tags.iter(hide_empty=False, order=order, batch_size=1)]
        assert (made, listed) == (set(streamed), streamed)

    def test_iter_sees_records_created_after_its_cursor(self, cal: ec.Calendar) -> None:
        """An event created during iteration is yielded if it sorts after the last one seen,
        and not if it sorts before it."""
        for n in range(4):
            make_event(cal, f"E{n}", start=f"2027-03-0{n + 1} 10:00:00")
        stream = cal.events.iter(batch_size=2)
        seen = [next(stream).title, next(stream).title]
        make_event(cal, "Earlier", start="2027-02-01 10:00:00")
        make_event(cal, "Later", start="2027-04-01 10:00:00")
        seen.extend(e.title for e in stream)
        assert ["E0", "E1", "E2", "E3", "Later"] == seen

    def test_iter_refuses_paging_parameters(self, cal: ec.Calendar) -> None:
        """``page`` and ``per_page`` make no sense for ``iter``: refused, named."""
        with pytest.raises(InvalidParameter, match="per_page") as caught:
            cal.events.iter(per_page=5)
        assert ["per_page"] == list(caught.value.fields)

    def test_iter_refuses_paging_in_a_mapping_or_a_query(self, cal: ec.Calendar) -> None:
        """A page asked for in the mapping or on the query object would be silently
        ignored: refused the same way; a query object's defaults ask for no page."""
        with pytest.raises(InvalidParameter) as in_mapping:
            cal.events.iter({"page": 2, "per_page": 1})
        with pytest.raises(InvalidParameter) as on_query:
            cal.venues.iter(ec.LinkedQuery(page=2))
        make_event(cal, "E")
        assert (["page", "per_page"], ["page"], ["E"]) == (
            list(in_mapping.value.fields),
            list(on_query.value.fields),
            [e.title for e in cal.events.iter(ec.EventQuery())],
        )

    def test_iter_checks_filters_before_the_first_record(self, cal: ec.Calendar) -> None:
        """A bad filter is refused when ``iter`` is called, not when it is first read."""
        with pytest.raises(InvalidParameter, match="featured"):
            cal.events.iter(featured="maybe")

    def test_iter_refuses_a_batch_size_below_one(self, cal: ec.Calendar) -> None:
        """``batch_size=0`` is refused with the field named."""
        with pytest.raises(InvalidParameter, match="batch_size"):
            cal.venues.iter(batch_size=0)

    def test_iter_reports_progress_per_batch(self, cal: ec.Calendar) -> None:
        """A ``progress`` callable hears the running count after each batch, total unknown."""
        for n in range(5):
            make_event(cal, f"E{n}")
        calls: list[tuple[int, int | None]] = []
        assert 5 == len(
            list(cal.events.iter(batch_size=2, progress=lambda d, t: calls.append((d, t))))
        )
        assert [(2, None), (4, None), (5, None)] == calls

    def test_iter_takes_a_mapping_of_filters(self, season: ec.Calendar) -> None:
        """``iter({"venue": 1})`` is ``iter(venue=1)``."""
        assert ids(season.events.iter({"venue": 1})) == ids(season.events.iter(venue=1))
