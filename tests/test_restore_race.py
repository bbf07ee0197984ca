"""Two restores of a backup into one empty calendar at once: one restores it, the other is
refused with ``Conflict`` (as a restore into a calendar with data is), never a driver error
or a calendar holding the backup twice.

Each restore runs on its own connection (its own ``Calendar``), in its own thread, and both
are held at the door of their first write transaction until both have reached it: the
emptiness check made before that door let both through, so the one made behind it is the
one that counts.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from pathlib import Path

import psycopg
import pytest

import events_calendar as ec
from events_calendar.backends.postgres import PostgresEngine
from events_calendar.errors import Conflict
from events_calendar.testing import NOW
from events_calendar.testing.postgres import database_url, server_url
from events_calendar.transfer import copy_calendar

#: Databases this module makes are named so (``EVENTS_CALENDAR_TEST_DB_PREFIX``), then a
#: process id and a random part, and dropped after.
_PREFIX = os.environ.get("EVENTS_CALENDAR_TEST_DB_PREFIX", "ec_test")


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A new, migrated, empty database, dropped after the test."""
    server = server_url()
    name = f"{_PREFIX}_restore_{os.getpid()}_{secrets.token_hex(4)}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING 'UTF8'")
    url = database_url(server, name)
    try:
        PostgresEngine(url).close()
        yield url
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def target_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'target.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


def _backup(tmp_path: Path) -> Path:
    """A backup of a small calendar: a venue, two events, a category, a user."""
    path = tmp_path / "backup.json"
    with ec.connect("memory://", clock=ec.FixedClock(NOW)) as source:
        venue = source.venues.create(venue="The Crown", city="Lyon")
        for title in ("Quiz", "Gig"):
            source.events.create(
                title=title,
                start_date="2031-05-01 20:00",
                end_date="2031-05-01 22:00",
                venue=[venue.id],
                categories=["Music"],
            )
        source.users.create(login="editor", role="editor")
        source.export_file(path)
    return path


def _held_at_first_transaction(cal: ec.Calendar, door: threading.Barrier) -> None:
    """Make ``cal``'s first write transaction wait until the other restore reaches its own
    (or a few seconds have passed: a restore that checks behind the door holds the write
    lock there, and the other never comes)."""
    backend = cal.backend
    opened: Callable[[], AbstractContextManager[None]] = backend.transaction
    waited = threading.Event()

    @contextmanager
    def transaction() -> Iterator[None]:
        if not waited.is_set():
            waited.set()
            with suppress(threading.BrokenBarrierError):
                door.wait(timeout=3)
        with opened():
            yield

    backend.transaction = transaction  # type: ignore[method-assign]


def _refused_once(target_url: str, work: Callable[[ec.Calendar], object]) -> Conflict:
    """``work`` run on ``target_url`` from two threads at once, each on its own connection and
    held at the door of its first write transaction until both reach it: one must succeed and
    the other be refused with ``Conflict``, which is returned."""
    door = threading.Barrier(2)
    outcomes: list[object] = [None, None]

    def run(n: int) -> None:
        with ec.connect(target_url, clock=ec.FixedClock(NOW)) as cal:
            _held_at_first_transaction(cal, door)
            try:
                outcomes[n] = work(cal)
            except Exception as error:
                outcomes[n] = error

    threads = [threading.Thread(target=run, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    errors = [o for o in outcomes if isinstance(o, BaseException)]
    assert 1 == len(errors), outcomes
    (error,) = errors
    assert isinstance(error, Conflict), repr(error)
    return error


def test_two_restores_at_once_restore_once(target_url: str, tmp_path: Path) -> None:
    path = _backup(tmp_path)
    error = _refused_once(target_url, lambda cal: cal.import_file(path).summary())
    assert "conflict" == error.code
    assert "not empty" in str(error)
    with ec.connect(target_url, clock=ec.FixedClock(NOW)) as cal:
        # The backup once: its three posts (a venue, two events) and its user, no more.
        assert (3, 1, ["Gig", "Quiz"]) == (
            cal.backend.last_id("post"),
            cal.backend.last_id("user"),
            sorted(cal.events.get(i).title for i in (2, 3)),
        )


def test_two_copies_at_once_copy_once(target_url: str, tmp_path: Path) -> None:
    """``copy_calendar`` into one empty database from two threads: one copies, the other is
    refused with ``Conflict`` (it failed half-way on the first's ids)."""
    with ec.connect("memory://", clock=ec.FixedClock(NOW)) as source:
        for title in ("Quiz", "Gig"):
            source.events.create(
                title=title, start_date="2031-05-01 20:00", end_date="2031-05-01 22:00"
            )
        error = _refused_once(target_url, lambda cal: copy_calendar(source.backend, cal.backend))
    assert "not empty" in str(error)
    with ec.connect(target_url, clock=ec.FixedClock(NOW)) as cal:
        assert (2, ["Gig", "Quiz"]) == (
            cal.backend.last_id("post"),
            sorted(cal.events.get(i).title for i in (1, 2)),
        )
