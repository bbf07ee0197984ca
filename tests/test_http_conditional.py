"""Conditional requests for anonymous reads: ETag, If-None-Match -> 304, Cache-Control."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest
from tests.http_helpers import Site

from events_calendar.http.conditional import last_modified

VALIDATOR_HEADERS = ("etag", "last-modified", "cache-control")


@pytest.fixture
def site() -> Site:
    site = Site()
    site.event(title="Gala")
    return site


def test_an_anonymous_read_carries_its_validators(site: Site) -> None:
    """A strong ETag from the body, Last-Modified the second before it was built (12:00:00),
    and no-cache."""
    response = site.get("/events")
    etag = f'"{hashlib.sha256(response.content).hexdigest()[:32]}"'
    assert (etag, "Fri, 10 Jan 2031 11:59:59 GMT", "no-cache") == tuple(
        response.headers[name] for name in VALIDATOR_HEADERS
    )


def test_a_matching_if_none_match_is_answered_304_without_a_body(site: Site) -> None:
    """Sending back the ETag of a current answer gets 304, the ETag and no body."""
    etag = site.get("/events").headers["etag"]
    again = site.get("/events", headers={"If-None-Match": etag})
    assert (304, b"", etag) == (again.status_code, again.content, again.headers["etag"])


def test_a_304_comes_even_for_an_answer_not_yet_kept(site: Site) -> None:
    """A tag another worker gave for the same body is honoured on this worker's first build."""
    etag = site.get("/events/by-slug/gala").headers["etag"]
    other = Site()
    other.event(title="Gala")
    assert 304 == other.get("/events/by-slug/gala", headers={"If-None-Match": etag}).status_code


def test_an_old_etag_after_a_write_gets_the_new_answer(site: Site) -> None:
    """Once a write changed the answer, the old tag no longer matches: 200 and the new body."""
    etag = site.get("/events").headers["etag"]
    site.event(title="Fair")
    again = site.get("/events", headers={"If-None-Match": etag})
    titles = [e["title"] for e in again.json()["events"]]
    assert (200, ["Gala", "Fair"]) == (again.status_code, titles)


def test_if_modified_since_alone_is_answered_in_full(site: Site) -> None:
    """Last-Modified has one-second steps, so it never alone decides a 304."""
    modified = site.get("/events").headers["last-modified"]
    again = site.get("/events", headers={"If-Modified-Since": modified})
    assert 200 == again.status_code


def test_a_head_with_a_matching_tag_is_304(site: Site) -> None:
    """HEAD is revalidated as its GET is."""
    etag = site.get("/events").headers["etag"]
    assert 304 == site.head("/events", headers={"If-None-Match": etag}).status_code


def test_signed_in_reads_carry_no_validators(site: Site) -> None:
    """Answers for a signed-in user are never cached, here or by anyone else."""
    response = site.get("/events", as_="admin")
    assert [] == [name for name in VALIDATOR_HEADERS if name in response.headers]


def test_a_signed_in_read_with_a_matching_tag_gets_its_full_answer(site: Site) -> None:
    """A shared cache revalidating for a signed-in user is never told its anonymous copy holds."""
    etag = site.get("/events").headers["etag"]
    response = site.get("/events", as_="admin", headers={"If-None-Match": etag})
    assert 200 == response.status_code


def test_a_read_that_moves_with_the_clock_carries_validators_built_afresh(site: Site) -> None:
    """The cache may not keep ``start_date=now`` (its answer changes as time passes, with no
    write), but the answer still carries validators, and a tag that still matches gets a
    304; once time has moved the event out, the same tag gets the new answer."""
    first = site.get("/events", params={"start_date": "now"})
    etag = first.headers["etag"]
    assert (f'"{hashlib.sha256(first.content).hexdigest()[:32]}"', "no-cache") == (
        etag,
        first.headers["cache-control"],
    )
    assert ["Gala"] == [e["title"] for e in first.json()["events"]]
    again = site.get("/events", params={"start_date": "now"}, headers={"If-None-Match": etag})
    assert (304, b"", etag) == (again.status_code, again.content, again.headers["etag"])
    site.clock.set(datetime(2031, 7, 1, tzinfo=UTC))  # after the Gala
    later = site.get("/events", params={"start_date": "now"}, headers={"If-None-Match": etag})
    assert (200, []) == (later.status_code, later.json()["events"])
    assert etag != later.headers["etag"]


def test_only_with_upcoming_is_revalidated_too(site: Site) -> None:
    params = {"only_with_upcoming": "true"}
    etag = site.get("/venues", params=params).headers["etag"]
    again = site.get("/venues", params=params, headers={"If-None-Match": etag})
    assert 304 == again.status_code


def test_a_read_with_a_password_carries_no_validators(site: Site) -> None:
    """An answer opened with a password is for that reader: no validators, and a matching tag
    of the same answer without the password still gets the answer in full."""
    etag = site.get("/events/by-slug/gala").headers["etag"]
    params = {"password": "open sesame"}
    response = site.get("/events/by-slug/gala", params=params, headers={"If-None-Match": etag})
    assert 200 == response.status_code
    assert [] == [name for name in VALIDATOR_HEADERS if name in response.headers]


def test_with_the_cache_off_no_answer_carries_validators() -> None:
    """``cache=False`` turns the validators off with it (``docs/http.md``)."""
    from events_calendar.http import create_app

    site = Site()
    site.event(title="Gala")
    site.app = create_app(site.cal, cache=False)
    for params in ({}, {"start_date": "now"}):
        response = site.get("/events", params=params)
        assert 200 == response.status_code
        assert [] == [name for name in VALIDATOR_HEADERS if name in response.headers]


def test_last_modified_is_never_later_than_the_servers_date() -> None:
    """uvicorn's ``Date`` is read from a clock it reads once a second, so it may still say the
    second before the answer was built: ``Last-Modified`` is that earlier second, whatever the
    fraction (RFC 9110 section 8.8.2.1: never later than ``Date``)."""
    built = [datetime(2031, 1, 10, 12, 0, 0, micro, tzinfo=UTC) for micro in (0, 999_999)]
    date = format_datetime(built[0] - timedelta(seconds=1), usegmt=True)
    assert [date, date] == [last_modified(b) for b in built]
