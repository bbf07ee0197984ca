"""The Starlette application: routes from the route table, one exception-handler table.

``routes_spec.ROUTES`` is the one list of routes: each endpoint of it becomes a Starlette route
(at the path with and without its trailing slash) served by ``handlers.handler_for``, and each
path also answers OPTIONS. Cross-cutting work is middleware (``method_override``: a POST
that names another method; ``middleware``: HEAD, the cache) and exception handlers (core
errors, bad JSON, no route); a handler only translates.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, request_response
from starlette.routing import Route as StarletteRoute
from starlette.types import ASGIApp, Receive, Scope, Send

from ..calendar import Calendar
from ..coerce import MAX_INT
from ..errors import CalendarError
from .call import current_call, plain_or_call, start_call
from .errors import HINT_HEADER, error_body, no_route_body
from .fragments import Fragments
from .handlers import Handler, handler_for, options
from .limits import HttpLimits
from .loop_lock import PerLoop
from .method_override import MethodOverride
from .middleware import CacheAnonymousReads, HeadAsGet
from .params import InvalidJson, read_params
from .read_batches import ReadBatches
from .responses import json_response
from .rest_route import RestRoute
from .routes_spec import RECORD_ID, ROUTES, Route
from .urls import below_base
from .write_batches import WriteBatches

__all__ = ["create_app"]

Endpoint = Callable[[Request], Awaitable[Response]]
T = TypeVar("T")

#: The methods that only read.
_READS = frozenset({"GET", "HEAD", "OPTIONS"})


def _endpoint(
    calendar: Calendar,
    route: Route,
    handler: Handler,
    *,
    base_path: str,
    namespace: str,
    fragments: Fragments | None,
    writes: bool,
    batches: WriteBatches,
    turns: PerLoop[anyio.CapacityLimiter] | ReadBatches,
) -> Endpoint:
    """The request path: read the body on the event loop, then sign in and answer in a
    worker thread, so a request that waits for storage (a write waiting for another
    process's lock, a slow count) never stalls the event loop.

    A write request signed in is one transaction, from the sign-in to the answer: its checks,
    its write and the record it answers with see one state of the data, an error anywhere
    (presenting the answer included) leaves nothing written, and on SQLite every read goes
    through the writer's connection, whose page cache its own commits leave valid, where a
    reader's connection reads its pages afresh after each commit (~0.1 ms a write;
    bench/http/README.md). A request signed in as no one takes no write lock: no write is
    open to it, and a flood of them must not hold up the writers.

    Those transactions wait for one another in storage anyway (every backend has one writer
    at a time), so they queue on the event loop instead (``batches``), and the ones that
    queued while another was answered are answered next, together: one thread hop and one
    commit for the batch, each request in a nested transaction of its own
    (``write_batches``). Eight threads taking turns at the write lock and the interpreter lock
    would cost a worker about a tenth of its writes (bench/http/README.md). The body is read
    before the queue and the answer sent after it, so a slow client holds up no other writer.

    Every other request takes a turn (``turns``, ``HttpLimits.read_threads`` at once): more
    threads than that would only take turns at the interpreter lock, at a cost. The price is
    that as many slow storage calls at once hold up the requests queued behind them; answers
    the cache keeps and signed-in writes, which take no turn, go on meanwhile. Reads of one
    record (``/events/<id>``, a by-slug route, one venue or term) take their turns apart
    from the others (``_routes``): their cost is bounded, a list's or the feed's is not, so
    two slow lists at once (the feed's 5,000 events take about 0.4 s) hold up other
    lists, never an event's page. Being bounded, they also go to a thread several at a
    time (``read_batches``): for them the hop cost more than the read.
    """

    def answer_now(request: Request, params: dict[str, Any]) -> Response:
        call = start_call(
            request,
            calendar,
            route,
            params,
            base_path=base_path,
            namespace=namespace,
            fragments=fragments,
        )
        return handler(call)

    if isinstance(turns, ReadBatches):
        in_turn = turns.answer
    else:

        async def in_turn(work: Callable[[], T]) -> T:
            return await anyio.to_thread.run_sync(work, limiter=turns())

    async def serve(request: Request) -> Response:
        try:
            params = await read_params(request)
        except InvalidJson:
            # Signed in first, as before the body is judged: the error carries the call's
            # headers (``Allow``), and a bad sign-in is the error a bad body with it gets.
            await in_turn(
                lambda: start_call(
                    request, calendar, route, {}, base_path=base_path, namespace=namespace
                )
            )
            raise
        if writes and "authorization" in request.headers:
            return await batches.answer(lambda: answer_now(request, params))
        return await in_turn(lambda: answer_now(request, params))

    return serve


def _routes(
    calendar: Calendar,
    *,
    base_path: str,
    namespace: str,
    fragments: Fragments | None,
    read_threads: int,
) -> list[BaseRoute]:
    """Every route of ``ROUTES`` as a Starlette route (at its path with and without the
    trailing slash), serving its endpoints' methods and OPTIONS.

    One Starlette route a path, choosing the endpoint by method itself: Starlette tries its
    routes one after another, a regular expression each, and a route a method made 138 of
    them, 9 µs of matching before ``/events/<id>`` was found (and 50 before ``/tags/<id>``).
    """
    root = f"{base_path}/{namespace}"
    routes: list[BaseRoute] = []
    batches = WriteBatches(calendar.transaction)  # signed-in writes, one batch at a time
    turns = PerLoop(lambda: anyio.CapacityLimiter(read_threads))  # every other request
    one_record = ReadBatches(read_threads)  # reads of one record, several to a hop
    for route in ROUTES:
        served = [(e.methods, handler_for(route, e)) for e in route.endpoints]
        by_method: dict[str, Endpoint] = {}
        for methods, handler in [*served, (("OPTIONS",), options)]:
            writes = not _READS.issuperset(methods)
            endpoint = _endpoint(
                calendar,
                route,
                handler,
                base_path=base_path,
                namespace=namespace,
                fragments=fragments,
                writes=writes,
                batches=batches,
                turns=one_record if route.path_params and not writes else turns,
            )
            by_method.update(dict.fromkeys(methods, endpoint))
            if "GET" in methods:
                by_method.setdefault("HEAD", endpoint)
        methods_app = _ByMethod(by_method, _OtherMethod(route))
        for path in (f"{root}{route.starlette_path}", f"{root}{route.starlette_path}/"):
            routes.append(_route_ignoring_case(base_path, path, methods_app))
    return routes


def _route_ignoring_case(base_path: str, path: str, app: ASGIApp) -> StarletteRoute:
    """A Starlette route at ``path`` whose part after ``base_path`` matches in any case
    (``urls.below_base``): ``/wp-json/tribe/events/v1/Events`` is the events list, as on a
    WordPress site."""
    route = StarletteRoute(path, app, methods=None)
    prefix = "^" + re.escape(base_path)
    pattern = route.path_regex.pattern
    assert pattern.startswith(prefix), pattern
    assert pattern.endswith("$"), pattern
    rest = below_base(base_path, pattern[len(prefix) : -1])
    route.path_regex = re.compile(f"^{rest.pattern}$")
    return route


class _ByMethod:
    """One path's endpoints, by method; ``other`` answers the methods the path does not
    serve (an ASGI app, so Starlette routes every method to it)."""

    def __init__(self, endpoints: dict[str, Endpoint], other: ASGIApp) -> None:
        self.endpoints = endpoints  # as written, for a profiler to wrap (bench/http/profile.py)
        self.apps = {method: request_response(e) for method, e in endpoints.items()}
        self.other = other

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.apps.get(scope["method"], self.other)(scope, receive, send)


#: The methods WordPress's REST server routes: one a route does not serve is the reference's
#: 404 ``rest_no_route`` (route_put_collection). Any other (TRACE, QUERY ...) is no method of
#: the API at all: 405 with the route's methods in ``Allow``, as HTTP asks.
_REST_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class _OtherMethod:
    """The answer to a method a route does not serve: WordPress's 404, or 405 for a method
    that is none of the API's (below)."""

    def __init__(self, route: Route) -> None:
        self.allow = ", ".join(route.allowed_methods(can_write=True))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] in _REST_METHODS:
            response = json_response(404, no_route_body())
        else:
            body = {**no_route_body(), "data": {"status": 405}}
            response = json_response(405, body, {"Allow": self.allow})
        await response(scope, receive, send)


