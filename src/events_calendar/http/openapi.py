"""``GET /<ns>/doc``: an OpenAPI 3.0 document generated from the declarations.

Nothing here lists a record's fields. Response schemas are inferred from what ``wire.Wire``
actually emits for sample records, and the samples are built from the record declarations
(every writable field of ``records.input_fields`` filled, cleared, or left to its default;
links, a locked event, two venues): so a key the wire format gains or loses shows up here on its
own, with the JSON types it really takes. Enumerations come from the records' attrs types
(``status``). Paths, parameters and request bodies come from ``routes_spec.ROUTES``, which in
turn derives argument names from the record and query declarations.

What is written by hand is prose: the reference's descriptions of its schemas (``_DESCRIPTIONS``,
its words where it has the property) and of responses. The top level follows the reference's
document (``openapi: 3.0.0``, the same ``info``, ``servers`` = the namespace root with its
trailing slash, paths keyed ``/doc``, ``/events``, ``/events/{id}`` ...; like it, the namespace
index, WordPress's own route, is left out). Unlike it, every method of every route is
documented, list responses are described as the envelopes they are, and the document is valid.
"""

from __future__ import annotations

import enum
import functools
import re
import typing
from collections.abc import Iterable
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any, Literal
from zoneinfo import ZoneInfo

import attrs

from ..errors import InTrash, InvalidParameter, MissingParameter, TermExists
from ..events import Related
from ..records import RECORD_CLASSES, Category, Event, Input, Organizer, Record, Tag, Venue
from ..records import input_fields as declared_inputs
from ..settings import Settings
from ..statuses import Status
from .errors import error_body, no_route_body
from .routes_spec import ROUTES, Arg, Computed, Endpoint, Method, Route, resolve_default
from .urls import _COLLECTIONS, Urls
from .wire import Wire

if TYPE_CHECKING:
    from ..calendar import Calendar

__all__ = ["component_schemas", "documented_routes", "openapi_document"]

Schema = dict[str, Any]
_REF = "#/components/schemas/"
_STAMP = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")

# --- samples, from the declarations --------------------------------------------------------

_AT = datetime(2031, 5, 1, 19, 0, tzinfo=ZoneInfo("Europe/Paris"))
#: A value for each input kind: (given, cleared).
_SAMPLE_INPUT: dict[Input, tuple[Any, Any]] = {
    Input.NAME: ("Sample", "Sample"),
    Input.TEXT: ("Some text", ""),
    Input.SLUG: ("sample", ""),
    Input.AUTHOR: (1, 0),
    Input.DATETIME: (_AT, _AT),
    Input.DATETIME_UTC: (_AT, _AT),
    Input.ZONE: ("Europe/Paris", "UTC"),
    Input.STATUS: (Status.PUBLISH, Status.DRAFT),
    Input.BOOL: (True, False),
    Input.URL: ("https://example.org/", ""),
    Input.IMAGE: ("https://example.org/poster.jpg", ""),
    Input.COST: ("10 - 20", ""),
    Input.PASSWORD: ("", ""),
    Input.CATEGORIES: ((11,), ()),
    Input.TAGS: ((12,), ()),
    Input.VENUES: ((3,), ()),
    Input.ORGANIZERS: ((4,), ()),
    Input.PARENT_TERM: (13, 0),
    Input.PARENT_EVENT: (7, 0),
}
Variant = Literal["given", "cleared", "default"]
_VARIANTS: tuple[Variant, ...] = ("given", "cleared", "default")


def _sample(cls: type[Record], record_id: int, variant: Variant) -> Any:
    """A record with every writable field given, cleared, or (bar required ones) defaulted."""
    values = {}
    for name, field in declared_inputs(cls).items():
        given, cleared = _SAMPLE_INPUT[field.input]
        if variant == "given" or field.required:
            values[name] = given
        elif variant == "cleared":
            values[name] = cleared
    return cls(id=record_id, **values)


