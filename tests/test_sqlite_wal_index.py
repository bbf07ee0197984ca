"""A SQLite file's data generation, read from its wal-index header (``sqlite_wal_index``).

The generation must change with every commit, whoever makes it (this engine, another
connection, another process), stay the same while nothing commits, and be read without a
query: a query lets go of the interpreter lock, which on a busy server costs the event loop
milliseconds per cached answer.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Hashable, Iterator
from pathlib import Path
from typing import Any

import pytest

import events_calendar as ec
from events_calendar.backends.sqlite import SQLiteEngine
from events_calendar.backends.sqlite_wal_index import HEADER_BYTES, WalIndexHeader

GALA = {
    "title": "Gala",
    "status": "publish",
    "start_date": "2031-06-15 19:00:00",
    "end_date": "2031-06-15 23:00:00",
}


@pytest.fixture
def cal(tmp_path: Path) -> Iterator[ec.Calendar]:
    calendar = ec.connect(f"sqlite:///{tmp_path / 'events.db'}")
    yield calendar
    calendar.close()


def engine_of(cal: ec.Calendar) -> SQLiteEngine:
    engine = cal.backend.engine  # type: ignore[attr-defined]
    assert isinstance(engine, SQLiteEngine)
    return engine


def path_of(cal: ec.Calendar) -> Path:
    path = engine_of(cal).path
    assert path is not None
    return path


class NoQueries:
    """A connection that refuses every statement."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def execute(self, *args: Any) -> Any:
        raise AssertionError("the generation was asked with a query")

    def close(self) -> None:
        self.connection.close()


def both(engine: SQLiteEngine) -> Hashable:
    """``generation()`` and ``generation_nowait()``, which must agree."""
    generation = engine.generation()
    assert generation == engine.generation_nowait()
    return generation


def test_the_generation_is_the_wal_index_header_read_without_a_query(cal: ec.Calendar) -> None:
    engine = engine_of(cal)
    engine._watch = NoQueries(engine._watch)  # type: ignore[assignment, arg-type]
    before = both(engine)
    assert isinstance(before, bytes)
    assert HEADER_BYTES == len(before)
    shm = Path(f"{path_of(cal)}-shm").read_bytes()[:HEADER_BYTES]
    assert shm == before
    cal.events.create(**GALA)
    assert before != both(engine)


def test_it_stays_while_nothing_commits(cal: ec.Calendar) -> None:
    engine = engine_of(cal)
    cal.events.create(**GALA)
    before = both(engine)
    assert ["Gala"] == [
        e.title for e in cal.events.list(start_date="2031-01-01", end_date="2031-12-31").items
    ]
    with engine.reading():
        assert "Gala" == cal.events.get(1).title
    assert before == both(engine)


def test_it_changes_with_every_commit_whoever_makes_it(cal: ec.Calendar) -> None:
    engine = engine_of(cal)
    seen = [both(engine)]
    cal.events.create(**GALA)
    seen.append(both(engine))
    other = sqlite3.connect(path_of(cal), isolation_level=None)
    try:
        other.execute("UPDATE events SET title = 'Gala!'")
        seen.append(both(engine))
        other.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the log starts again from empty
        seen.append(both(engine))
        other.execute("UPDATE events SET title = 'Gala?'")
        seen.append(both(engine))
    finally:
        other.close()
    script = (
        "import sqlite3, sys; db = sqlite3.connect(sys.argv[1], isolation_level=None);"
        " db.execute(\"UPDATE events SET title = 'Gala.'\")"
    )
    subprocess.run(  # noqa: S603 - this interpreter, our own script
        [sys.executable, "-c", script, str(path_of(cal))], check=True, timeout=60
    )
    seen.append(both(engine))
    commits = [seen[0], seen[1], seen[2], seen[4], seen[5]]  # all but the checkpoint's
    assert len(set(commits)) == len(commits), seen
    assert "Gala." == cal.events.get(1).title


def test_inside_a_write_transaction_it_equals_nothing(cal: ec.Calendar) -> None:
    engine = engine_of(cal)
    with cal.transaction():
        assert engine.generation() != engine.generation()
        assert engine.generation_nowait() is None


def test_without_a_wal_index_to_map_it_asks_sqlite(cal: ec.Calendar, tmp_path: Path) -> None:
    assert WalIndexHeader.open(tmp_path / "missing.db") is None
    short = tmp_path / "short.db"
    Path(f"{short}-shm").write_bytes(b"\0" * (HEADER_BYTES - 1))
    assert WalIndexHeader.open(short) is None
    engine = engine_of(cal)
    engine._wal_index = None  # as where the -shm file cannot be mapped
    before = both(engine)
    assert isinstance(before, int)
    cal.events.create(**GALA)
    assert before != both(engine)
