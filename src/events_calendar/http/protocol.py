"""The HTTP protocol ``events-calendar serve`` runs uvicorn with: an answer in one write.

uvicorn writes an answer's status line and headers to the socket when the app starts it,
and its body when the app sends it: two ``send`` system calls per answer, made on the event
loop, and two TCP segments for the client to read. For an answer from the response cache
those two calls were the largest single cost the worker had (about a quarter of the time it
held the interpreter under the realistic mix).

``SingleWriteProtocol`` is uvicorn's own protocol (``httptools``) given a transport,
``GatheringTransport``, that keeps what is written during one turn of the event loop and
hands it to the socket at the end of that turn. The app sends both messages of an answer
without waiting in between (Starlette's responses do, the response cache does), so they
leave in one write. Nothing is held longer than the turn: a write that brings the kept bytes
to ``SEND_AT_BYTES`` goes at once (a streamed body is not piled up), and closing or ending
the connection sends what is kept first.

It also bounds what uvicorn's protocol leaves unbounded, the head of a request (its request
line and headers), which the app sees only once it is whole:

- its size: more than ``MAX_HEADERS`` header fields or ``MAX_HEADER_BYTES`` of them is
  answered **431 Request Header Fields Too Large** (RFC 6585) and the connection closed. A
  50 MB header was read whole and answered; two million headers grew the worker by 230 MB
  and held every other request up for a second. The bytes of a head still arriving are
  counted too, so a single huge header is refused before the parser has kept it;
- its time: a head not whole ``HEAD_TIMEOUT`` seconds after it began (or after the
  connection opened), a body with no byte for ``BODY_TIMEOUT`` seconds, or a body not whole
  ``BODY_DEADLINE`` seconds after its head, is dropped (the connection closed). Without the
  last, a client sending a byte every 25 s kept its connection, and the body buffered so
  far, for ever. A client that sent half a request, or nothing, held its connection,
  and its file descriptor, for ever. (uvicorn's own keep-alive timeout closes a connection
  idle between requests.)

And it closes a connection it refused while the request was still arriving (413
``rest_body_too_large`` and 503 ``rest_server_busy`` from ``limits.RequestLimits``, 414,
431, a 400) the way nginx's ``lingering_close`` does: the answer is written, the sending
side shut (FIN), and what the client still sends is read and dropped until it stops, or for
at most ``LINGER_TIME`` seconds in all, ``LINGER_TIMEOUT`` without a byte, or
``LINGER_BYTES``; only then is the socket closed. Closed at once, with the client's body
unread, the kernel answered the client's next bytes with a reset, and a client that sends
its whole body before it reads (Python's ``urllib``, ``requests``) got "connection reset by
peer" (or a broken pipe) instead of the 413: 20 times in 20 for 20 MB over a 1 MiB limit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .limits import refusal

__all__ = [
    "BODY_DEADLINE",
    "BODY_TIMEOUT",
    "HEAD_TIMEOUT",
    "LINGER_BYTES",
    "LINGER_TIME",
    "LINGER_TIMEOUT",
    "MAX_HEADERS",
    "MAX_HEADER_BYTES",
    "PARSEABLE_URL",
    "SEND_AT_BYTES",
    "GatheringTransport",
    "SingleWriteProtocol",
]

#: Kept bytes that are sent without waiting for the end of the turn.
SEND_AT_BYTES = 256 * 1024


class GatheringTransport(asyncio.Transport):
    """A transport that sends the bytes written in one turn of the event loop in one write
    to the transport it wraps; everything else it passes through.

    ``linger``, if given, is asked by the first ``close()`` whether to keep the connection
    open a while (``SingleWriteProtocol`` reading what a refused client still sends): if it
    says so, the transport reads as closing (nothing more is written, uvicorn starts no
    other request on it) and a second ``close()`` closes the socket."""

    def __init__(
        self,
        transport: asyncio.Transport,
        loop: asyncio.AbstractEventLoop,
        *,
        linger: Callable[[], bool] | None = None,
    ) -> None:
        super().__init__()
        self._transport = transport
        self._loop = loop
        self._kept: list[bytes] = []
        self._size = 0
        self._linger = linger
        self._closing = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not data or self._closing:
            return
        if not self._kept:
            self._loop.call_soon(self._send)
        self._kept.append(bytes(data))
        self._size += len(data)
        if self._size >= SEND_AT_BYTES:
            self._send()

    def writelines(self, list_of_data: Any) -> None:
        for data in list_of_data:
            self.write(data)

    def _send(self) -> None:
        """Hand the kept bytes to the socket's transport, in one write."""
        if not self._kept:
            return
        data = self._kept[0] if len(self._kept) == 1 else b"".join(self._kept)
        self._kept.clear()
        self._size = 0
        if not self._transport.is_closing():  # a closed connection takes no more (asyncio)
            self._transport.write(data)

    def close(self, *, linger: bool = True) -> None:
        """Send what is kept, then close: the first time, unless ``linger`` (the transport's
        and the argument) keeps the connection open to be closed by a second call."""
        self._send()
        if not self._closing:
            self._closing = True
            if (
                linger
                and self._linger is not None
                and not self._transport.is_closing()
                and self._linger()
            ):
                return
        self._transport.close()

    def write_eof(self) -> None:
        self._send()
        self._transport.write_eof()

    def abort(self) -> None:
        self._closing = True
        self._kept.clear()
        self._size = 0
        self._transport.abort()

    def can_write_eof(self) -> bool:
        return self._transport.can_write_eof()

    def is_closing(self) -> bool:
        return self._closing or self._transport.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._transport.get_extra_info(name, default)

    def pause_reading(self) -> None:
        self._transport.pause_reading()

    def resume_reading(self) -> None:
        self._transport.resume_reading()

    def is_reading(self) -> bool:
        return self._transport.is_reading()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._transport.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._transport.get_protocol()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._transport.set_write_buffer_limits(high, low)

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size() + self._size

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._transport.get_write_buffer_limits()


