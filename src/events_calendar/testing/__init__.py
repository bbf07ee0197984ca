"""The backend contract suite, shipped so that outside backends can run it too.

    from events_calendar.testing import CalendarContract

    class TestMyBackend(CalendarContract):
        def make_backend(self):
            return MyBackend()

Importing this package needs pytest; ``import events_calendar`` never imports it.
"""

from __future__ import annotations

from .base import NOW, ContractBase

__all__ = ["NOW", "CalendarContract", "ContractBase"]


class CalendarContract(ContractBase):
    """Every behaviour a backend must show through the ``Calendar`` API."""
