"""Size limits on requests, enforced before anything else reads them.

``RequestLimits`` is a pure ASGI middleware, outermost in the app, so a request that is too big
costs neither parsing, authentication nor a storage query:

- a URL (path and query string) longer than ``max_url`` bytes is answered **414 URI Too Long**
  (``rest_url_too_long``). 414 rather than 400: it is the status HTTP defines for exactly this
  (RFC 9110, 15.5.15), proxies and clients know it, and it says the request as a whole was
  refused, not one parameter of it;
- a body whose ``Content-Length`` is over ``max_body`` bytes is answered **413 Content Too
  Large** (``rest_body_too_large``) at once, without reading a byte of it; a body without a
  length (chunked) is read chunk by chunk, counting, and refused the moment it passes the
  limit. The body the app sees is the one read here, so the app never waits on a slow client
  while holding anything.

``HttpLimits`` gathers every limit the served app applies (these, the failed sign-in limits of
``http.throttle`` and how many requests are answered at once in worker threads) and builds the
middleware for ``create_app``.
"""

from __future__ import annotations

import json

import attrs
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .throttle import SignInLimits, SignInThrottle

__all__ = [
    "DEFAULT_MAX_BODY",
    "DEFAULT_MAX_URL",
    "DEFAULT_READ_THREADS",
    "HttpLimits",
    "RequestLimits",
]

#: 4 MiB: far above any record (the largest recorded request is a few KB), far below what
#: hurts a server's memory.
DEFAULT_MAX_BODY = 4 * 1024 * 1024
#: 8 KiB, what common servers and proxies accept in a request line (nginx, Apache).
DEFAULT_MAX_URL = 8 * 1024
#: Requests (all but signed-in writes, which are batched) answered at once in worker threads.
#: A request's work is mostly Python, which runs one thread at a time whatever the number of
#: threads: eight at once spent the worker's time handing the interpreter lock around, and
#: two answered 40-45% more uncached requests a second with half the p99
#: (bench/http/README.md). Two, not one, so that a slow storage call (which releases the
#: lock) leaves a thread for the others; the rest wait their turn on the event loop.
DEFAULT_READ_THREADS = 2


@attrs.frozen(kw_only=True)
class HttpLimits:
    """Every limit the served app enforces, with safe defaults."""

    max_body: int = DEFAULT_MAX_BODY
    max_url: int = DEFAULT_MAX_URL
    sign_ins: SignInLimits = attrs.field(factory=SignInLimits)
    read_threads: int = DEFAULT_READ_THREADS

    def __attrs_post_init__(self) -> None:
        if self.max_body < 1 or self.max_url < 1:
            raise ValueError("max_body and max_url must be positive numbers of bytes")
        if self.read_threads < 1:
            raise ValueError("read_threads must be at least 1")

    def middleware(self) -> list[Middleware]:
        """Outermost first: sizes, then failed sign-ins."""
        return [
            Middleware(RequestLimits, max_body=self.max_body, max_url=self.max_url),
            Middleware(SignInThrottle, limits=self.sign_ins),
        ]


class _TooLarge(Exception):
    pass


class RequestLimits:
    """ASGI middleware: 414 for a long URL, 413 for a large body, before the app runs."""

    def __init__(self, app: ASGIApp, *, max_body: int, max_url: int) -> None:
        self.app = app
        self.max_body = max_body
        self.max_url = max_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        url_length = len(scope.get("raw_path") or scope["path"].encode()) + len(
            scope.get("query_string", b"")
        )
        if url_length > self.max_url:
            await _refuse(
                send, 414, "rest_url_too_long", f"send a URL of at most {self.max_url} bytes"
            )
            return
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            await _refuse(send, 413, "rest_body_too_large", self._why())
            return
        try:
            body = await self._read(receive)
        except _TooLarge:
            await _refuse(send, 413, "rest_body_too_large", self._why())
            return
        if body is None:  # the client left before sending its body: nobody to answer
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    def _why(self) -> str:
        return f"send a body of at most {self.max_body} bytes"

    async def _read(self, receive: Receive) -> bytes | None:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                raise _TooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


def refusal(status: int, code: str, why: str) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers and body of a refusal for its size: 414 for a URL, 413 for a body. The
    server's protocol sends the same for a URL too long for its parser (``http.protocol``)."""
    message = "Request URI too long." if status == 414 else "Request body too large."
    body = json.dumps(
        {"code": code, "message": message, "data": {"status": status}}, separators=(",", ":")
    ).encode()
    headers = [
        (b"content-type", b"application/json; charset=UTF-8"),
        (b"content-length", str(len(body)).encode()),
        (b"x-events-calendar-hint", why.encode()),
        (b"connection", b"close"),
    ]
    return headers, body


async def _refuse(send: Send, status: int, code: str, why: str) -> None:
    headers, body = refusal(status, code, why)
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
