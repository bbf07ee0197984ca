"""Every route and method of ``tribe/events/v1`` through the ASGI app: statuses, record shapes,
list envelopes, links, headers, query and body forms, and the golden recordings replayed."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

import events_calendar as ec
from http_helpers import (
    EMBEDDED_TERM_KEYS,
    EVENT_KEYS,
    LISTED_CATEGORY_KEYS,
    LISTED_TAG_KEYS,
    NOW_TEXT,
    ORGANIZER_KEYS,
    SITE,
    VENUE_KEYS,
    Site,
    url_parts,
)

NO_ROUTE = {
    "code": "rest_no_route",
    "message": "No route was found matching the URL and request method.",
    "data": {"status": 404},
}
#: The default window on the fixed clock, as list URLs echo it.
WINDOW = [("start_date", "2031-01-09 00:00:00"), ("end_date", "2033-01-10 23:59:59")]
ROOT = SITE + "/wp-json/tribe/events/v1"


@pytest.fixture
def site() -> Site:
    return Site()


def titles(response: httpx.Response) -> list[str]:
    return [e["title"] for e in response.json()["events"]]


# -- the namespace index and /doc -----------------------------------------------------------

ROUTES = {
    "/tribe/events/v1": ["GET"],
    "/tribe/events/v1/doc": ["GET"],
    "/tribe/events/v1/events": ["GET", "POST"],
    "/tribe/events/v1/events/(?P<id>\\d+)": ["GET", "DELETE", "POST", "PUT", "PATCH"],
    "/tribe/events/v1/events/by-slug/(?P<slug>[^/]+)": ["GET", "DELETE", "POST", "PUT", "PATCH"],
    "/tribe/events/v1/venues": ["GET", "POST"],
    "/tribe/events/v1/venues/(?P<id>\\d+)": ["GET", "DELETE", "POST", "PUT", "PATCH"],
    "/tribe/events/v1/venues/by-slug/(?P<slug>[^/]+)": ["GET", "DELETE", "POST", "PUT", "PATCH"],
    "/tribe/events/v1/organizers": ["GET", "POST"],
    "/tribe/events/v1/organizers/(?P<id>\\d+)": ["GET", "DELETE", "POST", "PUT", "PATCH"],
    "/tribe/events/v1/organizers/by-slug/(?P<slug>[^/]+)": [
        "GET",
        "DELETE",
        "POST",
        "PUT",
        "PATCH",
    ],
    "/tribe/events/v1/categories": ["GET", "POST"],
    "/tribe/events/v1/categories/(?P<id>\\d+)": ["GET", "POST", "PUT", "PATCH", "DELETE"],
    "/tribe/events/v1/tags": ["GET", "POST"],
    "/tribe/events/v1/tags/(?P<id>\\d+)": ["GET", "POST", "PUT", "PATCH", "DELETE"],
}


@pytest.mark.parametrize("path", ["", "/"])
def test_index_names_the_namespace_and_links_up_to_the_api_root(site: Site, path: str) -> None:
    """GET on the namespace root (with or without a slash) names it and links to the REST root."""
    response = site.get(path)
    assert 200 == response.status_code
    body = response.json()
    assert ["namespace", "routes", "_links"] == list(body)
    assert "tribe/events/v1" == body["namespace"]
    assert {"up": [{"href": SITE + "/wp-json/"}]} == body["_links"]


def test_index_lists_every_route_with_its_methods_in_registration_order(site: Site) -> None:
    """The index's routes are the reference's route table, in its order, with their methods."""
    routes = site.get("").json()["routes"]
    assert list(ROUTES) == list(routes)
    assert ROUTES == {path: route["methods"] for path, route in routes.items()}


def test_doc_is_an_openapi_3_document(site: Site) -> None:
    """GET /doc answers an OpenAPI 3.0.0 document with the reference's top-level keys."""
    response = site.get("/doc")
    assert 200 == response.status_code
    body = response.json()
    assert ["openapi", "info", "components", "servers", "paths"] == list(body)
    assert "3.0.0" == body["openapi"]


def test_doc_documents_every_path(site: Site) -> None:
    """/doc has the reference's paths, in its order."""
    paths = site.get("/doc").json()["paths"]
    assert [
        "/doc",
        "/events",
        "/events/{id}",
        "/events/by-slug/{slug}",
        "/venues",
        "/venues/{id}",
        "/venues/by-slug/{slug}",
        "/organizers",
        "/organizers/{id}",
        "/organizers/by-slug/{slug}",
        "/categories",
        "/categories/{id}",
        "/tags",
        "/tags/{id}",
    ] == list(paths)


def test_doc_server_is_the_namespace_root(site: Site) -> None:
    """/doc's only server is the namespace root with a trailing slash."""
    assert [{"url": ROOT + "/"}] == site.get("/doc").json()["servers"]


# -- events: create, read, update, delete -----------------------------------------------------


def test_create_event_answers_201_with_the_record(site: Site) -> None:
    """POST /events creates the event and answers 201 with it."""
    response = site.post(
        "/events",
        json={"title": "Gala", "start_date": "2031-06-15 19:00", "end_date": "2031-06-15 23:00"},
        as_="admin",
    )
    assert 201 == response.status_code
    assert ("Gala", "2031-06-15 19:00:00") == (
        response.json()["title"],
        response.json()["start_date"],
    )


def test_event_record_has_the_reference_keys_in_order(site: Site) -> None:
    """An event record has the reference's 40 keys in its order (no json_ld outside reads)."""
    assert EVENT_KEYS == list(site.event())


def test_event_read_adds_json_ld_last(site: Site) -> None:
    """GET /events/<id> answers the record with json_ld appended."""
    event = site.event()
    response = site.get(f"/events/{event['id']}")
    assert 200 == response.status_code
    assert [*EVENT_KEYS, "json_ld"] == list(response.json())


def test_event_author_is_the_creator_id_as_a_string(site: Site) -> None:
    """``author`` is a numeric string, the id of the user who created the event."""
    assert "2" == site.event(as_="editor")["author"]


def test_event_date_details_are_zero_padded_strings(site: Site) -> None:
    """Each ``*_details`` object holds zero-padded strings."""
    event = site.event(start_date="2031-02-03 04:05:06", end_date="2031-02-03 07:08:09")
    expected = {
        "year": "2031",
        "month": "02",
        "day": "03",
        "hour": "04",
        "minutes": "05",
        "seconds": "06",
    }
    assert expected == event["start_date_details"]
    assert expected == event["utc_start_date_details"]
    assert {**expected, "hour": "07", "minutes": "08", "seconds": "09"} == event["end_date_details"]


def test_event_dates_are_wall_clock_in_its_zone_beside_utc(site: Site) -> None:
    """A New York event shows local start/end, their UTC instants and the zone's abbreviation."""
    event = site.event(timezone="America/New_York")
    assert {
        "start_date": "2031-06-15 19:00:00",
        "end_date": "2031-06-15 23:00:00",
        "utc_start_date": "2031-06-15 23:00:00",
        "utc_end_date": "2031-06-16 03:00:00",
        "timezone": "America/New_York",
        "timezone_abbr": "EDT",
    } == {k: event[k] for k in ("start_date", "end_date", "utc_start_date", "utc_end_date")} | {
        "timezone": event["timezone"],
        "timezone_abbr": event["timezone_abbr"],
    }


def test_event_without_optional_fields_has_the_reference_defaults(site: Site) -> None:
    """Omitted fields read as the reference shows them: empty texts, false flags, no links."""
    event = site.event()
    shown = {k: event[k] for k in EVENT_KEYS[12:17] + EVENT_KEYS[25:]}
    assert {
        "description": "",
        "excerpt": "",
        "slug": "gala",
        "image": False,
        "all_day": False,
        "timezone": "UTC",
        "timezone_abbr": "UTC",
        "cost": "",
        "cost_details": {
            "currency_symbol": "",
            "currency_code": "",
            "currency_position": "",
            "values": [],
        },
        "website": SITE + "/event/gala/",
        "show_map": False,
        "show_map_link": False,
        "hide_from_listings": False,
        "sticky": False,
        "featured": False,
        "categories": [],
        "tags": [],
        "venue": [],
        "organizer": [],
        "custom_fields": [],
    } == shown


