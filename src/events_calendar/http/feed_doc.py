"""How ``/doc`` describes the subscription feed (``http.feed``): its words and responses."""

from __future__ import annotations

from typing import Any

__all__ = ["FEED_DESCRIPTION", "FEED_SUMMARY", "feed_responses"]

FEED_SUMMARY = "Subscribe to events: the events list as an iCalendar (.ics) feed"
FEED_DESCRIPTION = (
    "The events GET /events lists for the same filters and the same caller (published events "
    "only, for anonymous callers; no password-protected event it cannot unlock), every page "
    "of them up to 5,000 events, as one RFC 5545 calendar that Google Calendar, Outlook and "
    "Apple Calendar subscribe to. page and per_page are ignored. GET /events?ical=1 answers "
    "the same. Send the ETag back as If-None-Match (or Last-Modified as If-Modified-Since) "
    "to get 304 while the feed is unchanged."
)

_VALIDATORS: dict[str, Any] = {
    "ETag": {"schema": {"type": "string"}, "description": "A digest of the calendar sent"},
    "Last-Modified": {
        "schema": {"type": "string"},
        "description": "When this feed (this URL, for this caller) last changed",
    },
}


def feed_responses(error: dict[str, Any]) -> dict[str, Any]:
    """The feed's own responses: the calendar, not modified, or a bad filter."""
    calendar = {"schema": {"type": "string", "format": "binary"}}
    return {
        "200": {
            "description": "The matching events as one VCALENDAR",
            "headers": _VALIDATORS,
            "content": {"text/calendar": calendar},
        },
        "304": {"description": "The feed is unchanged since the copy the client holds"},
        "400": {
            "description": "A filter has a bad value",
            "content": {"application/json": {"schema": error}},
        },
        "501": {
            "description": "The server lacks the io extra (icalendar) that writes the feed",
            "content": {"application/json": {"schema": error}},
        },
    }
