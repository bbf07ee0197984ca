"""SQLite files opened read-only: ``sqlite:///events.db?mode=ro``, or a file (or folder) this
process cannot write. Reads and exports work; a write, or a migration the file lacks, is
``StorageUnavailable`` with code ``READ_ONLY_DATABASE`` and a sentence saying why.

The tests run as root, whom ``chmod`` does not stop, so they open files with ``?mode=ro``
(SQLite's own read-only mode, which stops root too); the detection of a file that cannot be
written and the fallback for a read-only folder are driven by making ``os.access`` and
SQLite's ``mode=ro`` answer as they do for another user.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

import events_calendar as ec
from events_calendar.backends import sqlite as sqlite_backend
from events_calendar.backends.sqlite import SQLiteBackend, cannot_write
from events_calendar.backends.sqlite_schema import STEPS
from events_calendar.cli import main
from events_calendar.errors import READ_ONLY_DATABASE, InvalidParameter, StorageUnavailable
from events_calendar.testing import NOW


@pytest.fixture
def calendar_file(tmp_path: Path) -> Path:
    """A migrated file holding one event (id 1)."""
    path = tmp_path / "events.db"
    with ec.connect(f"sqlite:///{path}", clock=ec.FixedClock(NOW)) as cal:
        cal.events.create(title="Quiz", start_date="2031-05-01 20:00", end_date="2031-05-01 22:00")
    return path


def _read_only_url(path: Path) -> str:
    return f"sqlite:///{path}?mode=ro"


def test_a_read_only_calendar_reads_and_exports(calendar_file: Path, tmp_path: Path) -> None:
    with ec.connect(_read_only_url(calendar_file), clock=ec.FixedClock(NOW)) as cal:
        assert cal.backend.engine.read_only
        assert "Quiz" == cal.events.get(1).title
        for name in ("out.csv", "out.ics", "out.json"):
            cal.export_file(tmp_path / name)
    assert "Quiz" in (tmp_path / "out.csv").read_text(encoding="utf-8")
    backup = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert ["Quiz"] == [event["title"] for event in backup["records"]["event"]]


def test_the_cli_exports_a_read_only_calendar(
    calendar_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.csv"
    assert 0 == main(["export", str(out), "--db", _read_only_url(calendar_file)])
    assert "Exported 1 events" in capsys.readouterr().out
    assert "Quiz" in out.read_text(encoding="utf-8")


def test_a_write_is_a_typed_error_and_writes_nothing(calendar_file: Path) -> None:
    with ec.connect(_read_only_url(calendar_file), clock=ec.FixedClock(NOW)) as cal:
        with pytest.raises(StorageUnavailable) as raised:
            cal.events.create(
                title="Gig", start_date="2031-05-02 20:00", end_date="2031-05-02 22:00"
            )
        assert READ_ONLY_DATABASE == raised.value.code
        assert "it is opened read-only" in str(raised.value)
        with pytest.raises(StorageUnavailable, match="read-only"):
            cal.events.update(1, title="Renamed")
    with ec.connect(f"sqlite:///{calendar_file}", clock=ec.FixedClock(NOW)) as cal:
        assert ("Quiz", 1) == (cal.events.get(1).title, cal.backend.last_id("post"))


def test_the_cli_refuses_an_import_into_a_read_only_calendar(
    calendar_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.csv"
    source.write_text("Event Name,Event Start Date\nGig,2031-05-02\n", encoding="utf-8")
    assert 1 == main(["import", str(source), "--db", _read_only_url(calendar_file)])
    err = capsys.readouterr().err
    assert "it is opened read-only" in err
    assert "Traceback" not in err


def test_a_read_only_file_lacking_a_migration_says_so(calendar_file: Path) -> None:
    with sqlite3.connect(calendar_file) as raw:
        raw.execute("DELETE FROM _sqlite_migrations WHERE name LIKE '0016%'")
    raw.close()
    with pytest.raises(StorageUnavailable) as raised:
        ec.connect(_read_only_url(calendar_file))
    assert READ_ONLY_DATABASE == raised.value.code
    assert (
        "it is read-only and needs 1 migrations this version applies "
        "(0016_search_indexes_hold_folded_text); open it once where it can be written"
    ) in str(raised.value)


def test_an_empty_file_opened_read_only_is_refused_not_migrated(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.write_bytes(b"")
    count, last = len(STEPS), STEPS[-1][0]
    with pytest.raises(
        StorageUnavailable, match=rf"needs {count} migrations .*0001_initial, \.\.\., {last}\)"
    ):
        ec.connect(_read_only_url(path))
    assert b"" == path.read_bytes()


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("sqlite:///x.db?mode=rw", "unknown SQLite URL option 'mode=rw'"),
        ("sqlite:///x.db?cache=shared", "unknown SQLite URL option 'cache=shared'"),
        ("sqlite://?mode=ro", "mode=ro needs a file"),
    ],
)
def test_other_url_options_are_refused(url: str, why: str, tmp_path: Path) -> None:
    with pytest.raises(InvalidParameter, match=why):
        ec.connect(url)


def test_the_path_of_a_url_leaves_its_options_out() -> None:
    assert "dir/events.db" == SQLiteBackend.path_of("sqlite:///dir/events.db?mode=ro")


def test_a_file_this_process_cannot_write_opens_read_only(
    calendar_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No option needed: a file ``os.access`` says is not writable (``chmod 444`` for
    anyone but root) is opened read-only rather than refused."""
    real = sqlite_backend.os.access
    denied = str(calendar_file)

    def access(path: object, mode: int) -> bool:
        return False if str(path) == denied and mode & sqlite_backend.os.W_OK else real(path, mode)  # type: ignore[arg-type]

    monkeypatch.setattr(sqlite_backend.os, "access", access)
    assert cannot_write(calendar_file)
    with ec.connect(f"sqlite:///{calendar_file}") as cal:
        assert cal.backend.engine.read_only
        assert "Quiz" == cal.events.get(1).title
        with pytest.raises(StorageUnavailable, match="read-only"):
            cal.events.create(
                title="Gig", start_date="2031-05-02 20:00", end_date="2031-05-02 22:00"
            )


