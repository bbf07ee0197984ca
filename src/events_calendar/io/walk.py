"""Every event a query selects, in batches, for exports.

An export takes the filters of ``GET /events`` (``EventQuery``) and applies them as a list
does, with the caller's read rules, with two differences that suit a file rather than a
page: without a date filter it covers every date (not the list's default window of yesterday
to two years ahead), and events hidden from listings are included (they are events of the
calendar all the same). The walk reads ``BATCH`` events per storage query with keyset paging
(``EventCollection.batches``), so memory stays bounded by a batch and each batch costs the
same however deep into the calendar it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import attrs

from ..listing import DATE_FILTERS, event_filter
from ..listing_stream import whole_query
from ..progress import ProgressArg
from ..queries import EventQuery
from ..records import Event

if TYPE_CHECKING:
    from ..calendar import Calendar

__all__ = ["BATCH", "walk_events"]

#: Events per storage query.
BATCH = 2000


def walk_events(
    cal: Calendar, filters: dict[str, Any], *, progress: ProgressArg = None
) -> Iterator[list[Event]]:
    """The events ``filters`` select, in list order, ``BATCH`` at a time; password-protected
    events blanked for a caller without the password, as in a list."""
    ctx = cal._context
    query = whole_query(EventQuery, None, filters)  # every page: page and per_page refused
    flt = event_filter(query, ctx.actor, ctx.backend, ctx.settings, ctx.zone, ctx.now())
    changes: dict[str, Any] = {"exclude_hidden": False}
    if not any(getattr(query, name) is not None for name in DATE_FILTERS):
        changes |= {"start_min": None, "end_max": None}
    flt = attrs.evolve(flt, **changes)
    total = None
    if progress:  # a bar counts to the total; counting every match costs a query of its own
        _, total = ctx.backend.query(Event, attrs.evolve(flt, offset=0, limit=0))
    return cal.events.batches(flt, size=BATCH, progress=progress, total=total)
