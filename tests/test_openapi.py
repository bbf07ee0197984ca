"""The route table, the namespace index, OPTIONS bodies and the OpenAPI document.

The index and OPTIONS bodies are compared with the golden recordings through the replay tool's
own normaliser (hosts, ids and dates relative to "now" become tokens); the only differences
allowed are the arguments our declarations add, each listed below.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any
from zoneinfo import ZoneInfo

import attrs
import pytest
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate

import events_calendar as ec
from events_calendar.dates import default_window, query_bound
from events_calendar.errors import CalendarError
from events_calendar.http.errors import error_body
from events_calendar.http.meta import allowed_methods, index_body, route_body
from events_calendar.http.openapi import documented_routes, openapi_document
from events_calendar.http.routes_spec import (
    QUERY_CLASSES,
    ROUTES,
    Route,
    body_table,
    default_window_text,
    find_route,
    list_arg_names,
    list_table,
)
from events_calendar.http.urls import Urls
from events_calendar.http.wire import Wire
from events_calendar.records import (
    KINDS,
    POST_KINDS,
    RECORD_CLASSES,
    TERM_KINDS,
    input_fields,
    interface_fields,
)

REPLAY = Path(__file__).resolve().parent / "data/replay"
RECORDINGS = REPLAY / "recordings/tec-6.17.1"
SITE = "http://testserver"
NOW = datetime(2027, 3, 10, 15, 0, 7, tzinfo=UTC)
URLS = Urls(SITE, "/wp-json", "tribe/events/v1")
NS = "routes./tribe/events/v1"

#: Where our index differs from the reference's, and why: each is an argument our record
#: declarations accept and the reference's do not (``password`` and ``post_parent`` on event
#: writes, ``slug`` and ``excerpt`` on venue and organizer writes). On the by-slug update routes
#: the body's ``slug`` replaces the path's, as WordPress merges them (the reference's events
#: route shows the same; its venues and organizers have no body ``slug``).
#: Where our index may differ from the recorded one: nowhere. Arguments our Python API takes
#: beyond the interface (``records.*.outside_interface``) are not offered over HTTP.
INDEX_EXTENSIONS: set[str] = set()


@pytest.fixture(scope="module")
def replay() -> ModuleType:
    """The replay tool (``tec_replay.py``), whose normaliser both sides go through."""
    path = REPLAY / "tec_replay.py"
    assert path.is_file(), f"the replay tool is missing: {path}"
    spec = importlib.util.spec_from_file_location("tec_replay", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    saved = list(sys.path)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved
    return module


def calendar(**settings: Any) -> ec.Calendar:
    return ec.connect("memory://", settings=ec.Settings(**settings), clock=ec.FixedClock(NOW))


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    return openapi_document(URLS, calendar())


def recorded(name: str) -> dict[str, Any]:
    path = RECORDINGS / name
    assert path.is_file(), f"the recording is missing: {path}"
    result: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return result


def differences(replay: ModuleType, name: str, body: Any) -> set[str]:
    """What the replay tool reports between a recording and ``body`` (served at ``NOW``)."""
    gold = {**recorded(name), "headers": []}
    step = next(s for s in replay.STEPS if s.name == gold["step"])
    ours = {**gold, "base": URLS.root, "now": NOW.isoformat(), "body": body}
    normal = [replay.normalize_record(r, replay.Registry(), step) for r in (gold, ours)]
    return set(replay.compare(*normal, step, False))


def resolve(doc: dict[str, Any], ref: str) -> dict[str, Any]:
    found: dict[str, Any] = doc
    for part in ref.removeprefix("#/").split("/"):
        found = found[part]
    return found


# -- the index and OPTIONS, against the recordings ------------------------------------------


@pytest.mark.parametrize("name", ["001_meta_index.json", "002_meta_index_ctx.json"])
def test_index_matches_the_recording_but_for_our_extensions(replay: ModuleType, name: str) -> None:
    """The index equals the recorded one (hosts, ids, dates normalised) bar declared extras."""
    assert INDEX_EXTENSIONS == differences(replay, name, index_body(URLS, calendar()))


def test_options_on_events_matches_the_recording(replay: ModuleType) -> None:
    """OPTIONS /events describes the route exactly as recorded."""
    body = route_body("/events", URLS, calendar())
    assert set() == differences(replay, "290_route_options_events.json", body)


def test_index_lists_every_route_in_order() -> None:
    """The index keys are the route patterns under the namespace, in registration order
    (all but this library's own routes, which the reference's index does not have)."""
    keys = list(index_body(URLS, calendar())["routes"])
    assert [f"/tribe/events/v1{r.pattern.rstrip('/')}" for r in ROUTES if r.indexed] == keys


def test_the_feed_is_the_one_route_left_out_of_the_index() -> None:
    """``/events.ics`` is served and documented, but not in the reference's index."""
    assert ["/events.ics"] == [r.pattern for r in ROUTES if not r.indexed]


