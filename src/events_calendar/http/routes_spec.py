"""The routes of the namespace as data: the one table the index, OPTIONS and ``/doc`` render.

Routes are listed in the reference's registration order, which is the order of its index
(fact sheet 1.1). Each route has endpoints (a group of methods and the arguments they take).

Which arguments an endpoint takes, and which are required, is never written here: list
arguments are the fields of the query class (``EventQuery``, ``LinkedQuery``, ``TermQuery``),
create and update bodies are the writable fields of the record class (``records.input_fields``,
required on create only), plus ``date_utc`` wherever ``date`` is writable, as validation accepts
it. How the reference *describes* each argument (description, type, items, format, default) is in
``routes_args``, in tables keyed by argument name per route kind; the tables also give the
display order, which is the reference's. A declared argument missing from its table is a
programming error (``LookupError``), and the tests check that no table names an undeclared one.

Defaults that depend on the calendar or the clock are ``Computed`` markers, resolved per
request by ``resolve_default``: ``per_page`` shows ``Settings.per_page`` as the string the
reference shows, and ``start_date``/``end_date`` the reference's default strings
(``default_window_text``), which read with the default day rounding give exactly
``dates.default_window``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from datetime import datetime, time, timedelta, tzinfo
from typing import TYPE_CHECKING, Any, Literal

import attrs

from ..dates import format_wall, months_ahead, to_utc
from ..queries import EventQuery, LinkedQuery, TermQuery
from ..records import (
    KINDS,
    POST_KINDS,
    RECORD_CLASSES,
    TERM_KINDS,
    Input,
    Kind,
    input_fields,
    interface_fields,
)
from .routes_args import NOUNS, Computed, body_table, integer_arg, list_table, text_arg
from .urls import _COLLECTIONS

if TYPE_CHECKING:
    from ..calendar import Calendar

__all__ = [
    "QUERY_CLASSES",
    "RECORD_ID",
    "ROUTES",
    "UTC_TWINS",
    "Action",
    "Arg",
    "Computed",
    "Endpoint",
    "Method",
    "Route",
    "body_arg_names",
    "body_table",
    "default_window_text",
    "find_route",
    "list_arg_names",
    "list_table",
    "record_route",
    "resolve_default",
]

Method = Literal["GET", "POST", "PUT", "PATCH", "DELETE"]
Action = Literal["index", "doc", "list", "create", "read", "update", "delete", "feed"]
Location = Literal["path", "query", "body"]

READ_METHODS: tuple[Method, ...] = ("GET",)
EDIT_METHODS: tuple[Method, ...] = ("POST", "PUT", "PATCH")
_ID = r"(?P<id>\d+)"
#: The Starlette convertor of a record id in a path (``http.app`` registers it).
RECORD_ID = "record_id"
_SLUG = r"(?P<slug>[^/]+)"
_PARAM = re.compile(r"\(\?P<(\w+)>([^)]*)\)")


@attrs.frozen
class Arg:
    """One argument of an endpoint: where it is read from and how the reference describes it."""

    name: str
    location: Location
    required: bool
    #: ``description``, ``type``, ``items``, ``format``, ``default`` (possibly ``Computed``).
    spec: Mapping[str, Any]


@attrs.frozen
class Endpoint:
    """A group of methods served by one handler, and the arguments it takes."""

    action: Action
    methods: tuple[Method, ...]
    args: tuple[Arg, ...] = ()

    def merged_args(self) -> dict[str, Arg]:
        """The arguments as WordPress lists them: a body argument replaces a path argument of
        the same name in place (``slug`` on the by-slug update routes)."""
        merged: dict[str, Arg] = {}
        for arg in self.args:
            merged[arg.name] = arg
        return merged

    def in_location(self, location: Location) -> tuple[Arg, ...]:
        return tuple(a for a in self.args if a.location == location)

    @property
    def writes(self) -> bool:
        return self.action in ("create", "update", "delete")


@attrs.frozen
class Route:
    """One route: a path pattern (WordPress regex syntax, relative to the namespace)."""

    pattern: str
    kind: Kind | None
    endpoints: tuple[Endpoint, ...]
    #: False for a route of this library only (the .ics feed): the namespace index, which
    #: the reference's clients read, lists the reference's routes.
    indexed: bool = True

    @property
    def methods(self) -> list[Method]:
        return [m for e in self.endpoints for m in e.methods]

    @property
    def path_params(self) -> list[str]:
        return [name for name, _ in _PARAM.findall(self.pattern)]

    @property
    def by_slug(self) -> bool:
        return "slug" in self.path_params

    @property
    def openapi_path(self) -> str:
        """``/events/{id}``: the pattern in OpenAPI's template syntax."""
        return _PARAM.sub(r"{\1}", self.pattern)

    @property
    def starlette_path(self) -> str:
        """``/events/{id:record_id}``, ``/events/by-slug/{slug:str}``; ``""`` for the root."""
        converters = {_ID: RECORD_ID, _SLUG: "str"}
        path = self.pattern
        for regex, converter in converters.items():
            name = _PARAM.fullmatch(regex)
            assert name is not None
            path = path.replace(regex, f"{{{name.group(1)}:{converter}}}")
        return "" if path == "/" else path

    def matches(self, path: str) -> bool:
        """Whether a request path (relative to the namespace) is served by this route."""
        path = path.rstrip("/") or "/"
        return re.fullmatch(self.pattern, path, re.ASCII) is not None

    def arg_names(self, method: str) -> list[str]:
        """The arguments of the endpoint serving ``method``, in declared order (WordPress
        checks them in this order, so its errors name bad ones in it)."""
        for endpoint in self.endpoints:
            if method in endpoint.methods:
                return list(endpoint.merged_args())
        return []

    def allowed_methods(self, *, can_write: bool) -> list[Method]:
        """The methods a caller may use here (the ``Allow`` header): reads, plus writes for
        callers allowed to write this kind of record."""
        return [m for e in self.endpoints if can_write or not e.writes for m in e.methods]