def test_event_publication_dates_are_the_calendar_clock(site: Site) -> None:
    """A new event's date, date_utc, modified and modified_utc are the calendar's now."""
    event = site.event()
    assert [NOW_TEXT] * 4 == [event[k] for k in ("date", "date_utc", "modified", "modified_utc")]


def test_event_links_point_at_this_server(site: Site) -> None:
    """url, rest_url and global ids are built from the request's own origin."""
    event = site.event()
    number = event["id"]
    assert {
        "url": SITE + "/event/gala/",
        "rest_url": f"{ROOT}/events/{number}",
        "global_id": f"testserver?id={number}",
        "global_id_lineage": [f"testserver?id={number}"],
    } == {k: event[k] for k in ("url", "rest_url", "global_id", "global_id_lineage")}


def test_draft_event_url_is_the_query_permalink(site: Site) -> None:
    """A draft's url (and default website) is ``/?post_type=tribe_events&p=<id>``."""
    event = site.event(status="draft")
    expected = f"{SITE}/?post_type=tribe_events&p={event['id']}"
    assert (expected, expected) == (event["url"], event["website"])


def test_event_cost_is_formatted_with_its_values_as_strings(site: Site) -> None:
    """A numeric cost shows as ``$25`` with ``values`` ``["25"]``."""
    event = site.event(cost=25)
    assert ("$25", ["25"]) == (event["cost"], event["cost_details"]["values"])


def test_event_with_one_venue_embeds_that_venue_object(site: Site) -> None:
    """One linked venue is embedded as the venue record itself, not a list."""
    venue = site.venue(city="Lyon")
    assert venue == site.event(venue=venue["id"])["venue"]


def test_event_organizers_are_a_list_in_the_given_order(site: Site) -> None:
    """Organizers are embedded as a list, in the order they were given."""
    first = site.organizer(organizer="Zeta Org")
    second = site.organizer(organizer="Alpha Org")
    event = site.event(organizer=[first["id"], second["id"]])
    assert [first, second] == event["organizer"]


def test_event_embedded_category_has_the_embedded_term_shape(site: Site) -> None:
    """A category inside an event is WordPress's term object with urls (and ``up``)."""
    music = site.category(description="All things music")
    jazz = site.category(name="Jazz", description="Swing", parent=music["id"])
    [embedded] = site.event(categories=[jazz["id"]])["categories"]
    assert EMBEDDED_TERM_KEYS == list(embedded)
    assert {
        "name": "Jazz",
        "slug": "jazz",
        "term_group": 0,
        "term_taxonomy_id": jazz["id"],
        "taxonomy": "tribe_events_cat",
        "description": "Swing",
        "parent": music["id"],
        "count": 1,
        "filter": "raw",
        "id": jazz["id"],
        "urls": {
            "self": f"{ROOT}/categories/{jazz['id']}",
            "collection": f"{ROOT}/categories",
            "up": f"{ROOT}/categories/{music['id']}",
        },
    } == embedded


def test_event_embedded_tag_has_parent_zero_and_no_up_link(site: Site) -> None:
    """A tag inside an event has taxonomy post_tag, parent 0 and only self/collection urls."""
    tag = site.tag()
    [embedded] = site.event(tags=[tag["id"]])["tags"]
    assert ("post_tag", 0, {"self": f"{ROOT}/tags/{tag['id']}", "collection": f"{ROOT}/tags"}) == (
        embedded["taxonomy"],
        embedded["parent"],
        embedded["urls"],
    )


def test_event_embedded_terms_are_ordered_by_name(site: Site) -> None:
    """Categories given as [Music, Jazz] are embedded by name: Jazz, Music."""
    music = site.category()
    jazz = site.category(name="Jazz")
    event = site.event(categories=[music["id"], jazz["id"]])
    assert ["Jazz", "Music"] == [t["name"] for t in event["categories"]]


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
def test_update_event_by_id_answers_200_with_the_change(site: Site, method: str) -> None:
    """POST, PUT and PATCH on /events/<id> update the event and answer 200."""
    event = site.event()
    response = site.request(method, f"/events/{event['id']}", json={"title": "Ball"}, as_="admin")
    assert (200, "Ball") == (response.status_code, response.json()["title"])


def test_update_event_keeps_every_omitted_field(site: Site) -> None:
    """An update changes only the fields it sends (organizers, zone, flags, cost stay)."""
    organizer = site.organizer()
    event = site.event(
        organizer=[organizer["id"]], timezone="Europe/Paris", featured=True, cost="10"
    )
    updated = site.patch(f"/events/{event['id']}", json={"title": "Ball"}, as_="admin").json()
    assert {k: v for k, v in event.items() if k not in ("title", "modified", "modified_utc")} == {
        k: v for k, v in updated.items() if k not in ("title", "modified", "modified_utc")
    }


@pytest.mark.parametrize("cleared", [None, 0, []])
def test_update_event_with_an_empty_venue_clears_it(site: Site, cleared: Any) -> None:
    """``venue`` null, 0 or [] on update removes the venue."""
    event = site.event(venue=site.venue()["id"])
    response = site.patch(f"/events/{event['id']}", json={"venue": cleared}, as_="admin")
    assert (200, []) == (response.status_code, response.json()["venue"])


def test_update_event_sets_a_password(site: Site) -> None:
    """``password`` on update is accepted and protects the event from then on."""
    event = site.event()
    assert (
        200
        == site.patch(
            f"/events/{event['id']}", json={"password": "s3cret"}, as_="admin"
        ).status_code
    )
    assert 403 == site.get(f"/events/{event['id']}").status_code


def test_read_event_by_slug(site: Site) -> None:
    """GET /events/by-slug/<slug> answers the single record, json_ld included."""
    event = site.event()
    response = site.get("/events/by-slug/gala")
    assert (200, event["id"], [*EVENT_KEYS, "json_ld"]) == (
        response.status_code,
        response.json()["id"],
        list(response.json()),
    )


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
def test_update_event_by_slug_answers_200_with_the_change(site: Site, method: str) -> None:
    """POST, PUT and PATCH on /events/by-slug/<slug> update the event (PUT/PATCH too)."""
    event = site.event()
    response = site.request(method, "/events/by-slug/gala", json={"title": "Ball"}, as_="admin")
    assert (200, event["id"], "Ball") == (
        response.status_code,
        response.json()["id"],
        response.json()["title"],
    )


def test_rename_through_the_by_slug_route(site: Site) -> None:
    """A new ``slug`` sent to the by-slug route renames the event."""
    site.event()
    response = site.patch("/events/by-slug/gala", json={"slug": "gala-2031"}, as_="admin")
    assert (200, "gala-2031", SITE + "/event/gala-2031/") == (
        response.status_code,
        response.json()["slug"],
        response.json()["url"],
    )


def test_former_slug_still_resolves_after_a_rename(site: Site) -> None:
    """After a rename the old slug keeps answering with the renamed event."""
    event = site.event()
    site.patch(f"/events/{event['id']}", json={"slug": "gala-2031"}, as_="admin")
    response = site.get("/events/by-slug/gala")
    assert (200, event["id"], "gala-2031") == (
        response.status_code,
        response.json()["id"],
        response.json()["slug"],
    )


def test_delete_event_moves_it_to_the_trash(site: Site) -> None:
    """DELETE /events/<id> answers 200 with the trashed record (``__trashed`` slug)."""
    event = site.event()
    response = site.delete(f"/events/{event['id']}", as_="admin")
    assert (200, "trash", "gala__trashed") == (
        response.status_code,
        response.json()["status"],
        response.json()["slug"],
    )


def test_delete_event_by_slug(site: Site) -> None:
    """DELETE /events/by-slug/<slug> trashes the event and answers it."""
    event = site.event()
    response = site.delete("/events/by-slug/gala", as_="admin")
    assert (200, event["id"], "trash") == (
        response.status_code,
        response.json()["id"],
        response.json()["status"],
    )


def test_trashed_event_stays_readable_by_an_administrator(site: Site) -> None:
    """An administrator still reads a trashed event by id (200, status trash)."""
    event = site.event()
    site.delete(f"/events/{event['id']}", as_="admin")
    response = site.get(f"/events/{event['id']}", as_="admin")
    assert (200, "trash") == (response.status_code, response.json()["status"])