def test_index_shows_the_calendars_page_size() -> None:
    """``per_page`` defaults to ``Settings.per_page``, as the string the reference shows."""
    events = index_body(URLS, calendar(per_page=4))["routes"]["/tribe/events/v1/events"]
    assert "4" == events["endpoints"][0]["args"]["per_page"]["default"]


def test_options_on_a_record_path_describes_its_route() -> None:
    """A request path finds its route; routes with path parameters have no self link."""
    body = route_body("/categories/12", URLS, calendar())
    assert ["GET", "POST", "PUT", "PATCH", "DELETE"] == body["methods"]
    assert "_links" not in body
    assert (
        body == index_body(URLS, calendar())["routes"]["/tribe/events/v1/categories/(?P<id>\\d+)"]
    )


def test_routes_have_starlette_paths() -> None:
    """Each route pattern has the Starlette path that serves it (the root is the mount point)."""
    expected = ["", "/doc", "/events", "/events/{id:record_id}", "/events/by-slug/{slug:str}"]
    assert expected == [r.starlette_path for r in ROUTES[:5]]


def test_an_unknown_path_has_no_route() -> None:
    """``find_route`` refuses a path no route serves (a non-numeric id, say)."""
    with pytest.raises(LookupError, match="no route serves"):
        find_route("/venues/foo")
    with pytest.raises(LookupError, match="no route serves"):
        find_route("/events/by-slug/")


@pytest.mark.parametrize(
    ("path", "can_write", "expected"),
    [
        ("/events", False, ["GET"]),
        ("/events", True, ["GET", "POST"]),
        ("/events/3", True, ["GET", "DELETE", "POST", "PUT", "PATCH"]),
        ("/tags/3", True, ["GET", "POST", "PUT", "PATCH", "DELETE"]),
        ("/doc", True, ["GET"]),
    ],
)
def test_allowed_methods(path: str, can_write: bool, expected: list[str]) -> None:
    """``Allow`` lists reads for everyone and writes for writers, in the route's order."""
    assert expected == allowed_methods(path, can_write=can_write)


@pytest.mark.parametrize("zone", ["UTC", "Europe/Paris", "America/New_York", "Pacific/Kiritimati"])
@pytest.mark.parametrize("hour", [0, 1, 12, 23])
def test_default_dates_shown_select_the_default_window(zone: str, hour: int) -> None:
    """The start/end defaults shown, read with day rounding, are ``dates.default_window``."""
    tz = ZoneInfo(zone)
    now = datetime(2027, 2, 28, hour, 30, 5, tzinfo=UTC)
    start, end = default_window_text(now, tz)
    first = query_bound(start, edge="start", strict=False, zone=tz, now=now, field="start_date")
    last = query_bound(end, edge="end", strict=False, zone=tz, now=now, field="end_date")
    assert default_window(now, tz) == (first, last)


# -- the route table, against the declarations ---------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_list_arguments_are_the_query_fields(kind: ec.records.Kind) -> None:
    """A list route takes its query class's fields (tags, being flat, take no ``parent``)."""
    fields = [f.name for f in attrs.fields(QUERY_CLASSES[kind])]
    expected = [f for f in fields if not (kind == "tag" and f == "parent")]
    route = find_route(f"/{URLS.collection(kind).rsplit('/', 1)[1]}")
    assert expected == [a.name for a in route.endpoints[0].args]


@pytest.mark.parametrize("kind", KINDS)
def test_description_tables_name_only_declared_arguments(kind: ec.records.Kind) -> None:
    """No description is left for an argument that no declaration has any more."""
    family = POST_KINDS if kind in POST_KINDS else TERM_KINDS
    bodies = {a.name for r in ROUTES if r.kind in family for e in r.endpoints for a in e.args}
    queries = {f.name for k in family for f in attrs.fields(QUERY_CLASSES[k])}
    assert set(body_table(kind)) <= bodies
    assert set(list_table(kind)) <= queries
    assert set(list_arg_names(kind)) <= set(list_table(kind))


