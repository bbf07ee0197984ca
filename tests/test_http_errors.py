"""Every error the HTTP adapter answers: status, the reference's payload word for word, and
our ``X-Events-Calendar-Hint`` header saying which field is wrong and what to send instead."""

from __future__ import annotations

from typing import Any

import pytest

from events_calendar import errors
from events_calendar.http.errors import status_of
from http_helpers import Site

HINT = "X-Events-Calendar-Hint"
GALA = {"title": "Gala", "start_date": "2031-06-15 19:00:00", "end_date": "2031-06-15 23:00:00"}
FORBIDDEN_MESSAGE = "Sorry, you are not allowed to do that."


@pytest.fixture
def site() -> Site:
    return Site()


def invalid(*names: str) -> dict[str, Any]:
    """The reference's ``rest_invalid_param`` body for plain validators."""
    return {
        "code": "rest_invalid_param",
        "message": f"Invalid parameter(s): {', '.join(names)}",
        "data": {
            "status": 400,
            "params": dict.fromkeys(names, "Invalid parameter."),
            "details": [],
        },
    }


def missing(*names: str) -> dict[str, Any]:
    """The reference's ``rest_missing_callback_param`` body."""
    return {
        "code": "rest_missing_callback_param",
        "message": f"Missing parameter(s): {', '.join(names)}",
        "data": {"status": 400, "params": list(names)},
    }


def plain(code: str, message: str, status: int) -> dict[str, Any]:
    """A plugin error: code, message and only ``data.status``."""
    return {"code": code, "message": message, "data": {"status": status}}


# -- rest_invalid_param: ids and slugs -------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/events/999999",
        "/venues/999999",
        "/organizers/999999",
        "/categories/999999",
        "/tags/999999",
    ],
)
def test_reading_an_unknown_id_is_invalid_param_id(site: Site, path: str) -> None:
    """GET on an unknown id answers 400 rest_invalid_param naming ``id`` (not 404)."""
    response = site.get(path)
    assert (400, invalid("id")) == (response.status_code, response.json())


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
@pytest.mark.parametrize("collection", ["events", "venues", "organizers", "categories", "tags"])
def test_writing_an_unknown_id_is_invalid_param_id(
    site: Site, method: str, collection: str
) -> None:
    """Updates and deletes of an unknown id answer 400 rest_invalid_param naming ``id``."""
    response = site.request(method, f"/{collection}/999999", json={}, as_="admin")
    assert (400, invalid("id")) == (response.status_code, response.json())


def test_a_venue_id_on_the_events_route_is_invalid_param_id(site: Site) -> None:
    """/events/<venue id> is "not an event": 400 rest_invalid_param naming ``id``."""
    venue = site.venue()
    response = site.get(f"/events/{venue['id']}")
    assert (400, invalid("id")) == (response.status_code, response.json())


def test_an_event_id_on_the_venues_route_is_invalid_param_id(site: Site) -> None:
    """/venues/<event id> answers 400 rest_invalid_param naming ``id``."""
    event = site.event()
    response = site.get(f"/venues/{event['id']}")
    assert (400, invalid("id")) == (response.status_code, response.json())


def test_a_tag_id_on_the_categories_route_is_invalid_param_id(site: Site) -> None:
    """/categories/<tag id> (a term of another taxonomy) answers 400 naming ``id``."""
    tag = site.tag()
    response = site.get(f"/categories/{tag['id']}")
    assert (400, invalid("id")) == (response.status_code, response.json())


@pytest.mark.parametrize("collection", ["events", "venues", "organizers"])
def test_reading_an_unknown_slug_is_invalid_param_slug(site: Site, collection: str) -> None:
    """GET by an unknown slug answers 400 rest_invalid_param naming ``slug``."""
    response = site.get(f"/{collection}/by-slug/no-such-thing")
    assert (400, invalid("slug")) == (response.status_code, response.json())


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
@pytest.mark.parametrize("collection", ["events", "venues", "organizers"])
def test_writing_an_unknown_slug_is_invalid_param_slug(
    site: Site, method: str, collection: str
) -> None:
    """Updates and deletes by an unknown slug answer 400 rest_invalid_param naming ``slug``."""
    response = site.request(method, f"/{collection}/by-slug/no-such-thing", json={}, as_="admin")
    assert (400, invalid("slug")) == (response.status_code, response.json())


