"""``LoopLock``: an ``asyncio.Lock`` per event loop, for state an app keeps across requests.

An ``asyncio.Lock`` belongs to the first loop that waits on it, and raises on any other. One
app may be served by several loops in turn (a worker's loop, then a test client's, a
notebook's ``asyncio.run`` after another): each gets a lock of its own. Requests of one loop
exclude one another, which is all a lock on one loop can do.
"""

from __future__ import annotations

import asyncio
import weakref

__all__ = ["LoopLock"]


class LoopLock:
    """``async with lock():`` holds this loop's lock."""

    def __init__(self) -> None:
        self._locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
            weakref.WeakKeyDictionary()
        )

    def __call__(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        lock = self._locks.get(loop)
        if lock is None:
            lock = self._locks[loop] = asyncio.Lock()
        return lock
