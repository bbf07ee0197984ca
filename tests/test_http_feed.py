"""The subscription feed: ``GET /events.ics`` and ``GET /events?ical=1``."""

from __future__ import annotations

import sys
from datetime import timedelta
from typing import Any

import icalendar
import pytest

import events_calendar as ec
from http_helpers import Site


@pytest.fixture
def site() -> Site:
    return Site()


def uids(response: Any) -> list[str]:
    """The UIDs of the VEVENTs of a feed, in order."""
    parsed = icalendar.Calendar.from_ical(response.content)
    return [str(e["UID"]) for e in parsed.walk("VEVENT")]


def uid(site: Site, event: dict[str, Any]) -> str:
    """The UID the feed gives an event: its id and the site's calendar identity."""
    return f"event-{event['id']}@{site.cal.backend.calendar_identity()}.events-calendar"


def test_the_feed_is_an_icalendar_file_of_the_listed_events(site: Site) -> None:
    """Published events in the default window, as text/calendar, in list order."""
    later = site.event(title="Later", start_date="2031-07-01 10:00", end_date="2031-07-01 11:00")
    sooner = site.event(title="Sooner")
    response = site.get("/events.ics")
    assert (200, "text/calendar; charset=utf-8", [uid(site, sooner), uid(site, later)]) == (
        response.status_code,
        response.headers["content-type"],
        uids(response),
    )


def test_ical_on_the_events_list_answers_the_feed(site: Site) -> None:
    """``GET /events?ical=1`` is the same calendar as ``GET /events.ics``."""
    site.event()
    feed, listed = site.get("/events.ics"), site.get("/events", params={"ical": "1"})
    assert (feed.content, "text/calendar; charset=utf-8") == (
        listed.content,
        listed.headers["content-type"],
    )


def test_the_feed_takes_the_lists_filters(site: Site) -> None:
    """``categories=jazz`` keeps only the jazz events."""
    jazz = site.event(title="Jazz night", categories=["Jazz"])
    site.event(title="Book fair")
    assert [uid(site, jazz)] == uids(site.get("/events.ics", params={"categories": "jazz"}))


def test_the_feed_lists_every_page() -> None:
    """With five events a page at most, twelve events are all in the feed, in order."""
    site = Site(settings=ec.Settings(max_per_page=5))
    events = [
        site.event(title=f"Talk {n}", start_date=f"2031-06-{n + 1:02d} 10:00") for n in range(12)
    ]
    assert [uid(site, e) for e in events] == uids(site.get("/events.ics", params={"per_page": "2"}))


def test_hidden_drafts_private_and_protected_events_are_not_in_an_anonymous_feed(
    site: Site,
) -> None:
    """Only the plain published event reaches an anonymous subscriber."""
    shown = site.event(title="Open")
    site.event(title="Draft", status="draft")
    site.event(title="Private", status="private")
    site.event(title="Hidden", hide_from_listings=True)
    protected = site.event(title="Members only")
    site.post(f"/events/{protected['id']}", json={"password": "sesame"}, as_="admin")
    assert [uid(site, shown)] == uids(site.get("/events.ics"))


def test_an_editor_with_a_status_filter_gets_drafts(site: Site) -> None:
    """Visibility is the list's: an editor asking for drafts gets them."""
    draft = site.event(title="Draft", status="draft")
    drafts = site.get("/events.ics", params={"status": "draft"}, as_="editor")
    assert [uid(site, draft)] == uids(drafts)


def test_a_bad_filter_is_the_lists_error(site: Site) -> None:
    """A bad filter answers the list's 400, as JSON."""
    response = site.get("/events.ics", params={"start_date": "not a date"})
    assert (400, "rest_invalid_param") == (response.status_code, response.json()["code"])


def test_the_etag_sent_back_gets_304(site: Site) -> None:
    """``If-None-Match`` with the feed's ETag answers 304 with no body."""
    site.event()
    etag = site.get("/events.ics").headers["etag"]
    again = site.get("/events.ics", headers={"If-None-Match": etag})
    assert (304, b"", etag) == (again.status_code, again.content, again.headers["etag"])