def find_route(pattern_or_path: str) -> Route:
    """The route with this pattern (``/events/(?P<id>\\d+)``), else the one serving this
    request path (``/events/12``); ``LookupError`` if none does."""
    wanted = pattern_or_path if pattern_or_path.startswith("/") else f"/{pattern_or_path}"
    for route in ROUTES:
        if route.pattern == wanted:
            return route
    for route in ROUTES:
        if route.matches(wanted):
            return route
    raise LookupError(f"no route serves {pattern_or_path!r}")


def record_route(kind: Kind) -> Route:
    """The route of one record of ``kind`` by id (``/tags/(?P<id>\\d+)``)."""
    return next(r for r in ROUTES if r.kind == kind and r.path_params == ["id"])


# --- computed defaults ---------------------------------------------------------------------


def default_window_text(now: datetime, zone: tzinfo) -> tuple[str, str]:
    """The default ``start_date``/``end_date`` as the reference shows them: 23:59 yesterday and
    now + 24 months, on the calendar's wall clock. With the default (non-strict) day rounding
    they select exactly ``dates.default_window(now, zone)``."""
    local = to_utc(now).astimezone(zone)
    yesterday = datetime.combine(local.date() - timedelta(days=1), time(23, 59), tzinfo=zone)
    ahead = datetime.combine(months_ahead(local.date(), 24), local.time(), tzinfo=zone)
    return format_wall(yesterday), format_wall(ahead)


def resolve_default(value: Any, calendar: Calendar, namespace: str) -> Any:
    """A default as shown for one request (``Computed`` markers resolved)."""
    if not isinstance(value, Computed):
        return value
    if value is Computed.NAMESPACE:
        return namespace
    if value is Computed.PER_PAGE:
        return str(calendar.settings.per_page)
    start, end = default_window_text(calendar.now(), calendar.zone)
    return start if value is Computed.WINDOW_START else end


# --- the arguments each endpoint takes, from the declarations ------------------------------

#: Input accepted beside a writable field: ``date_utc`` sets ``date`` from a UTC time
#: (``validation.read_input`` accepts it wherever ``date`` is writable).
UTC_TWINS = {"date": "date_utc"}

QUERY_CLASSES: dict[Kind, type] = {
    "event": EventQuery,
    "venue": LinkedQuery,
    "organizer": LinkedQuery,
    "category": TermQuery,
    "tag": TermQuery,
}


