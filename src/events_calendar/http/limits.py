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
  while holding anything;
- bodies being read (and then answered) hold at most ``max_buffered`` bytes at once in a
  worker (default 64 MiB, at least four bodies of ``max_body``): a body that would take the
  total past it is answered **503 Service Unavailable** (``rest_server_busy``) with
  ``Retry-After``, since the server, not the request, is what is out of room, and the same
  request may succeed a little later. A hundred connections each sending 4 MiB and pausing
  grew a worker from 86 MB to 490 MB;
- a JSON body holding more than ``max_json_values`` values (keys included) is answered 413
  too, before it is decoded: decoding one and checking its depth run on the event loop, at
  about half a microsecond a value, and a 4 MiB body of empty arrays (1.4 million of them)
  held every other request up for seconds. They are counted at C speed from the separators
  and brackets outside the body's strings (``json_values``).

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

from .params import is_json, media_type
from .throttle import SignInLimits, SignInThrottle

__all__ = [
    "DEFAULT_MAX_BODY",
    "DEFAULT_MAX_BUFFERED",
    "DEFAULT_MAX_JSON_VALUES",
    "DEFAULT_MAX_URL",
    "DEFAULT_READ_THREADS",
    "HttpLimits",
    "RequestLimits",
    "json_values",
]

#: 4 MiB: far above any record (the largest recorded request is a few KB), far below what
#: hurts a server's memory.
DEFAULT_MAX_BODY = 4 * 1024 * 1024
#: 64 MiB: sixteen bodies of the default largest size, buffered at once by one worker.
DEFAULT_MAX_BUFFERED = 64 * 1024 * 1024
#: Seconds a client refused for want of room is asked to wait (``Retry-After``): what a
#: few bodies take to arrive and be answered.
RETRY_BUSY_AFTER = 5
#: 8 KiB, what common servers and proxies accept in a request line (nginx, Apache).
DEFAULT_MAX_URL = 8 * 1024
#: A record with a few hundred linked records given inline holds a few thousand values; a
#: body at this limit costs the event loop some 40 ms to decode and check.
DEFAULT_MAX_JSON_VALUES = 100_000
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
    max_json_values: int = DEFAULT_MAX_JSON_VALUES
    sign_ins: SignInLimits = attrs.field(factory=SignInLimits)
    read_threads: int = DEFAULT_READ_THREADS
    max_buffered: int = attrs.field(
        default=attrs.Factory(
            lambda self: max(DEFAULT_MAX_BUFFERED, 4 * self.max_body), takes_self=True
        )
    )

    def __attrs_post_init__(self) -> None:
        if self.max_body < 1 or self.max_url < 1:
            raise ValueError("max_body and max_url must be positive numbers of bytes")
        if self.max_buffered < self.max_body:
            raise ValueError("max_buffered must be at least max_body")
        if self.max_json_values < 1:
            raise ValueError("max_json_values must be at least 1")
        if self.read_threads < 1:
            raise ValueError("read_threads must be at least 1")

    def middleware(self) -> list[Middleware]:
        """Outermost first: sizes, then failed sign-ins."""
        return [
            Middleware(
                RequestLimits,
                max_body=self.max_body,
                max_url=self.max_url,
                max_json_values=self.max_json_values,
                max_buffered=self.max_buffered,
            ),
            Middleware(SignInThrottle, limits=self.sign_ins),
        ]


class _TooLarge(Exception):
    pass


class _Busy(Exception):
    """The bodies being read already hold the bytes ``max_buffered`` allows."""


class _Held:
    """The bytes of one request's body counted in ``RequestLimits.buffered``."""

    size = 0