def _wire_samples(wire: Wire) -> dict[str, list[Any]]:
    """What the wire format emits for sample records, per component."""
    venues = {v: _sample(Venue, 3, v) for v in _VARIANTS}
    organizers = {v: _sample(Organizer, 4, v) for v in _VARIANTS}
    categories = [_sample(Category, 11, v) for v in _VARIANTS]
    tags = [_sample(Tag, 12, v) for v in _VARIANTS]
    related = Related(
        venues={3: venues["given"], 6: venues["default"]},
        organizers={4: organizers["given"]},
        categories={11: categories[0]},
        tags={12: tags[0]},
    )
    full = _sample(Event, 1, "given")
    events = [_sample(Event, 1, v) for v in _VARIANTS]
    events += [attrs.evolve(full, venue=(3, 6)), attrs.evolve(full, locked=True)]
    errors = [
        MissingParameter(["title"]),
        InvalidParameter({"start_date": "not a date"}),
        TermExists("A term with the name provided already exists.", term_id=11),
        InTrash("The event is already trashed"),
    ]
    return {
        "Event": [wire.event(e, related, single=s) for e in events for s in (False, True)],
        "Venue": [wire.venue(v, single=s) for v in venues.values() for s in (False, True)],
        "Organizer": [
            wire.organizer(o, single=s) for o in organizers.values() for s in (False, True)
        ],
        "Term": [
            wire.term(t, path=[t.slug or "sample"], links=links)
            for t in (*categories, *tags)
            for links in (False, True)
        ],
        "Error": [error_body(e)[1] for e in errors] + [no_route_body()],
    }


# --- schema inference ----------------------------------------------------------------------

#: Objects under these keys are components of their own.
_COMPONENT_OF_KEY = {
    "image": "Image",
    "cost_details": "CostDetails",
    "categories": "EventTerm",
    "tags": "EventTerm",
    "venue": "Venue",
    "organizer": "Organizer",
    **{f"{p}{e}_date_details": "DateDetails" for p in ("", "utc_") for e in ("start", "end")},
}
#: Free-form objects, described but not spelled out.
_OPAQUE_KEYS = frozenset({"json_ld", "_links"})
#: Objects keyed by data (parameter names), not by a fixed set of properties.
_MAP_KEYS = frozenset({"params"})
#: The record classes behind each component, whose attrs types add enumerations.
_CLASSES: dict[str, tuple[type, ...]] = {
    "Event": (Event,),
    "Venue": (Venue,),
    "Organizer": (Organizer,),
    "Term": (Category, Tag),
    "EventTerm": (Category, Tag),
}


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    return "object"


class _Inference:
    """Schemas inferred from sample values; nested components are pooled and done later."""

    def __init__(self) -> None:
        self.pools: dict[str, list[dict[str, Any]]] = {}

    def value(self, values: list[Any], key: str | None) -> Schema:
        nullable = any(v is None for v in values)
        groups: dict[str, list[Any]] = {}
        for v in values:
            if v is not None:
                groups.setdefault(_json_type(v), []).append(v)
        options = [self._typed(t, vs, key, len(groups) > 1) for t, vs in groups.items()]
        if not options:
            return {}  # only ever null in the samples: nothing to say about it
        schema: Schema = options[0] if len(options) == 1 else {"anyOf": options}
        if nullable:
            schema = {"allOf": [schema]} if "$ref" in schema else schema
            schema["nullable"] = True
        return schema

    def _typed(self, json_type: str, values: list[Any], key: str | None, alt: bool) -> Schema:
        component = _COMPONENT_OF_KEY.get(key or "")
        if json_type == "object":
            if key in _OPAQUE_KEYS:
                return {"type": "object"}
            if key in _MAP_KEYS:
                members = [m for v in values for m in v.values()]
                return {"type": "object", "additionalProperties": self.value(members, None)}
            if component:
                self.pools.setdefault(component, []).extend(values)
                return {"$ref": _REF + component}
            return self.object(values)
        if json_type == "array":
            items = [item for v in values for item in v]
            return {"type": "array", "items": self.value(items, key) if items else {}}
        schema: Schema = {"type": json_type}
        if json_type == "boolean" and alt and not any(values):
            schema["enum"] = [False]  # ``false`` standing for "none" (an image, say)
        if json_type == "string" and all(_STAMP.match(v) for v in values):
            schema["pattern"] = _STAMP.pattern
        return schema

    def object(self, values: list[dict[str, Any]]) -> Schema:
        keys = list(dict.fromkeys(k for v in values for k in v))
        properties = {k: self.value([v[k] for v in values if k in v], k) for k in keys}
        required = [k for k in keys if all(k in v for v in values)]
        schema: Schema = {"type": "object", "properties": properties}
        if required:
            schema["required"] = required
        return schema


