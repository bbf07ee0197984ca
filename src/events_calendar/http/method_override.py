"""Method override: a POST may say it is a PUT, PATCH or DELETE.

Some clients cannot send those methods (HTML forms, old HTTP libraries, proxies and firewalls
that pass only GET and POST). WordPress's REST server, which the reference runs on, lets them
name the method in ``?_method=`` or, failing that, in an ``X-HTTP-Method-Override`` header;
clients written for the reference rely on it. Without it such a "delete" reached the update
route as a plain POST and answered 200 having trashed nothing.

Two differences from WordPress, both deliberate:
- only a POST is overridden: WordPress also turns a GET into a DELETE, so a link, a prefetch
  or a crawler could change data through a URL; a safe method here stays safe;
- the override names a method the API serves or it is refused (a typo such as ``DELTE``, or
  an empty one, is 405, as that method itself would be), never ignored.

The override runs inside the size limits and the sign-in throttle (they do not depend on the
method) and outside everything else, so routing, the write turns and the response cache only
ever see the method the client meant.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["MethodOverride"]

#: Where the method comes from, in WordPress's order: the query argument wins over the header.
_QUERY_ARG = "_method"
_HEADER = b"x-http-method-override"


def _named_method(scope: Scope) -> str | None:
    """The method a POST names, upper-cased, or ``None`` when it names none."""
    query: bytes = scope.get("query_string", b"")
    if b"method" in query:  # also `%5Fmethod`, which decodes to `_method`
        # The last `_method` wins, as PHP's $_GET keeps the last of a repeated name.
        named = [v for k, v in parse_qsl(query.decode("latin-1"), True) if k == _QUERY_ARG]
        if named:
            return named[-1].strip().upper()
    headers: list[tuple[bytes, bytes]] = scope.get("headers", [])
    for name, value in headers:
        if name == _HEADER:
            return value.decode("latin-1").strip().upper()
    return None


class MethodOverride:
    """ASGI middleware: a POST naming another method (``?_method=DELETE`` or the header
    ``X-HTTP-Method-Override: DELETE``) is served as that method."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            named = _named_method(scope)
            if named is not None:
                scope = {**scope, "method": named}
        await self.app(scope, receive, send)
