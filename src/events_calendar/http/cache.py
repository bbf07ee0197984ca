"""A response cache for anonymous reads, retired by what each write changed.

Most traffic to a public calendar is the same few anonymous reads (the default event list,
popular events). Their answers depend only on the request, the stored data and the day, so an
answer can be served again until a write changes what it shows.

Writes are seen as a change of the backend's ``generation()``, whoever made them (this
worker, another worker, process or machine on the same database, a script). The cache keeps
the generation it last accounted for (its *view*) and a cursor in the storage's change journal
(``changes``); when the generation moves, the entries journaled since the cursor say what the
writes touched, and only the answers depending on that are retired (``cache_tags``). A
journal that cannot say (pruned past the cursor, a bulk load) empties the cache.

What is never cached: requests with credentials or a ``password`` parameter, and requests whose
answer depends on the time of day rather than the day (relative date phrases such as
``now``/``+2 hours``, ``only_with_upcoming``). The day itself is part of the key, because the
default list window moves at midnight in the calendar's zone.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping
from datetime import UTC, datetime
from typing import TypeVar

import attrs

from .cache_tags import SHOWS_EVENTS, Listing, NewEvents
from .listed_pages import ListedPage, with_totals
from .listing_index import ListingIndex
from .params import bare_name

__all__ = ["CachedResponse", "ResponseCache", "cacheable", "revalidatable"]

K = TypeVar("K", bound=Hashable)

#: Date parameters whose value, when it is a plain calendar date or time, fixes the answer.
_DATE_PARAMS = frozenset(
    {"start_date", "end_date", "starts_before", "starts_after", "ends_before", "ends_after"}
)
_ABSOLUTE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?")
_CLOCK_PARAMS = frozenset({"only_with_upcoming"})


def revalidatable(query: Mapping[str, str], has_credentials: bool) -> bool:
    """Whether a GET with this query gets validators (``conditional``), kept or not: an
    anonymous one that sends no password. A signed-in reader's answer, or one opened with a
    password, is for that reader alone, and no shared cache should revalidate it for them."""
    return not has_credentials and "password" not in {bare_name(name) for name in query}


def cacheable(query: Mapping[str, str], has_credentials: bool) -> bool:
    """Whether an anonymous GET with this query may be answered from the cache: one that
    gets validators and whose answer cannot move within the day without a write."""
    if not revalidatable(query, has_credentials):
        return False
    if any(bare_name(name) in _CLOCK_PARAMS for name in query):
        return False
    return all(
        _ABSOLUTE.fullmatch(value.strip())
        for name, value in query.items()
        if bare_name(name) in _DATE_PARAMS
    )


@attrs.frozen
class CachedResponse:
    """A kept answer: what is sent again, the validators a conditional GET is judged by, the
    tags (``cache_tags``) of what it depends on, and for an event list its parsed query
    (``cache_tags.Listing``: a new event its filters exclude leaves it as it is)."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    validators: tuple[tuple[str, str], ...]
    tags: frozenset[str]
    listing: Listing | None = None
    #: For an event list's page, what lets new events after it patch its totals in place
    #: (``listed_pages``).
    listed: ListedPage | None = None
    #: ``headers`` as ASGI sends them, encoded once.
    raw_headers: tuple[tuple[bytes, bytes], ...] = attrs.field(init=False)

    @raw_headers.default
    def _encode(self) -> tuple[tuple[bytes, bytes], ...]:
        return tuple((k.encode("latin-1"), v.encode("latin-1")) for k, v in self.headers)

    def with_more(self, added: int, now: datetime) -> CachedResponse | None:
        """This event list page's answer once its list counts ``added`` more events, all
        after the page (``listed_pages``); ``None`` when it cannot be rewritten."""
        if self.listed is None:
            return None
        patched = with_totals(self.listed, added, self.body, self.headers, now)
        if patched is None:
            return None
        listed, body, headers, checked = patched
        return attrs.evolve(self, headers=headers, body=body, validators=checked, listed=listed)


