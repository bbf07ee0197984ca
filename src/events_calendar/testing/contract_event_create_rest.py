"""The event contract: slugs, cost, publication on create, and failed writes changing nothing."""

from __future__ import annotations

import pytest

import events_calendar as ec
from events_calendar.errors import (
    Forbidden,
    InvalidParameter,
)

from .contract_event_base import (
    CalendarWith,
    EventContractBase,
    snapshot,
    wall,
)

__all__ = ["EventCreateRestContract"]


class EventCreateRestContract(EventContractBase):
    """Creating events: slugs, cost, publication date and status; failed writes change nothing."""

    # == create: slugs =======================================================================
    def test_slug_is_made_from_the_title(self, cal: ec.Calendar) -> None:
        """Without a slug, the title's slug is used (ev_dup_title)."""
        assert "summer-gala" == self.add_event(cal, title="Summer Gala").slug

    def test_slug_folds_accents(self, cal: ec.Calendar) -> None:
        """Accented titles give ASCII slugs."""
        assert "fete-a-noel" == self.add_event(cal, title="Fête à Noël").slug

    def test_given_slug_is_slugified(self, cal: ec.Calendar) -> None:
        """A given slug is used, normalised like a title."""
        assert "summer-gala-2031" == self.add_event(cal, slug="Summer Gala 2031").slug

    def test_taken_slugs_get_numbered_suffixes(self, cal: ec.Calendar) -> None:
        """A taken slug gets -2, then -3."""
        slugs = [self.add_event(cal, title="Summer Gala").slug for _ in range(3)]
        assert ["summer-gala", "summer-gala-2", "summer-gala-3"] == slugs

    def test_given_slug_that_is_taken_gets_a_suffix(self, cal: ec.Calendar) -> None:
        """A given slug that another event has gets -2 (ev_slug_collision)."""
        self.add_event(cal, slug="summer-gala-2031")
        copy = self.add_event(cal, title="Gala Copy", slug="summer-gala-2031")
        assert "summer-gala-2031-2" == copy.slug

    def test_slugs_are_unique_per_kind_only(self, cal: ec.Calendar) -> None:
        """A venue's slug does not block an event of the same name."""
        cal.venues.create(venue="Grand Hall")
        assert "grand-hall" == self.add_event(cal, title="Grand Hall").slug

    # == create: cost ========================================================================
    @pytest.mark.parametrize(
        ("given", "text", "details"),
        [
            pytest.param(25, "25", ec.CostDetails(values=("25",)), id="int"),
            pytest.param(12.5, "12.5", ec.CostDetails(values=("12.5",)), id="float"),
            pytest.param(
                "$15", "$15", ec.CostDetails("$", "", "prefix", ("15",)), id="dollar-prefix"
            ),
            pytest.param("20€", "20€", ec.CostDetails("€", "", "postfix", ("20",)), id="postfix"),
            pytest.param("10 - 20", "10 - 20", ec.CostDetails(values=("10", "20")), id="range"),
            pytest.param("20-10", "20-10", ec.CostDetails(values=("10", "20")), id="sorted"),
            pytest.param("25,55", "25,55", ec.CostDetails(values=("25.55",)), id="comma"),
            pytest.param("Free", "Free", ec.CostDetails(values=("free",)), id="free"),
            pytest.param("0", "", ec.CostDetails(), id="zero-is-none"),
            pytest.param([10, "20"], "10, 20", ec.CostDetails(values=("10", "20")), id="list"),
        ],
    )
    def test_cost_is_stored_with_its_details(
        self, cal: ec.Calendar, given: object, text: str, details: ec.CostDetails
    ) -> None:
        """The cost text is stored and its details derived from it (ev_* cost steps)."""
        event = self.add_event(cal, cost=given)
        assert (text, details) == (event.cost, event.cost_details)

    # == create: publication date and status =================================================
    def test_publication_date_is_stored(self, cal: ec.Calendar) -> None:
        """A given publication date is kept, UTC alongside (ev_dated)."""
        event = self.add_event(cal, date="2021-05-05 10:00:00")
        assert ("2021-05-05 10:00:00", "2021-05-05 10:00:00") == (
            wall(event.date),
            wall(event.date_utc),
        )

    def test_publication_date_is_read_in_the_event_zone(self, cal: ec.Calendar) -> None:
        """Like start and end, ``date`` is read in the zone sent with it."""
        event = self.add_event(cal, date="2021-05-05 10:00:00", timezone="Europe/Paris")
        assert "2021-05-05 08:00:00" == wall(event.date_utc)

    def test_publication_date_utc_is_read_in_utc(self, calendar_with: CalendarWith) -> None:
        """``date_utc`` is read as UTC whatever the zones."""
        paris = calendar_with(ec.Settings(timezone="Europe/Paris"))
        event = self.add_event(paris, date_utc="2021-05-05 10:00:00")
        assert ("2021-05-05 12:00:00", "2021-05-05 10:00:00") == (
            wall(event.date),
            wall(event.date_utc),
        )

    @pytest.mark.parametrize("status", ["publish", "draft", "pending", "private", "future"])
    def test_full_access_gets_the_requested_status(self, cal: ec.Calendar, status: str) -> None:
        """A full-access caller's event gets exactly the status asked for (ev_draft ...)."""
        assert status == self.add_event(cal, status=status).status

    def test_drafts_get_a_slug(self, cal: ec.Calendar) -> None:
        """Drafts have a real slug (ev_draft deviation: the reference gives "")."""
        draft = self.add_event(cal, title="Draft Planning Meeting", status="draft")
        assert "draft-planning-meeting" == draft.slug

    # == errors change nothing ===============================================================
    def test_failed_create_with_unknown_category_changes_nothing(self, cal: ec.Calendar) -> None:
        """A refused create leaves no venue, organizer, tag or event behind."""
        self.add_event(cal, title="Existing", venue={"venue": "Grand Hall"}, tags=["Outdoor"])
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="categories"):
            self.add_event(
                cal,
                venue={"venue": "Half Hall"},
                organizer=[{"organizer": "Half Org"}],
                tags=["Half Tag"],
                categories=[999999],
            )
        assert before == snapshot(cal)

    def test_failed_create_with_end_before_start_changes_nothing(self, cal: ec.Calendar) -> None:
        """An end before the start creates neither the event nor its new links."""
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="end_date"):
            self.add_event(
                cal,
                start="2031-06-02",
                end="2031-06-01",
                venue={"venue": "Half Hall"},
                categories=["Half Category"],
                tags=["Half Tag"],
            )
        assert before == snapshot(cal)

    def test_create_refused_after_resolving_links_changes_nothing(self, cal: ec.Calendar) -> None:
        """An author who may not name another author leaves no half-made venue or category."""
        other = cal.users.create("other-author", role="author")
        author = self.as_role(cal, "author")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="author"):
            self.add_event(
                author,
                author=other.id,
                venue={"venue": "Half Hall"},
                organizer=[{"organizer": "Half Org"}],
                categories=["Half Category"],
                tags=["Half Tag"],
            )
        assert before == snapshot(cal)

    def test_failed_update_leaves_the_event_unchanged(self, cal: ec.Calendar) -> None:
        """An update with one bad field changes none of the good ones (evupd_status_bogus)."""
        event = self.add_event(cal)
        with pytest.raises(InvalidParameter, match="status"):
            cal.events.update(event.id, title="Renamed", featured=True, status="bogus")
        assert event == cal.events.get(event.id)

    def test_failed_update_with_unknown_venue_changes_nothing(self, cal: ec.Calendar) -> None:
        """An unknown venue id on update creates no category and keeps the event."""
        event = self.add_event(cal, categories=["Music"])
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="venue"):
            cal.events.update(event.id, categories=["New Category"], venue=999999)
        assert before == snapshot(cal)

    def test_update_refused_after_resolving_links_changes_nothing(self, cal: ec.Calendar) -> None:
        """An update refused mid-way leaves the event, venues and terms as they were."""
        other = cal.users.create("other-author", role="author")
        author = self.as_role(cal, "author")
        event = self.add_event(author, title="Mine")
        before = snapshot(cal)
        with pytest.raises(Forbidden, match="author"):
            author.events.update(
                event.id,
                title="Changed",
                author=other.id,
                venue={"venue": "Half Hall"},
                categories=["Half Category"],
            )
        assert before == snapshot(cal)

    def test_failed_update_with_end_before_start_changes_nothing(self, cal: ec.Calendar) -> None:
        """Moving the end before the start is refused and creates no new links."""
        event = self.add_event(cal)
        before = snapshot(cal)
        with pytest.raises(InvalidParameter, match="end_date"):
            cal.events.update(
                event.id,
                end_date="2031-06-14 09:00:00",
                venue={"venue": "Half Hall"},
                tags=["Half Tag"],
            )
        assert before == snapshot(cal)
