"""``/doc`` states what the server accepts, from the declarations its checks read."""

from __future__ import annotations

import re
from typing import Any

import pytest

import events_calendar as ec
from events_calendar.coerce import NON_BLANK_TEXT, TEXT
from events_calendar.http.openapi import openapi_document
from events_calendar.http.urls import Urls
from events_calendar.listing_common import MAX_SEARCH_LENGTH, last_page
from events_calendar.listing_terms import ORDER_DIRECTIONS
from events_calendar.statuses import Status
from events_calendar.validation import EMAIL

URLS = Urls("http://testserver", "/wp-json", "tribe/events/v1")


def document(*, anonymous: bool = False) -> dict[str, Any]:
    calendar = ec.connect("memory://")
    return openapi_document(URLS, calendar.as_user(None) if anonymous else calendar)


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    return document()


def parameter(doc: dict[str, Any], path: str, name: str) -> dict[str, Any]:
    """The schema of a query parameter of ``GET path``."""
    found = [p for p in doc["paths"][path]["get"]["parameters"] if p["name"] == name]
    schema: dict[str, Any] = found[0]["schema"]
    return schema


def field(doc: dict[str, Any], component: str, name: str) -> dict[str, Any]:
    schema: dict[str, Any] = doc["components"]["schemas"][component]["properties"][name]
    return schema


def test_anonymous_callers_may_list_published_records_only() -> None:
    """Anonymously, ``status`` is ``publish`` alone (anything else is a 400)."""
    schema = parameter(document(anonymous=True), "/events", "status")
    assert {"type": "string", "enum": ["publish"]} == schema


def test_editors_may_list_any_statuses(doc: dict[str, Any]) -> None:
    """Callers who may filter by status send a CSV list of statuses, or ``any``."""
    statuses = [s.value for s in Status] + ["any"]
    expected = {"type": "array", "items": {"type": "string", "enum": statuses}, "minItems": 1}
    assert expected == parameter(doc, "/venues", "status")


def test_term_order_is_an_enumeration(doc: dict[str, Any]) -> None:
    """``order`` is one of the directions the list reads."""
    assert list(ORDER_DIRECTIONS) == parameter(doc, "/categories", "order")["enum"]


@pytest.mark.parametrize("path", ["/events", "/categories", "/tags"])
def test_searches_are_non_blank_and_bounded(doc: dict[str, Any], path: str) -> None:
    """A search holds a non-blank character and at most ``MAX_SEARCH_LENGTH`` characters."""
    schema = parameter(doc, path, "search")
    assert (NON_BLANK_TEXT.pattern, MAX_SEARCH_LENGTH) == (schema["pattern"], schema["maxLength"])


def test_venue_searches_need_a_word(doc: dict[str, Any]) -> None:
    """A venue search of punctuation alone is refused, and /doc says so."""
    pattern = re.compile(parameter(doc, "/venues", "search")["pattern"])
    assert (None, True) == (pattern.search("?!"), bool(pattern.search("jazz?")))


def test_pages_are_bounded_at_the_largest_page_size(doc: dict[str, Any]) -> None:
    """``page`` runs from 1 to the last page whose offset fits at the largest page size."""
    schema = parameter(doc, "/tags", "page")
    expected = last_page(ec.Settings())
    assert (1, expected) == (schema["minimum"], schema["maximum"])


def test_dates_are_given_a_documented_form(doc: dict[str, Any]) -> None:
    """Date filters promise wall times, days and timestamps, not any text."""
    pattern = re.compile(parameter(doc, "/events", "start_date")["pattern"])
    matches = [bool(pattern.match(v)) for v in ("2031-06-15 19:00:00", "2031-06-15", "1", "x")]
    assert [True, True, True, False] == matches


def test_names_are_non_blank(doc: dict[str, Any]) -> None:
    """A title or a term name must hold a non-blank character."""
    names = (("EventCreate", "title"), ("CategoryCreate", "name"), ("VenueUpdate", "venue"))
    assert {NON_BLANK_TEXT.pattern} == {field(doc, c, n)["pattern"] for c, n in names}


def test_term_descriptions_are_non_blank_where_event_ones_may_be_empty(
    doc: dict[str, Any],
) -> None:
    """A term's description is never empty (as in the reference); an event's may be."""
    term = field(doc, "CategoryCreateForm", "description")["pattern"]
    event = field(doc, "EventCreateForm", "description")["pattern"]
    assert (NON_BLANK_TEXT.pattern, TEXT.pattern) == (term, event)


def test_organizer_emails_are_email_addresses(doc: dict[str, Any]) -> None:
    """An organizer's email is empty or matches the address check."""
    assert f"^({EMAIL.pattern})?$" == field(doc, "OrganizerCreateForm", "email")["pattern"]