def _attrs_types(classes: Iterable[type]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for cls in classes:
        hints = typing.get_type_hints(cls)
        for field in attrs.fields(cls):
            found.setdefault(field.name, hints.get(field.name))
    return found


def _refine(name: str, schema: Schema) -> None:
    """Enumerations and numeric strings, from the attrs types of the records behind ``name``."""
    types = _attrs_types(_CLASSES.get(name, ()))
    for key, prop in schema.get("properties", {}).items():
        kind = types.get(key)
        if prop.get("type") != "string" or kind is None:
            continue
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            prop["enum"] = [member.value for member in kind]
        elif kind is int:
            prop["pattern"] = r"^\d+$"  # an integer sent as a string, as the reference does


def _describe(name: str, schema: Schema) -> Schema:
    texts = _DESCRIPTIONS.get(name, {})
    if "description" in texts:
        schema["description"] = texts["description"]
    for key, prop in schema.get("properties", {}).items():
        if key in texts:
            if "$ref" in prop:
                schema["properties"][key] = {"allOf": [prop], "description": texts[key]}
            else:
                prop["description"] = texts[key]
    return schema


#: Where sample records link to: URLs in samples only show that a value is text.
_SAMPLE_URLS = Urls("https://example.org", "/wp-json", "tribe/events/v1")


@functools.lru_cache(maxsize=16)
def _inferred(settings: Settings, zone: tzinfo) -> dict[str, Schema]:
    wire = Wire(_SAMPLE_URLS, settings, zone, lambda kind: ["GET", "POST", "PUT", "PATCH"])
    inference = _Inference()
    inference.pools = _wire_samples(wire)
    done: dict[str, Schema] = {}
    while pending := [n for n in inference.pools if n not in done]:
        done[pending[0]] = inference.object(inference.pools[pending[0]])
    return done


def component_schemas(calendar: Calendar) -> dict[str, Schema]:
    """``components.schemas``: the records as the wire format shows them, the list envelopes
    and the error payload."""
    inferred = _inferred(calendar.settings, calendar.zone)
    first = ["CostDetails", "Term", "EventTerm", "Image", "DateDetails", "Event", "Venue"]
    names = [n for n in first if n in inferred] + [n for n in inferred if n not in first]
    schemas: dict[str, Schema] = {}
    for name in names:
        schema = _deep_copy(inferred[name])
        _refine(name, schema)
        schemas[name] = _describe(name, schema)
    for route in ROUTES:
        if route.kind and not route.path_params:
            schemas[_list_name(route)] = _envelope(route)
    schemas["Error"] = schemas.pop("Error")
    return schemas


def _deep_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value


def _record_name(route: Route) -> str:
    assert route.kind is not None
    return "Term" if route.kind in ("category", "tag") else RECORD_CLASSES[route.kind].__name__


def _list_name(route: Route) -> str:
    assert route.kind is not None
    return f"{RECORD_CLASSES[route.kind].__name__}List"


def _envelope(route: Route) -> Schema:
    """A list response (``app._envelope``): the page's records, totals, neighbouring pages."""
    assert route.kind is not None
    key = _COLLECTIONS[route.kind]
    link = {"type": "string", "format": "uri"}
    return {
        "type": "object",
        "description": f"One page of {key}, with links to the neighbouring pages",
        "properties": {
            key: {
                "type": "array",
                "items": {"$ref": _REF + _record_name(route)},
                "description": f"The {key} on this page",
            },
            "rest_url": {**link, "description": "This page, with every filter applied"},
            "next_rest_url": {**link, "description": "The next page, if there is one"},
            "previous_rest_url": {**link, "description": "The previous page, if there is one"},
            "total": {"type": "integer", "description": "How many records match in all"},
            "total_pages": {"type": "integer", "description": "How many pages there are"},
        },
        "required": [key, "rest_url", "total", "total_pages"],
    }


# --- paths ---------------------------------------------------------------------------------

_WRITE_SECURITY: list[dict[str, list[str]]] = [{"applicationPassword": []}, {"bearerToken": []}]
_READ_SECURITY: list[dict[str, list[str]]] = [{}, *_WRITE_SECURITY]
_NOUN = {"category": "event category", "tag": "event tag"}


def _schema_of(arg: Arg, calendar: Calendar, namespace: str) -> Schema:
    """An argument's schema from the reference's keywords (``format: string`` is a type to it)."""
    spec = arg.spec
    kind = spec.get("type") or ("array" if "items" in spec else None)
    schema: Schema = {}
    if spec.get("format") == "double":
        kind = kind or "number"
        schema["format"] = "double"
    elif spec.get("format"):
        kind = kind or spec["format"]
    default = spec.get("default")
    static = default is not None and default not in (Computed.WINDOW_START, Computed.WINDOW_END)
    value = resolve_default(default, calendar, namespace) if static else None
    if kind is None and value is not None:
        kind = _json_type(value)
    if kind is None and arg.location != "body":
        kind = "string"  # a query or path value is text
    if kind:
        schema["type"] = kind
    if "items" in spec:
        schema["items"] = dict(spec["items"])
    if kind == "integer" and isinstance(value, str) and value.isdigit():
        value = int(value)
    elif kind == "boolean" and value in ("1", "0"):
        value = value == "1"
    if value is not None and (kind is None or _json_type(value) == kind):
        schema["default"] = value
    return schema


def _parameter(arg: Arg, calendar: Calendar, namespace: str) -> Schema:
    schema = _schema_of(arg, calendar, namespace)
    parameter: Schema = {
        "name": arg.name,
        "in": arg.location,
        "required": arg.location == "path" or arg.required,
        "description": arg.spec.get("description", ""),
        "schema": schema,
    }
    if schema.get("type") == "array":
        parameter.update(style="form", explode=False)  # a CSV list (``name[]`` also works)
    return parameter


def _input_name(route: Route, endpoint: Endpoint) -> str:
    """``EventUpdate``; ``EventUpdateBySlug`` where the by-slug body lacks the fields only an
    update by id takes (the event ``password``)."""
    assert route.kind is not None
    cls = RECORD_CLASSES[route.kind]
    name = cls.__name__ + endpoint.action.capitalize()
    if "by-slug" in route.pattern and cls.update_by_id_only:
        name += "BySlug"
    return name


def _input_schema(endpoint: Endpoint, calendar: Calendar, namespace: str) -> Schema:
    """A create or update body; update bodies are partial, so they show no defaults."""
    properties = {}
    for arg in endpoint.in_location("body"):
        schema = _schema_of(arg, calendar, namespace)
        if endpoint.action == "update":
            schema.pop("default", None)
        properties[arg.name] = {**schema, "description": arg.spec.get("description", "")}
    schema = {"type": "object", "properties": properties}
    required = [a.name for a in endpoint.in_location("body") if a.required]
    if required:
        schema["required"] = required
    return schema


def _input_schemas(calendar: Calendar, namespace: str) -> dict[str, Schema]:
    """``EventCreate``, ``EventUpdate`` ...: the bodies of the create and update endpoints."""
    found: dict[str, Schema] = {}
    for route in ROUTES:
        for endpoint in route.endpoints:
            if endpoint.action in ("create", "update"):
                schema = _input_schema(endpoint, calendar, namespace)
                assert found.setdefault(_input_name(route, endpoint), schema) == schema
    return found


def _json(description: str, schema: Schema | None = None) -> Schema:
    response: Schema = {"description": description}
    if schema is not None:
        response["content"] = {"application/json": {"schema": schema}}
    return response


def _responses(route: Route, endpoint: Endpoint) -> Schema:
    error = {"$ref": _REF + "Error"}
    if route.kind is None:
        what = "The namespace index" if endpoint.action == "index" else "This OpenAPI document"
        return {"200": _json(what, {"type": "object"})}
    noun = _NOUN.get(route.kind, route.kind)
    plural = _COLLECTIONS[route.kind]
    record = {"$ref": _REF + _record_name(route)}
    post = route.kind not in _NOUN
    by = "slug" if route.by_slug else "id"
    unknown = _json(f"No {noun} has this {by}, or a parameter has a bad value", error)
    denied = {
        "401": _json("The request needs valid credentials", error),
        "403": _json(f"The caller may not do this to {plural}", error),
    }
    if endpoint.action == "list":
        count = {"schema": {"type": "integer"}}
        headers = {
            "X-TEC-Total": {**count, "description": "How many records match in all"},
            "X-TEC-TotalPages": {**count, "description": "How many pages there are"},
        }
        ok = _json(
            f"One page of the {plural} matching the filters", {"$ref": _REF + _list_name(route)}
        )
        found: Schema = {"200": {**ok, "headers": headers}}
        found["400"] = _json("A filter has a bad value", error)
        if post:
            found["404"] = _json("The requested page does not exist", error)
        return found
    if endpoint.action == "create":
        return {
            "201": _json(f"The created {noun}", record),
            "400": _json("A required field is missing or a field has a bad value", error),
            **denied,
        }
    if endpoint.action == "read":
        return {
            "200": _json(f"The {noun}", record),
            "400": unknown,
            "403": _json(f"The {noun} is not accessible to the caller", error),
        }
    if endpoint.action == "update":
        return {"200": _json(f"The updated {noun}", record), "400": unknown, **denied}
    gone = "moved to the trash" if post else "deleted for good"
    responses = {"200": _json(f"The {noun}, {gone}", record), "400": unknown, **denied}
    if post:
        responses["410"] = _json(f"The {noun} is already in the trash", error)
    return responses


def _summary(route: Route, endpoint: Endpoint) -> tuple[str, str]:
    """(summary, operationId stem) of an endpoint."""
    if route.kind is None:
        return (
            ("The namespace index: every route, its methods and arguments", "index")
            if endpoint.action == "index"
            else ("This OpenAPI document", "doc")
        )
    noun = _NOUN.get(route.kind, route.kind)
    article = "an" if noun[0] in "aeio" else "a"
    if endpoint.action == "list":
        return f"List {_COLLECTIONS[route.kind]}", f"list_{_COLLECTIONS[route.kind]}"
    if endpoint.action == "create":
        return f"Create {article} {noun}", f"create_{route.kind}"
    by = " by slug" if route.by_slug else ""
    verb = endpoint.action.capitalize()
    partial = " (only the fields sent change)" if endpoint.action == "update" else ""
    return (
        f"{verb} {article} {noun}{by or ' by id'}{partial}",
        f"{endpoint.action}_{route.kind}{by.replace(' ', '_')}",
    )


def _operation(
    route: Route, endpoint: Endpoint, method: Method, calendar: Calendar, namespace: str
) -> Schema:
    summary, stem = _summary(route, endpoint)
    operation: Schema = {
        "summary": summary,
        "operationId": stem if method in ("GET", "POST", "DELETE") else f"{stem}_{method.lower()}",
        "tags": [_COLLECTIONS[route.kind] if route.kind else "meta"],
    }
    in_body = endpoint.action in ("create", "update")
    parameters = [
        _parameter(a, calendar, namespace)
        for a in endpoint.args
        if a.location == "path" or (a.location == "query" and not in_body)
    ]
    if parameters:
        operation["parameters"] = parameters
    if in_body:
        media = {"schema": {"$ref": _REF + _input_name(route, endpoint)}}
        operation["requestBody"] = {
            "required": endpoint.action == "create",
            "content": {"application/json": media, "application/x-www-form-urlencoded": media},
        }
    operation["responses"] = _responses(route, endpoint)
    operation["security"] = _WRITE_SECURITY if endpoint.writes else _READ_SECURITY
    return operation


def documented_routes() -> list[Route]:
    """The routes ``/doc`` describes: all but the namespace index (WordPress's, not the API's)."""
    return [r for r in ROUTES if r.endpoints[0].action != "index"]


def _paths(calendar: Calendar, namespace: str) -> dict[str, Schema]:
    paths: dict[str, Schema] = {}
    for route in documented_routes():
        item = paths.setdefault(route.openapi_path, {})
        for endpoint in route.endpoints:
            for method in endpoint.methods:
                item[method.lower()] = _operation(route, endpoint, method, calendar, namespace)
    return paths


def openapi_document(urls: Urls, calendar: Calendar) -> dict[str, Any]:
    """The body of ``GET /<ns>/doc``."""
    return {
        "openapi": "3.0.0",
        "info": {
            "version": "1.0.0",
            "title": "The Events Calendar REST API",
            "description": "The Events Calendar REST API allows accessing upcoming events "
            "information easily and conveniently.",
        },
        "components": {
            "schemas": {
                **component_schemas(calendar),
                **_input_schemas(calendar, urls.namespace),
            },
            "securitySchemes": {
                "applicationPassword": {
                    "type": "http",
                    "scheme": "basic",
                    "description": "A user name and one of the user's application passwords",
                },
                "bearerToken": {"type": "http", "scheme": "bearer"},
            },
        },
        "servers": [{"url": f"{urls.root}/"}],
        "paths": _paths(calendar, urls.namespace),
    }


# --- prose ---------------------------------------------------------------------------------


def _post_texts(noun: str) -> dict[str, str]:
    """What events, venues and organizers share, in the reference's words."""
    return {
        "id": f"The {noun} WordPress post ID",
        "global_id": f"The {noun} ID used to globally identify in Event Aggregator",
        "global_id_lineage": f"An Array containing the lineage of where this {noun} comes "
        f"from, this should not change after the {noun} is created.",
        "author": f"The {noun} author WordPress post ID",
        "date": f"The {noun} creation date in the site time zone",
        "date_utc": f"The {noun} creation date in UTC time",
        "modified": f"The {noun} last modification date in the site time zone",
        "modified_utc": f"The {noun} last modification date in UTC time",
        "status": f"The {noun} status",
        "url": f"The URL to the {noun} page",
        "description": f"The {noun} long description",
        "excerpt": f"The {noun} short description",
        "slug": f"The {noun} slug",
        "image": f"The {noun} featured image details if set",
        "json_ld": f"The {noun} as schema.org JSON-LD (single reads only)",
    }


def _term_texts() -> dict[str, str]:
    return {
        "id": "The WordPress term ID",
        "name": "The term name",
        "slug": "The term slug",
        "taxonomy": "The taxonomy the term belongs to",
        "description": "The term description",
        "parent": "The term parent term if any",
        "count": "The number of posts associated with the term",
        "urls": "A list of links to the term own, archive and parent REST URL",
    }


_DETAIL = "An array of each component of the event"
_MAP = "Whether the map {0}should be shown for the {1} or not"
_DESCRIPTIONS: dict[str, dict[str, str]] = {
    "CostDetails": {
        "currency_symbol": "The cost currency symbol",
        "currency_code": "The cost currency code (ISO 4217), if known",
        "currency_position": "The position of the currency symbol in the cost string",
        "values": "A sorted array of all the numeric values for the cost",
    },
    "Term": {
        "description": "A category or tag, as lists and single reads show it",
        **_term_texts(),
        "meta": "The term meta data (always empty)",
        "url": "The URL to the term archive page",
        "_links": "Links to the term in the WordPress core REST API (single reads)",
    },
    "EventTerm": {
        "description": "A category or tag, as an event embeds it",
        **_term_texts(),
        "term_group": "The term group (always 0)",
        "term_taxonomy_id": "The term taxonomy ID (equal to the term ID)",
        "filter": "How the term was sanitised (always raw)",
    },
    "Image": {
        "url": "The URL to the full size version of the image",
        "id": "The image WordPress post ID",
        "extension": "The image file extension",
    },
    "DateDetails": {
        "year": "The date year",
        "month": "The date month",
        "day": "The date day",
        "hour": "The date hour",
        "minutes": "The date minutes",
        "seconds": "The date seconds",
    },
    "Event": {
        **_post_texts("event"),
        "rest_url": "The TEC REST API link to fetch this event",
        "title": "The event name",
        "all_day": "Whether or not this event is an all day Event",
        "start_date": "The event start date in the event or site time zone",
        "start_date_details": f"{_DETAIL} start date",
        "end_date": "The event end date in the event or site time zone",
        "end_date_details": f"{_DETAIL} end date",
        "utc_start_date": "The event start date in UTC time",
        "utc_start_date_details": f"{_DETAIL} start date in UTC time",
        "utc_end_date": "The event end date in UTC time",
        "utc_end_date_details": f"{_DETAIL} end date in UTC time",
        "timezone": "The event time zone string",
        "timezone_abbr": "The abbreviated event time zone string",
        "cost": "The event cost including the currency symbol",
        "cost_details": "The event cost details",
        "website": "The event website URL",
        "show_map": _MAP.format("", "event"),
        "show_map_link": _MAP.format("link ", "event"),
        "hide_from_listings": "Whether an event should be hidden from the calendar view or not",
        "sticky": "Whether an event is sticky in the calendar view or not",
        "featured": "Whether the event is featured in the calendar or not",
        "categories": "The event categories",
        "tags": "The event tags",
        "venue": "The event venue: an object if it has one, else a list (empty for none)",
        "organizer": "The event organizers",
        "custom_fields": "The event custom fields (always empty)",
    },
    "Venue": {
        **_post_texts("venue"),
        "venue": "The venue name",
        "show_map": _MAP.format("", "venue"),
        "show_map_link": _MAP.format("link ", "venue"),
        "address": "The venue address",
        "city": "The venue city",
        "country": "The venue country",
        "province": "The venue province",
        "state": "The venue state",
        "zip": "The venue ZIP code",
        "phone": "The venue phone number",
        "website": "The venue website URL",
        "stateprovince": "The venue state or province",
    },
    "Organizer": {
        **_post_texts("organizer"),
        "organizer": "The organizer name",
        "phone": "The organizer phone number",
        "website": "The organizer website",
        "email": "The organizer email address",
    },
    "Error": {
        "description": "What went wrong; nothing was changed",
        "code": "A stable, machine-readable error code",
        "message": "What went wrong, in words",
        "data": "The HTTP status, and for bad input the parameters concerned (params)",
        "additional_data": "The id of the term that already exists (term_exists)",
    },
}