class ResponseCache:
    """A thread-safe map from request keys to answers of the data as last seen, bounded by
    the bytes of the bodies it keeps (the least recently used go first): a calendar's few
    thousand popular URLs fit in the default 64 MiB, where a count of entries would not say
    how much memory lists of 36 kB and single events of 4 kB take.

    ``begin`` is called with the backend's generation before each cacheable read: a token
    for ``put`` while the generation is the view, else ``None``, and the caller brings the
    cache up to date with ``caught_up`` (the journal's changes since ``cursor``) first.
    ``put`` keeps an answer only if nothing was retired since its token was given and the
    generation after the answer was read is still the view: every kept answer shows the
    data of the view, no newer, which is what the next catch-up's entries are changes to.
    """

    def __init__(
        self, max_bytes: int = 64 * 2**20, *, now: Callable[[], datetime] | None = None
    ) -> None:
        self._entries: OrderedDict[Hashable, CachedResponse] = OrderedDict()
        #: Kept event list pages whose lists counted this many more events since, all after
        #: the page: their next read rewrites their totals (``listed_pages``).
        self._owed: dict[Hashable, int] = {}
        self._now = now or (lambda: datetime.now(UTC))
        self._tagged: dict[str, set[Hashable]] = {}
        #: The answers that may show events (``SHOWS_EVENTS``) by their event list's parsed
        #: query (``None``: not an event list). A catch-up judges each query once, not each
        #: page and window of it, and only the queries ``_index`` says may show a new event.
        self._listed: dict[Listing | None, set[Hashable]] = {}
        self._index = ListingIndex()  # the queries of ``_listed`` but ``None``
        self._max = max_bytes
        self._bytes = 0
        self._lock = threading.Lock()
        self._view: Hashable = object()  # equal to no generation
        self._epoch = 0
        #: The journal cursor the view stands for (``None`` before the first catch-up).
        self.cursor: int | None = None

    def __len__(self) -> int:
        return len(self._entries)

    def kept(self) -> list[Hashable]:
        """The keys of the kept answers, least recently used first."""
        with self._lock:
            return list(self._entries)

    def begin(self, generation: Hashable) -> int | None:
        """The token for ``put`` while ``generation`` is the view; ``None`` when the data
        moved since, and ``caught_up`` must account for it first."""
        with self._lock:
            return self._epoch if generation == self._view else None

    def caught_up(
        self,
        generation: Hashable,
        cursor: int,
        tags: frozenset[str] | None,
        spared: Callable[[Listing], bool] | None = None,
        added: Mapping[Hashable, tuple[CachedResponse, int]] | None = None,
    ) -> int:
        """Account for the changes up to journal ``cursor``, whose data ``generation``
        stands for: retire the answers with one of ``tags`` (everything for ``None``), and,
        when new events are among the changes, every other answer that may show events
        (``SHOWS_EVENTS``) but the event lists ``spared`` says show none of them and the
        pages whose lists ``added`` counts events after them (``listed_pages``; judged of
        the very answer still kept, else retired too). A ``NewEvents`` judge is asked only of
        the lists that may show its events (``listing_index``); any other, of every list.
        Returns the token for ``put``."""
        with self._lock:
            if tags is None:
                self._clear()
            else:
                for tag in tags:
                    for key in list(self._tagged.get(tag, ())):
                        self._drop(key)
                if spared is not None:
                    asked = (
                        self._index.may_show(spared)
                        if isinstance(spared, NewEvents)
                        else self._index.listings()
                    )
                    shown = [None, *(listing for listing in asked if not spared(listing))]
                    for listing in shown:
                        for key in list(self._listed.get(listing, ())):
                            self._owe_or_drop(key, (added or {}).get(key))
            self._epoch += 1
            self._view = generation
            self.cursor = cursor
            return self._epoch

    def showing(self, new: NewEvents) -> list[Listing]:
        """The parsed queries of the kept event lists that may show one of ``new``'s events,
        judged here (in a catch-up's worker thread, outside the lock the event loop's reads
        take: ``new`` keeps its verdicts, so that ``caught_up`` only looks them up)."""
        with self._lock:
            asked = self._index.may_show(new)
        return [listing for listing in asked if not new(listing)]

    def pages_of(self, listings: Iterable[Listing]) -> list[tuple[Hashable, CachedResponse, int]]:
        """The kept pages of these event lists that new events may only add to
        (``listed_pages``), each with what its list counted since it was kept."""
        with self._lock:
            return [
                (key, entry, self._owed.get(key, 0))
                for listing in listings
                for key in self._listed.get(listing, ())
                if (entry := self._entries[key]).listed is not None
            ]

    def get(self, key: Hashable) -> CachedResponse | None:
        """The answer kept for ``key``: an event list page's with its totals rewritten
        first if its list counted more events since (``None`` if it cannot be)."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            owed = self._owed.pop(key, 0)
            if owed:
                patched = found.with_more(owed, self._now())
                if patched is None:
                    self._drop(key)
                    return None
                self._entries[key] = patched
                self._bytes += len(patched.body) - len(found.body)
                found = patched
            self._entries.move_to_end(key)
            return found

    def put(self, key: Hashable, token: int, value: CachedResponse, generation: Hashable) -> None:
        """Keep ``value``, read at ``generation`` (taken after it was read), unless the
        data moved from the view or anything was retired since ``begin`` gave ``token``."""
        with self._lock:
            if token != self._epoch or generation != self._view:
                return
            self._drop(key)
            self._entries[key] = value
            for tag in value.tags:
                self._tagged.setdefault(tag, set()).add(key)
            if SHOWS_EVENTS in value.tags:
                if value.listing is not None and value.listing not in self._listed:
                    self._index.add(value.listing)
                self._listed.setdefault(value.listing, set()).add(key)
            self._bytes += len(value.body)
            while self._bytes > self._max:
                self._drop(next(iter(self._entries)))

    def _owe_or_drop(self, key: Hashable, added: tuple[CachedResponse, int] | None) -> None:
        """Keep the answer, owing ``added``'s count, if it is the one that was judged, else
        retire the key."""
        if added is None or self._entries.get(key) is not added[0]:
            self._drop(key)
        elif added[1]:
            self._owed[key] = self._owed.get(key, 0) + added[1]

    def _drop(self, key: Hashable) -> None:
        self._owed.pop(key, None)
        entry = self._entries.pop(key, None)
        if entry is None:
            return
        self._bytes -= len(entry.body)
        for tag in entry.tags:
            _discard(self._tagged, tag, key)
        if SHOWS_EVENTS in entry.tags:
            _discard(self._listed, entry.listing, key)
            if entry.listing is not None and entry.listing not in self._listed:
                self._index.discard(entry.listing)

    def _clear(self) -> None:
        self._owed.clear()
        self._entries.clear()
        self._tagged.clear()
        self._listed.clear()
        self._index.clear()
        self._bytes = 0


def _discard(index: dict[K, set[Hashable]], name: K, key: Hashable) -> None:
    """Take ``key`` out of ``index[name]``, and the name out when no key is left."""
    keys = index.get(name)
    if keys is not None:
        keys.discard(key)
        if not keys:
            del index[name]
