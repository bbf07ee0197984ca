"""A response cache for anonymous reads, invalidated by what a write can change.

Most traffic to a public calendar is the same few anonymous reads (the default event list,
popular events). Their answers depend only on the request, the stored data and the day, so an
answer can be served again until a write changes what it shows.

Two kinds of writes retire entries:

- a write **through this process** (``CacheAnonymousReads`` sees it go by) retires only the
  entries that depend on what it touched (``cache_tags``): every list, and the single
  records it wrote or that embed them; the others survive it;
- a write from **anywhere else** (another worker, process or machine on the same database) is
  seen only as a change of the backend's ``generation()``: the cache keeps the generation it
  last accounted for (its *view*), and any other value empties it.

What is never cached: requests with credentials or a ``password`` parameter, and requests whose
answer depends on the time of day rather than the day (relative date phrases such as
``now``/``+2 hours``, ``only_with_upcoming``). The day itself is part of the key, because the
default list window moves at midnight in the calendar's zone.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping

import attrs

__all__ = ["CachedResponse", "ResponseCache", "cacheable"]

#: Date parameters whose value, when it is a plain calendar date or time, fixes the answer.
_DATE_PARAMS = frozenset(
    {"start_date", "end_date", "starts_before", "starts_after", "ends_before", "ends_after"}
)
_ABSOLUTE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?")
_CLOCK_PARAMS = frozenset({"only_with_upcoming"})


def cacheable(query: Mapping[str, str], has_credentials: bool) -> bool:
    """Whether an anonymous GET with this query may be answered from the cache."""
    if has_credentials or "password" in query:
        return False
    if any(name in query for name in _CLOCK_PARAMS):
        return False
    return all(
        _ABSOLUTE.fullmatch(value.strip())
        for name, value in query.items()
        if name.rstrip("[]") in _DATE_PARAMS
    )


@attrs.frozen
class CachedResponse:
    """A kept answer: what is sent again, the validators a conditional GET is judged by, the
    tags (``cache_tags``) of what it depends on, and for an event list its query string (a
    new event its filters exclude leaves it as it is)."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    validators: tuple[tuple[str, str], ...]
    tags: frozenset[str]
    listing: str | None = None
    #: ``headers`` as ASGI sends them, encoded once.
    raw_headers: tuple[tuple[bytes, bytes], ...] = attrs.field(init=False)

    @raw_headers.default
    def _encode(self) -> tuple[tuple[bytes, bytes], ...]:
        return tuple((k.encode("latin-1"), v.encode("latin-1")) for k, v in self.headers)


class ResponseCache:
    """A thread-safe map from request keys to answers of the data as last seen, bounded by
    the bytes of the bodies it keeps (the least recently used go first): a calendar's few
    thousand popular URLs fit in the default 64 MiB, where a count of entries would not say
    how much memory lists of 36 kB and single events of 4 kB take.

    ``begin`` is called with the backend's generation before each cacheable read: a value
    other than the view empties the cache (a write from elsewhere). Its token is given back
    to ``put``, which keeps the answer only if nothing was retired meanwhile, so an answer
    built from data a write has since changed is never kept. ``writing`` and ``wrote`` frame
    a write through this process: ``wrote`` retires the entries with the tags the write
    touched, then takes the generation after the write as its view.
    """

    def __init__(self, max_bytes: int = 64 * 2**20) -> None:
        self._entries: OrderedDict[Hashable, CachedResponse] = OrderedDict()
        self._tagged: dict[str, set[Hashable]] = {}
        self._max = max_bytes
        self._bytes = 0
        self._lock = threading.Lock()
        self._view: Hashable = object()  # equal to no generation
        self._epoch = 0
        self._writing = 0  # writes through this process under way

    def __len__(self) -> int:
        return len(self._entries)

    def kept(self) -> list[Hashable]:
        """The keys of the kept answers, least recently used first."""
        with self._lock:
            return list(self._entries)

    def begin(self, generation: Hashable) -> int | None:
        """Account for ``generation`` (emptying the cache if it moved); the token for
        ``put``, or ``None`` while a write through this process is under way and the data
        moved: that write's own commit, most likely, which it will account for itself, so
        the read is answered from storage, and neither served nor kept here."""
        with self._lock:
            if generation != self._view:
                if self._writing:
                    return None
                self._clear()
                self._view = generation
            return self._epoch

    def writing(self) -> None:
        """A write through this process starts: ``wrote`` or ``failed`` must follow."""
        with self._lock:
            self._writing += 1

    def failed(self) -> None:
        """The write refused: it changed nothing (a change seen meanwhile is another's)."""
        with self._lock:
            self._writing -= 1

    def get(self, key: Hashable) -> CachedResponse | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: Hashable, token: int, value: CachedResponse) -> None:
        """Keep ``value`` unless anything was retired since ``begin`` gave ``token``."""
        with self._lock:
            if token != self._epoch:
                return
            self._drop(key)
            self._entries[key] = value
            for tag in value.tags:
                self._tagged.setdefault(tag, set()).add(key)
            self._bytes += len(value.body)
            while self._bytes > self._max:
                self._drop(next(iter(self._entries)))

    def wrote(
        self,
        before: Hashable,
        after: Hashable,
        tags: frozenset[str] | None,
        spared: Callable[[CachedResponse], bool] | None = None,
    ) -> None:
        """A write through this process committed between generations ``before`` and
        ``after``: retire what depends on ``tags`` but what ``spared`` says it left as it
        was (everything for ``None``, or when the data had already moved before the write)."""
        with self._lock:
            self._writing -= 1
            if tags is None or before != self._view:
                self._clear()
            else:
                for tag in tags:
                    for key in list(self._tagged.get(tag, ())):
                        if spared is None or not spared(self._entries[key]):
                            self._drop(key)
                self._epoch += 1
            self._view = after

    def _drop(self, key: Hashable) -> None:
        entry = self._entries.pop(key, None)
        if entry is None:
            return
        self._bytes -= len(entry.body)
        for tag in entry.tags:
            keys = self._tagged.get(tag)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._tagged[tag]

    def _clear(self) -> None:
        self._entries.clear()
        self._tagged.clear()
        self._bytes = 0
        self._epoch += 1
