"""The event contract at the edges of time: clock changes, the ends of the calendar's years,
empty zones, and the words a list reads as "yes"."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import events_calendar as ec
from events_calendar.errors import InvalidParameter

from .contract_event_base import CalendarWith, EventContractBase, snapshot, span, titles

__all__ = ["EventDateContract"]

NEW_YORK = "America/New_York"


class EventDateContract(EventContractBase):
    """Dates that only look simple: a repeated hour, a skipped one, 9999, 29 February."""

    def test_an_end_in_the_repeated_hour_is_judged_by_its_instant(self, cal: ec.Calendar) -> None:
        """On a fall-back night 01:10 EST is 40 minutes after 01:30 EDT: such an event is
        taken, and one that would end 40 minutes before it starts is refused, though its
        wall times are in order (wall times were compared)."""
        real = cal.events.create(
            title="Late set",
            start_date="2031-11-02T01:30:00-04:00",
            end_date="2031-11-02T01:10:00-05:00",
            timezone=NEW_YORK,
        )
        before = snapshot(cal)
        with pytest.raises(InvalidParameter) as refused:
            cal.events.create(
                title="Backwards",
                start_date="2031-11-02T01:10:00-05:00",
                end_date="2031-11-02T01:30:00-04:00",
                timezone=NEW_YORK,
            )
        assert (("2031-11-02 05:30:00", "2031-11-02 06:10:00"), ["end_date"], before) == (
            span(real)[2:],
            list(refused.value.fields),
            snapshot(cal),
        )

    def test_a_new_zone_keeps_the_wall_clock_where_it_exists(self, cal: ec.Calendar) -> None:
        """Moving an event at 02:30 to a zone that skips that hour that night reads its wall
        clock as a date written there is read: 03:30, the same on every backend and in
        every answer."""
        event = self.add_event(cal, start="2031-03-30 02:30", end="2031-03-30 04:00")
        moved = cal.events.update(event.id, timezone="Europe/Paris")
        expected = ("2031-03-30 03:30:00", "2031-03-30 04:00:00", "2031-03-30 01:30:00")
        assert (expected, expected) == (span(moved)[:3], span(cal.events.get(event.id))[:3])

    def test_an_empty_zone_is_the_calendars(self, calendar_with: CalendarWith) -> None:
        """``timezone=""`` means the calendar's zone, as the reference reads an empty one
        as the site's: on create and on update (it meant UTC)."""
        cal = calendar_with(ec.Settings(timezone="Europe/Paris"))
        event = self.add_event(cal, start="2031-06-15 10:00", end="2031-06-15 11:00", timezone="")
        other = self.add_event(cal, timezone=NEW_YORK)
        moved = cal.events.update(other.id, timezone="")
        assert (("Europe/Paris", "2031-06-15 08:00:00"), "Europe/Paris") == (
            (event.timezone, span(event)[2]),
            moved.timezone,
        )

    def test_the_last_day_of_9999_is_a_bound_west_of_utc(self, calendar_with: CalendarWith) -> None:
        """The end of 9999-12-31 in New York is in the year 10000 in UTC: as a list bound it
        is past every event (it was an unhandled OverflowError, a 500 over HTTP); an all-day
        event that day is refused as out of range, naming ``end_date``."""
        cal = calendar_with(ec.Settings(timezone=NEW_YORK))
        self.add_event(cal, title="Last", start="9999-12-31 10:00", end="9999-12-31 11:00")
        before = snapshot(cal)
        with pytest.raises(InvalidParameter) as refused:
            self.add_event(cal, start="9999-12-31", end="9999-12-31", all_day=True)
        assert (["Last"], ["Last"], ["end_date"], before) == (
            titles(cal.events.list(start_date="2031-01-01", end_date="9999-12-31")),
            titles(cal.events.list(ends_before="9999-12-31")),
            list(refused.value.fields),
            snapshot(cal),
        )

    def test_the_default_window_on_29_february_ends_on_1_march(
        self, cal: ec.Calendar, clock: ec.FixedClock
    ) -> None:
        """24 months after 29 February is 1 March, as PHP counts ``+24 months``: an event
        that day is in the default list (the window stopped at 28 February)."""
        clock.set(datetime(2028, 2, 29, 12, tzinfo=UTC))
        self.add_event(cal, title="March", start="2030-03-01 10:00", end="2030-03-01 11:00")
        assert ["March"] == titles(cal.events.list())

    @pytest.mark.parametrize(
        ("value", "strict"),
        [
            ("1", True),
            ("yes", True),
            (" ON ", True),
            ("TRUE", True),
            (True, True),
            ("foo", False),
            ("y", False),
            ("2", False),
            ("false", False),
            (False, False),
        ],
    )
    def test_strict_dates_reads_only_phps_words_for_yes(
        self, cal: ec.Calendar, value: object, strict: bool
    ) -> None:
        """``strict_dates`` is read as the reference reads it (``FILTER_VALIDATE_BOOLEAN``):
        only ``1``, ``true``, ``on`` and ``yes`` keep the bounds to the second; any other
        word rounds them to whole days (any word not known to be false was strict)."""
        self.add_event(cal, start="2031-06-15 19:00", end="2031-06-15 23:00")
        at = "2031-06-15 20:00"
        listed = cal.events.list(start_date=at, end_date=at, strict_dates=value).total
        assert (0 if strict else 1) == listed

    @pytest.mark.parametrize(("value", "used"), [("yes", True), ("maybe", False), ("2", False)])
    def test_has_events_reads_tribe_is_truthy(
        self, cal: ec.Calendar, value: str, used: bool
    ) -> None:
        """``has_events`` is ``tribe_is_truthy``: a text is yes only if it is one of its
        words (``maybe`` was yes)."""
        hall, empty = cal.venues.create(venue="Hall"), cal.venues.create(venue="Empty")
        self.add_event(cal, venue=[hall.id])
        names = [v.venue for v in cal.venues.list(has_events=value).items]
        assert [(hall if used else empty).venue] == names
