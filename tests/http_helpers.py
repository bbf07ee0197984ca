"""Helpers for the HTTP tests: a served calendar per test, a client, the reference's shapes.

Every request goes through ``httpx.AsyncClient`` over ``httpx.ASGITransport`` (no socket); each
call runs its own event loop, so tests stay plain functions. The calendar's clock is fixed at
``NOW``, so default list windows and publication dates are exact values.
"""

from __future__ import annotations

import asyncio
import base64
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx

import events_calendar as ec
from events_calendar.http import create_app

__all__ = [
    "EMBEDDED_TERM_KEYS",
    "EVENT_KEYS",
    "LISTED_CATEGORY_KEYS",
    "LISTED_TAG_KEYS",
    "LOGINS",
    "NOW",
    "NOW_TEXT",
    "ORGANIZER_KEYS",
    "SITE",
    "VENUE_KEYS",
    "Site",
    "basic",
    "url_parts",
]

#: The calendar's fixed "now": the default event window runs 2031-01-09 .. 2033-01-10.
NOW = datetime(2031, 1, 10, 12, 0, 0, tzinfo=UTC)
NOW_TEXT = "2031-01-10 12:00:00"
SITE = "http://testserver"

#: One user per role; the login is the role's short name.
LOGINS = {
    "admin": "administrator",
    "editor": "editor",
    "author": "author",
    "contributor": "contributor",
    "subscriber": "subscriber",
}

#: Event record keys in the reference's order (fact sheet 4.1); single reads add ``json_ld``.
EVENT_KEYS = [
    "id",
    "global_id",
    "global_id_lineage",
    "author",
    "status",
    "date",
    "date_utc",
    "modified",
    "modified_utc",
    "url",
    "rest_url",
    "title",
    "description",
    "excerpt",
    "slug",
    "image",
    "all_day",
    "start_date",
    "start_date_details",
    "end_date",
    "end_date_details",
    "utc_start_date",
    "utc_start_date_details",
    "utc_end_date",
    "utc_end_date_details",
    "timezone",
    "timezone_abbr",
    "cost",
    "cost_details",
    "website",
    "show_map",
    "show_map_link",
    "hide_from_listings",
    "sticky",
    "featured",
    "categories",
    "tags",
    "venue",
    "organizer",
    "custom_fields",
]

#: A venue with every optional field set, in the reference's order (fact sheet 4.2); a single
#: read adds ``json_ld`` before ``show_map``; empty values are dropped.
VENUE_KEYS = [
    "id",
    "author",
    "status",
    "date",
    "date_utc",
    "modified",
    "modified_utc",
    "url",
    "venue",
    "description",
    "slug",
    "address",
    "city",
    "country",
    "province",
    "state",
    "zip",
    "phone",
    "website",
    "stateprovince",
    "show_map",
    "show_map_link",
    "global_id",
    "global_id_lineage",
]

#: An organizer with every optional field set (fact sheet 4.3); a single read adds ``json_ld``
#: before ``global_id``.
ORGANIZER_KEYS = [
    "id",
    "author",
    "status",
    "date",
    "date_utc",
    "modified",
    "modified_utc",
    "url",
    "organizer",
    "description",
    "slug",
    "phone",
    "website",
    "email",
    "global_id",
    "global_id_lineage",
]

#: A term embedded in an event (fact sheet 4.4 a).
EMBEDDED_TERM_KEYS = [
    "name",
    "slug",
    "term_group",
    "term_taxonomy_id",
    "taxonomy",
    "description",
    "parent",
    "count",
    "filter",
    "id",
    "urls",
]

#: A term from /categories (fact sheet 4.4 b); single reads and writes add ``_links``.
LISTED_CATEGORY_KEYS = [
    "id",
    "count",
    "description",
    "name",
    "slug",
    "taxonomy",
    "parent",
    "meta",
    "url",
    "urls",
]
LISTED_TAG_KEYS = [k for k in LISTED_CATEGORY_KEYS if k != "parent"]


