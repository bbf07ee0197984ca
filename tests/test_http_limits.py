"""Request size limits (issue 9, item 1): bodies, URLs and searches cannot freeze the server."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.types import Message, Receive, Scope, Send

from events_calendar.http import create_app
from events_calendar.http.limits import HttpLimits, RequestLimits, json_values
from http_helpers import SITE, Site

MB = 1024 * 1024


@pytest.fixture
def site() -> Site:
    site = Site()
    site.app = create_app(site.cal, limits=HttpLimits(max_body=MB, max_url=2048))
    return site


def test_a_declared_large_body_is_refused_unread(site: Site) -> None:
    """A ``Content-Length`` over the limit is a 413 before a byte of the body is read."""
    sent: list[int] = []

    async def body() -> AsyncIterator[bytes]:
        for _ in range(100):
            sent.append(1)
            yield b"x" * MB

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=site.app)
        async with httpx.AsyncClient(transport=transport, base_url=SITE) as client:
            headers = {"Content-Length": str(100 * MB), "Content-Type": "application/json"}
            return await client.post(site.prefix + "/events", content=body(), headers=headers)

    response = asyncio.run(send())
    assert (413, "rest_body_too_large", 0) == (
        response.status_code,
        response.json()["code"],
        len(sent),
    )


def test_a_streamed_large_body_is_refused_once_past_the_limit(site: Site) -> None:
    """A chunked body is counted as it arrives and refused just past the limit."""
    sent: list[int] = []

    async def body() -> AsyncIterator[bytes]:
        for _ in range(100):
            sent.append(1)
            yield b"x" * (256 * 1024)

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=site.app)
        async with httpx.AsyncClient(transport=transport, base_url=SITE) as client:
            return await client.post(site.prefix + "/events", content=body())

    response = asyncio.run(send())
    assert (413, 5) == (response.status_code, len(sent))


def test_a_large_body_is_refused_before_authentication(site: Site) -> None:
    """Anonymous or not, wrong credentials or not: the answer is the 413."""
    response = site.post(
        "/events",
        content=b"{" + b" " * (2 * MB) + b"}",
        headers={"Content-Type": "application/json", "Authorization": "Basic bm86bm8="},
    )
    assert 413 == response.status_code


def test_a_body_within_the_limit_is_served(site: Site) -> None:
    """A body under the limit reaches the app unchanged."""
    description = "d" * (MB // 2)
    event = site.event(description=description)
    assert description == event["description"]


@pytest.mark.parametrize(
    "body",
    [
        b'{"x":[' + b"[]," * 100_000 + b"[]]}",  # 100,004 values, 100,001 of them empty
        b"[" + b"0," * 100_000 + b"0]",
        b'{"x":"' + b"," * 100 + b'",' + b'"k":1,' * 60_000 + b'"y":2}',
    ],
)
def test_a_json_body_of_too_many_values_is_refused_undecoded(site: Site, body: bytes) -> None:
    """Decoding a JSON body runs on the event loop: past ``max_json_values`` values it is a
    413 before anything decodes it (a 4 MiB body of empty arrays held every request up for
    seconds), whoever sends it."""
    site.app = create_app(site.cal, limits=HttpLimits(max_body=MB, max_json_values=100_000))
    response = site.post("/events", content=body, headers={"Content-Type": "application/json"})
    assert (413, "rest_body_too_large", 0) == (
        response.status_code,
        response.json()["code"],
        site.cal.events.list().total,
    )


def test_commas_inside_strings_are_no_values(site: Site) -> None:
    """A description full of commas is text, not values: served as any body of its size."""
    site.app = create_app(site.cal, limits=HttpLimits(max_body=MB, max_json_values=1_000))
    description = "a, " * 50_000
    event = site.event(description=description)
    assert description.strip() == event["description"].strip()


def test_a_form_body_is_bounded_by_its_fields_not_its_commas(site: Site) -> None:
    """A form is no JSON: its commas are text, its fields are counted where it is read."""
    site.app = create_app(site.cal, limits=HttpLimits(max_body=MB, max_json_values=10))
    body = "title=T&start_date=2031-05-01 10:00&end_date=2031-05-01 11:00&excerpt=" + "," * 50
    response = site.post(
        "/events",
        content=body.encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        as_="admin",
    )
    assert 201 == response.status_code


def test_a_long_url_is_refused_with_414(site: Site) -> None:
    """A URL past ``max_url`` bytes is a 414 ``rest_url_too_long``."""
    response = site.get("/events", params={"search": "x" * 3000})
    assert (414, "rest_url_too_long") == (response.status_code, response.json()["code"])


def test_a_reader_is_served_fast_while_a_huge_body_is_refused(site: Site) -> None:
    """A reader's GET answers within 50 ms while a 100 MB upload is refused alongside."""
    site.event()

    async def huge() -> AsyncIterator[bytes]:
        for _ in range(100):
            await asyncio.sleep(0)
            yield b"x" * MB

    async def run() -> tuple[int, float, int]:
        transport = httpx.ASGITransport(app=site.app)
        async with httpx.AsyncClient(transport=transport, base_url=SITE) as client:
            await client.get(site.prefix + "/events")  # warm up
            upload = asyncio.create_task(client.post(site.prefix + "/events", content=huge()))
            await asyncio.sleep(0)
            started = time.perf_counter()
            read = await client.get(site.prefix + "/events?per_page=5")
            elapsed = time.perf_counter() - started
            refused = await upload
            return read.status_code, elapsed, refused.status_code

    status, elapsed, refused = asyncio.run(run())
    assert (200, True, 413) == (status, elapsed < 0.05, refused)


