"""The ``events-calendar`` command: users, seed, and one-line failures without tracebacks.

Commands run in-process through ``main([...])``; the installed console script runs as a real
process for the cases where the process boundary itself matters. ``serve`` failures run as a
process too, with a timeout, so a server that wrongly starts cannot hang the suite.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import events_calendar as ec
from events_calendar.cli import main
from events_calendar.errors import AuthenticationFailed

UNREACHABLE = "sqlite:////nonexistent-dir/x.db"


def console_script() -> str:
    found = shutil.which("events-calendar", path=str(Path(sys.executable).parent))
    assert found is not None, "the events-calendar console script is not installed"
    return found


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A database URL in a temporary directory, which is also the working directory."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("EVENTS_CALENDAR_DB", raising=False)
    return f"sqlite:///{tmp_path}/cal.db"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], list[str]]:
    """(exit status, stdout lines, stderr lines) of ``main(argv)``; SystemExit counts as exit."""
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


def process(
    argv: list[str], cwd: Path, *, db_variable: str | None = None
) -> subprocess.CompletedProcess[str]:
    """The console script run in ``cwd``, with ``$EVENTS_CALENDAR_DB`` set to ``db_variable``
    (unset by default)."""
    env = {k: v for k, v in os.environ.items() if k != "EVENTS_CALENDAR_DB"}
    if db_variable is not None:
        env["EVENTS_CALENDAR_DB"] = db_variable
    return subprocess.run(  # noqa: S603 - our own console script
        [console_script(), *argv],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        env=env,
        check=False,
    )


# -- users -----------------------------------------------------------------------------------


def test_users_add_prints_a_password_as_the_last_line_that_verifies(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``users add`` prints an application password last; it signs the user in."""
    code, out, err = run(["users", "add", "alice", "--role", "editor", "--db", db], capsys)
    assert (0, []) == (code, err)
    with ec.connect(db) as cal:
        user = cal.users.verify_password("alice", out[-1])
    assert ("alice", ec.Role.EDITOR) == (user.login, user.role)


def test_users_add_through_the_console_script(tmp_path: Path) -> None:
    """The installed ``events-calendar`` adds a user whose printed password verifies."""
    url = f"sqlite:///{tmp_path}/cal.db"
    done = process(["users", "add", "carol", "--role", "administrator", "--db", url], tmp_path)
    assert (0, "") == (done.returncode, done.stderr)
    with ec.connect(url) as cal:
        user = cal.users.verify_password("carol", done.stdout.splitlines()[-1])
    assert ("carol", ec.Role.ADMINISTRATOR) == (user.login, user.role)


@pytest.mark.parametrize(
    "argv", [["users", "add", "dora", "--role", "editor"], ["seed", "--sample"]]
)
def test_a_closed_output_is_one_line_and_exit_1_not_a_traceback(
    tmp_path: Path, argv: list[str]
) -> None:
    """Output piped to a reader that is gone (``| head -1``): one line on stderr saying so,
    exit 1, no ``BrokenPipeError`` traceback (from the command or from the flush at exit)."""
    url = f"sqlite:///{tmp_path}/cal.db"
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody will read: every write fails
    try:
        done = subprocess.run(  # noqa: S603 - our own interpreter and command
            [sys.executable, "-m", "events_calendar.cli", *argv, "--db", url],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            cwd=tmp_path,
            check=False,
        )
    finally:
        os.close(write_end)
    assert (1, ["events-calendar: standard output was closed before everything was written"]) == (
        done.returncode,
        done.stderr.splitlines(),
    )


