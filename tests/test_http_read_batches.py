"""Reads of one record queued together go to a worker thread together (``ReadBatches``):
fewer hops, the same answers, each read's failure its own, no more at once than its turns."""

from __future__ import annotations

import asyncio
import contextvars
import gc
import threading
import time
import weakref
from typing import Any

import anyio.to_thread
import pytest

from events_calendar.http import read_batches
from events_calendar.http.read_batches import MAX_BATCH, ReadBatches


class _Hops:
    """Counts the thread hops ``ReadBatches`` makes, and the most reads in threads at once."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        self.sizes: list[int] = []
        real = anyio.to_thread.run_sync

        async def counted(func: Any, waiting: Any, taken: list[Any]) -> Any:
            self.count += 1
            try:
                return await real(func, waiting, taken)
            finally:
                self.sizes.append(len(taken))

        monkeypatch.setattr(read_batches.anyio.to_thread, "run_sync", counted)


class _Inside:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now = 0
        self.most = 0

    def read(self, value: int, seconds: float = 0.0) -> int:
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        try:
            time.sleep(seconds)
            return value * 10
        finally:
            with self.lock:
                self.now -= 1


def _answer_all(reads: ReadBatches, read: Any, count: int) -> list[Any]:
    """``read(n)`` for n in ``range(count)``, asked at once; each answer, or its error."""

    async def run() -> list[Any]:
        return await asyncio.wait_for(
            asyncio.gather(
                *(reads.answer(lambda n=n: read(n)) for n in range(count)), return_exceptions=True
            ),
            timeout=5,
        )

    return asyncio.run(run())


def test_reads_queued_together_share_a_hop_and_keep_their_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hops = _Hops(monkeypatch)
    reads = ReadBatches(threads=1)
    inside = _Inside()

    async def run() -> list[int]:
        return await asyncio.gather(
            *(reads.answer(lambda n=n: inside.read(n, 0.001)) for n in range(10))
        )

    assert [n * 10 for n in range(10)] == asyncio.run(run())
    assert (hops.count, hops.sizes, inside.most) == (1, [10], 1)


def test_a_read_that_fails_fails_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    hops = _Hops(monkeypatch)
    reads = ReadBatches(threads=1)

    def read(n: int) -> int:
        if n == 2:
            raise LookupError("no record 2")
        return n

    answers = _answer_all(reads, read, 4)
    assert [0, 1, "no record 2", 3] == [a if isinstance(a, int) else str(a) for a in answers]
    assert isinstance(answers[2], LookupError)
    assert 1 == hops.count


def test_quick_reads_keep_to_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reads answered before any has waited ``patience`` need no second thread, which would
    only take turns with the first at the interpreter lock."""
    hops = _Hops(monkeypatch)
    reads = ReadBatches(threads=2, patience=5.0)
    inside = _Inside()

    async def run() -> list[int]:
        return await asyncio.gather(*(reads.answer(lambda n=n: inside.read(n)) for n in range(12)))

    assert [n * 10 for n in range(12)] == asyncio.run(run())
    assert (inside.most, hops.count, hops.sizes) == (1, 1, [12])


