"""The PostgreSQL backend: the whole contract suite, on a database of this test run's own."""

from __future__ import annotations

import pytest

from events_calendar.backends.postgres import PostgresBackend
from events_calendar.storage import Backend
from events_calendar.testing import CalendarContract
from events_calendar.testing.postgres import TestDatabase, test_database


class TestPostgres(CalendarContract):
    """Every contract behaviour on PostgreSQL (emptied before each test)."""

    @pytest.fixture(autouse=True)
    def _database(self) -> None:
        self.database: TestDatabase = test_database()
        self.database.reset()

    def make_backend(self) -> PostgresBackend:
        return PostgresBackend(self.database.url)

    def second_connection(self, backend: Backend) -> Backend:
        return PostgresBackend(self.database.url)
