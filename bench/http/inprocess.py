"""Driving the served app in process: a minimal ASGI client, and ``cProfile`` for its callers.

``profile.py`` (GETs) and ``profile_write.py`` (``POST /events``) send requests straight into
the ASGI app ``events-calendar serve`` builds, one at a time, with no socket and no HTTP parser.

This folder's ``profile.py`` shares its name with the standard library's ``profile``, which
``cProfile`` imports: ``cProfile`` is imported here with this folder off the path, then the
path is put back, so the scripts of this folder take ``cProfile`` and ``pstats`` from here.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
_PATH = list(sys.path)
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.modules.pop("profile", None)
import cProfile  # noqa: E402
import pstats  # noqa: E402

sys.path[:] = _PATH

__all__ = ["API", "Asgi", "asgi_get", "cProfile", "pstats"]

API = "/wp-json/tribe/events/v1"
Asgi = Callable[..., Awaitable[None]]


async def asgi_get(
    app: Asgi,
    path: str,
    query: str = "",
    *,
    method: str = "GET",
    headers: Sequence[tuple[bytes, bytes]] = (),
    body: bytes = b"",
) -> tuple[int, bytes]:
    """One request (a ``GET`` unless told) through the ASGI app, as uvicorn would send it;
    returns status and body."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.4"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1:8000"),
            (b"user-agent", b"bench/http/profile"),
            *headers,
            *([(b"content-length", str(len(body)).encode())] if body else []),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    sent = False
    status = 0
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # the client never disconnects mid-request
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, b"".join(chunks)