def test_users_add_a_taken_login_fails_with_one_line(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Adding a login twice fails with one stderr line and exit status 1."""
    run(["users", "add", "alice", "--db", db], capsys)
    code, _, err = run(["users", "add", "alice", "--db", db], capsys)
    assert (1, 1) == (code, len(err))
    assert "alice" in err[0]


def test_users_list_shows_id_login_and_role(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``users list`` prints one line per user: id, login, role."""
    run(["users", "add", "alice", "--role", "administrator", "--db", db], capsys)
    run(["users", "add", "bob", "--role", "subscriber", "--db", db], capsys)
    code, out, err = run(["users", "list", "--db", db], capsys)
    assert (0, ["1\talice\tadministrator", "2\tbob\tsubscriber"], []) == (code, out, err)


def test_users_remove_forgets_the_user_and_their_password(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``users remove`` deletes the user; their password no longer verifies."""
    _, out, _ = run(["users", "add", "bob", "--db", db], capsys)
    password = out[-1]
    code, _, err = run(["users", "remove", "bob", "--db", db], capsys)
    assert (0, []) == (code, err)
    with ec.connect(db) as cal:
        assert [] == cal.users.list()
        with pytest.raises(AuthenticationFailed, match="not valid"):
            cal.users.verify_password("bob", password)


def test_users_remove_an_unknown_login_fails_with_one_line(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Removing a login that does not exist fails with one line naming it."""
    run(["migrate", "--db", db], capsys)  # a calendar, without that user
    code, _, err = run(["users", "remove", "bob", "--db", db], capsys)
    assert (1, ["events-calendar: There is no user 'bob'."]) == (code, err)


def test_users_token_prints_a_token_as_the_last_line_that_verifies(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``users token`` prints a bearer token last; it identifies the user."""
    run(["users", "add", "alice", "--role", "author", "--db", db], capsys)
    code, out, err = run(["users", "token", "alice", "--db", db], capsys)
    assert (0, []) == (code, err)
    with ec.connect(db) as cal:
        assert "alice" == cal.users.verify_token(out[-1]).login


def test_users_token_for_an_unknown_login_fails_with_one_line(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Asking a token for a login that does not exist fails with one line."""
    run(["migrate", "--db", db], capsys)  # a calendar, without that user
    code, _, err = run(["users", "token", "nobody", "--db", db], capsys)
    assert (1, ["events-calendar: There is no user 'nobody'."]) == (code, err)


# -- seed ------------------------------------------------------------------------------------


def test_seed_sample_fills_the_default_window(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``seed --sample`` loads 36 events, 33 of them in the default list window."""
    code, out, err = run(["seed", "--sample", "--db", db], capsys)
    assert (0, "Seeded 36 sample events.", []) == (code, out[-1], err)
    with ec.connect(db) as cal:
        everything = cal.events.list(start_date="2000-01-01", end_date="2100-01-01")
        assert (33, 36) == (cal.events.list().total, everything.total)


def test_seed_sample_adds_venues_organizers_and_terms(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The sample calendar has venues, organizers, categories and tags."""
    run(["seed", "--sample", "--db", db], capsys)
    with ec.connect(db) as cal:
        counts = (
            cal.venues.list().total,
            cal.organizers.list().total,
            cal.categories.list(hide_empty=False).total,
            cal.tags.list(hide_empty=False).total,
        )
    assert (4, 3, 8, 6) == counts


def test_seed_twice_leaves_the_calendar_alone(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A second ``seed --sample`` seeds nothing and says so."""
    run(["seed", "--sample", "--db", db], capsys)
    code, out, err = run(["seed", "--sample", "--db", db], capsys)
    assert (0, ["The calendar already has data; nothing seeded."], []) == (code, out, err)


# -- where the database is -------------------------------------------------------------------


def test_db_defaults_to_the_environment_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without ``--db`` the command uses ``$EVENTS_CALENDAR_DB``."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVENTS_CALENDAR_DB", f"sqlite:///{tmp_path}/from-env.db")
    run(["users", "add", "alice"], capsys)
    assert (True, False) == (
        (tmp_path / "from-env.db").is_file(),
        (tmp_path / "events.db").exists(),
    )


def test_db_defaults_to_events_db_in_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without ``--db`` or the variable the command uses ``sqlite:///events.db``."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("EVENTS_CALENDAR_DB", raising=False)
    code, _, _ = run(["users", "add", "alice"], capsys)
    with ec.connect(f"sqlite:///{tmp_path}/events.db") as cal:
        assert (0, ["alice"]) == (code, [u.login for u in cal.users.list()])


#: What every command says when ``$EVENTS_CALENDAR_DB`` is set but blank.
BLANK_VARIABLE = (
    "events-calendar: $EVENTS_CALENDAR_DB: it is set but empty; set it to a database URL "
    "(sqlite:///FILE, postgresql://..., memory://), or unset it for sqlite:///events.db"
)


#: Every command that opens the calendar ``--db`` names, but ``serve`` (run as a process).
DB_COMMANDS = [
    ["migrate"],
    ["users", "add", "alice"],
    ["users", "list"],
    ["users", "remove", "alice"],
    ["users", "token", "alice"],
    ["seed", "--sample"],
    ["import", "season.csv"],
    ["import", "season.csv", "--dry-run"],
    ["export", "out.csv"],
]


@pytest.mark.parametrize("value", ["", "  "], ids=["empty", "blank"])
@pytest.mark.parametrize("argv", DB_COMMANDS, ids=" ".join)
def test_a_blank_environment_variable_is_refused_as_an_empty_db_is(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    value: str,
) -> None:
    """``$EVENTS_CALENDAR_DB`` set but blank is one line and exit 1, and no ``events.db``
    is made (read as unset, it opened or created that file)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVENTS_CALENDAR_DB", value)
    (tmp_path / "season.csv").write_text("Event Name,Event Start Date\nGala,2031-05-01\n")
    code, out, err = run(argv, capsys)
    assert (1, [], [BLANK_VARIABLE], ["season.csv"]) == (
        code,
        out,
        err,
        sorted(path.name for path in tmp_path.iterdir()),
    )


def test_serve_refuses_a_blank_environment_variable(tmp_path: Path) -> None:
    """``serve`` with ``$EVENTS_CALENDAR_DB`` set but empty exits 1 with one line before it
    listens, rather than serving ``events.db``."""
    done = process(["serve", "--port", "8870"], tmp_path, db_variable="")
    assert (1, "", [BLANK_VARIABLE], []) == (
        done.returncode,
        done.stdout,
        done.stderr.splitlines(),
        list(tmp_path.iterdir()),
    )


# -- failures: one line, non-zero, no traceback ----------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["frobnicate"],
        ["users"],
        ["users", "add"],
        ["users", "add", "alice", "--role", "wizard"],
        ["users", "list", "--bogus"],
        ["seed"],
        ["seed", "--sample", "--db"],
    ],
    ids=lambda argv: " ".join(argv) or "(no arguments)",
)
def test_bad_arguments_fail_with_one_line(
    db: str, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """Bad arguments: exactly one stderr line, a non-zero exit, no traceback."""
    code, _, err = run(argv, capsys)
    assert (True, 1, False) == (code != 0, len(err), "Traceback" in "\n".join(err))


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        ([], "{serve,users,seed,copy,migrate,import,export}"),
        (["users"], "{add,list,remove,token}"),
    ],
    ids=["events-calendar", "users"],
)
def test_a_missing_subcommand_is_named_by_its_choices(
    db: str, capsys: pytest.CaptureFixture[str], argv: list[str], named: str
) -> None:
    """A command group given no subcommand names the subcommands it takes, not the internal
    name argparse stores the choice under (``users_command``)."""
    code, _, err = run(argv, capsys)
    prog = " ".join(["events-calendar", *argv])
    assert (
        2,
        [f"{prog}: the following arguments are required: {named} (see '{prog} --help')"],
    ) == (
        code,
        err,
    )


@pytest.mark.parametrize(
    "url",
    [UNREACHABLE, "mysql://localhost/events", "postgresql://nobody@127.0.0.1:1/none", "nonsense"],
)
@pytest.mark.parametrize(
    "argv", [["users", "list"], ["users", "add", "alice"], ["seed", "--sample"]], ids=" ".join
)
def test_unreachable_database_fails_with_one_line(
    db: str, capsys: pytest.CaptureFixture[str], argv: list[str], url: str
) -> None:
    """An unreachable database or unknown scheme: one stderr line, exit 1, no traceback."""
    code, _, err = run([*argv, "--db", url], capsys)
    assert (1, 1, False) == (code, len(err), "Traceback" in "\n".join(err))


def test_unreachable_database_message_names_the_url(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The one line says which database could not be opened."""
    _, _, err = run(["users", "add", "alice", "--db", UNREACHABLE], capsys)
    assert (
        "events-calendar: cannot open database 'sqlite:////nonexistent-dir/x.db': "
        "unable to open database file"
    ) == err[0]


@pytest.mark.parametrize(
    "argv",
    [
        ["export", "out.csv"],
        ["export", "out.json"],
        ["users", "list"],
        ["users", "token", "alice"],
        ["users", "remove", "alice"],
    ],
    ids=" ".join,
)
def test_a_command_that_reads_a_database_that_is_not_there_makes_none(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
) -> None:
    """A mistyped SQLite ``--db`` given to a command that only reads (or that needs a user
    to be there) is one line and exit 1, and creates neither the database nor the output
    file, rather than reading an empty calendar made there."""
    monkeypatch.chdir(tmp_path)
    typo = tmp_path / "typo.db"
    code, out, err = run([*argv, "--db", f"sqlite:///{typo}"], capsys)
    assert (
        1,
        [],
        [
            f"events-calendar: there is no database at 'sqlite:///{typo}'; check --db "
            "(import, seed, users add and migrate create one)"
        ],
        [],
    ) == (code, out, err, sorted(p.name for p in tmp_path.iterdir()))


@pytest.mark.parametrize(
    "argv", [["users", "add", "alice"], ["seed", "--sample"], ["migrate"]], ids=" ".join
)
def test_a_command_that_writes_creates_a_database_that_is_not_there(
    db: str, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """``users add``, ``seed`` and ``migrate`` make a new calendar at a new SQLite file,
    which the commands that read then find."""
    code, _, err = run([*argv, "--db", db], capsys)
    assert (0, [], 0) == (code, err, run(["users", "list", "--db", db], capsys)[0])


@pytest.mark.parametrize(
    "argv",
    [
        ["serve", "--db", UNREACHABLE],
        ["serve", "--db", "mysql://localhost/events"],
        ["serve", "--port", "eighty"],
        ["serve", "--per-page", "0"],
        ["serve", "--max-per-page", "zero"],
        ["serve", "--timezone", "Mars/Olympus"],
        ["serve", "--port", "99999"],
        ["serve", "--base-path", "wp-json"],
    ],
    ids=" ".join,
)
def test_serve_fails_fast_with_one_line(tmp_path: Path, argv: list[str]) -> None:
    """``serve`` with a bad argument or database exits non-zero with one line, no traceback."""
    done = process([*argv, "--port", "0"] if "--port" not in argv else argv, tmp_path)
    assert (True, 1, False) == (
        done.returncode != 0,
        len(done.stderr.splitlines()),
        "Traceback" in done.stderr,
    )


def test_console_script_reports_an_unreachable_database_in_one_line(tmp_path: Path) -> None:
    """The installed command prints one line and exits 1 for an unreachable database."""
    done = process(["users", "list", "--db", UNREACHABLE], tmp_path)
    assert (1, 1, False) == (
        done.returncode,
        len(done.stderr.splitlines()),
        "Traceback" in done.stderr,
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["migrate"],
        ["users", "list"],
        ["seed", "--sample"],
        ["copy", "--to", "sqlite://", "--from"],
    ],
)
def test_a_file_that_is_no_database_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """A text file named as the database: one line naming it, exit status 1, no traceback;
    the file is left as it was."""
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    url = f"sqlite:///{text}"
    command = [*argv, url] if argv[-1] == "--from" else [*argv, "--db", url]
    code, _, err = run(command, capsys)
    assert (1, [f"events-calendar: cannot open database {url!r}: file is not a database"]) == (
        code,
        err,
    )
    assert "hello\n" == text.read_text()


def test_serve_on_a_port_in_use_says_so_before_any_banner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A port another server holds: one line on stderr and nothing on stdout (no "Serving
    ... at" for an address it never served)."""
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        code, out, err = run(
            ["serve", "--db", f"sqlite:///{tmp_path}/x.db", "--port", str(port)], capsys
        )
    assert (1, [], True) == (
        code,
        out,
        err[0].startswith(f"events-calendar: cannot listen on 127.0.0.1:{port}: "),
    )


def test_copy_from_a_database_that_is_not_there_makes_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``copy --from`` a missing SQLite file is an error, and creates no file there."""
    missing = tmp_path / "missing.db"
    code, out, err = run(["copy", "--from", f"sqlite:///{missing}", "--to", "sqlite://"], capsys)
    assert (
        1,
        [],
        [f"events-calendar: --from: there is no database at 'sqlite:///{missing}'"],
        False,
    ) == (
        code,
        out,
        err,
        missing.exists(),
    )


def test_a_token_for_nobody_prints_no_heading(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``users token`` for an unknown login prints nothing on stdout, one line on stderr."""
    run(["migrate", "--db", db], capsys)
    code, out, err = run(["users", "token", "nobody", "--db", db], capsys)
    assert (1, [], ["events-calendar: There is no user 'nobody'."]) == (code, out, err)
