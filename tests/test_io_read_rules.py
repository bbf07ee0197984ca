"""Imports and exports follow the caller's read rules (docs/permissions.md): a backup is for
those who manage users; an import matches only records the caller may read, and its dry run
refuses what the import would; an .ics export leaves out what the feed leaves out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import events_calendar as ec
from events_calendar.errors import Forbidden
from events_calendar.records import User

START = {"start_date": "2031-05-01 10:00", "end_date": "2031-05-01 11:00"}


@pytest.fixture
def cal() -> ec.Calendar:
    cal = ec.connect("memory://")
    for login, role in (("ann", "administrator"), ("ed", "editor"), ("ava", "author")):
        cal.users.create(login, role=role)
    for login in ("sub", "con"):
        cal.users.create(login, role="subscriber" if login == "sub" else "contributor")
    cal.users.issue_password("ann")
    return cal


def _user(cal: ec.Calendar, login: str) -> User:
    return next(u for u in cal.users.list() if u.login == login)


@pytest.mark.parametrize("login", [None, "sub", "con", "ava", "ed"])
def test_only_those_who_manage_users_write_a_backup(
    cal: ec.Calendar, tmp_path: Path, login: str | None
) -> None:
    """A backup holds drafts, passwords and credential digests: everyone but administrators
    is refused, and no file is written."""
    cal.events.create(title="Board", status="draft", **START)
    path = tmp_path / "backup.json"
    view = cal.as_user(_user(cal, login) if login else None)
    with pytest.raises(Forbidden, match="back up or restore a whole calendar"):
        view.export_file(path)
    assert not path.exists()


def test_an_administrator_writes_and_restores_a_backup(cal: ec.Calendar, tmp_path: Path) -> None:
    cal.events.create(title="Gala", password="hunter2", **START)
    path = tmp_path / "backup.json"
    assert 1 == cal.as_user(_user(cal, "ann")).export_file(path)
    restored = ec.connect("memory://")
    restored.import_file(path)
    assert (["hunter2"], 5) == (
        [e["password"] for e in json.loads(path.read_text())["records"]["event"]],
        len(restored.users.list()),
    )


@pytest.mark.parametrize("login", [None, "ed"])
def test_only_those_who_manage_users_restore_a_backup(
    cal: ec.Calendar, tmp_path: Path, login: str | None
) -> None:
    """Restoring a backup writes users and secrets: refused to anyone else, dry run
    included, with nothing written."""
    path = tmp_path / "backup.json"
    cal.export_file(path)
    empty = ec.connect("memory://")
    empty.users.create("ed", role="editor")
    view = empty.as_user(_user(empty, "ed") if login else None)
    for dry_run in (True, False):
        with pytest.raises(Forbidden):
            view.import_file(path, dry_run=dry_run)
    assert ["ed"] == [u.login for u in empty.users.list()]


def _csv(tmp_path: Path, title: str) -> Path:
    path = tmp_path / "season.csv"
    path.write_text(
        "Event Name,Event Start Date,Event Start Time,Event End Time\n"
        f"{title},2031-05-01,10:00,11:00\n"
    )
    return path


@pytest.mark.parametrize("on_conflict", ["skip", "update"])
def test_an_import_does_not_match_a_record_the_importer_may_not_read(
    cal: ec.Calendar, tmp_path: Path, on_conflict: str
) -> None:
    """An editor's draft with the row's title and start is not found for a contributor:
    the row makes the contributor's own event (dry run and import agree), and the report
    names no id of the draft."""
    draft = cal.as_user(_user(cal, "ed")).events.create(title="Layoffs", status="draft", **START)
    view = cal.as_user(_user(cal, "con"))
    path = _csv(tmp_path, "Layoffs")
    dry = view.import_file(path, on_conflict=on_conflict, dry_run=True)  # type: ignore[arg-type]
    done = view.import_file(path, on_conflict=on_conflict)  # type: ignore[arg-type]
    made = [
        e
        for e in cal.events.iter(start_date="2031-01-01", end_date="2031-12-31")
        if e.title == "Layoffs"
    ]
    assert (["created"], ["created"]) == (
        [r.outcome for r in dry.rows],
        [r.outcome for r in done.rows],
    )
    assert [draft.id, done.rows[0].record_id] == [e.id for e in made]
    assert draft.id not in {r.record_id for r in (*dry.rows, *done.rows)}


def test_a_dry_run_refuses_an_update_the_import_would_refuse(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """A contributor may read an author's published event but not edit it: with
    ``on_conflict="update"`` the dry run refuses the row, as the import does, for the same
    reason."""
    cal.as_user(_user(cal, "ava")).events.create(title="Picnic", description="old", **START)
    path = tmp_path / "season.csv"
    path.write_text(
        "Event Name,Event Start Date,Event Start Time,Event End Time,Event Description\n"
        "Picnic,2031-05-01,10:00,11:00,new\n"
    )
    view = cal.as_user(_user(cal, "con"))
    dry = view.import_file(path, on_conflict="update", dry_run=True, partial=True)
    done = view.import_file(path, on_conflict="update", partial=True)
    expected = ("refused", "Sorry, your role may not edit this event.")
    assert [expected, expected] == [
        (dry.rows[0].outcome, dry.rows[0].reason),
        (done.rows[0].outcome, done.rows[0].reason),
    ]


def test_an_ics_export_leaves_out_what_the_feed_leaves_out(
    cal: ec.Calendar, tmp_path: Path
) -> None:
    """A password-protected event is blanked in a list; an .ics export for a caller who may
    not read it in full leaves it out (a calendar would show the blank), as the feed does."""
    cal.events.create(title="Open day", **START)
    cal.events.create(title="Members only", password="pw", **START)
    path = tmp_path / "out.ics"
    counts = [cal.as_user(None).export_file(path)]
    anonymous = path.read_text()
    counts.append(cal.export_file(path))
    assert ([1, 2], True, False) == (
        counts,
        "SUMMARY:Open day" in anonymous,
        "Members only" in anonymous,
    )
    assert "SUMMARY:Members only" in path.read_text()


def test_a_refused_read_does_not_tell_the_status(cal: ec.Calendar) -> None:
    """Refusing an unpublished record names no status: the caller may not know it."""
    refused = []
    for status in ("draft", "private", "pending"):
        event = cal.events.create(title=status, status=status, **START)
        venue = cal.venues.create(venue=status, status=status)
        for collection, record in (
            (cal.as_user(None).events, event),
            (cal.as_user(None).venues, venue),
        ):
            with pytest.raises(Forbidden) as info:
                collection.get(record.id)
            refused.append(info.value.message)
    assert {
        "This event is not accessible to you: until it is published, only editors and its"
        " author may read it.",
        "This venue is not accessible to you: until it is published, only editors and its"
        " author may read it.",
    } == set(refused)


@pytest.mark.parametrize("login", [None, "sub"])
def test_a_dry_run_refuses_the_creates_the_import_would_refuse(
    cal: ec.Calendar, tmp_path: Path, login: str | None
) -> None:
    """Anonymous callers and subscribers may create nothing: a dry run of new events fails
    as the import does, with the same error, and a dry run of new venues refuses each row
    for the same reason the import gives, where both reported every row created."""
    events = tmp_path / "season.csv"
    events.write_text(
        "Event Name,Event Start Date,Event Start Time,Event End Time\n"
        "Picnic,2031-05-01,10:00,11:00\n"
    )
    venues = tmp_path / "venues.csv"
    venues.write_text("Venue Name,Venue City\nHall,Lyon\n")
    view = cal.as_user(_user(cal, login) if login else None)
    refused = []
    for dry_run in (True, False):
        with pytest.raises(Forbidden) as caught:
            view.import_file(events, dry_run=dry_run)
        refused.append((caught.value.code, caught.value.message))
    dry = view.import_file(venues, kind="venue", dry_run=True, partial=True)
    done = view.import_file(venues, kind="venue", partial=True)
    assert refused[0] == refused[1]
    assert [("refused", done.rows[0].reason)] == [(r.outcome, r.reason) for r in dry.rows]
    assert ("refused", ()) == (done.rows[0].outcome, cal.venues.list().items)
