"""Writing events as CSV in the layout the importer reads (``csv_columns``), so that an
export imports again as it is: the same headers, dates as ``YYYY-MM-DD`` and times as
``HH:MM:SS`` on the event's own wall clock (with the UTC offset in the second pass of an
hour the clocks repeat, ``01:30:00-05:00``), its IANA zone, booleans as ``TRUE``/``FALSE``,
categories, tags and organizers by name (comma-separated; organizers by id when a name holds
a comma or reads as ids, categories and tags by slug when a name holds a comma), the first
venue by name (a row names one: see ``_first_venue``), the cost as the calendar stores it
(with its currency).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from datetime import datetime
from typing import IO, TYPE_CHECKING

from ..dates import repeat_offset
from ..events import Related
from ..records import Event
from .csv_cells import guard
from .csv_columns import COLUMNS
from .csv_read import IDS as _IDS

if TYPE_CHECKING:
    from ..calendar import Calendar

__all__ = ["write_csv"]

_SKIPPED = frozenset({"currency_symbol", "currency_code", "currency_position"})
HEADERS = [c.header for c in COLUMNS["event"] if c.id not in _SKIPPED]


def write_csv(cal: Calendar, batches: Iterable[list[Event]], stream: IO[str]) -> int:
    """Write the header and one row per event; returns the number of events written."""
    writer = csv.writer(stream, lineterminator="\r\n")
    writer.writerow(HEADERS)
    written = 0
    for batch in batches:
        related = cal.events.related(batch)
        writer.writerows(_row(event, related) for event in batch)
        written += len(batch)
    return written


def _flag(value: bool) -> str:
    return "TRUE" if value else "FALSE"


def _first_venue(event: Event, related: Related) -> str:
    """The event's first venue by name: a row names one venue (``Event Venue Name`` is read
    whole, so names joined by commas would come back as one new venue, replacing them all).
    Re-imported, a venue the event has among several leaves its venues as they are."""
    venues = related.venues_of(event)
    return venues[0].venue if venues else ""


def _time(moment: datetime) -> str:
    """The wall time, and its UTC offset in the second pass of a repeated hour (a wall time
    alone reads back as the first pass, an hour earlier)."""
    return moment.strftime("%H:%M:%S") + repeat_offset(moment)


def _row(event: Event, related: Related) -> list[str]:
    organizers = related.organizers_of(event)
    if any("," in o.organizer or _IDS.fullmatch(o.organizer) for o in organizers):
        organizer_cell = " ".join(str(o.id) for o in organizers)
    else:
        organizer_cell = ", ".join(o.organizer for o in organizers)
    terms = (related.categories_of(event), related.tags_of(event))
    categories, tags = (
        ", ".join(t.slug if "," in t.name else t.name for t in found) for found in terms
    )
    values = {
        "title": event.title,
        "description": event.description,
        "excerpt": event.excerpt,
        "start_date": event.start_date.strftime("%Y-%m-%d"),
        "start_time": _time(event.start_date),
        "end_date": event.end_date.strftime("%Y-%m-%d"),
        "end_time": _time(event.end_date),
        "all_day": _flag(event.all_day),
        "timezone": event.timezone,
        "hide_from_listings": _flag(event.hide_from_listings),
        "sticky": _flag(event.sticky),
        "featured": _flag(event.featured),
        "venue": _first_venue(event, related),
        "organizer": organizer_cell,
        "show_map_link": _flag(event.show_map_link),
        "show_map": _flag(event.show_map),
        "cost": event.cost,
        "categories": categories,
        "tags": tags,
        "website": event.website or "",
        "status": event.status.value,
    }
    return [guard(values[c.id]) for c in COLUMNS["event"] if c.id not in _SKIPPED]
