"""The helpers every record contract part shares: making records, and ``snapshot``.

A write that fails must leave the calendar exactly as it was; ``snapshot`` captures everything a
full-access caller can list so the tests can say so.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import events_calendar as ec

__all__ = [
    "LINKED_KINDS",
    "TERM_KINDS",
    "at",
    "ids",
    "link_field",
    "linked",
    "links",
    "make",
    "make_event",
    "snapshot",
    "terms",
]

LINKED_KINDS = ("venue", "organizer")
TERM_KINDS = ("category", "tag")
ALL_STATUSES = [status.value for status in ec.Status]


def snapshot(cal: ec.Calendar) -> dict[str, Any]:
    """Everything a full-access calendar can list, term counts and users included."""
    return {
        "events": cal.events.list(
            start_date="1970-01-01", end_date="2099-12-31", status=ALL_STATUSES, per_page=50
        ).items,
        "venues": cal.venues.list(status=ALL_STATUSES, per_page=50).items,
        "organizers": cal.organizers.list(status=ALL_STATUSES, per_page=50).items,
        "categories": [(t, t.count) for t in cal.categories.list(hide_empty=False, per_page=50)],
        "tags": [(t, t.count) for t in cal.tags.list(hide_empty=False, per_page=50)],
        "users": cal.users.list(),
    }


def linked(cal: ec.Calendar, kind: str) -> Any:
    """``cal.venues`` or ``cal.organizers``."""
    return cal.venues if kind == "venue" else cal.organizers


def make(cal: ec.Calendar, kind: str, name: str, **fields: Any) -> Any:
    """Create a venue or organizer named ``name``."""
    return linked(cal, kind).create(**{kind: name}, **fields)


def terms(cal: ec.Calendar, kind: str) -> Any:
    """``cal.categories`` or ``cal.tags``."""
    return cal.categories if kind == "category" else cal.tags


def make_event(
    cal: ec.Calendar,
    title: str,
    *,
    start: str = "2027-03-01 19:00:00",
    end: str | None = None,
    **fields: Any,
) -> ec.Event:
    """Create an event (two hours long unless ``end`` is given)."""
    if end is None:
        begin = datetime.fromisoformat(start)
        end = (begin + timedelta(hours=2)).strftime("%Y-%m-%d %H:%M:%S")
    return cal.events.create(title=title, start_date=start, end_date=end, **fields)


def links(field: str, values: list[int]) -> dict[str, Any]:
    """Keyword arguments linking a new event through ``field`` (``venue``, ``tags`` ...)."""
    return {field: values}


def link_field(kind: str) -> str:
    """The event field that links to a record of ``kind``."""
    return {"venue": "venue", "organizer": "organizer", "category": "categories"}.get(kind, "tags")


def ids(records: Any) -> list[int]:
    return [record.id for record in records]


def at(text: str) -> datetime:
    """A UTC instant from ``YYYY-MM-DD HH:MM:SS`` (the calendar's zone is UTC)."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC)
