"""The ``events-calendar`` command: serve the HTTP API, manage users, seed, migrate, copy,
import and export.

Every failure a user can cause (a bad argument, an unreachable or unreadable database, a
refused operation) ends with one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn
from urllib.parse import urlsplit, urlunsplit

import attrs

from .backends import ENV, default_url
from .calendar import Calendar, connect
from .errors import CalendarError, InvalidParameter, StorageUnavailable
from .queries import EventQuery
from .settings import Settings
from .statuses import Role
from .storage import Migrated

if TYPE_CHECKING:
    from .http.limits import HttpLimits
    from .io.report import ImportReport

__all__ = ["main"]


class _Fail(Exception):
    """A one-line failure for the user."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (with a pointer to ``--help``), not a block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see '{self.prog} --help')\n")


def _url(given: str | None) -> str:
    """``--db`` when given, else ``$EVENTS_CALENDAR_DB``, else the default database; the
    variable set but blank is refused in one line, as an empty ``--db`` is."""
    if given:
        return given
    try:
        return default_url()
    except InvalidParameter as error:
        raise _Fail(f"${ENV}: {error.fields[ENV]}") from None


def _open(url: str | None, settings: Settings | None = None) -> Calendar:
    url = _url(url)
    try:
        return connect(url, settings=settings)
    except StorageUnavailable as error:
        # The database as the backend names it: a URL's password never reaches the terminal.
        database = error.data.get("database") or url
        reason = error.data.get("reason", error.message)
        raise _Fail(f"cannot open database {database!r}: {reason}") from None
    except OSError as error:
        raise _Fail(f"cannot open database {url!r}: {error}") from None


def _open_existing(url: str | None) -> Calendar:
    """``_open`` for a command that only reads, or that can only succeed on a calendar with
    data: an SQLite file that is not there is an error (a mistyped ``--db``), rather than
    an empty calendar made there to read nothing from."""
    url = _url(url)
    if _new_sqlite_file(url) is not None:
        raise _Fail(
            f"there is no database at {url!r}; check --db (import, seed, users add and "
            "migrate create one)"
        )
    return _open(url)


