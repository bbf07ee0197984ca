"""Empty SQL backends for the tests that hold SQLite and PostgreSQL to the same answers: one
factory each, and the parameter lists their fixtures take; ``calendar_url`` for the tests
that connect a calendar by URL to memory, an SQLite file or PostgreSQL."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

from events_calendar.backends.postgres import PostgresBackend
from events_calendar.backends.sqlite import SQLiteBackend
from events_calendar.testing.postgres import test_database

__all__ = [
    "BOTH",
    "BOTH_IDS",
    "CALENDAR_KINDS",
    "WITH_SET_WISE",
    "WITH_SET_WISE_IDS",
    "Backend",
    "calendar_url",
]

Backend = SQLiteBackend | PostgresBackend


def sqlite() -> SQLiteBackend:
    return SQLiteBackend()


def sqlite_set_wise() -> SQLiteBackend:
    """SQLite doing every ``replace_many`` chunk's upkeep set-wise, however small."""
    backend = SQLiteBackend()
    backend._set_wise = 1
    return backend


def postgres() -> PostgresBackend:
    database = test_database()
    database.reset()
    return PostgresBackend(database.url)


BOTH: list[Callable[[], Backend]] = [sqlite, postgres]
BOTH_IDS = ["sqlite", "postgresql"]
#: Both, and SQLite with its set-wise rewrites taken for every chunk (``SQLiteBackend._rewrite``).
WITH_SET_WISE: list[Callable[[], Backend]] = [sqlite, sqlite_set_wise, postgres]
WITH_SET_WISE_IDS = ["sqlite", "sqlite-set-wise", "postgresql"]


#: The stores ``calendar_url`` opens.
CALENDAR_KINDS = ["memory", "sqlite-file", "postgresql"]
_files = itertools.count()


def calendar_url(kind: str, directory: Path) -> str:
    """A URL to an empty calendar: in memory, a new SQLite file in ``directory``, or the
    emptied test database of PostgreSQL."""
    if kind == "postgresql":
        database = test_database()
        database.reset()
        return database.url
    if kind == "memory":
        return "memory://"
    return f"sqlite:///{directory / f'calendar-{next(_files)}.db'}"