def test_routes_cover_the_interface() -> None:
    """Every kind has a collection and a by-id route; posts also a by-slug route."""
    patterns = [r.pattern for r in ROUTES]
    assert ["/", "/doc"] == patterns[:2]
    for kind in KINDS:
        collection = URLS.collection(kind).removeprefix(URLS.root)
        assert collection in patterns
        assert f"{collection}/(?P<id>\\d+)" in patterns
        assert (f"{collection}/by-slug/(?P<slug>[^/]+)" in patterns) == (kind in POST_KINDS)


# -- the OpenAPI document -------------------------------------------------------------------


def test_document_is_valid_openapi(doc: dict[str, Any]) -> None:
    """openapi-spec-validator accepts the document."""
    validate(doc)


def test_top_level_follows_the_reference(doc: dict[str, Any]) -> None:
    """Same top-level keys, ``info`` and paths as the recorded /doc (then this library's
    feed); the server is the namespace."""
    reference = recorded("003_meta_doc.json")["body"]
    assert list(reference) == list(doc)
    assert reference["openapi"] == doc["openapi"]
    assert reference["info"] == doc["info"]
    assert [{"url": f"{URLS.root}/"}] == doc["servers"]
    assert [*reference["paths"], "/events.ics"] == list(doc["paths"])  # then our feed


def test_reference_operations_and_parameters_are_documented(doc: dict[str, Any]) -> None:
    """Every operation and parameter of the recorded /doc is in ours (its ``password`` on
    update, documented ``in: path`` there, is a body field here)."""
    reference = recorded("003_meta_doc.json")["body"]
    for path, item in reference["paths"].items():
        for method, operation in item.items():
            ours = doc["paths"][path][method]
            names = {p["name"] for p in ours.get("parameters", [])}
            if "requestBody" in ours:
                names |= set(resolve(doc, body_ref(ours))["properties"])
            assert {p["name"] for p in operation.get("parameters", [])} <= names, (path, method)


def body_ref(operation: dict[str, Any]) -> str:
    """The JSON body's schema (an update's may also be any non-object: no fields); the form
    body's is its ``...Form`` twin."""
    content = operation["requestBody"]["content"]
    json = content["application/json"]["schema"]
    ref: str = json["$ref"] if "$ref" in json else json["anyOf"][0]["$ref"]
    assert content["application/x-www-form-urlencoded"]["schema"]["$ref"] == ref + "Form"
    return ref


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: r.pattern)
def test_every_route_and_method_is_documented(doc: dict[str, Any], route: Route) -> None:
    """Each route's path lists exactly its methods (the namespace index, WordPress's own
    route, is left out as the reference leaves it out)."""
    documented = doc["paths"].get(route.openapi_path, {})
    expected = [] if route.pattern == "/" else [m.lower() for m in route.methods]
    assert expected == list(documented)


@pytest.mark.parametrize("route", documented_routes(), ids=lambda r: r.pattern)
def test_every_path_parameter_is_documented(doc: dict[str, Any], route: Route) -> None:
    """Each operation declares the route's path parameters."""
    for operation in doc["paths"][route.openapi_path].values():
        declared = [p["name"] for p in operation.get("parameters", []) if p["in"] == "path"]
        assert route.path_params == declared


@pytest.mark.parametrize("kind", KINDS)
def test_every_writable_field_is_in_the_request_bodies(
    doc: dict[str, Any], kind: ec.records.Kind
) -> None:
    """Create and update bodies name every field the interface takes (update by id a few more);
    create requires the required ones."""
    cls = RECORD_CLASSES[kind]
    required = [n for n, f in input_fields(cls).items() if f.required]
    for route in ROUTES:
        if route.kind != kind:
            continue
        fields = interface_fields(cls, by_id="id" in route.path_params)
        for method, operation in doc["paths"][route.openapi_path].items():
            if "requestBody" not in operation:
                continue
            schema = resolve(doc, body_ref(operation))
            assert set(fields) == set(schema["properties"]) - {"date_utc"}, (route.pattern, method)
            creating = not route.path_params
            assert (required if creating else []) == schema.get("required", [])


@pytest.mark.parametrize("kind", KINDS)
def test_every_list_parameter_is_documented(doc: dict[str, Any], kind: ec.records.Kind) -> None:
    """The list operation takes exactly the list arguments, as query parameters."""
    path = URLS.collection(kind).removeprefix(URLS.root)
    parameters = doc["paths"][path]["get"]["parameters"]
    assert list_arg_names(kind) == [p["name"] for p in parameters]
    assert {"query"} == {p["in"] for p in parameters}


def test_every_component_property_is_described(doc: dict[str, Any]) -> None:
    """No schema property goes without a description."""
    for name, schema in doc["components"]["schemas"].items():
        for key, prop in schema.get("properties", {}).items():
            assert prop.get("description"), f"{name}.{key}"


