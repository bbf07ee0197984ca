"""A POST that names another method (``?_method=`` or ``X-HTTP-Method-Override``), as
WordPress's REST server lets clients that cannot send PUT, PATCH or DELETE do."""

from __future__ import annotations

import pytest

from http_helpers import Site


@pytest.fixture
def site() -> Site:
    return Site()


def test_a_post_naming_delete_in_the_query_trashes_the_event(site: Site) -> None:
    event = site.event()
    response = site.post(f"/events/{event['id']}?_method=DELETE", as_="admin")
    assert 200 == response.status_code, response.text
    assert "trash" == response.json()["status"]
    assert "trash" == site.get(f"/events/{event['id']}", as_="admin").json()["status"]
    # A second one is the DELETE route's answer for a trashed event, not an update.
    again = site.post(f"/events/{event['id']}?_method=delete", as_="admin")
    assert 410 == again.status_code


def test_a_post_naming_delete_in_the_header_deletes_a_category(site: Site) -> None:
    category = site.category(name="Jazz")
    response = site.post(
        f"/categories/{category['id']}",
        headers={"X-HTTP-Method-Override": "DELETE"},
        as_="admin",
    )
    assert 200 == response.status_code, response.text
    assert 400 == site.get(f"/categories/{category['id']}").status_code


def test_the_query_argument_wins_over_the_header(site: Site) -> None:
    venue = site.venue(venue="Old Hall")
    response = site.post(
        f"/venues/{venue['id']}?_method=PATCH",
        headers={"X-HTTP-Method-Override": "DELETE"},
        json={"venue": "New Hall"},
        as_="admin",
    )
    assert 200 == response.status_code, response.text
    assert ("New Hall", "publish") == (response.json()["venue"], response.json()["status"])


def test_a_post_naming_put_updates_with_its_body(site: Site) -> None:
    event = site.event()
    response = site.post(
        f"/events/{event['id']}",
        headers={"X-HTTP-Method-Override": "put"},
        json={"title": "Renamed"},
        as_="admin",
    )
    assert 200 == response.status_code, response.text
    assert "Renamed" == site.get(f"/events/{event['id']}").json()["title"]


def test_a_method_the_api_does_not_serve_is_refused_and_changes_nothing(site: Site) -> None:
    event = site.event()
    for query in ("?_method=DELTE", "?_method="):
        response = site.post(f"/events/{event['id']}{query}", json={"title": "X"}, as_="admin")
        assert 405 == response.status_code, (query, response.text)
    after = site.get(f"/events/{event['id']}").json()
    assert ("Gala", event["modified"]) == (after["title"], after["modified"])


def test_a_get_is_never_overridden(site: Site) -> None:
    """WordPress would delete here; a link, a prefetch or a crawler must not."""
    event = site.event()
    for response in (
        site.get(f"/events/{event['id']}?_method=DELETE", as_="admin"),
        site.get(f"/events/{event['id']}", headers={"X-HTTP-Method-Override": "DELETE"}),
        site.head(f"/events/{event['id']}?_method=DELETE", as_="admin"),
    ):
        assert 200 == response.status_code
    assert "publish" == site.get(f"/events/{event['id']}").json()["status"]


def test_an_overridden_delete_needs_the_delete_right(site: Site) -> None:
    """The override changes the method, not who may use it."""
    event = site.event()
    response = site.post(f"/events/{event['id']}?_method=DELETE")
    assert 401 == response.status_code
    assert "publish" == site.get(f"/events/{event['id']}").json()["status"]
