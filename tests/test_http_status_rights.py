"""Who may set which status: contributors may not make records private or trash them by status
(issue 9, item 5), as WordPress refuses with ``rest_cannot_publish``."""

from __future__ import annotations

import pytest

from http_helpers import Site


@pytest.fixture
def site() -> Site:
    return Site()


@pytest.mark.parametrize("status", ["private", "trash"])
def test_contributor_may_not_create_an_event_with_status(site: Site, status: str) -> None:
    """A contributor's create asking for private or trash is a 403 rest_cannot_publish."""
    response = site.post(
        "/events",
        json={
            "title": "X",
            "start_date": "2031-06-15 19:00",
            "end_date": "2031-06-15 20:00",
            "status": status,
        },
        as_="contributor",
    )
    assert (403, "rest_cannot_publish") == (response.status_code, response.json()["code"])


@pytest.mark.parametrize("status", ["private", "trash"])
def test_contributor_may_not_move_their_draft_to_status(site: Site, status: str) -> None:
    """A contributor's update of their own draft to private or trash is refused, unchanged."""
    draft = site.event(as_="contributor")
    response = site.post(f"/events/{draft['id']}", json={"status": status}, as_="contributor")
    after = site.get(f"/events/{draft['id']}", as_="contributor").json()["status"]
    assert (403, "rest_cannot_publish", "draft") == (
        response.status_code,
        response.json()["code"],
        after,
    )


@pytest.mark.parametrize("kind", ["venues", "organizers"])
def test_contributor_may_not_create_a_private_linked_record(site: Site, kind: str) -> None:
    """Venues and organizers follow the same rule as events."""
    name = "venue" if kind == "venues" else "organizer"
    response = site.post(f"/{kind}", json={name: "Hidden", "status": "private"}, as_="contributor")
    assert (403, "rest_cannot_publish") == (response.status_code, response.json()["code"])


def test_author_may_create_a_private_event(site: Site) -> None:
    """Authors may publish, so they may make their events private."""
    event = site.event(as_="author", status="private")
    assert "private" == event["status"]


def test_contributor_may_still_delete_their_own_draft(site: Site) -> None:
    """Deleting (to the trash) stays the contributor's way to discard a draft."""
    draft = site.event(as_="contributor")
    response = site.delete(f"/events/{draft['id']}", as_="contributor")
    assert (200, "trash") == (response.status_code, response.json()["status"])
