"""One request being served: who it acts for, its route, its parameters, its presenters.

``start_call`` does what every route needs before its handler runs (authenticate, work out the
``Allow`` header from the route table, read the parameters) and leaves the call on
``request.state``, so the exception handlers answer errors with the same headers.
"""

from __future__ import annotations

from typing import Any

import attrs
from starlette.requests import Request
from starlette.responses import Response

from ..calendar import Calendar
from ..posts import PostCollection
from ..queries import EventQuery, LinkedQuery, TermQuery
from ..records import Kind, interface_fields
from .auth import authenticate
from .fragments import Fragments
from .json_nulls import refuse_nulls
from .origin import origin
from .responses import json_response
from .routes_spec import Route, record_route
from .urls import Urls
from .wire import Wire

__all__ = ["Call", "allowed", "current_call", "plain_or_call", "start_call"]

_QUERY_FIELDS: dict[type, set[str]] = {
    cls: {f.name for f in attrs.fields(cls)} for cls in (EventQuery, LinkedQuery, TermQuery)
}


@attrs.define
class Call:
    """One request being served: its calendar (as the caller), route, parameters, presenters."""

    request: Request
    cal: Calendar
    route: Route
    wire: Wire
    urls: Urls
    allow: list[str]
    params: dict[str, Any] = attrs.field(factory=dict)

    @property
    def kind(self) -> Kind:
        """The kind of record the route serves (every route but the index and ``/doc``)."""
        assert self.route.kind is not None
        return self.route.kind

    def path_int(self, name: str) -> int:
        return int(self.request.path_params[name])

    @property
    def slug(self) -> str:
        return str(self.request.path_params["slug"])

    @property
    def edit_context(self) -> bool:
        """Whether the record is read in order to edit it (WordPress's ``context=edit``)."""
        return self.params.get("context") == "edit"

    def only(self, cls: type) -> dict[str, Any]:
        """The parameters a query class declares (unknown ones are ignored, as in WordPress)."""
        return {k: v for k, v in self.params.items() if k in _QUERY_FIELDS[cls]}

    def fields(self, cls: type[Any], *, by_id: bool = False) -> dict[str, Any]:
        """The body fields the interface accepts (others are ignored, as in WordPress).

        JSON's ``null`` where the reference refuses it is refused first (``json_nulls``)."""
        names = set(interface_fields(cls, by_id=by_id)) | {"date_utc"}
        given = {k: v for k, v in self.params.items() if k in names}
        refuse_nulls(cls, given, by_id=by_id)
        return given

    def respond(self, status: int, body: Any, headers: dict[str, str] | None = None) -> Response:
        merged = {"Allow": ", ".join(self.allow)} if self.allow else {}
        merged["Link"] = f'<{self.urls.api_root}>; rel="https://api.w.org/"'
        merged.update(headers or {})
        return json_response(status, body, merged)


def allowed(cal: Calendar, route: Route, path_params: dict[str, Any]) -> list[str]:
    """The methods the caller may use on this route, for the ``Allow`` header.

    As WordPress computes it, from the permission checks and in the route's method order: on
    one post by id, the writes the caller may do to that very post (none for an unknown id,
    evupd_unknown); elsewhere, the writes the caller may do to that kind of record.
    """
    kind = route.kind
    if kind is None:
        return list(route.allowed_methods(can_write=False))
    record_id = path_params.get("id")
    if record_id is not None and kind in ("event", "venue", "organizer"):
        posts: PostCollection[Any] = (
            cal.events if kind == "event" else cal.venues if kind == "venue" else cal.organizers
        )
        permitted = posts.may_edit(int(record_id))
    else:
        permitted = cal.actor.can_create(kind)
    return list(route.allowed_methods(can_write=permitted))


def start_call(
    request: Request,
    calendar: Calendar,
    route: Route,
    params: dict[str, Any],
    *,
    base_path: str,
    namespace: str,
    fragments: Fragments | None = None,
) -> Call:
    """Authenticate, compute ``Allow``, take the parameters read from the request: a call
    ready for its handler. Asks storage (the caller's credentials, their rights on the
    record), so it runs in a worker thread like the handler."""
    urls = Urls(origin(request.scope), base_path, namespace)
    cal = calendar.as_user(authenticate(calendar, request))
    wire = Wire(
        urls,
        cal.settings,
        cal.zone,
        lambda k: list(record_route(k).allowed_methods(can_write=cal.actor.can_create(k))),
        fragments,
    )
    call = Call(request, cal, route, wire, urls, allowed(cal, route, request.path_params))
    request.state.call = call
    call.params = params
    return call


def current_call(request: Request) -> Call | None:
    """The call ``start_call`` made for this request, if it got that far."""
    call = getattr(request.state, "call", None)
    return call if isinstance(call, Call) else None


def plain_or_call(request: Request, status: int, body: Any) -> Response:
    """An error answer: with the call's headers once there is a call, bare before."""
    call = current_call(request)
    return call.respond(status, body) if call else json_response(status, body)
