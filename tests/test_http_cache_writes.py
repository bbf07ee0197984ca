"""The response cache after writes: no anonymous read is ever answered stale.

Each case warms the cache of one served app with every URL of a small calendar, makes one
write (through that app, or through another app on another connection to the same SQLite
file, as another worker or process would), then reads every URL again from the cached app and
compares it with what an app without a cache answers at that moment. Each runs on a SQLite
file and on PostgreSQL. Either way the cache learns what changed from the storage's change
journal, and retires only the answers depending on it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import httpx
import hypothesis
import pytest
from hypothesis import strategies as st
from tests.http_helpers import NOW, SITE, basic

import events_calendar as ec
from events_calendar.http import create_app
from events_calendar.http.cache import CachedResponse, ResponseCache
from events_calendar.http.cache_tags import ALL, SHOWS_EVENTS, Listing
from events_calendar.http.middleware import CacheAnonymousReads
from events_calendar.testing.postgres import test_database

API = "/wp-json/tribe/events/v1"
Write = tuple[str, str, dict[str, Any] | None]


class Served:
    """A calendar on a SQLite file, served with and without the response cache."""

    def __init__(self, url: str, password: str | None = None) -> None:
        # Twelve hours ahead of UTC: an event's day in the calendar is not its UTC day.
        settings = ec.Settings(timezone="Pacific/Auckland")
        self.cal = ec.connect(url, clock=ec.FixedClock(NOW), settings=settings)
        if password is None:
            self.cal.users.create("admin", role="administrator")
            password = self.cal.users.issue_password("admin")
        self.password = password
        self.cached = create_app(self.cal)
        self.uncached = create_app(self.cal, cache=False)

    def send(self, app: Any, method: str, path: str, **kwargs: Any) -> httpx.Response:
        async def go() -> httpx.Response:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url=SITE) as client:
                return await client.request(method, API + path, **kwargs)

        return asyncio.run(go())

    def write(self, method: str, path: str, body: dict[str, Any] | None) -> httpx.Response:
        auth = {"Authorization": basic("admin", self.password)}
        return self.send(self.cached, method, path, json=body, headers=auth)


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database two connections (two workers, two processes) can share."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'cal.db'}"
    database = test_database()
    database.reset()
    return database.url


@pytest.fixture
def served(url: str) -> Iterator[Served]:
    site = Served(url)
    yield site
    site.cal.close()


def _ids(site: Served) -> dict[str, int]:
    """A small calendar with every kind of link: its record ids by name."""

    def make(path: str, body: dict[str, Any]) -> int:
        response = site.write("POST", path, body)
        assert 201 == response.status_code, response.text
        return int(response.json()["id"])

    ids = {
        "v1": make("/venues", {"venue": "Hall"}),
        "v2": make("/venues", {"venue": "Barn"}),
        "o1": make("/organizers", {"organizer": "Acme"}),
        "o2": make("/organizers", {"organizer": "Zeta"}),
        "v3": make("/venues", {"venue": "Empty Barn"}),  # no event links these two
        "o3": make("/organizers", {"organizer": "Lonely"}),
        "c1": make("/categories", {"name": "Music"}),
        "c3": make("/categories", {"name": "Arts"}),
        "t1": make("/tags", {"name": "Outdoor"}),
    }
    ids["c2"] = make("/categories", {"name": "Jazz", "parent": ids["c1"]})
    when = {"start_date": "2031-06-15 19:00:00", "end_date": "2031-06-15 23:00:00"}
    links = {"venue": ids["v1"], "organizer": [ids["o1"]], "categories": [ids["c2"]]}
    ids["e1"] = make("/events", {"title": "Gala", **when, **links, "tags": [ids["t1"]]})
    ids["e2"] = make(
        "/events", {"title": "Fair", **when, "venue": ids["v2"], "categories": [ids["c1"]]}
    )
    ids["e3"] = make(
        "/events", {"title": "Walk", **when, "organizer": [ids["o2"]], "categories": [ids["c2"]]}
    )
    return ids


def _urls(ids: dict[str, int]) -> list[str]:
    singles = [f"/events/{ids[e]}" for e in ("e1", "e2", "e3")]
    singles += [f"/venues/{ids[v]}" for v in ("v1", "v2")]
    singles += [f"/organizers/{ids[o]}" for o in ("o1", "o2")]
    singles += [f"/categories/{ids[c]}" for c in ("c1", "c2")] + [f"/tags/{ids['t1']}"]
    lists = ["/events", "/venues", "/organizers", "/categories", "/tags", "/events/by-slug/gala"]
    lists += [f"/events?venue={ids[v]}" for v in ("v1", "v2")]
    lists += [f"/events?organizer={ids[o]}" for o in ("o1", "o2")]
    lists += [f"/events?categories={ids['c1']}", f"/events?tags[]={ids['t1']}"]
    lists += [f"/events?start_date={a}&end_date={b}" for a, b in WINDOWS]
    lists += [f"/events?search={word}" for word in SEARCHES]
    # With include the dates are ignored: the next post id is the next event's.
    later = ids["e3"] + 1
    lists += [f"/events?include={later}&start_date=2030-01-01&end_date=2030-01-31"]
    lists += [f"/events?include={ids['e1']},{later}&start_date=2031-06-01"]
    lists += [f"/{kind}?has_events={flag}" for kind in ("venues", "organizers") for flag in (1, 0)]
    return singles + lists


when = {"start_date": "2031-07-01 09:00:00", "end_date": "2031-07-01 11:00:00"}
#: One-word searches: in no event, in the written events' texts (with other case, accents, as
#: part of a word, or only in a description), in a stored event's title.
SEARCHES = ["zebra", "NEW", "ne", "cafe", "ISLAND", "gala", "a"]
#: Windows before, around, just either side of and after the written events' day.
WINDOWS = [
    ("2031-02-01", "2031-02-28"),
    ("2031-06-01", "2031-07-31"),
    ("2031-06-20", "2031-06-30"),
    ("2031-07-01", "2031-07-05"),
    ("2031-07-02", "2031-07-10"),
    ("2031-09-01", "2031-09-30"),
]
#: Each kind of write, from the ids of ``_ids``.
WRITES: dict[str, Callable[[dict[str, int]], Write]] = {
    "create an event in a linked venue, category, tag": lambda i: (
        "POST",
        "/events",
        {"title": "New", **when, "venue": i["v1"], "categories": [i["c2"]], "tags": [i["t1"]]},
    ),
    "create an event with no terms": lambda i: (
        "POST",
        "/events",
        {"title": "New", **when, "venue": i["v1"], "organizer": [i["o1"]]},
    ),
    "create an event at a venue and with an organizer that had none": lambda i: (
        "POST",
        "/events",
        {"title": "New", **when, "venue": i["v3"], "organizer": [i["o3"]]},
    ),
    "create an event with no terms and no links": lambda i: (
        "POST",
        "/events",
        {"title": "New", **when},
    ),
    "create an event with accented text": lambda i: (
        "POST",
        "/events",
        {"title": "Café Néon", "description": "<p>Îsland night</p>", **when},
    ),
    "create a draft event": lambda i: (
        "POST",
        "/events",
        {"title": "New", **when, "status": "draft", "venue": i["v1"]},
    ),
    "create an event with an inline venue": lambda i: (
        "POST",
        "/events",
        {"title": "New", **when, "venue": {"venue": "Tent", "city": "Lyon"}},
    ),
    "update an event's title": lambda i: ("POST", f"/events/{i['e1']}", {"title": "Ball"}),
    "take an event out of its terms": lambda i: (
        "PUT",
        f"/events/{i['e1']}",
        {"categories": [], "tags": []},
    ),
    "move an event to another venue": lambda i: ("PATCH", f"/events/{i['e1']}", {"venue": i["v2"]}),
    "delete an event": lambda i: ("DELETE", f"/events/{i['e1']}", None),
    "create a venue": lambda i: ("POST", "/venues", {"venue": "Shed"}),
    "rename a venue": lambda i: ("POST", f"/venues/{i['v1']}", {"venue": "Great Hall"}),
    "delete a venue": lambda i: ("DELETE", f"/venues/{i['v1']}", None),
    "rename an organizer": lambda i: ("POST", f"/organizers/{i['o1']}", {"organizer": "Acme Co"}),
    "delete an organizer": lambda i: ("DELETE", f"/organizers/{i['o1']}", None),
    "create a category": lambda i: ("POST", "/categories", {"name": "Folk", "parent": i["c1"]}),
    "rename a category": lambda i: ("POST", f"/categories/{i['c2']}", {"name": "Bebop"}),
    "delete a parent category": lambda i: ("DELETE", f"/categories/{i['c1']}", None),
    # A child's url is the path of its ancestors' slugs: the parent's write changes it.
    "change a parent category's slug": lambda i: (
        "POST",
        f"/categories/{i['c1']}",
        {"slug": "musique"},
    ),
    "move a parent category under another": lambda i: (
        "POST",
        f"/categories/{i['c1']}",
        {"parent": i["c3"]},
    ),
    "rename a tag": lambda i: ("POST", f"/tags/{i['t1']}", {"name": "Indoor"}),
    "delete a tag": lambda i: ("DELETE", f"/tags/{i['t1']}", None),
    "a refused write": lambda i: ("POST", f"/events/{i['e1']}", {"start_date": "not a date"}),
}


def _stale(site: Served, urls: list[str]) -> list[str]:
    """The URLs whose cached answer differs from an uncached one now."""
    stale = []
    for url in urls:
        cached, fresh = (site.send(app, "GET", url) for app in (site.cached, site.uncached))
        if (cached.status_code, cached.content) != (fresh.status_code, fresh.content):
            stale.append(url)
    return stale


@pytest.mark.parametrize("case", list(WRITES))
def test_no_read_is_stale_after_a_write_through_this_app(served: Served, case: str) -> None:
    """After each kind of write through the cached app, every read answers as uncached."""
    ids = _ids(served)
    urls = _urls(ids)
    _stale(served, urls)  # warms the cache
    served.write(*WRITES[case](ids))
    assert [] == _stale(served, urls)


@pytest.mark.parametrize("case", list(WRITES))
def test_no_read_is_stale_after_a_write_from_another_connection(
    served: Served, url: str, case: str
) -> None:
    """After each kind of write from another connection to the file, no read is stale."""
    ids = _ids(served)
    urls = _urls(ids)
    _stale(served, urls)
    other = Served(url, password=served.password)
    try:
        other.write(*WRITES[case](ids))
    finally:
        other.cal.close()
    assert [] == _stale(served, urls)


def _cache(app: Any) -> ResponseCache:
    """The response cache of a served app (its middleware stack is built on first use)."""
    layer = app.middleware_stack
    while not isinstance(layer, CacheAnonymousReads):
        layer = layer.app
    return layer.cache


def _cached_paths(app: Any) -> list[str]:
    return sorted(
        key[1].removeprefix(API) + (f"?{key[2]}" if key[2] else "") for key in _cache(app).kept()
    )


def test_a_write_keeps_the_answers_it_cannot_change(served: Served) -> None:
    """Renaming a venue through the app keeps the cached answers that do not show it."""
    ids = _ids(served)
    urls = [f"/events/{ids['e1']}", f"/events/{ids['e3']}", f"/venues/{ids['v2']}", "/events"]
    for url in urls:
        served.send(served.cached, "GET", url)
    served.write("POST", f"/venues/{ids['v1']}", {"venue": "Great Hall"})
    served.send(served.cached, "GET", "/venues")  # the next read accounts for the write
    expected = [f"/events/{ids['e3']}", f"/venues/{ids['v2']}", "/venues"]
    assert sorted(expected) == _cached_paths(served.cached)


def test_a_write_from_elsewhere_keeps_the_answers_it_cannot_change(
    served: Served, url: str
) -> None:
    """A commit from another connection retires only what the journal says it touched."""
    ids = _ids(served)
    for path in (f"/events/{ids['e1']}", f"/events/{ids['e3']}", "/events"):
        served.send(served.cached, "GET", path)
    other = Served(url, password=served.password)
    try:
        other.write("POST", f"/venues/{ids['v1']}", {"venue": "Great Hall"})
    finally:
        other.cal.close()
    served.send(served.cached, "GET", "/venues")
    assert sorted([f"/events/{ids['e3']}", "/venues"]) == _cached_paths(served.cached)


def test_a_bulk_load_from_elsewhere_empties_the_cache(served: Served, url: str) -> None:
    """A bulk load journals "anything", not its rows: every kept answer goes."""
    ids = _ids(served)
    served.send(served.cached, "GET", f"/venues/{ids['v2']}")
    other = ec.connect(url, clock=ec.FixedClock(NOW))
    try:
        other.events.bulk_create([{"title": "Loaded", **when}])
    finally:
        other.close()
    served.send(served.cached, "GET", "/venues")
    assert ["/venues"] == _cached_paths(served.cached)


def test_serve_s_fragment_switch_reaches_the_app(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``EVENTS_CALENDAR_FRAGMENT_CACHE=0`` serves without kept event objects."""
    from events_calendar.http.fragments import Fragments
    from events_calendar.http.server import app_from_environment

    monkeypatch.setenv("EVENTS_CALENDAR_DB", f"sqlite:///{tmp_path / 'cal.db'}")
    monkeypatch.setattr("gc.freeze", lambda: None)  # a worker's business, not the test run's
    kept = []
    for flag in ("1", "0"):
        monkeypatch.setenv("EVENTS_CALENDAR_FRAGMENT_CACHE", flag)
        kept.append(type(app_from_environment().state.fragments))
    assert [Fragments, type(None)] == kept