def test_deleting_twice_by_slug_is_invalid_param_slug(site: Site) -> None:
    """A trashed event's slug no longer resolves: a second delete by slug is 400 ``slug``."""
    site.event()
    site.delete("/events/by-slug/gala", as_="admin")
    response = site.delete("/events/by-slug/gala", as_="admin")
    assert (400, invalid("slug")) == (response.status_code, response.json())


def test_deleted_term_id_is_invalid_param_id(site: Site) -> None:
    """Terms are deleted for good: deleting one twice answers 400 naming ``id``."""
    category = site.category()
    site.delete(f"/categories/{category['id']}", as_="admin")
    response = site.delete(f"/categories/{category['id']}", as_="admin")
    assert (400, invalid("id")) == (response.status_code, response.json())


# -- rest_invalid_param: bodies --------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "name"),
    [
        ({"status": "bogus"}, "status"),
        ({"timezone": "Mars/Olympus"}, "timezone"),
        ({"start_date": "not-a-date"}, "start_date"),
        ({"end_date": "2031-13-45 99:00:00"}, "end_date"),
        ({"end_date": "2031-06-15 18:00:00"}, "end_date"),
        ({"venue": 999999}, "venue"),
        ({"organizer": [999999]}, "organizer"),
        ({"categories": [999999]}, "categories"),
        ({"tags": [999999]}, "tags"),
        ({"image": 999999}, "image"),
        ({"website": "not a url"}, "website"),
        ({"author": 999999}, "author"),
        ({"categories": [{"name": "Jazz"}]}, "categories"),
        ({"venue": [{"city": "Lyon"}]}, "venue"),
        ({"organizer": "abc"}, "organizer"),
    ],
)
def test_invalid_event_field_on_create_is_named(
    site: Site, fields: dict[str, Any], name: str
) -> None:
    """A bad value in an event create answers 400 rest_invalid_param naming that field."""
    response = site.post("/events", json={**GALA, **fields}, as_="admin")
    assert (400, invalid(name)) == (response.status_code, response.json())


def test_every_invalid_field_is_named_at_once(site: Site) -> None:
    """Two bad fields are both named in one 400."""
    response = site.post(
        "/events", json={**GALA, "status": "bogus", "timezone": "Mars/Olympus"}, as_="admin"
    )
    body = response.json()
    assert (400, {"status": "Invalid parameter.", "timezone": "Invalid parameter."}) == (
        response.status_code,
        body["data"]["params"],
    )


@pytest.mark.parametrize(
    ("collection", "body", "names"),
    [
        ("venues", "venue=X&website=bad&author=abc&status=zzz", ["author", "status", "website"]),
        ("venues", "venue=X&status=zzz&author=abc&website=bad", ["author", "status", "website"]),
        ("organizers", "organizer=X&website=bad&status=zzz", ["status", "website"]),
    ],
)
def test_bad_fields_are_named_in_the_routes_declared_order(
    site: Site, collection: str, body: str, names: list[str]
) -> None:
    """WordPress checks a route's arguments in the order it declares them, so its message
    and ``data.params`` name bad ones in that order, whatever order the body gave: the
    reference answers ``author, status, website``. Ours followed the body."""
    response = site.post(
        f"/{collection}",
        content=body,
        headers={"content-type": "application/x-www-form-urlencoded"},
        as_="admin",
    )
    assert (400, invalid(*names)) == (response.status_code, response.json())


@pytest.mark.parametrize("method", ["POST", "PATCH"])
def test_a_term_write_names_every_bad_field(site: Site, method: str) -> None:
    """Every argument is checked before any is refused, as WordPress runs each check: a
    blank description and an unknown parent are named together (the parent went unsaid)."""
    path = "/categories"
    if method == "PATCH":
        path += f"/{site.post(path, json={'name': 'Music'}, as_='admin').json()['id']}"
    body = {"name": "Q", "description": "", "parent": 999999}
    response = site.request(method, path, json=body, as_="admin")
    assert (400, invalid("description", "parent")) == (response.status_code, response.json())


