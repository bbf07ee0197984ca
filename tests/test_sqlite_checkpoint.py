"""The write-ahead log is copied back by a thread of its own, not inside a commit
(``backends.sqlite_checkpoint``)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import events_calendar as ec
from events_calendar.backends import sqlite as sqlite_backend
from events_calendar.backends import sqlite_checkpoint
from events_calendar.backends.sqlite import SQLiteBackend


def _backend(cal: ec.Calendar) -> SQLiteBackend:
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend)
    return backend


def _create(cal: ec.Calendar, count: int) -> None:
    for n in range(count):
        cal.events.create(
            title=f"Night {n}", start_date="2027-01-10 20:00", end_date="2027-01-10 22:00"
        )


def test_commits_never_checkpoint_and_a_thread_does(tmp_path: Path) -> None:
    path = tmp_path / "cal.db"
    cal = ec.connect(f"sqlite:///{path}")
    engine = _backend(cal).engine
    checkpoints = engine._checkpoints
    assert checkpoints is not None
    assert 0 == engine.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0]
    runs, size = checkpoints.runs, os.path.getsize(path)
    _create(cal, 300)  # a few thousand pages of log
    deadline = time.monotonic() + 10
    while checkpoints.runs == runs and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.2)  # the checkpoint that follows the last commits
    assert checkpoints.runs > runs
    assert os.path.getsize(path) > size  # the pages reached the database file
    thread = checkpoints._thread
    cal.close()
    assert thread is not None
    assert not thread.is_alive()
    reopened = ec.connect(f"sqlite:///{path}")
    assert 300 == reopened.events.list(start_date="2027-01-10", end_date="2027-01-10").total
    reopened.close()


def test_a_private_database_has_no_log_to_copy() -> None:
    cal = ec.connect("sqlite://")
    assert _backend(cal).engine._checkpoints is None
    _create(cal, 2)
    cal.close()


def test_closing_before_any_checkpoint_stops_cleanly(tmp_path: Path) -> None:
    cal = ec.connect(f"sqlite:///{tmp_path / 'cal.db'}")
    checkpoints = _backend(cal).engine._checkpoints
    assert checkpoints is not None
    _create(cal, 1)
    cal.close()
    cal.close()  # twice is harmless
    assert checkpoints._thread is None or not checkpoints._thread.is_alive()


def test_a_script_that_never_closes_leaves_its_writes_in_the_file(tmp_path: Path) -> None:
    """Its last commits are checkpointed as the interpreter leaves: the ``.db`` file alone,
    copied without its log, holds every event."""
    path = tmp_path / "cal.db"
    script = (
        "import events_calendar as ec;"
        f" cal = ec.connect('sqlite:///{path}');"
        " [cal.events.create(title=f'Night {n}', start_date='2027-01-10 20:00',"
        " end_date='2027-01-10 22:00') for n in range(300)]"
    )
    subprocess.run([sys.executable, "-c", script], check=True)  # noqa: S603 - our interpreter
    alone = tmp_path / "alone.db"
    shutil.copyfile(path, alone)
    copy = ec.connect(f"sqlite:///{alone}")
    assert 300 == copy.events.list(start_date="2027-01-10", end_date="2027-01-10").total
    copy.close()


def test_a_steady_stream_of_writes_keeps_the_log_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writes that never pause leave a passive checkpoint always behind: the log restarts
    only because the checkpointer makes it, so its file stays near ``LOG_PAGES``."""
    monkeypatch.setattr(sqlite_checkpoint, "LOG_PAGES", 64)
    path = tmp_path / "cal.db"
    log = Path(f"{path}-wal")
    cal = ec.connect(f"sqlite:///{path}")
    checkpoints = _backend(cal).engine._checkpoints
    assert checkpoints is not None
    largest = 0
    for n in range(400):
        with cal.transaction():
            for k in range(5):
                cal.events.create(
                    title=f"Night {n}.{k}",
                    start_date="2027-01-10 20:00",
                    end_date="2027-01-10 22:00",
                )
        largest = max(largest, log.stat().st_size)
        time.sleep(0)  # as a server's writer goes back to its event loop between batches
    written = 2000
    cal.close()
    assert checkpoints.restarts > 0
    assert largest < 12_000_000  # unbounded, the log of these 2,000 events is ~34 MB
    reopened = ec.connect(f"sqlite:///{path}")
    assert written == reopened.events.list(start_date="2027-01-10", end_date="2027-01-10").total
    reopened.close()


def test_a_log_a_long_read_let_grow_is_cut_back_once_it_restarts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_checkpoint, "LOG_PAGES", 64)
    monkeypatch.setattr(sqlite_backend, "KEPT_LOG_BYTES", 1_000_000)
    path = tmp_path / "cal.db"
    log = Path(f"{path}-wal")
    cal = ec.connect(f"sqlite:///{path}")
    _create(cal, 1)
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM events").fetchall()  # a long read: no restart
    _create(cal, 300)
    grown = log.stat().st_size
    reader.execute("COMMIT")
    reader.close()
    deadline = time.monotonic() + 20
    while log.stat().st_size > 1_000_000 and time.monotonic() < deadline:
        _create(cal, 1)
        time.sleep(0.01)
    cut = log.stat().st_size
    cal.close()
    assert grown > 4_000_000
    assert cut <= 1_000_000
