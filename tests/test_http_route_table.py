"""The route table drives the app: its Starlette routes, handlers, ``Allow`` and OPTIONS."""

from __future__ import annotations

import pytest
from starlette.routing import Route as StarletteRoute

from events_calendar.http.handlers import handler_for
from events_calendar.http.routes_spec import ROUTES, Endpoint, Route, record_route
from http_helpers import Site


@pytest.fixture
def site() -> Site:
    return Site()


@pytest.mark.parametrize(
    ("route", "endpoint"),
    [(r, e) for r in ROUTES for e in r.endpoints],
    ids=lambda value: value.pattern if isinstance(value, Route) else value.action,
)
def test_every_endpoint_of_the_table_has_a_handler(route: Route, endpoint: Endpoint) -> None:
    """``handler_for`` finds a handler for each endpoint of ``ROUTES``."""
    assert callable(handler_for(route, endpoint))


def test_the_app_serves_exactly_the_tables_routes_and_methods(site: Site) -> None:
    """The app's routes are the table's paths, with and without a trailing slash, each with
    its endpoints' methods (HEAD beside GET) and OPTIONS: one Starlette route a path, which
    picks the endpoint by method."""
    served: dict[str, set[str]] = {}
    for route in site.app.routes:
        assert isinstance(route, StarletteRoute)
        assert route.methods is None  # every method reaches the path's own dispatch
        assert route.path not in served
        served[route.path] = set(route.endpoint.apps)
    expected: dict[str, set[str]] = {}
    for route in ROUTES:
        methods = {*route.methods, "HEAD", "OPTIONS"}
        for path in (route.starlette_path, f"{route.starlette_path}/"):
            expected[f"{site.prefix}{path}"] = methods
    assert expected == served


def test_record_route_is_the_route_of_one_record_by_id() -> None:
    """``record_route("tag")`` is ``/tags/(?P<id>\\d+)``."""
    assert r"/tags/(?P<id>\d+)" == record_route("tag").pattern


def test_allow_header_on_a_term_follows_the_route_order(site: Site) -> None:
    """On one category, an administrator's Allow lists the route's methods in its order,
    as the reference does (cat_update_post)."""
    category = site.category(name="Jazz")
    response = site.get(f"/categories/{category['id']}", as_="admin")
    assert "GET, POST, PUT, PATCH, DELETE" == response.headers["Allow"]


def test_allow_header_on_a_term_is_get_for_anonymous_callers(site: Site) -> None:
    """On one tag, an anonymous caller's Allow is ``GET``."""
    tag = site.tag(name="Outdoor")
    assert "GET" == site.get(f"/tags/{tag['id']}").headers["Allow"]


def test_options_on_a_by_slug_route_describes_that_route(site: Site) -> None:
    """OPTIONS on ``/venues/by-slug/<slug>`` lists that route's methods."""
    response = site.request("OPTIONS", "/venues/by-slug/anything")
    assert (200, ["GET", "DELETE", "POST", "PUT", "PATCH"]) == (
        response.status_code,
        response.json()["methods"],
    )


def test_routes_match_in_any_case_after_the_base_path(site: Site) -> None:
    """WordPress matches a REST route case-insensitively (``preg_match('@^' . $route .
    '$@i', ...)``): the namespace and route in any case are the same route, by id, by slug
    and through ``?rest_route=``; the base path is a rewrite prefix, matched as written."""
    gala = site.make(
        "events",
        {"title": "Gala", "start_date": "2027-03-01 19:00:00", "end_date": "2027-03-01 21:00:00"},
    )
    lower = site.get("/events")
    assert 200 == lower.status_code
    answers = [
        site.raw("GET", "/wp-json/TRIBE/Events/V1/EVENTS"),
        site.raw("GET", "/?rest_route=/Tribe/events/v1/Events"),
        site.raw("GET", f"/wp-json/tribe/events/v1/EVENTS/{gala['id']}/"),
        site.raw("GET", "/wp-json/tribe/events/v1/Events/BY-SLUG/gala"),
    ]
    assert [200] * 4 == [a.status_code for a in answers]
    assert lower.json() == answers[0].json() == answers[1].json()
    assert gala["id"] == answers[2].json()["id"] == answers[3].json()["id"]
    outside = site.raw("GET", "/WP-JSON/tribe/events/v1/events")
    assert (404, "rest_no_route") == (outside.status_code, outside.json()["code"])
