"""The anonymous-read response cache: served again until a write commits."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

import events_calendar as ec
from events_calendar.backends.sqlite import SQLiteBackend
from events_calendar.http import create_app
from events_calendar.http.cache import cacheable
from events_calendar.http.middleware import CacheAnonymousReads
from events_calendar.queries import EventFilter
from events_calendar.storage import Filter

R = TypeVar("R", bound=ec.Event | ec.Venue | ec.Organizer | ec.Category | ec.Tag)

API = "/wp-json/tribe/events/v1"
NOW = datetime(2031, 1, 10, 12, tzinfo=UTC)
WINDOW = {"start_date": "2031-01-01", "end_date": "2031-12-31"}


class CountingBackend(SQLiteBackend):
    """Counts the event list queries that reach storage (with or without a total)."""

    queries = 0

    def query(self, cls: type[R], flt: Filter, *, count: bool = True) -> tuple[list[R], int | None]:
        if isinstance(flt, EventFilter):
            type(self).queries += 1
        return super().query(cls, flt, count=count)


@pytest.fixture
def backend(tmp_path: Path) -> CountingBackend:
    CountingBackend.queries = 0
    return CountingBackend(tmp_path / "cache.db")


@pytest.fixture
def cal(backend: CountingBackend) -> ec.Calendar:
    calendar = ec.Calendar(backend, clock=ec.FixedClock(NOW))
    calendar.users.create("admin", role="administrator")
    calendar.events.create(
        title="First", start_date="2031-02-01 10:00", end_date="2031-02-01 11:00"
    )
    return calendar


def get(cal: ec.Calendar, path: str, **kwargs: Any) -> httpx.Response:
    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app_for(cal))
        async with httpx.AsyncClient(transport=transport, base_url="http://cal.test") as client:
            return await client.request(kwargs.pop("method", "GET"), API + path, **kwargs)

    return asyncio.run(send())


_APPS: dict[int, Any] = {}


def app_for(cal: ec.Calendar) -> Any:
    """One app per calendar, so its cache lives across requests."""
    return _APPS.setdefault(id(cal), create_app(cal))


def titles(response: httpx.Response) -> list[str]:
    return [e["title"] for e in response.json()["events"]]


def test_a_repeated_anonymous_read_is_served_from_the_cache(cal: ec.Calendar) -> None:
    """The second identical anonymous list does not reach storage and answers the same."""
    first = get(cal, "/events", params=WINDOW)
    second = get(cal, "/events", params=WINDOW)
    assert (1, first.content, dict(first.headers)) == (
        CountingBackend.queries,
        second.content,
        dict(second.headers),
    )


def test_a_write_through_the_calendar_invalidates_the_cache(cal: ec.Calendar) -> None:
    """After a committed write the next read sees it."""
    get(cal, "/events", params=WINDOW)
    cal.events.create(title="Second", start_date="2031-03-01 10:00", end_date="2031-03-01 11:00")
    assert ["First", "Second"] == titles(get(cal, "/events", params=WINDOW))


def test_a_write_from_another_connection_invalidates_the_cache(
    cal: ec.Calendar, backend: CountingBackend
) -> None:
    """A commit by another process's connection to the file is noticed (data_version)."""
    get(cal, "/events", params=WINDOW)
    assert backend.path is not None
    with ec.connect(f"sqlite:///{backend.path}", clock=ec.FixedClock(NOW)) as other:
        other.events.create(
            title="Elsewhere", start_date="2031-04-01 10:00", end_date="2031-04-01 11:00"
        )
    assert ["First", "Elsewhere"] == titles(get(cal, "/events", params=WINDOW))


def test_signed_in_reads_bypass_the_cache(cal: ec.Calendar) -> None:
    """Requests with credentials always reach storage."""
    password = cal.users.issue_password("admin")
    for _ in range(2):
        get(cal, "/events", params=WINDOW, auth=("admin", password))
    assert 2 == CountingBackend.queries


