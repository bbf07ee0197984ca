"""The search indexes' segments are merged by the background thread, a bounded step at a time,
never inside a writer's commit (``backends.sqlite_search_merge``)."""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest

import events_calendar as ec
from events_calendar.backends import sqlite_checkpoint, sqlite_search_merge
from events_calendar.backends.sqlite import SQLiteBackend
from events_calendar.backends.sqlite_schema import SEARCH_INDEXES
from events_calendar.backends.sqlite_search_merge import SearchMerges, merge_step


def _backend(cal: ec.Calendar) -> SQLiteBackend:
    backend = cal.backend
    assert isinstance(backend, SQLiteBackend)
    return backend


def _segments_file(path: Path, rows: int) -> sqlite3.Connection:
    """A trigram index with writers' merging off, one segment of several pages per row's
    transaction: more than four on its lowest level, which merge steps take up."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute("CREATE VIRTUAL TABLE notes USING fts5(body, tokenize='trigram')")
    db.execute("INSERT INTO notes(notes, rank) VALUES ('automerge', 0)")
    words = random.Random(7)
    for n in range(rows):
        text = " ".join(f"{words.getrandbits(40):x}" for _ in range(400))
        db.execute("INSERT INTO notes(body) VALUES (?)", [f"note {n} about jazz {text}"])
    return db


def _locked(
    db: sqlite3.Connection,
) -> tuple[threading.Lock, Callable[[], AbstractContextManager[sqlite3.Connection]]]:
    """A lock, and ``db`` behind it as ``SearchMerges`` takes the writers' connection."""
    lock = threading.Lock()

    @contextmanager
    def writer() -> Iterator[sqlite3.Connection]:
        with lock:
            yield db

    return lock, writer


def test_every_search_index_leaves_merging_to_the_background(tmp_path: Path) -> None:
    cal = ec.connect(f"sqlite:///{tmp_path / 'cal.db'}")
    engine = _backend(cal).engine
    assert ("events_fts", "venues_fts", "organizers_fts") == SEARCH_INDEXES
    for fts in SEARCH_INDEXES:
        config = dict(engine.execute(f"SELECT k, v FROM [{fts}_config]").rows)  # noqa: S608
        assert 0 == config["automerge"], fts
        assert (16, 64) == (config["usermerge"], config["crisismerge"]), fts
    cal.close()


def test_a_merge_waits_for_sixteen_segments_of_a_level(tmp_path: Path) -> None:
    """Fifteen venues, one segment each, leave their level unmerged, where FTS5's default
    of four merges the same segments; a search finds every venue either way."""
    cal = ec.connect(f"sqlite:///{tmp_path / 'cal.db'}")
    engine = _backend(cal).engine
    assert (16, 64) == (sqlite_search_merge.LEVEL_SEGMENTS, sqlite_search_merge.CRISIS_SEGMENTS)
    for n in range(15):
        cal.venues.create(venue=f"Hall {n}", city="Lyon")
    with engine._writer_alone() as db:
        assert not merge_step(db, "venues_fts")
        assert 0 == engine.search_merges.steps
        db.execute("INSERT INTO venues_fts(venues_fts, rank) VALUES ('usermerge', 4)")
        assert merge_step(db, "venues_fts")  # the same segments under FTS5's default
        db.execute("INSERT INTO venues_fts(venues_fts, rank) VALUES ('usermerge', 16)")
    cal.venues.create(venue="Hall 15", city="Lyon")
    assert 16 == cal.venues.list(search="hall", per_page=50).total
    cal.close()


def test_a_step_merges_at_most_its_bound_and_then_nothing(tmp_path: Path) -> None:
    db = _segments_file(tmp_path / "notes.db", 12)
    assert merge_step(db, "notes")  # twelve one-row segments: something to merge
    steps = 1
    while merge_step(db, "notes"):
        steps += 1
    assert steps < 12
    version = db.execute("PRAGMA data_version").fetchone()[0]
    other = sqlite3.connect(tmp_path / "notes.db")
    seen = other.execute("PRAGMA data_version").fetchone()[0]
    assert not merge_step(db, "notes")  # nothing left: no page written
    assert seen == other.execute("PRAGMA data_version").fetchone()[0]
    assert version == db.execute("PRAGMA data_version").fetchone()[0]
    assert 12 == db.execute("SELECT count(*) FROM notes WHERE notes MATCH 'jazz'").fetchone()[0]
    db.execute("INSERT INTO notes(notes, rank) VALUES ('integrity-check', 1)")
    other.close()
    db.close()


def test_a_failed_step_leaves_no_transaction_open(tmp_path: Path) -> None:
    db = _segments_file(tmp_path / "notes.db", 2)
    with pytest.raises(sqlite3.OperationalError):
        merge_step(db, "no_such_index")
    assert not db.in_transaction  # the writers' next BEGIN IMMEDIATE works
    db.execute("BEGIN IMMEDIATE")
    db.execute("COMMIT")
    db.close()


