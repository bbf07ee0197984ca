"""A small cache whose entries hold only while the stored data has not changed.

Every entry remembers the backend's ``generation()`` when it was made and is used only while
that value is the same: any committed write, from this process or another, retires it. Inside
an open transaction backends answer a generation equal to nothing, so uncommitted writes are
never hidden behind a cached answer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

__all__ = ["GenerationCache"]

V = TypeVar("V")


class GenerationCache(Generic[V]):
    """A bounded, thread-safe map from keys to values of one data generation."""

    def __init__(self, max_entries: int = 2048) -> None:
        self._entries: OrderedDict[Hashable, tuple[Hashable, V]] = OrderedDict()
        self._max = max_entries
        self._lock = threading.Lock()

    def get(self, key: Hashable, generation: Hashable) -> V | None:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            if found[0] != generation:
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
            return found[1]

    def put(self, key: Hashable, generation: Hashable, value: V) -> None:
        with self._lock:
            self._entries[key] = (generation, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self._max:
                self._entries.popitem(last=False)
