"""The storage generation, read for many waiting requests at once: ``SharedReads``.

Every answer from the response cache first asks storage whether anything was committed
(``Storage.generation``). SQLite says so inline, from shared memory; PostgreSQL needs a query,
so each cached answer cost a hop to a worker thread and a round trip to the server, which
bounded one worker to about a fifth of the cached answers SQLite's gives.

Requests that ask while a read is under way now share the *next* read: one started after
they asked, so it sees every commit that came before them, as a read of their own would.
However many requests wait, there is one read in flight and at most one queued behind it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable

from starlette.concurrency import run_in_threadpool

__all__ = ["SharedReads"]


class SharedReads:
    """``await reads()``: the value of ``read()`` (blocking, run in a worker thread), from a
    call that started after this one was made; concurrent callers share calls."""

    def __init__(self, read: Callable[[], Hashable]) -> None:
        self._read = read
        self._loop: asyncio.AbstractEventLoop | None = None
        self._next: asyncio.Future[Hashable] | None = None  # the callers of the next read
        self._reading = False
        self._task: asyncio.Task[None] | None = None  # held: the loop keeps only weak ones

    async def __call__(self) -> Hashable:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # an app served by another loop than before starts afresh
            self._loop, self._next, self._reading = loop, None, False
        if self._next is None:
            self._next = loop.create_future()
        waiting = self._next
        if not self._reading:
            self._reading = True
            self._task = loop.create_task(self._rounds())
        # Shielded: a caller that goes away must not cancel the read the others wait for.
        return await asyncio.shield(waiting)

    async def _rounds(self) -> None:
        """Read for the waiting callers until none is left; callers arriving meanwhile wait
        for the following read."""
        try:
            while (waiting := self._next) is not None:
                self._next = None
                try:
                    value = await run_in_threadpool(self._read)
                except Exception as error:  # each waiting caller raises it
                    waiting.set_exception(error)
                else:
                    waiting.set_result(value)
                finally:
                    waiting.cancel()  # only if still unset: the loop is shutting us down
        finally:
            self._reading = False
            if self._next is not None:  # stopped early (cancelled): nobody is left waiting
                self._next.cancel()
                self._next = None
