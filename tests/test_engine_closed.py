"""A closed calendar, the same on every backend (memory, SQLite in memory and in a file,
PostgreSQL): every use after ``close()`` is ``StorageUnavailable`` saying so, closing inside
one's own transaction is refused, and another thread's transaction still ends as it would
have."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import events_calendar as ec
from events_calendar.errors import StorageUnavailable
from sql_backends import calendar_url

KINDS = ["memory", "sqlite-memory", "sqlite-file", "postgresql"]


@pytest.fixture(params=KINDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    kind: str = request.param
    return "sqlite://" if kind == "sqlite-memory" else calendar_url(kind, tmp_path)


def _venue(cal: ec.Calendar, name: str = "Hall") -> ec.Venue:
    return cal.venues.create(venue=name)


USES: dict[str, Callable[[ec.Calendar], Any]] = {
    "list": lambda cal: cal.events.list(),
    "iter": lambda cal: list(cal.events.iter()),
    "get": lambda cal: cal.venues.get(1),
    "create": lambda cal: _venue(cal, "Later"),
    "transaction": lambda cal: cal.transaction().__enter__(),
    "generation": lambda cal: cal.backend.generation(),
}


@pytest.mark.parametrize("use", list(USES))
def test_any_use_after_close_says_the_calendar_was_closed(url: str, use: str) -> None:
    """A driver's own error (``sqlite3.ProgrammingError``, a closed pool) never reaches the
    caller, and no connection is opened afresh behind ``close()``."""
    cal = ec.connect(url)
    _venue(cal)
    cal.events.list()  # this thread has its reader connection
    cal.close()
    with pytest.raises(StorageUnavailable, match="the calendar was closed"):
        USES[use](cal)


def test_another_threads_reads_after_close_are_refused(url: str) -> None:
    """A thread that never read before (it has no reader yet) is refused too."""
    cal = ec.connect(url)
    cal.close()
    raised: list[BaseException] = []

    def read() -> None:
        try:
            cal.events.list()
        except BaseException as error:  # reported by the assertion below
            raised.append(error)

    reader = threading.Thread(target=read)
    reader.start()
    reader.join()
    assert [StorageUnavailable] == [type(error) for error in raised]


def test_closing_twice_does_nothing(url: str) -> None:
    cal = ec.connect(url)
    cal.close()
    cal.close()


def test_closing_inside_ones_own_transaction_is_refused(url: str) -> None:
    """Nothing is closed, and the transaction goes on to commit (SQLite rolled it back,
    PostgreSQL committed it)."""
    with ec.connect(url) as cal:
        with cal.transaction():
            hall = _venue(cal)
            with pytest.raises(RuntimeError, match="inside the calendar's open transaction"):
                cal.close()
            _venue(cal, "Annex")
        assert "Hall" == cal.venues.get(hall.id).venue
        assert 2 == cal.venues.list().total


def test_another_threads_transaction_ends_as_it_would_have(url: str) -> None:
    """Closed from another thread, a transaction already open commits its writes."""
    if url in ("sqlite://", "memory://"):
        pytest.skip("an in-memory calendar keeps nothing after close to read again")
    inside, release = threading.Event(), threading.Event()
    cal = ec.connect(url)
    done: list[object] = []

    def write() -> None:
        try:
            with cal.transaction():
                _venue(cal, "Written")
                inside.set()
                release.wait(timeout=10)
            done.append("committed")
        except BaseException as error:  # reported by the assertion below
            inside.set()
            done.append(error)

    writer = threading.Thread(target=write)
    writer.start()
    assert inside.wait(timeout=10)
    closer = threading.Thread(target=cal.close)
    closer.start()
    closer.join(timeout=0.3)
    release.set()
    writer.join()
    closer.join()
    with ec.connect(url) as again:
        names = [venue.venue for venue in again.venues.iter()]
    assert (["committed"], ["Written"]) == (done, names)
