"""Venues and organizers given inline on an event, and the reference's duplicate check on
create: the behaviours where the adapter used to differ from the reference's own test cases."""

from __future__ import annotations

from typing import Any

import pytest

from http_helpers import NOW_TEXT, SITE, Site

TOUR = {"title": "Tour", "start_date": "2031-06-15 10:00:00", "end_date": "2031-06-15 12:00:00"}

#: The reference's inline venue (``tests/restv1/EventInsertionCest.php``): keys a venue does not
#: declare (``stateProvince``) and map flags as ``"true"`` strings.
PARLIAMENT = {
    "venue": "Parliament Hill",
    "address": "111 Wellington St",
    "city": "Ottawa",
    "country": "Canada",
    "state": "",
    "province": "ON",
    "stateProvince": "ON",
    "zip": "K1A 0A9",
    "phone": "+1 613 992 4793",
    "description": "<p>Canada's parliament</p>",
    "website": "https://www.parl.ca",
    "show_map": "true",
    "show_map_link": "true",
}


@pytest.fixture
def site() -> Site:
    return Site()


# -- inline venue data on an event -----------------------------------------------------------


def test_event_with_an_inline_venue_map_creates_and_echoes_the_venue(site: Site) -> None:
    """POST /events with the reference's inline venue map is 201 and embeds the new venue."""
    response = site.post("/events", json={**TOUR, "venue": PARLIAMENT}, as_="admin")
    venue = response.json()["venue"]
    assert (201, venue) == (
        response.status_code,
        {
            "id": venue["id"],
            "author": "1",
            "status": "publish",
            "date": NOW_TEXT,
            "date_utc": NOW_TEXT,
            "modified": NOW_TEXT,
            "modified_utc": NOW_TEXT,
            "url": SITE + "/venue/parliament-hill/",
            "venue": "Parliament Hill",
            "description": "<p>Canada's parliament</p>",
            "slug": "parliament-hill",
            "address": "111 Wellington St",
            "city": "Ottawa",
            "country": "Canada",
            "province": "ON",
            "zip": "K1A 0A9",
            "phone": "+1 613 992 4793",
            "website": "https://www.parl.ca",
            "stateprovince": "ON",
            "show_map": True,
            "show_map_link": True,
            "global_id": f"testserver?id={venue['id']}",
            "global_id_lineage": [f"testserver?id={venue['id']}"],
        },
    )


def test_inline_venue_is_a_venue_of_its_own(site: Site) -> None:
    """The inline venue is created as a record: GET /venues/<id> finds it by its name."""
    event = site.post("/events", json={**TOUR, "venue": PARLIAMENT}, as_="admin").json()
    response = site.get(f"/venues/{event['venue']['id']}")
    assert (200, "Parliament Hill") == (response.status_code, response.json()["venue"])


@pytest.mark.parametrize(("text", "shown"), [("true", True), ("false", False)])
def test_inline_venue_map_flags_read_strings_as_booleans(
    site: Site, text: str, shown: bool
) -> None:
    """``"true"`` and ``"false"`` in an inline venue's map flags are booleans."""
    venue = {"venue": "Hall", "show_map": text, "show_map_link": text}
    embedded = site.post("/events", json={**TOUR, "venue": venue}, as_="admin").json()["venue"]
    assert (shown, shown) == (embedded.get("show_map", False), embedded.get("show_map_link", False))


def test_inline_organizer_ignores_keys_it_does_not_know(site: Site) -> None:
    """An inline organizer map with an unknown key creates the organizer, ignoring the key."""
    organizer: dict[str, Any] = {"organizer": "Ada", "email": "ada@example.org", "twitter": "@a"}
    response = site.post("/events", json={**TOUR, "organizer": [organizer]}, as_="admin")
    assert (201, [("Ada", "ada@example.org")]) == (
        response.status_code,
        [(o["organizer"], o["email"]) for o in response.json()["organizer"]],
    )


@pytest.mark.parametrize(
    ("extra", "status"),
    [({"twitter": {"handle": ["@a\x00"]}}, 201), ({"email": "ada\x00@example.org"}, 400)],
    ids=["ignored-key", "known-key"],
)
def test_inline_organizer_text_is_checked_where_it_is_read(
    site: Site, extra: dict[str, Any], status: int
) -> None:
    """A NUL in a key the organizer does not declare is ignored with the key (schemathesis
    found it refused); in a field it declares, it is still a 400."""
    organizer = {"organizer": "Ada", **extra}
    response = site.post("/events", json={**TOUR, "organizer": [organizer]}, as_="admin")
    assert status == response.status_code