def test_an_event_create_names_bad_fields_in_declared_order(site: Site) -> None:
    """``categories`` is declared after ``website`` on event creates."""
    body = {**GALA, "categories": [999999], "website": "bad", "status": "bogus"}
    response = site.post("/events", json=body, as_="admin")
    assert ["status", "website", "categories"] == list(response.json()["data"]["params"])


def test_featured_yes_is_not_a_boolean(site: Site) -> None:
    """``featured: "yes"`` answers the recorded type error, with its details."""
    response = site.post("/events", json={**GALA, "featured": "yes"}, as_="admin")
    assert (
        400,
        {
            "code": "rest_invalid_param",
            "message": "Invalid parameter(s): featured",
            "data": {
                "status": 400,
                "params": {"featured": "featured is not of type boolean."},
                "details": {
                    "featured": {
                        "code": "rest_invalid_type",
                        "message": "featured is not of type boolean.",
                        "data": {"param": "featured"},
                    }
                },
            },
        },
    ) == (response.status_code, response.json())


def test_a_type_error_shows_only_once_every_validator_passed(site: Site) -> None:
    """WordPress runs the validators first and checks types only if they all passed, so
    its answer names the bad title alone; the next request, with the title mended, names
    the boolean. The hint header names both at once."""
    body = {**GALA, "title": "", "all_day": "q", "featured": "yes"}
    first = site.post("/events", json=body, as_="admin")
    assert (400, invalid("title")) == (first.status_code, first.json())
    assert "all_day" in first.headers["X-Events-Calendar-Hint"]
    second = site.post("/events", json={**body, "title": "Gala"}, as_="admin")
    params = second.json()["data"]["params"]
    assert {
        "all_day": "all_day is not of type boolean.",
        "featured": "featured is not of type boolean.",
    } == params


@pytest.mark.parametrize(
    ("path", "name", "value"),
    [
        ("/events", "featured", "yes"),
        ("/events", "featured", ""),
        ("/events", "featured", "x"),
        ("/events", "geoloc", "no"),
        ("/categories", "hide_empty", "yes"),
        ("/tags", "hide_empty", "off"),
    ],
)
def test_a_list_flag_that_is_no_rest_boolean_is_a_type_error(
    site: Site, path: str, name: str, value: str
) -> None:
    """A list filter typed ``boolean`` reads as WordPress reads one (``rest_is_boolean``:
    true, false, 1 or 0): anything else is the same type error as on a write."""
    response = site.get(path, params={name: value})
    message = f"{name} is not of type boolean."
    assert (
        400,
        "rest_invalid_param",
        {name: message},
        {name: {"code": "rest_invalid_type", "message": message, "data": {"param": name}}},
    ) == (
        response.status_code,
        response.json()["code"],
        response.json()["data"]["params"],
        response.json()["data"]["details"],
    )


@pytest.mark.parametrize(
    ("fields", "name"),
    [
        ({"status": "bogus"}, "status"),
        ({"start_date": "yesterday-ish"}, "start_date"),
        ({"end_date": "2031-06-14 10:00:00"}, "end_date"),
        ({"title": ""}, "title"),
    ],
)
def test_invalid_event_field_on_update_is_named(
    site: Site, fields: dict[str, Any], name: str
) -> None:
    """A bad value in an event update answers 400 rest_invalid_param naming that field."""
    event = site.event()
    response = site.patch(f"/events/{event['id']}", json=fields, as_="admin")
    assert (400, invalid(name)) == (response.status_code, response.json())


@pytest.mark.parametrize(
    ("collection", "body", "name"),
    [
        ("venues", {"venue": "Weird Status Hall", "status": "bogus"}, "status"),
        ("venues", {"venue": "Hall", "website": "not a url"}, "website"),
        ("organizers", {"organizer": "Acme", "status": "bogus"}, "status"),
        ("categories", {"name": "Orphan", "parent": 999999}, "parent"),
        ("categories", {"name": ""}, "name"),
        ("tags", {"name": "Tag", "slug": ""}, "slug"),
    ],
)
def test_invalid_field_on_other_creates_is_named(
    site: Site, collection: str, body: dict[str, Any], name: str
) -> None:
    """Bad venue, organizer and term fields answer 400 rest_invalid_param naming them."""
    response = site.post(f"/{collection}", json=body, as_="admin")
    assert (400, invalid(name)) == (response.status_code, response.json())