@pytest.mark.parametrize("threads", [2, 3])
def test_slow_reads_get_every_turn(threads: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Slow reads (storage that lets go of the interpreter lock) still run ``threads`` at
    once: another turn starts once reads have waited ``patience`` with every turn busy, and
    takes reads from the same queue."""
    hops = _Hops(monkeypatch)
    reads = ReadBatches(threads=threads)
    inside = _Inside()

    async def run() -> list[int]:
        return await asyncio.gather(
            *(reads.answer(lambda n=n: inside.read(n, 0.02)) for n in range(12))
        )

    assert [n * 10 for n in range(12)] == asyncio.run(run())
    assert (inside.most, hops.count, sum(hops.sizes)) == (threads, threads, 12)


def test_a_batch_holds_at_most_max_batch_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    hops = _Hops(monkeypatch)
    reads = ReadBatches(threads=1)
    count = MAX_BATCH * 2 + 3

    async def run() -> list[int]:
        return await asyncio.gather(*(reads.answer(lambda n=n: n) for n in range(count)))

    assert list(range(count)) == asyncio.run(run())
    assert [MAX_BATCH, MAX_BATCH, 3] == hops.sizes


def test_a_cancelled_read_leaves_the_others_answered() -> None:
    reads = ReadBatches(threads=1)
    inside = _Inside()

    async def run() -> tuple[list[int], bool]:
        slow = asyncio.ensure_future(reads.answer(lambda: inside.read(7, 0.05)))
        others = [asyncio.ensure_future(reads.answer(lambda n=n: n)) for n in range(3)]
        await asyncio.sleep(0.01)
        slow.cancel()
        answers = await asyncio.gather(*others)
        await asyncio.sleep(0.06)  # the slow read's thread finishes, its answer is dropped
        return answers, slow.cancelled()

    assert ([0, 1, 2], True) == asyncio.run(run())


def test_each_event_loop_has_its_own_queue() -> None:
    """One app may be served by one loop, then another (a test client's, a notebook's)."""
    reads = ReadBatches(threads=1)

    async def run(base: int) -> list[int]:
        return await asyncio.gather(*(reads.answer(lambda n=n: base + n) for n in range(3)))

    assert ([0, 1, 2], [10, 11, 12]) == (asyncio.run(run(0)), asyncio.run(run(10)))


def test_a_slow_read_holds_up_no_answer_already_made() -> None:
    """A read waiting for storage (a lock, a full pool) leaves the quick reads the same
    thread answered before it answered within ``patience``, not when it ends."""
    reads = ReadBatches(threads=1, patience=0.01)
    inside = _Inside()

    async def run() -> dict[str, float]:
        began = time.monotonic()
        done: dict[str, float] = {}

        async def timed(name: str, seconds: float) -> None:
            await reads.answer(lambda: inside.read(1, seconds))
            done[name] = time.monotonic() - began

        await asyncio.gather(timed("quick", 0.0), timed("slow", 0.6))
        return done

    done = asyncio.run(run())
    assert done["quick"] < 0.3 < 0.6 <= done["slow"], done


def test_each_read_runs_in_its_own_requests_context() -> None:
    """Request-scoped values (a request id for logs, a tenant) are the read's own, though
    one thread answers many requests' reads."""
    request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id")
    reads = ReadBatches(threads=1)

    async def one(n: int) -> str:
        request_id.set(f"r{n}")
        return await reads.answer(request_id.get)

    async def run() -> list[str]:
        return await asyncio.gather(*(asyncio.ensure_future(one(n)) for n in range(6)))

    assert [f"r{n}" for n in range(6)] == asyncio.run(run())


class _Stop(BaseException):
    """Not an ``Exception``: what a read might raise that is not its request's own error."""


def test_a_read_raising_a_base_exception_fails_its_request_only() -> None:
    reads = ReadBatches(threads=1)

    def read(n: int) -> int:
        if n == 1:
            raise _Stop
        return n

    answers = _answer_all(reads, read, 3)
    assert (answers[0], type(answers[1]), answers[2]) == (0, _Stop, 2)


def test_a_loop_closed_during_a_batch_is_let_go() -> None:
    """Turns are kept per loop by a weak reference: a loop that ends while its reads run
    (a test client's, a notebook's ``asyncio.run``) must not be pinned by its own turns."""
    reads = ReadBatches(threads=2)

    async def busy() -> None:
        pending = [asyncio.ensure_future(reads.answer(lambda: time.sleep(0.1))) for _ in range(3)]
        await asyncio.sleep(0.001)
        assert not any(p.done() for p in pending)  # the loop ends with its reads running

    for _ in range(4):
        asyncio.run(busy())
    time.sleep(0.3)  # the worker threads finish their reads and let go of their loops
    gc.collect()
    assert 0 == len(reads._turns._values)


def test_a_read_raising_stop_iteration_fails_its_request_only() -> None:
    """A future refuses ``StopIteration`` (it would end the coroutine awaiting it): it comes
    back a ``RuntimeError``, as it did through a thread hop of its own, and fails its own
    request, not the turn answering the others."""
    reads = ReadBatches(threads=1)

    def read(n: int) -> int:
        if n == 1:
            raise StopIteration
        time.sleep(0.01)
        return n

    answers = _answer_all(reads, read, 4)
    assert (answers[0], type(answers[1]), answers[2:]) == (0, RuntimeError, [2, 3])


def test_a_turn_cancelled_before_it_ran_is_counted_out() -> None:
    """A turn cancelled before its first step runs no ``finally``: its done callback counts
    it out, and cancels the reads nobody will take, so later reads start a turn again."""
    reads = ReadBatches(threads=1)

    async def run() -> tuple[bool, int, list[int]]:
        first = asyncio.ensure_future(reads.answer(lambda: 1))
        await asyncio.sleep(0)  # the request queues its read and starts a turn
        (turn,) = reads._turns().tasks
        turn.cancel()  # before the turn's first step
        await asyncio.sleep(0.01)
        later = await asyncio.wait_for(
            asyncio.gather(*(reads.answer(lambda n=n: n) for n in range(3))), timeout=5
        )
        return first.cancelled(), reads._turns().running, later

    assert (True, 0, [0, 1, 2]) == asyncio.run(run())


def test_a_read_whose_request_was_cancelled_while_it_waited_is_not_run() -> None:
    """A client gone (its request cancelled) before a thread took its read: the read is
    skipped, and the reads beside it are answered."""
    reads = ReadBatches(threads=1)
    ran: list[int] = []

    def read(n: int, seconds: float = 0.0) -> int:
        time.sleep(seconds)
        ran.append(n)
        return n

    async def run() -> list[Any]:
        slow = asyncio.ensure_future(reads.answer(lambda: read(0, 0.2)))
        await asyncio.sleep(0.05)  # the thread is inside the slow read
        gone = asyncio.ensure_future(reads.answer(lambda: read(1)))
        kept = asyncio.ensure_future(reads.answer(lambda: read(2)))
        await asyncio.sleep(0)
        gone.cancel()
        return await asyncio.gather(slow, gone, kept, return_exceptions=True)

    answers = asyncio.run(asyncio.wait_for(run(), 10))
    assert (0, True, 2, [0, 2]) == (
        answers[0],
        isinstance(answers[1], asyncio.CancelledError),
        answers[2],
        ran,
    )


def test_a_turn_keeps_no_request_context_alive() -> None:
    """The turn a request started goes on answering others' reads after that request is
    done: it must not hold the values of the request's context (what they refer to)."""
    reads = ReadBatches(threads=1)
    scoped: contextvars.ContextVar[object] = contextvars.ContextVar("scoped")

    class Held:
        pass

    async def request(n: int, refs: list[weakref.ref[Held]]) -> int:
        held = Held()
        scoped.set(held)
        refs.append(weakref.ref(held))
        return await reads.answer(lambda: n)

    async def run() -> list[bool]:
        refs: list[weakref.ref[Held]] = []
        slow_runs = threading.Event()

        def slow() -> int:
            slow_runs.set()
            time.sleep(0.4)
            return -1

        # A full batch of quick reads, the first of which starts the turn; the slow read
        # queued behind them is the turn's next batch, which outlives all of their requests.
        quick = [asyncio.ensure_future(request(n, refs)) for n in range(MAX_BATCH)]
        later = asyncio.ensure_future(reads.answer(slow))
        await asyncio.wait(quick)
        del quick
        while not slow_runs.is_set():
            await asyncio.sleep(0.01)
        gc.collect()
        alive = [ref() is not None for ref in refs]
        assert -1 == await later
        return alive

    assert [False] * MAX_BATCH == asyncio.run(asyncio.wait_for(run(), 10))
