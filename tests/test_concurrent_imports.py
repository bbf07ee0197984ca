"""Two imports of one file at once: the second matches its rows under the write lock, after
the first committed, so it finds the first's records as it would run after it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest

import events_calendar as ec
from sql_backends import CALENDAR_KINDS, calendar_url

ROWS = 3
#: The file, with no key column (title and start match) and with a stored key (``key="ID"``).
FILES = {
    None: "Event Name,Event Start Date,Event Start Time,Event End Time\n"
    + "".join(f"Imp {n},2031-04-01,10:00,11:00\n" for n in range(ROWS)),
    "ID": "ID,Event Name,Event Start Date,Event Start Time,Event End Time\n"
    + "".join(f"k{n},Imp {n},2031-04-0{n + 1},10:00,11:00\n" for n in range(ROWS)),
}


@pytest.fixture(params=CALENDAR_KINDS)
def cal(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ec.Calendar]:
    opened = ec.connect(calendar_url(request.param, tmp_path))
    yield opened
    opened.close()


def _signalling_transactions(
    cal: ec.Calendar, monkeypatch: pytest.MonkeyPatch, thread: Callable[[], bool]
) -> threading.Event:
    """An event set when ``thread()`` holds for the thread opening a write transaction, at
    the call, before it waits for the lock."""
    opened = threading.Event()
    transaction = cal.backend.transaction

    def signalling() -> AbstractContextManager[None]:
        if thread():
            opened.set()
        return transaction()

    monkeypatch.setattr(cal.backend, "transaction", signalling)
    return opened


@pytest.mark.parametrize("key", list(FILES), ids=["title-start", "key-column"])
def test_an_import_beside_another_of_the_same_file_finds_its_records(
    cal: ec.Calendar, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key: str | None
) -> None:
    """The second of two imports of one file reports every row unchanged and creates none."""
    # Into a calendar with events: a load into an empty one locks PostgreSQL's readers out.
    cal.events.create(title="Earlier", start_date="2030-01-01 10:00", end_date="2030-01-01 11:00")
    path = tmp_path / "season.csv"
    path.write_text(FILES[key], encoding="utf-8")
    second: dict[str, Any] = {}
    worker = threading.Thread(target=lambda: second.update(r=cal.import_file(path, key=key)))
    opened = _signalling_transactions(
        cal, monkeypatch, lambda: threading.current_thread() is worker
    )
    with cal.transaction():
        first = cal.import_file(path, key=key)
        worker.start()
        assert opened.wait(30)  # the second import has asked for the lock the first holds
    worker.join(30)
    titles = sorted(
        e.title
        for e in cal.events.list(start_date="2031-01-01", end_date="2031-12-31", per_page=50)
    )
    assert (
        f"created {ROWS}, updated 0, unchanged 0, refused 0",
        f"created 0, updated 0, unchanged {ROWS}, refused 0",
        [f"Imp {n}" for n in range(ROWS)],
    ) == (first.summary(), second["r"].summary(), titles)
