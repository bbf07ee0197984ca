"""The namespace index (``GET /<ns>``) and route descriptions (``OPTIONS``), as WordPress
shows them.

Both render ``routes_spec.ROUTES``: each route lists its methods and, per endpoint, its
arguments with ``required`` and the reference's schema keywords; defaults computed per request
(page size, default date window, namespace) are resolved against the calendar and its clock.
Routes without path parameters link to themselves (``_links.self``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .routes_spec import ROUTES, Endpoint, Method, Route, find_route, resolve_default
from .urls import Urls

if TYPE_CHECKING:
    from ..calendar import Calendar

__all__ = ["allowed_methods", "index_body", "route_body"]


def _args(endpoint: Endpoint, calendar: Calendar, namespace: str) -> dict[str, Any] | list[Any]:
    shown: dict[str, Any] = {}
    for name, arg in endpoint.merged_args().items():
        spec = dict(arg.spec)
        if "default" in spec:
            spec["default"] = resolve_default(spec["default"], calendar, namespace)
        shown[name] = {**spec, "required": arg.required}
    return shown or []  # PHP serialises an empty array as a JSON list


def _entry(route: Route, urls: Urls, calendar: Calendar) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "namespace": urls.namespace,
        "methods": route.methods,
        "endpoints": [
            {"methods": list(e.methods), "args": _args(e, calendar, urls.namespace)}
            for e in route.endpoints
        ],
    }
    if not route.path_params:
        entry["_links"] = {"self": [{"href": urls.root + route.pattern.rstrip("/")}]}
    return entry


def _key(route: Route, urls: Urls) -> str:
    return f"/{urls.namespace}{route.pattern.rstrip('/')}"


def index_body(urls: Urls, calendar: Calendar) -> dict[str, Any]:
    """The body of ``GET /<ns>``: every route of the namespace, in registration order."""
    return {
        "namespace": urls.namespace,
        "routes": {_key(r, urls): _entry(r, urls, calendar) for r in ROUTES if r.indexed},
        "_links": {"up": [{"href": urls.api_root}]},
    }


def route_body(route_pattern: str, urls: Urls, calendar: Calendar) -> dict[str, Any]:
    """The body of ``OPTIONS`` on a route, given its pattern (``/events/(?P<id>\\d+)``) or a
    request path it serves (``/events/12``), relative to the namespace."""
    return _entry(find_route(route_pattern), urls, calendar)


def allowed_methods(route_pattern: str, *, can_write: bool) -> list[Method]:
    """The ``Allow`` header of a route for a caller: reads always, writes if ``can_write``
    (e.g. ``calendar.actor.can_create(kind)``), in the route's method order."""
    return find_route(route_pattern).allowed_methods(can_write=can_write)