def test_time_zones_are_the_zones_the_server_reads(doc: dict[str, Any]) -> None:
    """The event ``timezone`` pattern accepts IANA names and refuses unknown ones."""
    pattern = re.compile(field(doc, "EventCreate", "timezone")["pattern"])
    assert [True, False] == [bool(pattern.match(z)) for z in ("Europe/Paris", "Mars/Olympus")]


def test_a_paid_add_ons_filters_are_typed_as_the_reference_types_them(doc: dict[str, Any]) -> None:
    """Geolocation filters are listed, as the reference lists them: a boolean and two
    numbers, which the server checks and which then filter nothing."""
    assert ["boolean", "number", "number"] == [
        parameter(doc, "/events", name)["type"] for name in ("geoloc", "geoloc_lat", "geoloc_lng")
    ]


def test_a_record_may_have_no_name_shown(doc: dict[str, Any]) -> None:
    """A venue or organizer name PHP finds empty ("0") is left out by the wire, as the
    reference leaves it out, so their schemas do not require one (an event's title stays)."""
    schemas = doc["components"]["schemas"]
    required = {
        name: key in schemas[name].get("required", [])
        for name, key in (("Event", "title"), ("Venue", "venue"), ("Organizer", "organizer"))
    }
    assert {"Event": True, "Venue": False, "Organizer": False} == required


def test_unknown_ids_are_described_as_bad_values(doc: dict[str, Any]) -> None:
    """The 400 of a list says that an id naming no record is a bad value."""
    description = doc["paths"]["/events"]["get"]["responses"]["400"]["description"]
    assert "an id or slug that names no record" in description


def test_json_bodies_may_send_null_where_the_server_reads_it(doc: dict[str, Any]) -> None:
    """In a JSON body an image or a description may be null (read as none); a title not."""
    nullable = {
        name: field(doc, "OrganizerUpdate", name).get("nullable", False)
        for name in ("image", "description", "organizer")
    }
    assert {"image": True, "description": True, "organizer": False} == nullable


def test_form_bodies_never_send_null(doc: dict[str, Any]) -> None:
    """A form cannot send a null, so no form body schema is nullable."""
    schemas = doc["components"]["schemas"]
    nullable = [
        f"{name}.{key}"
        for name, schema in schemas.items()
        if name.endswith("Form")
        for key, prop in schema["properties"].items()
        if prop.get("nullable")
    ]
    assert [] == nullable


def test_links_are_one_id_or_a_list_and_json_may_inline_them(doc: dict[str, Any]) -> None:
    """An event's organizer is one id or a list; a JSON body may also send objects."""
    form = field(doc, "EventCreateForm", "organizer")["anyOf"][1]["anyOf"]
    json = field(doc, "EventCreate", "organizer")["anyOf"][1]["anyOf"]
    assert (
        ["integer", "string"],
        ["integer", "object", "object", "string", "boolean"],
    ) == (
        [variant["type"] for variant in form],
        [variant["type"] for variant in json],
    )
    by_id, data = json[1], json[2]
    assert (["id"], ["organizer"], {"required": ["id"]}) == (
        by_id["required"],
        data["required"],
        data["not"],
    )
    # A new organizer's fields are stated as a create states them: an email is an address.
    email = field(doc, "OrganizerCreate", "email")
    assert data["properties"]["email"]["pattern"] == email["pattern"]


def test_terms_may_be_false_for_none(doc: dict[str, Any]) -> None:
    """``tags: false`` is no tags, as PHP's ``empty()`` reads it, and /doc says so."""
    variants = field(doc, "EventCreate", "tags")["anyOf"]
    assert {"type": "boolean", "enum": [False]} in variants


def test_tags_false_clears_the_tags() -> None:
    """What the document states is what the server does: ``tags=False`` leaves none."""
    cal = ec.connect("memory://")
    event = cal.events.create(
        title="Gala", start_date="2031-05-01 19:00", end_date="2031-05-01 20:00", tags=["jazz"]
    )
    assert () == cal.events.update(event.id, tags=False).tags


def test_a_cost_may_be_a_list_of_texts_and_numbers(doc: dict[str, Any]) -> None:
    """A cost is a text, a number or a list of them, empty items skipped, as it is read."""
    listed = field(doc, "EventCreate", "cost")["anyOf"][2]
    assert ("array", True) == (listed["type"], listed["items"]["nullable"])