async def _calendar_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, CalendarError)
    call = current_call(request)
    declared = call.route.arg_names(request.method) if call else ()
    status, body, hint = error_body(exc, declared)
    response = plain_or_call(request, status, body)
    response.headers[HINT_HEADER] = hint.encode("ascii", "replace").decode()[:500]
    return response


async def _invalid_json(request: Request, exc: Exception) -> Response:
    body = {
        "code": "rest_invalid_json",
        "message": "Invalid JSON body passed.",
        "data": {"status": 400, "json_error_code": 4, "json_error_message": "Syntax error"},
    }
    response = plain_or_call(request, 400, body)
    response.headers[HINT_HEADER] = str(exc)[:200]
    return response


async def _no_route(request: Request, exc: Exception) -> Response:
    return json_response(404, no_route_body())


class _RecordId(Convertor[int]):
    """A path id, digits only. Ids past the 64-bit range (even thousands of digits, which
    Python's ``int()`` refuses to read) become one too large, so the core answers them as it
    answers any unknown id (400 ``rest_invalid_param``), never a 500."""

    regex = "[0-9]+"

    def convert(self, value: str) -> int:
        return int(value) if len(value) <= len(str(MAX_INT)) else MAX_INT + 1

    def to_string(self, value: int) -> str:
        return str(value)


def create_app(
    calendar: Calendar,
    *,
    base_path: str = "/wp-json",
    vendor: str = "tribe",
    cache: bool = True,
    limits: HttpLimits | None = None,
    fragments: bool = True,
) -> Starlette:
    """An ASGI app serving ``calendar`` at ``{base_path}/{vendor}/events/v1``.

    ``cache`` keeps answers to anonymous reads until a write changes them (``http.cache``):
    a write, from this app or anywhere else, retires only the answers it can change;
    ``limits`` caps request sizes, failed sign-ins and the requests answered at once
    (``http.limits``; defaults when omitted);
    ``fragments`` keeps each listed event's wire object for the next list showing the same
    values (``http.fragments``: keyed by every value shown, so never stale).
    """
    base_path = base_path.rstrip("/")
    namespace = f"{vendor}/events/v1"
    register_url_convertor(RECORD_ID, _RecordId())
    kept = Fragments() if fragments else None
    limits = limits or HttpLimits()
    app = Starlette(
        routes=_routes(
            calendar,
            base_path=base_path,
            namespace=namespace,
            fragments=kept,
            read_threads=limits.read_threads,
        ),
        middleware=[
            *limits.middleware(),  # outermost: refuse before reading
            Middleware(RestRoute, base_path=base_path),
            Middleware(MethodOverride),
            Middleware(HeadAsGet),
            Middleware(
                CacheAnonymousReads,
                calendar=calendar,
                enabled=cache,
                base_path=base_path,
                namespace=namespace,
            ),
        ],
        exception_handlers={
            CalendarError: _calendar_error,
            InvalidJson: _invalid_json,
            404: _no_route,
            405: _no_route,
        },
    )
    app.state.fragments = kept  # its hits and misses, for whoever tunes a deployment
    return app
