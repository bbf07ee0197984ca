"""Records kept across writes that do not touch them: ``JournalCache``.

Every event page shows venues, organizers and terms, and a calendar's writes rarely change
them: a new event changes only the counts of its own terms. A cache that any commit empties
(``caching.GenerationCache``) reads them all again after every write. This one follows the
change journal (``Storage.changes``) instead: at each new data generation it reads what was
committed since its last look, once, and retires only the records named there, or everything
when the journal cannot say (pruned past it, or an unitemised write such as a bulk load).

Two rules keep it from ever showing a stale record:

- a record is stored only if no catch-up ran between the moment its reader looked at the
  cache and the moment it stores what it read (the ``view`` number it was given): a record
  read before a commit and stored after the catch-up for that commit would never be retired;
- inside a write transaction nothing is caught up, kept or served: the journal then shows
  uncommitted entries, whose numbers a rollback gives back. A backend's generation is equal
  to nothing there, so two readings of it differ, which is how ``view`` knows.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from typing import Generic, Protocol, TypeVar

from .caching import Recent
from .changes import Changes

__all__ = ["JournalCache"]

V = TypeVar("V")

_NEVER = object()


class Journaled(Protocol):
    """What the cache reads of a backend (``storage.Storage``)."""

    def generation(self) -> Hashable: ...

    def changes(self, since: int | None) -> Changes: ...


class JournalCache(Generic[V]):
    """A bounded, thread-safe map from a record's (kind, id) to a value, kept until the change
    journal names that record; least recently used out first."""

    def __init__(self, max_entries: int = 16_384) -> None:
        self._entries: Recent[tuple[str, int], V] = Recent(max_entries)
        self._lock = threading.Lock()
        self._catching_up = threading.Lock()
        self._generation: Hashable = _NEVER
        self._cursor: int | None = None
        self._view = 0

    def view(self, storage: Journaled, generation: Hashable) -> int | None:
        """Bring the entries up to ``generation`` (read from ``storage`` just before): the
        view's number for ``put``, or ``None`` when nothing may be served or kept now (inside
        a write transaction, or a commit landed between two readings of the generation)."""
        with self._lock:
            if generation == self._generation:
                return self._view
        if storage.generation() != generation:
            return None
        # One catch-up at a time; the journal is read holding no lock a reader takes first:
        # reading it may wait for a writer (an in-memory store's lock), and that writer may
        # itself be asking for a view inside its transaction.
        with self._catching_up:
            with self._lock:
                if generation == self._generation:
                    return self._view
                cursor = self._cursor
            changes = storage.changes(cursor)
            with self._lock:
                if changes.records is None:
                    self._entries.clear()
                else:
                    for change in changes.records:
                        self._entries.pop((change.kind, change.record_id))
                self._cursor, self._generation = changes.cursor, generation
                self._view += 1
                return self._view

    def get(self, key: tuple[str, int]) -> V | None:
        with self._lock:
            return self._entries.get(key)

    def put(self, key: tuple[str, int], view: int, value: V) -> None:
        """Keep ``value``, read after ``view`` was given, unless a catch-up ran since."""
        with self._lock:
            if view == self._view:
                self._entries.put(key, value)
