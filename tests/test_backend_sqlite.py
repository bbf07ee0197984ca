"""The SQLite backend: the whole contract suite, on a file and in memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from events_calendar.backends.sqlite import SQLiteBackend
from events_calendar.storage import Backend
from events_calendar.testing import CalendarContract


class TestSQLiteFile(CalendarContract):
    """Every contract behaviour on an SQLite file."""

    @pytest.fixture(autouse=True)
    def _folder(self, tmp_path: Path) -> None:
        self.folder = tmp_path

    def make_backend(self) -> SQLiteBackend:
        return SQLiteBackend(self.folder / "contract.db")

    def second_connection(self, backend: Backend) -> Backend:
        return SQLiteBackend(self.folder / "contract.db")


class TestSQLiteMemory(CalendarContract):
    """Every contract behaviour on a private in-memory SQLite database."""

    def make_backend(self) -> SQLiteBackend:
        return SQLiteBackend()
