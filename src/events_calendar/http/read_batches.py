"""``ReadBatches``: reads of one record answered several to a thread hop.

A read must not run on the event loop (it may wait for storage), so it is answered in a
worker thread. The hop costs more than the read: the loop hands the request over, the
thread takes the interpreter lock from the loop, and hands it back with the answer. With
eight clients reading single events, a worker spent half its time on that hand-over
(uncached ``GET /events/<id>``: 2,656 requests/s with a hop each, 5,425 answered on the loop
itself; bench/http/README.md).

So the reads that queue while others are answered go over together: each turn (at most
``threads`` at once, as ``HttpLimits.read_threads`` says) takes a share of the queue to one
thread and answers them there one after another, then hands every answer back at once.
The queue is shared out between the turns free to take it, so as many reads run at once as
before: batching only saves hops, it never makes reads wait for a turn they could have had.

Only reads of bounded cost are batched (one record, not a list: a batch's reads wait for
one another, and a feed of 5,000 events would hold up the reads beside it). Each read's
outcome is its own: one that raises fails only its own request. Batches are made per event
loop (``loop_lock.PerLoop``), and hold at most ``MAX_BATCH`` reads.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar, cast

import anyio.to_thread
import attrs

from .loop_lock import PerLoop

__all__ = ["MAX_BATCH", "ReadBatches"]

#: Reads answered in one batch at most.
MAX_BATCH = 16

T = TypeVar("T")


@attrs.define
class _Queued:
    work: Callable[[], Any]
    answer: asyncio.Future[Any]


@attrs.define
class _Turns:
    waiting: list[_Queued] = attrs.Factory(list)
    running: int = 0  # turns taken (each a task answering batches until the queue is empty)
    busy: int = 0  # of those, the ones in a thread now
    tasks: set[asyncio.Task[None]] = attrs.Factory(set)  # held, so none is collected early


def _outcomes(works: list[Callable[[], Any]]) -> list[tuple[bool, Any]]:
    """In a worker thread: each work's value, or the error it raised (its request's own
    failure, raised again in that request's task)."""
    outcomes: list[tuple[bool, Any]] = []
    for work in works:
        try:
            outcomes.append((True, work()))
        except Exception as error:
            outcomes.append((False, error))
    return outcomes


class ReadBatches:
    """``await reads.answer(work)``: ``work()`` run in a worker thread, batched with the
    reads queued beside it (see the module's docstring)."""

    def __init__(self, threads: int) -> None:
        self._threads = threads
        self._turns = PerLoop(_Turns)

    async def answer(self, work: Callable[[], T]) -> T:
        loop = asyncio.get_running_loop()
        turns = self._turns()
        answer: asyncio.Future[Any] = loop.create_future()
        turns.waiting.append(_Queued(work, answer))
        if turns.running < self._threads:
            turns.running += 1
            task = loop.create_task(self._drain(turns))
            turns.tasks.add(task)
            task.add_done_callback(turns.tasks.discard)
        return cast(T, await answer)

    async def _drain(self, turns: _Turns) -> None:
        """Answer batches until no read waits; one of the loop's turns."""
        batch: list[_Queued] = []
        try:
            while turns.waiting:
                free = max(1, turns.running - turns.busy)  # turns not in a thread
                share = min(MAX_BATCH, -(-len(turns.waiting) // free))
                batch = turns.waiting[:share]
                del turns.waiting[:share]
                turns.busy += 1
                try:
                    outcomes = await anyio.to_thread.run_sync(_outcomes, [q.work for q in batch])
                finally:
                    turns.busy -= 1
                for queued, (ok, value) in zip(batch, outcomes, strict=True):
                    if queued.answer.done():  # the request was cancelled meanwhile
                        continue
                    if ok:
                        queued.answer.set_result(value)
                    else:
                        queued.answer.set_exception(value)
                batch = []
        except BaseException:  # cancelled with its loop: so are the reads still waiting
            for queued in [*batch, *turns.waiting]:
                queued.answer.cancel()
            turns.waiting.clear()
            raise
        finally:
            turns.running -= 1
