"""``tribe/events/v1`` through the ASGI app: the namespace index, /doc, HEAD, OPTIONS,
unknown routes and a custom mount point."""

from __future__ import annotations

import pytest

from http_helpers import (
    SITE,
    Site,
    url_parts,
)
from http_route_helpers import NO_ROUTE, ROOT, three_events


@pytest.fixture
def site() -> Site:
    return Site()


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
    """/doc has the reference's paths, in its order, then this library's feed."""
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
        "/events.ics",
    ] == list(paths)


def test_doc_server_is_the_namespace_root(site: Site) -> None:
    """/doc's only server is the namespace root with a trailing slash."""
    assert [{"url": ROOT + "/"}] == site.get("/doc").json()["servers"]


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


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("TRACE", "/events", "GET, POST"),
        ("QUERY", "/doc", "GET"),
        ("TRACE", "/events/1", "GET, DELETE, POST, PUT, PATCH"),
        ("CONNECT", "/categories/by-slug/music", None),
    ],
)
def test_methods_no_route_serves_are_405_with_allow(
    site: Site, method: str, path: str, allow: str | None
) -> None:
    """TRACE and other methods the API never serves: 405 listing the route's methods."""
    response = site.request(method, path)
    expected = (405, allow) if allow else (404, None)
    assert expected == (response.status_code, response.headers.get("Allow"))
