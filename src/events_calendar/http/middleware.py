"""Cross-cutting work on every request, as ASGI middleware: HEAD, and the response cache.

``HeadAsGet`` serves a HEAD as the GET it mirrors and drops the body on the way out, so the
routes, handlers and cache only ever see a GET. ``CacheAnonymousReads`` answers anonymous reads
from ``cache.ResponseCache``, keeps the 200 answers it lets through with their validators
(``ETag``, ``Last-Modified``, ``Cache-Control``; a matching ``If-None-Match`` is answered 304),
and watches the writes that go through it so each retires only what it can change
(``cache_tags``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from datetime import date

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..calendar import Calendar
from .cache import CachedResponse, ResponseCache, cacheable
from .cache_tags import ALL, event_list, read_tags, spared_lists, write_tags
from .conditional import not_modified, validators

__all__ = ["CacheAnonymousReads", "HeadAsGet"]

_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: The request headers (as ASGI gives them: lower-case bytes) that make a GET conditional.
_CONDITIONS = frozenset({b"if-none-match", b"if-modified-since"})


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


class CacheAnonymousReads:
    """Answers anonymous, cacheable GETs from the cache until a write changes them."""

    def __init__(
        self, app: ASGIApp, *, calendar: Calendar, enabled: bool, root: str, sole_writer: bool
    ) -> None:
        self.app = app
        self.calendar = calendar
        self.enabled = enabled
        self.root = root
        self.sole_writer = sole_writer
        self.cache = ResponseCache()

    def _key(self, request: Request) -> tuple[str, str, str, str, date] | None:
        """The key of an anonymous read the cache may answer, else ``None``."""
        if not cacheable(dict(request.query_params), "authorization" in request.headers):
            return None
        day = self.calendar.now().astimezone(self.calendar.zone).date()
        url = request.url
        return (url.scheme, url.netloc, url.path, url.query, day)

    def _below_root(self, path: str) -> str | None:
        return path[len(self.root) :] if path.startswith(self.root) else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.enabled or scope["type"] != "http":
            await self.app(scope, receive, send)
        elif scope["method"] in _WRITES:
            await self._write(scope, receive, send)
        elif scope["method"] == "GET" and (key := self._key(Request(scope))) is not None:
            await self._read(scope, receive, send, key)
        else:
            await self.app(scope, receive, send)

    async def _generation(self) -> Hashable:
        # Asking storage may wait (a server round trip, a lock): never on the event loop.
        return await run_in_threadpool(self.calendar.backend.generation)

    async def _write(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass a write through, then retire what it touched (on success; a failed write
        changes nothing, and a change from elsewhere is caught by the next generation)."""
        before = await self._generation()
        self.cache.writing()
        answer = _Answer()
        try:
            await self.app(scope, receive, answer)
            after = await self._generation()
        except BaseException:
            self.cache.wrote(before, object(), None)  # what it did is unknown: start afresh
            raise
        if 200 <= answer.status < 300:
            # Only a sole writer may retire selectively: storage generations cannot tell its
            # own commit from another process's landing at the same moment (docs/http.md).
            touched = self._touched(scope, answer) if self.sole_writer else (None, None)
            self.cache.wrote(before, after, *touched)
        else:
            self.cache.failed()
        await _send(send, answer.status, answer.headers, answer.body)

    async def _read(
        self, scope: Scope, receive: Receive, send: Send, key: tuple[str, str, str, str, date]
    ) -> None:
        token = self.cache.begin(await self._generation())
        if token is None:
            await self.app(scope, receive, send)
            return
        hit = self.cache.get(key)
        if hit is None:
            answer = _Answer()
            await self.app(scope, receive, answer)
            if answer.status != 200:
                await _send(send, answer.status, answer.headers, answer.body)
                return
            hit = self._kept(scope["path"], answer, key[3])
            self.cache.put(key, token, hit)
        headers = list(hit.raw_headers)
        conditional = any(name in _CONDITIONS for name, _ in scope["headers"])
        if conditional and not_modified(Headers(scope=scope), dict(hit.validators)):
            kept = [(k, v) for k, v in headers if k.lower() != b"content-length"]
            await _send(send, 304, kept, b"")
        else:
            await _send(send, hit.status, headers, hit.body)

    def _touched(
        self, scope: Scope, answer: _Answer
    ) -> tuple[frozenset[str] | None, Callable[[CachedResponse], bool] | None]:
        """What a successful write may have changed (``None``: anything), and which of the
        kept answers it touches it certainly left as they were."""
        path, method = self._below_root(scope["path"]), scope["method"]
        if path is None:
            return None, None
        spared = spared_lists(method, path, answer.body)

        def left(entry: CachedResponse) -> bool:
            return entry.listing is not None and spared is not None and spared(entry.listing)

        return write_tags(method, path, answer.body), None if spared is None else left

    def _kept(self, path: str, answer: _Answer, query: str) -> CachedResponse:
        """A 200 answer as it is kept: with validators of its own unless it brought some
        (the feed does), and tagged with what it depends on."""
        body = answer.body
        headers = tuple((k.decode("latin-1"), v.decode("latin-1")) for k, v in answer.headers)
        given = {k.lower(): v for k, v in headers}
        if "etag" in given:
            checked = tuple((k, v) for k, v in given.items() if k in ("etag", "last-modified"))
        else:
            added = validators(body, self.calendar.now())
            headers += added
            # Only the ETag decides: a Last-Modified of one second cannot tell apart two
            # answers built in the same second, so If-Modified-Since alone is answered in full.
            checked = tuple((k.lower(), v) for k, v in added if k == "ETag")
        below = self._below_root(path)
        if below is None:
            tags, listing = frozenset({ALL}), None
        else:
            tags, listing = read_tags(below, body), query if event_list(below) else None
        return CachedResponse(200, headers, body, checked, tags, listing)
