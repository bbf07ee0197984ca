"""Event list totals carried across writes that only add events: ``KeptTotals``.

After a write, every distinct event list counts its total again: the core keeps totals only
while the data generation holds (``Context.totals``), and any commit moves it. On a calendar
taking new events all day, that recount is most of what rebuilding a list costs. Yet when the
journal (``changes``) says the commits since a total was counted only added events (with
their links, and moved term counts or changed venues and organizers, none of which decides
whether an event is in a list), the total now is the old one plus the added events that
match: one count over a handful of ids instead of the whole window.

An entry is a total and the journal cursor of the snapshot it was counted in; carrying it
reads the journal after that cursor in the reader's own snapshot. Anything else in between (an
event changed or removed, a pruned or unitemised journal) and the list counts afresh.
Nothing is kept or carried inside a write transaction: what it reads may be rolled back.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence

import attrs

from ...caching import Recent
from ...changes import Change, Changes
from ...queries import EventFilter

__all__ = ["KeptTotals", "added_events"]


def added_events(changes: Sequence[Change]) -> frozenset[int] | None:
    """The events ``changes`` added, when adding events is all they did to events (an added
    event's own later changes included: it is counted as it is now); else ``None``."""
    added = frozenset(c.record_id for c in changes if c.kind == "event" and c.op == "insert")
    for change in changes:
        if change.kind == "event" and (change.op == "delete" or change.record_id not in added):
            return None
    return added


class KeptTotals:
    """Totals of event lists with the journal cursor each was counted at: a bounded,
    thread-safe map, least recently used out first.

    ``changes`` is the store's journal (``Storage.changes``) and ``count`` counts a filter;
    both must read the snapshot the caller's list reads (call ``total`` inside it).
    """

    def __init__(
        self,
        changes: Callable[[int | None], Changes],
        count: Callable[[EventFilter], int],
        *,
        max_entries: int = 4096,
    ) -> None:
        self._changes, self._count = changes, count
        self._entries: Recent[Hashable, tuple[int, int]] = Recent(max_entries)
        self._lock = threading.Lock()

    def total(self, flt: EventFilter, fresh: Callable[[], int]) -> int:
        """``flt``'s total: carried from the one kept for it when only events were added
        since, else ``fresh()``; kept either way."""
        key = attrs.evolve(flt, offset=0, limit=None, after=None)
        now = self._changes(None).cursor
        with self._lock:
            kept = self._entries.get(key)
        total = None if kept is None else self._carry(flt, *kept, now)
        if total is None:
            total = fresh()
        self._put(key, now, total)
        return total

    def _carry(self, flt: EventFilter, cursor: int, total: int, now: int) -> int | None:
        if now < cursor:  # kept by a reader of a newer snapshot than this one
            return None
        if now == cursor:
            return total
        records = self._changes(cursor).records
        added = None if records is None else added_events(records)
        if added is None:
            return None
        if not added:
            return total
        ids = added if flt.include is None else flt.include & added
        return total + self._count(attrs.evolve(flt, include=ids, offset=0, limit=None))

    def _put(self, key: Hashable, cursor: int, total: int) -> None:
        with self._lock:
            kept = self._entries.get(key)
            if kept is None or kept[0] <= cursor:  # else a newer snapshot's reader was first
                self._entries.put(key, (cursor, total))
