"""One handler per endpoint of ``routes_spec.ROUTES``: read the parameters, call one calendar
method as the caller, present the result. Every rule (validation, permissions, visibility,
paging) is the core's; errors propagate to the app's exception handlers.

``handler_for`` maps each endpoint of the route table to its handler; a test checks that every
endpoint has one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.responses import Response

from ..coerce import is_truthy
from ..queries import EventQuery, LinkedQuery, TermQuery
from ..records import RECORD_CLASSES, Category, Event, Tag
from .call import Call
from .envelope import envelope, event_query_params, linked_query_params, term_query_params
from .feed import feed_events
from .listed_pages import note_page
from .meta import index_body, route_body
from .openapi import openapi_document
from .routes_spec import Action, Endpoint, Route
from .urls import _COLLECTIONS

__all__ = ["Handler", "handler_for", "options"]

#: A handler is plain (synchronous) code: the app runs it in a worker thread, so storage work
#: never holds up the event loop.
Handler = Callable[[Call], Response]


# -- the namespace index, documentation and OPTIONS ----------------------------------------
def index(call: Call) -> Response:
    return call.respond(200, index_body(call.urls, call.cal))


def doc(call: Call) -> Response:
    return call.respond(200, openapi_document(call.urls, call.cal))


def options(call: Call) -> Response:
    return call.respond(200, route_body(call.route.pattern, call.urls, call.cal))


# -- events ----------------------------------------------------------------------------------
def _event(call: Call, event: Event, *, single: bool = False, status: int = 200) -> Response:
    related = call.cal.events.related([event])
    return call.respond(status, call.wire.event(event, related, single=single))


def list_events(call: Call) -> Response:
    if is_truthy(call.params.get("ical")):  # the reference's ``?ical=1`` on its event list
        return feed_events(call)
    page = call.cal.events.list(EventQuery(**call.only(EventQuery)))
    note_page(call.request.scope, page)
    related = call.cal.events.related(page.items)
    items = [call.wire.event(e, related) for e in page.items]
    return envelope(call, "event", "events", items, page, event_query_params(call, page))


def get_event(call: Call) -> Response:
    password = call.params.get("password")
    event = call.cal.events.get(call.path_int("id"), password=password, edit=call.edit_context)
    return _event(call, event, single=True)


def get_event_by_slug(call: Call) -> Response:
    password = call.params.get("password")
    event = call.cal.events.get_by_slug(call.slug, password=password, edit=call.edit_context)
    return _event(call, event, single=True)


def create_event(call: Call) -> Response:
    return _event(call, call.cal.events.create(**call.fields(Event)), status=201)


def update_event(call: Call) -> Response:
    event = call.cal.events.update(call.path_int("id"), **call.fields(Event, by_id=True))
    return _event(call, event)


def update_event_by_slug(call: Call) -> Response:
    return _event(call, call.cal.events.update_by_slug(call.slug, **call.fields(Event)))


def delete_event(call: Call) -> Response:
    return _event(call, call.cal.events.delete(call.path_int("id")))


def delete_event_by_slug(call: Call) -> Response:
    return _event(call, call.cal.events.delete_by_slug(call.slug))


# -- venues and organizers -------------------------------------------------------------------
def _linked(call: Call) -> Any:
    return call.cal.venues if call.kind == "venue" else call.cal.organizers


def _present_linked(call: Call, record: Any, *, single: bool = False) -> Any:
    if call.kind == "venue":
        return call.wire.venue(record, single=single)
    return call.wire.organizer(record, single=single)


def list_linked(call: Call) -> Response:
    page = _linked(call).list(LinkedQuery(**call.only(LinkedQuery)))
    items = [_present_linked(call, r) for r in page.items]
    plural = _COLLECTIONS[call.kind]
    return envelope(call, call.kind, plural, items, page, linked_query_params(call, page))


def get_linked(call: Call) -> Response:
    record = _linked(call).get(call.path_int("id"))
    return call.respond(200, _present_linked(call, record, single=True))


def get_linked_by_slug(call: Call) -> Response:
    record = _linked(call).get_by_slug(call.slug)
    return call.respond(200, _present_linked(call, record, single=True))


def create_linked(call: Call) -> Response:
    record = _linked(call).create(**call.fields(RECORD_CLASSES[call.kind]))
    return call.respond(201, _present_linked(call, record))


def update_linked(call: Call) -> Response:
    fields = call.fields(RECORD_CLASSES[call.kind], by_id=True)
    record = _linked(call).update(call.path_int("id"), **fields)
    return call.respond(200, _present_linked(call, record))


def update_linked_by_slug(call: Call) -> Response:
    record = _linked(call).update_by_slug(call.slug, **call.fields(RECORD_CLASSES[call.kind]))
    return call.respond(200, _present_linked(call, record))


def delete_linked(call: Call) -> Response:
    record = _linked(call).delete(call.path_int("id"))
    return call.respond(200, _present_linked(call, record))


def delete_linked_by_slug(call: Call) -> Response:
    record = _linked(call).delete_by_slug(call.slug)
    return call.respond(200, _present_linked(call, record))


# -- categories and tags ---------------------------------------------------------------------
def _terms(call: Call) -> Any:
    return call.cal.categories if call.kind == "category" else call.cal.tags


def _term(call: Call, term: Category | Tag, *, links: bool = False) -> Any:
    path = call.cal.categories.paths([term])[term.id]
    return call.wire.term(term, path=path, links=links)


def list_terms(call: Call) -> Response:
    page = _terms(call).list(TermQuery(**call.only(TermQuery)))
    paths = call.cal.categories.paths(page.items)
    items = [call.wire.term(t, path=paths[t.id]) for t in page.items]
    plural = _COLLECTIONS[call.kind]
    return envelope(call, call.kind, plural, items, page, term_query_params(call), terms=True)


def get_term(call: Call) -> Response:
    return call.respond(200, _term(call, _terms(call).get(call.path_int("id")), links=True))


def _term_fields(call: Call, *, by_id: bool = False) -> dict[str, Any]:
    """A term write's fields. A tag's ``parent`` is passed on although tags declare none:
    the reference hands the whole request to WordPress's term routes, which refuse it."""
    fields = call.fields(RECORD_CLASSES[call.kind], by_id=by_id)
    if call.kind == "tag" and "parent" in call.params:
        fields["parent"] = call.params["parent"]
    return fields