class RequestLimits:
    """ASGI middleware: 414 for a long URL, 413 for a large body, before the app runs."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body: int,
        max_url: int,
        max_json_values: int,
        max_buffered: int = DEFAULT_MAX_BUFFERED,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.max_url = max_url
        self.max_json_values = max_json_values
        self.max_buffered = max_buffered
        #: Bytes of the bodies being read or answered now.
        self.buffered = 0

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
        headers = Headers(scope=scope)
        declared = headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            await _refuse(send, 413, "rest_body_too_large", self._why())
            return
        held = _Held()
        try:
            await self._serve(scope, receive, send, held=held, headers=headers)
        finally:
            self.buffered -= held.size

    async def _serve(
        self, scope: Scope, receive: Receive, send: Send, *, held: _Held, headers: Headers
    ) -> None:
        """Read the body, counting it in ``held``, and hand the request to the app."""
        try:
            body = await self._read(receive, held)
        except _TooLarge:
            await _refuse(send, 413, "rest_body_too_large", self._why())
            return
        except _Busy:
            why = f"the server is reading too many bodies; retry in {RETRY_BUSY_AFTER} s"
            await _refuse(send, 503, "rest_server_busy", why, retry_after=RETRY_BUSY_AFTER)
            return
        if body is None:  # the client left before sending its body: nobody to answer
            return
        if body and self._too_many_values(headers, body):
            why = f"send a JSON body of at most {self.max_json_values:,} values"
            await _refuse(send, 413, "rest_body_too_large", why)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    def _too_many_values(self, headers: Headers, body: bytes) -> bool:
        return _read_as_json(headers) and json_values(body, most=self.max_json_values) > (
            self.max_json_values
        )

    def _why(self) -> str:
        return f"send a body of at most {self.max_body} bytes"

    async def _read(self, receive: Receive, held: _Held) -> bytes | None:
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
            if self.buffered + len(chunk) > self.max_buffered:
                raise _Busy
            self.buffered += len(chunk)
            held.size += len(chunk)
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


def _read_as_json(headers: Headers) -> bool:
    """Whether the app reads the body as JSON (``params.is_json``; a form's fields are
    bounded by count in ``params.read_params``, and other bodies are not read)."""
    return is_json(media_type(headers.get("content-type")))


#: What separates or opens values in JSON text, outside its strings.
_SEPARATORS = (b",", b":", b"[", b"{")
#: An empty array or object: its bracket opens no value. (Its whitespace is removed first.)
_EMPTY = (b"[]", b"{}")
_WHITESPACE = b" \t\n\r"


def json_values(raw: bytes, *, most: int) -> int:
    """How many values (keys included) a JSON text holds at most, exactly enough to compare
    with ``most``, without decoding it: each separator or opening bracket outside the
    strings adds one, but the bracket of an empty array or object (counted twice before, so
    50,001 ``{}`` were refused as more than 100,000 values). Every step is a C-speed
    ``bytes`` method.

    First counted over the whole text (an empty pair inside a string takes back only what
    its bracket added); only when strings may have inflated that past ``most`` (commas in
    a long description) are the strings set aside: escapes removed, each string made a
    ``0``, the rest counted. A text with more strings than ``most`` holds more values anyway
    (each string is a value or a key)."""
    rough = _count(raw)
    if rough <= most:
        return rough
    plain = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    quotes = plain.count(b'"')
    if quotes > 2 * most:
        return quotes // 2
    return _count(b"0".join(plain.split(b'"')[::2]))


def _count(text: bytes) -> int:
    """The values of a JSON text without strings (``json_values``)."""
    opened = sum(text.count(mark) for mark in _SEPARATORS) + 1
    if b"[" in text or b"{" in text:
        bare = text.translate(None, _WHITESPACE)
        opened -= sum(bare.count(empty) for empty in _EMPTY)
    return opened


_MESSAGES = {
    413: "Request body too large.",
    414: "Request URI too long.",
    431: "Request header fields too large.",
    503: "The server is busy.",
}


def refusal(
    status: int, code: str, why: str, *, retry_after: int | None = None
) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers and body of a refusal for its size: 414 for a URL, 413 for a body, 431
    for headers, 503 for want of room for a body. The server's protocol sends the first for
    a URL too long for its parser and the 431 itself (``http.protocol``)."""
    message = _MESSAGES[status]
    body = json.dumps(
        {"code": code, "message": message, "data": {"status": status}}, separators=(",", ":")
    ).encode()
    headers = [
        (b"content-type", b"application/json; charset=UTF-8"),
        (b"content-length", str(len(body)).encode()),
        (b"x-events-calendar-hint", why.encode()),
        (b"connection", b"close"),
    ]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    return headers, body


async def _refuse(
    send: Send, status: int, code: str, why: str, *, retry_after: int | None = None
) -> None:
    headers, body = refusal(status, code, why, retry_after=retry_after)
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
