"""``/?rest_route=/tribe/events/v1/...``: the form WordPress sites without pretty permalinks
use for the REST API (and every WordPress site answers)."""

from __future__ import annotations

import pytest

from http_helpers import SITE, Site, basic


@pytest.fixture
def site() -> Site:
    return Site()


def test_a_list_at_the_site_root_is_the_list_at_its_path(site: Site) -> None:
    site.event(title="Gala")
    site.event(title="Fair", start_date="2031-06-16 10:00:00", end_date="2031-06-16 12:00:00")
    for root in ("/", "/index.php"):
        query = "rest_route=%2Ftribe%2Fevents%2Fv1%2Fevents&per_page=1&page=2"
        by_query = site.raw("GET", f"{root}?{query}")
        by_path = site.get("/events?per_page=1&page=2")
        assert 200 == by_query.status_code, by_query.text
        assert by_path.json() == by_query.json()
        assert ["Fair"] == [e["title"] for e in by_query.json()["events"]]
        # Links name the path form, which this server answers (as WordPress's do).
        assert by_query.json()["rest_url"].startswith(f"{SITE}/wp-json/tribe/events/v1/events/?")
        assert by_path.headers["X-TEC-Total"] == by_query.headers["X-TEC-Total"]


def test_writes_and_single_records_are_served_there_too(site: Site) -> None:
    response = site.raw(
        "POST",
        "/?rest_route=/tribe/events/v1/venues",
        json={"venue": "Town Hall"},
        headers={"Authorization": basic("admin", site.passwords["admin"])},
    )
    assert 201 == response.status_code, response.text
    venue = response.json()
    assert "Town Hall" == site.get(f"/venues/{venue['id']}").json()["venue"]
    again = site.raw("GET", f"/index.php?rest_route=/tribe/events/v1/venues/{venue['id']}/")
    assert ("Town Hall", 200) == (again.json()["venue"], again.status_code)


@pytest.mark.parametrize("name", ["rest%5Froute", "rest%5froute", "rest_route"])
def test_the_argument_name_may_be_percent_encoded(site: Site, name: str) -> None:
    """PHP decodes argument names as it decodes values (``$_GET``), so WordPress reads
    ``rest%5Froute`` as ``rest_route``."""
    site.event(title="Gala")
    response = site.raw("GET", f"/?{name}=%2Ftribe%2Fevents%2Fv1%2Fevents")
    assert (200, ["Gala"]) == (
        response.status_code,
        [e["title"] for e in response.json()["events"]],
    )


def test_an_unknown_route_there_is_the_reference_404(site: Site) -> None:
    response = site.raw("GET", "/?rest_route=/tribe/events/v1/nothing")
    assert 404 == response.status_code
    assert "rest_no_route" == response.json()["code"]


def test_rest_route_elsewhere_is_not_read(site: Site) -> None:
    """Only the site root takes it: on the API's own paths it is one more unknown argument."""
    site.event(title="Gala")
    response = site.get("/events?rest_route=/tribe/events/v1/venues")
    assert ["Gala"] == [e["title"] for e in response.json()["events"]]
