"""Cross-cutting work on every request, as ASGI middleware: HEAD, and the response cache.

``HeadAsGet`` serves a HEAD as the GET it mirrors and drops the body on the way out, so the
routes, handlers and cache only ever see a GET. ``CacheAnonymousReads`` answers anonymous reads
from ``cache.ResponseCache``, keeps the 200 answers it lets through with their validators
(``ETag``, ``Last-Modified``, ``Cache-Control``; a matching ``If-None-Match`` is answered 304),
and, when the data moved, reads the storage's change journal so that each write, from
wherever it came, retires only what it can change (``cache_tags``). The anonymous reads it
may not keep (their answer moves with the clock) get the same validators, built afresh.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Hashable
from datetime import date
from functools import lru_cache

import attrs
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, QueryParams
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..calendar import Calendar
from ..errors import CalendarError
from ..records import Event
from .cache import CachedResponse, ResponseCache, cacheable, revalidatable
from .cache_tags import ALL, Listing, NewEvents, change_tags, event_list, read_tags
from .conditional import not_modified, validators
from .generations import SharedReads
from .listed_pages import ListedPage, PageNote
from .loop_lock import LoopLock, PerLoop
from .origin import address
from .urls import below_base

__all__ = ["CacheAnonymousReads", "HeadAsGet"]

#: The request headers (as ASGI gives them: lower-case bytes) that make a GET conditional.
_CONDITIONS = frozenset({b"if-none-match", b"if-modified-since"})
#: Kept event list pages that new events only add to, with how many their lists gained.
_Added = dict[Hashable, tuple[CachedResponse, int]]
#: A catch-up: the view, the journal cursor, the tags retired, the new events (which judge
#: the lists they spare), and the pages they only add to (``listed_pages``).
_CatchUp = tuple[Hashable, int, frozenset[str] | None, NewEvents | None, _Added | None]


class HeadAsGet:
    """A HEAD request is answered as its GET, with the headers and without the body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)


class _Answer:
    """The answer the app sends, gathered whole (status, headers, body) to be kept or read."""

    def __init__(self) -> None:
        self.status = 0
        self.headers: list[tuple[bytes, bytes]] = []
        self.chunks: list[bytes] = []

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            self.headers = list(message.get("headers", []))
        elif message["type"] == "http.response.body":
            self.chunks.append(message.get("body", b""))

    @property
    def body(self) -> bytes:
        return b"".join(self.chunks)