def test_a_new_event_keeps_the_lists_that_leave_it_out(served: Served) -> None:
    """A new event with no terms keeps the cached event lists whose filters exclude it, and
    the lists of other kinds."""
    ids = _ids(served)
    spared = [f"/events?venue={ids['v2']}", "/events?start_date=2031-02-01&end_date=2031-02-28"]
    for url in [*spared, f"/events?venue={ids['v1']}", "/events"]:
        served.send(served.cached, "GET", url)
    for url in ("/venues", "/organizers"):
        served.send(served.cached, "GET", url)
    served.write("POST", "/events", {"title": "New", **when, "venue": ids["v1"]})
    served.send(served.cached, "GET", "/categories")
    assert sorted([*spared, "/venues", "/organizers", "/categories"]) == _cached_paths(
        served.cached
    )


def test_a_window_to_the_last_day_a_date_holds_is_judged_like_any_other(served: Served) -> None:
    """A kept list whose window ends on 9999-12-31 (a day more would overflow): a new event
    in it is caught up with like any other, and the list's next read is answered, fresh."""
    url = "/events?start_date=2000-01-01&end_date=9999-12-31"
    served.send(served.cached, "GET", url)
    served.write("POST", "/events", {"title": "New", **when})
    cached, fresh = (served.send(app, "GET", url) for app in (served.cached, served.uncached))
    assert (200, fresh.json()) == (cached.status_code, cached.json())
    assert ["New"] == [event["title"] for event in cached.json()["events"]]