def test_if_modified_since_alone_gets_the_feed_in_full(site: Site) -> None:
    """Two versions of a feed seen in one second share their Last-Modified (a second is its
    grain), so ``If-Modified-Since`` cannot say which a client holds: a client that sends
    only the date gets the feed in full, the new version included; the ETag still decides."""
    site.event()
    first = site.get("/events.ics")
    site.event(title="Another")  # the same second: the clock is fixed
    again = site.get("/events.ics", headers={"If-Modified-Since": first.headers["last-modified"]})
    current = site.get("/events.ics", headers={"If-None-Match": again.headers["etag"]})
    assert (200, first.headers["last-modified"], 2, 304) == (
        again.status_code,
        again.headers["last-modified"],
        len(uids(again)),
        current.status_code,
    )


def test_a_new_event_changes_the_etag(site: Site) -> None:
    """After a write that changes the feed, the old ETag gets the new calendar (200)."""
    site.event()
    etag = site.get("/events.ics").headers["etag"]
    site.event(title="Another")
    again = site.get("/events.ics", headers={"If-None-Match": etag})
    assert (200, 2) == (again.status_code, len(uids(again)))


def test_a_removed_event_moves_last_modified_forward(site: Site) -> None:
    """Deleting an event changes the feed, so a client's If-Modified-Since gets it in full."""
    gone = site.event(title="Gone")
    site.event(title="Stays")
    modified = site.get("/events.ics").headers["last-modified"]
    site.clock.advance(timedelta(minutes=5))
    site.delete(f"/events/{gone['id']}", as_="admin")
    again = site.get("/events.ics", headers={"If-Modified-Since": modified})
    assert (200, "Fri, 10 Jan 2031 12:04:59 GMT") == (
        again.status_code,
        again.headers["last-modified"],
    )


def test_a_cached_feed_still_answers_304() -> None:
    """The anonymous-read cache checks the validators of the answer it keeps."""
    site = Site()
    site.event()
    first = site.get("/events.ics")
    second = site.get("/events.ics", headers={"If-None-Match": first.headers["etag"]})
    third = site.get("/events.ics")
    assert (304, b"", 200, first.content) == (
        second.status_code,
        second.content,
        third.status_code,
        third.content,
    )


def test_head_on_the_feed_has_its_headers_and_no_body(site: Site) -> None:
    """HEAD answers the feed's headers without the calendar."""
    site.event()
    response = site.head("/events.ics")
    assert (200, "text/calendar; charset=utf-8", b"") == (
        response.status_code,
        response.headers["content-type"],
        response.content,
    )


def test_options_on_the_feed_describes_its_filters(site: Site) -> None:
    """OPTIONS /events.ics lists GET with the event list's arguments but page and per_page."""
    body = site.request("OPTIONS", "/events.ics").json()
    listed = site.request("OPTIONS", "/events").json()["endpoints"][0]["args"]
    filters = {k: v for k, v in listed.items() if k not in ("page", "per_page")}
    assert (["GET"], filters) == (
        body["methods"],
        body["endpoints"][0]["args"],
    )


def test_the_doc_describes_the_feed(site: Site) -> None:
    """/doc documents GET /events.ics with its calendar and 304 answers."""
    operation = site.get("/doc").json()["paths"]["/events.ics"]["get"]
    assert (
        "feed_events",
        ["text/calendar"],
        "The feed is unchanged since the copy the client holds",
    ) == (
        operation["operationId"],
        list(operation["responses"]["200"]["content"]),
        operation["responses"]["304"]["description"],
    )


def test_the_index_does_not_list_the_feed(site: Site) -> None:
    """The namespace index stays the reference's: no ``/events.ics`` in it."""
    assert "/tribe/events/v1/events.ics" not in site.get("").json()["routes"]


def test_without_the_io_extra_the_feed_says_what_to_install(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without icalendar the feed answers 501 and names the extra, not a 500."""
    monkeypatch.setitem(sys.modules, "events_calendar.io.ical", None)
    response = site.get("/events.ics")
    assert (501, "ical_not_installed") == (response.status_code, response.json()["code"])


def test_a_feed_of_no_events_is_a_valid_calendar(site: Site) -> None:
    """No event listed: the feed is still a calendar with a component (the calendar's
    zone, RFC 5545 3.4), which subscribers read as empty, not as a broken file."""
    response = site.get("/events.ics")
    parsed = icalendar.Calendar.from_ical(response.content)
    assert (200, ["VTIMEZONE"], []) == (
        response.status_code,
        [c.name for c in parsed.subcomponents],
        uids(response),
    )
