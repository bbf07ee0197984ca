"""The behaviour every SQL engine (``backends.sql.engine.Engine``) must show.

What a new SQL backend gets wrong first: savepoint nesting, rollback, a generation that sees
other connections' commits, snapshots, and writers that never lose each other's updates.

    from events_calendar.testing.engine_contract import EngineContract

    class TestMyEngine(EngineContract):
        def make_engine(self):
            return MyEngine(url)  # every call: the same, migrated, empty database

The tests write only the shared schema's ``sequences`` and ``slug_aliases`` tables.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from ..backends.sql.engine import Engine
from ..errors import Conflict

__all__ = ["EngineContract"]


class EngineContract:
    """Subclass and implement ``make_engine`` (a new engine on the same empty database)."""

    def make_engine(self) -> Engine:
        raise NotImplementedError

    @pytest.fixture
    def engine(self) -> Iterator[Engine]:
        engine = self.make_engine()
        yield engine
        engine.close()

    @pytest.fixture
    def other(self) -> Iterator[Engine]:
        """A second engine on the same database (another process, as far as it knows)."""
        engine = self.make_engine()
        yield engine
        engine.close()

    @staticmethod
    def alias(engine: Engine, slug: str, record_id: int = 1) -> None:
        engine.execute(
            "INSERT INTO slug_aliases (kind, slug, record_id) VALUES (?, ?, ?)",
            ["event", slug, record_id],
        )

    @staticmethod
    def aliases(engine: Engine) -> list[str]:
        return engine.execute("SELECT slug FROM slug_aliases ORDER BY slug").first_column()

    def write_then_fail(self, engine: Engine, slug: str) -> None:
        """Write inside a transaction, then fail it."""
        with engine.transaction():
            self.alias(engine, slug)
            raise LookupError(slug)

    def test_commit_keeps_writes(self, engine: Engine, other: Engine) -> None:
        """A committed transaction's writes are seen by another connection."""
        with engine.transaction():
            self.alias(engine, "a")
            self.alias(engine, "b")
        assert ["a", "b"] == self.aliases(other)

    def test_rollback_discards_writes(self, engine: Engine) -> None:
        """An exception inside the outermost transaction discards all its writes."""
        with pytest.raises(LookupError):
            self.write_then_fail(engine, "a")
        assert [] == self.aliases(engine)

    def test_nested_rollback_keeps_outer_writes(self, engine: Engine) -> None:
        """A failed nested transaction undoes only its own writes."""
        with engine.transaction():
            self.alias(engine, "outer")
            with pytest.raises(LookupError):
                self.write_then_fail(engine, "inner")
            self.alias(engine, "after")
        assert ["after", "outer"] == self.aliases(engine)

    def test_nested_commit_waits_for_outer(self, engine: Engine, other: Engine) -> None:
        """A nested transaction's writes are invisible elsewhere until the outermost commits."""
        with engine.transaction():
            with engine.transaction():
                self.alias(engine, "inner")
            assert [] == self.aliases(other)
        assert ["inner"] == self.aliases(other)

    def test_constraint_violation_is_conflict(self, engine: Engine) -> None:
        """A write that breaks a unique constraint raises Conflict."""
        self.alias(engine, "a")
        with pytest.raises(Conflict, match="storage rule"):
            self.alias(engine, "a")

    def test_failed_nested_write_leaves_transaction_usable(self, engine: Engine) -> None:
        """After a nested transaction fails on a constraint, the outer one goes on."""
        with engine.transaction():
            self.alias(engine, "a")
            with pytest.raises(Conflict), engine.transaction():
                self.alias(engine, "a")
            self.alias(engine, "b")
        assert ["a", "b"] == self.aliases(engine)

    def test_generation_sees_other_connections_commit(self, engine: Engine, other: Engine) -> None:
        """generation() changes when another connection commits a write."""
        before = engine.generation()
        with other.transaction():
            self.alias(other, "a")
        assert before != engine.generation()

    def test_generation_is_stable_without_writes(self, engine: Engine) -> None:
        """generation() stays equal while nothing is written."""
        assert engine.generation() == engine.generation()

    def test_generation_ignores_rolled_back_writes(self, engine: Engine, other: Engine) -> None:
        """A rolled-back transaction leaves generation() unchanged."""
        before = engine.generation()
        with pytest.raises(LookupError):
            self.write_then_fail(other, "a")
        assert before == engine.generation()

    def test_generation_inside_transaction_equals_nothing(self, engine: Engine) -> None:
        """Inside an open transaction, generation() is never equal to a later value."""
        with engine.transaction():
            inside = engine.generation()
            assert inside != engine.generation()

    def test_writing_is_true_inside_a_transaction_only(self, engine: Engine) -> None:
        """``writing()``: inside this thread's write transaction (nested ones too), and
        nowhere else: not in a snapshot, nor in another thread while one is open."""
        seen_elsewhere: list[bool] = []
        with engine.reading():
            assert not engine.writing()
        with engine.transaction():
            with engine.transaction():
                assert engine.writing()
            worker = threading.Thread(target=lambda: seen_elsewhere.append(engine.writing()))
            worker.start()
            worker.join()
            assert engine.writing()
        assert (False, [False]) == (engine.writing(), seen_elsewhere)

    def test_reading_sees_one_snapshot(self, engine: Engine, other: Engine) -> None:
        """Reads inside reading() do not see a commit made after the snapshot began."""
        self.alias(engine, "a")
        with engine.reading():
            first = self.aliases(engine)
            with other.transaction():
                self.alias(other, "b")
            second = self.aliases(engine)
        assert (["a"], ["a"]) == (first, second)

    def test_reading_inside_transaction_sees_own_writes(self, engine: Engine) -> None:
        """reading() inside a write transaction reads that transaction's writes."""
        with engine.transaction():
            self.alias(engine, "a")
            with engine.reading():
                assert ["a"] == self.aliases(engine)

    def test_concurrent_writers_lose_no_update(self, engine: Engine, other: Engine) -> None:
        """Read-modify-write increments from two engines and four threads all count."""
        rounds, errors = 25, []

        def increment(target: Engine) -> None:
            try:
                for _ in range(rounds):
                    with target.transaction():
                        value = target.execute(
                            "SELECT value FROM sequences WHERE name = ?", ["post"]
                        ).scalar()
                        target.execute(
                            "UPDATE sequences SET value = ? WHERE name = ?", [value + 1, "post"]
                        )
            except Exception as error:
                errors.append(error)

        threads = [threading.Thread(target=increment, args=(e,)) for e in (engine, other) * 2]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        total = engine.execute("SELECT value FROM sequences WHERE name = ?", ["post"]).scalar()
        assert ([], 4 * rounds) == (errors, total)
