"""State an app keeps across requests, one per event loop: ``PerLoop``, and ``LoopLock``.

asyncio's objects belong to one loop: an ``asyncio.Lock`` or a future raises when another
loop waits on it. One app may be served by several loops in turn (a worker's loop, then a
test client's, a notebook's ``asyncio.run`` after another), so what it keeps for its
requests to share is kept per loop, and goes with its loop. Requests of one loop share
theirs, which is all that one loop's objects can do.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["LoopLock", "PerLoop"]

T = TypeVar("T")


class PerLoop(Generic[T]):
    """``per_loop()`` is the running loop's value, made by ``make()`` on its first use."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._values: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, T] = (
            weakref.WeakKeyDictionary()
        )

    def __call__(self) -> T:
        loop = asyncio.get_running_loop()
        value = self._values.get(loop)
        if value is None:
            value = self._values[loop] = self._make()
        return value


class LoopLock(PerLoop[asyncio.Lock]):
    """``async with lock():`` holds this loop's lock."""

    def __init__(self) -> None:
        super().__init__(asyncio.Lock)