def _as_in_a_read_only_folder(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """SQLite's ``mode=ro`` failing as it does in a folder this process cannot write, with
    no ``-shm`` there: only ``immutable=1`` reads. Returns the URIs opened."""
    real = sqlite3.connect
    opened: list[str] = []

    def connect(database: str, *args: object, **kwargs: object) -> sqlite3.Connection:
        opened.append(str(database))
        if "mode=ro" in str(database) and "immutable=1" not in str(database):
            return real("file:/nonexistent-folder/x.db?mode=ro", uri=True)  # fails on use
        return real(database, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sqlite_backend.sqlite3, "connect", connect)
    return opened


def test_a_file_in_a_read_only_folder_is_read_as_immutable(
    calendar_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = _as_in_a_read_only_folder(monkeypatch)
    with ec.connect(_read_only_url(calendar_file)) as cal:
        assert "Quiz" == cal.events.get(1).title
    assert opened[0].endswith("?mode=ro")  # tried first, then read as immutable
    assert all("immutable=1" in uri for uri in opened[1:])


def test_a_log_holding_commits_is_never_read_as_immutable(
    calendar_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Immutable reading skips the write-ahead log: with commits in it, the file alone
    would be a past state, so it is refused instead."""
    writer = sqlite3.connect(calendar_file, isolation_level=None)
    try:
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("UPDATE sequences SET value = value + 1")
        assert calendar_file.with_name("events.db-wal").stat().st_size > 0
        _as_in_a_read_only_folder(monkeypatch)
        with pytest.raises(StorageUnavailable):
            ec.connect(_read_only_url(calendar_file))
    finally:
        writer.close()
