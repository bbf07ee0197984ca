"""Query and body forms through the ASGI app: CSV and array parameters, booleans, JSON and
form bodies, malformed input."""

from __future__ import annotations

from typing import Any

import pytest

from http_helpers import (
    Site,
)
from http_route_helpers import three_events, titles


@pytest.fixture
def site() -> Site:
    return Site()


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


def test_a_form_body_reads_bracketed_names_as_php_does(site: Site) -> None:
    """A form body as PHP's ``http_build_query`` writes one (what ``wp_remote_post`` sends):
    numbered lists, an inline venue as a map, a list of organizer maps. Each reaches the
    event; they were dropped without a word."""
    music = site.category(name="Music")["id"]
    body = (
        "title=Form+Gala&start_date=2031-09-20+19:00&end_date=2031-09-20+22:00"
        f"&categories[0]={music}&categories[1]=Jazz&tags[]=late&tags[]=free"
        "&venue[venue]=Form+Hall&venue[city]=Nice"
        "&organizer[0][organizer]=Form+Org&organizer[1][organizer]=Other+Org"
    )
    made = site.post(
        "/events",
        as_="admin",
        content=body,
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    event = made.json()
    assert (201, ["Jazz", "Music"], ["free", "late"], "Form Hall", "Nice") == (
        made.status_code,
        sorted(c["name"] for c in event["categories"]),
        sorted(t["name"] for t in event["tags"]),
        event["venue"]["venue"],
        event["venue"]["city"],
    )
    assert ["Form Org", "Other Org"] == [o["organizer"] for o in event["organizer"]]


def test_a_list_filter_in_php_form_filters_as_its_other_forms(site: Site) -> None:
    """``categories[0]=1&categories[1]=2`` on a list is ``categories=1,2``."""
    ids = categorised(site)
    params = [("categories[0]", ids["Music"]), ("categories[1]", ids["Sport"])]
    assert ["A", "B"] == titles(site.get("/events", params=params))
