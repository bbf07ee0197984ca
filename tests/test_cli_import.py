"""``events-calendar import`` and ``export``: one line per refused row, the summary last,
exit 1 when anything was refused, one line and exit 1 for a file that cannot be read."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

import events_calendar as ec
from events_calendar.cli import main

SEASON = (
    "Event Name,Event Start Date,Event Start Time,Event End Time,Feature Event\n"
    "Opening,2031-05-01,19:00,22:00,yes\n"
    "Matinee,2031-05-02,14:00,16:00,no\n"
)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'cal.db'}"


def _csv(tmp_path: Path, text: str = SEASON, name: str = "season.csv") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _titles(db: str) -> list[str]:
    with ec.connect(db) as cal:
        page = cal.events.list(start_date="2030-01-01", end_date="2032-01-01", status="any")
        return [e.title for e in page.items]


def test_import_prints_the_summary_and_exits_0(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A clean file: the summary is the only line, exit status 0."""
    status = main(["import", _csv(tmp_path), "--db", db])
    assert (0, "created 2, updated 0, unchanged 0, refused 0\n", ["Opening", "Matinee"]) == (
        status,
        capsys.readouterr().out,
        _titles(db),
    )


def test_refused_rows_are_listed_and_exit_1(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """One line per refused row, the summary last, exit 1, nothing written."""
    path = _csv(tmp_path, SEASON + "Broken,2031-05-03,25:00,,\n")
    status = main(["import", path, "--db", db])
    assert (
        1,
        [
            "line 4: refused: Event Start Time: '25:00' is not a time of day; write it as "
            "19:30, 7:30:00 or 7:30 pm",
            "nothing written: 2 good rows wait for partial=True (--partial)",
            "created 0, updated 0, unchanged 0, refused 1",
        ],
        [],
    ) == (status, capsys.readouterr().out.splitlines(), _titles(db))


def test_a_semicolon_separated_file_imports_and_reimports_unchanged(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CSV as Excel saves it in a French or German locale (``;`` between cells, a decimal
    comma in a cell) imports, and importing it again matches every row."""
    path = _csv(tmp_path, SEASON.replace(",", ";") + "Gala;2031-05-03;19:00;;no\n")
    first = main(["import", path, "--db", db])
    again = main(["import", path, "--db", db])
    assert (
        0,
        0,
        [
            "created 3, updated 0, unchanged 0, refused 0",
            "created 0, updated 0, unchanged 3, refused 0",
        ],
        ["Opening", "Matinee", "Gala"],
    ) == (first, again, capsys.readouterr().out.splitlines(), _titles(db))


def test_partial_imports_the_good_rows(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """--partial writes the good rows; the refused one still makes the exit status 1."""
    path = _csv(tmp_path, SEASON + "Broken,2031-05-03,25:00,,\n")
    status = main(["import", path, "--partial", "--db", db])
    assert (1, "created 2, updated 0, unchanged 0, refused 1", ["Opening", "Matinee"]) == (
        status,
        capsys.readouterr().out.splitlines()[-1],
        _titles(db),
    )


def test_dry_run_writes_nothing(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """--dry-run says so on the line before the summary, and leaves the calendar empty."""
    status = main(["import", _csv(tmp_path), "--dry-run", "--db", db])
    assert (
        0,
        [
            "dry run: nothing written; the counts are what the import would do",
            "created 2, updated 0, unchanged 0, refused 0",
        ],
        [],
    ) == (status, capsys.readouterr().out.splitlines(), _titles(db))


def test_a_dry_run_predicts_an_atomic_import(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --partial, a dry run of a file with a bad row counts what the import does:
    nothing created, the good rows waiting for --partial."""
    path = _csv(tmp_path, SEASON + "Broken,2031-05-03,25:00,,\n")
    status = main(["import", path, "--dry-run", "--db", db])
    assert (
        1,
        [
            "dry run: nothing written; the import would write nothing either: 2 good rows "
            "wait for partial=True (--partial)",
            "created 0, updated 0, unchanged 0, refused 1",
        ],
    ) == (status, capsys.readouterr().out.splitlines()[1:])


def test_a_partial_dry_run_counts_the_partial_import(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """--partial --dry-run counts the good rows as the partial import would create them."""
    path = _csv(tmp_path, SEASON + "Broken,2031-05-03,25:00,,\n")
    main(["import", path, "--dry-run", "--partial", "--db", db])
    last = capsys.readouterr().out.splitlines()[-1]
    assert "created 2, updated 0, unchanged 0, refused 1" == last


def test_a_row_refused_by_validation_leaves_the_good_rows_counted(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A row only event validation refuses (a bad website) still leaves the good row
    counted as waiting for --partial, as the dry run predicts."""
    text = "Event Name,Event Start Date,Event Website\nA,2031-05-01,notaurl\nB,2031-05-02,\n"
    path = _csv(tmp_path, text)
    main(["import", path, "--db", db])
    real = capsys.readouterr().out.splitlines()
    main(["import", path, "--dry-run", "--db", db])
    dry = capsys.readouterr().out.splitlines()
    assert (
        [
            "line 2: refused: website: send an absolute http(s) URL such as "
            "'https://example.org', or ''",
            "nothing written: 1 good rows wait for partial=True (--partial)",
            "created 0, updated 0, unchanged 0, refused 1",
        ],
        real[-1],
    ) == (real, dry[-1])


def test_map_key_status_and_on_conflict(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """--map reads another layout, --key follows a renamed row, --status sets the status."""
    text = "Ref,What,When\nA-1,Gala,2031-05-01\n"
    options = ["--map", "What=title", "--map", "When=start_date", "--key", "Ref"]
    main(["import", _csv(tmp_path, text), *options, "--status", "draft", "--db", db])
    renamed = _csv(tmp_path, text.replace("Gala", "Grand Gala"), "renamed.csv")
    status = main(["import", renamed, *options, "--on-conflict", "update", "--db", db])
    with ec.connect(db) as cal:
        (event,) = cal.events.list(
            start_date="2030-01-01", end_date="2032-01-01", status="any"
        ).items
    assert (0, "created 0, updated 1, unchanged 0, refused 0", "Grand Gala", ec.Status.DRAFT) == (
        status,
        capsys.readouterr().out.splitlines()[-1],
        event.title,
        event.status,
    )


def test_status_trash_is_one_line_and_writes_nothing(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--status trash`` is refused in one line naming the option's field, exit 1."""
    status = main(["import", _csv(tmp_path), "--status", "trash", "--db", db])
    assert (
        1,
        "events-calendar: Invalid parameter(s): status (status: 'trash' is not a status an "
        "import gives (a later import would not find a record put in the trash, and would add "
        "another copy); send one of publish, future, draft, pending, private)\n",
        False,
    ) == (status, capsys.readouterr().err, Path(db.removeprefix("sqlite:///")).exists())


def test_a_bad_map_is_one_line(tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """--map without '=' is refused with one line."""
    status = main(["import", _csv(tmp_path), "--map", "What", "--db", db])
    assert (1, "events-calendar: --map takes COLUMN=FIELD, not 'What'\n") == (
        status,
        capsys.readouterr().err,
    )


FEED = (
    b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//x//EN\r\nBEGIN:VEVENT\r\nUID:a@x\r\n"
    b"DTSTART:20310501T190000Z\r\nSUMMARY:Gala\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
)


def _feed_and_backup(tmp_path: Path) -> dict[str, str]:
    """An .ics file of one event and a JSON backup of an empty calendar."""
    (tmp_path / "feed.ics").write_bytes(FEED)
    ec.connect("memory://").export_file(tmp_path / "backup.json")
    return {"ics": str(tmp_path / "feed.ics"), "json": str(tmp_path / "backup.json")}


@pytest.mark.parametrize(
    ("fmt", "option", "why"),
    [
        ("ics", ["--kind", "venues"], "kind: an iCalendar file holds events"),
        ("ics", ["--map", "What=title"], "map: map= (--map) reads CSV columns"),
        ("ics", ["--key", "Ref"], "key: a key column is a CSV column"),
        ("json", ["--kind", "events"], "kind: a JSON backup holds every kind"),
        ("json", ["--map", "What=title"], "map: map= (--map) reads CSV columns"),
        ("json", ["--key", "Ref"], "key: a key column is a CSV column"),
        ("json", ["--status", "draft"], "status: a JSON backup keeps each record's own status"),
        ("json", ["--partial"], "partial: a backup restores into an empty calendar whole"),
        ("json", ["--partial", "--dry-run"], "partial: a backup restores into an empty"),
    ],
)
def test_csv_options_are_refused_for_other_formats(
    tmp_path: Path,
    db: str,
    capsys: pytest.CaptureFixture[str],
    fmt: str,
    option: list[str],
    why: str,
) -> None:
    """--kind, --map and --key where they mean nothing, --status for a backup (each record
    has its own), --partial for a restore (whole or not at all): one line, exit 1, nothing
    imported."""
    path = _feed_and_backup(tmp_path)[fmt]
    status = main(["import", path, *option, "--db", db])
    err = capsys.readouterr().err
    assert (1, 1, True, []) == (status, len(err.splitlines()), why in err, _titles(db))


def test_kind_events_is_kept_for_an_ics_file(tmp_path: Path, db: str) -> None:
    """--kind events says what an .ics file holds anyway: accepted."""
    path = _feed_and_backup(tmp_path)["ics"]
    assert (0, ["Gala"]) == (main(["import", path, "--kind", "events", "--db", db]), _titles(db))


def test_a_map_naming_no_column_of_the_file_is_refused(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """--map for a column the file does not have: one line naming it, exit 1."""
    status = main(["import", _csv(tmp_path), "--map", "Nope=venue", "--db", db])
    assert (1, True, []) == (
        status,
        "map: the file has no column 'Nope'" in capsys.readouterr().err,
        _titles(db),
    )


def test_venues_kind(tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """--kind venues reads a venue CSV."""
    path = _csv(tmp_path, "Venue Name,Venue City\nHall,Lyon\n", "venues.csv")
    status = main(["import", path, "--kind", "venues", "--db", db])
    with ec.connect(db) as cal:
        venues = [(v.venue, v.city) for v in cal.venues.list().items]
    assert (0, [("Hall", "Lyon")]) == (status, venues)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x00\x01\x02binary", "line 1 holds binary data (a NUL byte), not text"),
        (b"Gala,2031-05-01\n", "no header row: no column names the event ('Event Name')"),
        (b"Event Name\n\xe9t\xe9\n", "line 2 is not UTF-8 text (byte 0xe9)"),
        (
            "Event Name\nGala\n".encode("utf-16"),
            "it is UTF-16 text, not UTF-8; save it as UTF-8 and import it again",
        ),
        (
            "\ufeffEvent Name\nGala\n".encode("utf-16-be"),
            "it is UTF-16 text, not UTF-8; save it as UTF-8 and import it again",
        ),
    ],
    ids=["binary", "no-header", "encoding", "utf-16", "utf-16-be"],
)
def test_an_unreadable_file_is_one_line_and_exit_1(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str], data: bytes, message: str
) -> None:
    """Never a traceback: one line on stderr naming the file and the problem."""
    path = tmp_path / "bad.csv"
    path.write_bytes(data)
    assert (1, 1, True) == _import_fails(path, db, capsys, message)


def test_a_repeated_column_is_reported_as_a_repeat(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A second column for a field already read is named as such; the first one is read."""
    path = _csv(tmp_path, "Event Name,Event Start Date,Event Name\nGala,2031-05-01,Other\n")
    status = main(["import", path, "--db", db])
    assert (
        0,
        [
            "ignored columns (the same field as an earlier column): Event Name",
            "created 1, updated 0, unchanged 0, refused 0",
        ],
        ["Gala"],
    ) == (status, capsys.readouterr().out.splitlines(), _titles(db))


def test_a_missing_file_is_one_line(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file that is not there: one line, exit 1."""
    status = main(["import", str(tmp_path / "none.csv"), "--db", db])
    assert (1, f"events-calendar: {tmp_path / 'none.csv'}: No such file or directory\n") == (
        status,
        capsys.readouterr().err,
    )


def test_an_unknown_extension_asks_for_a_format(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The format comes from the extension; without one the error says how to name it."""
    path = _csv(tmp_path, name="season.txt")
    status = main(["import", path, "--db", db])
    assert (1, True) == (
        status,
        "cannot tell the format of" in capsys.readouterr().err,
    )


def test_format_overrides_the_extension(tmp_path: Path, db: str) -> None:
    """--format csv reads a .txt file as CSV."""
    assert 0 == main(["import", _csv(tmp_path, name="season.txt"), "--format", "csv", "--db", db])


def test_ics_without_the_ical_module_is_one_line(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """When iCalendar support cannot be imported, the error says which extra to install."""
    monkeypatch.setitem(sys.modules, "events_calendar.io.ical", None)
    path = tmp_path / "feed.ics"
    path.write_bytes(b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
    status = main(["import", str(path), "--db", db])
    err = capsys.readouterr().err
    assert (1, True) == (
        status,
        err.startswith("events-calendar: iCalendar files need the 'io' extra"),
    )


def test_the_database_defaults_to_the_environment(
    tmp_path: Path, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without --db, $EVENTS_CALENDAR_DB names the calendar."""
    monkeypatch.setenv("EVENTS_CALENDAR_DB", db)
    main(["import", _csv(tmp_path)])
    assert ["Opening", "Matinee"] == _titles(db)


def test_a_dry_run_creates_no_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--dry-run against an SQLite file that does not exist reports as against an empty
    calendar and leaves no file behind."""
    missing = tmp_path / "new.db"
    status = main(["import", _csv(tmp_path), "--dry-run", "--db", f"sqlite:///{missing}"])
    assert (0, "created 2, updated 0, unchanged 0, refused 0", []) == (
        status,
        capsys.readouterr().out.splitlines()[-1],
        sorted(p.name for p in tmp_path.glob("new.db*")),
    )


@pytest.mark.parametrize(
    "text",
    ["\x00binary", SEASON + "Broken,2031-05-03,25:00,,\n"],
    ids=["unreadable", "a-refused-row"],
)
def test_a_failed_import_creates_no_default_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """An import that writes nothing (an unreadable file, a refused row) leaves no
    events.db where there was none."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("EVENTS_CALENDAR_DB", raising=False)
    status = main(["import", _csv(tmp_path, text)])
    assert (1, []) == (status, sorted(p.name for p in tmp_path.glob("events.db*")))


def test_a_failed_import_keeps_a_database_that_was_there(tmp_path: Path, db: str) -> None:
    """The same failure against an existing (empty) database leaves it where it was."""
    ec.connect(db).close()
    main(["import", _csv(tmp_path, SEASON + "Broken,2031-05-03,25:00,,\n"), "--db", db])
    assert (tmp_path / "cal.db").exists()


def test_export_takes_the_filters_of_the_events_list(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """--featured true exports the featured event only, in the importer's layout."""
    main(["import", _csv(tmp_path), "--db", db])
    capsys.readouterr()
    out = tmp_path / "featured.csv"
    status = main(["export", str(out), "--featured", "true", "--db", db])
    lines = out.read_text(encoding="utf-8").splitlines()
    assert (0, f"Exported 1 events to {out}.\n", 2, ["Opening", "", "", "2031-05-01"]) == (
        status,
        capsys.readouterr().out,
        len(lines),
        lines[1].split(",")[:4],
    )


def test_export_then_import_is_unchanged(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CSV export imported into its own calendar changes nothing."""
    main(["import", _csv(tmp_path), "--db", db])
    main(["export", str(tmp_path / "out.csv"), "--db", db])
    capsys.readouterr()
    status = main(["import", str(tmp_path / "out.csv"), "--on-conflict", "update", "--db", db])
    assert (0, "created 0, updated 0, unchanged 2, refused 0\n") == (
        status,
        capsys.readouterr().out,
    )


def test_a_json_backup_restores_into_an_empty_database(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """export to .json, import into a new database: the same events."""
    main(["import", _csv(tmp_path), "--db", db])
    main(["export", str(tmp_path / "backup.json"), "--db", db])
    other = f"sqlite:///{tmp_path / 'other.db'}"
    capsys.readouterr()
    status = main(["import", str(tmp_path / "backup.json"), "--db", other])
    assert (
        0,
        [
            "restored the whole calendar (ids, users and secrets kept)",
            "created 2, updated 0, unchanged 0, refused 0",
        ],
        ["Opening", "Matinee"],
    ) == (status, capsys.readouterr().out.splitlines(), _titles(other))


def test_an_ics_file_without_events_imports_nothing_and_says_so(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A calendar of to-dos: no events found, nothing written, exit 0."""
    path = tmp_path / "todo.ics"
    path.write_bytes(
        b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//x//EN\r\nBEGIN:VTODO\r\n"
        b"UID:t1\r\nSUMMARY:Buy milk\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    )
    status = main(["import", str(path), "--db", db])
    assert (
        0,
        [
            "no events found in the file; nothing imported",
            "created 0, updated 0, unchanged 0, refused 0",
        ],
        False,
    ) == (status, capsys.readouterr().out.splitlines(), (tmp_path / "cal.db").exists())


def test_a_csv_of_a_header_alone_makes_no_database(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """An import that writes nothing creates no database file."""
    status = main(["import", _csv(tmp_path, "Event Name,Event Start Date\n"), "--db", db])
    assert (0, "created 0, updated 0, unchanged 0, refused 0", False) == (
        status,
        capsys.readouterr().out.splitlines()[-1],
        (tmp_path / "cal.db").exists(),
    )


def test_a_dry_run_of_a_backup_says_what_it_would_restore(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A backup's dry run into an empty database says it would restore the calendar, and
    leaves no database behind."""
    main(["import", _csv(tmp_path), "--db", db])
    main(["export", str(tmp_path / "backup.json"), "--db", db])
    other = tmp_path / "other.db"
    capsys.readouterr()
    status = main(
        ["import", str(tmp_path / "backup.json"), "--dry-run", "--db", f"sqlite:///{other}"]
    )
    assert (
        0,
        [
            "would restore the whole calendar (ids, users and secrets kept)",
            "dry run: nothing written; the counts are what the import would do",
            "created 2, updated 0, unchanged 0, refused 0",
        ],
        False,
    ) == (status, capsys.readouterr().out.splitlines(), other.exists())


@pytest.mark.parametrize("name", ["ics", "ical", "ifb", "ICAL", ".ical"])
def test_each_ical_extension_names_the_format(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """``--format`` takes each extension's name (``ical`` and ``ifb`` are ``ics``, as the
    ``.ical`` and ``.ifb`` extensions are), for an export and an import; so does
    ``format=``, in any case, with or without the dot."""
    main(["import", _csv(tmp_path), "--db", db])
    feed = tmp_path / "feed.txt"
    exported = main(["export", str(feed), "--format", name.lower().lstrip("."), "--db", db])
    capsys.readouterr()
    imported = main(["import", str(feed), "--format", name.lower().lstrip("."), "--db", db])
    with ec.connect(db) as cal:
        again = cal.import_file(feed, format=name).summary()
    assert (0, 0, "created 0, updated 0, unchanged 2, refused 0\n", True, again) == (
        exported,
        imported,
        capsys.readouterr().out,
        feed.read_text().startswith("BEGIN:VCALENDAR"),
        "created 0, updated 0, unchanged 2, refused 0",
    )


def test_a_format_that_is_none_names_the_ones_there_are(tmp_path: Path) -> None:
    """``format=`` that names no format says which names there are."""
    with ec.connect("memory://") as cal, pytest.raises(ec.errors.InvalidParameter) as caught:
        cal.import_file(_csv(tmp_path), format="xls")
    assert {"format": "'xls' is no format; send csv, ics (or ical, ifb) or json"} == (
        caught.value.fields
    )


def test_an_ics_export_imports_again_unchanged(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """export to .ics, import it back: every event found by its UID, nothing changed."""
    main(["import", _csv(tmp_path), "--db", db])
    main(["export", str(tmp_path / "season.ics"), "--db", db])
    capsys.readouterr()
    status = main(["import", str(tmp_path / "season.ics"), "--on-conflict", "update", "--db", db])
    assert (0, "created 0, updated 0, unchanged 2, refused 0\n") == (
        status,
        capsys.readouterr().out,
    )


#: Address space for a command run under a memory limit: enough to start and import, far
#: less than the 2 GiB file it is given.
_MEMORY_LIMIT = 400 * 1024 * 1024


def _sparse(path: Path, head: bytes, tail: bytes) -> str:
    """A 2 GiB file of ``head``, NUL bytes and ``tail``, stored sparse (a few blocks)."""
    with path.open("wb") as file:
        file.write(head)
        file.seek(2 * 1024**3)
        file.write(tail)
    return str(path)


def _import_with_little_memory(path: str, tmp_path: Path) -> tuple[int, list[str]]:
    """The exit status and stderr lines of ``import path`` run with ``_MEMORY_LIMIT``."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (_MEMORY_LIMIT, _MEMORY_LIMIT))

    run = subprocess.run(  # noqa: S603 - our own interpreter and command
        [sys.executable, "-m", "events_calendar.cli", "import", path, "--db", "memory://"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        preexec_fn=limit,  # only setrlimit, before exec
        check=False,
    )
    return run.returncode, run.stderr.splitlines()


def test_a_2gb_line_in_an_ics_file_is_one_line_without_reading_it(tmp_path: Path) -> None:
    """An .ics file with a 2 GiB line, imported with 400 MiB of memory: refused in one line
    naming the line, the file never read whole."""
    path = _sparse(tmp_path / "huge.ics", b"BEGIN:VCALENDAR\r\nX-HUGE:", b"x\r\nEND:VCALENDAR\r\n")
    why = (
        "line 2 is longer than 1,048,576 bytes; no iCalendar line is (they are folded at 75 bytes)"
    )
    assert (1, [f"events-calendar: {path}: {why}"]) == _import_with_little_memory(path, tmp_path)


def test_a_json_file_too_large_for_memory_is_one_line(tmp_path: Path) -> None:
    """A 2 GiB JSON backup (one long line, as backups legitimately are) imported with
    400 MiB of memory: one line saying so, exit 1, no traceback."""
    path = _sparse(tmp_path / "huge.json", b'{"format": "events-calendar-backup", "x": "', b'"}\n')
    why = "it is too large to read into memory (2,147,483,651 bytes); a backup is read whole"
    assert (1, [f"events-calendar: {path}: {why}"]) == _import_with_little_memory(path, tmp_path)


def test_running_out_of_memory_while_parsing_is_one_line(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Memory that runs out in the iCalendar parser (a file of many small lines, too many
    for the machine) ends with one line and exit 1, never a traceback."""
    import icalendar

    def exhausted(*args: object, **kwargs: object) -> object:
        raise MemoryError

    monkeypatch.setattr(icalendar.Calendar, "from_ical", exhausted)
    (tmp_path / "feed.ics").write_bytes(FEED)
    status = main(["import", str(tmp_path / "feed.ics"), "--db", db])
    assert (
        1,
        "events-calendar: out of memory; the work is too large for this machine's memory "
        "(import a large file in parts)\n",
    ) == (status, capsys.readouterr().err)


def test_a_uid_holding_a_line_break_stays_on_its_line(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A UID with an escaped newline (``a\\nb``) is printed escaped: one line per refused
    row, in its place and in the reason that names it, the summary last."""
    vevent = "BEGIN:VEVENT\r\nUID:{}\r\nDTSTART:20310501T190000Z\r\n{}END:VEVENT\r\n"
    path = tmp_path / "odd.ics"
    path.write_text(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n"
        + vevent.format("a\\nb", "SUMMARY:Once\r\n")
        + vevent.format("a\\nb", "SUMMARY:Again\r\n")
        + vevent.format("c\\Nd\u2028e", "")
        + "END:VCALENDAR\r\n",
        encoding="utf-8",
    )
    status = main(["import", str(path), "--partial", "--db", db])
    assert (
        1,
        [
            "UID a\\nb: refused: describes the same event as an earlier row of that name "
            "(key 'uid:a\\nb')",
            "UID c\\nd\\u2028e: refused: it has no SUMMARY (the event's title)",
            "created 1, updated 0, unchanged 0, refused 2",
        ],
    ) == (status, capsys.readouterr().out.splitlines())


_BACKUP_HEAD = '{"format": "events-calendar-backup", "version": 1, "sequences": {}, '


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "it nests arrays or objects deeper than a backup does"),
        (_BACKUP_HEAD + '"records": {"event": 5}}', "its 'records.event' is not a list of"),
        (_BACKUP_HEAD + '"records": {"venue": null}}', "its 'records.venue' is not a list of"),
        (_BACKUP_HEAD + '"records": {"event": [null]}}', "its 'records.event' is not a list"),
        (_BACKUP_HEAD + '"records": {}, "users": null}', "its 'users' is not a list of objects"),
        (_BACKUP_HEAD + '"records": {}, "credentials": [1]}', "its 'credentials' is not a list"),
        (
            _BACKUP_HEAD
            + '"records": {}, "import_keys": {"event": {"k": 1000000000000000000000}}}',
            "its 'import_keys' is not a map of kinds to slugs and ids",
        ),
    ],
    ids=["deep", "records-number", "records-null", "record-null", "users", "credentials", "key"],
)
def test_a_backup_of_the_wrong_shape_is_one_line_and_exit_1(
    tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    """Every level of a backup that is read is checked: a file nested past the parser's
    depth, or holding a number or null where a list of objects goes, is one line naming it
    (``UnreadableFile``), never a traceback."""
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    assert (1, 1, True) == _import_fails(path, db, capsys, message)


def _import_fails(
    path: Path, db: str, capsys: pytest.CaptureFixture[str], message: str
) -> tuple[int, int, bool]:
    """``import path``'s exit status, its lines on stderr, and whether the first names the
    file and starts with ``message``."""
    status = main(["import", str(path), "--db", db])
    err = capsys.readouterr().err
    return status, len(err.splitlines()), err.startswith(f"events-calendar: {path}: {message}")