def test_merges_stop_at_their_budget_and_say_work_is_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _segments_file(tmp_path / "notes.db", 40)
    _, writer = _locked(db)
    monkeypatch.setattr(sqlite_search_merge, "BUDGET", 0.0)
    monkeypatch.setattr(sqlite_search_merge, "MERGE_PAGES", 1)
    merges = SearchMerges(["notes"], writer)
    assert merges()  # one step over a budget of nothing: work is left
    assert 1 == merges.steps
    monkeypatch.setattr(sqlite_search_merge, "BUDGET", 60.0)
    assert not merges()
    assert merges.steps > 1
    assert not merge_step(db, "notes")
    db.close()


def test_a_look_that_found_nothing_rests_before_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each look takes the writers' lock; commits wake the thread often, so a look that found
    nothing to merge is not repeated until ``REST`` has passed. A wake meanwhile (a commit's)
    takes no lock but asks to be woken again, so the look it put off happens after the rest."""
    db = _segments_file(tmp_path / "notes.db", 0)
    looks = 0

    @contextmanager
    def writer() -> Iterator[sqlite3.Connection]:
        nonlocal looks
        looks += 1
        yield db

    monkeypatch.setattr(sqlite_search_merge, "REST", 60.0)
    merges = SearchMerges(["notes"], writer)
    assert not merges()  # looked, found nothing: nothing to come back for
    assert merges()  # during the rest: no look, but wake again
    assert (1, 0) == (looks, merges.steps)
    monkeypatch.setattr(sqlite_search_merge, "REST", 0.0)
    merges._rest_until = 0.0
    assert not merges()
    assert 2 == looks
    db.close()


def test_a_wake_with_work_left_wakes_again_without_a_commit() -> None:
    left = [True, True, False]
    calls: list[bool] = []

    def tidy() -> bool:
        calls.append(left.pop(0) if left else False)
        return calls[-1]

    checkpoints = sqlite_checkpoint.Checkpointer(lambda: sqlite3.connect(":memory:"), tidy=tidy)
    checkpoints.committed()
    deadline = time.monotonic() + 10
    while len(calls) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(3 * sqlite_checkpoint.PAUSE)
    checkpoints.close()
    assert [True, True, False] == calls  # no fourth wake: nothing left, no commit since


def test_writes_during_the_rest_are_merged_after_it_without_another_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A burst of commits shorter than ``REST``, after a look that found nothing: its
    segments are merged once the rest is over, though no commit follows."""
    db = _segments_file(tmp_path / "notes.db", 0)
    lock, writer = _locked(db)
    monkeypatch.setattr(sqlite_search_merge, "REST", 0.3)
    merges = SearchMerges(["notes"], writer)
    checkpoints = sqlite_checkpoint.Checkpointer(
        lambda: sqlite3.connect(tmp_path / "notes.db"), tidy=merges
    )
    checkpoints.committed()  # the first commit's look: nothing to merge yet, then the rest
    deadline = time.monotonic() + 10
    while merges._rest_until == 0.0 and time.monotonic() < deadline:
        time.sleep(0.01)
    for n in range(8):  # the burst: a segment a commit, each waking the resting thread
        with lock:
            db.execute("INSERT INTO notes(body) VALUES (?)", [f"late note {n} " + "jazz " * 300])
        checkpoints.committed()
    deadline = time.monotonic() + 10
    while merges.steps == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    checkpoints.close()
    assert merges.steps > 0
    with lock:
        assert not merge_step(db, "notes")  # merged to the end, no commit needed
    db.close()


def test_the_background_thread_merges_what_writes_leave(tmp_path: Path) -> None:
    """Venues are indexed as they are written, a segment per commit; with writers never
    merging, only the background thread can bring them together."""
    cal = ec.connect(f"sqlite:///{tmp_path / 'cal.db'}")
    engine = _backend(cal).engine
    for n in range(40):
        cal.venues.create(venue=f"Hall {n}", city="Lyon")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with engine._writer_alone() as db:
            if engine.search_merges.steps and not merge_step(db, "venues_fts"):
                break
        time.sleep(0.05)
    assert engine.search_merges.steps > 0
    with engine._writer_alone() as db:
        assert not merge_step(db, "venues_fts")  # nothing the thread left behind
    assert 40 == cal.venues.list(search="hall", per_page=50).total
    engine.execute("INSERT INTO venues_fts(venues_fts, rank) VALUES ('integrity-check', 1)")
    cal.close()


def test_a_private_database_merges_nothing_in_the_background() -> None:
    cal = ec.connect("sqlite://")
    engine = _backend(cal).engine
    for n in range(40):
        cal.venues.create(venue=f"Hall {n}")
    assert 0 == engine.search_merges.steps
    assert 40 == cal.venues.list(search="hall", per_page=50).total
    cal.close()