def test_event_id_path_accepts_a_trailing_slash(site: Site) -> None:
    """/events/<id>/ answers like /events/<id>."""
    event = site.event()
    assert 200 == site.get(f"/events/{event['id']}/").status_code


# -- events: lists --------------------------------------------------------------------------


def three_events(site: Site) -> list[dict[str, Any]]:
    """Three published events in 2031, created out of date order."""
    return [
        site.event(title="C", start_date="2031-08-01 10:00", end_date="2031-08-01 11:00"),
        site.event(title="A", start_date="2031-06-01 10:00", end_date="2031-06-01 11:00"),
        site.event(title="B", start_date="2031-07-01 10:00", end_date="2031-07-01 11:00"),
    ]


def test_empty_event_list_is_the_bare_envelope(site: Site) -> None:
    """GET /events on an empty calendar: no events, totals 0, rest_url with the window."""
    assert {
        "events": [],
        "rest_url": f"{ROOT}/events/?page=1&per_page=10&start_date=2031-01-09+00%3A00%3A00"
        "&end_date=2033-01-10+23%3A59%3A59&status=publish",
        "total": 0,
        "total_pages": 0,
    } == site.get("/events").json()


def test_event_list_is_ordered_by_start(site: Site) -> None:
    """Events are listed by start date, earliest first."""
    three_events(site)
    assert ["A", "B", "C"] == titles(site.get("/events"))


def test_event_list_envelope_keys_on_a_middle_page(site: Site) -> None:
    """A middle page's envelope: events, rest_url, next, previous, total, total_pages."""
    three_events(site)
    body = site.get("/events", params={"per_page": 1, "page": 2}).json()
    assert [
        "events",
        "rest_url",
        "next_rest_url",
        "previous_rest_url",
        "total",
        "total_pages",
    ] == list(body)
    assert (["B"], 3, 3) == (
        [e["title"] for e in body["events"]],
        body["total"],
        body["total_pages"],
    )


def test_event_list_first_page_has_no_previous_link(site: Site) -> None:
    """Page 1 of several has next_rest_url and no previous_rest_url."""
    three_events(site)
    body = site.get("/events", params={"per_page": 2}).json()
    assert ["events", "rest_url", "next_rest_url", "total", "total_pages"] == list(body)


def test_event_list_last_page_has_no_next_link(site: Site) -> None:
    """The last page has previous_rest_url and no next_rest_url."""
    three_events(site)
    body = site.get("/events", params={"per_page": 2, "page": 2}).json()
    assert ["events", "rest_url", "previous_rest_url", "total", "total_pages"] == list(body)


def test_event_list_totals_travel_in_headers(site: Site) -> None:
    """X-TEC-Total and X-TEC-TotalPages repeat total and total_pages."""
    three_events(site)
    response = site.get("/events", params={"per_page": 2})
    assert ("3", "2") == (response.headers["X-TEC-Total"], response.headers["X-TEC-TotalPages"])


def test_event_list_rest_url_echoes_the_effective_query(site: Site) -> None:
    """rest_url names page, per_page, the day-rounded default window and status publish."""
    three_events(site)
    assert (
        ROOT + "/events/",
        [("page", "1"), ("per_page", "10"), *WINDOW, ("status", "publish")],
    ) == url_parts(site.get("/events").json()["rest_url"])


def test_event_list_rest_url_rounds_given_bounds_to_whole_days(site: Site) -> None:
    """Given start/end dates appear in rest_url as 00:00:00 and 23:59:59 of their days."""
    body = site.get("/events", params={"start_date": "2031-01-01", "end_date": "2032-12-31"})
    assert (
        ROOT + "/events/",
        [
            ("page", "1"),
            ("per_page", "10"),
            ("start_date", "2031-01-01 00:00:00"),
            ("end_date", "2032-12-31 23:59:59"),
            ("status", "publish"),
        ],
    ) == url_parts(body.json()["rest_url"])


def test_editor_event_list_rest_url_asks_for_any_status(site: Site) -> None:
    """For users who may list drafts the echoed status is ``any``."""
    assert ("status", "any") == url_parts(site.get("/events", as_="editor").json()["rest_url"])[1][
        -1
    ]


def test_next_rest_url_moves_page_to_the_end(site: Site) -> None:
    """next_rest_url is rest_url without page, then ``page=N+1`` last."""
    three_events(site)
    body = site.get("/events", params={"per_page": 1}).json()
    assert (
        ROOT + "/events/",
        [("per_page", "1"), *WINDOW, ("status", "publish"), ("page", "2")],
    ) == url_parts(body["next_rest_url"])


def test_previous_rest_url_from_page_two_has_no_page(site: Site) -> None:
    """From page 2, previous_rest_url leaves page out."""
    three_events(site)
    body = site.get("/events", params={"per_page": 1, "page": 2}).json()
    assert (ROOT + "/events/", [("per_page", "1"), *WINDOW, ("status", "publish")]) == url_parts(
        body["previous_rest_url"]
    )


def test_previous_rest_url_from_page_three_names_page_two(site: Site) -> None:
    """From page 3, previous_rest_url ends with ``page=2``."""
    three_events(site)
    body = site.get("/events", params={"per_page": 1, "page": 3}).json()
    assert (
        ROOT + "/events/",
        [("per_page", "1"), *WINDOW, ("status", "publish"), ("page", "2")],
    ) == url_parts(body["previous_rest_url"])


def test_per_page_above_the_maximum_is_clamped_to_50(site: Site) -> None:
    """per_page=1000 lists 50 per page and says so in rest_url."""
    response = site.get("/events", params={"per_page": 1000})
    assert (200, ("per_page", "50")) == (
        response.status_code,
        url_parts(response.json()["rest_url"])[1][1],
    )


def test_default_per_page_comes_from_the_calendar_settings() -> None:
    """A calendar set to 4 per page lists 4 per page by default."""
    site = Site(settings=ec.Settings(per_page=4))
    for n in range(5):
        site.event(
            title=f"E{n}", start_date=f"2031-06-0{n + 1} 10:00", end_date=f"2031-06-0{n + 1} 11:00"
        )
    body = site.get("/events").json()
    assert (4, 5, 2) == (len(body["events"]), body["total"], body["total_pages"])


def test_hidden_events_are_left_out_of_lists_but_readable(site: Site) -> None:
    """hide_from_listings keeps an event out of GET /events; its own route still answers."""
    event = site.event(hide_from_listings=True)
    assert ([], 200) == (
        titles(site.get("/events")),
        site.get(f"/events/{event['id']}").status_code,
    )


def test_event_list_items_have_no_json_ld(site: Site) -> None:
    """Listed events carry the 40 record keys, without json_ld."""
    site.event()
    assert [EVENT_KEYS] == [list(e) for e in site.get("/events").json()["events"]]


def test_event_list_rest_url_keeps_category_and_tag_filters(site: Site) -> None:
    """rest_url keeps ``categories`` and ``tags`` (the reference drops them)."""
    music = site.category()
    outdoor = site.tag()
    site.event(categories=[music["id"]], tags=[outdoor["id"]])
    pairs = url_parts(
        site.get("/events", params={"categories": "music", "tags": "outdoor"}).json()["rest_url"]
    )[1]
    assert {("categories", "music"), ("tags", "outdoor")} <= set(pairs)


# -- query parameters: CSV and array forms, booleans ---------------------------------------


def categorised(site: Site) -> dict[str, int]:
    """Events A (Music), B (Sport), C (Talks); returns the category ids by name."""
    ids = {name: site.category(name=name)["id"] for name in ("Music", "Sport", "Talks")}
    for title, name, day in (("A", "Music", 1), ("B", "Sport", 2), ("C", "Talks", 3)):
        site.event(
            title=title,
            start_date=f"2031-06-0{day} 10:00",
            end_date=f"2031-06-0{day} 11:00",
            categories=[ids[name]],
        )
    return ids


def test_categories_filter_as_csv(site: Site) -> None:
    """``categories=1,2`` lists events in either category."""
    ids = categorised(site)
    response = site.get("/events", params={"categories": f"{ids['Music']},{ids['Sport']}"})
    assert ["A", "B"] == titles(response)