#: The longest URL ``httptools`` can parse: its offsets are 16-bit.
PARSEABLE_URL = 65535
#: Header fields a request may send (Apache's ``LimitRequestFields``), and their bytes, names
#: and values together: far above what browsers and clients send (a few KiB with cookies).
MAX_HEADERS = 100
MAX_HEADER_BYTES = 64 * 1024
#: The bytes of a head still arriving that are refused without waiting for it to end: a
#: parseable URL, the headers, and room for the other bytes of the read its last came in.
_HEAD_BYTES = PARSEABLE_URL + MAX_HEADER_BYTES + 64 * 1024
#: Seconds a request's head may take to arrive, and a body may go without a byte arriving
#: (nginx's ``client_header_timeout`` and ``client_body_timeout`` are 60).
HEAD_TIMEOUT = 30.0
BODY_TIMEOUT = 30.0
#: Seconds a whole body may take after its head: the largest body (4 MiB by default) at
#: 280 kbit/s, a slow mobile link.
BODY_DEADLINE = 120.0
#: A refused connection still receiving is closed after this many seconds in all, this many
#: without a byte, or this many bytes, whichever comes first: enough for a client on a
#: fast link to finish sending a body many times the limit and read its answer, and no
#: more than a few seconds of a worker's time however the client behaves (nginx's
#: ``lingering_time`` and ``lingering_timeout`` are 30 and 5).
LINGER_TIME = 2.0
LINGER_TIMEOUT = 1.0
LINGER_BYTES = 64 * 1024 * 1024
#: How early a timer may fire (uvloop rounds to milliseconds) and still count as on time,
#: so that a check run a little early does not arm itself again for a moment later.
_TIMER_SLACK = 0.005


