"""The ceiling: a bare Starlette app with one route that returns a static JSON body.

Usage::

    .venv/bin/python bench/http/ceiling.py --port 8123 --size 14500

It is served the way ``events-calendar serve`` serves the real app (``uvicorn.run``, one worker,
the same loop and HTTP implementation uvicorn picks by default, log level ``warning``, no
access log), and its body has the byte size of a real ``GET /events`` response, so the
difference between the two is the work the events calendar does per request: no framework
can answer faster than this on the same server stack.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

__all__ = ["body_of_size", "make_app"]

_MEDIA_TYPE = "application/json; charset=UTF-8"  # what the real app answers with


def body_of_size(size: int) -> bytes:
    """A valid JSON object of exactly ``size`` bytes (at least 12)."""
    head, tail = b'{"padding":"', b'"}'
    if size < len(head) + len(tail):
        raise ValueError(f"a JSON body needs at least {len(head) + len(tail)} bytes")
    return head + b"x" * (size - len(head) - len(tail)) + tail


def make_app(body: bytes) -> Starlette:
    """A Starlette app answering every ``GET /`` with ``body``."""

    async def static(request: Request) -> Response:
        return Response(body, media_type=_MEDIA_TYPE)

    return Starlette(routes=[Route("/", static)])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--size", type=int, help="bytes of a padded JSON body")
    source.add_argument("--body-file", type=Path, help="serve this file's bytes as the body")
    args = parser.parse_args(argv)
    body = args.body_file.read_bytes() if args.body_file else body_of_size(args.size)
    # The same settings as events_calendar.cli._serve (workers=1 runs in this process).
    uvicorn.run(
        make_app(body),
        host=args.host,
        port=args.port,
        workers=1,
        log_level="warning",
        access_log=False,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