async def _send(send: Send, status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _deliver(
    scope: Scope,
    send: Send,
    status: int,
    headers: list[tuple[bytes, bytes]],
    body: bytes,
    checked: tuple[tuple[str, str], ...],
) -> None:
    """An answer with validators: 304 with no body when the request's condition holds for
    them (``checked``, lower-case names), else the answer in full."""
    conditional = any(name in _CONDITIONS for name, _ in scope["headers"])
    if conditional and not_modified(Headers(scope=scope), dict(checked)):
        kept = [(k, v) for k, v in headers if k.lower() != b"content-length"]
        await _send(send, 304, kept, b"")
    else:
        await _send(send, status, headers, body)


@lru_cache(maxsize=1024)  # bounded: query strings are the client's (8 KiB each at most)
def _judged_query(raw: bytes) -> tuple[bool, bool]:
    """``cache.cacheable`` and ``cache.revalidatable`` of an anonymous request's query string,
    judged once per distinct string: parsing one was a tenth of a cached answer."""
    query = dict(QueryParams(raw))
    return cacheable(query, has_credentials=False), revalidatable(query, has_credentials=False)


#: Pages below the API's root whose answer moves with the clock, never kept: the namespace
#: index shows the default ``end_date`` as now + 24 months to the second, as the reference
#: does. (Still answered with validators: an ETag of the body as it is.)
_CLOCK_PAGES = frozenset({"", "/"})


#: A kept answer's key: origin, path, query as sent, and the calendar's day.
_Key = tuple[str, str, str, date]


@attrs.define
class _Flight:
    """An answer being built: the cache token of the view it is built from, the answer
    once it is (``None`` if it is none to keep), and the event set then."""

    token: int
    answer: CachedResponse | None = None
    done: asyncio.Event = attrs.field(factory=asyncio.Event)


class CacheAnonymousReads:
    """Answers anonymous, cacheable GETs from the cache until a write changes them."""

    #: New events looked up, at most, to spare the lists that do not show them; past that
    #: the writes are a bulk change, and every list goes.
    SPARE_AT_MOST = 64

    def __init__(
        self, app: ASGIApp, *, calendar: Calendar, enabled: bool, base_path: str, namespace: str
    ) -> None:
        self.app = app
        self.calendar = calendar
        self.enabled = enabled
        #: The namespace root, read as the router reads it (``urls.below_base``).
        self._root = below_base(base_path, re.escape(f"/{namespace}"))
        self.cache = ResponseCache(now=calendar.now)
        self._catching_up = LoopLock()
        self._generations = SharedReads(calendar.backend.generation)
        #: The answers a request of this loop is building, by key (``_read``).
        self._building: PerLoop[dict[_Key, _Flight]] = PerLoop(dict)

    def _key(self, scope: Scope) -> _Key:
        """The key of a read the cache may answer: the origin (links in the answer name
        it), the path and query as sent, and the calendar's day."""
        day = self.calendar.now().astimezone(self.calendar.zone).date()
        return (*address(scope), day)

    def _below_root(self, path: str) -> str | None:
        """The route below the namespace root, lower-cased, or ``None`` outside it; in any
        case, as the router matches routes, so that ``/wp-json/TRIBE/events/v1/events`` is
        tagged, retired and kept out of the cache as ``.../tribe/events/v1/events`` is."""
        found = self._root.match(path)
        return None if found is None else path[found.end() :].lower()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            self.enabled
            and scope["type"] == "http"
            and scope["method"] == "GET"
            and "authorization" not in Headers(scope=scope)
        ):
            kept, validated = _judged_query(scope["query_string"])
            if kept and self._below_root(scope["path"]) not in _CLOCK_PAGES:
                try:
                    await self._read(scope, receive, send, self._key(scope))
                except CalendarError:
                    # The cache could not ask storage what changed (a database gone away):
                    # answered uncached, where the app's own handler says why, typed (503),
                    # not the server's bare 500. Nothing was sent: answers are sent whole.
                    await self.app(scope, receive, send)
                return
            if validated:
                await self._validated(scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def _generation(self) -> Hashable:
        """Inline when storage can say without waiting (a thread hop costs more than a
        cached answer); else asked in a thread, never waiting on the event loop, in a read
        shared with the requests asking at the same time (``generations``)."""
        found = self.calendar.backend.generation_nowait()
        return found if found is not None else await self._generations()

    async def _token(self) -> int:
        """A token for ``ResponseCache.put``, after accounting for any write committed
        since the cache's view. One read at a time catches up; the others wait for it, then
        read the generation again: the one they read before waiting may be older than the
        view the catch-up took, and catching up to it would set the view back."""
        generation = await self._generation()
        token = self.cache.begin(generation)
        if token is not None:
            return token
        async with self._catching_up():
            generation = await self._generation()
            token = self.cache.begin(generation)
            if token is not None:
                return token
            return self.cache.caught_up(
                *await run_in_threadpool(self._changes, generation, self.cache.cursor)
            )

    def _changes(self, generation: Hashable, cursor: int | None) -> _CatchUp:
        """What the journal says changed since ``cursor``, read between ``generation`` and
        a second look at it: the view to take, the new cursor, the tags to retire, and for
        new events which lists they leave as they were and which pages they only add to.
        If a commit landed meanwhile, the journal may hold more than ``generation`` shows:
        the view taken then matches no generation, so the next read catches up again, from
        the new cursor."""
        backend = self.calendar.backend
        changes = backend.changes(cursor)
        tags: frozenset[str] | None = None
        new = None
        created: set[int] = set()
        if changes.records is not None:
            created = {
                c.record_id for c in changes.records if c.kind == "event" and c.op == "insert"
            }
            if len(created) > self.SPARE_AT_MOST:
                created = set()
            tags = change_tags(changes.records, created)
        added = None
        if created:
            created_events = list(backend.get_many(Event, sorted(created)).values())
            new = NewEvents.of(created_events)
            if tags is not None and ALL not in tags:  # else no list stays
                # Judged here, in the worker thread: the event loop looks the verdicts up.
                added = self._added(self.cache.showing(new), created_events)
        view = generation if backend.generation() == generation else object()
        return view, changes.cursor, tags, new, added

    def _added(self, shown: list[Listing], created: list[Event]) -> _Added:
        """The kept pages of the event lists ``shown`` that new events leave as they were
        but for their totals, with how many more events their lists count
        (``listed_pages``)."""
        added: _Added = {}
        for key, entry, owed in self.cache.pages_of(shown):
            assert entry.listed is not None
            count = entry.listed.added(created, owed)
            if count is not None:
                added[key] = (entry, count)
        return added

    async def _read(self, scope: Scope, receive: Receive, send: Send, key: _Key) -> None:
        token = await self._token()
        hit = self.cache.get(key)
        building = self._building()
        if hit is None and key in building:
            # The same answer is being built: wait for it rather than build it once more.
            # Fifty readers of a large feed the last write retired built it fifty times, a
            # worker's threads at a time, holding up every uncached read behind them.
            flight = building[key]
            await flight.done.wait()
            if flight.token == token:  # built from this reader's view (or a later one):
                hit = flight.answer  # fresh for it, kept or not (a commit came meanwhile)
            else:
                token = await self._token()
                hit = self.cache.get(key)
        if hit is None:
            flight = _Flight(token)
            building.setdefault(key, flight)  # another's, if one began meanwhile, stays
            try:
                hit = flight.answer = await self._build(scope, receive, send, key, token)
            finally:
                if building.get(key) is flight:
                    del building[key]
                flight.done.set()
            if hit is None:
                return
        await _deliver(scope, send, hit.status, list(hit.raw_headers), hit.body, hit.validators)

    async def _build(
        self, scope: Scope, receive: Receive, send: Send, key: _Key, token: int
    ) -> CachedResponse | None:
        """The app's answer, kept if it is a 200 (and returned to be delivered); any other
        is sent as it is, and ``None`` returned."""
        answer, note = _Answer(), PageNote()
        note.attach(scope)  # an event list's handler notes its page (``listed_pages``)
        await self.app(scope, receive, answer)
        if answer.status != 200:
            await _send(send, answer.status, answer.headers, answer.body)
            return None
        hit = self._kept(scope["path"], answer, key[2], note.page)
        # Kept only if built from the view's data: a commit landing before the answer was
        # read would be one the next catch-up retires from answers of the view alone.
        self.cache.put(key, token, hit, await self._generation())
        return hit

    async def _validated(self, scope: Scope, receive: Receive, send: Send) -> None:
        """An anonymous read the cache may not keep, answered with validators all the same:
        a client that sends back the tag of an answer that has not moved gets a 304."""
        answer = _Answer()
        await self.app(scope, receive, answer)
        if answer.status != 200:
            await _send(send, answer.status, answer.headers, answer.body)
            return
        headers, checked = self._validators(answer)
        raw = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers]
        await _deliver(scope, send, 200, raw, answer.body, checked)

    def _validators(
        self, answer: _Answer
    ) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
        """A 200 answer's headers with validators of its own unless it brought some (the
        feed does), and the validators a conditional request is judged by: the ETag alone, since
        a Last-Modified of one second cannot tell apart two answers built in the same second,
        so If-Modified-Since alone is answered in full."""
        headers = tuple((k.decode("latin-1"), v.decode("latin-1")) for k, v in answer.headers)
        given = {k.lower(): v for k, v in headers}
        if "etag" in given:
            return headers, (("etag", given["etag"]),)
        added = validators(answer.body, self.calendar.now())
        return headers + added, tuple((k.lower(), v) for k, v in added if k == "ETag")

    def _kept(
        self, path: str, answer: _Answer, query: str, listed: ListedPage | None
    ) -> CachedResponse:
        """A 200 answer as it is kept: with validators of its own unless it brought some
        (the feed does), tagged with what it depends on, and for an event list its page."""
        body = answer.body
        headers, checked = self._validators(answer)
        below = self._below_root(path)
        if below is None:
            tags, listing = frozenset({ALL}), None
        else:
            tags = read_tags(below, body, query)
            listing = Listing.of(query) if event_list(below) else None
        return CachedResponse(200, headers, body, checked, tags, listing, listed)