def test_inline_venue_without_a_name_is_still_invalid(site: Site) -> None:
    """Ignoring unknown keys does not excuse a missing name: 400 on venue, nothing created."""
    response = site.post("/events", json={**TOUR, "venue": {"city": "Ottawa"}}, as_="admin")
    listed = site.get("/events").json()["total"]
    assert (400, "Invalid parameter(s): venue", 0) == (
        response.status_code,
        response.json()["message"],
        listed,
    )


# -- the duplicate check on create -----------------------------------------------------------

TOWN_HALL = {
    "venue": "Town Hall",
    "description": "The old hall",
    "address": "1 Place de la Comédie",
    "city": "Lyon",
    "zip": "69001",
}
ADA = {"organizer": "Ada Lovelace", "description": "Analyst", "email": "ada@example.org"}


@pytest.mark.parametrize(
    "body",
    [
        {"venue": "town hall"},
        {"venue": "TOWN HALL", "description": "The old hall"},
        {"venue": "Town Hall", "city": "Lyon"},
        {"venue": "Town hall", "address": "1 Place de la Comédie", "zip": "69001"},
    ],
)
def test_creating_a_venue_described_already_returns_it(site: Site, body: dict[str, Any]) -> None:
    """POST /venues with an existing name (any case) and a subset of its data is 201 with it."""
    first = site.venue(**TOWN_HALL)
    response = site.post("/venues", json=body, as_="admin")
    listed = site.get("/venues").json()["total"]
    assert (201, first["id"], 1) == (response.status_code, response.json()["id"], listed)


@pytest.mark.parametrize(
    "body",
    [
        {"venue": "Town Hall", "city": "Paris"},
        {"venue": "Town Hall", "description": "The new hall"},
        {"venue": "Town Hall", "city": "Lyon", "zip": "69002"},
    ],
)
def test_creating_a_venue_with_other_data_makes_a_new_one(site: Site, body: dict[str, Any]) -> None:
    """POST /venues with an existing name but different data is 201 with a new venue."""
    first = site.venue(**TOWN_HALL)
    response = site.post("/venues", json=body, as_="admin")
    listed = site.get("/venues").json()["total"]
    assert (201, True, 2) == (response.status_code, response.json()["id"] != first["id"], listed)


@pytest.mark.parametrize(
    "body",
    [
        {"organizer": "ada lovelace"},
        {"organizer": "Ada Lovelace", "description": "Analyst"},
        {"organizer": "ADA LOVELACE", "email": "ada@example.org"},
    ],
)
def test_creating_an_organizer_described_already_returns_it(
    site: Site, body: dict[str, Any]
) -> None:
    """POST /organizers with an existing name and a subset of its data is 201 with it."""
    first = site.organizer(**ADA)
    response = site.post("/organizers", json=body, as_="admin")
    listed = site.get("/organizers").json()["total"]
    assert (201, first["id"], 1) == (response.status_code, response.json()["id"], listed)


@pytest.mark.parametrize(
    "body",
    [
        {"organizer": "Ada Lovelace", "email": "countess@example.org"},
        {"organizer": "Ada Lovelace", "description": "Poet"},
    ],
)
def test_creating_an_organizer_with_other_data_makes_a_new_one(
    site: Site, body: dict[str, Any]
) -> None:
    """POST /organizers with an existing name but different data is 201 with a new organizer."""
    first = site.organizer(**ADA)
    response = site.post("/organizers", json=body, as_="admin")
    listed = site.get("/organizers").json()["total"]
    assert (201, True, 2) == (response.status_code, response.json()["id"] != first["id"], listed)


def test_inline_venue_with_other_data_is_a_new_venue(site: Site) -> None:
    """An event's inline venue follows the same rule: same name, another city, a new venue."""
    first = site.venue(**TOWN_HALL)
    venue = {"venue": "Town Hall", "city": "Paris"}
    event = site.post("/events", json={**TOUR, "venue": venue}, as_="admin").json()
    assert (True, "Paris") == (event["venue"]["id"] != first["id"], event["venue"]["city"])