def _without_password(url: str) -> str:
    """The URL as it may be printed: a password in it is replaced by ``***``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def _settings(args: argparse.Namespace) -> Settings:
    try:
        return Settings(
            per_page=args.per_page, max_per_page=args.max_per_page, timezone=args.timezone
        )
    except ValueError as error:
        raise _Fail(str(error)) from None


def _limits(args: argparse.Namespace) -> HttpLimits:
    from .http.limits import HttpLimits
    from .http.throttle import SignInLimits

    def given(**options: Any) -> dict[str, Any]:
        return {k: v for k, v in options.items() if v is not None}

    try:
        return HttpLimits(
            **given(
                max_body=args.max_body,
                max_url=args.max_url,
                max_json_values=args.max_json_values,
                read_threads=args.read_threads,
            ),
            sign_ins=SignInLimits(
                **given(
                    per_address=args.sign_in_failures_per_address,
                    per_login=args.sign_in_failures_per_login,
                    window=args.sign_in_window,
                )
            ),
        )
    except ValueError as error:
        raise _Fail(str(error)) from None


def _serve(args: argparse.Namespace) -> None:
    try:
        import uvicorn

        from .http import server
        from .http.protocol import SingleWriteProtocol
    except ImportError:
        raise _Fail(
            "the HTTP server needs the 'http' extra: pip install 'events-calendar[http]'"
        ) from None
    settings = _settings(args)
    limits = _limits(args)
    url = _url(args.db)
    _open(url, settings).close()  # fail fast, with one line, on a bad database or zone
    _check_listening(args.host, args.port)
    os.environ.update(server.environment(url, settings, args.base_path, args.vendor, limits))
    base = f"http://{args.host}:{args.port}{args.base_path.rstrip('/')}/{args.vendor}/events/v1"
    print(f"Serving {url} at {base}/", flush=True)
    print(f"  curl {base}/events", flush=True)
    print(f"  curl '{base}/events?search=jazz&per_page=5'", flush=True)
    uvicorn.run(
        "events_calendar.http.server:app_from_environment",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        http=SingleWriteProtocol,  # each answer in one write to the socket
        log_level="warning",
        access_log=False,
        # uvicorn believes these headers from 127.0.0.1 unless told otherwise: any local
        # client (or tunnel) then chose its own address for the sign-in throttle.
        proxy_headers=args.forwarded_allow_ips is not None,
        forwarded_allow_ips=args.forwarded_allow_ips,
    )


def _check_listening(host: str, port: int) -> None:
    """Fail with one line, before the banner, when ``host:port`` cannot be listened on (taken
    by another server, or an address this machine does not have)."""
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as error:
        raise _Fail(f"cannot listen on {host}:{port}: {error.strerror or error}") from None


def _port(value: str) -> int:
    """``--port``: a TCP port number (0: one the system picks)."""
    if not value.isdigit() or not 0 <= int(value) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {value!r}")
    return int(value)


def _db_url(value: str) -> str:
    """``--db``: a database URL. An empty one (``--db "$UNSET"``) is refused rather than
    read as the default, which would open or create another file than the one meant."""
    if not value.strip():
        raise argparse.ArgumentTypeError(
            "give a database URL (sqlite:///FILE, postgresql://..., memory://), or leave --db"
            " out for $EVENTS_CALENDAR_DB, else sqlite:///events.db"
        )
    return value


def _base_path(value: str) -> str:
    """``--base-path``: where the API is mounted, an absolute path (``/wp-json``)."""
    if not value.startswith("/"):
        raise argparse.ArgumentTypeError(f"the base path starts with '/' (/wp-json), not {value!r}")
    return value


def _users_add(args: argparse.Namespace) -> None:
    with _open(args.db) as cal:
        cal.users.create(args.login, role=args.role)
        print(f"Created user {args.login!r} ({args.role}). Application password:")
        print(cal.users.issue_password(args.login))


def _users_list(args: argparse.Namespace) -> None:
    with _open_existing(args.db) as cal:
        for user in cal.users.list():
            print(f"{user.id}\t{user.login}\t{user.role.value}")


def _users_remove(args: argparse.Namespace) -> None:
    with _open_existing(args.db) as cal:
        cal.users.remove(args.login)
        print(f"Removed user {args.login!r} and their secrets.")


def _users_token(args: argparse.Namespace) -> None:
    with _open_existing(args.db) as cal:
        token = cal.users.issue_token(args.login)  # an unknown login fails before any output
        print(f"Bearer token for {args.login!r}:")
        print(token)


def _migrate(args: argparse.Namespace) -> None:
    with _open(args.db) as cal:  # opening a database applies the migrations it lacks
        applied = cal.backend.migrated if isinstance(cal.backend, Migrated) else ()
    if applied:
        print(f"Applied {len(applied)} migration{'' if len(applied) == 1 else 's'}:")
        for name in applied:
            print(f"  {name}")
    else:
        print("No migration to apply.")
    print("The database schema is up to date.")


def _seed(args: argparse.Namespace) -> None:
    if not args.sample:
        raise _Fail("say what to seed: --sample")
    from .sample import seed_sample

    with _open(args.db) as cal:
        if cal.venues.list(status="any").total or cal.categories.list(hide_empty=False).total:
            print("The calendar already has data; nothing seeded.")
            return
        print(f"Seeded {seed_sample(cal)} sample events.")


def _copy(args: argparse.Namespace) -> None:
    from .transfer import copy_calendar

    if args.source == args.target:
        raise _Fail("--from and --to name the same database")
    if _new_sqlite_file(args.source) is not None:  # opening it would make an empty one
        raise _Fail(f"--from: there is no database at {args.source!r}")
    with _open(args.source) as source, _open(args.target) as target:
        counts = copy_calendar(source.backend, target.backend)
    print(
        f"Copied {counts['event']:,} events, {counts['venue']:,} venues, "
        f"{counts['organizer']:,} organizers, {counts['category']:,} categories, "
        f"{counts['tag']:,} tags and {counts['user']:,} users to {_without_password(args.target)}."
    )


def _mapping(pairs: Sequence[str] | None) -> dict[str, str]:
    found: dict[str, str] = {}
    for pair in pairs or ():
        column, sep, field = pair.partition("=")
        if not sep or not column.strip() or not field.strip():
            raise _Fail(f"--map takes COLUMN=FIELD, not {pair!r}")
        found[column.strip()] = field.strip()
    return found


def _import(args: argparse.Namespace) -> int:
    """Import into ``--db``; a database file that was not there before is left only when
    the import wrote to it (a dry run, a failure, a refused row or a file with nothing to
    import make none)."""
    url = _url(args.db)
    new = _new_sqlite_file(url)
    if new is not None and args.dry_run:
        url, new = "sqlite://", None  # the empty calendar a missing file would be
    made = new if new is not None and _claim(new) else None
    report: ImportReport | None = None
    unused = made is not None
    try:
        with _open(url) as cal:
            try:
                report = _import_into(cal, args)
            finally:  # empty too: nobody else wrote to the new file meanwhile
                wrote = report is not None and report.written and bool(report.rows)
                unused = made is not None and not wrote and _empty(cal)
    finally:
        if unused and made is not None:
            _discard(made)
    for line in report.lines():
        print(line)
    return 1 if report.refused else 0


def _import_into(cal: Calendar, args: argparse.Namespace) -> ImportReport:
    try:
        return cal.import_file(
            args.file,
            format=args.format,
            kind=args.kind,
            dry_run=args.dry_run,
            on_conflict=args.on_conflict,
            partial=args.partial,
            map=_mapping(args.map),
            status=args.status,
            key=args.key,
            window=tuple(args.window) if args.window else None,
            progress=True if sys.stderr.isatty() else None,
        )
    except OSError as error:
        raise _Fail(f"{args.file}: {error.strerror or error}") from None


def _new_sqlite_file(url: str) -> Path | None:
    """The file an SQLite URL names when it does not exist yet, else ``None`` (another
    database, an in-memory one, or a file that is there)."""
    scheme, sep, _ = url.partition("://")
    if not sep or scheme.lower() != "sqlite":
        return None
    from .backends.sqlite import SQLiteBackend

    path = SQLiteBackend.path_of(url)
    return None if path is None or Path(path).exists() else Path(path)


def _claim(path: Path) -> bool:
    """Create ``path`` empty (SQLite reads an empty file as an empty database) unless
    something else made it first: whether this process made it, and so may remove it."""
    try:
        path.touch(exist_ok=False)
    except OSError:  # there now, or not creatable: the database's opening will say why
        return False
    return True


def _empty(cal: Calendar) -> bool:
    from .transfer import FAMILIES

    return not any(cal.backend.last_id(family) for family in FAMILIES)


def _discard(path: Path) -> None:
    """Remove an SQLite file this process made, and any journal SQLite left beside it."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


