"""A write judged on a record another writer changed meanwhile: the rights, the zone of its
dates and a category's parent are read again under the write lock, so every backend answers
as one of the two serial orders would (on a file or a server a writer reads before it waits
for the lock; in memory it waits first)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import events_calendar as ec
from events_calendar.errors import CalendarError
from events_calendar.testing.postgres import test_database

DATES = {"start_date": "2031-03-10 19:00", "end_date": "2031-03-10 21:00"}


@pytest.fixture(params=["memory://", "sqlite://", "file", "postgresql"])
def cal(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ec.Calendar]:
    url = request.param
    if url == "file":
        url = f"sqlite:///{tmp_path}/cal.db"
    elif url == "postgresql":
        database = test_database()
        database.reset()
        url = database.url
    opened = ec.connect(url)
    yield opened
    opened.close()


def _meanwhile(cal: ec.Calendar, change: Callable[[], Any], write: Callable[[], Any]) -> Any:
    """``write`` in another thread, started while ``change`` is held uncommitted; what it
    returned, or the class name of the error it raised."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["r"] = write()
        except CalendarError as error:
            out["r"] = type(error).__name__

    other = threading.Thread(target=run)
    with cal.transaction():
        change()
        other.start()
        time.sleep(1.0)  # the other writer has read and waits for the lock
    other.join(30)
    return out["r"]


@pytest.mark.parametrize("action", ["update", "delete"])
def test_rights_are_judged_on_the_record_as_it_is_when_written(
    cal: ec.Calendar, action: str
) -> None:
    """An author whose event was given to another author meanwhile may not edit or trash
    it: it is no longer theirs when the write happens."""
    ann, bob = (cal.users.create(login, role="author") for login in ("ann", "bob"))
    event = cal.as_user(ann).events.create(title="Mine", **DATES)
    mine = cal.as_user(ann).events

    def write() -> Any:
        return (
            mine.update(event.id, title="Edited") if action == "update" else mine.delete(event.id)
        )

    answer = _meanwhile(cal, lambda: cal.events.update(event.id, author=bob.id), write)
    after = cal.events.get(event.id)
    assert ("Forbidden", bob.id, "Mine", "publish") == (
        answer,
        after.author,
        after.title,
        after.status.value,
    )


def test_new_wall_clock_dates_are_read_in_the_zone_the_event_has_then(cal: ec.Calendar) -> None:
    """Dates sent while the event moved to New York are New York's wall clock, as they
    would be in either order."""
    event = cal.events.create(title="Gig", timezone="Europe/Paris", **DATES)
    _meanwhile(
        cal,
        lambda: cal.events.update(event.id, timezone="America/New_York"),
        lambda: cal.events.update(
            event.id, start_date="2031-03-10 20:00", end_date="2031-03-10 22:00"
        ),
    )
    after = cal.events.get(event.id)
    assert ("America/New_York", "2031-03-10T20:00:00-04:00") == (
        after.timezone,
        after.start_date.isoformat(),
    )


def test_a_deleted_categorys_children_move_to_its_parent_as_it_is_then(cal: ec.Calendar) -> None:
    """A category moved under P2 meanwhile gives its children to P2 when deleted."""
    p1, p2 = cal.categories.create(name="P1"), cal.categories.create(name="P2")
    middle = cal.categories.create(name="C", parent=p1.id)
    kid = cal.categories.create(name="Kid", parent=middle.id)
    _meanwhile(
        cal,
        lambda: cal.categories.update(middle.id, parent=p2.id),
        lambda: cal.categories.delete(middle.id),
    )
    assert p2.id == cal.categories.get(kid.id).parent


def test_an_open_transactions_users_and_tokens_are_nobody_elses(cal: ec.Calendar) -> None:
    """A user and token made in a transaction that rolls back never sign anyone in, nor
    author an event, from another thread (memory read them without its lock)."""
    made: dict[str, Any] = {}
    ready = threading.Event()
    out: dict[str, Any] = {}

    def other() -> None:
        ready.wait(30)
        for name, attempt in (
            ("token", lambda: cal.users.verify_token(made["token"]).login),
            ("author", lambda: cal.events.create(title="X", author=made["id"], **DATES).author),
        ):
            try:
                out[name] = attempt()
            except CalendarError as error:
                out[name] = type(error).__name__

    def rolled_back() -> None:
        with cal.transaction():
            made["id"] = cal.users.create("zed", role="editor").id
            made["token"] = cal.users.issue_token("zed")
            ready.set()
            time.sleep(1.0)
            raise RuntimeError("undo")

    thread = threading.Thread(target=other)
    thread.start()
    with pytest.raises(RuntimeError):
        rolled_back()
    thread.join(30)
    assert ({"token": "AuthenticationFailed", "author": "InvalidParameter"}, []) == (
        out,
        cal.users.list(),
    )
