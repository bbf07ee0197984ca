"""``ReadBatches``: reads of one record answered several to a thread hop.

A read must not run on the event loop (it may wait for storage), so it is answered in a
worker thread. The hop costs more than the read: the loop hands the request over, the
thread takes the interpreter lock from the loop, and hands it back with the answer. With
eight clients reading single events, a worker spent half its time on that hand-over
(uncached ``GET /events/<id>``: 2,656 requests/s with a hop each, 5,425 answered on the loop
itself; bench/http/README.md).

So a turn's thread answers every read that queued meanwhile, one after another, taking the
next from the queue itself, and hands the answers back together when the queue is empty (or
``MAX_BATCH`` are answered). A batch still running after ``PATIENCE_SECONDS`` has met a slow
read: the answers it already has are then handed back every ``PATIENCE_SECONDS``, so a read
waiting for a lock never holds up the quick ones answered before it. Each read runs in the
context (``contextvars``) of its own request, as it would in a thread of its own.

How many turns: a read is mostly Python, which runs one thread at a time, so two threads
answering quick reads only take turns at the interpreter lock (one turn answered 4,450-4,700
single events a second, two sharing the queue 3,750-3,900). But a read that waits for
storage lets go of the lock, and then another thread should take the reads behind it. So a
turn starts at once when none is running, and another (up to ``threads``, as
``HttpLimits.read_threads`` says) only when reads have waited ``PATIENCE_SECONDS`` while
every turn was busy: quick reads never need it, slow ones get it within that time.

Only reads of bounded cost are batched (one record, not a list: a batch's reads wait for
one another, and a feed of 5,000 events would hold up the reads beside it). Each read's
outcome is its own: one that raises fails only its own request. Queues are kept per event
loop (``loop_lock.PerLoop``).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar, cast

import anyio.to_thread
import attrs

from .loop_lock import PerLoop

__all__ = ["MAX_BATCH", "PATIENCE_SECONDS", "ReadBatches"]

#: Reads whose answers are handed back together at most.
MAX_BATCH = 16
#: How long reads wait, every turn busy, before another turn starts (if one may).
PATIENCE_SECONDS = 0.002

T = TypeVar("T")


@attrs.define
class _Queued:
    work: Callable[[], Any]
    answer: asyncio.Future[Any]
    context: contextvars.Context  # the request's own, for its work to run in


@attrs.define
class _Answered:
    queued: _Queued
    ok: bool
    value: Any


@attrs.define
class _Turns:
    #: Reads no thread has taken yet: the loop appends, the turns' threads take from the left
    #: (both atomic on a deque).
    waiting: deque[_Queued] = attrs.Factory(deque)
    running: int = 0  # turns started and not ended
    tasks: set[asyncio.Task[None]] = attrs.Factory(set)  # held, so none is collected early
    reinforcement: asyncio.TimerHandle | None = None  # a turn due to start if reads still wait


def _answer_waiting(waiting: deque[_Queued], taken: list[_Answered]) -> None:
    """In a worker thread: answer reads from the queue, one after another, until it is empty
    or ``MAX_BATCH`` are answered. Each outcome goes into ``taken`` as soon as it is known,
    so a cancelled turn can still cancel the requests it had taken. A read whose request was
    cancelled meanwhile is not run (its future is only read here: set by the loop alone)."""
    while len(taken) < MAX_BATCH:
        try:
            queued = waiting.popleft()
        except IndexError:
            return
        if queued.answer.done():  # its request was cancelled while it waited: no one asks
            continue
        try:
            taken.append(_Answered(queued, True, queued.context.run(queued.work)))
        except StopIteration as error:  # a future refuses it; a thread hop made it this
            failure = RuntimeError("the read raised StopIteration")
            failure.__cause__ = error
            taken.append(_Answered(queued, False, failure))
        except BaseException as error:  # the request's own failure, raised in its own task
            taken.append(_Answered(queued, False, error))


class ReadBatches:
    """``await reads.answer(work)``: ``work()`` run in a worker thread, with the reads queued
    beside it (see the module's docstring)."""

    def __init__(self, threads: int, *, patience: float = PATIENCE_SECONDS) -> None:
        self._threads = threads
        self._patience = patience
        self._turns = PerLoop(_Turns)

    async def answer(self, work: Callable[[], T]) -> T:
        loop = asyncio.get_running_loop()
        turns = self._turns()
        answer: asyncio.Future[Any] = loop.create_future()
        turns.waiting.append(_Queued(work, answer, contextvars.copy_context()))
        if turns.running == 0:
            self._start(loop, turns)
        elif turns.running < self._threads and turns.reinforcement is None:
            turns.reinforcement = loop.call_later(
                self._patience, self._reinforce, loop, turns, context=contextvars.Context()
            )
        return cast(T, await answer)

    def _start(self, loop: asyncio.AbstractEventLoop, turns: _Turns) -> None:
        turns.running += 1
        # In a context of its own, its callback too: the turn outlives the request that
        # started it, whose values (a request id, a tenant, what they hold) it must not keep.
        own = contextvars.Context()
        task = loop.create_task(self._drain(turns), context=own)
        turns.tasks.add(task)
        task.add_done_callback(functools.partial(_end, turns), context=own)

    def _reinforce(self, loop: asyncio.AbstractEventLoop, turns: _Turns) -> None:
        """Reads waited ``patience`` with every turn busy: one more turn, if one may start,
        and the same again later if reads still wait."""
        turns.reinforcement = None
        if turns.waiting and turns.running < self._threads:
            self._start(loop, turns)
            if turns.running < self._threads:
                turns.reinforcement = loop.call_later(self._patience, self._reinforce, loop, turns)

    async def _drain(self, turns: _Turns) -> None:
        """One turn: answer reads in a worker thread until none waits."""
        loop = asyncio.get_running_loop()
        batch = _Batch()
        try:
            while turns.waiting:
                batch = _Batch()
                batch.every(loop, self._patience)  # a slow read holds up no answer
                try:
                    await anyio.to_thread.run_sync(_answer_waiting, turns.waiting, batch.taken)
                finally:
                    batch.stop()
                batch.settle()
        except BaseException:  # cancelled with its loop: so are the reads still waiting
            for queued in [*batch.unsettled(), *turns.waiting]:
                queued.answer.cancel()
            turns.waiting.clear()
            raise
        finally:
            # Now, not only in the done callback, which a closing loop may never run: the
            # turns are kept per loop, by a weak reference that a reference back would pin.
            _end(turns, cast("asyncio.Task[None]", asyncio.current_task()))


@attrs.define
class _Batch:
    """The reads one thread hop answers: the answers it has made (``taken``, appended to by
    the worker thread, a list's append being atomic), and how many of them are handed back."""

    taken: list[_Answered] = attrs.Factory(list)
    settled: int = 0
    timer: asyncio.TimerHandle | None = None

    def every(self, loop: asyncio.AbstractEventLoop, seconds: float) -> None:
        """Hand back the answers made so far every ``seconds`` while the batch runs: a timer,
        which costs nothing when the batch ends first, as quick ones do."""

        def tick() -> None:
            self.settle()
            self.timer = loop.call_later(seconds, tick)

        self.timer = loop.call_later(seconds, tick)

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def settle(self) -> None:
        """Hand back the answers made and not yet handed back."""
        end = len(self.taken)
        for answered in self.taken[self.settled : end]:
            future = answered.queued.answer
            if future.done():  # the request was cancelled meanwhile
                continue
            if answered.ok:
                future.set_result(answered.value)
            else:
                future.set_exception(answered.value)
        self.settled = end

    def unsettled(self) -> list[_Queued]:
        return [answered.queued for answered in self.taken[self.settled :]]


def _end(turns: _Turns, task: asyncio.Task[None]) -> None:
    """A turn is over: count it out, once (from its ``finally``, or from its done callback
    when it was cancelled before it ever ran, with its loop, and no ``finally`` ran); the
    reads nobody will take then are cancelled with it."""
    if task not in turns.tasks:
        return
    turns.tasks.discard(task)
    turns.running -= 1
    if turns.running == 0:
        if turns.reinforcement is not None:
            turns.reinforcement.cancel()
            turns.reinforcement = None
        if task.done() and task.cancelled():
            for queued in turns.waiting:
                queued.answer.cancel()
            turns.waiting.clear()