#: The filters of ``GET /events`` (every ``EventQuery`` field but paging).
_EXPORT_FILTERS = tuple(
    f.name for f in attrs.fields(EventQuery) if f.name not in ("page", "per_page")
)


def _export(args: argparse.Namespace) -> None:
    filters = {
        name: getattr(args, name) for name in _EXPORT_FILTERS if getattr(args, name) is not None
    }
    with _open_existing(args.db) as cal:
        try:
            written = cal.export_file(
                args.file,
                format=args.format,
                progress=True if sys.stderr.isatty() else None,
                **filters,
            )
        except OSError as error:
            raise _Fail(f"{args.file}: {error.strerror or error}") from None
    what = "the calendar" if args.file.lower().endswith(".json") or args.format == "json" else ""
    noun = f"{what} ({written:,} events)" if what else f"{written:,} events"
    print(f"Exported {noun} to {args.file}.")


def _io_parsers(commands: Any, db_help: str) -> None:
    """``import`` and ``export``."""
    from .io.formats import FORMAT_NAMES

    imp = commands.add_parser(
        "import", help="import a CSV, iCalendar (.ics) or JSON backup file into the calendar"
    )
    imp.add_argument("file")
    imp.add_argument("--format", choices=FORMAT_NAMES, help="default: the extension")
    imp.add_argument(
        "--kind",
        choices=["events", "venues", "organizers"],
        help="what a CSV file holds (default: events); refused for a JSON backup",
    )
    imp.add_argument(
        "--dry-run", action="store_true", help="report what would change; write nothing"
    )
    imp.add_argument(
        "--on-conflict",
        default="skip",
        choices=["skip", "update"],
        help="what to do with a row that matches a stored record (default: skip)",
    )
    imp.add_argument("--partial", action="store_true", help="import the good rows, refuse the bad")
    imp.add_argument(
        "--map",
        action="append",
        metavar="COLUMN=FIELD",
        help="read a CSV column as a field (repeatable), e.g. --map 'When=start_date'",
    )
    imp.add_argument(
        "--status",
        help="the status imported records get: publish, future, draft, pending or private "
        "(default: the file's, else publish)",
    )
    imp.add_argument("--key", metavar="COLUMN", help="the CSV column that identifies a row")
    imp.add_argument(
        "--window",
        nargs=2,
        metavar=("START", "END"),
        help="the days an iCalendar file's recurring events are expanded over "
        "(default: yesterday to 24 months ahead)",
    )
    imp.add_argument("--db", type=_db_url, help=db_help)
    imp.set_defaults(run=_import)

    exp = commands.add_parser(
        "export", help="export events to CSV or iCalendar (.ics), or the calendar to JSON"
    )
    exp.add_argument("file")
    exp.add_argument("--format", choices=FORMAT_NAMES, help="default: the extension")
    for name in _EXPORT_FILTERS:
        exp.add_argument(f"--{name.replace('_', '-')}", dest=name, help="as in GET /events")
    exp.add_argument("--db", type=_db_url, help=db_help)
    exp.set_defaults(run=_export)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="events-calendar", description="An events calendar with a REST API.")
    commands = parser.add_subparsers(dest="command", required=True)
    db_help = "database URL (default: $EVENTS_CALENDAR_DB, else sqlite:///events.db)"

    serve = commands.add_parser("serve", help="serve the tribe/events/v1 REST API")
    serve.add_argument("--db", type=_db_url, help=db_help)
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=_port, default=8000)
    serve.add_argument("--per-page", type=int, default=10, help="default page size")
    serve.add_argument("--max-per-page", type=int, default=50, help="largest page size")
    serve.add_argument("--timezone", default="UTC", help="the calendar's time zone")
    serve.add_argument("--base-path", type=_base_path, default="/wp-json")
    serve.add_argument("--vendor", default="tribe")
    serve.add_argument("--workers", type=int, default=1)
    serve.add_argument(
        "--max-body",
        type=int,
        metavar="BYTES",
        help="largest request body; larger ones get 413 unread (default: 4 MiB)",
    )
    serve.add_argument(
        "--max-url",
        type=int,
        metavar="BYTES",
        help="longest URL (path and query); longer ones get 414 (default: 8 KiB)",
    )
    serve.add_argument(
        "--max-json-values",
        type=int,
        metavar="N",
        help="most values (keys included) in a JSON body; more get 413 undecoded "
        "(default: 100,000)",
    )
    serve.add_argument(
        "--sign-in-failures-per-address",
        type=int,
        metavar="N",
        help="failed sign-ins a client address may make per window before 429 (default: 20)",
    )
    serve.add_argument(
        "--sign-in-failures-per-login",
        type=int,
        metavar="N",
        help="failed sign-ins at one login per window before 429 at the addresses that "
        "failed at it, except those it signed in from (default: 10)",
    )
    serve.add_argument(
        "--sign-in-window",
        type=float,
        metavar="SECONDS",
        help="the sliding window failed sign-ins are counted in (default: 60)",
    )
    serve.add_argument(
        "--read-threads",
        type=int,
        metavar="N",
        help="requests a worker answers at once in threads, and as many reads of one record "
        "apart; signed-in writes are batched apart (default: 2)",
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        help="addresses of the proxies whose X-Forwarded-For and X-Forwarded-Proto are "
        "believed, comma-separated ('*': any); by default none, and a client's address is "
        "the connection's",
    )
    serve.set_defaults(run=_serve)

    users = commands.add_parser("users", help="manage users and their secrets")
    user_commands = users.add_subparsers(dest="users_command", required=True)
    add = user_commands.add_parser("add", help="add a user; prints an application password")
    add.add_argument("login")
    add.add_argument("--role", default="subscriber", choices=[r.value for r in Role])
    add.set_defaults(run=_users_add)
    listing = user_commands.add_parser("list", help="list users")
    listing.set_defaults(run=_users_list)
    remove = user_commands.add_parser("remove", help="remove a user")
    remove.add_argument("login")
    remove.set_defaults(run=_users_remove)
    token = user_commands.add_parser("token", help="issue a bearer token")
    token.add_argument("login")
    token.set_defaults(run=_users_token)
    for sub in (add, listing, remove, token):
        sub.add_argument("--db", type=_db_url, help=db_help)
    _name_choices(user_commands)

    seed = commands.add_parser("seed", help="load data into a calendar")
    seed.add_argument("--sample", action="store_true", help="a realistic sample calendar")
    seed.add_argument("--db", type=_db_url, help=db_help)
    seed.set_defaults(run=_seed)

    copy = commands.add_parser(
        "copy", help="copy a whole calendar into an empty database (e.g. SQLite to PostgreSQL)"
    )
    copy.add_argument(
        "--from", dest="source", type=_db_url, required=True, help="database URL to read"
    )
    copy.add_argument(
        "--to", dest="target", type=_db_url, required=True, help="empty database URL to fill"
    )
    copy.set_defaults(run=_copy)

    migrate = commands.add_parser("migrate", help="bring a database's schema up to date")
    migrate.add_argument("--db", type=_db_url, help=db_help)
    migrate.set_defaults(run=_migrate)
    _io_parsers(commands, db_help)
    _name_choices(commands)
    return parser