class SingleWriteProtocol(HttpToolsProtocol):
    """uvicorn's ``httptools`` protocol, writing through a ``GatheringTransport``; a URL too
    long for its parser is answered as the app answers any URL over ``--max-url``; a head
    too large is a 431, a head too slow or a body stalled is dropped; a connection closed
    while its request is still arriving lingers (``_linger``)."""

    head_timeout = HEAD_TIMEOUT
    body_timeout = BODY_TIMEOUT
    body_deadline = BODY_DEADLINE
    linger_time = LINGER_TIME
    linger_timeout = LINGER_TIMEOUT
    linger_bytes = LINGER_BYTES

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._gathering = GatheringTransport(transport, self.loop, linger=self._linger)
        super().connection_made(self._gathering)
        self._lingering = False
        self._linger_ends = self._last_read = 0.0
        self._linger_left = 0
        self._reading: str | None = "head"  # "head", "body", or None: the app has the request
        self.url = b""  # (uvicorn sets it as a request begins)
        self._head_bytes = self._head_fields = self._header_bytes = 0
        self._head_too_large = False
        self._head_started = self.loop.time()
        self._body_ends = 0.0  # when the body being read must be whole
        self._deadline: asyncio.TimerHandle | None = None
        self._arm(self._head_started + self.head_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._lingering:  # dropped unread: only counted
            self._linger_left -= len(data)
            self._last_read = self.loop.time()
            if self._linger_left <= 0:
                self.transport.close()
            return
        if self._reading != "body":
            self._head_bytes += len(data)  # back to 0 as a head completes (in the parser)
        super().data_received(data)
        if self._lingering:  # refused by the parser (``send_400_response``)
            return
        if self._reading == "head" and self._head_bytes > _HEAD_BYTES:
            # Judged after the parser has read the bytes: one read may hold many pipelined
            # requests and only then the start of a head, and that head is what counts.
            if not self.transport.is_closing():
                self._head_too_large = True
                self.send_400_response("")
            return
        # Deadlines cost a timer each, so only a request still arriving after a read has one.
        if self._reading == "head" and self._deadline is None:
            self._arm(self._head_started + self.head_timeout)
        elif self._reading == "body":
            self._arm(min(self.loop.time() + self.body_timeout, self._body_ends))

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._reading, self._head_started = "head", self.loop.time()
        self._head_fields = self._header_bytes = 0

    def on_header(self, name: bytes, value: bytes) -> None:
        self._head_fields += 1
        self._header_bytes += len(name) + len(value)
        if self._head_fields > MAX_HEADERS or self._header_bytes > MAX_HEADER_BYTES:
            self._head_too_large = True
            raise _HeadTooLarge  # the parser stops; uvicorn answers ``send_400_response``
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._reading, self._head_bytes = "body", 0
        self._body_ends = self.loop.time() + self.body_deadline
        self._disarm()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._reading = None
        self._disarm()
        super().on_message_complete()

    def _arm(self, when: float) -> None:
        """Close the connection at ``when`` unless it is disarmed first."""
        self._disarm()
        self._deadline = self.loop.call_at(when, self._drop)

    def _drop(self) -> None:
        """Close a request past its deadline at once: no answer was written for the client
        to miss, so nothing is gained by reading on."""
        self._gathering.close(linger=False)

    def _linger(self) -> bool:
        """Asked by the transport as it is first closed: while the request is still arriving
        (its head or body unread, as for every refusal for size), keep reading and dropping
        what comes, so that the client, which may send its whole body before it reads, is
        not reset before it has read the answer. The sending side is shut first, so a client
        that reads as it sends sees the answer end at once. A timer, not one per read,
        bounds it: ``linger_time`` in all, ``linger_timeout`` idle (``_check_linger``);
        ``data_received`` bounds the bytes. True if the connection lingers."""
        if self._reading is None:  # the request was read whole: nothing more is coming
            return False
        self._disarm()
        self._lingering = True
        now = self.loop.time()
        self._linger_ends, self._last_read = now + self.linger_time, now
        self._linger_left = self.linger_bytes
        if self.transport.can_write_eof():  # not TLS
            self.transport.write_eof()
        self.transport.resume_reading()  # uvicorn pauses it while a body waits to be read
        self._deadline = self.loop.call_at(
            min(now + self.linger_timeout, self._linger_ends), self._check_linger
        )
        return True

    def _check_linger(self) -> None:
        """Close a lingering connection past its time or idle too long; else look again when
        it next could be."""
        self._deadline = None
        due = min(self._last_read + self.linger_timeout, self._linger_ends)
        if self.loop.time() + _TIMER_SLACK >= due:
            self.transport.close()  # the second close: the socket's
        else:
            self._deadline = self.loop.call_at(due, self._check_linger)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def send_400_response(self, msg: str) -> None:
        """uvicorn's plain-text 400 for a request its parser refused, except for a URL past
        what the parser can read (the app's 414 ``rest_url_too_long``, which a shorter URL
        over the limit gets too) and other heads too large (431 ``rest_headers_too_large``)."""
        if len(self.url) > PARSEABLE_URL:  # (a head too large for its URL, too)
            self._refuse(414, "rest_url_too_long", "send a shorter URL")
        elif self._head_too_large:
            self._refuse(431, "rest_headers_too_large", "send fewer or shorter headers")
        else:
            super().send_400_response(msg)

    def _refuse(self, status: int, code: str, why: str) -> None:
        """Answer ``status`` in JSON (``limits.refusal``) and close (lingering: the rest of
        the request is read and dropped)."""
        self._disarm()
        headers, body = refusal(status, code, why)
        lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n".encode()]
        for name, value in [*self.server_state.default_headers, *headers]:
            lines.append(name + b": " + value + b"\r\n")
        self.transport.write(b"".join([*lines, b"\r\n", body]))
        self.transport.close()


class _HeadTooLarge(Exception):
    """Raised in a parser callback to stop parsing a head past the limits."""
