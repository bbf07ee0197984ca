"""Cross-cutting work on every request, as ASGI middleware: HEAD, and the response cache.

``HeadAsGet`` serves a HEAD as the GET it mirrors and drops the body on the way out, so the
routes, handlers and cache only ever see a GET. ``CacheAnonymousReads`` answers anonymous reads
from ``cache.ResponseCache`` and keeps the 200 answers it lets through, under the backend's
data generation at the time the request came in.
"""

from __future__ import annotations

from collections.abc import Hashable
from datetime import date

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..calendar import Calendar
from .cache import CachedResponse, ResponseCache, cacheable
from .conditional import not_modified

__all__ = ["CacheAnonymousReads", "HeadAsGet"]


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


class CacheAnonymousReads:
    """Answers anonymous, cacheable GETs from the cache until the next write."""

    def __init__(self, app: ASGIApp, *, calendar: Calendar, enabled: bool) -> None:
        self.app = app
        self.calendar = calendar
        self.enabled = enabled
        self.cache = ResponseCache()

    def _key(self, request: Request) -> tuple[str, str, str, str, date] | None:
        """The key of an anonymous read the cache may answer, else ``None``."""
        if not self.enabled or request.method != "GET":
            return None
        if not cacheable(dict(request.query_params), "authorization" in request.headers):
            return None
        day = self.calendar.now().astimezone(self.calendar.zone).date()
        url = request.url
        return (url.scheme, url.netloc, url.path, url.query, day)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = self._key(Request(scope)) if scope["type"] == "http" else None
        if key is None:
            await self.app(scope, receive, send)
            return
        # Asking storage may wait (a server round trip, a lock): never on the event loop.
        generation: Hashable = await run_in_threadpool(self.calendar.backend.generation)
        hit = self.cache.get(key, generation)
        if hit is not None:
            headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in hit.headers]
            kept = {k.lower(): v for k, v in hit.headers}
            fresh = not_modified(Request(scope).headers, kept)  # the feed's validators
            status, body = (304, b"") if fresh else (hit.status, hit.body)
            if fresh:
                headers = [(k, v) for k, v in headers if k.lower() != b"content-length"]
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        started: Message = {}
        chunks: list[bytes] = []

        async def keep(message: Message) -> None:
            if message["type"] == "http.response.start":
                started.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body") and started.get("status") == 200:
                    headers = tuple(
                        (k.decode("latin-1"), v.decode("latin-1")) for k, v in started["headers"]
                    )
                    self.cache.put(key, generation, CachedResponse(200, headers, b"".join(chunks)))
            await send(message)

        await self.app(scope, receive, keep)