def _name_choices(group: Any) -> None:
    """Have a group of subcommands named by its choices (``{add,list,remove,token}``) in
    usage errors, such as the one for a missing subcommand, rather than by its ``dest``, a
    name of the code's that the user never typed."""
    group.metavar = "{" + ",".join(group.choices) + "}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int | None] = args.run
    try:
        status = run(args)
        sys.stdout.flush()  # a closed pipe fails here, not at exit with a traceback
    except BrokenPipeError:
        return _output_closed()
    except _Fail as failure:
        print(f"events-calendar: {failure}", file=sys.stderr)
        return 1
    except CalendarError as error:
        print(f"events-calendar: {error.message}", file=sys.stderr)
        return 1
    except MemoryError:  # a file or calendar too large for this machine: still one line
        print(
            "events-calendar: out of memory; the work is too large for this machine's "
            "memory (import a large file in parts)",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        return 130
    return status or 0


def _output_closed() -> int:
    """Exit 1 with one line on stderr when standard output was closed early (``| head -1``):
    what was not written is lost (for ``users add``, the password, printed last), and
    stdout is pointed at the null device so that Python's flush at exit finds no pipe to
    fail on either."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # a stdout with no descriptor (a test's capture)
        pass
    print(
        "events-calendar: standard output was closed before everything was written",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
