"""Differential test: random operation sequences on SQLite answer exactly as on memory, and
every list holds what the core's ``matches()`` selects (``events_calendar.testing.differential``).
"""

from __future__ import annotations

from hypothesis import settings

from events_calendar.backends.sqlite import SQLiteBackend
from events_calendar.testing.differential import DifferentialMachine


class SQLiteMachine(DifferentialMachine):
    """Memory against a private in-memory SQLite database."""

    def make_backend(self) -> SQLiteBackend:
        return SQLiteBackend()


SQLiteMachine.TestCase.settings = settings(
    settings.get_profile(settings._current_profile or "default"),  # type: ignore[attr-defined]
    stateful_step_count=30,
)
TestSameAnswers = SQLiteMachine.TestCase


class SQLiteWalkingMachine(SQLiteMachine):
    """The same with every link filter checked along the index walk: with test-sized data the
    links are always few enough to drive a list (``SQLStore.rare_links``), so the other plan
    is forced here."""

    def make_backend(self) -> SQLiteBackend:
        backend = super().make_backend()
        backend.rare_links = 0
        return backend


SQLiteWalkingMachine.TestCase.settings = SQLiteMachine.TestCase.settings
TestSameAnswersWalking = SQLiteWalkingMachine.TestCase