def basic(login: str, password: str) -> str:
    """An ``Authorization`` header value for HTTP Basic."""
    return "Basic " + base64.b64encode(f"{login}:{password}".encode()).decode()


def url_parts(url: str) -> tuple[str, list[tuple[str, str]]]:
    """(origin + path, decoded query pairs in order): URLs compared without their encoding."""
    parts = urlsplit(url)
    return (
        f"{parts.scheme}://{parts.netloc}{parts.path}",
        parse_qsl(parts.query, keep_blank_values=True),
    )


class Site:
    """A calendar served by ``create_app``, with one user per role and a client for it."""

    def __init__(
        self,
        *,
        base_path: str = "/wp-json",
        vendor: str = "tribe",
        settings: ec.Settings | None = None,
    ) -> None:
        self.clock = ec.FixedClock(NOW)
        self.cal = ec.connect("sqlite://", clock=self.clock, settings=settings)
        self.passwords: dict[str, str] = {}
        self.user_ids: dict[str, int] = {}
        for login, role in LOGINS.items():
            self.user_ids[login] = self.cal.users.create(login, role=role).id
            self.passwords[login] = self.cal.users.issue_password(login)
        self.app = create_app(self.cal, base_path=base_path, vendor=vendor)
        self.prefix = f"{base_path.rstrip('/')}/{vendor}/events/v1"
        #: The namespace root as records show it (no trailing slash).
        self.root = SITE + self.prefix

    # -- requests --------------------------------------------------------------------------
    def request(
        self,
        method: str,
        path: str,
        *,
        as_: str | None = None,
        headers: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> httpx.Response:
        """``method`` on ``{namespace}{path}``; ``as_`` signs in with that login (Basic)."""
        sent = dict(headers or {})
        if as_ is not None:
            sent["Authorization"] = basic(as_, self.passwords[as_])
        return self.raw(method, self.prefix + path, headers=sent, **kwargs)

    def raw(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        """``method`` on a path outside the namespace (or any URL of the test site)."""

        async def send() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url=SITE) as client:
                return await client.request(method, url, **kwargs)

        return asyncio.run(send())

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", path, **kwargs)

    def put(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("PUT", path, **kwargs)

    def patch(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("PATCH", path, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("DELETE", path, **kwargs)

    def head(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("HEAD", path, **kwargs)

    # -- records made through the API (as the administrator unless told) -------------------
    def make(self, collection: str, body: dict[str, Any], *, as_: str = "admin") -> dict[str, Any]:
        """POST ``body`` to ``/{collection}`` and return the created record (201 expected)."""
        response = self.post(f"/{collection}", json=body, as_=as_)
        assert 201 == response.status_code, response.text
        record: dict[str, Any] = response.json()
        return record

    def event(self, *, as_: str = "admin", **fields: Any) -> dict[str, Any]:
        """An event: "Gala", 2031-06-15 19:00-23:00 UTC unless ``fields`` say otherwise."""
        body = {
            "title": "Gala",
            "start_date": "2031-06-15 19:00:00",
            "end_date": "2031-06-15 23:00:00",
            **fields,
        }
        return self.make("events", body, as_=as_)

    def venue(self, *, as_: str = "admin", **fields: Any) -> dict[str, Any]:
        return self.make("venues", {"venue": "Town Hall", **fields}, as_=as_)

    def organizer(self, *, as_: str = "admin", **fields: Any) -> dict[str, Any]:
        return self.make("organizers", {"organizer": "Acme Events", **fields}, as_=as_)

    def category(self, *, as_: str = "admin", **fields: Any) -> dict[str, Any]:
        return self.make("categories", {"name": "Music", **fields}, as_=as_)

    def tag(self, *, as_: str = "admin", **fields: Any) -> dict[str, Any]:
        return self.make("tags", {"name": "Outdoor", **fields}, as_=as_)
