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
    """The most requests inside ``start_call`` at once (each stays there 20 ms)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.inside = 0
        self.most = 0

    def wrap(self, start_call: Any) -> Any:
        def counted(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                self.inside += 1
                self.most = max(self.most, self.inside)
            try:
                time.sleep(0.02)  # a slow storage call: it lets go of the interpreter lock
                return start_call(*args, **kwargs)
            finally:
                with self._lock:
                    self.inside -= 1

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
    statuses = _concurrent_reads(HttpLimits(read_threads=threads), count=12)
    assert (statuses, overlap.most) == ([200] * 12, threads)


def test_the_default_is_two_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    overlap = _Overlap()
    monkeypatch.setattr(http_app, "start_call", overlap.wrap(http_app.start_call))
    statuses = _concurrent_reads(None, count=8)
    assert (statuses, overlap.most) == ([200] * 8, DEFAULT_READ_THREADS)
    assert DEFAULT_READ_THREADS == 2


def test_read_threads_must_be_positive() -> None:
    with pytest.raises(ValueError, match="read_threads must be at least 1"):
        HttpLimits(read_threads=0)