def test_categories_filter_as_array(site: Site) -> None:
    """``categories[]=1&categories[]=2`` lists events in either category."""
    ids = categorised(site)
    response = site.get(
        "/events", params=[("categories[]", ids["Music"]), ("categories[]", ids["Sport"])]
    )
    assert ["A", "B"] == titles(response)


def test_categories_filter_mixes_ids_and_slugs(site: Site) -> None:
    """Category slugs and ids may be mixed in one filter."""
    ids = categorised(site)
    assert ["A", "C"] == titles(site.get("/events", params={"categories": f"{ids['Music']},talks"}))


def test_tags_filter_matches_any_of_several_tags(site: Site) -> None:
    """``tags=outdoor,family`` lists events with either tag (not only the first)."""
    outdoor = site.tag(name="Outdoor")
    family = site.tag(name="Family")
    site.event(
        title="A", tags=[outdoor["id"]], start_date="2031-06-01 10:00", end_date="2031-06-01 11:00"
    )
    site.event(
        title="B", tags=[family["id"]], start_date="2031-06-02 10:00", end_date="2031-06-02 11:00"
    )
    assert ["A", "B"] == titles(site.get("/events", params={"tags": "outdoor,family"}))


@pytest.mark.parametrize("form", ["csv", "array"])
def test_include_restricts_to_the_given_ids(site: Site, form: str) -> None:
    """``include`` as CSV or ``include[]`` lists only those events, by publication then id."""
    c, a, _b = three_events(site)
    ids = [c["id"], a["id"]]
    params: Any = (
        {"include": ",".join(map(str, ids))} if form == "csv" else [("include[]", i) for i in ids]
    )
    assert ["C", "A"] == titles(site.get("/events", params=params))


def test_include_ignores_date_filters(site: Site) -> None:
    """``include`` finds an event outside both the given and the default window."""
    old = site.event(title="Old", start_date="2020-03-01 10:00", end_date="2020-03-01 11:00")
    response = site.get(
        "/events",
        params={"include": old["id"], "start_date": "2031-01-01", "end_date": "2031-12-31"},
    )
    assert ["Old"] == titles(response)


@pytest.mark.parametrize("form", ["csv", "array"])
def test_venue_filter_accepts_several_ids(site: Site, form: str) -> None:
    """``venue`` as a CSV list or an array matches events at any of those venues."""
    hall = site.venue(venue="Hall")
    park = site.venue(venue="Park")
    site.venue(venue="Club")
    site.event(
        title="A", venue=hall["id"], start_date="2031-06-01 10:00", end_date="2031-06-01 11:00"
    )
    site.event(
        title="B", venue=park["id"], start_date="2031-06-02 10:00", end_date="2031-06-02 11:00"
    )
    site.event(title="C", start_date="2031-06-03 10:00", end_date="2031-06-03 11:00")
    ids = [hall["id"], park["id"]]
    params: Any = (
        {"venue": f"{ids[0]},{ids[1]}"} if form == "csv" else [("venue[]", i) for i in ids]
    )
    assert ["A", "B"] == titles(site.get("/events", params=params))


def test_organizer_filter_accepts_a_csv_list(site: Site) -> None:
    """``organizer=1,2`` matches events with any of those organizers."""
    one = site.organizer(organizer="One")
    two = site.organizer(organizer="Two")
    site.event(
        title="A", organizer=[one["id"]], start_date="2031-06-01 10:00", end_date="2031-06-01 11:00"
    )
    site.event(
        title="B", organizer=[two["id"]], start_date="2031-06-02 10:00", end_date="2031-06-02 11:00"
    )
    site.event(title="C", start_date="2031-06-03 10:00", end_date="2031-06-03 11:00")
    assert ["A", "B"] == titles(
        site.get("/events", params={"organizer": f"{one['id']},{two['id']}"})
    )


def test_unknown_query_parameters_are_ignored(site: Site) -> None:
    """An unknown parameter changes nothing."""
    three_events(site)
    assert ["A", "B", "C"] == titles(site.get("/events", params={"frobnicate": "1"}))


@pytest.mark.parametrize(
    ("value", "expected"),
    [("true", ["Featured"]), ("1", ["Featured"]), ("false", ["Plain"]), ("0", ["Plain"])],
)
def test_featured_filter_reads_reference_booleans(
    site: Site, value: str, expected: list[str]
) -> None:
    """``featured`` accepts true/1 and false/0 as booleans."""
    site.event(title="Featured", featured=True)
    site.event(title="Plain", start_date="2031-06-16 10:00", end_date="2031-06-16 11:00")
    assert expected == titles(site.get("/events", params={"featured": value}))


@pytest.mark.parametrize(
    ("value", "total"), [("true", 0), ("1", 0), ("yes", 0), ("on", 0), ("false", 1), ("0", 1)]
)
def test_strict_dates_reads_truthy_strings(site: Site, value: str, total: int) -> None:
    """strict_dates true/1/yes/on compares the exact times; false/0 rounds to whole days."""
    site.event()  # 19:00-23:00 on 2031-06-15
    params = {
        "start_date": "2031-06-15 20:00:00",
        "end_date": "2031-06-15 23:30:00",
        "strict_dates": value,
    }
    assert total == site.get("/events", params=params).json()["total"]


def test_event_booleans_given_as_strings_on_create(site: Site) -> None:
    """ "true", "1", "0" and "false" are read as booleans in an event body."""
    event = site.event(
        all_day="false", featured="true", sticky="1", show_map="0", hide_from_listings="false"
    )
    assert {
        "all_day": False,
        "featured": True,
        "sticky": True,
        "show_map": False,
        "hide_from_listings": False,
    } == {k: event[k] for k in ("all_day", "featured", "sticky", "show_map", "hide_from_listings")}


@pytest.mark.parametrize(
    ("value", "shown"), [("true", True), ("false", False), (True, True), (False, False)]
)
def test_venue_show_map_accepts_strings_and_booleans(site: Site, value: Any, shown: bool) -> None:
    """Venue show_map reads "true"/"false" and JSON booleans."""
    assert shown is site.venue(show_map=value)["show_map"]


@pytest.mark.parametrize(
    ("value", "expected"), [("true", ["Used"]), ("1", ["Used"]), ("false", ["Unused"])]
)
def test_has_events_filter_reads_truthy_strings(
    site: Site, value: str, expected: list[str]
) -> None:
    """Venue lists with has_events true/1 keep venues with events; false the others."""
    used = site.venue(venue="Used")
    site.venue(venue="Unused")
    site.event(venue=used["id"])
    body = site.get("/venues", params={"has_events": value}).json()
    assert expected == [v["venue"] for v in body["venues"]]


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({}, ["Used"]),
        ({"hide_empty": "0"}, ["Unused", "Used"]),
        ({"hide_empty": "false"}, ["Unused", "Used"]),
        ({"hide_empty": "1"}, ["Used"]),
    ],
)
def test_hide_empty_hides_unused_terms_unless_false(
    site: Site, params: dict[str, str], expected: list[str]
) -> None:
    """Term lists hide terms with no events by default and with hide_empty=1, not with 0/false."""
    used = site.category(name="Used")
    site.category(name="Unused")
    site.event(categories=[used["id"]])
    assert expected == [
        c["name"] for c in site.get("/categories", params=params).json()["categories"]
    ]


# -- bodies: JSON, forms, malformed -----------------------------------------------------------


def test_create_event_from_a_form_body(site: Site) -> None:
    """A form-encoded POST creates the event like a JSON one."""
    response = site.post(
        "/events",
        data={
            "title": "Form Gala",
            "start_date": "2031-06-15 19:00",
            "end_date": "2031-06-15 23:00",
            "featured": "1",
        },
        as_="admin",
    )
    assert (201, "Form Gala", True) == (
        response.status_code,
        response.json()["title"],
        response.json()["featured"],
    )


def test_form_body_lists_use_brackets(site: Site) -> None:
    """``categories[]`` repeated in a form body links every category."""
    music = site.category()
    jazz = site.category(name="Jazz")
    response = site.post(
        "/events",
        data={
            "title": "Form Gala",
            "start_date": "2031-06-15 19:00",
            "end_date": "2031-06-15 23:00",
            "categories[]": [str(music["id"]), str(jazz["id"])],
        },
        as_="admin",
    )
    assert ["Jazz", "Music"] == [c["name"] for c in response.json()["categories"]]


