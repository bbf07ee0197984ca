"""A signed-in write request is one transaction, from the sign-in to the answer.

Its checks, its write and the record it answers with see one state of the data, and an error
anywhere in it, presenting the answer included, leaves nothing written. A request signed in
as no one opens no transaction: no write is open to it, so it must not take the write lock.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

import events_calendar as ec
from events_calendar.http import create_app
from events_calendar.http.wire import Wire
from http_helpers import NOW, basic
from sql_backends import CALENDAR_KINDS, calendar_url

API = "/wp-json/tribe/events/v1"
GALA = {"title": "Gala", "start_date": "2031-06-15 19:00:00", "end_date": "2031-06-15 23:00:00"}


class Served:
    """A calendar served in-process, with an administrator, counting outer transactions."""

    def __init__(self, url: str) -> None:
        self.cal = ec.connect(url, clock=ec.FixedClock(NOW))
        self.cal.users.create("admin", role="administrator")
        self.auth = basic("admin", self.cal.users.issue_password("admin"))
        self.app = create_app(self.cal)
        self.opened = 0
        backend = self.cal.backend
        plain = backend.transaction
        depth = [0]

        @contextmanager
        def counted() -> Iterator[None]:
            self.opened += depth[0] == 0
            depth[0] += 1
            try:
                with plain():
                    yield
            finally:
                depth[0] -= 1

        def transaction() -> AbstractContextManager[None]:
            return counted()

        backend.transaction = transaction  # type: ignore[method-assign]

    def send(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        async def go() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                return await client.request(method, API + path, **kwargs)

        return asyncio.run(go())

    def titles(self) -> list[str]:
        admin = self.cal.as_user(self.cal.users.get("admin"))
        return [e.title for e in admin.events.iter(status="any", start_date="2000-01-01")]


@pytest.fixture(params=CALENDAR_KINDS)
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Served]:
    site = Served(calendar_url(request.param, tmp_path))
    yield site
    site.cal.close()


def test_a_write_whose_answer_fails_leaves_nothing_written(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The event was stored before presenting it failed: the whole request rolls back."""

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("presenting failed")

    monkeypatch.setattr(Wire, "event", broken)
    with pytest.raises(RuntimeError, match="presenting failed"):
        served.send("POST", "/events", json=GALA, headers={"Authorization": served.auth})
    monkeypatch.undo()
    assert [] == served.titles()
    created = served.send("POST", "/events", json=GALA, headers={"Authorization": served.auth})
    assert 201 == created.status_code
    assert ["Gala"] == served.titles()


def test_a_signed_in_write_is_one_transaction(served: Served) -> None:
    """Sign-in, checks, the write and the answer: one outer transaction, one commit."""
    created = served.send("POST", "/events", json=GALA, headers={"Authorization": served.auth})
    assert 201 == created.status_code
    assert 1 == served.opened
    event_id = created.json()["id"]
    served.opened = 0
    updated = served.send(
        "POST",
        f"/events/{event_id}",
        json={"title": "Gala!"},
        headers={"Authorization": served.auth},
    )
    assert (200, "Gala!") == (updated.status_code, updated.json()["title"])
    assert 1 == served.opened


def test_a_write_signed_in_as_no_one_takes_no_write_lock(served: Served) -> None:
    """Refused (401) before any transaction opens; a bad password's refusal writes nothing."""
    anonymous = served.send("POST", "/events", json=GALA)
    assert 401 == anonymous.status_code
    assert 0 == served.opened
    bad = served.send("POST", "/events", json=GALA, headers={"Authorization": basic("admin", "x")})
    assert 401 == bad.status_code
    assert [] == served.titles()


def test_reads_open_no_transaction(served: Served) -> None:
    served.send("POST", "/events", json=GALA, headers={"Authorization": served.auth})
    served.opened = 0
    signed_in = served.send("GET", "/events", headers={"Authorization": served.auth})
    assert (200, ["Gala"]) == (
        signed_in.status_code,
        [e["title"] for e in signed_in.json()["events"]],
    )
    assert 0 == served.opened


async def _posted(client: httpx.AsyncClient, served: Served, titles: list[str]) -> list[int]:
    """``POST /events`` of a Gala per title, all at once: their statuses."""
    sent = [
        client.post(
            API + "/events", json={**GALA, "title": title}, headers={"Authorization": served.auth}
        )
        for title in titles
    ]
    return [r.status_code for r in await asyncio.gather(*sent)]


