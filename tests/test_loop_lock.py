"""``http.loop_lock``: what an app keeps across requests, one per event loop."""

from __future__ import annotations

import asyncio
import gc

from events_calendar.http.loop_lock import LoopLock, PerLoop


def test_one_value_per_loop_made_on_first_use() -> None:
    made: list[list[int]] = []

    def make() -> list[int]:
        made.append([])
        return made[-1]

    per_loop = PerLoop(make)

    async def twice() -> bool:
        return per_loop() is per_loop()

    assert asyncio.run(twice())
    assert asyncio.run(twice())
    assert 2 == len(made)  # the second loop got a value of its own


def test_a_value_goes_with_its_loop() -> None:
    per_loop = PerLoop(list)
    asyncio.run(asyncio.sleep(0))  # a loop that asked nothing: nothing kept

    async def ask() -> None:
        per_loop()

    asyncio.run(ask())
    gc.collect()
    assert 0 == len(per_loop._values)


def test_a_loop_lock_serves_one_loop_after_another() -> None:
    """An ``asyncio.Lock`` waited on from a second loop raises; a ``LoopLock`` does not."""
    lock = LoopLock()
    order: list[str] = []

    async def hold(name: str) -> None:
        async with lock():
            order.append(f"{name} in")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    async def both() -> None:
        await asyncio.gather(hold("a"), hold("b"))

    asyncio.run(both())
    asyncio.run(both())
    assert ["a in", "a out", "b in", "b out"] * 2 == order
