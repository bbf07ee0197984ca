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
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .limits import refusal

__all__ = ["PARSEABLE_URL", "SEND_AT_BYTES", "GatheringTransport", "SingleWriteProtocol"]

#: Kept bytes that are sent without waiting for the end of the turn.
SEND_AT_BYTES = 256 * 1024


class GatheringTransport(asyncio.Transport):
    """A transport that sends the bytes written in one turn of the event loop in one write
    to the transport it wraps; everything else it passes through."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._transport = transport
        self._loop = loop
        self._kept: list[bytes] = []
        self._size = 0

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not data:
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

    def close(self) -> None:
        self._send()
        self._transport.close()

    def write_eof(self) -> None:
        self._send()
        self._transport.write_eof()

    def abort(self) -> None:
        self._kept.clear()
        self._size = 0
        self._transport.abort()

    def can_write_eof(self) -> bool:
        return self._transport.can_write_eof()

    def is_closing(self) -> bool:
        return self._transport.is_closing()

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


class SingleWriteProtocol(HttpToolsProtocol):
    """uvicorn's ``httptools`` protocol, writing through a ``GatheringTransport``; a URL too
    long for its parser is answered as the app answers any URL over ``--max-url``."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(GatheringTransport(transport, self.loop))

    def send_400_response(self, msg: str) -> None:
        """uvicorn's plain-text 400 for a request its parser refused, except for a URL past
        what the parser can read: the app's 414 ``rest_url_too_long`` (``limits``), which a
        shorter URL over the limit gets too."""
        if len(self.url) <= PARSEABLE_URL:
            super().send_400_response(msg)
            return
        headers, body = refusal(414, "rest_url_too_long", "send a shorter URL")
        lines = [b"HTTP/1.1 414 URI Too Long\r\n"]
        for name, value in [*self.server_state.default_headers, *headers]:
            lines.append(name + b": " + value + b"\r\n")
        self.transport.write(b"".join([*lines, b"\r\n", body]))
        self.transport.close()