def test_update_event_from_a_form_body(site: Site) -> None:
    """A form-encoded PATCH updates like a JSON one."""
    event = site.event()
    response = site.patch(f"/events/{event['id']}", data={"title": "Ball"}, as_="admin")
    assert (200, "Ball") == (response.status_code, response.json()["title"])


def test_json_body_wins_over_the_query_string(site: Site) -> None:
    """A field in both the JSON body and the query string takes the body's value."""
    response = site.post(
        "/events",
        params={"title": "From query"},
        json={
            "title": "From body",
            "start_date": "2031-06-15 19:00",
            "end_date": "2031-06-15 23:00",
        },
        as_="admin",
    )
    assert "From body" == response.json()["title"]


def test_query_string_fields_are_read_on_create(site: Site) -> None:
    """Fields sent only in the query string of a POST are used, as WordPress does."""
    response = site.post(
        "/events",
        params={
            "title": "Query Gala",
            "start_date": "2031-06-15 19:00",
            "end_date": "2031-06-15 23:00",
        },
        as_="admin",
    )
    assert (201, "Query Gala") == (response.status_code, response.json()["title"])


def test_invalid_json_body_is_rest_invalid_json(site: Site) -> None:
    """A body that is not JSON answers 400 rest_invalid_json, as the reference words it."""
    response = site.post(
        "/events",
        content=b'{"title": "Broken", "start_date": ',
        headers={"Content-Type": "application/json"},
        as_="admin",
    )
    assert (
        400,
        {
            "code": "rest_invalid_json",
            "message": "Invalid JSON body passed.",
            "data": {"status": 400, "json_error_code": 4, "json_error_message": "Syntax error"},
        },
    ) == (response.status_code, response.json())


# -- HEAD, OPTIONS and routing ---------------------------------------------------------------


@pytest.mark.parametrize("path", ["/events", "/venues", "/organizers", "/categories", "/tags"])
def test_head_answers_the_list_headers_without_a_body(site: Site, path: str) -> None:
    """HEAD on a list route: 200, an empty body, the same total and type headers as GET."""
    three_events(site)
    head = site.head(path)
    get = site.get(path)
    names = ("x-tec-total", "x-tec-totalpages", "content-type", "allow")
    assert (200, b"", [get.headers[n] for n in names]) == (
        head.status_code,
        head.content,
        [head.headers[n] for n in names],
    )


def test_head_on_a_single_event(site: Site) -> None:
    """HEAD /events/<id> answers 200 with no body."""
    event = site.event()
    response = site.head(f"/events/{event['id']}")
    assert (200, b"") == (response.status_code, response.content)


def test_options_describes_the_events_route(site: Site) -> None:
    """OPTIONS /events answers the route's description: namespace, methods, endpoints, links."""
    response = site.request("OPTIONS", "/events")
    body = response.json()
    assert (200, ["namespace", "methods", "endpoints", "_links"], ["GET", "POST"]) == (
        response.status_code,
        list(body),
        body["methods"],
    )
    assert {"self": [{"href": ROOT + "/events"}]} == body["_links"]


def test_allow_header_names_the_methods_the_caller_may_use(site: Site) -> None:
    """Allow is ``GET`` for an anonymous caller and ``GET, POST`` for an administrator."""
    assert ("GET", "GET, POST") == (
        site.get("/events").headers["Allow"],
        site.get("/events", as_="admin").headers["Allow"],
    )


def test_allow_header_on_a_record_follows_that_record(site: Site) -> None:
    """On one event, Allow lists the writes only if that id is an event the caller may edit:
    not for a venue's id on the events route, nor for anonymous callers."""
    event = site.event()
    venue = site.venue()
    assert ("GET, DELETE, POST, PUT, PATCH", "GET", "GET") == (
        site.get(f"/events/{event['id']}", as_="admin").headers["Allow"],
        site.get(f"/events/{venue['id']}", as_="admin").headers["Allow"],
        site.get(f"/events/{event['id']}").headers["Allow"],
    )


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/nope"),
        ("GET", "/events/1/attendees"),
        ("DELETE", "/events"),
        ("PATCH", "/events"),
        ("PUT", "/venues"),
        ("DELETE", "/organizers"),
        ("POST", "/doc"),
        ("DELETE", "/categories"),
        ("GET", "/categories/by-slug/music"),
        ("GET", "/tags/by-slug/outdoor"),
        ("GET", "/events/by-slug/"),
    ],
)
def test_unknown_routes_and_methods_are_rest_no_route(site: Site, method: str, path: str) -> None:
    """A path or method the API does not register answers 404 rest_no_route."""
    response = site.request(method, path, as_="admin")
    assert (404, NO_ROUTE) == (response.status_code, response.json())


@pytest.mark.parametrize(
    "path",
    ["/events/abc", "/venues/foo", "/organizers/x1", "/categories/jazz", "/tags/1.5", "/events/-1"],
)
def test_non_numeric_ids_match_no_route(site: Site, path: str) -> None:
    """An id that is not digits matches no route: 404 rest_no_route."""
    response = site.get(path)
    assert (404, NO_ROUTE) == (response.status_code, response.json())


def test_another_api_version_matches_no_route(site: Site) -> None:
    """/wp-json/tribe/events/v2/events is not served."""
    response = site.raw("GET", "/wp-json/tribe/events/v2/events")
    assert (404, NO_ROUTE) == (response.status_code, response.json())


# -- a custom mount point -------------------------------------------------------------------


@pytest.fixture
def mounted() -> Site:
    return Site(base_path="/api", vendor="acme")


def test_custom_mount_serves_the_index_under_its_namespace(mounted: Site) -> None:
    """base_path=/api, vendor=acme: the index names acme/events/v1 and links up to /api/."""
    body = mounted.get("").json()
    assert ("acme/events/v1", {"up": [{"href": SITE + "/api/"}]}) == (
        body["namespace"],
        body["_links"],
    )


def test_custom_mount_builds_record_urls_under_it(mounted: Site) -> None:
    """Records served from a custom mount link to it."""
    event = mounted.event()
    assert f"{SITE}/api/acme/events/v1/events/{event['id']}" == event["rest_url"]


def test_custom_mount_builds_list_urls_under_it(mounted: Site) -> None:
    """List rest_url starts with the custom collection URL."""
    rest_url = mounted.get("/events").json()["rest_url"]
    assert SITE + "/api/acme/events/v1/events/" == url_parts(rest_url)[0]


def test_custom_mount_term_urls(mounted: Site) -> None:
    """Term urls point at the custom mount."""
    category = mounted.category()
    assert {
        "self": f"{SITE}/api/acme/events/v1/categories/{category['id']}",
        "collection": f"{SITE}/api/acme/events/v1/categories",
    } == category["urls"]


def test_custom_mount_leaves_the_default_path_unserved(mounted: Site) -> None:
    """With a custom mount, /wp-json/tribe/events/v1/events is not a route."""
    response = mounted.raw("GET", "/wp-json/tribe/events/v1/events")
    assert (404, NO_ROUTE) == (response.status_code, response.json())


# -- venues ---------------------------------------------------------------------------------

FULL_VENUE = {
    "venue": "Grand Hall",
    "description": "A large concert hall.",
    "address": "1 Main Street",
    "city": "Springfield",
    "country": "United States",
    "province": "Sangamon",
    "state": "IL",
    "zip": "62701",
    "phone": "+1 217 555 0100",
    "website": "https://grandhall.example.org",
    "stateprovince": "IL",
    "show_map": "true",
    "show_map_link": "false",
}


def test_venue_fields_outside_the_interface_are_ignored_over_http(site: Site) -> None:
    """A venue ``excerpt`` or ``slug`` in a body is ignored, as the reference ignores unknown
    arguments; the interface (spec 2.2) lists neither for venues."""
    created = site.post(
        "/venues", as_="admin", json={"venue": "Quiet Hall", "excerpt": "x", "slug": "custom"}
    ).json()
    assert ("quiet-hall", False) == (created["slug"], "excerpt" in created)


def test_create_venue_answers_201_with_every_key_in_order(site: Site) -> None:
    """POST /venues answers 201; a venue with every field has the reference's keys in order."""
    response = site.post("/venues", json=FULL_VENUE, as_="admin")
    assert (201, VENUE_KEYS) == (response.status_code, list(response.json()))