def test_a_new_draft_keeps_every_event_list(served: Served) -> None:
    """Anonymous lists show published events only: a new draft changes none of them."""
    ids = _ids(served)
    kept = ["/events", f"/events?venue={ids['v1']}", "/events?search=new"]
    for url in kept:
        served.send(served.cached, "GET", url)
    served.write("POST", "/events", {"title": "New", **when, "status": "draft"})
    served.send(served.cached, "GET", "/venues")
    assert sorted([*kept, "/venues"]) == _cached_paths(served.cached)


def _entry(*tags: str, body: bytes = b"{}") -> CachedResponse:
    return CachedResponse(200, (), body, (), frozenset(tags))


def test_a_catch_up_retires_only_the_tags_it_names() -> None:
    """The journal's changes retire the answers sharing a tag with them, and no other."""
    cache = ResponseCache()
    token = cache.caught_up(1, 10, None)
    cache.put("venue", token, _entry("venue:1"), 1)
    cache.put("other", token, _entry("venue:2"), 1)
    assert cache.begin(2) is None  # the data moved: catch up before reading
    cache.caught_up(2, 11, frozenset({"venue:1"}))
    assert (["other"], 11) == (cache.kept(), cache.cursor)


def test_a_journal_that_cannot_say_empties_the_cache() -> None:
    cache = ResponseCache()
    cache.put("gone", cache.caught_up(1, 10, None), _entry("venue:1"), 1)
    cache.caught_up(2, 50, None)
    assert [] == cache.kept()