def test_renaming_a_venue_to_nothing_is_invalid(site: Site) -> None:
    """``venue: ""`` on update answers 400 naming ``venue``."""
    venue = site.venue()
    response = site.patch(f"/venues/{venue['id']}", json={"venue": ""}, as_="admin")
    assert (400, invalid("venue")) == (response.status_code, response.json())


# -- rest_invalid_param: term texts ----------------------------------------------------------


@pytest.mark.parametrize(
    ("collection", "body", "field"),
    [
        ("/categories", {"name": "Jazz", "description": ""}, "description"),
        ("/categories", {"name": ""}, "name"),
        ("/categories", {"name": "Jazz", "slug": ""}, "slug"),
        ("/tags", {"name": "Free", "description": ""}, "description"),
        ("/tags", {"name": "Free", "slug": ""}, "slug"),
    ],
)
def test_term_create_with_an_empty_text_is_invalid(
    site: Site, collection: str, body: dict[str, Any], field: str
) -> None:
    """An empty name, description or slug on term create is 400 on that field; nothing is made."""
    response = site.post(collection, json=body, as_="admin")
    listed = site.get(collection, params={"hide_empty": "false"}).json()["total"]
    assert (400, invalid(field), 0) == (response.status_code, response.json(), listed)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": ""}, "name"),
        ({"description": ""}, "description"),
        ({"slug": ""}, "slug"),
        ({"description": "   "}, "description"),
        ({"description": 5}, "description"),
        ({"description": None}, "description"),
        ({"name": ["Rock"]}, "name"),
        ({"parent": "abc"}, "parent"),
    ],
)
def test_term_update_with_an_empty_or_invalid_value_is_invalid(
    site: Site, body: dict[str, Any], field: str
) -> None:
    """POST /categories/<id> with an empty or invalid value is 400 on it; the term is unchanged."""
    music = site.category(name="Music", description="Live")
    response = site.post(f"/categories/{music['id']}", json=body, as_="admin")
    after = site.get(f"/categories/{music['id']}").json()
    assert (400, invalid(field), ("Music", "Live", "music")) == (
        response.status_code,
        response.json(),
        (after["name"], after["description"], after["slug"]),
    )


# -- rest_invalid_param: list parameters -----------------------------------------------------


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"page": "0"}, "page"),
        ({"page": "abc"}, "page"),
        ({"per_page": "0"}, "per_page"),
        ({"per_page": "-3"}, "per_page"),
        ({"per_page": "lots"}, "per_page"),
        ({"start_date": "not-a-date"}, "start_date"),
        ({"start_date": "2031-01-01", "end_date": "garbage"}, "end_date"),
        ({"starts_before": "whenever"}, "starts_before"),
        ({"status": "draft"}, "status"),
        ({"categories": "no-such-category"}, "categories"),
        ({"categories": "999999"}, "categories"),
        ({"tags": "nope-tag"}, "tags"),
        ({"venue": "999999"}, "venue"),
        ({"organizer": "999999"}, "organizer"),
        ({"post_parent": "0"}, "post_parent"),
        ({"search": ""}, "search"),
    ],
)
def test_invalid_event_list_parameter_is_named(
    site: Site, params: dict[str, str], name: str
) -> None:
    """A bad GET /events parameter answers 400 rest_invalid_param naming it."""
    response = site.get("/events", params=params)
    assert (400, invalid(name)) == (response.status_code, response.json())


def test_unknown_status_filter_is_invalid_for_editors_too(site: Site) -> None:
    """``status=bogus`` answers 400 even for a user who may filter by status."""
    response = site.get("/events", params={"status": "bogus"}, as_="admin")
    assert (400, invalid("status")) == (response.status_code, response.json())


