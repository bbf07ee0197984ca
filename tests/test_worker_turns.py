"""``http.worker_turns``: the event loop lets a waiting worker thread run, now and then."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

import events_calendar as ec
from events_calendar.http import create_app
from events_calendar.http import worker_turns as module
from events_calendar.http.worker_turns import WorkerTurns


class Clock:
    """``time`` as ``worker_turns`` uses it: a settable clock, and the sleeps asked for."""

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def perf_counter(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(module, "time", fake)
    return fake


def test_no_turn_while_no_request_is_in_a_worker_thread(clock: Clock) -> None:
    turns = WorkerTurns()
    turns.give()
    assert [] == clock.sleeps


def test_turns_while_requests_work_at_most_one_per_gap(clock: Clock) -> None:
    turns = WorkerTurns()

    async def go() -> None:
        async with turns.working():
            turns.give()
            turns.give()  # the same instant: no second turn
            clock.now += WorkerTurns.GAP / 2
            turns.give()
            clock.now += WorkerTurns.GAP
            turns.give()
        turns.give()  # nobody works any more

    asyncio.run(go())
    assert [0, 0] == clock.sleeps


def test_cached_answers_give_turns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cached answer gives a turn; an uncached one, made in a worker thread, does not
    need to."""
    given: list[bool] = []
    monkeypatch.setattr(WorkerTurns, "give", lambda self: given.append(True))
    cal = ec.connect(f"sqlite:///{tmp_path / 'events.db'}")
    app = create_app(cal)

    async def go() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            statuses = []
            for _ in range(3):
                answer = await client.get("/wp-json/tribe/events/v1/events")
                statuses.append(answer.status_code)
            return statuses

    try:
        assert [200, 200, 200] == asyncio.run(go())
    finally:
        cal.close()
    assert 2 == len(given)