def test_every_field_the_server_reads_null_for_is_nullable_in_json() -> None:
    """A JSON ``null`` that an update takes as "none" is nullable in /doc, for every field:
    what the adapter lets through (``json_nulls``) and the core then takes."""
    from events_calendar.http.json_nulls import refuse_nulls
    from events_calendar.http.openapi_constraints import NULLABLE
    from events_calendar.records import RECORD_CLASSES, input_fields

    cal = ec.connect("memory://")
    made = {
        "event": cal.events.create(
            title="G", start_date="2031-05-01 19:00", end_date="2031-05-01 20:00"
        ),
        "venue": cal.venues.create(venue="V"),
        "organizer": cal.organizers.create(organizer="O"),
        "category": cal.categories.create(name="C"),
        "tag": cal.tags.create(name="T"),
    }
    collections = {"event": cal.events, "venue": cal.venues, "organizer": cal.organizers}
    collections |= {"category": cal.categories, "tag": cal.tags}
    undocumented = []
    for kind, cls in RECORD_CLASSES.items():
        for name, declared in input_fields(cls).items():
            try:
                refuse_nulls(cls, {name: None}, by_id=True)
                collections[kind].update(made[kind].id, **{name: None})
            except ec.errors.CalendarError:
                continue
            if declared.input not in NULLABLE:
                undocumented.append(f"{kind}.{name}")
    assert [] == undocumented


def test_json_dates_may_be_timestamps(doc: dict[str, Any]) -> None:
    """A JSON number is a Unix timestamp where a date is read; a form sends digits as text."""
    stamp = {
        "type": "number",
        "minimum": -30_610_224_000,
        "maximum": 253_402_300_800,
        "exclusiveMaximum": True,
    }
    assert (True, "anyOf" in field(doc, "EventCreateForm", "end_date")) == (
        stamp in field(doc, "EventCreate", "end_date")["anyOf"],
        False,
    )


@pytest.mark.parametrize("stamp", [-30_610_224_000, 253_402_300_799.5])
def test_the_documented_timestamp_bounds_are_read(stamp: float) -> None:
    """The first and last timestamps /doc allows are dates the server takes (in UTC)."""
    cal = ec.connect("memory://")
    event = cal.events.create(title="G", start_date=stamp, end_date=stamp, timezone="UTC")
    assert int(stamp) == int(event.utc_start_date.timestamp())


@pytest.mark.parametrize("stamp", [-30_610_224_001, 253_402_300_800])
def test_timestamps_past_the_documented_bounds_are_refused(stamp: int) -> None:
    """One second outside the documented bounds is outside the years the server takes."""
    cal = ec.connect("memory://")
    with pytest.raises(ec.errors.InvalidParameter, match="start_date"):
        cal.events.create(title="G", start_date=stamp, end_date=stamp, timezone="UTC")


def test_a_cost_list_with_empty_items_is_read() -> None:
    """What the document states is what the server does: ``[None, "10", 20]`` is a cost."""
    cal = ec.connect("memory://")
    event = cal.events.create(
        title="Gala",
        start_date="2031-05-01 19:00",
        end_date="2031-05-01 20:00",
        cost=[None, "10", 20],
    )
    assert "10, 20" == event.cost


def test_venue_flags_take_the_texts_the_reader_takes(doc: dict[str, Any]) -> None:
    """A venue's show_map is read for truthiness: 0, 1, yes, no ... as well as booleans."""
    variants = field(doc, "VenueUpdateForm", "show_map")["anyOf"]
    assert ({"type": "integer", "enum": [0, 1]}, True) == (
        variants[1],
        {"yes", "no", "0", "1"} <= set(variants[2]["enum"]),
    )


def test_an_update_may_send_a_json_body_that_is_no_object(doc: dict[str, Any]) -> None:
    """A JSON array (any non-object) is read as no fields, as WordPress reads it."""
    schema = doc["paths"]["/events/{id}"]["patch"]["requestBody"]["content"]["application/json"]
    assert {"type": "object"} == schema["schema"]["anyOf"][1]["not"]


def test_a_delete_does_not_read_the_event_password(doc: dict[str, Any]) -> None:
    """A delete lists ``password`` as the reference does, but takes any text: it is not read."""
    found = doc["paths"]["/events/{id}"]["delete"]["parameters"]
    assert {"type": "string"} == next(p["schema"] for p in found if p["name"] == "password")


def test_json_texts_may_be_numbers(doc: dict[str, Any]) -> None:
    """A number in a JSON body is read as its text, and /doc says so; a form sends text."""
    json = field(doc, "VenueCreate", "city")["anyOf"]
    assert ({"type": "number"}, "string") == (
        json[1],
        field(doc, "VenueCreateForm", "city")["type"],
    )


def test_a_term_named_in_a_body_is_text_and_not_the_digits_of_an_id(
    doc: dict[str, Any],
) -> None:
    """A name with NUL is refused (``clean_text``) and "-5" names the id -5, which no term
    has: /doc says so for every category and tag given by name."""
    names = field(doc, "EventCreate", "categories")["anyOf"][0]["items"]["anyOf"][1]
    assert names["pattern"] == TEXT.pattern
    digits = re.compile(names["not"]["pattern"])
    assert (True, True, False) == (
        bool(digits.search("-5")),
        bool(digits.search(" 12 ")),
        bool(digits.search("jazz 5")),
    )