def test_new_events_keep_only_the_lists_that_leave_them_out() -> None:
    """With new events among the changes, the answers that may show events go unless they
    are event lists that ``spared`` says show none of them; venue lists and the like stay."""
    cache = ResponseCache()
    token = cache.caught_up(1, 10, None)
    tags = frozenset({ALL, SHOWS_EVENTS})
    listing = CachedResponse(200, (), b"[]", (), tags, listing=Listing.of("venue=2"))
    cache.put("spared", token, listing, 1)
    cache.put("shown", token, attrs.evolve(listing, listing=Listing.of("venue=1")), 1)
    cache.put("feed", token, _entry(ALL, SHOWS_EVENTS), 1)
    cache.put("venues", token, _entry(ALL), 1)
    cache.put("single", token, _entry("event:1"), 1)
    cache.caught_up(2, 11, frozenset(), lambda listing: listing.venues == {2})
    assert ["spared", "venues", "single"] == cache.kept()


def test_an_answer_read_before_a_catch_up_is_not_kept() -> None:
    """An answer built from data a write has since changed is never kept."""
    cache = ResponseCache()
    token = cache.caught_up(1, 10, None)
    cache.caught_up(2, 11, frozenset({"venue:9"}))
    cache.put("late", token, _entry("venue:1"), 2)
    assert [] == cache.kept()


