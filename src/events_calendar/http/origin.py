"""A request's origin (``scheme://host[:port]``), as Starlette's ``request.url`` spells it,
and its whole address as the caches key it (``address``).

Links in answers and the response cache's keys need only the origin, yet ``request.url``
rebuilds and re-parses the whole URL (its host header checked by a regular expression) on
every request: about a tenth of what one worker spends on a ``POST /events``. A server sees
few distinct origins, so each one is worked out once, by Starlette itself, and remembered.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from starlette.datastructures import URL
from starlette.types import Scope

__all__ = ["address", "origin"]


def origin(scope: Scope) -> str:
    """``f"{request.url.scheme}://{request.url.netloc}"`` for this request's scope."""
    host = next((value for key, value in scope["headers"] if key == b"host"), None)
    server = scope.get("server")
    return _origin(scope.get("scheme", "http"), host, None if server is None else tuple(server))


def address(scope: Scope) -> tuple[str, str, str]:
    """The request's origin, path and query string; the query read as Latin-1, which takes
    any byte a client sends (UTF-8 would refuse some), as Starlette reads the parameters."""
    return origin(scope), scope["path"], scope["query_string"].decode("latin-1")


@lru_cache(maxsize=256)  # bounded: the Host header is the client's to choose
def _origin(scheme: str, host: bytes | None, server: tuple[Any, ...] | None) -> str:
    headers = [] if host is None else [(b"host", host)]
    scope = {"type": "http", "scheme": scheme, "server": server, "path": "/", "headers": headers}
    url = URL(scope=scope)
    return f"{url.scheme}://{url.netloc}"
