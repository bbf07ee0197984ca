"""Kept event list pages that new events only add to get their totals patched, not rebuilt.

Each test compares the kept (patched) answer with the answer a server without a response
cache builds from the same data at the same moment: the body byte for byte, the total headers,
and the ETag as a digest of that body.
"""

from __future__ import annotations

import asyncio
import hashlib
from datetime import date, timedelta
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.http_helpers import NOW, SITE, Site

from events_calendar.events import EventCollection
from events_calendar.http import create_app
from events_calendar.http.listed_pages import PageNote, note_page, with_totals

TOTALS = ("x-tec-total", "x-tec-totalpages")


@pytest.fixture
def site() -> Site:
    return Site()


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the event lists the core builds (a kept answer builds none)."""
    calls: list[int] = []
    original = EventCollection.list

    def counting(self: EventCollection, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(EventCollection, "list", counting)
    return calls


def season(site: Site, days: list[int]) -> None:
    """One published event at 19:00 UTC on each day of February 2031 (1-based) in ``days``."""
    for day in days:
        start = date(2031, 2, 1) + timedelta(days=day - 1)
        site.event(
            title=f"Night {day}", start_date=f"{start} 19:00:00", end_date=f"{start} 22:00:00"
        )


def fresh(site: Site, url: str, params: dict[str, str]) -> httpx.Response:
    """The answer of a server that keeps nothing, on the same calendar and clock."""
    app = create_app(site.cal, cache=False)

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=SITE) as client:
            return await client.get(site.prefix + url, params=params)

    return asyncio.run(send())


def assert_current(site: Site, kept: httpx.Response, params: dict[str, str]) -> None:
    expected = fresh(site, "/events", params)
    assert expected.status_code == kept.status_code == 200
    assert expected.content == kept.content
    assert [expected.headers[h] for h in TOTALS] == [kept.headers[h] for h in TOTALS]
    assert f'"{hashlib.sha256(kept.content).hexdigest()[:32]}"' == kept.headers["etag"]
    assert str(len(kept.content)) == kept.headers["content-length"]


def test_a_new_event_after_a_page_patches_its_totals(site: Site, built: list[int]) -> None:
    season(site, list(range(1, 26)))  # 25 events: three pages of 10
    first = site.get("/events")
    assert ("25", "3") == tuple(first.headers[h] for h in TOTALS)
    season(site, [27])  # after every event of page 1
    built.clear()
    kept = site.get("/events")
    assert [] == built  # not built again
    assert ("26", "3") == tuple(kept.headers[h] for h in TOTALS)
    assert first.content != kept.content
    assert_current(site, kept, {})
    again = site.get("/events", headers={"If-None-Match": kept.headers["etag"]})
    assert 304 == again.status_code


def test_a_new_event_that_adds_a_page_patches_the_pages_before_it(
    site: Site, built: list[int]
) -> None:
    season(site, list(range(1, 21)))  # 20 events: two full pages
    site.get("/events")
    season(site, [25])  # a third page
    built.clear()
    kept = site.get("/events")
    assert [] == built
    assert ("21", "3") == tuple(kept.headers[h] for h in TOTALS)
    assert_current(site, kept, {})


def test_what_a_page_owes_adds_up_over_catch_ups(site: Site, built: list[int]) -> None:
    """Writes seen by catch-ups run for other reads add up until the page is read again."""
    season(site, list(range(1, 26)))
    site.get("/events")
    for day in (26, 27, 28):
        season(site, [day])
        site.get("/venues")  # a read that catches up, leaving page 1 unread
    built.clear()
    kept = site.get("/events")
    assert [] == built
    assert ("28", "3") == tuple(kept.headers[h] for h in TOTALS)
    assert_current(site, kept, {})
    assert site.get("/events").content == kept.content  # rewritten once, then kept as is


def test_a_new_event_on_the_page_or_before_it_rebuilds_it(site: Site, built: list[int]) -> None:
    season(site, list(range(2, 27)))
    site.get("/events", params={"page": "2"})
    season(site, [1])  # before page 2's events: every one of them moves down
    built.clear()
    kept = site.get("/events", params={"page": "2"})
    assert [1] == built
    assert_current(site, kept, {"page": "2"})


def test_the_last_page_is_rebuilt(site: Site, built: list[int]) -> None:
    season(site, list(range(1, 26)))
    site.get("/events", params={"page": "3"})
    season(site, [27])  # shows on page 3
    built.clear()
    kept = site.get("/events", params={"page": "3"})
    assert [1] == built
    assert 6 == len(kept.json()["events"])
    assert_current(site, kept, {"page": "3"})


def test_an_event_the_list_does_not_count_leaves_every_page(site: Site, built: list[int]) -> None:
    """A draft is in no anonymous list, whatever its date: not even the last page moves."""
    season(site, list(range(1, 26)))
    for page in ("1", "3"):
        site.get("/events", params={"page": page})
    site.event(title="Draft", status="draft", start_date="2031-02-27 19:00:00")
    built.clear()
    kept = {page: site.get("/events", params={"page": page}) for page in ("1", "3")}
    assert [] == built
    for page, answer in kept.items():
        assert_current(site, answer, {"page": page})


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    days=st.lists(st.integers(1, 28), min_size=1, max_size=24),
    new=st.lists(
        st.tuples(st.integers(1, 28), st.sampled_from(["publish", "draft"])),
        min_size=1,
        max_size=3,
    ),
    per_page=st.sampled_from(["3", "5"]),
    rename=st.booleans(),
)
def test_a_kept_page_is_always_the_answer_built_afresh(
    days: list[int], new: list[tuple[int, str]], per_page: str, rename: bool
) -> None:
    """Whatever the season and the new events (several commits between two reads, some not
    in the list, some on or before a page, beside a change to an event already listed),
    every kept page answers as a fresh build."""
    site = Site()
    season(site, days)
    pages = -(-len(days) // int(per_page))
    asked = [{"per_page": per_page, "page": str(p)} for p in range(1, pages + 1)]
    for params in asked:
        site.get("/events", params=params)
    for day, status in new:
        start = date(2031, 2, 1) + timedelta(days=day - 1)
        site.event(title="New", status=status, start_date=f"{start} 20:00:00")
    if rename:
        first = site.get("/events", params={"per_page": "1"}).json()["events"][0]["id"]
        assert (
            200 == site.post(f"/events/{first}", json={"title": "Renamed"}, as_="admin").status_code
        )
    for params in asked:
        assert_current(site, site.get("/events", params=params), params)


def test_a_body_not_ending_in_its_totals_is_not_rewritten() -> None:
    """The rewrite trusts nothing it has not checked: any other body gives ``None`` (the
    cache then retires the answer and builds it again)."""
    site = Site()
    season(site, list(range(1, 13)))
    page = site.cal.events.list(per_page=5)
    note = PageNote()
    note.attach(scope := {})
    note_page(scope, page)
    assert note.page is not None
    good = b'{"events":[],"total":12,"total_pages":3}'
    assert with_totals(note.page, 2, good, (), NOW) is not None
    for bad in (b'{"events":[],"total":11,"total_pages":3}', b'{"total":12,"total_pages":3} '):
        assert with_totals(note.page, 2, bad, (), NOW) is None