def test_an_answer_read_after_the_data_moved_is_not_kept() -> None:
    """An answer that may show a commit the view does not is not kept: the next catch-up
    would take that commit's entries for changes to it."""
    cache = ResponseCache()
    token = cache.caught_up(1, 10, None)
    cache.put("newer", token, _entry("venue:1"), 2)
    cache.put("current", token, _entry("venue:1"), 1)
    assert ["current"] == cache.kept()


def test_the_cache_keeps_the_recently_used_within_its_bytes() -> None:
    """Past its byte budget the cache drops the least recently used answers first."""
    cache = ResponseCache(max_bytes=10)
    token = cache.caught_up(1, 10, None)
    cache.put("a", token, _entry(body=b"123456"), 1)
    cache.put("b", token, _entry(body=b"1234"), 1)
    cache.get("a")
    cache.put("c", token, _entry(body=b"1234"), 1)
    assert ["a", "c"] == cache.kept()


@hypothesis.settings(max_examples=min(hypothesis.settings().max_examples, 15))
@hypothesis.given(
    writes=st.lists(st.tuples(st.sampled_from(list(WRITES)), st.booleans()), max_size=4)
)
def test_no_read_is_stale_after_any_sequence_of_writes(
    tmp_path_factory: pytest.TempPathFactory, writes: list[tuple[str, bool]]
) -> None:
    """Writes of every kind, each through the cached app or another connection, with the
    cache read (and refilled) between them: every answer stays as an uncached one."""
    url = f"sqlite:///{tmp_path_factory.mktemp('cal') / 'cal.db'}"
    site = Served(url)
    other = Served(url, password=site.password)
    try:
        ids = _ids(site)
        urls = _urls(ids)
        _stale(site, urls)
        stale = []
        for case, elsewhere in writes:
            (other if elsewhere else site).write(*WRITES[case](ids))
            stale += [(case, found) for found in _stale(site, urls)]
        assert [] == stale
    finally:
        other.cal.close()
        site.cal.close()
