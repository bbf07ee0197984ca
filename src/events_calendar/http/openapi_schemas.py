"""The component schemas of ``/doc``, inferred from what ``wire.Wire`` emits.

Samples are built from the record declarations (every writable field of
``records.input_fields`` filled, cleared, or left to its default; links, a locked event, two
venues) and presented by the real wire; each key's schema is the union of the JSON types it
takes. Enumerations come from the records' attrs types; descriptions from ``openapi_prose``.
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
from .openapi_prose import DESCRIPTIONS
from .routes_spec import ROUTES, Route
from .urls import _COLLECTIONS, Urls
from .wire import Wire

if TYPE_CHECKING:
    from ..calendar import Calendar


__all__ = ["REF", "Schema", "component_schemas", "json_type", "list_name", "record_name"]

Schema = dict[str, Any]
REF = "#/components/schemas/"
_STAMP = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")

# --- samples, from the declarations --------------------------------------------------------

_AT = datetime(2031, 5, 1, 19, 0, tzinfo=ZoneInfo("Europe/Paris"))
#: A value for each input kind: (given, cleared).
_SAMPLE_INPUT: dict[Input, tuple[Any, Any]] = {
    # "0" is a name PHP finds empty: the wire leaves it out, as the reference does.
    Input.NAME: ("Sample", "0"),
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
        if variant == "cleared":
            values[name] = cleared
        elif variant == "given" or field.required:
            values[name] = given
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
        # ``details`` is an object where the reference nests an error (a refused filter).
        InvalidParameter({"ticketed": "off"}, codes={"ticketed": "event-tickets-not-active"}),
        InvalidParameter({"featured": "not a boolean"}, codes={"featured": "invalid_boolean"}),
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
_MAP_KEYS = frozenset({"params", "details"})
#: The record classes behind each component, whose attrs types add enumerations.
_CLASSES: dict[str, tuple[type, ...]] = {
    "Event": (Event,),
    "Venue": (Venue,),
    "Organizer": (Organizer,),
    "Term": (Category, Tag),
    "EventTerm": (Category, Tag),
}


def json_type(value: Any) -> str:
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
                groups.setdefault(json_type(v), []).append(v)
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
                return {"$ref": REF + component}
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
    texts = DESCRIPTIONS.get(name, {})
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
            schemas[list_name(route)] = _envelope(route)
    schemas["Error"] = schemas.pop("Error")
    return schemas


def _deep_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value


def record_name(route: Route) -> str:
    assert route.kind is not None
    return "Term" if route.kind in ("category", "tag") else RECORD_CLASSES[route.kind].__name__


def list_name(route: Route) -> str:
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
                "items": {"$ref": REF + record_name(route)},
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