def test_ticketed_true_needs_event_tickets(site: Site) -> None:
    """``ticketed=true`` answers the recorded "Event Tickets plugin is not activated." error."""
    response = site.get("/events", params={"ticketed": "true"})
    message = "Event Tickets plugin is not activated."
    assert (
        400,
        {
            "code": "rest_invalid_param",
            "message": "Invalid parameter(s): ticketed",
            "data": {
                "status": 400,
                "params": {"ticketed": message},
                "details": {
                    "ticketed": {
                        "code": "event-tickets-not-active",
                        "message": message,
                        "data": {"status": 400},
                    }
                },
            },
        },
    ) == (response.status_code, response.json())


@pytest.mark.parametrize(
    ("path", "params", "name"),
    [
        ("/venues", {"status": "draft"}, "status"),
        ("/venues", {"event": "999999"}, "event"),
        ("/organizers", {"per_page": "0"}, "per_page"),
        ("/categories", {"parent": "0"}, "parent"),
        ("/categories", {"post": "999999"}, "post"),
        ("/tags", {"include": "999999"}, "include"),
        ("/tags", {"page": "-1"}, "page"),
    ],
)
def test_invalid_parameter_of_other_lists_is_named(
    site: Site, path: str, params: dict[str, str], name: str
) -> None:
    """Bad venue, organizer and term list parameters answer 400 naming them."""
    response = site.get(path, params=params)
    assert (400, invalid(name)) == (response.status_code, response.json())


# -- rest_missing_callback_param -------------------------------------------------------------


@pytest.mark.parametrize(
    ("collection", "body", "names"),
    [
        ("events", {k: v for k, v in GALA.items() if k != "title"}, ["title"]),
        ("events", {k: v for k, v in GALA.items() if k != "start_date"}, ["start_date"]),
        ("events", {k: v for k, v in GALA.items() if k != "end_date"}, ["end_date"]),
        ("events", {}, ["title", "start_date", "end_date"]),
        ("venues", {"city": "Lyon"}, ["venue"]),
        ("organizers", {"email": "a@b.example"}, ["organizer"]),
        ("categories", {"description": "x"}, ["name"]),
        ("tags", {}, ["name"]),
    ],
)
def test_missing_required_fields_are_listed(
    site: Site, collection: str, body: dict[str, Any], names: list[str]
) -> None:
    """A create without its required fields answers 400 listing them in data.params."""
    response = site.post(f"/{collection}", json=body, as_="admin")
    assert (400, missing(*names)) == (response.status_code, response.json())


def test_create_without_a_body_lists_every_required_field(site: Site) -> None:
    """POST /events with no body at all answers the same missing-parameters error."""
    response = site.post("/events", as_="admin")
    assert (400, missing("title", "start_date", "end_date")) == (
        response.status_code,
        response.json(),
    )


# -- rest_forbidden --------------------------------------------------------------------------


def test_anonymous_write_is_rest_forbidden_401(site: Site) -> None:
    """An anonymous create answers 401 rest_forbidden with the reference's message."""
    response = site.post("/events", json=GALA)
    assert (401, plain("rest_forbidden", FORBIDDEN_MESSAGE, 401)) == (
        response.status_code,
        response.json(),
    )


def test_signed_in_write_without_the_right_is_rest_forbidden_403(site: Site) -> None:
    """A subscriber's create answers 403 rest_forbidden with the reference's message."""
    response = site.post("/events", json=GALA, as_="subscriber")
    assert (403, plain("rest_forbidden", FORBIDDEN_MESSAGE, 403)) == (
        response.status_code,
        response.json(),
    )


# -- term_exists -----------------------------------------------------------------------------


def test_duplicate_category_is_term_exists_with_its_id(site: Site) -> None:
    """A second category of the same name at the same level: 400 term_exists with term_id."""
    first = site.category()
    response = site.post("/categories", json={"name": "Music"}, as_="admin")
    number = first["id"]
    assert (
        400,
        {
            "code": "term_exists",
            "message": "A term with the name provided already exists with this parent.",
            "data": {"status": 400, "term_id": number},
            "additional_data": [number, number],
        },
    ) == (response.status_code, response.json())