def conforms(doc: dict[str, Any], name: str, instance: Any) -> None:
    schema = {"$ref": f"#/components/schemas/{name}", "components": doc["components"]}
    OAS30Validator(schema).validate(instance)


def test_the_wire_format_conforms_to_the_schemas(doc: dict[str, Any]) -> None:
    """Records made through the calendar, as the wire format shows them, fit their schemas."""
    cal = calendar()
    music = cal.categories.create(name="Music")
    jazz = cal.categories.create(name="Jazz", parent=music.id, description="Swing")
    free = cal.tags.create(name="Free")
    hall = cal.venues.create(venue="Hall", city="Lyon", address="1 rue", website="https://h.fr/")
    pub = cal.venues.create(venue="Pub")
    org = cal.organizers.create(organizer="Org", email="o@example.org", phone="123")
    span = {"start_date": "2027-04-01 19:00", "end_date": "2027-04-01 23:00"}
    events = [
        cal.events.create(
            title="Gala",
            **span,
            timezone="Europe/Paris",
            venue=[hall.id],
            organizer=[org.id],
            categories=[jazz.id],
            tags=[free.id],
            cost="10 - 20",
            image="https://example.org/a.png",
            featured=True,
        ),
        cal.events.create(title="Plain", **span, all_day=True),
        cal.events.create(title="Both", **span, venue=[hall.id, pub.id]),
        cal.events.create(title="Hidden", **span, password="secret"),
    ]
    wire = Wire(URLS, cal.settings, cal.zone, lambda kind: ["GET"])
    anonymous = cal.as_user(None).events.list(start_date="2027-04-01", end_date="2027-04-02")
    for event in [*events, *anonymous.items]:
        related = cal.events.related([event])
        for single in (False, True):
            conforms(doc, "Event", wire.event(event, related, single=single))
    for venue in (hall, pub):
        conforms(doc, "Venue", wire.venue(venue, single=True))
    conforms(doc, "Organizer", wire.organizer(org, single=True))
    for term in (music, jazz, free):
        conforms(doc, "Term", wire.term(term, path=[term.slug], links=True))


@pytest.mark.parametrize(
    "attempt",
    [
        lambda cal: cal.events.create(title="No dates"),
        lambda cal: cal.events.create(title="Bad", start_date="never", end_date="never"),
        lambda cal: cal.categories.create(name="Twice") and cal.categories.create(name="Twice"),
        lambda cal: cal.venues.get(999),
        lambda cal: cal.events.list(ec.EventQuery(ticketed=True)),
    ],
)
def test_error_payloads_conform_to_the_error_schema(doc: dict[str, Any], attempt: Any) -> None:
    """The error payloads the adapter sends fit the ``Error`` schema."""
    with pytest.raises(CalendarError) as caught:
        attempt(calendar())
    conforms(doc, "Error", error_body(caught.value)[1])


def test_error_details_are_a_map_of_nested_errors(doc: dict[str, Any]) -> None:
    """``data.details`` is ``[]`` or an object of nested errors keyed by parameter."""
    details = doc["components"]["schemas"]["Error"]["properties"]["data"]["properties"]["details"]
    assert [{"type": "array", "items": {}}, "object"] == [
        details["anyOf"][0],
        details["anyOf"][1]["type"],
    ]


@pytest.mark.parametrize("route", documented_routes(), ids=lambda r: r.pattern)
def test_every_operation_documents_the_errors_any_request_can_get(
    doc: dict[str, Any], route: Route
) -> None:
    """401 (bad credentials), 404 (no route), 413, 414, 429 and 503 are on every operation."""
    for operation in doc["paths"][route.openapi_path].values():
        assert {"401", "404", "413", "414", "429", "503"} <= set(operation["responses"])


def test_an_untyped_query_argument_is_any_text(doc: dict[str, Any]) -> None:
    """only_with_upcoming has no type in the reference, so any text is read: a string."""
    parameters = doc["paths"]["/venues"]["get"]["parameters"]
    (found,) = [p["schema"] for p in parameters if p["name"] == "only_with_upcoming"]
    assert {"type": "string"} == found


@pytest.mark.parametrize("path", ["/events/{id}", "/venues/by-slug/{slug}", "/organizers/{id}"])
def test_deletes_say_a_trashed_record_is_still_readable(doc: dict[str, Any], path: str) -> None:
    """A post delete says it trashes, and editors still read the trashed record."""
    assert doc["paths"][path]["delete"]["description"].startswith(
        "Moves the record to the trash; nothing is deleted for good. A trashed record is still "
        "readable by editors and administrators"
    )
