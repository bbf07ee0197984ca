"""What the shared SQL layer needs from a database: connections, transactions, statements.

An ``Engine`` owns the driver. The shared store (``store.SQLStore``) writes every statement
once, with ``?`` placeholders and double-quoted identifiers (both portable); an engine whose
driver wants another placeholder style rewrites them. Driver errors never leave an engine:
``execute`` translates them through ``errors.translating`` into the library's own.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from contextlib import AbstractContextManager
from typing import Any

import attrs

from .dialect import Dialect

__all__ = ["Engine", "Result"]


@attrs.frozen
class Result:
    """The rows a statement returned (all fetched), their column names, and the row count."""

    columns: tuple[str, ...] = ()
    rows: list[tuple[Any, ...]] = attrs.field(factory=list)
    rowcount: int = -1

    def scalar(self) -> Any:
        """The first column of the first row, or ``None`` when there is no row."""
        return self.rows[0][0] if self.rows else None

    def first_column(self) -> list[Any]:
        return [row[0] for row in self.rows]

    def dicts(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


class Engine(ABC):
    """One database: its dialect, a connection (or pool), transactions and migrations.

    Thread safety is the engine's job: every method may be called from several threads.
    """

    dialect: Dialect
    #: The migrations opening the database applied, in order: set by an engine that
    #: migrates on open; none when the schema was already up to date.
    migrated: tuple[str, ...] = ()

    @abstractmethod
    def transaction(self) -> AbstractContextManager[None]:
        """A write transaction: everything inside commits together or not at all.

        Transactions nest (savepoints). The outermost one serialises writers, so that a
        read-modify-write inside it never loses another writer's update.
        """

    @abstractmethod
    def reading(self) -> AbstractContextManager[None]:
        """Several reads that must see one snapshot (a page and its total). Inside a
        transaction it adds nothing."""

    @abstractmethod
    def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        """Run one statement (in the current transaction or snapshot, if any)."""

    @abstractmethod
    def writing(self) -> bool:
        """Whether this thread is inside a write transaction of this engine: what it reads
        may be undone, so nothing read then may be kept."""

    @abstractmethod
    def generation(self) -> Hashable:
        """A value that changes whenever a write commits, from any connection, process or
        machine; inside an open transaction of this engine (``writing``), equal to nothing."""

    def generation_nowait(self) -> Hashable | None:
        """``generation()`` if it can be read without waiting on a lock, a disk or a
        server, else ``None``: an event loop may then read it inline."""
        return None

    @abstractmethod
    def close(self) -> None: ...
