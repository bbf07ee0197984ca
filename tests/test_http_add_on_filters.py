"""Filters of the reference's paid add-ons, answered as the reference answers them without
those add-ons (its recordings evlist_geoloc, evlist_geoloc_latlng, evlist_geoloc_lat_only):
geolocation filters are checked, then filter nothing."""

from __future__ import annotations

import pytest

from http_helpers import Site, url_parts
from http_route_helpers import ROOT, WINDOW, three_events, titles


@pytest.fixture
def site() -> Site:
    site = Site()
    three_events(site)
    return site


@pytest.mark.parametrize(
    "params",
    [
        {"geoloc": "true"},
        {"geoloc": "0"},
        {"geoloc_lat": "39.78", "geoloc_lng": "-89.65"},
        {"geoloc_lat": "39.78"},
        {"geoloc": "1", "geoloc_lat": "-1e1", "geoloc_lng": "0"},
    ],
)
def test_geolocation_filters_list_every_event(site: Site, params: dict[str, str]) -> None:
    """Whatever the geolocation asked, the list is the unfiltered one, totals included."""
    plain, filtered = site.get("/events"), site.get("/events", params=params)
    assert (200, titles(plain), plain.headers["X-TEC-Total"]) == (
        filtered.status_code,
        titles(filtered),
        filtered.headers["X-TEC-Total"],
    )


def test_a_true_geoloc_is_echoed_with_empty_coordinates(site: Site) -> None:
    """``rest_url`` keeps ``geoloc=1`` and names both coordinates empty, where the reference
    writes them; coordinates without ``geoloc`` are left out, as the reference leaves them."""
    echoed = site.get("/events", params={"geoloc": "true", "geoloc_lat": "3"}).json()["rest_url"]
    bare = site.get("/events", params={"geoloc_lat": "3", "geoloc_lng": "4"}).json()["rest_url"]
    start, end = WINDOW
    assert [
        (
            ROOT + "/events/",
            [
                ("page", "1"),
                ("per_page", "10"),
                start,
                end,
                ("geoloc", "1"),
                ("geoloc_lat", ""),
                ("geoloc_lng", ""),
                ("status", "publish"),
            ],
        ),
        (ROOT + "/events/", [("page", "1"), ("per_page", "10"), *WINDOW, ("status", "publish")]),
    ] == [url_parts(echoed), url_parts(bare)]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"geoloc": "maybe"}, "geoloc"),
        ({"geoloc_lat": "north"}, "geoloc_lat"),
        ({"geoloc_lng": "nan"}, "geoloc_lng"),
        ({"geoloc_lng": "1_000"}, "geoloc_lng"),
    ],
)
def test_a_geolocation_value_of_the_wrong_type_is_refused(
    site: Site, params: dict[str, str], field: str
) -> None:
    """The reference types these filters (a boolean, numbers): other values are a 400
    naming the field."""
    response = site.get("/events", params=params)
    assert (400, "rest_invalid_param", [field]) == (
        response.status_code,
        response.json()["code"],
        list(response.json()["data"]["params"]),
    )