@pytest.mark.parametrize(
    ("query", "has_credentials", "expected"),
    [
        ({}, False, True),
        ({"start_date": "2031-01-01", "end_date": "2031-12-31 23:00"}, False, True),
        ({"start_date": "now"}, False, False),
        ({"starts_after": "+2 hours"}, False, False),
        ({"only_with_upcoming": "1"}, False, False),
        ({"only_with_upcoming[]": "1"}, False, False),  # read as the same parameter
        ({"only_with_upcoming[0]": "1"}, False, False),
        ({"start_date[0]": "now"}, False, False),
        ({"password": "secret"}, False, False),
        ({"password[]": "secret"}, False, False),
        ({}, True, False),
    ],
)
def test_what_may_be_cached(query: dict[str, str], has_credentials: bool, expected: bool) -> None:
    """Only anonymous reads whose answer cannot move within the day are cached."""
    assert expected == cacheable(query, has_credentials)


@pytest.mark.parametrize(
    ("query", "cached"),
    [
        ("start_date=2031-01-01&end_date=2031-12-31", True),
        ("start_date=now", False),
        ("start_date=2031-01-01&start_date=now", False),  # the last value is the one read
        ("only_with_upcoming=1", False),
        ("only_with_upcoming%5B%5D=1", False),
        ("password=secret", False),
        ("password[]=secret", False),
    ],
)
def test_the_served_cache_judges_each_query_string(
    cal: ec.Calendar, query: str, cached: bool
) -> None:
    """A query string asked twice reaches storage once only if its answer cannot move within
    the day; asking one again is judged as the first time (the judgement is remembered)."""
    for _ in range(2):
        assert 200 == get(cal, f"/events?{query}").status_code
    assert (1 if cached else 2) == CountingBackend.queries


def test_head_from_the_cache_has_no_body(cal: ec.Calendar) -> None:
    """HEAD after a cached GET answers the same headers and no body."""
    get(cal, "/events", params=WINDOW)
    head = get(cal, "/events", params=WINDOW, method="HEAD")
    assert (200, b"", "1") == (head.status_code, head.content, head.headers["X-TEC-Total"])


def test_the_namespace_index_is_never_kept_as_the_clock_moves_it() -> None:
    """The index shows the default ``end_date`` as now + 24 months to the second: each
    answer is built afresh (a kept one was up to a day old), with an ETag of its body, so a
    tag from a second ago no longer matches."""
    from http_helpers import Site

    site = Site()
    first = site.get("/")
    site.clock.advance(timedelta(seconds=5))
    second = site.get("/")
    again = site.get("/", headers={"If-None-Match": second.headers["etag"]})
    stale = site.get("/", headers={"If-None-Match": first.headers["etag"]})
    routes = [r.json()["routes"]["/tribe/events/v1/events"] for r in (first, second)]
    ends = [route["endpoints"][0]["args"]["end_date"]["default"] for route in routes]
    assert (ends[0] != ends[1], 304, 200) == (True, again.status_code, stale.status_code)


def _all_at_once(cal: ec.Calendar, paths: list[str]) -> list[httpx.Response]:
    """GETs of ``paths`` sent together, on one event loop."""

    async def send() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app_for(cal))
        async with httpx.AsyncClient(transport=transport, base_url="http://cal.test") as client:
            return await asyncio.gather(*(client.get(API + path) for path in paths))

    return asyncio.run(send())


def test_readers_of_one_answer_being_built_wait_for_it(cal: ec.Calendar) -> None:
    """Eight anonymous readers asking at once for an answer the cache lacks: it is built
    once and the others are answered from the cache (each built it, a thread at a time)."""
    path = "/events?start_date=2031-01-01&end_date=2031-12-31"
    answers = _all_at_once(cal, [path] * 8)
    assert (1, {200}, 1) == (
        CountingBackend.queries,
        {a.status_code for a in answers},
        len({a.content for a in answers}),
    )


