"""The subscription feed: ``GET <namespace>/events.ics`` (and ``GET /events?ical=1``).

A calendar application subscribes to this URL and polls it. The feed takes the filters of
``GET /events`` and lists what that list lists, as the same caller, through the same
``cal.events.list``: visibility rules are the core's. It lists every match, page after page,
up to ``FEED_CAP`` events, in the list's order. A password-protected event the caller cannot
unlock is left out (a list shows it blanked; a calendar application would show the blank).

``ETag`` is a digest of the body (which depends only on the events, see ``io.ical_write``);
``Last-Modified`` is when this process first answered this URL, for this caller, with this
body, so it moves forward whenever the feed changes, removals included. ``If-None-Match`` and
``If-Modified-Since`` get ``304 Not Modified`` (``http.conditional``).
"""

from __future__ import annotations

import threading
from datetime import datetime
from itertools import islice

from starlette.responses import Response

from ..caching import Recent
from ..queries import EventQuery
from ..records import Event
from .call import Call
from .conditional import last_modified, not_modified, strong_etag
from .origin import address

__all__ = ["FEED_CAP", "MEDIA_TYPE", "feed_events"]

#: The most events one feed lists (the first ones in list order).
FEED_CAP = 5000
MEDIA_TYPE = "text/calendar; charset=utf-8"
_NOT_INSTALLED = {
    "code": "ical_not_installed",
    "message": "This server cannot write iCalendar: install events-calendar[io] to serve the feed.",
    "data": {"status": 501},
}


def feed_events(call: Call) -> Response:
    """The events the list's filters select, as an iCalendar file."""
    try:  # the io extra, imported when a feed is asked for
        from ..io.ical import write_events
    except ImportError:
        return call.respond(501, _NOT_INSTALLED)
    events = _every_match(call)
    body = write_events(call.cal, events)
    etag = strong_etag(body)
    since = _versions(call).since(_caller_url(call), etag, call.cal.now())
    headers = {
        "ETag": etag,
        "Last-Modified": last_modified(since),
        "Cache-Control": "no-cache",
    }
    # Only the ETag decides, as for every answer (``docs/http.md``): two versions seen in one
    # second share their one-second Last-Modified, so If-Modified-Since alone gets the feed.
    if not_modified(call.request.headers, {"etag": etag}):
        return Response(status_code=304, headers=headers)
    return Response(body, status_code=200, headers=headers, media_type=MEDIA_TYPE)


def _every_match(call: Call) -> list[Event]:
    """Every event of the list, in list order, up to the cap: read as ``iter`` reads, by
    keyset (a page deep into the list costs what the first does) and counting no total.
    A password-protected event stays out: a calendar application would show its blank."""
    params = {k: v for k, v in call.only(EventQuery).items() if k not in ("page", "per_page")}
    shown = (e for e in call.cal.events.iter(EventQuery(**params)) if not e.locked)
    return list(islice(shown, FEED_CAP))


def _caller_url(call: Call) -> tuple[str, int | None]:
    """The feed's address as asked, and the caller."""
    site, path, query = address(call.request.scope)
    user = call.cal.user
    return (f"{site}{path}?{query}", user.id if user else None)


class _Versions:
    """When each feed (URL and caller) last changed, as this process saw it (bounded)."""

    def __init__(self, size: int = 4096) -> None:
        self._lock = threading.Lock()
        self._seen: Recent[tuple[str, int | None], tuple[str, datetime]] = Recent(size)

    def since(self, key: tuple[str, int | None], etag: str, now: datetime) -> datetime:
        """The time the feed at ``key`` took the body ``etag`` (``now`` if it just did)."""
        with self._lock:
            known = self._seen.get(key)
            if known is None or known[0] != etag:
                known = (etag, now.replace(microsecond=0))
            self._seen.put(key, known)
            return known[1]


_CREATING = threading.Lock()


def _versions(call: Call) -> _Versions:
    """The app's record of feed versions (kept on the Starlette app's state)."""
    state = call.request.app.state
    with _CREATING:
        if not hasattr(state, "feed_versions"):
            state.feed_versions = _Versions()
    versions: _Versions = state.feed_versions
    return versions
