"""``http.generations.SharedReads``: concurrent callers share reads, and each gets a value
read after it asked, so a cached answer never misses a commit made before its request."""

from __future__ import annotations

import asyncio
import random
import threading
import time

import pytest

from events_calendar.http.generations import SharedReads


class Storage:
    """A generation that commits move; ``read`` takes a while, as a query does."""

    def __init__(self, seconds: float = 0.005) -> None:
        self.committed = 0
        self.reads = 0
        self.seconds = seconds
        self.lock = threading.Lock()
        self.started = threading.Event()  # a read has taken its value

    def read(self) -> int:
        with self.lock:
            self.reads += 1
            seen = self.committed
        self.started.set()
        time.sleep(self.seconds)
        return seen


async def _under_way(started: threading.Event) -> None:
    """Until a read has started (however slow the machine is to start its thread)."""
    while not started.is_set():
        await asyncio.sleep(0.001)


def test_callers_during_a_read_share_the_next_one() -> None:
    storage = Storage(seconds=0.05)
    reads = SharedReads(storage.read)

    async def go() -> list[object]:
        first = asyncio.create_task(reads())
        await _under_way(storage.started)
        storage.committed = 1  # a commit the first read cannot see
        later = [asyncio.create_task(reads()) for _ in range(5)]
        return [await first, *[await t for t in later]]

    assert [0, 1, 1, 1, 1, 1] == asyncio.run(go())
    assert 2 == storage.reads


@pytest.mark.parametrize("seed", range(5))
def test_no_caller_misses_a_commit_made_before_it_asked(seed: int) -> None:
    """Callers and commits at random moments: each value is at least the commits counted
    when its caller asked; and far fewer reads than callers."""
    rng = random.Random(seed)
    storage = Storage(seconds=0.002)
    reads = SharedReads(storage.read)

    async def caller() -> tuple[int, object]:
        await asyncio.sleep(rng.random() * 0.05)
        if rng.random() < 0.2:
            storage.committed += 1
        asked = storage.committed
        return asked, await reads()

    async def go() -> list[tuple[int, object]]:
        return await asyncio.gather(*(caller() for _ in range(200)))

    answers = asyncio.run(go())
    assert all(isinstance(seen, int) and seen >= asked for asked, seen in answers)
    assert storage.reads < 100


def test_an_error_reaches_every_waiting_caller_and_the_next_read_is_fresh() -> None:
    calls = [0]
    started = threading.Event()

    def read() -> int:
        calls[0] += 1
        number = calls[0]
        started.set()
        time.sleep(0.02)
        if number == 2:
            raise RuntimeError("server gone")
        return number

    reads = SharedReads(read)

    async def go() -> tuple[object, list[object], object]:
        first = asyncio.create_task(reads())
        await _under_way(started)
        failing = [asyncio.create_task(reads()) for _ in range(3)]
        results = await asyncio.gather(*failing, return_exceptions=True)
        return await first, [str(r) for r in results], await reads()

    assert (1, ["server gone"] * 3, 3) == asyncio.run(go())


def test_a_caller_that_goes_away_leaves_the_read_to_the_others() -> None:
    storage = Storage(seconds=0.03)
    reads = SharedReads(storage.read)

    async def go() -> object:
        leaving = asyncio.create_task(reads())
        staying = asyncio.create_task(reads())
        await asyncio.sleep(0.005)
        leaving.cancel()
        return await staying

    assert 0 == asyncio.run(go())
    assert 1 == storage.reads


def test_the_same_reader_serves_another_event_loop() -> None:
    """An app served by one loop, then another (test clients do that)."""
    storage = Storage()
    reads = SharedReads(storage.read)
    assert 0 == asyncio.run(reads())
    storage.committed = 4
    assert 4 == asyncio.run(reads())