@pytest.mark.parametrize("kind", ["events", "venues", "organizers", "categories", "tags"])
def test_a_search_longer_than_500_characters_is_invalid(site: Site, kind: str) -> None:
    """Every kind's ``search`` is at most 500 characters."""
    response = site.get(f"/{kind}", params={"search": "ab " * 200})
    assert (400, {"search": "Invalid parameter."}) == (
        response.status_code,
        response.json()["data"]["params"],
    )


def test_a_venue_search_of_many_words_is_one_term(site: Site) -> None:
    """Past nine words a venue search is the whole text, as an event search is."""
    site.venue(venue="a b c d e f g h i j")
    hits = site.get("/venues", params={"search": "a b c d e f g h i j"}).json()["total"]
    misses = site.get("/venues", params={"search": "j i h g f e d c b a"}).json()["total"]
    assert (1, 0) == (hits, misses)


def test_the_limits_are_imported_from_the_adapters_package() -> None:
    """``HttpLimits`` and ``SignInLimits`` come from ``events_calendar.http``, as docs/http.md
    writes them, and an app made with them serves with them."""
    from events_calendar import http

    site = Site()
    limits = http.HttpLimits(max_url=200, sign_ins=http.SignInLimits(), read_threads=1)
    site.app = http.create_app(site.cal, limits=limits)
    statuses = [
        site.get("/events").status_code,
        site.get("/events?search=" + "x" * 300).status_code,
    ]
    assert (http.HttpLimits, [200, 414]) == (HttpLimits, statuses)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet=',:[]{}"\\ aé\n'),
    lambda children: (
        st.lists(children, max_size=6)
        | st.dictionaries(st.text(alphabet=',:{["\\k'), children, max_size=6)
    ),
    max_leaves=40,
)


def _tally(value: object) -> tuple[int, int]:
    """(values with keys, containers) of a decoded JSON value."""
    if isinstance(value, dict):
        inner = [_tally(v) for v in value.values()]
        return 1 + len(value) + sum(n for n, _ in inner), 1 + sum(c for _, c in inner)
    if isinstance(value, list):
        inner = [_tally(v) for v in value]
        return 1 + sum(n for n, _ in inner), 1 + sum(c for _, c in inner)
    return 1, 0