def list_arg_names(kind: Kind) -> list[str]:
    """The filters a list of ``kind`` takes: the query class's fields, less, for terms, those
    named after a field of the other term kind only (tags are flat: no ``parent`` filter)."""
    elsewhere: set[str] = set()
    if kind in TERM_KINDS:
        own = set(input_fields(RECORD_CLASSES[kind]))
        elsewhere = {n for k in TERM_KINDS for n in input_fields(RECORD_CLASSES[k])} - own
    return [f.name for f in attrs.fields(QUERY_CLASSES[kind]) if f.name not in elsewhere]


def body_arg_names(kind: Kind, *, creating: bool = True, by_id: bool = False) -> dict[str, bool]:
    """The fields a create (or update) body of ``kind`` takes, mapped to whether they are
    required (on create only)."""
    names: dict[str, bool] = {}
    for name, field in interface_fields(RECORD_CLASSES[kind], by_id=by_id).items():
        names[name] = field.required and creating
        if name in UTC_TWINS:
            names[UTC_TWINS[name]] = False
    return names


def _described(
    kind: Kind, names: Mapping[str, bool], table: Mapping[str, Mapping[str, Any]], where: Location
) -> tuple[Arg, ...]:
    missing = sorted(set(names) - set(table))
    if missing:
        raise LookupError(f"routes_spec describes no {kind} {where} argument {missing}")
    return tuple(Arg(n, where, names[n], table[n]) for n in table if n in names)


def _password_arg(kind: Kind) -> tuple[Arg, ...]:
    """``password`` on reads and deletes by id, for records that can have one."""
    fields = input_fields(RECORD_CLASSES[kind]).values()
    return tuple(
        Arg(f.name, "query", False, body_table(kind)[f.name])
        for f in fields
        if f.input is Input.PASSWORD
    )


def _kind_routes(kind: Kind) -> list[Route]:
    noun = NOUNS[kind][0]
    collection = f"/{_COLLECTIONS[kind]}"
    creatable = body_arg_names(kind)
    listing = dict.fromkeys(list_arg_names(kind), False)
    list_args = _described(kind, listing, list_table(kind), "query")
    create_args = _described(kind, creatable, body_table(kind), "body")
    update_args = _described(
        kind, body_arg_names(kind, creating=False, by_id=True), body_table(kind), "body"
    )
    slug_update_args = _described(
        kind, body_arg_names(kind, creating=False), body_table(kind), "body"
    )
    post = kind in POST_KINDS
    key = "post ID" if post else "term ID"
    by_id = (Arg("id", "path", True, integer_arg(f"the {noun} {key}")),)
    password = _password_arg(kind)

    def single(
        selector: tuple[Arg, ...], extra: tuple[Arg, ...], edits: tuple[Arg, ...]
    ) -> tuple[Endpoint, ...]:
        read = Endpoint("read", READ_METHODS, selector + extra)
        delete = Endpoint("delete", ("DELETE",), selector + extra)
        update = Endpoint("update", EDIT_METHODS, selector + edits)
        return (read, delete, update) if post else (read, update, delete)

    routes = [
        Route(
            collection,
            kind,
            (Endpoint("list", READ_METHODS, list_args), Endpoint("create", ("POST",), create_args)),
        ),
        Route(f"{collection}/{_ID}", kind, single(by_id, password, update_args)),
    ]
    if post:
        by_slug = (Arg("slug", "path", True, text_arg(f"the {noun} post name")),)
        routes.append(
            Route(f"{collection}/by-slug/{_SLUG}", kind, single(by_slug, (), slug_update_args))
        )
    return routes


@functools.cache
def _routes() -> tuple[Route, ...]:
    index = Endpoint(
        "index",
        READ_METHODS,
        (
            Arg("namespace", "query", False, {"default": Computed.NAMESPACE}),
            Arg("context", "query", False, {"default": "view"}),
        ),
    )
    routes = [Route("/", None, (index,)), Route("/doc", None, (Endpoint("doc", READ_METHODS),))]
    for kind in KINDS:
        routes.extend(_kind_routes(kind))
    # This library's own routes, after the reference's: the subscription feed (http.feed),
    # which takes the filters of the event list (all of its pages: no paging arguments).
    listing = next(r for r in routes if r.pattern == "/events").endpoints[0]
    filters = tuple(a for a in listing.args if a.name not in ("page", "per_page"))
    feed = Endpoint("feed", READ_METHODS, filters)
    routes.append(Route("/events.ics", "event", (feed,), indexed=False))
    return tuple(routes)


#: Every route, in the reference's registration (and index) order.
ROUTES: tuple[Route, ...] = _routes()