def test_created_venue_values(site: Site) -> None:
    """A venue record shows its fields as given, author as a string, map flags as booleans."""
    venue = site.venue(**FULL_VENUE)
    number = venue["id"]
    assert {
        "id": number,
        "author": "1",
        "status": "publish",
        "date": NOW_TEXT,
        "date_utc": NOW_TEXT,
        "modified": NOW_TEXT,
        "modified_utc": NOW_TEXT,
        "url": SITE + "/venue/grand-hall/",
        **{k: v for k, v in FULL_VENUE.items() if not k.startswith("show_map")},
        "slug": "grand-hall",
        "show_map": True,
        "show_map_link": False,
        "global_id": f"testserver?id={number}",
        "global_id_lineage": [f"testserver?id={number}"],
    } == venue


def test_venue_drops_empty_fields(site: Site) -> None:
    """A venue with only a name has no address, city ... keys (and no rest_url)."""
    assert [
        "id",
        "author",
        "status",
        "date",
        "date_utc",
        "modified",
        "modified_utc",
        "url",
        "venue",
        "slug",
        "show_map",
        "show_map_link",
        "global_id",
        "global_id_lineage",
    ] == list(site.venue())


def test_venue_read_adds_json_ld_before_the_map_flags(site: Site) -> None:
    """GET /venues/<id> adds json_ld just before show_map."""
    venue = site.venue(**FULL_VENUE)
    response = site.get(f"/venues/{venue['id']}")
    at = VENUE_KEYS.index("show_map")
    keys = [*VENUE_KEYS[:at], "json_ld", *VENUE_KEYS[at:]]
    assert (200, keys) == (response.status_code, list(response.json()))


def test_venue_read_by_slug(site: Site) -> None:
    """GET /venues/by-slug/<slug> answers the venue."""
    venue = site.venue()
    response = site.get("/venues/by-slug/town-hall")
    assert (200, venue["id"]) == (response.status_code, response.json()["id"])


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
def test_update_venue_by_id(site: Site, method: str) -> None:
    """POST, PUT and PATCH on /venues/<id> update the venue (200)."""
    venue = site.venue()
    response = site.request(method, f"/venues/{venue['id']}", json={"city": "Lyon"}, as_="admin")
    assert (200, "Lyon", "Town Hall") == (
        response.status_code,
        response.json()["city"],
        response.json()["venue"],
    )


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
def test_update_venue_by_slug(site: Site, method: str) -> None:
    """POST, PUT and PATCH on /venues/by-slug/<slug> update the venue (200)."""
    venue = site.venue()
    response = site.request(method, "/venues/by-slug/town-hall", json={"zip": "69001"}, as_="admin")
    assert (200, venue["id"], "69001") == (
        response.status_code,
        response.json()["id"],
        response.json()["zip"],
    )


def test_update_venue_with_an_empty_string_drops_the_field(site: Site) -> None:
    """Sending ``city: ""`` clears the city, so the key disappears."""
    venue = site.venue(city="Lyon")
    response = site.patch(f"/venues/{venue['id']}", json={"city": ""}, as_="admin")
    assert "city" not in response.json()


def test_delete_venue_by_id(site: Site) -> None:
    """DELETE /venues/<id> answers 200 with the trashed venue."""
    venue = site.venue()
    response = site.delete(f"/venues/{venue['id']}", as_="admin")
    assert (200, "trash", "town-hall__trashed") == (
        response.status_code,
        response.json()["status"],
        response.json()["slug"],
    )


def test_delete_venue_by_slug(site: Site) -> None:
    """DELETE /venues/by-slug/<slug> trashes the venue."""
    venue = site.venue()
    response = site.delete("/venues/by-slug/town-hall", as_="admin")
    assert (200, venue["id"], "trash") == (
        response.status_code,
        response.json()["id"],
        response.json()["status"],
    )


def test_trashing_a_venue_unlinks_it_from_events(site: Site) -> None:
    """After its venue is trashed an event shows ``venue: []``."""
    venue = site.venue()
    event = site.event(venue=venue["id"])
    site.delete(f"/venues/{venue['id']}", as_="admin")
    assert [] == site.get(f"/events/{event['id']}").json()["venue"]


def test_creating_a_venue_twice_returns_the_existing_one(site: Site) -> None:
    """A second create with the same name answers 201 with the first venue (de-duplication)."""
    first = site.venue()
    response = site.post("/venues", json={"venue": "town hall"}, as_="admin")
    assert (201, first["id"]) == (response.status_code, response.json()["id"])


def test_venue_list_envelope_and_rest_url(site: Site) -> None:
    """GET /venues: venues, rest_url (page, per_page, status), total, total_pages."""
    site.venue()
    body = site.get("/venues").json()
    assert (
        ["venues", "rest_url", "total", "total_pages"],
        (ROOT + "/venues/", [("page", "1"), ("per_page", "10"), ("status", "publish")]),
    ) == (list(body), url_parts(body["rest_url"]))


def test_venue_list_is_newest_first(site: Site) -> None:
    """Venues are listed by publication date, newest first."""
    for name, day in (("First", 1), ("Third", 3), ("Second", 2)):
        site.venue(venue=name, date=f"2021-01-0{day} 10:00:00")
    assert ["Third", "Second", "First"] == [
        v["venue"] for v in site.get("/venues").json()["venues"]
    ]


def test_venue_list_middle_page_links(site: Site) -> None:
    """Page 2 of 3 venues links to pages 3 and 1 (without page) and sends the totals."""
    for n in range(3):
        site.venue(venue=f"V{n}", date=f"2021-01-0{n + 1} 10:00:00")
    response = site.get("/venues", params={"per_page": 1, "page": 2})
    body = response.json()
    assert (
        (ROOT + "/venues/", [("per_page", "1"), ("status", "publish"), ("page", "3")]),
        (ROOT + "/venues/", [("per_page", "1"), ("status", "publish")]),
        ("3", "3"),
    ) == (
        url_parts(body["next_rest_url"]),
        url_parts(body["previous_rest_url"]),
        (response.headers["X-TEC-Total"], response.headers["X-TEC-TotalPages"]),
    )


# -- organizers -----------------------------------------------------------------------------

FULL_ORGANIZER = {
    "organizer": "Acme Events",
    "description": "We organise things.",
    "phone": "+1 555 0101",
    "website": "https://acme.example.com",
    "email": "info@acme.example.com",
}


def test_create_organizer_answers_201_with_every_key_in_order(site: Site) -> None:
    """POST /organizers answers 201 with the reference's keys in order."""
    response = site.post("/organizers", json=FULL_ORGANIZER, as_="admin")
    assert (201, ORGANIZER_KEYS) == (response.status_code, list(response.json()))


def test_organizer_drops_empty_fields(site: Site) -> None:
    """An organizer with only a name has no phone, website, email keys."""
    assert [
        "id",
        "author",
        "status",
        "date",
        "date_utc",
        "modified",
        "modified_utc",
        "url",
        "organizer",
        "slug",
        "global_id",
        "global_id_lineage",
    ] == list(site.organizer())


def test_organizer_read_adds_json_ld_before_global_id(site: Site) -> None:
    """GET /organizers/<id> adds json_ld just before global_id."""
    organizer = site.organizer(**FULL_ORGANIZER)
    response = site.get(f"/organizers/{organizer['id']}")
    at = ORGANIZER_KEYS.index("global_id")
    keys = [*ORGANIZER_KEYS[:at], "json_ld", *ORGANIZER_KEYS[at:]]
    assert (200, keys) == (response.status_code, list(response.json()))


def test_organizer_read_by_slug(site: Site) -> None:
    """GET /organizers/by-slug/<slug> answers the organizer."""
    organizer = site.organizer()
    response = site.get("/organizers/by-slug/acme-events")
    assert (200, organizer["id"]) == (response.status_code, response.json()["id"])


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
def test_update_organizer_by_id(site: Site, method: str) -> None:
    """POST, PUT and PATCH on /organizers/<id> update the organizer (200)."""
    organizer = site.organizer()
    response = site.request(
        method, f"/organizers/{organizer['id']}", json={"phone": "555-0202"}, as_="admin"
    )
    assert (200, "555-0202") == (response.status_code, response.json()["phone"])


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
def test_update_organizer_by_slug(site: Site, method: str) -> None:
    """POST, PUT and PATCH on /organizers/by-slug/<slug> update the organizer (200)."""
    organizer = site.organizer()
    response = site.request(
        method, "/organizers/by-slug/acme-events", json={"email": "a@acme.example"}, as_="admin"
    )
    assert (200, organizer["id"], "a@acme.example") == (
        response.status_code,
        response.json()["id"],
        response.json()["email"],
    )