def test_duplicate_tag_is_term_exists_with_its_id(site: Site) -> None:
    """A second tag of the same name: 400 term_exists, "already exists in this taxonomy"."""
    first = site.tag()
    response = site.post("/tags", json={"name": "Outdoor"}, as_="admin")
    number = first["id"]
    assert (
        400,
        {
            "code": "term_exists",
            "message": "A term with the name provided already exists in this taxonomy.",
            "data": {"status": 400, "term_id": number},
            "additional_data": [number, number],
        },
    ) == (response.status_code, response.json())


def test_same_category_name_under_another_parent_is_allowed(site: Site) -> None:
    """ "Jazz" under Music and "Jazz" at the top level are two categories."""
    music = site.category()
    site.category(name="Jazz", parent=music["id"])
    assert 201 == site.post("/categories", json={"name": "Jazz"}, as_="admin").status_code


# -- in the trash ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("collection", "make", "code", "message"),
    [
        ("events", "event", "event-is-in-trash", "The event is already trashed"),
        ("venues", "venue", "venue-is-in-trash", "The venue is already trashed"),
        ("organizers", "organizer", "organizer-is-in-trash", "The organizer is already trashed"),
    ],
)
def test_deleting_a_trashed_record_is_410(
    site: Site, collection: str, make: str, code: str, message: str
) -> None:
    """A second DELETE of an event, venue or organizer answers 410 ``<kind>-is-in-trash``."""
    record = getattr(site, make)()
    site.delete(f"/{collection}/{record['id']}", as_="admin")
    response = site.delete(f"/{collection}/{record['id']}", as_="admin")
    assert (410, plain(code, message, 410)) == (response.status_code, response.json())


def test_force_does_not_delete_a_trashed_event_over_http(site: Site) -> None:
    """``force=true`` on a trashed event still answers 410, as recorded."""
    event = site.event()
    site.delete(f"/events/{event['id']}", as_="admin")
    response = site.delete(f"/events/{event['id']}", params={"force": "true"}, as_="admin")
    assert (410, "event-is-in-trash") == (response.status_code, response.json()["code"])


@pytest.mark.parametrize("force", ["true", "1", "no", "banana"])
def test_force_is_ignored_by_an_http_delete(site: Site, force: str) -> None:
    """The reference's DELETE always trashes and ignores ``force`` whatever it says: the
    Python API reads ``force`` strictly, but the HTTP route never hands it on, so neither a
    yes nor a value that is not a boolean removes for good (or is refused)."""
    event = site.event()
    response = site.delete(f"/events/{event['id']}", params={"force": force}, as_="admin")
    assert (200, "trash") == (response.status_code, response.json()["status"])


# -- not accessible --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"status": "draft"},
        {"status": "pending"},
        {"status": "private"},
        {"status": "future", "date": "2031-12-01 08:00:00"},
    ],
)
def test_unpublished_event_is_not_accessible_anonymously(
    site: Site, fields: dict[str, str]
) -> None:
    """Anonymous reads of draft, pending, private and future events answer 403."""
    event = site.event(**fields)
    response = site.get(f"/events/{event['id']}")
    expected = plain("event-not-accessible", "The requested event is not accessible", 403)
    assert (403, expected) == (response.status_code, response.json())


def test_trashed_event_is_not_accessible_anonymously(site: Site) -> None:
    """An anonymous read of a trashed event answers 403 event-not-accessible."""
    event = site.event()
    site.delete(f"/events/{event['id']}", as_="admin")
    response = site.get(f"/events/{event['id']}")
    assert (403, "event-not-accessible") == (response.status_code, response.json()["code"])


def test_draft_venue_is_not_accessible_anonymously(site: Site) -> None:
    """An anonymous read of a draft venue answers 403 venue-not-accessible."""
    venue = site.venue(status="draft")
    response = site.get(f"/venues/{venue['id']}")
    expected = plain("venue-not-accessible", "The requested venue is not accessible", 403)
    assert (403, expected) == (response.status_code, response.json())


def test_trashed_venue_is_not_accessible_anonymously(site: Site) -> None:
    """An anonymous read of a trashed venue answers 403 venue-not-accessible."""
    venue = site.venue()
    site.delete(f"/venues/{venue['id']}", as_="admin")
    response = site.get(f"/venues/{venue['id']}")
    assert (403, "venue-not-accessible") == (response.status_code, response.json()["code"])


