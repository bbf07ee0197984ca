"""``WorkerTurns``: the event loop lets a busy worker thread run now and then.

A worker keeps one interpreter lock with the event loop. Answers from the response cache are
made on the loop without a pause (since the storage generation is read from shared memory,
``backends.sqlite_wal_index``, they never let go of the lock), while an uncached read or a
write runs in a worker thread that lets go of the lock around every SQLite step (each row
fetched) and then waits to get it back. Under load the loop always wants the lock, so the
worker only gets it back when the interpreter forces a switch, every 5 ms: a page that needs
1 ms of work took tens of milliseconds, which was the mix's p99 (63-89 ms with 1% writes).

So while any request is in a worker thread, the loop lets go of the lock before a cached
answer, at most once every ``GAP`` seconds: the worker runs until its next SQLite step, and
the loop gets the lock back. Measured on the 100,000-event mix with 1% writes (one run each):
no turns, p99 63 ms; a turn at most every 1 ms, 27 ms; every 0.5 ms, 15-17 ms, at 7,066-7,246
requests/s against 5,995-6,309 before the generation was read from shared memory
(``bench/http/README.md``).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

__all__ = ["WorkerTurns"]


class WorkerTurns:
    """Counts the requests handed to worker threads (running, or queued to write);
    ``give()`` lets one of them run."""

    #: Seconds between two turns, at least.
    GAP = 0.0005

    def __init__(self) -> None:
        self._working = 0
        self._last = 0.0

    @asynccontextmanager
    async def working(self) -> AsyncIterator[None]:
        """Around a request's time in a worker thread (on the event loop)."""
        self._working += 1
        try:
            yield
        finally:
            self._working -= 1

    def give(self) -> None:
        """On the event loop: let go of the interpreter lock for a moment if a worker thread
        may be waiting for it and no turn was given in the last ``GAP`` seconds."""
        if not self._working:
            return
        now = time.perf_counter()
        if now - self._last >= self.GAP:
            self._last = now
            time.sleep(0)  # lets go of the lock: a thread waiting for it can take it