def test_update_organizer_with_an_empty_email_drops_the_key(site: Site) -> None:
    """``email: ""`` removes the email, and the key with it."""
    organizer = site.organizer(email="a@acme.example")
    response = site.patch(f"/organizers/{organizer['id']}", json={"email": ""}, as_="admin")
    assert "email" not in response.json()


def test_delete_organizer_by_id(site: Site) -> None:
    """DELETE /organizers/<id> answers 200 with the trashed organizer."""
    organizer = site.organizer()
    response = site.delete(f"/organizers/{organizer['id']}", as_="admin")
    assert (200, "trash") == (response.status_code, response.json()["status"])


def test_delete_organizer_by_slug(site: Site) -> None:
    """DELETE /organizers/by-slug/<slug> trashes the organizer."""
    organizer = site.organizer()
    response = site.delete("/organizers/by-slug/acme-events", as_="admin")
    assert (200, organizer["id"], "trash") == (
        response.status_code,
        response.json()["id"],
        response.json()["status"],
    )


def test_organizer_list_envelope_and_rest_url(site: Site) -> None:
    """GET /organizers: organizers, rest_url, total, total_pages; X-TEC headers."""
    site.organizer()
    response = site.get("/organizers")
    body = response.json()
    assert (
        ["organizers", "rest_url", "total", "total_pages"],
        (ROOT + "/organizers/", [("page", "1"), ("per_page", "10"), ("status", "publish")]),
        ("1", "1"),
    ) == (
        list(body),
        url_parts(body["rest_url"]),
        (response.headers["X-TEC-Total"], response.headers["X-TEC-TotalPages"]),
    )


# -- categories and tags --------------------------------------------------------------------


def test_create_category_answers_201_with_location_of_its_record(site: Site) -> None:
    """POST /categories answers 201 and a Location header pointing at our own term route."""
    response = site.post("/categories", json={"name": "Music"}, as_="admin")
    number = response.json()["id"]
    assert (201, f"{ROOT}/categories/{number}") == (
        response.status_code,
        response.headers["Location"],
    )


def test_created_category_has_the_listed_shape_with_links(site: Site) -> None:
    """A created category has the /categories shape plus ``_links``."""
    assert [*LISTED_CATEGORY_KEYS, "_links"] == list(site.category())


def test_category_read_answers_the_reference_body(site: Site) -> None:
    """GET /categories/<child id> as anonymous answers the recorded shape, value for value."""
    music = site.category(description="All things music")
    jazz = site.category(name="Jazz", description="Swing and bebop", parent=music["id"])
    core = SITE + "/wp-json/wp/v2"
    number, parent = jazz["id"], music["id"]
    assert {
        "id": number,
        "count": 0,
        "description": "Swing and bebop",
        "name": "Jazz",
        "slug": "jazz",
        "taxonomy": "tribe_events_cat",
        "parent": parent,
        "meta": [],
        "url": SITE + "/events/category/music/jazz/",
        "urls": {
            "self": f"{ROOT}/categories/{number}",
            "collection": f"{ROOT}/categories",
            "up": f"{ROOT}/categories/{parent}",
        },
        "_links": {
            "self": [
                {"href": f"{core}/tribe_events_cat/{number}", "targetHints": {"allow": ["GET"]}}
            ],
            "collection": [{"href": f"{core}/tribe_events_cat"}],
            "about": [{"href": f"{core}/taxonomies/tribe_events_cat"}],
            "up": [{"embeddable": True, "href": f"{core}/tribe_events_cat/{parent}"}],
            "wp:post_type": [
                {"href": f"{core}/tribe_events?tribe_events_cat={number}"},
                {"href": f"{core}/tec_calendar_embed?tribe_events_cat={number}"},
            ],
            "curies": [{"name": "wp", "href": "https://api.w.org/{rel}", "templated": True}],
        },
    } == site.get(f"/categories/{number}").json()


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
def test_update_category(site: Site, method: str) -> None:
    """POST, PUT and PATCH on /categories/<id> update the category (200)."""
    category = site.category()
    response = site.request(
        method, f"/categories/{category['id']}", json={"description": "Sounds"}, as_="admin"
    )
    assert (200, "Sounds", [*LISTED_CATEGORY_KEYS, "_links"]) == (
        response.status_code,
        response.json()["description"],
        list(response.json()),
    )


def test_reparent_a_category(site: Site) -> None:
    """PATCH parent moves a category under another; its url follows."""
    music = site.category()
    jazz = site.category(name="Jazz")
    body = site.patch(f"/categories/{jazz['id']}", json={"parent": music["id"]}, as_="admin").json()
    assert (music["id"], SITE + "/events/category/music/jazz/") == (body["parent"], body["url"])


def test_delete_category_answers_the_term_without_links(site: Site) -> None:
    """DELETE /categories/<id> answers 200 with the term as it was, without ``_links``."""
    category = site.category()
    response = site.delete(f"/categories/{category['id']}", as_="admin")
    assert (200, LISTED_CATEGORY_KEYS, "Music") == (
        response.status_code,
        list(response.json()),
        response.json()["name"],
    )


def test_deleted_category_is_gone_for_good(site: Site) -> None:
    """A deleted category no longer reads (400: unknown id)."""
    category = site.category()
    site.delete(f"/categories/{category['id']}", as_="admin")
    assert 400 == site.get(f"/categories/{category['id']}").status_code


def test_children_of_a_deleted_category_move_up(site: Site) -> None:
    """Deleting a parent category leaves its children with parent 0."""
    music = site.category()
    jazz = site.category(name="Jazz", parent=music["id"])
    site.delete(f"/categories/{music['id']}", as_="admin")
    assert 0 == site.get(f"/categories/{jazz['id']}").json()["parent"]


def test_category_list_envelope_key_order_on_a_middle_page(site: Site) -> None:
    """Term lists put rest_url and totals first, the items, then next and previous."""
    for name in ("A", "B", "C"):
        site.category(name=name)
    response = site.get("/categories", params={"hide_empty": "0", "per_page": 1, "page": 2})
    body = response.json()
    assert (
        ["rest_url", "total", "total_pages", "categories", "next_rest_url", "previous_rest_url"],
        ("3", "3"),
    ) == (list(body), (response.headers["X-TEC-Total"], response.headers["X-TEC-TotalPages"]))


def test_category_list_items_have_no_links(site: Site) -> None:
    """Items of /categories have the listed shape without ``_links``."""
    site.category()
    body = site.get("/categories", params={"hide_empty": "0"}).json()
    assert [LISTED_CATEGORY_KEYS] == [list(c) for c in body["categories"]]


def test_empty_term_list_is_the_bare_envelope(site: Site) -> None:
    """GET /tags on an empty calendar: the bare collection URL and zero totals."""
    assert {"rest_url": ROOT + "/tags/", "total": 0, "total_pages": 0, "tags": []} == site.get(
        "/tags"
    ).json()


def test_term_list_next_url_keeps_per_page_and_ends_with_the_page(site: Site) -> None:
    """A term list's next_rest_url is the collection with its per_page, then ``page=2``."""
    site.event(tags=[site.tag(name="A")["id"], site.tag(name="B")["id"]])
    body = site.get("/tags", params={"per_page": 1}).json()
    assert (ROOT + "/tags/", [("per_page", "1"), ("page", "2")]) == url_parts(body["next_rest_url"])


def test_term_list_rest_url_keeps_its_filters(site: Site) -> None:
    """A term list's rest_url keeps the filters it was asked with."""
    site.category()
    body = site.get("/categories", params={"hide_empty": "0", "search": "mus"}).json()
    assert {("hide_empty", "0"), ("search", "mus")} <= set(url_parts(body["rest_url"])[1])


