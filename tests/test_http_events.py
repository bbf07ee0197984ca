"""Event routes through the ASGI app: create, read, update and delete; record shapes and links."""

from __future__ import annotations

from typing import Any

import pytest

from http_helpers import (
    EMBEDDED_TERM_KEYS,
    EVENT_KEYS,
    NOW_TEXT,
    SITE,
    Site,
)
from http_route_helpers import ROOT


@pytest.fixture
def site() -> Site:
    return Site()


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


@pytest.mark.parametrize(
    ("collection", "name"), [("events", "title"), ("venues", "venue"), ("organizers", "organizer")]
)
def test_trashing_through_an_update_frees_the_slug(site: Site, collection: str, name: str) -> None:
    """PATCH ``{"status": "trash"}`` suffixes the slug as DELETE does: a new record of the
    same name takes the slug, and the public by-slug route answers it (it answered the
    trashed record, 403, and the new one was ``slug-trap-2``)."""
    dates = {"start_date": "2031-06-15 19:00:00", "end_date": "2031-06-15 23:00:00"}
    body = {**(dates if name == "title" else {}), name: "Slug Trap"}
    old = site.make(collection, body)
    trashed = site.patch(f"/{collection}/{old['id']}", json={"status": "trash"}, as_="admin")
    new = site.make(collection, body)
    found = site.get(f"/{collection}/by-slug/slug-trap")
    assert (200, "slug-trap__trashed", "slug-trap", 200, new["id"]) == (
        trashed.status_code,
        trashed.json()["slug"],
        new["slug"],
        found.status_code,
        found.json()["id"],
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


@pytest.mark.parametrize(
    ("url", "extension"),
    [
        ("https://cdn.example.com/poster.jpg?w=1.5", "jpg"),
        ("https://cdn.example.com/hall.PNG#top", "png"),
        ("https://cdn.example.com/v1.2/poster.webp", "webp"),
    ],
)
def test_an_image_extension_is_its_file_names(site: Site, url: str, extension: str) -> None:
    """The image object's ``extension`` is the file's (reference 4.5), whatever query or
    fragment the address carries (it was ``5`` for ``poster.jpg?w=1.5``)."""
    made = site.event(
        title="Poster", start_date="2031-09-23 10:00", end_date="2031-09-23 12:00", image=url
    )
    assert {"url": url, "id": 0, "extension": extension} == made["image"]