def test_draft_organizer_is_not_accessible_anonymously(site: Site) -> None:
    """An anonymous read of a draft organizer answers 403 organizer-not-accessible."""
    organizer = site.organizer(status="draft")
    response = site.get(f"/organizers/{organizer['id']}")
    expected = plain("organizer-not-accessible", "The requested organizer is not accessible", 403)
    assert (403, expected) == (response.status_code, response.json())


def test_draft_found_by_slug_is_not_accessible_anonymously(site: Site) -> None:
    """A draft venue found by its slug still answers 403 to anonymous callers."""
    site.venue(status="draft")
    response = site.get("/venues/by-slug/town-hall")
    assert (403, "venue-not-accessible") == (response.status_code, response.json()["code"])


def test_password_protected_event_without_password(site: Site) -> None:
    """Reading a password-protected event without the password answers 403."""
    event = site.event()
    site.patch(f"/events/{event['id']}", json={"password": "s3cret"}, as_="admin")
    response = site.get(f"/events/{event['id']}")
    expected = plain(
        "event-password-protected",
        "The requested event is not accessible without a password",
        403,
    )
    assert (403, expected) == (response.status_code, response.json())


# -- pages past the end ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("collection", "make", "code", "kind"),
    [
        ("events", "event", "event-archive-page-not-found", "event"),
        ("venues", "venue", "venue-archive-page-not-found", "venue"),
        ("organizers", "organizer", "organizer-archive-page-not-found", "organizer"),
    ],
)
def test_page_past_the_end_is_404(
    site: Site, collection: str, make: str, code: str, kind: str
) -> None:
    """Page 99 of a one-page event, venue or organizer list answers 404 with the kind's code."""
    getattr(site, make)()
    response = site.get(f"/{collection}", params={"page": 99})
    expected = plain(code, f"The requested {kind} archive page does not exist", 404)
    assert (404, expected) == (response.status_code, response.json())


def test_page_two_of_an_empty_list_is_404(site: Site) -> None:
    """Page 2 of an empty event list is past the end too."""
    response = site.get("/events", params={"page": 2})
    assert (404, "event-archive-page-not-found") == (response.status_code, response.json()["code"])


# -- id 0 -----------------------------------------------------------------------------------


def test_event_id_zero_is_rest_invalid_param(site: Site) -> None:
    """GET /events/0 answers 400 rest_invalid_param on id, like other unknown ids."""
    response = site.get("/events/0")
    expected = {
        "code": "rest_invalid_param",
        "message": "Invalid parameter(s): id",
        "data": {"status": 400, "params": {"id": "Invalid parameter."}, "details": []},
    }
    assert (400, expected) == (response.status_code, response.json())


@pytest.mark.parametrize("method", ["PATCH", "DELETE"])
def test_writing_event_id_zero_is_rest_invalid_param(site: Site, method: str) -> None:
    """PATCH and DELETE on /events/0 answer 400 rest_invalid_param."""
    response = site.request(method, "/events/0", json={}, as_="admin")
    assert (400, "rest_invalid_param") == (response.status_code, response.json()["code"])


# -- the hint header -------------------------------------------------------------------------


def test_hint_names_the_unknown_id_and_what_to_send(site: Site) -> None:
    """An unknown event id's hint says ``id: send an existing event id``."""
    assert "id: send an existing event id" == site.get("/events/999999").headers[HINT]


def test_hint_names_the_end_before_the_start(site: Site) -> None:
    """An end before the start is hinted as ``end_date`` with what to send."""
    response = site.post("/events", json={**GALA, "end_date": "2031-06-15 18:00:00"}, as_="admin")
    assert "end_date: send an end on or after the start" == response.headers[HINT]


def test_hint_names_every_missing_field(site: Site) -> None:
    """A create without a title or dates hints each missing field."""
    response = site.post("/events", json={}, as_="admin")
    assert (
        "title: this field is required; start_date: this field is required; "
        "end_date: this field is required"
    ) == response.headers[HINT]


