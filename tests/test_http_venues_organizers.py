"""Venue and organizer routes through the ASGI app: statuses, record shapes and links."""

from __future__ import annotations

import pytest

from http_helpers import (
    NOW_TEXT,
    ORGANIZER_KEYS,
    SITE,
    VENUE_KEYS,
    Site,
    url_parts,
)
from http_route_helpers import ROOT


@pytest.fixture
def site() -> Site:
    return Site()


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


def test_a_bracketed_parameter_is_echoed_in_brackets(site: Site) -> None:
    """``only_with_upcoming[]=1`` is read as PHP reads it (a list, truthy) and goes back into
    ``rest_url`` as the reference's ``add_query_arg`` writes a list, not as ``['1']``."""
    body = site.get("/venues?only_with_upcoming[]=1&has_events[a]=1").json()
    assert [("has_events[a]", "1"), ("only_with_upcoming[0]", "1")] == [
        (k, v) for k, v in url_parts(body["rest_url"])[1] if k not in ("page", "per_page", "status")
    ]


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


@pytest.mark.parametrize("kind", ["venues", "organizers", "events"])
def test_trashing_a_second_record_of_a_trashed_slug(kind: str) -> None:
    """A record whose ``__trashed`` slug another trashed record holds is trashed all the same
    (it used to be a 409 from the storage's unique slugs), under the next free slug."""
    site = Site()
    make = {"venues": site.venue, "organizers": site.organizer, "events": site.event}[kind]
    name = {"venues": "venue", "organizers": "organizer", "events": "title"}[kind]
    first = make(**{name: "Hall", "slug": "hall"})
    site.delete(f"/{kind}/{first['id']}", as_="admin")
    second = make(**{name: "Hall", "slug": "hall"})
    response = site.delete(f"/{kind}/{second['id']}", as_="admin")
    assert (200, "hall__trashed-2") == (response.status_code, response.json()["slug"])
