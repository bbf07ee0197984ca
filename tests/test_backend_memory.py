"""The in-memory backend: the whole contract suite."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import events_calendar as ec
from events_calendar.backends.memory import MemoryBackend
from events_calendar.testing import CalendarContract


class TestMemory(CalendarContract):
    """Every contract behaviour on the in-memory backend."""

    def make_backend(self) -> MemoryBackend:
        return MemoryBackend()


def test_memory_backend_is_safe_to_share_between_threads() -> None:
    """Eight threads writing and listing at once lose nothing and break no index."""
    cal = ec.Calendar(MemoryBackend(), clock=ec.FixedClock(datetime(2026, 11, 22, tzinfo=UTC)))
    errors: list[BaseException] = []

    def work(worker: int) -> None:
        try:
            for n in range(25):
                cal.events.create(
                    title=f"Talk {worker}-{n}",
                    start_date=f"2031-03-{1 + n % 28:02d} 10:00",
                    end_date=f"2031-03-{1 + n % 28:02d} 11:00",
                    categories=[f"cat {worker % 3}"],
                )
                cal.events.list(start_date="2031-01-01", end_date="2031-12-31", per_page=50)
        except BaseException as error:  # collected and asserted below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    listed = cal.events.list(start_date="2031-01-01", end_date="2031-12-31", per_page=50)
    counts = sorted(c.count for c in cal.categories.list(hide_empty=False).items)
    assert ([], 200, [50, 75, 75]) == (errors, listed.total, counts)
