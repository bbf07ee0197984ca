"""The in-memory backend: the whole contract suite."""

from __future__ import annotations

from events_calendar.backends.memory import MemoryBackend
from events_calendar.testing import CalendarContract


class TestMemory(CalendarContract):
    """Every contract behaviour on the in-memory backend."""

    def make_backend(self) -> MemoryBackend:
        return MemoryBackend()
