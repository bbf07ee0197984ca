"""Event lists through the ASGI app: envelopes, paging links, headers and the echoed query."""

from __future__ import annotations

import pytest

import events_calendar as ec
from http_helpers import (
    EVENT_KEYS,
    Site,
    url_parts,
)
from http_route_helpers import ROOT, WINDOW, three_events, titles


@pytest.fixture
def site() -> Site:
    return Site()


# -- events: lists --------------------------------------------------------------------------


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


def _fall_back_site() -> Site:
    """New York, with events at 01:45 EST, 01:50 EDT and 01:50 EST on 2031-11-02."""
    site = Site(settings=ec.Settings(timezone="America/New_York"))
    for title, start, end in [
        ("edt-0150", "2031-11-02T01:50:00-04:00", "2031-11-02T01:55:00-04:00"),
        ("est-0145", "2031-11-02T01:45:00-05:00", "2031-11-02T01:50:00-05:00"),
        ("est-0150", "2031-11-02T01:50:00-05:00", "2031-11-02T01:55:00-05:00"),
    ]:
        site.event(title=title, start_date=start, end_date=end)
    return site


_SECOND_PASS = {"starts_after": "2031-11-02T01:40:00-05:00", "strict_dates": "1", "per_page": "1"}


@pytest.mark.parametrize(
    ("bound", "echoed", "total"),
    [
        ("2031-11-02T01:40:00-05:00", "2031-11-02 01:40:00-05:00", 2),  # second pass
        ("2031-11-02T01:40:00-04:00", "2031-11-02 01:40:00", 3),  # first pass: as before
    ],
)
def test_rest_url_writes_the_offset_of_a_bound_in_the_repeated_hour(
    bound: str, echoed: str, total: int
) -> None:
    """A strict bound in the second pass of the repeated hour is echoed with its offset."""
    params = {**_SECOND_PASS, "starts_after": bound}
    body = _fall_back_site().get("/events", params=params).json()
    pairs = dict(url_parts(body["rest_url"])[1])
    assert (echoed, total) == (pairs["starts_after"], body["total"])


def test_next_rest_url_in_the_repeated_hour_lists_the_same_events() -> None:
    """Following next_rest_url of a second-pass bound gives page 2 of the same list."""
    site = _fall_back_site()
    first = site.get("/events", params=_SECOND_PASS).json()
    second = site.raw("GET", first["next_rest_url"]).json()
    assert (["est-0150"], 2) == ([e["title"] for e in second["events"]], second["total"])
