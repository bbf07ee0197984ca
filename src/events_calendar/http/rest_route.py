"""``/?rest_route=/tribe/events/v1/events``: the API at the site root, as WordPress serves it.

A WordPress site without pretty permalinks has no ``/wp-json/`` path: its REST API lives at
``/index.php?rest_route=/...`` (and ``/?rest_route=...``), and every site, pretty permalinks or
not, also answers there. The reference documents that form as its public URL on such sites,
so clients configured for one send it. Here a request to ``/`` or ``/index.php`` carrying
``rest_route`` is served as the request to ``{base_path}{rest_route}`` with the other query
arguments: the same route, cache entry and answer, whose links name the ``/wp-json/`` form
this server also answers.
"""

from __future__ import annotations

from urllib.parse import quote, unquote_plus

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["RestRoute"]

#: The paths WordPress reads ``rest_route`` on that are free here (every other path is either
#: the API's own or no route of this server).
_SITE_ROOTS = frozenset({"/", "/index.php"})
_ARG = "rest_route"


def _split(query: bytes) -> tuple[str | None, bytes]:
    """The last ``rest_route`` value (as PHP keeps the last of a repeated name) and the query
    without it, the other arguments as sent (not decoded and encoded again)."""
    route = None
    kept = []
    for part in query.split(b"&"):
        name, _, value = part.partition(b"=")
        if unquote_plus(name.decode("latin-1")) == _ARG:
            route = unquote_plus(value.decode("latin-1"), encoding="utf-8", errors="replace")
        else:
            kept.append(part)
    return route, b"&".join(kept)


class RestRoute:
    """ASGI middleware serving ``/?rest_route=ROUTE&...`` as ``{base_path}ROUTE?...``."""

    def __init__(self, app: ASGIApp, *, base_path: str) -> None:
        self.app = app
        self.base_path = base_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        query: bytes = scope.get("query_string", b"")
        if scope["type"] == "http" and scope["path"] in _SITE_ROOTS and b"route" in query:
            # ``route``, not ``rest_route``: PHP decodes names too, so ``rest%5Froute`` is it
            route, rest = _split(query)
            if route is not None:
                path = self.base_path + "/" + route.lstrip("/")
                scope = {
                    **scope,
                    "path": path,
                    "raw_path": quote(path).encode("ascii"),
                    "query_string": rest,
                }
        await self.app(scope, receive, send)