@pytest.mark.parametrize(
    ("fields", "hint"),
    [
        (
            {"timezone": "Mars/Olympus"},
            "timezone: unknown time zone 'Mars/Olympus'; send an IANA time zone such as "
            "'Europe/Paris' or an offset such as 'UTC+2'",
        ),
        (
            {"start_date": "not-a-date"},
            "start_date: cannot read 'not-a-date' as a date; send a date such as "
            "'2031-05-01 19:00', '2031-05-01T19:00:00+02:00', a Unix timestamp or a phrase "
            "such as 'tomorrow 9am'",
        ),
        ({"venue": 999999}, "venue: there is no venue with id 999999; send an existing id"),
        ({"featured": "yes"}, "featured: send true or false (or 1 or 0)"),
    ],
)
def test_hint_names_the_field_and_what_to_send(
    site: Site, fields: dict[str, Any], hint: str
) -> None:
    """A bad field's hint names it, says what was wrong and what to send instead."""
    response = site.post("/events", json={**GALA, **fields}, as_="admin")
    assert hint == response.headers[HINT]


def test_hint_on_a_bad_list_parameter(site: Site) -> None:
    """A bad per_page is hinted with its name."""
    response = site.get("/events", params={"per_page": "lots"})
    assert "per_page: send a positive whole number of records" == response.headers[HINT]


def test_hint_explains_a_refusal(site: Site) -> None:
    """An anonymous create is hinted with who may not do what."""
    response = site.post("/events", json=GALA)
    assert "Sorry, anonymous callers may not create events." == response.headers[HINT]


def test_hint_on_invalid_json_quotes_the_parser(site: Site) -> None:
    """Invalid JSON is hinted with where the parser stopped."""
    response = site.post(
        "/events", content=b"{bad", headers={"Content-Type": "application/json"}, as_="admin"
    )
    assert (
        "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"
        == (response.headers[HINT])
    )


def test_successful_responses_carry_no_hint(site: Site) -> None:
    """Answers that are not errors have no hint header."""
    response = site.post("/events", json=GALA, as_="admin")
    assert (201, None) == (response.status_code, response.headers.get(HINT))


def test_error_bodies_are_json(site: Site) -> None:
    """Errors are served as application/json; charset=UTF-8."""
    assert "application/json; charset=UTF-8" == site.get("/events/999999").headers["Content-Type"]


# -- each error's HTTP status, declared by the error and read by the adapter ------------------


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (errors.InvalidParameter({"id": "send an existing id"}), 400),
        (errors.MissingParameter(["title"]), 400),
        (errors.NotFound("There is no venue with ID 9.", code="rest_invalid_param"), 400),
        (errors.WrongKind("The specified ID is not a valid event."), 400),
        (errors.TermExists("Jazz exists", term_id=3, kind="category"), 400),
        (errors.PageNotFound("past the end", code="venue-archive-page-not-found"), 404),
        (errors.InTrash("trashed", code="venue-is-in-trash"), 410),
        (errors.Forbidden("no", anonymous=True), 401),
        (errors.Forbidden("no"), 403),
        (errors.Forbidden("no", code="event-not-accessible", anonymous=True), 403),
        (errors.AuthenticationFailed("bad", code="invalid_token"), 401),
        (errors.Conflict("slug taken"), 409),
        (errors.NotFound("There is no user 'x'.", code="user-not-found"), 404),
        (errors.StorageUnavailable.of("sqlite:///gone.db", "unable to open"), 503),
    ],
)
def test_each_core_error_carries_the_references_status(
    error: errors.CalendarError, status: int
) -> None:
    """Each core error says its HTTP status (``http_status``, DESIGN: "an HTTP status the
    adapter reads"), the reference's for the same situation, and the adapter answers it."""
    assert (status, status) == (error.http_status, status_of(error))


def test_every_core_error_declares_an_http_error_status() -> None:
    """Every error class of the core declares a client or server error status."""
    classes = [
        cls
        for cls in vars(errors).values()
        if isinstance(cls, type) and issubclass(cls, errors.CalendarError)
    ]
    assert (len(errors.__all__), []) == (
        len(classes),
        [cls.__name__ for cls in classes if not 400 <= cls.status < 600],
    )
