"""Requests other than signed-in writes are answered ``HttpLimits.read_threads`` at a time, in
worker threads; the rest wait their turn on the event loop and are all answered."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import httpx
import pytest

import events_calendar as ec
from events_calendar.http import app as http_app
from events_calendar.http import create_app
from events_calendar.http.limits import DEFAULT_READ_THREADS, HttpLimits

SITE = "http://testserver"
PREFIX = "/wp-json/tribe/events/v1"


class _Overlap:
    """The most requests inside ``start_call`` at once (each stays there 20 ms), reads of
    one record and the others apart: each takes its turns apart."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.inside = {"one": 0, "other": 0}
        self.most = {"one": 0, "other": 0}

    def wrap(self, start_call: Any) -> Any:
        def counted(request: Any, *args: Any, **kwargs: Any) -> Any:
            lane = "one" if request.url.path.rstrip("/")[-1].isdigit() else "other"
            with self._lock:
                self.inside[lane] += 1
                self.most[lane] = max(self.most[lane], self.inside[lane])
            try:
                time.sleep(0.02)  # a slow storage call: it lets go of the interpreter lock
                return start_call(request, *args, **kwargs)
            finally:
                with self._lock:
                    self.inside[lane] -= 1

        return counted


def _concurrent_reads(limits: HttpLimits | None, count: int) -> list[int]:
    cal = ec.connect("memory://")
    event = cal.events.create(
        title="Night", start_date="2031-02-01 20:00", end_date="2031-02-01 22:00"
    )
    app = create_app(cal, cache=False, limits=limits)

    async def run() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=SITE) as client:
            paths = [f"{PREFIX}/events/{event.id}", f"{PREFIX}/events", f"{PREFIX}/venues"]
            answers = await asyncio.gather(
                *(client.get(paths[n % len(paths)]) for n in range(count))
            )
        return [answer.status_code for answer in answers]

    return asyncio.run(run())


@pytest.mark.parametrize("threads", [1, 3])
def test_no_more_requests_than_read_threads_run_at_once(
    threads: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    overlap = _Overlap()
    monkeypatch.setattr(http_app, "start_call", overlap.wrap(http_app.start_call))
    statuses = _concurrent_reads(HttpLimits(read_threads=threads), count=24)
    assert (statuses, overlap.most) == ([200] * 24, {"one": threads, "other": threads})


def test_the_default_is_two_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    overlap = _Overlap()
    monkeypatch.setattr(http_app, "start_call", overlap.wrap(http_app.start_call))
    statuses = _concurrent_reads(None, count=12)
    assert (statuses, overlap.most) == ([200] * 12, {"one": 2, "other": 2})
    assert DEFAULT_READ_THREADS == 2


def test_a_read_of_one_record_is_answered_while_slow_lists_hold_every_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two lists stuck in storage hold both turns of the other reads; an event's page,
    whose cost is bounded, takes its turn apart and is answered meanwhile."""
    cal = ec.connect("memory://")
    event = cal.events.create(
        title="Night", start_date="2031-02-01 20:00", end_date="2031-02-01 22:00"
    )
    app = create_app(cal, cache=False, limits=HttpLimits(read_threads=2))
    stuck, release = threading.Semaphore(0), threading.Event()
    start_call = http_app.start_call

    def slow_lists(request: Any, *args: Any, **kwargs: Any) -> Any:
        if request.url.path.endswith("/events"):
            stuck.release()
            release.wait(30)
        return start_call(request, *args, **kwargs)

    monkeypatch.setattr(http_app, "start_call", slow_lists)

    async def run() -> tuple[int, bool, list[int]]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=SITE) as client:
            lists = [asyncio.create_task(client.get(f"{PREFIX}/events")) for _ in range(3)]
            for _ in range(2):  # both turns of the other reads are held
                await asyncio.to_thread(stuck.acquire, True, 30)
            one = await asyncio.wait_for(client.get(f"{PREFIX}/events/{event.id}"), 30)
            waiting = not any(task.done() for task in lists)
            release.set()
            return one.status_code, waiting, [(await task).status_code for task in lists]

    assert (200, True, [200, 200, 200]) == asyncio.run(run())


def test_read_threads_must_be_positive() -> None:
    with pytest.raises(ValueError, match="read_threads must be at least 1"):
        HttpLimits(read_threads=0)