@given(value=_JSON, most=st.integers(min_value=1, max_value=120), ascii_only=st.booleans())
def test_json_values_never_counts_fewer_values_than_a_body_holds(
    value: object, most: int, ascii_only: bool
) -> None:
    """Past ``most`` values a body is always found out, whatever its strings hold, and only
    then (an empty array or object was counted twice)."""
    raw = json.dumps(value, ensure_ascii=ascii_only).encode()
    values, _ = _tally(value)
    assert (values > most) == (json_values(raw, most=most) > most)


@pytest.mark.parametrize(
    ("raw", "values"),
    [
        (b"[{},{}]", 3),
        (b"[ [ ] , { } ,[\n]]", 4),
        (b'{"a": [], "b": {}, "[]": "{}"}', 7),
        (b'["[]", "{ }", []]', 4),
    ],
)
def test_json_values_counts_empty_containers_once(raw: bytes, values: int) -> None:
    """Each value once, empty arrays and objects too, with or without whitespace in them,
    inside strings or not."""
    assert (False, True) == (
        json_values(raw, most=values) > values,
        json_values(raw, most=values - 1) > values - 1,
    )


def test_a_body_at_the_value_limit_is_served(site: Site) -> None:
    """A body of 50,001 empty objects holds 50,002 values: within 100,000, it is read (it
    was a 413, each ``{}`` counted as two values)."""
    site.app = create_app(site.cal, limits=HttpLimits(max_body=MB, max_json_values=100_000))
    body = b"[" + b",".join([b"{}"] * 50_001) + b"]"
    response = site.post("/events", content=body, headers={"Content-Type": "application/json"})
    assert (400, "rest_missing_callback_param") == (  # read: it is no event
        response.status_code,
        response.json()["code"],
    )


def test_bodies_past_the_buffered_budget_are_refused_with_503() -> None:
    """While bodies being read hold ``max_buffered`` bytes, a body that would pass it is a
    503 ``rest_server_busy`` with ``Retry-After``; once they are answered, it is served (a
    hundred slow 4 MiB uploads grew a worker by 400 MB)."""
    answered: list[bytes] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        answered.append((await receive())["body"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    limits = RequestLimits(app, max_body=100, max_url=100, max_json_values=10, max_buffered=150)

    async def post(chunks: list[bytes], gate: asyncio.Event | None = None) -> list[Message]:
        sent: list[Message] = []

        async def receive() -> Message:
            if len(chunks) == 1 and gate is not None:
                await gate.wait()
            chunk = chunks.pop(0)
            return {"type": "http.request", "body": chunk, "more_body": bool(chunks)}

        async def send(message: Message) -> None:
            sent.append(message)

        scope = {"type": "http", "path": "/", "query_string": b"", "headers": []}
        await limits(scope, receive, send)
        return sent

    async def go() -> list[tuple[int, dict[bytes, bytes]]]:
        gate = asyncio.Event()
        slow = asyncio.create_task(post([b"a" * 100, b""], gate))
        await asyncio.sleep(0)  # its first 100 bytes are read; it waits for the rest
        refused = await post([b"b" * 60])
        gate.set()
        done = [await slow, refused, await post([b"c" * 60])]
        return [(sent[0]["status"], dict(sent[0]["headers"])) for sent in done]

    (slow, refused, later) = asyncio.run(go())
    assert (200, 503, b"5", 200) == (slow[0], refused[0], refused[1][b"retry-after"], later[0])
    assert ([b"a" * 100, b"c" * 60], 0) == (answered, limits.buffered)


def test_the_buffered_budget_holds_four_of_the_largest_bodies() -> None:
    """By default the budget is 64 MiB, or four bodies of ``max_body`` if that is more; one
    smaller than a body of ``max_body`` is refused."""
    with pytest.raises(ValueError, match="max_buffered must be at least max_body"):
        HttpLimits(max_body=MB, max_buffered=MB - 1)
    assert (64 * MB, 400 * MB) == (
        HttpLimits().max_buffered,
        HttpLimits(max_body=100 * MB).max_buffered,
    )
