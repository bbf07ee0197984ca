"""The Starlette application: routes, one handler per route, one error table.

Handlers translate and nothing more: read the parameters, call one calendar method as the
authenticated user, present the result. Every rule (validation, permissions, visibility,
paging) is the core's; errors are mapped to the reference's payloads in one place.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable
from datetime import date
from typing import Any, Literal

import attrs
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..calendar import Calendar
from ..errors import CalendarError
from ..posts import PostCollection
from ..queries import EventFilter, EventQuery, LinkedQuery, Page, TermQuery
from ..records import Category, Event, Kind, Organizer, Tag, Venue, interface_fields
from .auth import authenticate
from .cache import CachedResponse, ResponseCache, cacheable
from .errors import HINT_HEADER, error_body, no_route_body
from .limits import HttpLimits
from .meta import index_body, route_body
from .openapi import openapi_document
from .params import InvalidJson, read_params
from .urls import Urls
from .wire import Wire

try:  # orjson is part of the ``http`` extra; the standard library is the fallback
    import orjson

    def _dumps(data: Any) -> bytes:
        return orjson.dumps(data)
except ImportError:  # pragma: no cover - exercised only without the extra
    import json

    def _dumps(data: Any) -> bytes:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


__all__ = ["create_app"]

Handler = Callable[["_Call"], Awaitable[Response]]
_WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")
_QUERY_FIELDS: dict[type, set[str]] = {
    cls: {f.name for f in attrs.fields(cls)} for cls in (EventQuery, LinkedQuery, TermQuery)
}


def _json(status: int, body: Any, headers: dict[str, str] | None = None) -> Response:
    return Response(
        _dumps(body),
        status_code=status,
        headers=headers,
        media_type="application/json; charset=UTF-8",
    )


@attrs.define
class _Call:
    """One request being served: its calendar (as the caller), parameters, presenters."""

    request: Request
    cal: Calendar
    params: dict[str, Any]
    wire: Wire
    urls: Urls
    allow: list[str]

    def path_int(self, name: str) -> int:
        return int(self.request.path_params[name])

    @property
    def edit_context(self) -> bool:
        """Whether the record is read in order to edit it (WordPress's ``context=edit``)."""
        return self.params.get("context") == "edit"

    def only(self, cls: type) -> dict[str, Any]:
        """The parameters a query class declares (unknown ones are ignored, as in WordPress)."""
        return {k: v for k, v in self.params.items() if k in _QUERY_FIELDS[cls]}

    def fields(self, cls: type[Any], *, by_id: bool = False) -> dict[str, Any]:
        """The body fields the interface accepts (others are ignored, as in WordPress)."""
        names = set(interface_fields(cls, by_id=by_id)) | {"date_utc"}
        return {k: v for k, v in self.params.items() if k in names}

    def respond(self, status: int, body: Any, headers: dict[str, str] | None = None) -> Response:
        merged = {"Allow": ", ".join(self.allow)} if self.allow else {}
        merged["Link"] = f'<{self.urls.api_root}>; rel="https://api.w.org/"'
        merged.update(headers or {})
        return _json(status, body, merged)


class _Api:
    """The handlers, bound to one calendar and one mount point."""

    def __init__(self, calendar: Calendar, base_path: str, vendor: str, cache: bool) -> None:
        self.calendar = calendar
        self.base_path = base_path.rstrip("/")
        self.namespace = f"{vendor}/events/v1"
        self.cache = ResponseCache()
        self.caching = cache

    # -- plumbing --------------------------------------------------------------------------
    def endpoint(
        self, methods: dict[str, Handler], kind: Kind | None
    ) -> Callable[[Request], Awaitable[Response]]:
        async def serve(request: Request) -> Response:
            handler = methods.get(request.method if request.method != "HEAD" else "GET")
            if request.method == "OPTIONS":
                handler = self.options
            if handler is None:
                return _json(404, no_route_body())
            cache_key = self._cache_key(request)
            generation: Hashable = None
            if cache_key is not None:
                generation = self.calendar.backend.generation()
                hit = self.cache.get(cache_key, generation)
                if hit is not None:
                    return Response(
                        b"" if request.method == "HEAD" else hit.body,
                        status_code=hit.status,
                        headers=dict(hit.headers),
                    )
            urls = Urls(
                f"{request.url.scheme}://{request.url.netloc}", self.base_path, self.namespace
            )
            call: _Call | None = None
            try:
                user = authenticate(self.calendar, request)
                cal = self.calendar.as_user(user)
                allow = _allowed(cal, request, methods, kind)
                wire = Wire(
                    urls,
                    cal.settings,
                    cal.zone,
                    lambda k: (
                        ["GET"] + (list(_WRITE_METHODS[:4]) if cal.actor.can_create(k) else [])
                    ),
                )
                call = _Call(request, cal, {}, wire, urls, allow)
                call.params = await read_params(request)
                response = await handler(call)
            except InvalidJson as bad:
                body = {
                    "code": "rest_invalid_json",
                    "message": "Invalid JSON body passed.",
                    "data": {
                        "status": 400,
                        "json_error_code": 4,
                        "json_error_message": "Syntax error",
                    },
                }
                response = call.respond(400, body) if call else _json(400, body)
                response.headers[HINT_HEADER] = str(bad)[:200]
            except CalendarError as error:
                status, body, hint = error_body(error)
                response = call.respond(status, body) if call else _json(status, body)
                response.headers[HINT_HEADER] = hint.encode("ascii", "replace").decode()[:500]
            if cache_key is not None and response.status_code == 200:
                self.cache.put(
                    cache_key,
                    generation,
                    CachedResponse(
                        response.status_code, tuple(response.headers.items()), bytes(response.body)
                    ),
                )
            if request.method == "HEAD":
                response.body = b""
            return response

        return serve

    def _cache_key(self, request: Request) -> tuple[str, str, str, str, date] | None:
        """The key of an anonymous read the cache may answer, else ``None``."""
        if not self.caching or request.method not in ("GET", "HEAD"):
            return None
        if not cacheable(dict(request.query_params), "authorization" in request.headers):
            return None
        day = self.calendar.now().astimezone(self.calendar.zone).date()
        url = request.url
        return (url.scheme, url.netloc, url.path, url.query, day)

    async def options(self, call: _Call) -> Response:
        path = call.request.url.path.removeprefix(f"{self.base_path}/{self.namespace}")
        return call.respond(200, route_body(path or "/", call.urls, call.cal))

    # -- index and documentation -----------------------------------------------------------
    async def index(self, call: _Call) -> Response:
        return call.respond(200, index_body(call.urls, call.cal))

    async def doc(self, call: _Call) -> Response:
        return call.respond(200, openapi_document(call.urls, call.cal))

    # -- events ----------------------------------------------------------------------------
    async def list_events(self, call: _Call) -> Response:
        page = call.cal.events.list(EventQuery(**call.only(EventQuery)))
        related = call.cal.events.related(page.items)
        items = [call.wire.event(e, related) for e in page.items]
        return self._envelope(
            call, "event", "events", items, page, self._event_query_params(call, page)
        )

    async def get_event(self, call: _Call) -> Response:
        event = call.cal.events.get(
            call.path_int("id"), password=call.params.get("password"), edit=call.edit_context
        )
        return self._event(call, event, single=True)

    async def get_event_by_slug(self, call: _Call) -> Response:
        event = call.cal.events.get_by_slug(
            call.request.path_params["slug"],
            password=call.params.get("password"),
            edit=call.edit_context,
        )
        return self._event(call, event, single=True)

    async def create_event(self, call: _Call) -> Response:
        return self._event(call, call.cal.events.create(**call.fields(Event)), status=201)

    async def update_event(self, call: _Call) -> Response:
        event = call.cal.events.update(call.path_int("id"), **call.fields(Event, by_id=True))
        return self._event(call, event)

    async def update_event_by_slug(self, call: _Call) -> Response:
        event = call.cal.events.update_by_slug(
            call.request.path_params["slug"], **call.fields(Event)
        )
        return self._event(call, event)

    async def delete_event(self, call: _Call) -> Response:
        return self._event(call, call.cal.events.delete(call.path_int("id")))

    async def delete_event_by_slug(self, call: _Call) -> Response:
        return self._event(call, call.cal.events.delete_by_slug(call.request.path_params["slug"]))

    def _event(
        self, call: _Call, event: Event, *, single: bool = False, status: int = 200
    ) -> Response:
        related = call.cal.events.related([event])
        return call.respond(status, call.wire.event(event, related, single=single))

    def _event_query_params(self, call: _Call, page: Page[Event]) -> list[tuple[str, str]]:
        """The effective query, echoed into ``rest_url``: every filter is kept.

        ``ticketed=false`` filters nothing and is left out, as the reference leaves it out
        (evlist_ticketed_false).
        """
        flt = page.filter
        assert isinstance(flt, EventFilter)
        zone = call.cal.zone
        given = call.only(EventQuery)

        def stamp(value: Any) -> str | None:
            return None if value is None else value.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S")

        status = given.get("status")
        if status is None:
            status = "any" if call.cal.actor.may_filter_status else "publish"
        pairs: list[tuple[str, Any]] = [
            ("page", page.page),
            ("per_page", page.per_page),
            ("start_date", stamp(flt.start_min)),
            ("end_date", stamp(flt.end_max)),
            ("search", given.get("search")),
            ("categories", _csv(given.get("categories"))),
            ("tags", _csv(given.get("tags"))),
            ("status", _csv(status)),
            ("post_parent", given.get("post_parent")),
            ("include", _csv(given.get("include"))),
            ("starts_before", stamp(flt.start_before)),
            ("starts_after", stamp(flt.start_after)),
            ("ends_before", stamp(flt.end_before)),
            ("ends_after", stamp(flt.end_after)),
            ("strict_dates", given.get("strict_dates")),
            ("venue", _csv(given.get("venue"))),
            ("organizer", _csv(given.get("organizer"))),
            ("featured", None if flt.featured is None else int(flt.featured)),
        ]
        return [(k, str(v)) for k, v in pairs if v is not None]

    # -- venues and organizers -------------------------------------------------------------
    def linked_handlers(self, kind: Literal["venue", "organizer"]) -> dict[str, Handler]:
        plural = f"{kind}s"
        cls: type[Venue] | type[Organizer] = Venue if kind == "venue" else Organizer

        def collection(call: _Call) -> Any:
            return call.cal.venues if kind == "venue" else call.cal.organizers

        def present(call: _Call, record: Any, *, single: bool = False) -> Any:
            return (
                call.wire.venue(record, single=single)
                if kind == "venue"
                else call.wire.organizer(record, single=single)
            )

        async def list_(call: _Call) -> Response:
            page = collection(call).list(LinkedQuery(**call.only(LinkedQuery)))
            items = [present(call, r) for r in page.items]
            given = call.only(LinkedQuery)
            status = given.get("status") or (
                "any" if call.cal.actor.may_filter_status else "publish"
            )
            pairs = [
                ("page", page.page),
                ("per_page", page.per_page),
                ("search", given.get("search")),
                ("event", given.get("event")),
                ("has_events", given.get("has_events")),
                ("only_with_upcoming", given.get("only_with_upcoming")),
                ("status", _csv(status)),
            ]
            return self._envelope(
                call, kind, plural, items, page, [(k, str(v)) for k, v in pairs if v is not None]
            )

        async def get(call: _Call) -> Response:
            return call.respond(
                200, present(call, collection(call).get(call.path_int("id")), single=True)
            )

        async def get_by_slug(call: _Call) -> Response:
            record = collection(call).get_by_slug(call.request.path_params["slug"])
            return call.respond(200, present(call, record, single=True))

        async def create(call: _Call) -> Response:
            return call.respond(201, present(call, collection(call).create(**call.fields(cls))))

        async def update(call: _Call) -> Response:
            record = collection(call).update(call.path_int("id"), **call.fields(cls, by_id=True))
            return call.respond(200, present(call, record))

        async def update_by_slug(call: _Call) -> Response:
            record = collection(call).update_by_slug(
                call.request.path_params["slug"], **call.fields(cls)
            )
            return call.respond(200, present(call, record))

        async def delete(call: _Call) -> Response:
            return call.respond(200, present(call, collection(call).delete(call.path_int("id"))))

        async def delete_by_slug(call: _Call) -> Response:
            record = collection(call).delete_by_slug(call.request.path_params["slug"])
            return call.respond(200, present(call, record))

        return {
            "list": list_,
            "get": get,
            "get_by_slug": get_by_slug,
            "create": create,
            "update": update,
            "update_by_slug": update_by_slug,
            "delete": delete,
            "delete_by_slug": delete_by_slug,
        }

    # -- categories and tags ---------------------------------------------------------------
    def term_handlers(self, kind: Literal["category", "tag"]) -> dict[str, Handler]:
        plural = "categories" if kind == "category" else "tags"
        cls: type[Category] | type[Tag] = Category if kind == "category" else Tag

        def collection(call: _Call) -> Any:
            return call.cal.categories if kind == "category" else call.cal.tags

        def present(
            call: _Call, term: Category | Tag, *, links: bool = False, path: list[str] | None = None
        ) -> Any:
            if path is None:
                path = call.cal.categories.paths([term])[term.id]
            return call.wire.term(term, path=path, links=links)

        async def list_(call: _Call) -> Response:
            page = collection(call).list(TermQuery(**call.only(TermQuery)))
            paths = call.cal.categories.paths(page.items)
            items = [present(call, t, path=paths[t.id]) for t in page.items]
            given = [
                (k, str(_csv(v)))
                for k, v in call.only(TermQuery).items()
                if k not in ("page",) and v is not None
            ]
            return self._envelope(call, kind, plural, items, page, given, terms=True)

        async def get(call: _Call) -> Response:
            return call.respond(
                200, present(call, collection(call).get(call.path_int("id")), links=True)
            )

        async def create(call: _Call) -> Response:
            term = collection(call).create(**call.fields(cls))
            return call.respond(
                201, present(call, term, links=True), {"Location": call.urls.record(kind, term.id)}
            )

        async def update(call: _Call) -> Response:
            term = collection(call).update(call.path_int("id"), **call.fields(cls, by_id=True))
            return call.respond(200, present(call, term, links=True))

        async def delete(call: _Call) -> Response:
            return call.respond(200, present(call, collection(call).delete(call.path_int("id"))))

        return {"list": list_, "get": get, "create": create, "update": update, "delete": delete}

    # -- envelopes -------------------------------------------------------------------------
    def _envelope(
        self,
        call: _Call,
        kind: Kind,
        key: str,
        items: list[Any],
        page: Page[Any],
        params: list[tuple[str, str]],
        *,
        terms: bool = False,
    ) -> Response:
        """The list envelope, links to the neighbouring pages, and the total headers."""
        without_page = [(k, v) for k, v in params if k != "page"]
        rest_url = call.urls.listing(kind, params if not terms else without_page)
        envelope: dict[str, Any] = {}
        more = page.page < page.total_pages
        next_url = call.urls.listing(kind, [*without_page, ("page", str(page.page + 1))])
        if page.page == 2:
            previous_url = call.urls.listing(kind, without_page)
        else:
            previous_url = call.urls.listing(kind, [*without_page, ("page", str(page.page - 1))])
        if terms:
            envelope.update(
                {
                    "rest_url": rest_url,
                    "total": page.total,
                    "total_pages": page.total_pages,
                    key: items,
                }
            )
            if items and more:
                envelope["next_rest_url"] = next_url
            if page.page > 1:  # a term page past the end still links back (clist_page_beyond)
                envelope["previous_rest_url"] = previous_url
        else:
            envelope.update({key: items, "rest_url": rest_url})
            if items and more:
                envelope["next_rest_url"] = next_url
            if items and page.page > 1:
                envelope["previous_rest_url"] = previous_url
            envelope.update({"total": page.total, "total_pages": page.total_pages})
        return call.respond(
            200,
            envelope,
            {"X-TEC-Total": str(page.total), "X-TEC-TotalPages": str(page.total_pages)},
        )


def _allowed(
    cal: Calendar, request: Request, methods: dict[str, Handler], kind: Kind | None
) -> list[str]:
    """The methods the caller may use on this route, for the ``Allow`` header.

    As WordPress computes it, from the permission checks: on one post by id, the writes the
    caller may do to that very post (none for an unknown id, evupd_unknown); elsewhere, the
    writes the caller may do to that kind of record.
    """
    writes = [m for m in methods if m in _WRITE_METHODS]
    if kind is None or not writes:
        return ["GET"]
    record_id = request.path_params.get("id")
    if record_id is not None and kind in ("event", "venue", "organizer"):
        posts: PostCollection[Any] = (
            cal.events if kind == "event" else cal.venues if kind == "venue" else cal.organizers
        )
        permitted = posts.may_edit(int(record_id))
    else:
        permitted = cal.actor.can_create(kind)
    return ["GET", *writes] if permitted else ["GET"]


def _csv(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return value


def create_app(
    calendar: Calendar,
    *,
    base_path: str = "/wp-json",
    vendor: str = "tribe",
    cache: bool = True,
    limits: HttpLimits | None = None,
) -> Starlette:
    """An ASGI app serving ``calendar`` at ``{base_path}/{vendor}/events/v1``.

    ``cache`` keeps answers to anonymous reads until the next write (``http.cache``);
    ``limits`` caps request sizes and failed sign-ins (``http.limits``; defaults when omitted).
    """
    api = _Api(calendar, base_path, vendor, cache)
    root = f"{api.base_path}/{api.namespace}"
    routes: list[Route] = []

    def add(path: str, kind: Kind | None, methods: dict[str, Handler]) -> None:
        endpoint = api.endpoint(methods, kind)
        verbs = sorted({*methods, "HEAD", "OPTIONS", *_WRITE_METHODS, "GET"})
        for variant in {f"{root}{path}", f"{root}{path}/"}:
            routes.append(Route(variant, endpoint, methods=verbs))

    add("", None, {"GET": api.index})
    add("/doc", None, {"GET": api.doc})
    events: dict[str, Handler] = {
        "list": api.list_events,
        "get": api.get_event,
        "get_by_slug": api.get_event_by_slug,
        "create": api.create_event,
        "update": api.update_event,
        "update_by_slug": api.update_event_by_slug,
        "delete": api.delete_event,
        "delete_by_slug": api.delete_event_by_slug,
    }
    collections: list[tuple[Kind, str, dict[str, Handler]]] = [
        ("event", "events", events),
        ("venue", "venues", api.linked_handlers("venue")),
        ("organizer", "organizers", api.linked_handlers("organizer")),
        ("category", "categories", api.term_handlers("category")),
        ("tag", "tags", api.term_handlers("tag")),
    ]
    for kind, plural, handlers in collections:
        add(f"/{plural}", kind, {"GET": handlers["list"], "POST": handlers["create"]})
        single = {"GET": handlers["get"], "DELETE": handlers["delete"]}
        single.update(dict.fromkeys(("POST", "PUT", "PATCH"), handlers["update"]))
        add(f"/{plural}/{{id:int}}", kind, single)
        if "get_by_slug" in handlers:
            by_slug = {"GET": handlers["get_by_slug"], "DELETE": handlers["delete_by_slug"]}
            by_slug.update(dict.fromkeys(("POST", "PUT", "PATCH"), handlers["update_by_slug"]))
            add(f"/{plural}/by-slug/{{slug:str}}", kind, by_slug)

    async def no_route(request: Request, exc: Exception) -> Response:
        return _json(404, no_route_body())

    return Starlette(
        routes=routes,
        exception_handlers={404: no_route, 405: no_route},
        middleware=(limits or HttpLimits()).middleware(),
    )
