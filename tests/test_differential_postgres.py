"""Differential test on PostgreSQL: random operation sequences answer exactly as on memory,
and every list holds what the core's ``matches()`` selects."""

from __future__ import annotations

from hypothesis import settings

from events_calendar.backends.postgres import PostgresBackend
from events_calendar.testing.differential import DifferentialMachine
from events_calendar.testing.postgres import test_database


class PostgresMachine(DifferentialMachine):
    """Memory against this run's PostgreSQL database, emptied for each example."""

    def make_backend(self) -> PostgresBackend:
        database = test_database()
        database.reset()
        return PostgresBackend(database.url)


PostgresMachine.TestCase.settings = settings(
    settings.get_profile(settings._current_profile or "default"),  # type: ignore[attr-defined]
    stateful_step_count=30,
)
TestSameAnswers = PostgresMachine.TestCase


class PostgresWalkingMachine(PostgresMachine):
    """The same with no link filter driving a list (``SQLStore.rare_links``)."""

    def make_backend(self) -> PostgresBackend:
        backend = super().make_backend()
        backend.rare_links = 0
        return backend


PostgresWalkingMachine.TestCase.settings = PostgresMachine.TestCase.settings
TestSameAnswersWalking = PostgresWalkingMachine.TestCase
