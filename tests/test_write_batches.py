"""``http.write_batches``: writes that queued together are committed together.

Driven with a transaction that only logs what it is asked (begin, savepoint, commit...), so
each test states exactly which transactions a queue of writes makes, and what each request is
answered.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.responses import Response

from events_calendar.errors import InvalidParameter, StorageUnavailable
from events_calendar.http.write_batches import MAX_BATCH, WriteBatches


class Storage:
    """A transaction that logs; the outer commits numbered in ``failing`` (from 1) fail."""

    def __init__(self, failing: frozenset[int] = frozenset()) -> None:
        self.log: list[str] = []
        self.depth = 0
        self.failing = failing
        self.commits = 0

    @contextmanager
    def transaction(self) -> Iterator[None]:
        outer = self.depth == 0
        self.log.append("begin" if outer else "savepoint")
        self.depth += 1
        try:
            yield
        except BaseException:
            self.depth -= 1
            self.log.append("rollback" if outer else "rollback to")
            raise
        self.depth -= 1
        self.commits += outer
        if outer and self.commits in self.failing:
            self.log.append("commit failed")
            raise StorageUnavailable("disk full")
        self.log.append("commit" if outer else "release")


Work = Callable[[], Response]


def write(storage: Storage, n: int, error: Exception | None = None) -> Work:
    def work() -> Response:
        storage.log.append(f"write {n}")
        if error is not None:
            raise error
        return Response(f"answer {n}")

    return work


def answered(batches: WriteBatches, works: list[Work]) -> list[object]:
    """Every work's answer (its body) or error, the first held in its thread until all the
    others have queued behind it."""
    started, hold = threading.Event(), threading.Event()
    first = works[0]

    def held() -> Response:
        started.set()
        hold.wait(10)
        return first()

    async def go() -> list[object]:
        answers = [asyncio.ensure_future(batches.answer(held))]
        await asyncio.to_thread(started.wait, 10)
        answers += [asyncio.ensure_future(batches.answer(work)) for work in works[1:]]
        await asyncio.sleep(0)  # every one of them has queued
        hold.set()
        return await asyncio.gather(*answers, return_exceptions=True)

    answers = asyncio.run(go())
    return [a if isinstance(a, BaseException) else bytes(a.body).decode() for a in answers]


def test_a_lone_write_is_one_transaction_of_its_own() -> None:
    storage = Storage()
    assert ["answer 0"] == answered(WriteBatches(storage.transaction), [write(storage, 0)])
    assert ["begin", "write 0", "commit"] == storage.log


def test_writes_queued_meanwhile_commit_once_together() -> None:
    storage = Storage()
    works = [write(storage, n) for n in range(4)]
    assert [f"answer {n}" for n in range(4)] == answered(WriteBatches(storage.transaction), works)
    batch = ["begin"]
    for n in (1, 2, 3):
        batch += ["savepoint", f"write {n}", "release"]
    assert ["begin", "write 0", "commit", *batch, "commit"] == storage.log


def test_a_request_refused_in_a_batch_undoes_only_its_own_writes() -> None:
    storage = Storage()
    refused = InvalidParameter({"start_date": "Invalid date."})
    works = [write(storage, 0), write(storage, 1), write(storage, 2, refused), write(storage, 3)]
    answers = answered(WriteBatches(storage.transaction), works)
    assert ["answer 0", "answer 1", refused, "answer 3"] == answers
    assert [
        "begin", "write 0", "commit",
        "begin",
        "savepoint", "write 1", "release",
        "savepoint", "write 2", "rollback to",
        "savepoint", "write 3", "release",
        "commit",
    ] == storage.log  # fmt: skip


@pytest.mark.parametrize(
    "error", [RuntimeError("presenting failed"), StorageUnavailable("disk I/O error")]
)
def test_a_batch_the_storage_fails_is_answered_one_request_at_a_time(error: Exception) -> None:
    """An error that is not the request's own (a bug, the storage) may leave the batch's
    transaction unusable: it is rolled back whole, and every request runs again alone, so
    each is answered as it would have been without batching."""
    storage = Storage()
    works = [write(storage, 0), write(storage, 1), write(storage, 2, error), write(storage, 3)]
    answers = answered(WriteBatches(storage.transaction), works)
    assert ["answer 0", "answer 1", error, "answer 3"] == answers
    assert [
        "begin", "write 0", "commit",
        "begin", "savepoint", "write 1", "release", "savepoint", "write 2", "rollback to",
        "rollback",
        "begin", "write 1", "commit",
        "begin", "write 2", "rollback",
        "begin", "write 3", "commit",
    ] == storage.log  # fmt: skip


def test_a_failed_commit_answers_the_batch_one_request_at_a_time() -> None:
    storage = Storage(failing=frozenset({2}))  # the batch's commit
    works = [write(storage, n) for n in range(3)]
    answers = answered(WriteBatches(storage.transaction), works)
    assert ["answer 0", "answer 1", "answer 2"] == answers
    assert [
        "begin", "write 0", "commit",
        "begin", "savepoint", "write 1", "release", "savepoint", "write 2", "release",
        "commit failed",
        "begin", "write 1", "commit",
        "begin", "write 2", "commit",
    ] == storage.log  # fmt: skip


def test_no_answer_before_the_commit_that_holds_its_write() -> None:
    storage = Storage()
    seen: dict[int, list[str]] = {}
    batches = WriteBatches(storage.transaction)

    async def go() -> None:
        async def one(n: int) -> None:
            await batches.answer(write(storage, n))
            seen[n] = list(storage.log)

        await asyncio.gather(*(one(n) for n in range(5)))

    asyncio.run(go())
    for n, log in seen.items():
        after = log[log.index(f"write {n}") :]
        assert "commit" in after, (n, log)


def test_a_batch_holds_at_most_max_batch_requests() -> None:
    storage = Storage()
    count = MAX_BATCH + 8
    works = [write(storage, n) for n in range(count)]
    answers = answered(WriteBatches(storage.transaction), works)
    assert [f"answer {n}" for n in range(count)] == answers
    writes_per_commit, writes = [], 0
    for entry in storage.log:
        if entry.startswith("write"):
            writes += 1
        elif entry == "commit":
            writes_per_commit.append(writes)
            writes = 0
    assert [1, MAX_BATCH, 7] == writes_per_commit


def test_each_event_loop_batches_its_own_writes() -> None:
    """One app may be served by one loop, then another (tests, notebooks)."""
    storage = Storage()
    batches = WriteBatches(storage.transaction)
    assert ["answer 0", "answer 1"] == answered(batches, [write(storage, n) for n in (0, 1)])
    assert ["answer 2", "answer 3"] == answered(batches, [write(storage, n) for n in (2, 3)])
    assert 4 == storage.log.count("commit")


class Store:
    """A transactional list of written names: nested transactions undo their own writes;
    the outer commits of batches (more than one write inside) fail where asked."""

    def __init__(self, failing_batches: frozenset[int]) -> None:
        self.committed: list[str] = []
        self.pending: list[str] = []
        self.depth = 0
        self.failing = failing_batches
        self.batches = 0

    @contextmanager
    def transaction(self) -> Iterator[None]:
        outer, mark = self.depth == 0, len(self.pending)
        self.depth += 1
        try:
            yield
        except BaseException:
            del self.pending[mark:]
            raise
        finally:
            self.depth -= 1
        if outer:
            written, self.pending = self.pending, []
            if len(written) > 1:
                self.batches += 1
                if self.batches in self.failing:
                    raise StorageUnavailable("commit failed")
            self.committed += written


#: What a request does: writes its name and answers, is refused after writing (its own
#: input), or fails after writing (a bug).
KINDS = ("ok", "refused", "bug")


@given(
    kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=12),
    failing=st.frozensets(st.integers(1, 3)),
)
def test_batches_answer_and_write_as_requests_one_at_a_time(
    kinds: list[str], failing: frozenset[int]
) -> None:
    """Whatever the mix of requests and failed batch commits: every request gets the answer
    it would get alone, and what is stored is what requests one at a time would store."""
    store = Store(failing)

    def request(n: int, kind: str) -> Work:
        def work() -> Response:
            store.pending.append(f"r{n}")
            if kind == "refused":
                raise InvalidParameter({"n": f"refused {n}"})
            if kind == "bug":
                raise RuntimeError(f"bug {n}")
            return Response(f"answer {n}")

        return work

    answers = answered(
        WriteBatches(store.transaction), [request(n, k) for n, k in enumerate(kinds)]
    )
    expected: list[object] = [f"answer {n}" for n in range(len(kinds))]
    for n, kind in enumerate(kinds):
        if kind != "ok":
            error = answers[n]
            assert isinstance(error, InvalidParameter if kind == "refused" else RuntimeError)
            expected[n] = error
    assert expected == answers
    assert [f"r{n}" for n, kind in enumerate(kinds) if kind == "ok"] == store.committed