def test_signed_in_writes_enter_worker_threads_one_at_a_time(served: Served) -> None:
    """Eight writes sent at once queue on the event loop, not in threads at the write lock:
    no two have reached their transaction at the same time, and all eight are stored."""
    plain = served.cal.backend.transaction
    inside: list[int] = []  # the threads in a transaction (or waiting to open one), per level
    most = [0]
    guard = threading.Lock()

    @contextmanager
    def watched() -> Iterator[None]:
        with guard:
            inside.append(threading.get_ident())
            most[0] = max(most[0], len(set(inside)))
        try:
            time.sleep(0.01)  # a slow write: any other thread would arrive meanwhile
            with plain():
                yield
        finally:
            with guard:
                inside.remove(threading.get_ident())

    served.cal.backend.transaction = watched  # type: ignore[method-assign]

    async def go() -> list[int]:
        transport = httpx.ASGITransport(app=served.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await _posted(client, served, [f"Gala {n}" for n in range(8)])

    assert [201] * 8 == asyncio.run(go())
    assert 1 == most[0]
    assert sorted(f"Gala {n}" for n in range(8)) == sorted(served.titles())


def test_a_slow_body_holds_up_no_other_writer(served: Served) -> None:
    """A client still sending its body has not queued for the write: another signed-in
    write is answered meanwhile, and the slow one is answered once its body is complete."""
    headers = [(b"authorization", served.auth.encode()), (b"content-type", b"application/json")]
    scope = {
        "type": "http", "http_version": "1.1", "method": "POST", "scheme": "http",
        "path": API + "/events", "raw_path": (API + "/events").encode(), "query_string": b"",
        "root_path": "", "headers": headers, "client": ("127.0.0.1", 5000),
        "server": ("test", 80),
    }  # fmt: skip
    body = json.dumps({**GALA, "title": "Slow"}).encode()

    async def go() -> tuple[int, list[int]]:
        rest = asyncio.Event()
        sent: list[dict[str, Any]] = []
        parts = [
            {"type": "http.request", "body": body[:10], "more_body": True},
            {"type": "http.request", "body": body[10:], "more_body": False},
        ]

        async def receive() -> dict[str, Any]:
            if len(parts) == 1:
                await rest.wait()
            return parts.pop(0) if parts else {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        slow = asyncio.create_task(served.app(scope, receive, send))
        await asyncio.sleep(0.05)  # the slow request has read its first part and waits
        transport = httpx.ASGITransport(app=served.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            fast = await asyncio.wait_for(
                client.post(API + "/events", json=GALA, headers={"Authorization": served.auth}),
                timeout=10,
            )
        assert not slow.done()
        rest.set()
        await asyncio.wait_for(slow, timeout=10)
        return fast.status_code, [m["status"] for m in sent if m["type"] == "http.response.start"]

    assert (201, [201]) == asyncio.run(go())
    assert ["Gala", "Slow"] == sorted(served.titles())


def test_an_app_served_by_one_event_loop_then_another(served: Served) -> None:
    """As test clients and notebooks do: concurrent writes, then concurrent cached reads
    catching up with them, under one loop and again under a new one."""

    async def burst(tag: str) -> list[int]:
        transport = httpx.ASGITransport(app=served.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            statuses = await _posted(client, served, [f"{tag}{n}" for n in range(4)])
            await _posted(client, served, [f"{tag}!"])
            reads = [
                client.get(API + "/events", params={"start_date": "2031-01-01"}) for _ in range(4)
            ]
            answers = await asyncio.gather(*reads)
            return statuses + [r.status_code for r in answers] + [len(answers[0].json()["events"])]

    assert [201] * 4 + [200] * 4 + [5] == asyncio.run(burst("a"))
    assert [201] * 4 + [200] * 4 + [10] == asyncio.run(burst("b"))


def _slow_first_transaction(served: Served) -> None:
    """The first outer transaction takes 50 ms: writes sent meanwhile queue behind it."""
    plain = served.cal.backend.transaction
    first = [True]

    @contextmanager
    def slowed() -> Iterator[None]:
        if first[0]:
            first[0] = False
            time.sleep(0.05)
        with plain():
            yield

    served.cal.backend.transaction = slowed  # type: ignore[method-assign]


def _burst(served: Served, bodies: list[dict[str, Any]]) -> list[httpx.Response]:
    async def go() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=served.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            sent = [
                client.post(API + "/events", json=body, headers={"Authorization": served.auth})
                for body in bodies
            ]
            return list(await asyncio.gather(*sent))

    return asyncio.run(go())


def test_writes_that_queue_together_commit_together(served: Served) -> None:
    """Eight writes at once: those that queued behind the first (all, or all but it) in one
    outer transaction, each answered with its own record."""
    _slow_first_transaction(served)
    answers = _burst(served, [{**GALA, "title": f"Gala {n}"} for n in range(8)])
    assert [(201, f"Gala {n}") for n in range(8)] == [
        (a.status_code, a.json()["title"]) for a in answers
    ]
    assert served.opened <= 2
    assert sorted(f"Gala {n}" for n in range(8)) == sorted(served.titles())
    assert 8 == len({a.json()["id"] for a in answers})


def test_a_write_refused_in_a_batch_leaves_the_others_written(served: Served) -> None:
    _slow_first_transaction(served)
    bodies = [{**GALA, "title": f"Gala {n}"} for n in range(6)]
    bodies[3] = {**bodies[3], "start_date": "not a date"}
    answers = _burst(served, bodies)
    assert [201, 201, 201, 400, 201, 201] == [a.status_code for a in answers]
    assert "start_date" in answers[3].json()["data"]["params"]
    assert sorted(f"Gala {n}" for n in (0, 1, 2, 4, 5)) == sorted(served.titles())
    assert served.opened <= 2


@pytest.mark.parametrize("kind", ["sqlite-file", "postgresql"])
def test_a_write_is_answered_after_its_commit(kind: str, tmp_path: Path) -> None:
    """Another connection sees each write by the time its answer arrives, batched or not."""
    url = calendar_url(kind, tmp_path)
    site = Served(url)
    other = ec.connect(url, clock=ec.FixedClock(NOW))
    try:
        _slow_first_transaction(site)
        admin = other.as_user(other.users.get("admin"))

        async def go() -> list[tuple[int, bool]]:
            transport = httpx.ASGITransport(app=site.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:

                async def one(n: int) -> tuple[int, bool]:
                    answer = await client.post(
                        API + "/events",
                        json={**GALA, "title": f"Gala {n}"},
                        headers={"Authorization": site.auth},
                    )
                    seen = admin.events.get(answer.json()["id"]).title == f"Gala {n}"
                    return answer.status_code, seen

                return list(await asyncio.gather(*(one(n) for n in range(6))))

        assert [(201, True)] * 6 == asyncio.run(go())
        assert site.opened <= 2
    finally:
        other.close()
        site.cal.close()