def test_term_page_past_the_end_is_an_empty_list(site: Site) -> None:
    """Categories page 50 of 2: 200, no items, a previous_rest_url to page 49."""
    site.category(name="A")
    site.category(name="B")
    response = site.get("/categories", params={"hide_empty": "0", "per_page": 1, "page": 50})
    body = response.json()
    assert (200, [], 2, ("page", "49")) == (
        response.status_code,
        body["categories"],
        body["total"],
        url_parts(body["previous_rest_url"])[1][-1],
    )


def test_create_tag_answers_201_with_location_of_its_record(site: Site) -> None:
    """POST /tags answers 201, Location at our tag route, the listed shape plus ``_links``."""
    response = site.post("/tags", json={"name": "Outdoor"}, as_="admin")
    number = response.json()["id"]
    assert (201, f"{ROOT}/tags/{number}", [*LISTED_TAG_KEYS, "_links"]) == (
        response.status_code,
        response.headers["Location"],
        list(response.json()),
    )


def test_tag_read_values(site: Site) -> None:
    """GET /tags/<id> shows the tag's archive url and the post types WordPress links."""
    tag = site.tag(description="Open air")
    body = site.get(f"/tags/{tag['id']}").json()
    core = SITE + "/wp-json/wp/v2"
    assert (
        "Open air",
        "post_tag",
        SITE + "/tag/outdoor/",
        [
            {"href": f"{core}/posts?tags={tag['id']}"},
            {"href": f"{core}/tribe_events?tags={tag['id']}"},
            {"href": f"{core}/tec_calendar_embed?tags={tag['id']}"},
        ],
    ) == (body["description"], body["taxonomy"], body["url"], body["_links"]["wp:post_type"])


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
def test_update_tag(site: Site, method: str) -> None:
    """POST, PUT and PATCH on /tags/<id> update the tag (200)."""
    tag = site.tag()
    response = site.request(method, f"/tags/{tag['id']}", json={"name": "Open Air"}, as_="admin")
    assert (200, "Open Air") == (response.status_code, response.json()["name"])


def test_delete_tag(site: Site) -> None:
    """DELETE /tags/<id> answers 200 with the tag, without ``_links``; it is gone after."""
    tag = site.tag()
    response = site.delete(f"/tags/{tag['id']}", as_="admin")
    assert (200, LISTED_TAG_KEYS, 400) == (
        response.status_code,
        list(response.json()),
        site.get(f"/tags/{tag['id']}").status_code,
    )


def test_deleted_tag_leaves_the_events_that_used_it(site: Site) -> None:
    """Deleting a tag removes it from its events."""
    tag = site.tag()
    event = site.event(tags=[tag["id"]])
    site.delete(f"/tags/{tag['id']}", as_="admin")
    assert [] == site.get(f"/events/{event['id']}").json()["tags"]


# The golden recordings are replayed by tests/test_golden.py (over a real socket).


# -- venue, organizer and term list filters ---------------------------------------------------


def venue_names(response: httpx.Response) -> list[str]:
    return [v["venue"] for v in response.json()["venues"]]


def term_names(response: httpx.Response, key: str = "categories") -> list[str]:
    return [t["name"] for t in response.json()[key]]


def test_venue_search_looks_into_address_fields(site: Site) -> None:
    """``search`` matches venue address fields such as the city."""
    site.venue(venue="Grand Hall", city="Springfield")
    site.venue(venue="Salle Pleyel", city="Paris")
    assert ["Grand Hall"] == venue_names(site.get("/venues", params={"search": "springfield"}))


def test_venue_event_filter_lists_the_events_venue(site: Site) -> None:
    """``event=<id>`` lists the venue linked to that event."""
    hall = site.venue(venue="Hall")
    site.venue(venue="Park")
    event = site.event(venue=hall["id"])
    assert ["Hall"] == venue_names(site.get("/venues", params={"event": event["id"]}))


def test_venue_only_with_upcoming_events(site: Site) -> None:
    """``only_with_upcoming=true`` keeps venues with an event starting from now on."""
    future = site.venue(venue="Future", date="2021-01-02 10:00:00")
    past = site.venue(venue="Past", date="2021-01-01 10:00:00")
    site.event(venue=future["id"])
    site.event(venue=past["id"], start_date="2030-06-01 10:00", end_date="2030-06-01 11:00")
    response = site.get("/venues", params={"only_with_upcoming": "true"})
    assert ["Future"] == venue_names(response)


def test_editor_lists_draft_venues_by_status(site: Site) -> None:
    """``status=draft`` as an editor lists only draft venues."""
    site.venue(venue="Draft Hall", status="draft")
    site.venue(venue="Open Hall")
    response = site.get("/venues", params={"status": "draft"}, as_="editor")
    assert ["Draft Hall"] == venue_names(response)


def test_organizer_search(site: Site) -> None:
    """``search`` matches organizer names and e-mail addresses."""
    site.organizer(organizer="Acme Events", email="hello@acme.example")
    site.organizer(organizer="Jane Doe", email="jane@example.org")
    body = site.get("/organizers", params={"search": "acme"}).json()
    assert ["Acme Events"] == [o["organizer"] for o in body["organizers"]]


@pytest.fixture
def terms(site: Site) -> dict[str, int]:
    """Categories Music > Jazz, Rock (child of Music), Sport; an event in Jazz and Sport."""
    music = site.category(name="Music")
    ids = {
        "Music": music["id"],
        "Jazz": site.category(name="Jazz", parent=music["id"])["id"],
        "Rock": site.category(name="Rock", parent=music["id"])["id"],
        "Sport": site.category(name="Sport", slug="sport-events")["id"],
    }
    ids["event"] = site.event(categories=[ids["Jazz"], ids["Sport"]])["id"]
    return ids


def test_term_list_is_ordered_by_name(site: Site, terms: dict[str, int]) -> None:
    """Categories are listed by name by default."""
    response = site.get("/categories", params={"hide_empty": "0"})
    assert ["Jazz", "Music", "Rock", "Sport"] == term_names(response)


def test_term_list_order_and_orderby(site: Site, terms: dict[str, int]) -> None:
    """``orderby=slug&order=desc`` sorts by slug, descending."""
    params = {"hide_empty": "0", "orderby": "slug", "order": "desc"}
    assert ["Sport", "Rock", "Music", "Jazz"] == term_names(site.get("/categories", params=params))


def test_term_search(site: Site, terms: dict[str, int]) -> None:
    """``search`` matches part of a name or slug."""
    response = site.get("/categories", params={"hide_empty": "0", "search": "jaz"})
    assert ["Jazz"] == term_names(response)


def test_term_include_and_exclude(site: Site, terms: dict[str, int]) -> None:
    """``include`` (CSV) restricts to ids and ``exclude[]`` leaves ids out."""
    included = site.get(
        "/categories", params={"hide_empty": "0", "include": f"{terms['Music']},{terms['Rock']}"}
    )
    excluded = site.get(
        "/categories",
        params=[("hide_empty", "0"), ("exclude[]", terms["Music"]), ("exclude[]", terms["Rock"])],
    )
    assert (["Music", "Rock"], ["Jazz", "Sport"]) == (term_names(included), term_names(excluded))


def test_term_parent_filter(site: Site, terms: dict[str, int]) -> None:
    """``parent=<id>`` lists that category's direct children."""
    response = site.get("/categories", params={"hide_empty": "0", "parent": terms["Music"]})
    assert ["Jazz", "Rock"] == term_names(response)


@pytest.mark.parametrize("name", ["post", "event"])
def test_term_post_and_event_filters(site: Site, terms: dict[str, int], name: str) -> None:
    """``post=<id>`` and its alias ``event=<id>`` list the terms of that event."""
    response = site.get("/categories", params={name: terms["event"]})
    assert ["Jazz", "Sport"] == term_names(response)


def test_term_slug_filter(site: Site, terms: dict[str, int]) -> None:
    """``slug`` finds the term with exactly that slug."""
    response = site.get("/categories", params={"hide_empty": "0", "slug": "sport-events"})
    assert ["Sport"] == term_names(response)


def test_term_counts_follow_their_events(site: Site, terms: dict[str, int]) -> None:
    """A listed term's ``count`` is the number of events using it."""
    body = site.get("/categories", params={"hide_empty": "0"}).json()
    assert {"Jazz": 1, "Music": 0, "Rock": 0, "Sport": 1} == {
        c["name"]: c["count"] for c in body["categories"]
    }
