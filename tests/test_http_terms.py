"""Category and tag routes through the ASGI app, and the venue, organizer and term list filters."""

from __future__ import annotations

import httpx
import pytest

from http_helpers import (
    LISTED_CATEGORY_KEYS,
    LISTED_TAG_KEYS,
    SITE,
    Site,
    url_parts,
)
from http_route_helpers import ROOT


@pytest.fixture
def site() -> Site:
    return Site()


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


@pytest.mark.parametrize("parent", [1, 0, ""])
def test_a_tag_write_with_a_parent_is_refused(site: Site, parent: object) -> None:
    """The reference hands tag writes to WordPress's term routes, which refuse a parent
    (tags are not nested); ours ignored it and answered 201 and 200."""
    tag = site.post("/tags", json={"name": "Outdoor"}, as_="admin").json()
    refused = {
        "code": "rest_taxonomy_not_hierarchical",
        "message": "Cannot set parent term, taxonomy is not hierarchical.",
        "data": {"status": 400},
    }
    created = site.post("/tags", json={"name": "Indoor", "parent": parent}, as_="admin")
    updated = site.patch(f"/tags/{tag['id']}", json={"parent": parent}, as_="admin")
    assert [(400, refused)] * 2 == [(r.status_code, r.json()) for r in (created, updated)]


def test_a_term_update_to_a_taken_slug_is_refused(site: Site) -> None:
    """``wp_update_term`` refuses a slug another term holds; ours numbered it silently."""
    site.post("/tags", json={"name": "Outdoor"}, as_="admin")
    tag = site.post("/tags", json={"name": "Indoor"}, as_="admin").json()
    response = site.patch(f"/tags/{tag['id']}", json={"slug": "outdoor"}, as_="admin")
    assert (409, "duplicate_term_slug", "indoor") == (
        response.status_code,
        response.json()["code"],
        site.get(f"/tags/{tag['id']}").json()["slug"],
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
