"""The event contract: updating events, and what a delete does to what they point at."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import attrs
import pytest

import events_calendar as ec
from events_calendar.errors import (
    Forbidden,
    InvalidParameter,
    NotFound,
    WrongKind,
)

from .base import NOW
from .contract_event_base import (
    EventContractBase,
    span,
    wall,
)

__all__ = ["EventChangeContract"]


class EventChangeContract(EventContractBase):
    """Updating events: only the given fields change."""

    # == update ==============================================================================
    def test_update_changes_only_the_given_field(self, cal: ec.Calendar) -> None:
        """Every field not given keeps its value (evupd_post_title, DESIGN 3)."""
        hall = cal.venues.create(venue="Grand Hall")
        jane = cal.organizers.create(organizer="Jane Doe")
        event = self.add_event(
            cal,
            title="Rock Night",
            timezone="Europe/Paris",
            cost="$15",
            website="https://rock.example.org",
            venue=hall.id,
            organizer=[jane.id],
            categories=["Rock"],
            tags=["Loud"],
            featured=True,
            sticky=True,
            show_map=True,
            show_map_link=True,
            all_day=True,
            excerpt="Guitars",
            date="2021-05-05 10:00:00",
        )
        updated = cal.events.update(event.id, title="Rock Night Deluxe")
        # ``modified`` is the one server-kept field an update moves (to now: the creation
        # took it from the publication date, as the reference does in ev_dated).
        assert attrs.evolve(event, title="Rock Night Deluxe", modified=updated.modified) == updated

    def test_update_keeps_organizers_zone_and_flags(self, cal: ec.Calendar) -> None:
        """Organizers, time zone and booleans survive an update that omits them (DESIGN 3)."""
        jane = cal.organizers.create(organizer="Jane Doe")
        event = self.add_event(
            cal,
            organizer=[jane.id],
            timezone="America/New_York",
            featured=True,
            sticky=True,
            show_map=True,
            hide_from_listings=True,
        )
        updated = cal.events.update(event.id, cost="5 - 50")
        expected = ((jane.id,), "America/New_York", True, True, True, True, span(event))
        actual = (
            updated.organizer,
            updated.timezone,
            updated.featured,
            updated.sticky,
            updated.show_map,
            updated.hide_from_listings,
            span(updated),
        )
        assert expected == actual

    def test_update_is_what_get_returns(self, cal: ec.Calendar) -> None:
        """The record an update returns is the stored one (evupd_read_after)."""
        event = self.add_event(cal)
        updated = cal.events.update(event.id, title="Renamed", tags=["New"])
        assert updated == cal.events.get(event.id)

    def test_update_sets_modified_from_the_clock(
        self, cal: ec.Calendar, clock: ec.FixedClock
    ) -> None:
        """An update stamps ``modified`` and leaves the publication date alone."""
        event = self.add_event(cal)
        clock.advance(timedelta(hours=1))
        updated = cal.events.update(event.id, title="Later")
        assert (NOW, NOW + timedelta(hours=1)) == (updated.date, updated.modified)

    def test_update_replaces_the_venue(self, cal: ec.Calendar) -> None:
        """Giving a venue replaces the linked one (evupd_put_venue)."""
        hall = cal.venues.create(venue="Grand Hall")
        pleyel = cal.venues.create(venue="Salle Pleyel")
        event = self.add_event(cal, venue=hall.id)
        assert (pleyel.id,) == cal.events.update(event.id, venue=pleyel.id).venue

    @pytest.mark.parametrize("empty", [None, 0, [], ""], ids=["none", "zero", "list", "text"])
    def test_update_clears_the_venue(self, cal: ec.Calendar, empty: object) -> None:
        """``venue`` None, 0, [] or "" removes the venue (evupd_clear_venue deviation)."""
        hall = cal.venues.create(venue="Grand Hall")
        event = self.add_event(cal, venue=hall.id)
        assert () == cal.events.update(event.id, venue=empty).venue

    def test_update_clears_organizers_with_an_empty_list(self, cal: ec.Calendar) -> None:
        """``organizer=[]`` removes every organizer (evupd_clear_org)."""
        jane = cal.organizers.create(organizer="Jane Doe")
        event = self.add_event(cal, organizer=[jane.id])
        assert () == cal.events.update(event.id, organizer=[]).organizer

    def test_update_clears_categories_and_tags(self, cal: ec.Calendar) -> None:
        """``categories=[]`` and ``tags=[]`` remove every term (evupd_clear_cats)."""
        event = self.add_event(cal, categories=["Music"], tags=["Free"])
        updated = cal.events.update(event.id, categories=[], tags=[])
        assert ((), ()) == (updated.categories, updated.tags)

    def test_update_replaces_categories(self, cal: ec.Calendar) -> None:
        """Giving categories replaces the linked ones (evupd_patch_cats)."""
        music = cal.categories.create(name="Music")
        rock = cal.categories.create(name="Rock", parent=music.id)
        event = self.add_event(cal, categories=[music.id])
        assert (rock.id, music.id) == cal.events.update(
            event.id, categories=[rock.id, music.id]
        ).categories

    def test_update_with_inline_venue_creates_it(self, cal: ec.Calendar) -> None:
        """Inline venue data on update creates and links the venue (evupd_inline_venue)."""
        event = self.add_event(cal)
        updated = cal.events.update(
            event.id, venue={"venue": "Update Inline Venue", "city": "Berlin"}
        )
        (venue_id,) = updated.venue
        venue = cal.venues.get(venue_id)
        assert ("Update Inline Venue", "Berlin") == (venue.venue, venue.city)

    def test_update_cost_recomputes_its_details(self, cal: ec.Calendar) -> None:
        """A new cost brings new details (evupd_cost_range)."""
        event = self.add_event(cal, cost="$15")
        updated = cal.events.update(event.id, cost="20-10")
        assert ("20-10", ec.CostDetails(values=("10", "20"))) == (
            updated.cost,
            updated.cost_details,
        )

    def test_update_slug_renames_and_keeps_the_old_slug(self, cal: ec.Calendar) -> None:
        """After a rename both slugs resolve to the event (evupd_slug_read_old)."""
        event = self.add_event(cal, title="New Year Concert")
        cal.events.update(event.id, slug="new-year-concert-2032")
        by_new = cal.events.get_by_slug("new-year-concert-2032")
        by_old = cal.events.get_by_slug("new-year-concert")
        assert (event.id, event.id, "new-year-concert-2032") == (by_new.id, by_old.id, by_old.slug)

    def test_update_by_slug_can_rename(self, cal: ec.Calendar) -> None:
        """A by-slug update may change the slug (evupd_slug_put_slug deviation)."""
        event = self.add_event(cal, title="New Year Concert")
        updated = cal.events.update_by_slug("new-year-concert", slug="new-year-concert-2032")
        assert (event.id, "new-year-concert-2032") == (updated.id, updated.slug)

    def test_update_by_slug_through_the_old_slug(self, cal: ec.Calendar) -> None:
        """A former slug still addresses the event for updates."""
        event = self.add_event(cal, title="New Year Concert")
        cal.events.update(event.id, slug="new-year-concert-2032")
        updated = cal.events.update_by_slug("new-year-concert", all_day=True)
        assert (event.id, True) == (updated.id, updated.all_day)

    def test_update_by_unknown_slug_names_the_slug(self, cal: ec.Calendar) -> None:
        """An unknown slug is a rest_invalid_param on slug (evupd_unknown_slug deviation)."""
        with pytest.raises(NotFound, match="no-such-event") as caught:
            cal.events.update_by_slug("no-such-event", title="Ghost")
        assert ("rest_invalid_param", ["slug"]) == (caught.value.code, list(caught.value.fields))

    def test_update_timezone_keeps_the_wall_clock(self, cal: ec.Calendar) -> None:
        """Changing only the zone keeps the local times and moves the instants."""
        event = self.add_event(cal, start="2031-10-11 20:00:00", end="2031-10-11 23:59:00")
        updated = cal.events.update(event.id, timezone="Europe/Paris")
        expected = (
            (
                "2031-10-11 20:00:00",
                "2031-10-11 23:59:00",
                "2031-10-11 18:00:00",
                "2031-10-11 21:59:00",
            ),
            "Europe/Paris",
            "CEST",
        )
        assert expected == (span(updated), updated.timezone, updated.timezone_abbr)

    def test_update_dates_with_timezone_reads_them_in_it(self, cal: ec.Calendar) -> None:
        """Dates sent with a new zone are read in that zone (evupd_patch_dates)."""
        event = self.add_event(cal, start="2031-10-10 20:00", end="2031-10-10 23:30")
        updated = cal.events.update(
            event.id,
            start_date="2031-10-11 20:00:00",
            end_date="2031-10-11 23:59:00",
            timezone="Europe/Paris",
        )
        expected = (
            "2031-10-11 20:00:00",
            "2031-10-11 23:59:00",
            "2031-10-11 18:00:00",
            "2031-10-11 21:59:00",
        )
        assert expected == span(updated)

    def test_update_dates_alone_are_read_in_the_event_zone(self, cal: ec.Calendar) -> None:
        """Dates sent without a zone are read in the event's own zone, not the calendar's."""
        event = self.add_event(cal, timezone="Europe/Paris")
        updated = cal.events.update(event.id, start_date="2031-06-15 20:00:00")
        assert ("2031-06-15 20:00:00", "2031-06-15 18:00:00") == (
            wall(updated.start_date),
            wall(updated.utc_start_date),
        )

    def test_update_start_past_the_end_names_end_date(self, cal: ec.Calendar) -> None:
        """A new start after the kept end is refused naming end_date (evupd_end_before_start)."""
        event = self.add_event(cal)
        with pytest.raises(InvalidParameter, match="end_date") as caught:
            cal.events.update(event.id, start_date="2031-06-16 10:00:00")
        assert ["end_date"] == list(caught.value.fields)

    def test_update_all_day_rounds_the_kept_times(self, cal: ec.Calendar) -> None:
        """Turning all_day on widens the stored times to whole days (evupd_slug_patch)."""
        event = self.add_event(cal, start="2032-01-01 00:30:00", end="2032-01-01 02:00:00")
        updated = cal.events.update(event.id, all_day=True)
        expected = (
            "2032-01-01 00:00:00",
            "2032-01-01 23:59:59",
            "2032-01-01 00:00:00",
            "2032-01-01 23:59:59",
        )
        assert expected == span(updated)

    def test_update_status(self, cal: ec.Calendar) -> None:
        """A full-access caller may move an event between statuses (evupd_status_*)."""
        event = self.add_event(cal, status="pending")
        assert "draft" == cal.events.update(event.id, status="draft").status

    def test_update_unknown_event_id_is_not_found(self, cal: ec.Calendar) -> None:
        """Updating an id that names nothing is a 400 on id (evupd_unknown)."""
        with pytest.raises(NotFound, match="999999") as caught:
            cal.events.update(999999, title="Ghost")
        assert ("rest_invalid_param", 400) == (caught.value.code, caught.value.http_status)

    def test_update_of_a_venue_id_is_the_wrong_kind(self, cal: ec.Calendar) -> None:
        """Updating a venue through events is "not an event"."""
        hall = cal.venues.create(venue="Grand Hall")
        with pytest.raises(WrongKind, match="not a valid event") as caught:
            cal.events.update(hall.id, title="Hall Event")
        assert ("rest_invalid_param", 400) == (caught.value.code, caught.value.http_status)

    def test_anonymous_callers_may_not_update_events(
        self, cal: ec.Calendar, anon: ec.Calendar
    ) -> None:
        """An anonymous update is refused and changes nothing (evupd_anon)."""
        event = self.add_event(cal)
        with pytest.raises(Forbidden) as caught:
            anon.events.update(event.id, title="Hacked")
        assert ("rest_forbidden", event) == (caught.value.code, cal.events.get(event.id))

    # == post_parent: loops refused, children kept through a forced delete ==================
    @pytest.mark.parametrize("depth", [0, 1, 2], ids=["itself", "its-child", "its-grandchild"])
    def test_update_refuses_a_post_parent_loop(self, cal: ec.Calendar, depth: int) -> None:
        """An event cannot be made its own parent, nor the child of one of its descendants
        (two events each other's parent): ``InvalidParameter`` on ``post_parent``, saying
        why, and nothing changes (as categories refuse a ``parent`` loop)."""
        family = [self.add_event(cal, title="Top")]
        for n in range(depth):
            family.append(self.add_event(cal, title=f"Below {n}", post_parent=family[-1].id))
        with pytest.raises(InvalidParameter, match="its own parent") as caught:
            cal.events.update(family[0].id, post_parent=family[-1].id)
        assert (["post_parent"], family) == (
            list(caught.value.fields),
            [cal.events.get(e.id) for e in family],
        )

    def test_update_many_names_the_event_a_post_parent_loop_would_catch(
        self, cal: ec.Calendar
    ) -> None:
        """A bulk change to a parent below one of the events is refused, naming that event
        (``ids[1].post_parent``); the other events keep their parent too."""
        top = self.add_event(cal, title="Top")
        child = self.add_event(cal, title="Child", post_parent=top.id)
        other = self.add_event(cal, title="Other")
        with pytest.raises(InvalidParameter) as caught:
            cal.events.update_many([other.id, top.id], post_parent=child.id)
        assert (["ids[1].post_parent"], 0, 0) == (
            list(caught.value.fields),
            cal.events.get(other.id).post_parent,
            cal.events.get(top.id).post_parent,
        )

    def test_update_may_move_an_event_under_another_branch(self, cal: ec.Calendar) -> None:
        """Only loops are refused: a parent beside or above the event is taken."""
        top = self.add_event(cal, title="Top")
        child = self.add_event(cal, title="Child", post_parent=top.id)
        aside = self.add_event(cal, title="Aside")
        assert (aside.id, 0) == (
            cal.events.update(child.id, post_parent=aside.id).post_parent,
            cal.events.update(child.id, post_parent=0).post_parent,
        )

    def test_force_delete_gives_the_children_the_removed_events_parent(
        self, cal: ec.Calendar
    ) -> None:
        """Removing an event others name as ``post_parent`` moves them up to its own parent,
        as WordPress's ``wp_delete_post`` does: they stay editable, and lists filtered by the
        grandparent list them (with the total to match)."""
        top = self.add_event(cal, title="Festival")
        middle = self.add_event(cal, title="Day one", post_parent=top.id)
        kids = [self.add_event(cal, title=f"Talk {n}", post_parent=middle.id) for n in range(2)]
        cal.events.delete(middle.id, force=True)
        listed = cal.events.list(post_parent=top.id, start_date="2031-01-01", end_date="2031-12-31")
        assert ([top.id, top.id], ["Talk 0", "Talk 1"], 2, "Renamed") == (
            [cal.events.get(k.id).post_parent for k in kids],
            sorted(e.title for e in listed.items),
            listed.total,
            cal.events.update(kids[0].id, title="Renamed").title,
        )

    def test_force_delete_of_a_top_event_leaves_its_children_at_the_top(
        self, cal: ec.Calendar
    ) -> None:
        """The children of a removed event that had no parent get none (0), and can then be
        edited, trashed and removed like any event."""
        top = self.add_event(cal, title="Festival")
        child = self.add_event(cal, title="Talk", post_parent=top.id)
        cal.events.delete(top.id, force=True)
        assert (0, "Talk!", "trash") == (
            cal.events.get(child.id).post_parent,
            cal.events.update(child.id, title="Talk!").title,
            cal.events.delete(child.id).status,
        )
        cal.events.delete(child.id, force=True)
        with pytest.raises(NotFound):
            cal.events.get(child.id)

    def test_force_delete_journals_the_moved_children(self, cal: ec.Calendar) -> None:
        """The children a removal moves are journaled as updated (``changes``), so caches
        that retire answers by what a write touched retire theirs, and nothing more: not
        "anything may have changed", which retires every answer (PostgreSQL's former-slug
        trigger journaled so for every removal, though it removed no row)."""
        top = self.add_event(cal, title="Festival")
        child = self.add_event(cal, title="Talk", post_parent=top.id)
        other = self.add_event(cal, title="Unrelated")
        start = cal.backend.changes(None)
        cal.events.delete(top.id, force=True)
        records = cal.backend.changes(start.cursor).records
        touched = {(c.kind, c.record_id, c.op) for c in records or ()}
        assert records is not None
        assert {("event", top.id, "delete"), ("event", child.id, "update")} <= touched
        assert not {t for t in touched if t[1] == other.id}

    def test_force_delete_and_reparenting_roll_back_together(self, cal: ec.Calendar) -> None:
        """The children move in the removal's own transaction: undone with it."""
        top = self.add_event(cal, title="Festival")
        child = self.add_event(cal, title="Talk", post_parent=top.id)

        def undone() -> None:
            with cal.transaction():
                cal.events.delete(top.id, force=True)
                raise RuntimeError("roll back")

        with pytest.raises(RuntimeError):
            undone()
        assert (top, top.id) == (cal.events.get(top.id), cal.events.get(child.id).post_parent)

    # == force is read strictly ==============================================================
    @pytest.mark.parametrize("force", ["no", "false ", "yes", "", None, 2, [True]])
    def test_delete_refuses_a_force_that_is_not_a_boolean(
        self, cal: ec.Calendar, force: Any
    ) -> None:
        """``force`` removes for good, so it is read as a boolean, not for truthiness:
        anything else is ``InvalidParameter`` (``invalid_boolean``) naming ``force``, and
        the event is neither removed nor trashed (by id or by slug)."""
        event = self.add_event(cal)
        with pytest.raises(InvalidParameter) as by_id:
            cal.events.delete(event.id, force=force)
        with pytest.raises(InvalidParameter) as by_slug:
            cal.events.delete_by_slug(event.slug, force=force)
        assert [{"force": "invalid_boolean"}] * 2 == [by_id.value.codes, by_slug.value.codes]
        assert event == cal.events.get(event.id)

    @pytest.mark.parametrize(("force", "status"), [("false", "trash"), (0, "trash"), ("1", None)])
    def test_delete_reads_force_as_the_rest_layer_reads_a_boolean(
        self, cal: ec.Calendar, force: Any, status: str | None
    ) -> None:
        """``"true"``/``"false"`` and 1/0 are booleans (``coerce.as_rest_bool``)."""
        event = self.add_event(cal)
        cal.events.delete(event.id, force=force)
        if status is None:
            with pytest.raises(NotFound):
                cal.events.get(event.id)
        else:
            assert status == cal.events.get(event.id).status