def create_term(call: Call) -> Response:
    term = _terms(call).create(**_term_fields(call))
    location = {"Location": call.urls.record(call.kind, term.id)}
    return call.respond(201, _term(call, term, links=True), location)


def update_term(call: Call) -> Response:
    term = _terms(call).update(call.path_int("id"), **_term_fields(call, by_id=True))
    return call.respond(200, _term(call, term, links=True))


def delete_term(call: Call) -> Response:
    return call.respond(200, _term(call, _terms(call).delete(call.path_int("id"))))


# -- the table -------------------------------------------------------------------------------
#: Handlers keyed by (family of the route's kind, endpoint action, whether by slug).
_HANDLERS: dict[tuple[str, Action, bool], Handler] = {
    ("namespace", "index", False): index,
    ("namespace", "doc", False): doc,
    ("event", "list", False): list_events,
    ("event", "create", False): create_event,
    ("event", "read", False): get_event,
    ("event", "update", False): update_event,
    ("event", "delete", False): delete_event,
    ("event", "read", True): get_event_by_slug,
    ("event", "update", True): update_event_by_slug,
    ("event", "delete", True): delete_event_by_slug,
    ("event", "feed", False): feed_events,
    ("linked", "list", False): list_linked,
    ("linked", "create", False): create_linked,
    ("linked", "read", False): get_linked,
    ("linked", "update", False): update_linked,
    ("linked", "delete", False): delete_linked,
    ("linked", "read", True): get_linked_by_slug,
    ("linked", "update", True): update_linked_by_slug,
    ("linked", "delete", True): delete_linked_by_slug,
    ("term", "list", False): list_terms,
    ("term", "create", False): create_term,
    ("term", "read", False): get_term,
    ("term", "update", False): update_term,
    ("term", "delete", False): delete_term,
}
_FAMILIES = {None: "namespace", "event": "event", "venue": "linked", "organizer": "linked"}


def handler_for(route: Route, endpoint: Endpoint) -> Handler:
    """The handler serving ``endpoint`` of ``route``; ``KeyError`` if there is none."""
    family = _FAMILIES.get(route.kind, "term")
    return _HANDLERS[(family, endpoint.action, route.by_slug)]
