"""The SQLite engine holds to the engine contract, as PostgreSQL's does."""

from __future__ import annotations

from pathlib import Path

import pytest

from events_calendar.backends.sqlite import SQLiteEngine
from events_calendar.testing.engine_contract import EngineContract


class TestSQLiteEngine(EngineContract):
    """Every engine behaviour on an SQLite file (two engines: two processes, as far as each
    knows)."""

    @pytest.fixture(autouse=True)
    def _file(self, tmp_path: Path) -> None:
        self.path = tmp_path / "engine.db"

    def make_engine(self) -> SQLiteEngine:
        return SQLiteEngine(self.path)