def test_answers_not_kept_are_built_for_each_reader(cal: ec.Calendar) -> None:
    """A refusal is not kept, so every reader waiting on it gets one of its own; other
    answers are built each once."""
    paths = ["/events?page=99"] * 3 + ["/events?start_date=2031-01-01"] * 3
    answers = _all_at_once(cal, paths)
    assert ([404] * 3 + [200] * 3, 4) == (
        [a.status_code for a in answers],
        CountingBackend.queries,
    )


class WritingMidBuild(CountingBackend):
    """A backend whose first event list query lets another connection commit a write, as
    a busy calendar does while an answer is being built: once every reader has asked
    (``asked``), so that none asks after the write or after the answer is done, which
    made the test fail now and then."""

    other: ec.Calendar | None = None
    asked = threading.Event()

    def query(self, cls: type[R], flt: Filter, *, count: bool = True) -> tuple[list[R], int | None]:
        found = super().query(cls, flt, count=count)
        if isinstance(flt, EventFilter) and type(self).queries == 1 and self.other is not None:
            assert self.asked.wait(timeout=30), "the readers never all asked"
            self.other.tags.create(name="Elsewhere")
        return found


def test_readers_waiting_on_an_answer_share_it_though_a_write_kept_it_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An answer built while another connection committed is not kept, but the readers that
    asked while it was built, from the same view of the data, are answered with it rather
    than each building it again (it is as fresh as their view); the next reader builds."""
    backend = WritingMidBuild(tmp_path / "busy.db")
    WritingMidBuild.queries = 0
    WritingMidBuild.asked = threading.Event()
    tokens = 0
    take_token = CacheAnonymousReads._token

    async def counted(self: CacheAnonymousReads) -> int:
        nonlocal tokens
        token = await take_token(self)
        tokens += 1
        if tokens == 6:  # each reader has its view, and has looked for the answer in the
            WritingMidBuild.asked.set()  # making before its next step on the loop
        return token

    monkeypatch.setattr(CacheAnonymousReads, "_token", counted)
    cal = ec.Calendar(backend, clock=ec.FixedClock(NOW))
    cal.events.create(title="First", start_date="2031-02-01 10:00", end_date="2031-02-01 11:00")
    backend.other = ec.connect(f"sqlite:///{tmp_path / 'busy.db'}", clock=ec.FixedClock(NOW))
    path = "/events?start_date=2031-01-01&end_date=2031-12-31"
    answers = _all_at_once(cal, [path] * 6)
    shared = WritingMidBuild.queries
    later = _all_at_once(cal, [path])
    backend.other.close()
    assert (1, 1, 2) == (shared, len({a.content for a in answers}), WritingMidBuild.queries)
    assert 200 == later[0].status_code


class GoneAway(SQLiteBackend):
    """Storage whose every read fails as a database that went away fails, once ``gone``."""

    gone = False

    def _refuse(self) -> None:
        if self.gone:
            raise ec.errors.StorageUnavailable.of("postgresql://db/cal", "server closed")

    def generation(self) -> Any:
        self._refuse()
        return super().generation()

    def generation_nowait(self) -> Any:
        self._refuse()
        return super().generation_nowait()

    def query(self, cls: type[R], flt: Filter, *, count: bool = True) -> tuple[list[R], int | None]:
        self._refuse()
        return super().query(cls, flt, count=count)

    def get_many(self, cls: type[R], ids: Any) -> dict[int, R]:
        self._refuse()
        return super().get_many(cls, ids)


@pytest.mark.parametrize("path", ["/events", "/events/{id}", "/venues", "/categories"])
def test_an_anonymous_read_of_a_database_gone_away_is_a_typed_503(
    tmp_path: Path, path: str
) -> None:
    """When storage cannot be asked, an anonymous read is the typed error every other call
    gets (503 ``storage_unavailable``), never the server's bare 500: the cache asks storage
    what changed before it answers, outside the app's error handling."""
    backend = GoneAway(tmp_path / "gone.db")
    cal = ec.Calendar(backend, clock=ec.FixedClock(NOW))
    event = cal.events.create(
        title="First", start_date="2031-02-01 10:00", end_date="2031-02-01 11:00"
    )
    url = path.format(id=event.id)
    assert 200 == get(cal, url).status_code
    backend.gone = True
    answers = [get(cal, url) for _ in range(2)]
    assert [(503, "storage_unavailable")] * 2 == [
        (a.status_code, a.json()["code"]) for a in answers
    ]


