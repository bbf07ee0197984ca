"""Bounded maps for the library's caches: ``Recent``, which keeps the most recently used
entries, and on it ``GenerationCache``, whose entries hold only while the stored data has not
changed.

Every ``GenerationCache`` entry remembers the backend's ``generation()`` when it was made and
is used only while that value is the same: any committed write, from this process or another,
retires it. Inside an open transaction backends answer a generation equal to nothing, so
uncommitted writes are never hidden behind a cached answer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

__all__ = ["GenerationCache", "Recent"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    """A map that keeps its ``max_entries`` most recently used entries. Not thread-safe: each
    cache built on it holds its own lock around it, with the rules it adds."""

    def __init__(self, max_entries: int) -> None:
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._max = max_entries

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: K) -> V | None:
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
        return found

    def put(self, key: K, value: V) -> None:
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self._max:
            self._entries.popitem(last=False)

    def pop(self, key: K) -> None:
        self._entries.pop(key, None)

    def clear(self) -> None:
        self._entries.clear()


class GenerationCache(Generic[V]):
    """A bounded, thread-safe map from keys to values of one data generation."""

    def __init__(self, max_entries: int = 2048) -> None:
        self._entries: Recent[Hashable, tuple[Hashable, V]] = Recent(max_entries)
        self._lock = threading.Lock()

    def get(self, key: Hashable, generation: Hashable) -> V | None:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            if found[0] != generation:
                self._entries.pop(key)
                return None
            return found[1]

    def put(self, key: Hashable, generation: Hashable, value: V) -> None:
        with self._lock:
            self._entries.put(key, (generation, value))
