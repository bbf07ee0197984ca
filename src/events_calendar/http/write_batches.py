"""``WriteBatches``: signed-in write requests answered together, one commit for several.

Every backend has one writer at a time, so a worker's signed-in writes queue anyway; what
each then pays alone is its own commit (on SQLite, the write-ahead log's frames and the search
index's new segment; writes made eight to a transaction cost about a third less each) and its
own hop to a worker thread. Here the writes that queued while one was being answered are
answered next as one **batch**: one thread hop and one outer transaction, each request inside
it in a nested transaction of its own (a savepoint), committed once after the last.

What a client sees does not change:

- an answer is sent only after the commit that holds its write, so an acknowledged write is
  as durable as before, and a request answered with an error wrote nothing (its nested
  transaction was undone, the others' writes stand);
- each request still sees one state of the data from its sign-in to its answer, the writes
  of the requests before it in the batch included, as it would have seen them had they
  committed first;
- a batch whose outer transaction fails (the commit, an error the storage raises, after
  which the transaction may not be usable, or a bug) leaves nothing written, and its
  requests are then answered again one at a time, each in its own transaction, exactly as
  without batching.

A lone write is its own batch, with no nested transaction: when writes do not queue, nothing
changes. Batches are made per event loop (``loop_lock.PerLoop``), and hold at most
``MAX_BATCH`` requests, so the first of a long queue is not kept waiting for the last.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import AbstractContextManager

import attrs
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from ..errors import CalendarError, Conflict, StorageUnavailable
from .loop_lock import PerLoop

__all__ = ["MAX_BATCH", "WriteBatches"]

#: Requests answered in one batch at most.
MAX_BATCH = 32

Work = Callable[[], Response]
Transaction = Callable[[], AbstractContextManager[None]]


@attrs.define
class _Queued:
    work: Work
    answer: asyncio.Future[Response]


@attrs.define
class _Outcome:
    response: Response | None = None
    error: BaseException | None = None

    def settle(self, answer: asyncio.Future[Response]) -> None:
        if answer.done():  # the request was cancelled meanwhile
            return
        if self.error is not None:
            answer.set_exception(self.error)
        else:
            assert self.response is not None
            answer.set_result(self.response)


@attrs.define
class _Queue:
    waiting: list[_Queued] = attrs.Factory(list)
    drainer: asyncio.Task[None] | None = None


class WriteBatches:
    """``await batches.answer(work)``: ``work()`` (a request's sign-in, checks, write and
    answer) run in a worker thread inside a transaction, batched with the writes queued
    beside it (see the module's docstring)."""

    def __init__(self, transaction: Transaction) -> None:
        self._transaction = transaction
        self._queues = PerLoop(_Queue)

    async def answer(self, work: Work) -> Response:
        loop = asyncio.get_running_loop()
        queue = self._queues()
        answer: asyncio.Future[Response] = loop.create_future()
        queue.waiting.append(_Queued(work, answer))
        if queue.drainer is None:
            queue.drainer = loop.create_task(self._drain(queue))
        return await answer

    async def _drain(self, queue: _Queue) -> None:
        """Answer batches until no write waits; the queue's one drainer at a time."""
        batch: list[_Queued] = []
        try:
            while queue.waiting:
                batch = queue.waiting[:MAX_BATCH]
                del queue.waiting[:MAX_BATCH]
                outcomes = await run_in_threadpool(self._run, [q.work for q in batch])
                for queued, outcome in zip(batch, outcomes, strict=True):
                    outcome.settle(queued.answer)
        except BaseException:  # cancelled with its loop: so are the requests still waiting
            for queued in [*batch, *queue.waiting]:
                queued.answer.cancel()
            queue.waiting.clear()
            raise
        finally:
            queue.drainer = None

    def _run(self, works: list[Work]) -> list[_Outcome]:
        """In a worker thread: every request's outcome, written in one transaction if it
        can be, else each in its own."""
        if len(works) > 1:
            together = self._together(works)
            if together is not None:
                return together
        return [self._alone(work) for work in works]

    def _alone(self, work: Work) -> _Outcome:
        try:
            with self._transaction():
                return _Outcome(response=work())
        except Exception as error:
            return _Outcome(error=error)

    def _together(self, works: list[Work]) -> list[_Outcome] | None:
        """Every outcome, committed once; ``None`` when the outer transaction failed, which
        then wrote nothing."""
        try:
            with self._transaction():
                return [self._nested(work) for work in works]
        except Exception:
            return None

    def _nested(self, work: Work) -> _Outcome:
        """A request's outcome in a nested transaction; an error of the request's own (its
        input, its rights) undoes that transaction only, any other gives up the batch."""
        try:
            with self._transaction():
                return _Outcome(response=work())
        except _STORAGE_ERRORS:
            raise
        except CalendarError as error:
            return _Outcome(error=error)


#: Errors the storage raises, after which the outer transaction may be unusable.
_STORAGE_ERRORS = (StorageUnavailable, Conflict)