def test_a_file_restored_under_the_server_is_served_as_restored(tmp_path: Path) -> None:
    """An SQLite file restored from an older copy while the server runs (an online backup
    put back) is answered as restored, and so are the writes after it: its journal went
    back behind the cache's cursor, which the catch-up reads as "anything changed"."""
    path = tmp_path / "live.db"
    cal = ec.connect(f"sqlite:///{path}", clock=ec.FixedClock(NOW))
    gala = cal.events.create(
        title="Gala", start_date="2031-02-01 10:00", end_date="2031-02-01 11:00"
    )
    copy = tmp_path / "copy.db"
    with sqlite3.connect(path) as live, sqlite3.connect(copy) as target:
        live.backup(target)
    cal.events.update(gala.id, title="Gala (moved)")
    seen = [get(cal, f"/events/{gala.id}").json()["title"]]
    with sqlite3.connect(copy) as source, sqlite3.connect(path) as live:
        source.backup(live)
    seen.append(get(cal, f"/events/{gala.id}").json()["title"])
    cal.events.update(gala.id, title="Gala 2031")
    seen.append(get(cal, f"/events/{gala.id}").json()["title"])
    cal.close()
    assert ["Gala (moved)", "Gala", "Gala 2031"] == seen


def _raw_get(cal: ec.Calendar, path: str) -> httpx.Response:
    """A GET of ``path`` as sent (not under ``API``), through the calendar's one app."""

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app_for(cal))
        async with httpx.AsyncClient(transport=transport, base_url="http://cal.test") as client:
            return await client.get(path)

    return asyncio.run(send())


SPELLINGS = [
    "/wp-json/tribe/events/v1",
    "/wp-json/TRIBE/events/v1",
    "/wp-json/Tribe/Events/V1",
    "/?rest_route=/TRIBE/events/v1",
]


def test_a_new_event_shows_in_the_list_whatever_the_namespaces_case(cal: ec.Calendar) -> None:
    """Routes match in any case after the base path, and so does the cache: an event list
    kept under ``/wp-json/TRIBE/events/v1/events`` is retired by a new event as the one
    under ``.../tribe/...`` is. It was kept for everything but events, and stayed stale."""
    lists = [f"{root}/events" for root in SPELLINGS]
    before = [_raw_get(cal, path).json()["total"] for path in lists]
    cal.events.create(title="Second", start_date="2031-03-01 10:00", end_date="2031-03-01 11:00")
    after = [_raw_get(cal, path).json()["total"] for path in lists]
    assert ([1] * 4, [2] * 4) == (before, after)


def test_the_namespace_index_is_never_kept_whatever_its_case(backend: CountingBackend) -> None:
    """The namespace index moves with the clock (its default window ends 24 months from
    now, to the second): under any spelling it is answered afresh, not kept for the day."""
    clock = ec.FixedClock(NOW)
    cal = ec.Calendar(backend, clock=clock)
    moved = []
    for root in SPELLINGS[:2]:
        first = _raw_get(cal, f"{root}/").content
        clock.advance(timedelta(hours=1))
        moved.append(first != _raw_get(cal, f"{root}/").content)
    assert [True, True] == moved
