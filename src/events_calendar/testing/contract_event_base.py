"""Shared fixtures and helpers of the event contract suite (see ``contract_events``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

import pytest

import events_calendar as ec

from .base import ContractBase

__all__ = [
    "FOLDING_TEXTS",
    "FOLDING_WORDS",
    "RANGE",
    "CalendarWith",
    "EventContractBase",
    "given",
    "snapshot",
    "span",
    "titles",
    "wall",
]
#: The recordings' "2031-2032" window (the default window ends in 2028).
RANGE: dict[str, Any] = {"start_date": "2031-01-01", "end_date": "2032-12-31"}

#: Text whose letters fold unlike ASCII's (``queries.fold`` against older or simpler tables:
#: the dotted capital I loses its dot, a capital sigma lowers to ``ς`` at a word's end, the
#: Cherokee capitals and Greek symbol letters are folded by some tables and not others,
#: accents are dropped, whether written precomposed or as combining marks, and a ligature is
#: its letters), and searches for them written every way.
FOLDING_TEXTS: tuple[str, ...] = (
    "İstanbul nights",
    "ΟΔΟΣ party",
    "οδοσ gala",
    "ᏣᎳᎩ stories",
    "ϐeta jazz",
    "Straße fest",
    "Café Müller",
    "Cafe\u0301 de\u0301cor",
    "ﬁesta Ｎoël",
)
FOLDING_WORDS: tuple[str, ...] = (
    "istanbul",
    "İstanbul",
    "i̇stanbul",
    "ΟΔΟΣ",
    "οδος",
    "οδοσ",
    "ᏣᎳᎩ",
    "ꮳꮃꭹ",
    "ϐeta",
    "βeta",
    "straße",
    "strasse",
    "cafe",
    "CAFÉ",
    "muller",
    "Mu\u0308ller",
    "décor",
    "fiesta",
    "noel",
    "ＮＯＥＬ",
)

CalendarWith = Callable[[ec.Settings], ec.Calendar]


def wall(dt: datetime) -> str:
    """A datetime on its own wall clock, as the reference prints it."""
    return dt.strftime("%Y-%m-%d %H:%M:%S")


def span(event: ec.Event) -> tuple[str, str, str, str]:
    """Local start, local end, UTC start, UTC end of an event."""
    return (
        wall(event.start_date),
        wall(event.end_date),
        wall(event.utc_start_date),
        wall(event.utc_end_date),
    )


def given(field: str, value: object) -> dict[str, Any]:
    """One keyword argument, for tests parametrized over the field name."""
    return {field: value}


def titles(page: ec.Page[ec.Event]) -> list[str]:
    """The titles of a page of events, in list order."""
    return [event.title for event in page.items]


def snapshot(cal: ec.Calendar) -> dict[str, tuple[Any, ...]]:
    """Everything a full-access caller can list: what a failed write must leave as it was."""
    return {
        "events": cal.events.list(starts_after="1970-01-01", per_page=50).items,
        "trash": cal.events.list(starts_after="1970-01-01", status="trash", per_page=50).items,
        "venues": cal.venues.list(per_page=50).items,
        "organizers": cal.organizers.list(per_page=50).items,
        "categories": cal.categories.list(hide_empty=False, per_page=50).items,
        "tags": cal.tags.list(hide_empty=False, per_page=50).items,
    }


class EventContractBase(ContractBase):
    """Helpers every part of the event contract uses."""

    @staticmethod
    def add_event(
        cal: ec.Calendar,
        title: str = "Summer Gala",
        start: object = "2031-06-15 19:00:00",
        end: object = "2031-06-15 23:00:00",
        **fields: Any,
    ) -> ec.Event:
        """Create an event with sensible defaults (a June 2031 evening, UTC)."""
        return cal.events.create(title=title, start_date=start, end_date=end, **fields)

    @pytest.fixture
    def calendar_with(self, clock: ec.FixedClock) -> Iterator[CalendarWith]:
        """Calendars with other settings, on fresh backends, at the same fixed clock."""
        made: list[ec.Calendar] = []

        def make(settings: ec.Settings) -> ec.Calendar:
            calendar = ec.Calendar(self.make_backend(), settings=settings, clock=clock)
            made.append(calendar)
            return calendar

        yield make
        for calendar in made:
            calendar.close()

    def add_month_of_events(self, cal: ec.Calendar, count: int) -> list[ec.Event]:
        """``count`` events on consecutive days of 2031, in start order."""
        return [
            self.add_event(cal, f"Day {n:02d}", f"2031-03-{n:02d} 10:00", f"2031-03-{n:02d} 11:00")
            for n in range(1, count + 1)
        ]

    def add_term_events(self, cal: ec.Calendar) -> dict[str, int]:
        """Categories Music > Jazz, Sports, Workshops, tags Outdoor, Family, and five events."""
        music = cal.categories.create(name="Music")
        jazz = cal.categories.create(name="Jazz", parent=music.id)
        sports = cal.categories.create(name="Sports", slug="sport-events")
        workshops = cal.categories.create(name="Workshops")
        outdoor = cal.tags.create(name="Outdoor")
        family = cal.tags.create(name="Family Friendly", slug="family")
        self.add_event(cal, "Gala", "2031-06-15 19:00", "2031-06-15 23:00", categories=[music.id])
        self.add_event(
            cal, "Picnic", "2031-07-14 10:00", "2031-07-14 16:00",
            categories=[sports.id], tags=[outdoor.id, family.id],
        )  # fmt: skip
        self.add_event(
            cal, "Festival", "2031-09-05 12:00", "2031-09-07 22:00",
            categories=[jazz.id], tags=[family.id],
        )  # fmt: skip
        self.add_event(
            cal, "Workshop", "2031-11-03 10:00", "2031-11-03 16:00",
            categories=[workshops.id], tags=[outdoor.id],
        )  # fmt: skip
        self.add_event(cal, "Plain", "2031-12-01 10:00", "2031-12-01 11:00")
        return {
            "music": music.id,
            "jazz": jazz.id,
            "sports": sports.id,
            "workshops": workshops.id,
            "outdoor": outdoor.id,
            "family": family.id,
        }

    def add_linked_events(self, cal: ec.Calendar) -> dict[str, int]:
        """Two venues and two organizers, linked to four events in different combinations."""
        hall = cal.venues.create(venue="Grand Hall")
        pleyel = cal.venues.create(venue="Salle Pleyel")
        acme = cal.organizers.create(organizer="Acme Events")
        jane = cal.organizers.create(organizer="Jane Doe")
        self.add_event(
            cal, "Gala", "2031-06-15 19:00", "2031-06-15 23:00",
            venue=hall.id, organizer=[acme.id, jane.id], featured=True, categories=["Music"],
        )  # fmt: skip
        self.add_event(
            cal, "Picnic", "2031-07-14 10:00", "2031-07-14 16:00",
            venue=pleyel.id, categories=["Music"],
        )  # fmt: skip
        self.add_event(
            cal, "Festival", "2031-09-05 12:00", "2031-09-07 22:00",
            venue=hall.id, organizer=[jane.id], categories=["Jazz"], featured=True,
        )  # fmt: skip
        self.add_event(cal, "Quiz", "2031-10-10 20:00", "2031-10-10 23:00", organizer=[acme.id])
        return {"hall": hall.id, "pleyel": pleyel.id, "acme": acme.id, "jane": jane.id}

    def add_status_events(self, cal: ec.Calendar) -> None:
        """One event in each status, the trashed one deleted."""
        for day, status in enumerate(["publish", "draft", "pending", "private", "future"], 1):
            self.add_event(
                cal, status.title(), f"2031-06-{day:02d} 10:00", f"2031-06-{day:02d} 11:00",
                status=status,
            )  # fmt: skip
        trashed = self.add_event(cal, "Trash", "2031-06-06 10:00", "2031-06-06 11:00")
        cal.events.delete(trashed.id)

    def event_rows(self, count: int) -> list[dict[str, Any]]:
        """``count`` valid event rows on consecutive days of March 2031."""
        return [
            {
                "title": f"Row {n}",
                "start_date": f"2031-03-{n + 1:02d} 10:00",
                "end_date": f"2031-03-{n + 1:02d} 11:00",
            }
            for n in range(count)
        ]
