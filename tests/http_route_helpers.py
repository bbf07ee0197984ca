"""Names the route tests of ``tribe/events/v1`` share (``test_http_*`` split by topic)."""

from __future__ import annotations

from typing import Any

import httpx

from http_helpers import SITE, Site

NO_ROUTE = {
    "code": "rest_no_route",
    "message": "No route was found matching the URL and request method.",
    "data": {"status": 404},
}
#: The default window on the fixed clock, as list URLs echo it.
WINDOW = [("start_date", "2031-01-09 00:00:00"), ("end_date", "2033-01-10 23:59:59")]
ROOT = SITE + "/wp-json/tribe/events/v1"


def titles(response: httpx.Response) -> list[str]:
    return [e["title"] for e in response.json()["events"]]


def three_events(site: Site) -> list[dict[str, Any]]:
    """Three published events in 2031, created out of date order."""
    return [
        site.event(title="C", start_date="2031-08-01 10:00", end_date="2031-08-01 11:00"),
        site.event(title="A", start_date="2031-06-01 10:00", end_date="2031-06-01 11:00"),
        site.event(title="B", start_date="2031-07-01 10:00", end_date="2031-07-01 11:00"),
    ]
