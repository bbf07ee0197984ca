"""Wire objects of events, made once per version of what they show.

An event's JSON object is a function of the event record, the records it embeds (its venues,
organizers, categories and tags, with the terms' counts), the request's URLs and the
calendar's currency settings, and for a single read (with JSON-LD) of which embedded records
the caller may read on their own. ``Fragments`` keeps the objects it made keyed by *all* of
those values, so a changed record (or a changed count, URL, setting or right) is a different
key: a write can never make a cached object stale, and nothing has to be retired when data
changes. That is what lets every answer, cached or not, reuse the objects of the events it
shares with answers made before (the default window's pages, a category's pages, a venue's,
the event's own page).

The objects are kept serialised (``responses.serialised``): shared between answers, they are
only ever written into them, and a serialised object is one thing for the garbage collector
to skip, not a tree of containers to walk in every full collection.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..records import Event, Organizer, Venue

__all__ = ["Exactly", "Fragments"]


class Fragments:
    """A bounded, thread-safe map from value keys to wire objects, oldest made first out.

    A hit does not reorder (that would hash and compare the key, a whole event, once more):
    an object still in use when evicted is made again by the next list that shows it.
    """

    def __init__(self, max_entries: int = 8192) -> None:
        self._entries: dict[Hashable, Any] = {}
        self._max = max_entries
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The object kept for ``key``, made by ``make()`` (outside the lock) when missing."""
        found = self._entries.get(key)  # a dict read is atomic; writes take the lock
        if found is not None:
            self.hits += 1
            return found
        made = make()
        with self._lock:
            self.misses += 1
            self._entries[key] = made
            while len(self._entries) > self._max:
                del self._entries[next(iter(self._entries))]
        return made

    def __len__(self) -> int:
        return len(self._entries)


class Exactly:
    """A venue, organizer or event as part of a fragment's key: equal to another when the
    records are equal, every field compared, but hashed by kind, id and last change alone.

    A record's own hash walks all its fields, six of them zone-aware datetimes whose hash
    asks their zone for its offset: 5.6 µs an event read afresh, a tenth of an uncached
    page of ten. Versions of one record share a hash here, which equality then tells
    apart: a record changed within one second keeps its ``modified``, and only its few
    versions still kept ever meet in one bucket. Equality is the records' own, and more
    (``__eq__``): what tells two versions apart is what they show.
    """

    __slots__ = ("_hash", "record")

    def __init__(self, record: Event | Venue | Organizer) -> None:
        self.record = record
        self._hash = hash((record.kind, record.id, record.modified))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        """Equal records, and ``date`` and ``modified`` at the same offset: records compare
        datetimes as instants, but these two are shown on their own wall clock (a ``date``
        sent with ``date_utc`` keeps the offset it was sent with), so one instant at two
        offsets is two objects."""
        if not isinstance(other, Exactly) or self.record != other.record:
            return False
        mine, theirs = self.record, other.record
        return (
            mine.date.utcoffset() == theirs.date.utcoffset()
            and mine.modified.utcoffset() == theirs.modified.utcoffset()
        )
