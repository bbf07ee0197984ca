"""``events-calendar migrate``: bring a database's schema up to date, or fail in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from events_calendar.backends.postgres_schema import MIGRATIONS as POSTGRES_MIGRATIONS
from events_calendar.backends.sqlite_schema import STEPS
from events_calendar.cli import main
from events_calendar.testing.postgres import TestDatabase, server_url


def test_migrate_creates_an_sqlite_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Migrating a new SQLite file creates it and lists every migration, in order; a second
    run has none to apply."""
    status = main(["migrate", "--db", f"sqlite:///{tmp_path}/cal.db"])
    first = capsys.readouterr().out.splitlines()
    again = main(["migrate", "--db", f"sqlite:///{tmp_path}/cal.db"])
    assert (0, f"Applied {len(STEPS)} migrations:", "  0001_initial", len(STEPS) + 2, True) == (
        status,
        first[0],
        first[1],
        len(first),
        (tmp_path / "cal.db").exists(),
    )
    assert [f"  {name}" for name, _ in STEPS] == first[1:-1]
    assert first[-1] == "The database schema is up to date."
    assert (0, "No migration to apply.\nThe database schema is up to date.\n") == (
        again,
        capsys.readouterr().out,
    )


def test_migrate_creates_a_postgres_schema(capsys: pytest.CaptureFixture[str]) -> None:
    """Migrating an empty PostgreSQL database records the schema version and lists what it
    applied; a second run has nothing to apply."""
    database = TestDatabase(server_url(), migrate=False)
    try:
        status = main(["migrate", "--db", database.url])
        first = capsys.readouterr().out.splitlines()
        again = main(["migrate", "--db", database.url])
        database.reset()  # works only on a migrated database
    finally:
        database.drop()
    expected = [f"  {m.version:04d}_{m.name}" for m in POSTGRES_MIGRATIONS]
    assert (0, f"Applied {len(expected)} migrations:", expected) == (
        status,
        first[0],
        first[1:-1],
    )
    assert (0, "No migration to apply.\nThe database schema is up to date.\n") == (
        again,
        capsys.readouterr().out,
    )


def test_migrate_unreachable_postgres_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """An unreachable server: exit 1 and one line naming scheme, host and what failed."""
    status = main(["migrate", "--db", "postgresql://ann:pw@127.0.0.1:1/cal"])
    err = capsys.readouterr().err
    assert (1, 1, True, False) == (
        status,
        len(err.splitlines()),
        err.startswith(
            "events-calendar: cannot open database 'postgresql://127.0.0.1:1/cal':"
            " connection failed"
        ),
        "pw" in err,
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["migrate", "--db", ""],
        ["users", "list", "--db", " "],
        ["seed", "--sample", "--db", ""],
        ["export", "out.csv", "--db", ""],
        ["copy", "--from", "", "--to", "memory://"],
    ],
)
def test_an_empty_database_url_is_refused_not_read_as_the_default(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--db "$UNSET"`` would have opened (and made) ./events.db: it is a usage error,
    one line, exit 2, and no file appears."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("EVENTS_CALENDAR_DB", raising=False)
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    err = capsys.readouterr().err
    assert (2, 1, "give a database URL" in err, []) == (
        stopped.value.code,
        len(err.strip().splitlines()),
        True,
        list(tmp_path.iterdir()),
    )
